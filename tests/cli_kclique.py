#!/usr/bin/env python3
"""The kclique CLI, as a user and a script see it.

  python3 tests/cli_kclique.py KCLIQUE_HOST KCLIQUE

Runs every check against each binary given (the gcc build, host only, and
the nvcc build, whose AUTO counts on CUDA where a device is present):
--help, strict numbers and options (each bad value is exit 2 naming the
option), file and library errors (exit 1), and the counts against a
brute-force count in Python on fresh random graphs written as DIMACS files
by this script: -k K by every method name (HOST counts the CUDA-only
methods by ordered and says so) and both orientations, --all (k = 3 ..
omega, then omega), --per-vertex, --list, --json; --backend cuda counts as
HOST does or exits 1 saying why; K_70 --all, whose middle counts pass 2^64
and print as overflow; AUTO's note names a missing device; the format read
from the content (a DIMACS file named .txt, an edge list named .clq;
--format wins and its error names --format); errors in the user's words
(the system's reason for a missing file or a directory, --max-vertices
for a header over the load limit, a name an option does not know echoed
with the names it takes); --quiet; a long run that speaks at once and as
it goes (a line on stderr at once, stdout line-buffered, the counting's
line after a second of processor time however long one source takes).
The last line is "N passed, N failed"; the exit status is the number of
failures (capped at 100)."""
import math
import os
import random
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_check import (EISDIR, ENOENT, LINUX, check, check_watched, os_reason, parse_json, run,  # noqa: E402
                       summary)

METHODS = ("auto", "ordered", "pivot", "lftj", "level-join", "grouped", "bitset")
CUDA_ONLY = ("lftj", "level-join", "grouped", "bitset")


def write_dimacs(path, n, edges):
    with open(path, "w") as f:
        f.write("c written by cli_kclique.py\np edge %d %d\n" % (n, len(edges)))
        for u, v in edges:
            f.write("e %d %d\n" % (u + 1, v + 1))


def random_graph(rng, n, p, planted):
    adj = [set() for _ in range(n)]
    for u in range(n):
        for v in range(u + 1, n):
            if rng.random() < p:
                adj[u].add(v), adj[v].add(u)
    clique = rng.sample(range(n), planted)
    for i in clique:
        for j in clique:
            if i != j:
                adj[i].add(j)
    edges = [(u, v) for u in range(n) for v in adj[u] if u < v]
    return adj, edges


def all_cliques(adj):
    """Every clique (as a sorted tuple of 0-based ids), by extension with higher vertices."""
    out = []

    def grow(clique, cand):
        out.append(tuple(clique))
        for u in sorted(cand):
            grow(clique + [u], {w for w in cand if w > u and w in adj[u]})

    for v in range(len(adj)):
        grow([v], {w for w in adj[v] if w > v})
    return out


def counts_lines(out):
    """{k: count or 'overflow'} and omega (or None) from the text output."""
    counts, omega = {}, None
    for line in out.splitlines():
        if line.startswith("k ") and ": " in line:
            k, c = line[2:].split(": ", 1)
            counts[int(k)] = c if c == "overflow" else int(c)
        elif line.startswith("omega "):
            omega = int(line.split()[1])
    return counts, omega


def check_help(binary):
    for flag in ("--help", "-h"):
        rc, out, err, _ = run(binary, [flag])
        check(rc == 0 and "usage:" in out and "--all" in out and "--budget" in out
              and all(m in out for m in METHODS),
              "%s %s: exit %d, usage on stdout naming every method" % (binary, flag, rc))


