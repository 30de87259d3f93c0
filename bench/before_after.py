#!/usr/bin/env python3
"""before_after.py DIR - pair the rows of bench/before_after.sh's runs.

DIR holds <case>_<old|new>_<run>.md, each a bench table (| primitive | variant
| n | ours ms | ...). A row is keyed by (case, primitive, variant, n); each side
keeps its best (lowest) time over its runs; the table prints old, new and
new / old, and the rows more than 5% slower are listed again at the end.
"""
import collections
import glob
import os
import re
import sys

ROW = re.compile(r"^\|\s*([^|]+?)\s*\|\s*([^|]+?)\s*\|\s*2\^([0-9.]+)\s*\|\s*([0-9.]+)\s*\|")


def main(folder):
    best = collections.defaultdict(dict)
    order = []
    for path in sorted(glob.glob(os.path.join(folder, "*_*_*.md"))):
        case, side, _ = os.path.basename(path)[:-3].rsplit("_", 2)
        seen = set()
        for line in open(path, encoding="utf-8"):
            m = ROW.match(line)
            if not m or m.group(1) == "primitive":
                continue
            key = (case,) + m.groups()[:3]
            if key in seen:  # a file prints its table twice at most (stdout copy): keep the first
                continue
            seen.add(key)
            if key not in best:
                order.append(key)
            ms = float(m.group(4))
            best[key][side] = min(ms, best[key].get(side, ms))
    print("| case | primitive | variant | n | old ms | new ms | new / old |")
    print("|---|---|---|---|---|---|---|")
    slow = []
    for key in order:
        o, n = best[key].get("old"), best[key].get("new")
        ratio = "-" if not o or n is None else "%.3f" % (n / o)
        print("| %s | %s | %s | 2^%s | %s | %s | %s |" % (key + (o, n, ratio)))
        if ratio != "-" and float(ratio) > 1.05:
            slow.append("%s %s %s 2^%s: %.3f -> %.3f (%s)" % (key + (o, n, ratio)))
    print("\nrows: %d; more than 5%% slower: %d" % (len(order), len(slow)))
    for s in slow:
        print("  " + s)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
