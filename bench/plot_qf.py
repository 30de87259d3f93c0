#!/usr/bin/env python3
"""Plot bench_qf's results as PNG line plots (dependency-free).

  python3 bench/plot_qf.py LOG [OUTDIR] [--ref BENCH=G/S ...] [--no-paper]

LOG is bench_qf's stdout: the lines starting "csv," are read, fields
  csv,bench,kind,q,r,fill,variant,n,ms,gitems_per_s
(other lines are skipped; a point that appears twice keeps its last value).
OUTDIR (default bench/results) receives, where the log has the rows:
  qf_lookup_q<Q>.png        Figs. 8-9: G lookups/s against fill, one line per
                            (kind, variant), the Bloom baseline as "Bloom"
  qf_lookup_batch_q<Q>.png  Fig. 10a: G lookups/s against log2 batch size
  qf_build_q<Q>.png         Figs. 11-12: G items/s against fill, one line per
                            (kind, build method); "dedup" methods dashed
  qf_update_q<Q>.png        Fig. 10c: G keys/s against log2 batch size,
                            one line per (kind, insert/delete)
  qf_dedup.png              Fig. 13 (bench qf_dedup): G items/s against fill,
                            a panel per kind, one colour per build method,
                            solid plain / dashed dedup, beside CUB's hash +
                            sort (+ unique) and the Bloom filter
  qf_update_fill.png        Fig. 10b (bench qf_insdel): G keys/s against fill,
                            a panel per kind, one colour per path (AUTO,
                            in place, rebuild), solid insert / dashed delete;
                            a third panel: the in-place rounds
  qf_locality.png           bench qf_locality: fractions of RSQF lookups
                            reading one 64-byte line / one 128-byte region /
                            only their home block, against fill, a panel per
                            layout (aligned, packed-model)
  qf_memory.png             Table I: bytes/item at each eps, SQF and RSQF,
                            ours (the "ms" column: strict-eps rows and the
                            paper-config rows, per layout) beside the paper's
                            (the "gitems_per_s" column)
The dedup, update_fill and locality plots are named with a _q<Q> suffix
when the log holds those rows for several q.
The paper's GTX 1080 figures (q = 23) are drawn as dashed horizontal lines:
lookup 1.13, build 0.516 (at 70% fill), update 0.081 (inserts) G/s;
--ref BENCH=VALUE replaces one, --no-paper drops them all.
Only the standard library: a small raster layer, a 5x7 bitmap font and a
PNG writer (zlib + struct) are defined here.
"""
import argparse
import math
import os
import re
import struct
import sys
import zlib