def check_bad_arguments(binary):
    g = ["--rmat", "6"]
    cases = [
        (g + ["-k", "abc"], "-k", "not a whole number"),
        (g + ["-k", "2"], "-k", "out of range 3..4294967295"),
        (g + ["-k", "4x"], "-k", "not a whole number"),
        (g + ["-k", "99999999999"], "-k", "out of range"),
        (g + ["-k", " 4"], "-k", "not a whole number"),
        (g + ["-k", "4", "--list", "-1"], "--list", "not a whole number"),
        (g + ["-k", "4", "--list", "99999999999999999999999"], "--list", "out of range"),
        (g + ["-k", "4", "--budget", "-5"], "--budget", "not a number"),
        (g + ["-k", "4", "--budget", "5MB"], "--budget", "not a number"),
        (g + ["-k", "4", "--seed", "-3"], "--seed", "not a whole number"),
        (["--rmat", "31", "-k", "4"], "--rmat", "out of range 1..30"),
        (["--rmat", "0", "-k", "4"], "--rmat", "out of range 1..30"),
        (g + ["-k", "4", "--method", "bogus"], "--method", "unknown --method 'bogus': use auto, ordered, pivot"),
        (g + ["-k", "4", "--method", "LFTJ"], "--method", "unknown --method 'LFTJ'"),
        (g + ["-k", "4", "--method", "level_join"], "--method", "unknown --method 'level_join'"),
        (g + ["-k", "4", "--orientation", "default"], "--orientation", "unknown --orientation 'default'"),
        (g + ["-k", "4", "--orientation", "index"], "--orientation",
         "unknown --orientation 'index': use degree or degeneracy"),
        (g + ["-k", "4", "--backend", "gpu"], "--backend", "unknown --backend 'gpu': use auto, cuda or host"),
        (g + ["-k", "4", "--max-vertices", "0"], "--max-vertices", "out of range 1..4294967295"),
        (g + ["-k"], "-k", "missing its value"),
        (g + ["-k", "4", "--frobnicate", "1"], "--frobnicate", "unknown option"),
        (g + ["--all", "--per-vertex", "x.txt"], "--per-vertex", "needs one k"),
        (g + ["--all", "--list", "3"], "--list", "needs one k"),
        (g, "", "give one of -k K and --all"),
        (g + ["-k", "4", "--all"], "", "give one of -k K and --all"),
        (["-k", "4"], "", "give one FILE or --rmat"),
        (["a.txt", "b.txt", "-k", "4"], "b.txt", "give one FILE or --rmat"),
    ]
    for args, option, says in cases:
        rc, out, err, _ = run(binary, args)
        check(rc == 2 and option in err and says in err,
              "%s %s: exit %d (want 2), stderr %r should name %r and say %r" % (binary, " ".join(args), rc,
                                                                             err[:200], option, says))


def check_errors(binary, tmp):
    rc, out, err, _ = run(binary, [os.path.join(tmp, "missing.clq"), "-k", "3"])
    check(rc == 1 and "missing.clq" in err, "%s missing file: exit %d (want 1): %r" % (binary, rc, err[:200]))
    check(("cannot open the file: %s" % os_reason(ENOENT)) in err and "line 0" not in err,
          "%s missing file: the system's reason: %r" % (binary, err[-300:]))
    rc, out, err, _ = run(binary, [tmp, "-k", "3"])
    check(rc == 1 and "cannot read the file" in err and (not LINUX or os_reason(EISDIR) in err),
          "%s a directory: exit %d, the system's reason: %r" % (binary, rc, err[-300:]))
    big = os.path.join(tmp, "big_header.clq")
    with open(big, "w") as f:
        f.write("p edge 4294967295 0\n")
    rc, out, err, secs = run(binary, [big, "-k", "3"], timeout=30)
    check(rc == 1 and "line 1" in err and "--max-vertices" in err and "gclq_load_options" not in err and secs < 10,
          "%s hostile header: exit %d in %.1f s, names --max-vertices: %r" % (binary, rc, secs, err[-300:]))
    with open(big, "w") as f:
        f.write("p edge 100 1\ne 1 100\n")
    rc, out, err, _ = run(binary, [big, "-k", "3", "--max-vertices", "50"])
    check(rc == 1 and "limit of 50 (--max-vertices)" in err, "%s --max-vertices 50: exit %d, %r" % (binary, rc,
                                                                                                 err[-300:]))
    rc, out, err, _ = run(binary, [big, "-k", "3", "--max-vertices", "100", "--quiet"])
    check(rc == 0 and "k 3: 0" in out and err == "", "%s --max-vertices 100 --quiet: exit %d, stderr %r" % (
        binary, rc, err[-300:]))
    bad = os.path.join(tmp, "bad.clq")
    with open(bad, "w") as f:
        f.write("p edge 3 1\ne 1 2\ne 1 9\n")
    rc, out, err, _ = run(binary, [bad, "-k", "3"])
    check(rc == 1 and "line 3" in err, "%s malformed DIMACS: exit %d (want 1), names line 3: %r" % (binary, rc,
                                                                                                   err[:200]))
    rc, out, err, _ = run(binary, ["--rmat", "6", "-k", "3", "--backend", "cuda"])
    rc_h, out_h, _, _ = run(binary, ["--rmat", "6", "-k", "3", "--backend", "host"])
    counted = rc == 0 and rc_h == 0 and counts_lines(out) == counts_lines(out_h) and "backend cuda" in out
    refused = rc == 1 and "CUDA" in err
    check(counted or refused, "%s --backend cuda: exit %d, counts as HOST or exits 1 saying why: %r" % (
        binary, rc, err[:200]))
    rc, out, err, _ = run(binary, ["--rmat", "6", "-k", "3", "--per-vertex", os.path.join(tmp, "no", "such", "f")])
    check(rc == 1 and "--per-vertex" in err and os_reason(ENOENT) in err,
          "%s unwritable --per-vertex: exit %d (want 1), the system's reason: %r" % (binary, rc, err[-300:]))


