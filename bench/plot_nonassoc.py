#!/usr/bin/env python3
"""Plot bench_nonassoc's results: time against fill for the four methods.

  python3 bench/plot_nonassoc.py RESULTS [OUT.svg] [--n=LOG2]

RESULTS is either bench_nonassoc's stdout (the lines starting "csv,") or the
file NONASSOC_CSV=FILE wrote. One panel per size (or only 2^LOG2); x = fill
(the no-break input is drawn at the right edge, labelled), y = ms on a log
scale, one line per method, CUB's prefix max of the same length dashed.
Dependency-free: writes SVG by hand (no matplotlib needed).
"""
import math
import sys

COLORS = {"associative": "#1f77b4", "parallel_merging": "#ff7f0e",
          "sequential_shifting": "#2ca02c", "segmented_layouts": "#d62728"}
FIELDS = ["n", "input", "fill", "method", "ms", "cub_ms", "ratio", "rounds", "fell_back"]


def read_rows(path):
    rows = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line.startswith("csv,"):
                line = line[4:]
            parts = line.split(",")
            if len(parts) != len(FIELDS) or parts[0] == "n":
                continue
            try:
                r = dict(zip(FIELDS, parts))
                r["n"] = int(r["n"])
                r["fill"] = float(r["fill"])
                r["ms"] = float(r["ms"])
                r["cub_ms"] = float(r["cub_ms"])
                r["rounds"] = int(r["rounds"])
                r["fell_back"] = int(r["fell_back"])
            except ValueError:
                continue
            rows.append(r)
    return rows


def panel(rows, n, x0, y0, w, h):
    """SVG elements of one panel at (x0, y0), w x h pixels."""
    out = []
    pad_l, pad_r, pad_t, pad_b = 60, 20, 30, 45
    pw, ph = w - pad_l - pad_r, h - pad_t - pad_b
    fills = sorted({r["fill"] for r in rows if r["input"] != "no-break"})
    xs = fills + [1.05]  # the no-break input at the right edge
    xmin, xmax = 0.0, 1.1
    ys = [r["ms"] for r in rows] + [r["cub_ms"] for r in rows]
    lo = 10 ** math.floor(math.log10(max(min(ys), 1e-4)))
    hi = 10 ** math.ceil(math.log10(max(ys)))
    if hi <= lo:
        hi = lo * 10

    def px(x):
        return x0 + pad_l + (x - xmin) / (xmax - xmin) * pw

    def py(y):
        return y0 + pad_t + (1 - (math.log10(max(y, lo)) - math.log10(lo)) / (math.log10(hi) - math.log10(lo))) * ph

    out.append('<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="none" stroke="#444"/>'
               % (x0 + pad_l, y0 + pad_t, pw, ph))
    out.append('<text x="%.1f" y="%.1f" font-size="14" text-anchor="middle">position scan u32, n = 2^%d</text>'
               % (x0 + pad_l + pw / 2, y0 + 18, round(math.log2(n))))
    d = lo
    while d <= hi * 1.001:  # decades
        y = py(d)
        out.append('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#ddd"/>' % (x0 + pad_l, y, x0 + pad_l + pw, y))
        out.append('<text x="%.1f" y="%.1f" font-size="11" text-anchor="end">%g</text>' % (x0 + pad_l - 5, y + 4, d))
        d *= 10
    for x in xs:
        label = "no break" if x > 1 else "%.2f" % x
        out.append('<text x="%.1f" y="%.1f" font-size="11" text-anchor="middle">%s</text>'
                   % (px(x), y0 + pad_t + ph + 16, label))
    out.append('<text x="%.1f" y="%.1f" font-size="12" text-anchor="middle">fill</text>'
               % (x0 + pad_l + pw / 2, y0 + h - 8))
    out.append('<text x="%.1f" y="%.1f" font-size="12" text-anchor="middle" transform="rotate(-90 %.1f %.1f)">ms</text>'
               % (x0 + 16, y0 + pad_t + ph / 2, x0 + 16, y0 + pad_t + ph / 2))

    def xof(r):
        return 1.05 if r["input"] == "no-break" else r["fill"]

    cub = sorted({(xof(r), r["cub_ms"]) for r in rows})
    if cub:
        pts = " ".join("%.1f,%.1f" % (px(x), py(y)) for x, y in cub)
        out.append('<polyline points="%s" fill="none" stroke="#000" stroke-dasharray="5,4"/>' % pts)
    for m, color in COLORS.items():
        pts = sorted((xof(r), r["ms"], r["fell_back"], r["rounds"]) for r in rows if r["method"] == m)
        if not pts:
            continue
        out.append('<polyline points="%s" fill="none" stroke="%s" stroke-width="2"/>'
                   % (" ".join("%.1f,%.1f" % (px(x), py(y)) for x, y, _, _ in pts), color))
        for x, y, fb, rounds in pts:  # hollow marker: fell back to associative
            out.append('<circle cx="%.1f" cy="%.1f" r="4" fill="%s" stroke="%s"><title>%s: %.3f ms, %d rounds%s</title></circle>'
                       % (px(x), py(y), "white" if fb else color, color, m, y, rounds, ", fell back" if fb else ""))
    return out


def main(argv):
    args = [a for a in argv if not a.startswith("--")]
    only = [int(a[4:]) for a in argv if a.startswith("--n=")]
    if not args:
        print(__doc__)
        return 2
    rows = read_rows(args[0])
    out_path = args[1] if len(args) > 1 else "nonassoc.svg"
    sizes = sorted({r["n"] for r in rows})
    if only:
        sizes = [n for n in sizes if round(math.log2(n)) in only]
    if not sizes:
        print("no rows found in %s" % args[0])
        return 1
    w, h = 560, 380
    total_h = h * len(sizes) + 40
    svg = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif">' % (w + 190, total_h),
           '<rect width="100%" height="100%" fill="white"/>']
    for k, n in enumerate(sizes):
        svg += panel([r for r in rows if r["n"] == n], n, 0, k * h, w, h)
    ly = 40
    for m, color in list(COLORS.items()) + [("CUB prefix max", "#000")]:
        dash = ' stroke-dasharray="5,4"' if m.startswith("CUB") else ""
        svg.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="2"%s/>' % (w, ly, w + 25, ly, color, dash))
        svg.append('<text x="%d" y="%d" font-size="12">%s</text>' % (w + 30, ly + 4, m))
        ly += 20
    svg.append('<text x="%d" y="%d" font-size="11">hollow: bound hit,</text>' % (w, ly + 10))
    svg.append('<text x="%d" y="%d" font-size="11">finished associatively</text>' % (w, ly + 24))
    svg.append("</svg>")
    with open(out_path, "w", encoding="utf-8") as f:
        f.write("\n".join(svg) + "\n")
    print("wrote %s (%d sizes, %d rows)" % (out_path, len(sizes), len(rows)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