# ---------------------------------------------------------------- the font
# 5x7 glyphs: 7 rows top to bottom, two hex digits a row, bit 4 = leftmost;
# g j p q y take an 8th row, their descender.
FONT = {
    "0": "0E11131519110E", "1": "040C040404040E", "2": "0E11010204081F", "3": "1F02040201110E",
    "4": "02060A121F0202", "5": "1F101E0101110E", "6": "0608101E11110E", "7": "1F010204080808",
    "8": "0E11110E11110E", "9": "0E11110F01020C",
    "A": "0E1111111F1111", "B": "1E11111E11111E", "C": "0E11101010110E", "D": "1C12111111121C",
    "E": "1F10101E10101F", "F": "1F10101E101010", "G": "0E11101711110F", "H": "1111111F111111",
    "I": "0E04040404040E", "J": "0702020202120C", "K": "11121418141211", "L": "1010101010101F",
    "M": "111B1515111111", "N": "11111915131111", "O": "0E11111111110E", "P": "1E11111E101010",
    "Q": "0E11111115120D", "R": "1E11111E141211", "S": "0F10100E01011E", "T": "1F040404040404",
    "U": "1111111111110E", "V": "11111111110A04", "W": "1111111515150A", "X": "11110A040A1111",
    "Y": "1111110A040404", "Z": "1F01020408101F",
    "a": "00000E010F110F", "b": "1010161911111E", "c": "00000E1010110E", "d": "01010D1311110F",
    "e": "00000E111F100E", "f": "0609081C080808", "g": "00000F11110F010E", "h": "10101619111111",
    "i": "04000C0404040E", "j": "020006020202120C", "k": "10101214181412", "l": "0C04040404040E",
    "m": "00001A15151111", "n": "00001619111111", "o": "00000E1111110E", "p": "00001E11111E1010",
    "q": "00000F11110F0101", "r": "00001619101010", "s": "00000E100E011E", "t": "08081C08080906",
    "u": "0000111111130D", "v": "00001111110A04", "w": "0000111115150A", "x": "0000110A040A11",
    "y": "00001111110F010E", "z": "00001F0204081F",
    ".": "00000000000C0C", ",": "000000000C0408", "-": "0000001F000000", "+": "0004041F040400",
    "^": "040A1100000000", "%": "18190204081303", "(": "02040808080402", ")": "08040202020408",
    "/": "00010204081000", ":": "000C0C000C0C00", "_": "0000000000001F", "=": "00001F001F0000",
    " ": "00000000000000", "[": "0E08080808080E", "]": "0E02020202020E", "*": "0004150E150400",
    "<": "02040810080402", ">": "08040201020408", "?": "0E110102040004", "#": "0A0A1F0A1F0A0A",
}
FONT = {c: [int(g[i:i + 2], 16) for i in range(0, len(g), 2)] for c, g in FONT.items()}


def text_width(s, scale=2):
    return len(s) * 6 * scale - scale if s else 0


# ---------------------------------------------------------------- raster + PNG
class Canvas:
    def __init__(self, w, h):
        self.w, self.h = w, h
        self.buf = bytearray(b"\xff" * (w * h * 3))

    def rect(self, x0, y0, x1, y1, c):
        """filled rectangle, corners inclusive, clipped to the canvas"""
        x0, x1 = max(0, int(min(x0, x1))), min(self.w - 1, int(max(x0, x1)))
        y0, y1 = max(0, int(min(y0, y1))), min(self.h - 1, int(max(y0, y1)))
        if x0 > x1:
            return
        row = bytes(c) * (x1 - x0 + 1)
        for y in range(y0, y1 + 1):
            i = (y * self.w + x0) * 3
            self.buf[i:i + len(row)] = row

    def line(self, x0, y0, x1, y1, c, width=2, dash=None):
        """a line of squares of side `width`; dash = (on, off) in pixels"""
        n = max(1, int(round(max(abs(x1 - x0), abs(y1 - y0)))))
        h = width // 2
        for i in range(n + 1):
            if dash and i % (dash[0] + dash[1]) >= dash[0]:
                continue
            x, y = round(x0 + (x1 - x0) * i / n), round(y0 + (y1 - y0) * i / n)
            self.rect(x - h, y - h, x - h + width - 1, y - h + width - 1, c)

    def marker(self, x, y, shape, c, r=4):
        x, y = int(round(x)), int(round(y))
        for dy in range(-r, r + 1):
            for dx in range(-r, r + 1):
                inside = {0: True, 1: dx * dx + dy * dy <= r * r + 1, 2: abs(dx) + abs(dy) <= r,
                          3: 2 * abs(dx) <= dy + r, 4: 2 * abs(dx) <= r - dy,
                          5: abs(dx) <= 1 or abs(dy) <= 1}[shape % 6]
                if inside:
                    self.rect(x + dx, y + dy, x + dx, y + dy, c)

    def text(self, x, y, s, c, scale=2, vertical=False):
        """(x, y) = top-left of the text; vertical text reads upward from (x, y) = bottom-left"""
        for k, ch in enumerate(s):
            rows = FONT.get(ch, FONT["?"])
            for gy, bits in enumerate(rows):
                for gx in range(5):
                    if bits & (16 >> gx):
                        u, v = (k * 6 + gx) * scale, gy * scale
                        px, py = (x + v, y - u - scale + 1) if vertical else (x + u, y + v)
                        self.rect(px, py, px + scale - 1, py + scale - 1, c)

    def save(self, path):
        raw = b"".join(b"\x00" + bytes(self.buf[y * self.w * 3:(y + 1) * self.w * 3]) for y in range(self.h))

        def chunk(tag, data):
            return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)
        png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", self.w, self.h, 8, 2, 0, 0, 0))
               + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))
        with open(path, "wb") as f:
            f.write(png)


