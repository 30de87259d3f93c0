#!/usr/bin/env python3
"""Plot bench_maxclique's results: edges per second against average degree
(Geil, "Tackling GPU Memory Size Limitations", Figs. 2.2-2.3), dependency-free (plot_qf.py's raster and PNG layer).

  python3 bench/plot_maxclique.py LOG [OUT.png]

LOG is bench_maxclique's stdout (or a file holding its "csv," lines):
  csv,graph,n,m,avg_degree,heuristic,budget_mib,omega,count,cuda_ms,host_ms,
      candidates,levels,peak_mib,windows,splits,edges_per_s
The default heuristic's rows without a budget are drawn: one marker per
graph for the CUDA backend (m / CUDA time) and one for HOST (m / HOST time,
where it ran); R-MAT graphs filled squares / crosses as the legend says.
OUT defaults to bench/results/maxclique_edges_per_s.png.
"""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import plot_qf as P  # noqa: E402


def read(path):
    rows = []
    for line in open(path):
        if not line.startswith("csv,"):
            continue
        f = line.strip().split(",")
        if len(f) < 17 or f[5] != "multi-degree" or float(f[6]) != 0:
            continue
        rows.append({"graph": f[1], "m": int(f[3]), "deg": float(f[4]), "cuda_ms": float(f[9]),
                     "host_ms": float(f[10])})
    return rows


def main(argv):
    if len(argv) < 2:
        print(__doc__)
        return 2
    out = argv[2] if len(argv) > 2 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "results",
                                                       "maxclique_edges_per_s.png")
    rows = read(argv[1])
    if not rows:
        print("no csv rows of the default heuristic in", argv[1])
        return 1
    groups = []  # (label, points, colour index)
    for backend, key in (("CUDA", "cuda_ms"), ("HOST", "host_ms")):
        for kind, test in (("data graphs", lambda g: not g.startswith("rmat")), ("R-MAT", lambda g: g.startswith("rmat"))):
            pts = [(r["deg"], r["m"] / (r[key] * 1e-3)) for r in rows if test(r["graph"]) and r[key] > 0]
            if pts:
                groups.append(("%s, %s" % (backend, kind), pts, len(groups)))
    legend = [(lab, P.PALETTE[c % len(P.PALETTE)], False, c) for lab, _, c in groups]
    xs = [x for _, pts, _ in groups for x, _ in pts]
    ys = [y for _, pts, _ in groups for _, y in pts]
    cv, fx, fy, (x0, y0, x1, y1) = P.figure("maximum cliques: edges per second (H200 / host CPU)",
                                            "average degree", "edges per second", legend, (0, max(xs) * 1.05),
                                            ys, logy=True)
    for lab, pts, c in groups:
        for x, y in pts:
            cv.marker(fx(x), fy(y), c, P.PALETTE[c % len(P.PALETTE)])
    cv.line(x0, y1, x1, y1, P.BLACK, 1), cv.line(x0, y0, x0, y1, P.BLACK, 1)
    cv.line(x0, y0, x1, y0, P.BLACK, 1), cv.line(x1, y0, x1, y1, P.BLACK, 1)
    cv.save(out)
    print("wrote", out, "(%d graphs)" % len(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
