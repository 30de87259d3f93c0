#!/usr/bin/env python3
"""comment_check.py - the library's comments explain; results live in results.

Reads the comments of every library source (gpuamq.h, gpuclique.h, gpuprim.cuh
and everything under amq/, clique/ and prim/) and fails on lab data in them:

  timing      a figure with a unit of time or throughput: "12 ms", "0.5 s",
              "40 GB/s", "900 M keys/s"
  speed-up    a ratio written as a speed-up: "1.3x", "20x faster"
  device      a GPU's product name: H100, H200, A100, RTX 4090, ...
  against     a measured comparison: "against 0.045", "against CUB's 3.1"
  work log    session and call numbers, commit ids, dated entries:
              "session 25", "call 4", "commit 3787d4b", "2026-11-28" (the
              version history's dated lines in the header blocks, and result
              files named by date, such as 2026-11-21-h200.md, aside)

Figures belong in bench/results/ (with device, date and commit) and history in
git; a comment gives the reason for a rule and the path of its evidence
("the sweep: bench/results/sets_h200.md").

  python3 tests/compile/comment_check.py [ROOT]   exit 1 and list each finding
"""
import os
import re
import sys

LIBRARY = ["gpuamq.h", "gpuclique.h", "gpuprim.cuh"]
FOLDERS = ["amq", "clique", "prim"]
SUFFIXES = (".h", ".cuh", ".cu", ".c")

NUM = r"(?<![\w.])\d+(?:\.\d+)?"
RULES = [
    ("timing", re.compile(NUM + r"\s?(?:ms|us|µs|ns|sec|secs|seconds|minutes)\b|" + NUM + r"\s(?:s|min)\b"
                          r"|" + NUM + r"\s?(?:[KMGT]i?B/s|[KMG]?keys/s|[KMG]?edges/s|[KMG]?pairs/s)")),
    ("speed-up", re.compile(NUM + r"\s?x\b(?!\s*\d)")),
    ("device", re.compile(r"\b(?:[ABHLV]100|H200|GH200|B200|A10G?|L4|T4|RTX\s?\d{3,4}|GTX\s?\d{3,4}"
                          r"|Tesla|GeForce|Quadro)\b")),
    ("against", re.compile(r"\bagainst\s+(?:\w+'s\s+)?" + NUM.replace(r"(?<![\w.])", ""))),
    ("work log", re.compile(r"\b[Ss]ession\s?\d+|\bcall\s\d+\b|\bcommit\s[0-9a-f]{7,40}\b"
                            r"|(?<!\d\.\d\.\d  )\b20\d\d-\d\d-\d\d\b(?!-)|\bs\d+c\d+\b")),
]


def comments(text):
    """Yield (line, comment text) for each // and /* */ comment, skipping string and char literals."""
    i, n, line = 0, len(text), 1
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            i = j + 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            yield line, text[i + 2:j]
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j
            body = text[i + 2:j]
            for k, part in enumerate(body.split("\n")):
                yield line + k, part
            line += body.count("\n")
            i = j + 2
        else:
            i += 1


def library_files(root):
    files = [os.path.join(root, f) for f in LIBRARY]
    for folder in FOLDERS:
        for base, dirs, names in os.walk(os.path.join(root, folder)):
            dirs.sort()
            files += [os.path.join(base, f) for f in sorted(names) if f.endswith(SUFFIXES)]
    return [f for f in files if os.path.isfile(f)]


def check(root):
    findings = []
    for path in library_files(root):
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for line, comment in comments(text):
            for name, rule in RULES:
                m = rule.search(comment)
                if m:
                    findings.append("%s:%d: %s (%r): %s" % (os.path.relpath(path, root), line, name,
                                                            m.group(0), comment.strip()))
    return findings


def main(argv):
    root = argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    findings = check(os.path.normpath(root))
    for f in findings:
        print(f)
    if findings:
        print("%d comment(s) carry lab data: move the figures to bench/results/ and give the reason "
              "and the result file's path instead" % len(findings), file=sys.stderr)
        return 1
    print("library comments: no timings, device names, comparisons or work-log numbers")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