# ---------------------------------------------------------------- plotting
BLACK, GREY, LIGHT = (0, 0, 0), (110, 110, 110), (225, 225, 225)
PALETTE = [(31, 119, 180), (255, 127, 14), (44, 160, 44), (214, 39, 40), (148, 103, 189),
           (140, 86, 75), (227, 119, 194), (127, 127, 127), (188, 189, 34), (23, 190, 207),
           (0, 0, 128), (128, 128, 0), (0, 128, 128), (255, 0, 255)]
W, H = 900, 560


def nice_ticks(lo, hi, n=5):
    """a "nice" step (1, 2 or 5 x 10^k) and the axis range rounded out to it"""
    if hi <= lo:
        pad = abs(lo) * 0.1 or 0.5
        lo, hi = lo - pad, hi + pad
    raw = (hi - lo) / n
    mag = 10 ** math.floor(math.log10(raw))
    f = raw / mag
    step = (1 if f < 1.5 else 2 if f < 3 else 5 if f < 7 else 10) * mag
    lo, hi = math.floor(lo / step + 1e-9) * step, math.ceil(hi / step - 1e-9) * step
    digits = max(0, -int(math.floor(math.log10(step) + 1e-9)))
    return lo, hi, [(lo + i * step, "%.*f" % (digits, lo + i * step)) for i in range(int(round((hi - lo) / step)) + 1)]


