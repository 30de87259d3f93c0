#!/usr/bin/env python3
"""Plot bench_kcliques's results, dependency-free (plot_qf.py's raster and PNG layer).

  python3 bench/plot_kcliques.py LOG [OUTDIR] [--table]

LOG is bench_kcliques's stdout; its "kc," lines are read:
  kc,graph,n,m,k,method,ran,backend,status,count,omega,time_ms,order_ms,
     total_ms,peak_mib,agree,ics_ms,ics_ratio,kclist_ms,kclist_ratio,
     target_ms,target,nodes,reps
and its "kc-note," lines (LEVEL_JOIN's "level sizes:"). A row that appears
twice keeps its last value. OUTDIR (default bench/results) receives:
  kcliques_time.png         count time (orientation included) per method x
                            graph for k = 4 and k = 6, log scale, beside the
                            reference figures (Almasri et al. ICS'22 on an
                            H200; kClist on 16 cores) as black and grey bars
  kcliques_edges_per_s.png  the figures of Wu et al., "Multipredicate Join
                            Algorithms for Accelerating Relational Graph
                            Processing on GPUs" (Fig. 15a-b): triangles and
                            4-cliques, edges per second against edges, one
                            colour per method (R-MAT scales joined by a line,
                            data graphs as markers alone)
  kcliques_memory.png       its Fig. 15c-d: peak device memory against edges
                            for triangles and 4-cliques (CUDA rows)
  kcliques_level_sizes.png  where notes say "level sizes:", the numbers
                            after it against the level, one line per
                            (graph, k, method)
--table prints a markdown table of every graph x k: the time of each method
(ms), the reference figures and the best CUDA time's ratio to ICS'22.
"""
import math
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import plot_qf as P  # noqa: E402

FIELDS = ("graph n m k method ran backend status count omega time_ms order_ms total_ms peak_mib agree ics_ms "
          "ics_ratio kclist_ms kclist_ratio target_ms target nodes reps").split()
METHODS = ["pivot", "lftj", "level-join", "grouped", "bitset", "host-pivot", "host-ordered"]


def num(s):
    """a float, or None for "-" """
    return None if s in ("-", "") else float(s)


def read(path):
    """the rows {(graph, k, method): row} and the level notes [(graph, k, method, sizes)]"""
    rows, notes = {}, {}
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("kc,"):
                p = line[3:].split(",")
                if len(p) != len(FIELDS):
                    continue
                r = dict(zip(FIELDS, p))
                r["m"] = int(r["m"])
                for key in ("time_ms", "order_ms", "total_ms", "peak_mib", "ics_ms", "kclist_ms", "target_ms"):
                    r[key] = num(r[key])
                rows[(r["graph"], r["k"], r["method"])] = r
            elif line.startswith("kc-note,") and "level sizes:" in line:
                graph, k, method, text = line[8:].split(",", 3)
                sizes = [int(x) for x in re.findall(r"\d+", text.split("level sizes:", 1)[1].split(";")[0])]
                if sizes:
                    notes[(graph, k, method)] = sizes
    return rows, notes


def ok_rows(rows):
    return [r for r in rows.values() if r["status"] == "ok" and r["time_ms"] is not None]


def graphs_by_edges(rows):
    seen = {}
    for r in rows:
        seen[r["graph"]] = r["m"]
    return sorted(seen, key=lambda g: seen[g])


def colour(method):
    return P.PALETTE[METHODS.index(method) % len(P.PALETTE)] if method in METHODS else P.GREY


def frame(cv, box):
    x0, y0, x1, y1 = box
    cv.line(x0, y1, x1, y1, P.BLACK, 1), cv.line(x0, y0, x0, y1, P.BLACK, 1)
    cv.line(x0, y0, x1, y0, P.BLACK, 1), cv.line(x1, y0, x1, y1, P.BLACK, 1)


def log_bars(title, ylabel, groups, bars):
    """Grouped bars on a log scale; bars: [(label, colour, [value per group or None])].
    The canvas widens with the groups; the group labels are drawn small."""
    ys = [v for _, _, vals in bars for v in vals if v]
    legend = [(lab, col, False, None) for lab, col, _ in bars]
    saved = P.W
    P.W = max(900, 140 + 120 * len(groups))
    try:
        cv, fx, fy, box = P.figure(title, "", ylabel, legend, (0, len(groups)), ys, logy=True,
                                   xticks=[(g + 0.5, "") for g in range(len(groups))])
    finally:
        P.W = saved
    x0, y0, x1, y1 = box
    gw = (x1 - x0) / len(groups)
    bw = gw * 0.84 / len(bars)
    for g, name in enumerate(groups):
        cv.text(int(x0 + g * gw + gw / 2 - P.text_width(name, 1) / 2), y1 + 9, name, P.BLACK, 1)
        for b, (_, col, vals) in enumerate(bars):
            if vals[g]:
                bx = x0 + g * gw + gw * 0.08 + b * bw
                cv.rect(bx + 1, fy(vals[g]), bx + bw - 1, y1 - 1, col)
    frame(cv, box)
    return cv