def check_long_run(binary):
    """R-MAT 15, every k, takes minutes on HOST (its first sources alone take seconds): the run is
    killed after a few seconds. A person watching sees a line on stderr at once, the graph's line
    on stdout as soon as the graph is made (stdout line-buffered), and the counting's line once it
    has counted about a second of processor time (the library reads the clock by nodes visited, not
    every 64 sources). On a machine too loaded to give the run that much processor time in the
    wall time allowed, the last check is skipped, not failed."""
    check_watched(binary, ["--rmat", "15", "--all", "--backend", "host"], "R-MAT: 32768 vertices", 1.0, "count (pivot): source")


def check_counts(binary, tmp, rng):
    for t in range(4):
        n = rng.randint(12, 30)
        adj, edges = random_graph(rng, n, rng.uniform(0.2, 0.5), rng.randint(0, 9))
        path = os.path.join(tmp, "g%d.clq" % t)
        write_dimacs(path, n, edges)
        cl = all_cliques(adj)
        want = {}
        for c in cl:
            want[len(c)] = want.get(len(c), 0) + 1
        omega = max(want) if want else 0
        tag = "%s %s (n %d, %d edges, omega %d)" % (binary, os.path.basename(path), n, len(edges), omega)
        for method in METHODS:
            rc, out, err, _ = run(binary, [path, "--all", "--method", method])
            counts, w = counts_lines(out)
            check(rc == 0 and w == omega and counts == {k: want[k] for k in range(3, omega + 1)},
                  "%s --all --method %s: exit %d, omega %s, %s" % (tag, method, rc, w, counts))
            for orient in ("degree", "degeneracy"):
                k = rng.randint(3, omega + 1)
                rc, out, err, _ = run(binary, [path, "-k", str(k), "--method", method, "--orientation", orient])
                counts, w = counts_lines(out)
                check(rc == 0 and counts == {k: want.get(k, 0)} and w is None,
                      "%s -k %d %s %s: %s, want %d" % (tag, k, method, orient, counts, want.get(k, 0)))
        # per-vertex counts and listings, in file ids (1-based DIMACS ids)
        k = rng.randint(3, max(3, omega))
        kc = sorted(tuple(v + 1 for v in c) for c in cl if len(c) == k)
        pv = os.path.join(tmp, "pv%d.txt" % t)
        asked = rng.randint(1, len(kc) + 3)
        rc, out, err, _ = run(binary, [path, "-k", str(k), "--per-vertex", pv, "--list", str(asked)])
        per = {}
        for c in kc:
            for v in c:
                per[v] = per.get(v, 0) + 1
        got = {}
        if rc == 0:
            with open(pv) as f:
                for line in f:
                    a, b = line.split()
                    got[int(a)] = int(b)
        check(rc == 0 and got == {v: per.get(v, 0) for v in range(1, n + 1)}, "%s -k %d --per-vertex" % (tag, k))
        listed = [tuple(int(x) for x in line.split(":")[1].split()) for line in out.splitlines()
                  if line.startswith("clique ")]
        check(len(listed) == min(asked, len(kc)) and listed == sorted(set(listed)) and set(listed) <= set(kc),
              "%s -k %d --list %d: %d listed, %d exist" % (tag, k, asked, len(listed), len(kc)))
        # --json
        rc, out, err, _ = run(binary, [path, "-k", str(k), "--list", "2", "--json"])
        r = parse_json(out)
        check(rc == 0 and r is not None and r["counts"] == [{"k": k, "count": len(kc), "overflow": False}]
              and r["stored"] == min(2, len(kc)) and r["stats"]["backend"] in ("host", "cuda")
              and r["stats"]["method"] in METHODS[1:] and r["vertices"] == n,
              "%s -k %d --json: %r" % (tag, k, out[:300]))
        check_cuda_only_names(binary, path, tag, k, len(kc))


def check_cuda_only_names(binary, path, tag, k, want):
    """Each CUDA-only name counts as ordered does; HOST says it counted by ordered."""
    for method in CUDA_ONLY:
        rc, out, err, _ = run(binary, [path, "-k", str(k), "--method", method, "--json"])
        r = parse_json(out)
        ok = rc == 0 and r is not None and r["counts"] == [{"k": k, "count": want, "overflow": False}]
        ok = ok and r["stats"]["method_asked"] == method
        counted_by = "ordered" if r is not None and r["stats"]["backend"] == "host" else method
        ok = ok and r["stats"]["method"] == counted_by
        check(ok, "%s -k %d --method %s --json: the count of ordered, method named: %r" % (tag, k, method, out[:300]))
        rc, out, err, _ = run(binary, [path, "-k", str(k), "--method", method])
        says = "method %s" % method in out or "(%s asked; host counts it by ordered)" % method in out
        check(rc == 0 and counts_lines(out) == ({k: want}, None) and says,
              "%s -k %d --method %s: exit %d, the stats line names what counted" % (tag, k, method, rc))