def figure(title, xlabel, ylabel, legend, xr, yvals, logy=None, xticks=None):
    """A canvas with the frame, grid, ticks, labels and legend drawn.
    legend: [(label, colour, dash, marker or None for a bar swatch)];
    xr: (lo, hi) or None with xticks = [(x, label)] (categorical, range from them);
    yvals: every y to show (the y range starts at 0 unless log).
    Returns (canvas, fx, fy, box) with fx/fy mapping data to pixels."""
    cv = Canvas(W, H)
    # legend below the plot, in columns as wide as the longest label
    colw = max([text_width(l) for l, _, _, _ in legend] + [60]) + 64
    ncol = max(1, min(len(legend), (W - 100) // colw))
    nrow = (len(legend) + ncol - 1) // ncol
    pos = [v for v in yvals if v > 0]
    if logy is None:
        logy = len(pos) > 1 and max(pos) / min(pos) > 100
    if logy:
        dlo, dhi = math.floor(math.log10(min(pos))), math.ceil(math.log10(max(pos)))
        dhi = max(dhi, dlo + 1)
        ylo, yhi = dlo, dhi
        yt = [(d, "%g" % 10 ** d) for d in range(dlo, dhi + 1)]
    else:
        ylo, yhi, yt = nice_ticks(0.0, max(yvals + [0.0]) * 1.05 or 1.0)
    # the left margin clears the widest tick label and the vertical y label beside it
    box = (max(90, 44 + max(text_width(lab) for _, lab in yt)), 50, W - 30, H - 70 - 22 * nrow)
    x0, y0, x1, y1 = box
    if logy:
        fy = lambda v: y1 - (math.log10(max(v, 10.0 ** ylo)) - ylo) / (yhi - ylo) * (y1 - y0)
    else:
        fy = lambda v: y1 - (v - ylo) / (yhi - ylo) * (y1 - y0)
    if xticks is None:
        xlo, xhi, xticks = nice_ticks(*xr)
    else:
        xlo, xhi = xr
    fx = lambda v: x0 + (v - xlo) / (xhi - xlo) * (x1 - x0)
    for v, lab in yt:  # horizontal grid + y tick labels
        py = y1 - (v - ylo) / (yhi - ylo) * (y1 - y0)
        cv.line(x0, py, x1, py, LIGHT, 1)
        if logy and v < yhi:
            for m in range(2, 10):  # minor log ticks
                my = y1 - (v + math.log10(m) - ylo) / (yhi - ylo) * (y1 - y0)
                cv.line(x0, my, x0 + 4, my, GREY, 1)
        cv.line(x0 - 5, py, x0, py, BLACK, 1)
        cv.text(x0 - 9 - text_width(lab), py - 7, lab, BLACK)
    for v, lab in xticks:
        px = fx(v)
        cv.line(px, y0, px, y1, LIGHT, 1)
        cv.line(px, y1, px, y1 + 5, BLACK, 1)
        cv.text(px - text_width(lab) // 2, y1 + 9, lab, BLACK)
    cv.text((W - text_width(title)) // 2, 14, title, BLACK)
    cv.text((x0 + x1 - text_width(xlabel)) // 2, y1 + 30, xlabel, BLACK)
    cv.text(14, (y0 + y1 + text_width(ylabel)) // 2, ylabel + (" (log)" if logy else ""), BLACK, vertical=True)
    for k, (lab, col, dash, mk) in enumerate(legend):
        lx, ly = 40 + (k % ncol) * colw, y1 + 56 + (k // ncol) * 22
        if mk is None:
            cv.rect(lx + 6, ly, lx + 28, ly + 14, col)
        else:
            cv.line(lx, ly + 7, lx + 34, ly + 7, col, 2, (6, 4) if dash else None)
            if mk >= 0:
                cv.marker(lx + 17, ly + 7, mk, col)
        cv.text(lx + 42, ly + 1, lab, BLACK)
    return cv, fx, fy, box


def line_plot(path, title, xlabel, ylabel, series, refs=(), xfmt=None):
    """series: [(label, [(x, y)], dashed)] or [(label, [(x, y)], dashed, colour index)]
    (the index picks the colour and marker; default the series' position);
    refs: [(label, y)] dashed black lines. Saves to path unless it is None;
    returns the canvas."""
    series = [(s[0], s[1], s[2], s[3] if len(s) > 3 else k) for k, s in enumerate(series)]
    xs = [x for _, pts, _, _ in series for x, _ in pts]
    ys = [y for _, pts, _, _ in series for _, y in pts] + [y for _, y in refs]
    legend = [(lab, PALETTE[c % len(PALETTE)], d, c) for lab, _, d, c in series]
    legend += [(lab, BLACK, True, -1) for lab, _ in refs]
    xticks = None
    if xfmt:  # integer ticks (log2 batch sizes) with their own labels
        lo, hi, t = nice_ticks(min(xs), max(xs))
        xticks = [(v, xfmt(v)) for v, _ in t]
    cv, fx, fy, (x0, y0, x1, y1) = figure(title, xlabel, ylabel, legend,
                                          (min(xs), max(xs)) if not xticks else (lo, hi), ys, xticks=xticks)
    for lab, y in refs:
        cv.line(x0, fy(y), x1, fy(y), BLACK, 2, (8, 6))
    for lab, pts, dashed, c in series:
        col = PALETTE[c % len(PALETTE)]
        for (xa, ya), (xb, yb) in zip(pts, pts[1:]):
            cv.line(fx(xa), fy(ya), fx(xb), fy(yb), col, 2, (8, 5) if dashed else None)
        for x, y in pts:
            cv.marker(fx(x), fy(y), c, col)
    cv.line(x0, y1, x1, y1, BLACK, 1), cv.line(x0, y0, x0, y1, BLACK, 1)
    cv.line(x0, y0, x1, y0, BLACK, 1), cv.line(x1, y0, x1, y1, BLACK, 1)
    if path:
        cv.save(path)
    return cv


def log_args(argv, usage):
    """a plot script's arguments LOG [OUTDIR] [--table]: (log, outdir, table), OUTDIR by default
    bench/results; None (the usage printed) without LOG"""
    args = [a for a in argv[1:] if a != "--table"]
    if not args:
        print(usage)
        return None
    outdir = args[1] if len(args) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "results")
    return args[0], outdir, "--table" in argv


def save_panels(path, panels):
    """the panels that were drawn (None: not) one above the other, in one PNG; nothing when none was"""
    panels = [p for p in panels if p is not None]
    if panels:
        stack(path, panels)
        print("wrote", path)


def stack(path, canvases):
    """the canvases one above the other, in one PNG"""
    w, h = max(c.w for c in canvases), sum(c.h for c in canvases)
    out, y = Canvas(w, h), 0
    for c in canvases:
        for row in range(c.h):
            out.buf[((y + row) * w) * 3:((y + row) * w + c.w) * 3] = c.buf[row * c.w * 3:(row + 1) * c.w * 3]
        y += c.h
    out.save(path)


def bar_plot(path, title, xlabel, ylabel, groups, bars):
    """groups: [category label]; bars: [(label, colour, [value per group or None])]"""
    ys = [v for _, _, vals in bars for v in vals if v is not None]
    legend = [(lab, col, False, None) for lab, col, _ in bars]
    ticks = [(g + 0.5, lab) for g, lab in enumerate(groups)]
    cv, fx, fy, (x0, y0, x1, y1) = figure(title, xlabel, ylabel, legend, (0, len(groups)), ys, False, ticks)
    gw = (x1 - x0) / len(groups)
    bw = gw * 0.8 / len(bars)
    for g in range(len(groups)):
        for b, (_, col, vals) in enumerate(bars):
            if vals[g] is None:
                continue
            bx = x0 + g * gw + gw * 0.1 + b * bw
            cv.rect(bx + 2, fy(vals[g]), bx + bw - 2, y1 - 1, col)
            s = "%.2f" % vals[g]
            cv.text(int(bx + bw / 2 - text_width(s, 1) / 2), int(fy(vals[g])) - 10, s, BLACK, 1)
    cv.line(x0, y1, x1, y1, BLACK, 1), cv.line(x0, y0, x0, y1, BLACK, 1)
    cv.save(path)


# ---------------------------------------------------------------- the data
BENCHES = {"lookup", "lookup_batch", "build", "update", "merge", "memory", "dedup", "insdel", "locality"}
BUILD_METHODS = ["associative", "parallel_merging", "sequential_shifting", "segmented_layouts", "by_inserts"]
PATHS = ["auto->in_place", "auto->rebuild", "in_place", "rebuild"]
PAPER = {"lookup": 1.13, "build": 0.516, "update": 0.081}


def read_rows(path):
    rows = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.strip()
            if not line.startswith("csv,"):
                continue
            p = line[4:].split(",")
            if len(p) != 9 or p[0] not in BENCHES:
                continue
            try:
                rows.append(dict(bench=p[0], kind=p[1], q=int(p[2]), r=int(p[3]), fill=float(p[4]), variant=p[5],
                                 n=int(p[6]), ms=float(p[7]), gps=float(p[8])))
            except ValueError:
                continue
    return rows


def series_of(rows, label, x, dashed=lambda lab: False):
    """[(label, sorted [(x, G/s)], dashed)] grouping rows by label(row), in first-seen order"""
    out = {}
    for r in rows:
        xv = x(r)
        if xv is not None:
            out.setdefault(label(r), {})[xv] = r["gps"]  # the last run of a point wins
    return [(lab, sorted(d.items()), dashed(lab)) for lab, d in out.items()]


def log2_batch(r):
    """("insert" | "delete" | "batch", log2 n) of an "insert 2^20"-style variant, else None"""
    m = re.match(r"(insert|delete|batch)\s+2\^(\d+)$", r["variant"])
    return (m.group(1), int(m.group(2))) if m else None


def insdel_variant(r):
    """(op, path, rounds or None) of a qf_insdel variant "insert auto->in_place rounds=3", else None"""
    m = re.match(r"(insert|delete) (\S+?)(?: rounds=(\d+))?$", r["variant"])
    return (m.group(1), m.group(2), int(m.group(3)) if m.group(3) else None) if m else None


def memory_variant(r):
    """("strict" | "config", eps, layout) of a memory row's variant, else None"""
    m = re.match(r"(config )?eps=([0-9.eE+-]+)(?: layout=(\S+))?$", r["variant"])
    if not m:
        return None
    return ("config" if m.group(1) else "strict", float(m.group(2)), m.group(3) or "aligned")


def plot_dedup(path, q, rows):
    """Fig. 13: a panel per kind; colour = build method, dashed = dedup"""
    panels = []
    for kind in ("SQF", "RSQF"):
        kr = [r for r in rows if r["kind"] == kind]
        if not kr:
            continue
        series = []
        for mi, meth in enumerate(BUILD_METHODS):
            for mode in ("plain", "dedup"):
                pts = sorted({r["fill"]: r["gps"] for r in kr if r["variant"] == "%s %s" % (meth, mode)}.items())
                if pts:
                    series.append(("%s %s" % (meth, mode), pts, mode == "dedup", mi))
        for r_kind, var, lab, dashed, ci in (("CUB", "hash+sort", "CUB hash+sort", False, 7),
                                             ("CUB", "hash+sort+unique", "CUB hash+sort+unique", True, 7),
                                             ("Bloom", "clear+insert", "Bloom clear+insert", False, 8)):
            pts = sorted({r["fill"]: r["gps"] for r in rows if r["kind"] == r_kind and r["variant"] == var}.items())
            if pts:
                series.append((lab, pts, dashed, ci))
        panels.append(line_plot(None, "%s build with / without dedup, q=%d (Fig. 13)" % (kind, q),
                                "fill fraction (input keys incl. repeats / 2^q)", "G items/s", series))
    if panels:
        stack(path, panels)
    return bool(panels)


def plot_insdel(path, q, rows, ref):
    """Fig. 10b: a panel per kind (colour = path, dashed = delete) and one of the in-place rounds"""
    panels, rounds = [], []
    for kind in ("SQF", "RSQF"):
        groups = {}
        for r in rows:
            v = insdel_variant(r)
            if r["kind"] == kind and v:
                groups.setdefault((v[1], v[0]), {})[r["fill"]] = r["gps"]
                if v[2] is not None:
                    rounds.append((kind, v[0], v[1], r["fill"], v[2]))
        if not groups:
            continue
        paths = sorted({p for p, _ in groups}, key=lambda p: (PATHS.index(p) if p in PATHS else len(PATHS), p))
        series = []
        for p in paths:
            for op in ("insert", "delete"):
                if (p, op) in groups:
                    series.append(("%s %s" % (op, p), sorted(groups[(p, op)].items()), op == "delete", paths.index(p)))
        panels.append(line_plot(None, "%s batch insert/delete against fill, q=%d (Fig. 10b)" % (kind, q),
                                "fill fraction before the batch", "G keys/s", series, ref))
    if rounds:  # one line per (kind, op): the forced in-place rows, else AUTO's when it went in place
        groups = {}
        for kind, op, p, fill, n in rounds:
            groups.setdefault((kind, op), {}).setdefault(p, {})[fill] = n
        series = []
        for (kind, op), by_path in groups.items():
            p = "in_place" if "in_place" in by_path else sorted(by_path)[0]
            series.append(("%s %s (%s)" % (kind, op, p), sorted(by_path[p].items()), op == "delete"))
        panels.append(line_plot(None, "in-place rounds of the batch, q=%d" % q, "fill fraction before the batch",
                                "rounds", series))
    if panels:
        stack(path, panels)
    return bool(panels)


def plot_locality(path, q, rows):
    """a panel per layout: fractions of all lookups against fill, one colour per measure, dashed = the 2nd r"""
    measures = [("one64", "one 64B line"), ("one128", "one 128B region"), ("home", "run in home block"),
                ("home_one64", "home runs: one 64B line"), ("home_one128", "home runs: one 128B region")]
    data = {}
    for r in rows:
        p = r["variant"].split()
        if len(p) == 3 and p[1] == "all":
            data.setdefault(p[0], {}).setdefault((r["r"], p[2]), {})[r["fill"]] = r["ms"]
    panels = []
    for layout in sorted(data, key=lambda l: (l != "aligned", l)):
        rs = sorted({rr for rr, _ in data[layout]})
        series = []
        for ri, rr in enumerate(rs):
            for mi, (m, lab) in enumerate(measures):
                if (rr, m) in data[layout]:
                    series.append(("r%d %s" % (rr, lab), sorted(data[layout][(rr, m)].items()), ri > 0, mi))
        if series:
            panels.append(line_plot(None, "RSQF lookup footprint, %s layout, q=%d" % (layout, q), "fill fraction",
                                    "fraction of lookups", series))
    if panels:
        stack(path, panels)
    return bool(panels)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("log")
    ap.add_argument("outdir", nargs="?", default=os.path.join("bench", "results"))
    ap.add_argument("--ref", action="append", default=[], metavar="BENCH=G/S")
    ap.add_argument("--no-paper", action="store_true")
    a = ap.parse_args(argv)
    paper = {} if a.no_paper else dict(PAPER)
    for s in a.ref:
        b, _, v = s.partition("=")
        paper[b] = float(v)
    rows = read_rows(a.log)
    if not rows:
        print("no bench_qf csv rows in %s" % a.log)
        return 1
    os.makedirs(a.outdir, exist_ok=True)
    written = []

    def out(name):
        written.append(os.path.join(a.outdir, name))
        return written[-1]

    def refs(bench):
        return [("paper (GTX 1080, q=23)", paper[bench])] if bench in paper else []
    pow2 = lambda v: "2^%d" % round(v)
    for q in sorted({r["q"] for r in rows if r["bench"] != "memory"}):
        qr = [r for r in rows if r["q"] == q]
        lk = [r for r in qr if r["bench"] == "lookup"]
        if lk:
            s = series_of(lk, lambda r: "Bloom" if r["kind"] == "Bloom" else "%s %s" % (r["kind"], r["variant"]),
                          lambda r: r["fill"])
            line_plot(out("qf_lookup_q%d.png" % q), "QF lookups against fill, q=%d (Figs. 8-9)" % q,
                      "fill fraction", "G lookups/s", s, refs("lookup"))
        lb = [r for r in qr if r["bench"] == "lookup_batch"]
        if lb:
            s = series_of(lb, lambda r: "%s lookup (fill %.2f)" % (r["kind"], r["fill"]),
                          lambda r: (log2_batch(r) or (0, None))[1])
            line_plot(out("qf_lookup_batch_q%d.png" % q), "QF lookups against batch size, q=%d (Fig. 10a)" % q,
                      "batch size (keys)", "G lookups/s", s, xfmt=pow2)
        bd = [r for r in qr if r["bench"] == "build"]
        if bd:
            s = series_of(bd, lambda r: "%s %s" % (r["kind"], r["variant"]), lambda r: r["fill"],
                          lambda lab: "dedup" in lab)
            line_plot(out("qf_build_q%d.png" % q), "QF bulk build against fill, q=%d (Figs. 11-12)" % q,
                      "fill fraction", "G items/s", s, refs("build"))
        up = [r for r in qr if r["bench"] == "update" and log2_batch(r)]
        if up:
            fills = sorted({r["fill"] for r in up}, key=lambda f: (abs(f - 0.7), f))
            main_fill = fills[0]  # the paper's 70%, else the nearest
            s = series_of([r for r in up if r["fill"] == main_fill], lambda r: "%s %s" % (r["kind"], log2_batch(r)[0]),
                          lambda r: log2_batch(r)[1])
            line_plot(out("qf_update_q%d.png" % q), "QF batch insert/delete, q=%d, fill %.2f (Fig. 10c)"
                      % (q, main_fill), "batch size (keys)", "G keys/s", s, refs("update"), xfmt=pow2)

    def named(base, bench, q):
        """base.png, or base_q<Q>.png when the log has rows of `bench` for several q"""
        several = len({r["q"] for r in rows if r["bench"] == bench}) > 1
        return out("%s_q%d.png" % (base, q) if several else "%s.png" % base)
    for q in sorted({r["q"] for r in rows if r["bench"] == "dedup"}):
        dd = [r for r in rows if r["bench"] == "dedup" and r["q"] == q]
        if not plot_dedup(named("qf_dedup", "dedup", q), q, dd):
            written.pop()
    for q in sorted({r["q"] for r in rows if r["bench"] == "insdel"}):
        idl = [r for r in rows if r["bench"] == "insdel" and r["q"] == q]
        if not plot_insdel(named("qf_update_fill", "insdel", q), q, idl, refs("update")):
            written.pop()
    for q in sorted({r["q"] for r in rows if r["bench"] == "locality"}):
        lc = [r for r in rows if r["bench"] == "locality" and r["q"] == q]
        if not plot_locality(named("qf_locality", "locality", q), q, lc):
            written.pop()
    mem, paper_mem = {}, {}  # (kind, "strict" | "config", layout) -> {eps: bytes/item}; (kind, eps) -> paper
    for r in rows:
        v = memory_variant(r) if r["bench"] == "memory" else None
        if v:
            mem.setdefault((r["kind"], v[0], v[2]), {})[v[1]] = r["ms"]
            paper_mem[(r["kind"], v[1])] = r["gps"]
    if mem:
        eps = sorted({e for d in mem.values() for e in d}, reverse=True)
        shades = {"SQF": [PALETTE[0], (70, 150, 200), (120, 180, 215), (158, 202, 225)],
                  "RSQF": [PALETTE[1], (230, 85, 13), (253, 160, 80), (166, 54, 3), (200, 120, 40), (253, 190, 133)]}
        bars = []
        for kind in ("SQF", "RSQF"):
            keys = sorted((k for k in mem if k[0] == kind), key=lambda k: (k[1] != "strict", k[2] != "aligned", k[2]))
            if not keys:
                continue
            for i, k in enumerate(keys):
                lab = "%s %s%s" % (kind, "ours" if k[1] == "strict" else "paper-config",
                                   "" if k[2] == "aligned" else " " + k[2])
                col = shades[kind][min(i, len(shades[kind]) - 2)]
                bars.append((lab, col, [mem[k].get(e) for e in eps]))
            bars.append((kind + " paper", shades[kind][-1], [paper_mem.get((kind, e)) for e in eps]))
        bar_plot(out("qf_memory.png"), "QF memory per item (Table I)", "false-positive rate eps",
                 "bytes/item", ["eps=%g" % e for e in eps], bars)
    for p in written:
        print("wrote %s" % p)
    skipped = sorted({r["bench"] for r in rows} - {"lookup", "lookup_batch", "build", "update", "memory", "dedup",
                                                   "insdel", "locality"})
    if skipped:
        print("not plotted: %s rows" % ", ".join(skipped))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