def plot_time(rows, out):
    panels = []
    for k in ("4", "6"):
        at = [r for r in rows if r["k"] == k]
        if not at:
            continue
        groups = graphs_by_edges(at)
        by = {(r["graph"], r["method"]): r for r in at}
        bars = [(m, colour(m), [by[(g, m)]["time_ms"] if (g, m) in by else None for g in groups])
                for m in METHODS if any((g, m) in by for g in groups)]

        def ref(key):
            vals = []
            for g in groups:
                v = [r[key] for r in at if r["graph"] == g and r[key]]
                vals.append(v[0] if v else None)
            return vals
        for label, key, col in (("Almasri et al. ICS 2022 (H200)", "ics_ms", P.BLACK),
                                ("kClist (16 cores)", "kclist_ms", P.GREY)):
            vals = ref(key)
            if any(vals):
                bars.append((label, col, vals))
        panels.append(log_bars("k-cliques, k = %s: count time from the device-resident graph" % k, "ms", groups,
                               bars))
    P.save_panels(out, panels)


def by_edges_panel(rows, k, title, ylabel, value, methods):
    """one marker per (graph, method), R-MAT points of a method joined; x = log10 edges"""
    at = [r for r in rows if r["k"] == k and r["method"] in methods and value(r)]
    if not at:
        return None
    present = [m for m in methods if any(r["method"] == m for r in at)]
    legend = [(m, colour(m), False, METHODS.index(m)) for m in present]
    xs = [math.log10(r["m"]) for r in at]
    lo, hi = math.floor(min(xs)), math.ceil(max(xs))
    hi = max(hi, lo + 1)
    ticks = [(d, "10^%d" % d) for d in range(lo, hi + 1)]
    cv, fx, fy, box = P.figure(title, "edges", ylabel, legend, (lo, hi), [value(r) for r in at], logy=True,
                               xticks=ticks)
    for m in present:
        pts = sorted((r["m"], value(r), r["graph"]) for r in at if r["method"] == m)
        rmat = [(math.log10(e), v) for e, v, g in pts if g.startswith("rmat")]
        for (xa, ya), (xb, yb) in zip(rmat, rmat[1:]):
            cv.line(fx(xa), fy(ya), fx(xb), fy(yb), colour(m), 2)
        for e, v, g in pts:
            cv.marker(fx(math.log10(e)), fy(v), METHODS.index(m), colour(m))
    frame(cv, box)
    return cv


def plot_by_edges(rows, out, ylabel, value, what, methods):
    P.save_panels(out, [by_edges_panel(rows, k, "%s: %s" % (name, what), ylabel, value, methods)
                        for k, name in (("3", "triangles"), ("4", "4-cliques"))])


def plot_levels(notes, out):
    if not notes:
        return
    series = [("%s k=%s %s" % key, [(i + 1, max(v, 1)) for i, v in enumerate(sizes)], False)
              for key, sizes in sorted(notes.items())]
    P.line_plot(out, "level sizes (stats.notes) per level", "level", "size", series)
    print("wrote", out)


def table(rows):
    """markdown: graph, k, each method's ms, the references, best CUDA ms / ICS'22"""
    present = [m for m in METHODS if any(r["method"] == m for r in rows)]
    print("| graph | k | " + " | ".join(present) + " | ICS'22 | kClist | ICS'22 / best CUDA |")
    print("|---|---|" + "---|" * (len(present) + 3))
    keys = sorted({(r["m"], r["graph"], r["k"]) for r in rows},
                  key=lambda t: (t[0], t[1], 99 if t[2] == "all" else int(t[2])))
    for _, g, k in keys:
        at = {r["method"]: r for r in rows if r["graph"] == g and r["k"] == k}
        cells = ["%.3f" % at[m]["time_ms"] if m in at else "-" for m in present]
        refs = [r for r in at.values() if r["ics_ms"] or r["kclist_ms"]]
        ics = refs[0]["ics_ms"] if refs and refs[0]["ics_ms"] else None
        kcl = refs[0]["kclist_ms"] if refs and refs[0]["kclist_ms"] else None
        cuda = [r["time_ms"] for r in at.values() if r["backend"] == "cuda"]
        ratio = "%.2f" % (ics / min(cuda)) if ics and cuda else "-"
        print("| %s | %s | %s | %s | %s | %s |" % (g, k, " | ".join(cells), "%g" % ics if ics else "-",
                                                   "%g" % kcl if kcl else "-", ratio))


def main(argv):
    got = P.log_args(argv, __doc__)
    if got is None:
        return 2
    log, outdir, want_table = got
    all_rows, notes = read(log)
    rows = ok_rows(all_rows)
    if not rows:
        print("no kc, rows with status ok in", log)
        return 1
    os.makedirs(outdir, exist_ok=True)
    plot_time(rows, os.path.join(outdir, "kcliques_time.png"))
    plot_by_edges(rows, os.path.join(outdir, "kcliques_edges_per_s.png"), "edges per second",
                  lambda r: r["m"] / (r["time_ms"] * 1e-3) if r["time_ms"] > 0 else None, "edges per second",
                  METHODS)
    plot_by_edges(rows, os.path.join(outdir, "kcliques_memory.png"), "peak device MiB",
                  lambda r: r["peak_mib"] or None, "peak device memory", METHODS[:5])
    plot_levels(notes, os.path.join(outdir, "kcliques_level_sizes.png"))
    if want_table:
        table(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