def check_rmat(binary):
    rc1, out1, _, _ = run(binary, ["--rmat", "9", "--seed", "5", "--all", "--method", "ordered"])
    rc2, out2, _, _ = run(binary, ["--rmat", "9", "--seed", "5", "--all", "--method", "pivot", "--json"])
    r = parse_json(out2)
    c1, w1 = counts_lines(out1)
    ok = rc1 == 0 and rc2 == 0 and r is not None and r["omega"] == w1
    ok = ok and {e["k"]: e["count"] for e in r["counts"]} == c1
    check(ok, "%s --rmat 9 --seed 5 --all: ordered and pivot agree (omega %s)" % (binary, w1))
    rc3, out3, _, _ = run(binary, ["--rmat", "9", "--seed", "6", "-k", "3", "--budget", "1.5"])
    check(rc3 == 0 and "k 3: " in out3, "%s --budget accepted (unused by HOST)" % binary)
    rc4, out4, _, _ = run(binary, ["--rmat", "9", "--seed", "6", "-k", "4", "--method", "ordered"])
    for method in CUDA_ONLY:
        rc5, out5, _, _ = run(binary, ["--rmat", "9", "--seed", "6", "-k", "4", "--method", method, "--budget", "64"])
        check(rc4 == 0 and rc5 == 0 and counts_lines(out5) == counts_lines(out4) and "peak device memory" in out5,
              "%s --rmat 9 -k 4 --method %s --budget 64: the count of ordered" % (binary, method))


def check_overflow(binary, tmp):
    n = 70
    path = os.path.join(tmp, "k70.clq")
    write_dimacs(path, n, [(u, v) for u in range(n) for v in range(u + 1, n)])
    rc, out, err, _ = run(binary, [path, "--all"])
    counts, w = counts_lines(out)
    want = {k: (math.comb(n, k) if math.comb(n, k) < 2 ** 64 - 1 else "overflow") for k in range(3, n + 1)}
    check(rc == 0 and w == n and counts == want and "overflow" in counts.values(),
          "%s K_70 --all: exit %d, omega %s, the counts past 2^64 print as overflow" % (binary, rc, w))
    rc, out, err, _ = run(binary, [path, "-k", "35", "--json"])
    r = parse_json(out)
    check(rc == 0 and r is not None and r["counts"] == [{"k": 35, "count": None, "overflow": True}],
          "%s K_70 -k 35 --json: overflow true, count null" % binary)


def check_auto_and_formats(binary, tmp):
    dimacs = "c a triangle and a pendant\np edge 4 4\ne 1 2\ne 2 3\ne 3 1\ne 3 4\n"
    snap = "# an edge list\n1 2\n2 3\n3 1\n3 4\n"
    device = run(binary, ["--rmat", "6", "-k", "3", "--backend", "cuda"])[0] == 0
    for name, text in (("dimacs.txt", dimacs), ("edges.clq", snap)):
        path = os.path.join(tmp, name)
        with open(path, "w") as f:
            f.write(text)
        rc, out, err, _ = run(binary, [path, "-k", "3", "--json"])
        r = parse_json(out)
        check(rc == 0 and r is not None and [c["count"] for c in r["counts"]] == [1],
              "%s %s by its content: exit %d, %r, stderr %r" % (binary, name, rc, out[:200], err[:200]))
        if r is not None and rc == 0:
            notes = r["stats"]["notes"]
            check(("no CUDA device" in notes) == (not device), "%s AUTO (device %s): notes %r" % (binary, device,
                                                                                                  notes))
    rc, out, err, _ = run(binary, [os.path.join(tmp, "dimacs.txt"), "-k", "3", "--format", "snap"])
    check(rc == 1 and "line 1" in err and "--format" in err and "read as SNAP" in err,
          "%s --format snap on DIMACS: exit %d, stderr %r" % (binary, rc, err[:300]))
    rc, out, err, _ = run(binary, [os.path.join(tmp, "dimacs.txt"), "-k", "3", "--format", "gml"])
    check(rc == 2 and "unknown --format 'gml': use auto, snap, dimacs or mtx" in err,
          "%s --format gml: exit %d, %r" % (binary, rc, err[:200]))


def main():
    binaries = sys.argv[1:]
    if not binaries:
        print(__doc__)
        return 2
    seed = random.randrange(1 << 30)
    print("seed %d" % seed)
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        for b in binaries:
            check_help(b)
            check_bad_arguments(b)
            check_errors(b, tmp)
            check_counts(b, tmp, rng)
            check_rmat(b)
            check_overflow(b, tmp)
            check_auto_and_formats(b, tmp)
            check_long_run(b)
    return summary()


if __name__ == "__main__":
    sys.exit(main())
