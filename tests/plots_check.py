#!/usr/bin/env python3
"""Run every bench/plot_*.py over the results committed in bench/results/
(and plot_sets.py also over a made-up log with a row of every kind,
all pairs and the ratio sweep included, which the kept log lacks), each
into a temporary folder, and check that it exits 0 and writes
the files it should: PNGs that start with the PNG signature, an SVG that
starts with "<svg". The plots are drawn by the scripts' own raster layer,
so this needs nothing beyond Python 3.

  python3 tests/plots_check.py
"""
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RESULTS = os.path.join(ROOT, "bench", "results")

# rows as bench_sets prints them: a table row of each kind and the lines of bench sets_auto_ratio
SETS_LOG = """\
| sets dev         | SISI 1e+07 count merge-path  | 2^24.3 |     0.090 | copy         0.048 |   0.54 |     889 |  21.1% |
| sets dev         | SISI 1e+07 count auto        | 2^24.3 |     0.091 | copy         0.048 |   0.53 |     880 |  20.8% |
| sets dev         | uniform-1e+08-1e+06 count bitmap-dynamic | 2^21.0 |     0.020 | copy         0.006 |   0.30 |     400 |   9.5% |
| sets dev         | R-MAT 16 every edge count ip-obs | 2^19.8 |     3.182 | copy         2.332 |   0.73 |    1566 |  37.0% |
| sets all dev     | BMS stand-in k 1e4 avg 35 U 1600 inverted-index | 2^25.6 |     1.906 | merge-path         - |      - |     106 |   2.5% |
sets ratio,R-MAT 16,ratio 8,searched 1000,1.234 ms,rest 5000,merge-path 2.000 ms,ip-obs 1.800 ms,sum merge 3.234 ms,sum ip-obs 3.034 ms,same
sets ratio,R-MAT 16,ratio 32,searched 400,0.800 ms,rest 5600,merge-path 2.400 ms,ip-obs 2.100 ms,sum merge 3.200 ms,sum ip-obs 2.900 ms,same
"""


def run(script, args):
    r = subprocess.run([sys.executable, os.path.join(ROOT, "bench", script)] + args, capture_output=True, text=True)
    return r.returncode, r.stdout + r.stderr


def file_ok(path):
    if not os.path.isfile(path) or os.path.getsize(path) == 0:
        return False
    with open(path, "rb") as f:
        head = f.read(8)
    return head == b"\x89PNG\r\n\x1a\n" if path.endswith(".png") else head.startswith(b"<svg") or head.startswith(b"<?xml")


def main():
    passed = failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        sets_log = os.path.join(tmp, "sets.log")
        with open(sets_log, "w", encoding="utf-8") as f:
            f.write(SETS_LOG)
        cases = [
            ("plot_qf.py", [os.path.join(RESULTS, "qf_h200_session8.log"), tmp],
             ["qf_lookup_q30.png", "qf_build_q28.png", "qf_memory.png"]),
            ("plot_maxclique.py", [os.path.join(RESULTS, "maxclique_h200_session9.log"), os.path.join(tmp, "mc.png")],
             ["mc.png"]),
            ("plot_nonassoc.py", [os.path.join(RESULTS, "nonassoc_h200.csv"), os.path.join(tmp, "na.svg")],
             ["na.svg"]),
            ("plot_kcliques.py", [os.path.join(RESULTS, "kcliques_h200_session12.log"), tmp, "--table"],
             ["kcliques_time.png", "kcliques_edges_per_s.png", "kcliques_memory.png"]),
            ("plot_sets.py", [os.path.join(RESULTS, "sets_h200_session25.log"), tmp, "--table"],
             ["sets_sisi.png", "sets_batches.png", "sets_device_api.png"]),
            ("plot_sets.py", [sets_log, os.path.join(tmp, "made_up"), "--table"],
             ["made_up/sets_sisi.png", "made_up/sets_batches.png", "made_up/sets_all.png", "made_up/sets_ratio.png"]),
        ]
        for script, args, outputs in cases:
            rc, out = run(script, args)
            missing = [o for o in outputs if not file_ok(os.path.join(tmp, o))]
            if rc == 0 and not missing:
                passed += 1
                print("[  OK  ] %s %s" % (script, os.path.basename(args[0])))
            else:
                failed += 1
                print("[ FAIL ] %s %s: exit %d, missing or malformed %s\n%s" %
                      (script, os.path.basename(args[0]), rc, missing, out[-2000:]))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
