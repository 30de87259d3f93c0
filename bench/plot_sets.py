#!/usr/bin/env python3
"""Plot bench_sets's results, dependency-free (plot_qf.py's raster and PNG layer).

  python3 bench/plot_sets.py LOG [OUTDIR] [--table]

LOG is bench_sets's stdout. Its table rows are read,
  | PRIMITIVE | WORKLOAD OP METHOD | n | ms | BASELINE ms | ratio | GB/s | % |
(PRIMITIVE "sets dev": the device work on device-resident sets, beside the
copy of the same bytes; "sets device api": gclq_intersect_pairs_device, the
pairs on the device too; "sets all dev": every pair of a collection), and
its "sets ratio," lines (bench sets_auto_ratio). A row that appears twice
keeps its last value. OUTDIR (default bench/results) receives, where the
log has the rows:
  sets_sisi.png     one pair (SISI and the paper's Fig. 9 datasets): the
                    time of each method per workload, count and write
                    panels, log scale, the device-to-device copy of the
                    input as a black bar
  sets_batches.png  batched pairs (every edge of R-MAT or of a data graph
                    as a pair of adjacency lists, the triangle workload):
                    time per method
  sets_device_api.png  the same workloads through the device call, counts
                    (one pair; every edge)
  sets_all.png      all pairs (MISI) of each collection: time per method
  sets_ratio.png    AUTO's per-pair crossover: binary search for pairs with
                    |b| >= r |a|, merge path or IP_OBS for the rest, summed
                    device time against r, one line per (R-MAT scale, rest)
--table prints a markdown table per primitive: workloads x methods (ms),
the copy's time, and the best method with AUTO's ratio to it.
"""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import plot_qf as P  # noqa: E402
from plot_kcliques import log_bars  # noqa: E402

METHODS = ["merge-path", "binary-search", "auto", "hash", "bitmap", "bitmap-dynamic", "ip-obs", "ip-hash",
           "inverted-index", "bit-matrix popcount", "bit-matrix tensor cores"]
COPY = "copy of the input"
PRIMITIVES = ("sets dev", "sets device api", "sets all dev")


def split_variant(variant):
    """(workload, op, method) of "WORKLOAD [count|write] METHOD", or None"""
    for m in sorted(METHODS, key=len, reverse=True):
        if variant.endswith(" " + m):
            rest = variant[:-len(m) - 1]
            for op in ("count", "write"):
                if rest.endswith(" " + op):
                    return rest[:-len(op) - 1], op, m
            return rest, "count", m
    return None


def read(path):
    """rows {(primitive, workload, op, method): (ms, baseline ms)} and ratio lines"""
    rows, ratios = {}, {}
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.strip()
            if line.startswith("|"):
                p = [c.strip() for c in line.strip("|").split("|")]
                if len(p) < 5 or p[0] not in PRIMITIVES:
                    continue
                v = split_variant(p[1])
                if v is None:
                    continue
                try:
                    ms = float(p[3])
                except ValueError:
                    continue
                base = p[4].split()
                base_ms = None
                if len(base) == 2 and base[0] == "copy" and base[1] != "-":
                    base_ms = float(base[1])
                rows[(p[0],) + v] = (ms, base_ms)
            elif line.startswith("sets ratio,"):
                f_ = line.split(",")
                try:
                    scale = f_[1]
                    r = int(f_[2].split()[1])
                    merge = float(f_[8].split()[2])
                    obs = float(f_[9].split()[2])
                except (IndexError, ValueError):
                    continue
                ratios[(scale, r)] = (merge, obs)
    return rows, ratios


def colour(method):
    if method == COPY:
        return P.BLACK
    return P.PALETTE[METHODS.index(method) % len(P.PALETTE)]


def workloads(rows, prim, keep):
    seen = []
    for key in rows:
        if key[0] == prim and keep(key[1]) and key[1] not in seen:
            seen.append(key[1])
    return seen


def panel(rows, prim, op, groups, title, with_copy):
    by = {(k[1], k[3]): v for k, v in rows.items() if k[0] == prim and k[2] == op}
    if not any((g, m) in by for g in groups for m in METHODS):
        return None
    bars = [(m, colour(m), [by[(g, m)][0] if (g, m) in by else None for g in groups])
            for m in METHODS if any((g, m) in by for g in groups)]
    if with_copy:
        copies = []
        for g in groups:
            c = [by[(g, m)][1] for m in METHODS if (g, m) in by and by[(g, m)][1]]
            copies.append(c[0] if c else None)
        if any(copies):
            bars.append((COPY, P.BLACK, copies))
    return log_bars(title, "ms", [g.replace(" every edge", "") for g in groups], bars)


def plot_kind(rows, out, prim, keep, ops, title, with_copy):
    groups = workloads(rows, prim, keep)
    if not groups:
        return
    P.save_panels(out, [panel(rows, prim, op, groups, title % op, with_copy) for op in ops])


def plot_ratio(ratios, out):
    if not ratios:
        return
    series = []
    for scale in sorted({s for s, _ in ratios}, key=lambda s: int(s.split()[-1])):
        pts = sorted((r, v) for (s, r), v in ratios.items() if s == scale)
        for i, name in enumerate(("merge path", "ip-obs")):
            series.append(("%s, rest by %s" % (scale, name),
                           [(math.log2(r), v[i]) for r, v in pts if v[i] > 0], i == 1))
    P.line_plot(out, "AUTO's ratio: binary search where |b| >= r |a|", "log2 r", "device ms (sum of both parts)",
                series)
    print("wrote", out)


def table(rows):
    for prim in PRIMITIVES:
        keys = [k for k in rows if k[0] == prim]
        if not keys:
            continue
        methods = [m for m in METHODS if any(k[3] == m for k in keys)]
        print("\n| workload | op | " + " | ".join(methods) + " | copy | best | auto / best |")
        print("|---|---|" + "---|" * (len(methods) + 3))
        seen = []
        for k in keys:
            if (k[1], k[2]) not in seen:
                seen.append((k[1], k[2]))
        for w, op in seen:
            vals = {m: rows[(prim, w, op, m)] for m in methods if (prim, w, op, m) in rows}
            cells = ["%.3f" % vals[m][0] if m in vals else "-" for m in methods]
            copy = [v[1] for v in vals.values() if v[1]]
            real = {m: v[0] for m, v in vals.items() if m != "auto"}
            best = min(real, key=real.get) if real else None
            ratio = "%.2f" % (vals["auto"][0] / real[best]) if best and "auto" in vals else "-"
            print("| %s | %s | %s | %s | %s | %s |" % (w, op, " | ".join(cells), "%.3f" % copy[0] if copy else "-",
                                                       best or "-", ratio))


def main(argv):
    got = P.log_args(argv, __doc__)
    if got is None:
        return 2
    log, outdir, want_table = got
    rows, ratios = read(log)
    if not rows and not ratios:
        print("no bench_sets rows in", log)
        return 1
    os.makedirs(outdir, exist_ok=True)
    plot_kind(rows, os.path.join(outdir, "sets_sisi.png"), "sets dev", lambda w: not w.endswith("every edge"),
              ("count", "write"), "one pair (%s): device time per method", True)
    plot_kind(rows, os.path.join(outdir, "sets_batches.png"), "sets dev", lambda w: w.endswith("every edge"),
              ("count",), "every edge of a graph as a pair (%s): device time per method", True)
    api = "sets device api"
    P.save_panels(os.path.join(outdir, "sets_device_api.png"),
                  [panel(rows, api, "count", workloads(rows, api, keep), title, True) for keep, title in (
                      (lambda w: not w.endswith("every edge"), "the device call, one pair (count): time per method"),
                      (lambda w: w.endswith("every edge"), "the device call, every edge as a pair (count)"))
                   if workloads(rows, api, keep)])
    plot_kind(rows, os.path.join(outdir, "sets_all.png"), "sets all dev", lambda w: True, ("count",),
              "all pairs (%s): device time per method", False)
    plot_ratio(ratios, os.path.join(outdir, "sets_ratio.png"))
    if want_table:
        table(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
