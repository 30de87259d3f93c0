#!/usr/bin/env python3
"""The maxclique CLI, as a user and a script see it.

  python3 tests/cli_maxclique.py MAXCLIQUE_HOST MAXCLIQUE

Runs every check against each binary given (the gcc build, HOST only, and
the nvcc build, which runs HOST too where there is no GPU): --help, strict
numbers (each bad value is exit 2 naming the option), --json checked by the
json module on a planted clique, --seed, every --orientation, a file of self-loops only (omega 1),
progress lines on stderr, a hostile DIMACS header that must fail fast
naming its line, AUTO's stats (fell_back and the note name a missing device,
the note's max core is stats.max_core), and the format read from the
content (a DIMACS file named .txt, an edge list named .clq; --format wins
and its error names --format), errors in the user's words (the system's
reason for a missing file or a directory, --max-vertices for a header over
the load limit, a name an option does not know echoed with the names it
takes), and a long run that speaks at once and as it goes (a line on
stderr at once, stdout line-buffered, the search's line after a second of
processor time however long one source takes). The last line is
"N passed, N failed"; the exit status is the number of failures (capped at
100)."""
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_check import (EISDIR, ENOENT, LINUX, check, check_watched, os_reason, parse_json, run,  # noqa: E402
                       summary)


def check_help(binary):
    for flag in ("--help", "-h"):
        rc, out, err, _ = run(binary, [flag])
        check(rc == 0 and "usage:" in out and "--json" in out, "%s %s: exit %d, usage on stdout" % (binary, flag, rc))


def check_bad_numbers(binary):
    g = ["--planted", "100", "0.1", "5"]
    cases = [
        (g + ["--seeds", "abc"], "--seeds", "not a whole number"),
        (g + ["--seeds", "12x"], "--seeds", "not a whole number"),
        (g + ["--seeds", "99999999999"], "--seeds", "out of range 0..4294967295"),
        (g + ["--budget", "-5"], "--budget", "out of range"),
        (g + ["--budget", "5MB"], "--budget", "not a number"),
        (g + ["--show", "-1"], "--show", "not a whole number"),
        (g + ["--show", ""], "--show", "not a whole number"),
        (g + ["--max-stored", " 3"], "--max-stored", "not a whole number"),
        (g + ["--window", "99999999999999999999999"], "--window", "out of range"),
        (g + ["--seed", "-3"], "--seed", "not a whole number"),
        (["--rmat", "31"], "--rmat", "out of range 1..30"),
        (["--rmat", "8", "--edge-factor", "0"], "--edge-factor", "out of range 1..1024"),
        (["--planted", "100", "1.5", "5"], "--planted", "out of range 0..1"),
        (["--planted", "100", "0.1", "101"], "--planted", "out of range 0..100"),
        (["--er", "0", "0.5"], "--er", "out of range 1..4294967295"),
        (g + ["--seeds"], "--seeds", "missing its value"),
        (g + ["--frobnicate", "1"], "--frobnicate", "unknown option"),
        (g + ["--orientation", "degenerate"], "--orientation", "unknown --orientation 'degenerate': use degree"),
        (g + ["--backend", "gpu"], "--backend", "unknown --backend 'gpu': use auto, cuda or host"),
        (g + ["--heuristic", "greedy"], "--heuristic", "unknown --heuristic 'greedy': use none, single-degree"),
        (g + ["--format", "gml"], "--format", "unknown --format 'gml': use snap, dimacs, mtx or auto"),
        (g + ["--search", "dfs"], "--search", "unknown --search 'dfs': use bitset or list"),
        ([], "", "give one FILE"),
    ]
    for args, option, says in cases:
        rc, out, err, _ = run(binary, args)
        check(rc == 2 and option in err and says in err,
              "%s %s: exit %d (want 2), stderr %r should name %r and say %r" % (binary, " ".join(args), rc,
                                                                             err[:200], option, says))


def check_json_planted(binary):
    k = 14
    args = ["--planted", "300", "0.05", str(k), "--json", "--quiet"]
    rc, out, err, _ = run(binary, args + ["--seed", "7"])
    check(rc == 0, "%s planted --json: exit %d (%s)" % (binary, rc, err[:200]))
    r = parse_json(out)
    if r is None:
        check(False, "%s planted --json: not one JSON object: %r" % (binary, out[:200]))
        return
    check(r["omega"] == k and r["count"] >= 1, "%s planted: omega %s count %s, want %d" % (binary, r["omega"],
                                                                                           r["count"], k))
    check(r["stored"] == len(r["cliques"]) and all(len(c) == k and c == sorted(c) for c in r["cliques"]),
          "%s planted: stored %s, cliques %r" % (binary, r["stored"], r["cliques"][:2]))
    check(all(isinstance(v, int) and 0 <= v < 300 for c in r["cliques"] for v in c), "%s planted: ids" % binary)
    check(r["backend"] in ("host", "cuda") and r["stats"]["backend"] == r["backend"], "%s: backend" % binary)
    check(isinstance(r["stats"]["total_ms"], float) and r["vertices"] == 300, "%s: stats" % binary)
    # --seed: the same seed gives the same graph, another seed another one
    rc2, out2, _, _ = run(binary, args + ["--seed", "7"])
    rc3, out3, _, _ = run(binary, args + ["--seed", "8"])
    b, c = parse_json(out2), parse_json(out3)
    if rc2 == 0 and rc3 == 0 and b is not None and c is not None:
        a = r
        check(a["edges"] == b["edges"] and a["cliques"] == b["cliques"], "%s: --seed 7 twice differs" % binary)
        check((a["edges"], a["cliques"]) != (c["edges"], c["cliques"]), "%s: --seed 7 and 8 give one graph" % binary)
    else:
        check(False, "%s: --seed runs failed" % binary)
    # --er and --rmat take --seed too
    rc, out, err, _ = run(binary, ["--er", "200", "0.1", "--seed", "3", "--json", "--quiet"])
    r = parse_json(out)
    check(rc == 0 and r is not None and r["omega"] >= 2, "%s --er: exit %d" % (binary, rc))
    rc, out, err, _ = run(binary, ["--rmat", "8", "--seed", "3", "--json", "--quiet", "--backend", "host"])
    r = parse_json(out)
    check(rc == 0 and r is not None and r["vertices"] == 256, "%s --rmat: exit %d" % (binary, rc))
    # every orientation finds the same cliques (HOST ignores it; CUDA orients the 2-cliques by it)
    found = []
    for orient in ("degree", "index", "degeneracy"):
        rc, out, err, _ = run(binary, ["--rmat", "9", "--seed", "4", "--json", "--quiet", "--orientation", orient])
        r = parse_json(out)
        check(rc == 0 and r is not None, "%s --orientation %s: exit %d (%s)" % (binary, orient, rc, err[:200]))
        if r is not None:
            found.append((r["omega"], r["count"], r["cliques"]))
    check(len(found) == 3 and found[0] == found[1] == found[2], "%s: the orientations differ: %r" %
          (binary, [f[:2] for f in found]))


def check_self_loops(binary, tmp):
    path = os.path.join(tmp, "loops.txt")
    with open(path, "w") as f:
        f.write("# self-loops only\n4 4\n9 9\n4 4\n17 17\n")
    rc, out, err, _ = run(binary, [path, "--json", "--quiet"])
    r = parse_json(out)
    check(rc == 0 and r is not None, "%s loops: exit %d (%s)" % (binary, rc, err[:200]))
    if rc == 0 and r is not None:
        check(r["vertices"] == 3 and r["edges"] == 0 and r["omega"] == 1 and r["count"] == 3,
              "%s loops: %r" % (binary, {k: r[k] for k in ("vertices", "edges", "omega", "count")}))
        check(r["cliques"] == [[4], [9], [17]], "%s loops: cliques %r" % (binary, r["cliques"]))


def check_progress(binary):
    g = ["--planted", "3000", "0.01", "20", "--seed", "5", "--backend", "host"]
    rc, out, err, _ = run(binary, g + ["--progress"])
    check(rc == 0 and "max core" in err and "done" in err and "omega 20" in out,
          "%s --progress: exit %d, stderr %r" % (binary, rc, err[:300]))
    rc, out, err, _ = run(binary, g + ["--quiet"])
    check(rc == 0 and err == "", "%s --quiet: exit %d, stderr %r" % (binary, rc, err[:300]))
    rc, out, err, _ = run(binary, g + ["--progress", "--json"])
    r = parse_json(out)
    check(rc == 0 and r is not None and r["omega"] == 20 and "max core" in err, "%s --progress --json" % binary)


def check_hostile(binary, tmp):
    path = os.path.join(tmp, "hostile.clq")
    with open(path, "w") as f:
        f.write("p edge 4294967295 0\n")
    rc, out, err, secs = run(binary, [path], timeout=30)
    check(rc == 1 and "line 1" in err and secs < 10, "%s hostile header: exit %d in %.1f s, stderr %r" %
          (binary, rc, secs, err[:200]))
    # the limit in the user's words: the option that raises it, not the library's field
    check("--max-vertices" in err and "gclq_load_options" not in err,
          "%s hostile header: names --max-vertices: %r" % (binary, err[:300]))
    with open(path, "w") as f:
        f.write("c a comment\np edge 3 7\ne 1 2\ne 2 3\n")
    rc, out, err, _ = run(binary, [path])
    check(rc == 1 and "line 2" in err and "M = 7" in err, "%s M mismatch: exit %d, stderr %r" % (binary, rc, err[:200]))
    rc, out, err, _ = run(binary, [os.path.join(tmp, "no_such_file.txt")])
    check(rc == 1 and ("cannot open the file: %s" % os_reason(ENOENT)) in err and "line 0" not in err,
          "%s missing file: exit %d, the system's reason: %r" % (binary, rc, err[-300:]))
    rc, out, err, _ = run(binary, [tmp])
    check(rc == 1 and "cannot read the file" in err and (not LINUX or os_reason(EISDIR) in err),
          "%s a directory: exit %d, the system's reason: %r" % (binary, rc, err[-300:]))


def check_long_run(binary):
    """G(1000, 0.9) takes hours on HOST: the run is killed after a few seconds. A person watching
    sees a line on stderr at once, the graph's line on stdout as soon as the graph is made (stdout
    line-buffered, not held until the end), and the search's line once it has searched about a
    second of processor time (the library reads the clock by work done, so its first source, which
    alone takes hours, is no silence). On a machine too loaded to give the run that much processor
    time in the wall time allowed, the last check is skipped, not failed."""
    check_watched(binary, ["--er", "1000", "0.9", "--backend", "host"], "G(n, p): 1000 vertices", 0.5,
                  "search: source")


def has_device(binary):
    """Does this binary run CUDA here? (--backend cuda exits 1 without a device or without nvcc.)"""
    rc, _, _, _ = run(binary, ["--planted", "50", "0.1", "4", "--backend", "cuda", "--quiet"])
    return rc == 0


def check_auto_stats(binary):
    """AUTO on a small graph: without a device fell_back is 1 and the note says so (whichever rule
    applied); the max core in the note is stats.max_core."""
    device = has_device(binary)
    rc, out, err, _ = run(binary, ["--planted", "300", "0.05", "14", "--json", "--quiet", "--seed", "7"])
    r = parse_json(out)
    if rc != 0 or r is None:
        check(False, "%s AUTO stats: exit %d (%s)" % (binary, rc, err[:200]))
        return
    s = r["stats"]
    check(s["backend"] == "host" and s["auto_small"] == 1, "%s AUTO small: %r" % (binary, s))
    check(s["fell_back"] == (0 if device else 1) and ("no CUDA device" in s["notes"]) == (not device),
          "%s AUTO (device %s): fell_back %s, notes %r" % (binary, device, s["fell_back"], s["notes"]))
    check("max core %d" % s["max_core"] in s["notes"] and s["max_core"] >= 13,
          "%s AUTO: max_core %s, notes %r" % (binary, s["max_core"], s["notes"]))


def check_formats(binary, tmp):
    dimacs = "c a triangle and a pendant\np edge 4 4\ne 1 2\ne 2 3\ne 3 1\ne 3 4\n"
    snap = "# an edge list\n1 2\n2 3\n3 1\n3 4\n"
    for name, text in (("dimacs.txt", dimacs), ("edges.clq", snap)):
        path = os.path.join(tmp, name)
        with open(path, "w") as f:
            f.write(text)
        rc, out, err, _ = run(binary, [path, "--json", "--quiet"])
        r = parse_json(out)
        check(rc == 0 and r is not None and r["omega"] == 3 and r["edges"] == 4,
              "%s %s by its content: exit %d, stderr %r" % (binary, name, rc, err[:200]))
    rc, out, err, _ = run(binary, [os.path.join(tmp, "dimacs.txt"), "--format", "snap"])
    check(rc == 1 and "line 1" in err and "--format" in err and "read as SNAP" in err,
          "%s --format snap on DIMACS: exit %d, stderr %r" % (binary, rc, err[:300]))
    rc, out, err, _ = run(binary, [os.path.join(tmp, "edges.clq"), "--format", "dimacs"])
    check(rc == 1 and "--format" in err, "%s --format dimacs on SNAP: exit %d, stderr %r" % (binary, rc, err[:300]))


def main():
    binaries = sys.argv[1:]
    if not binaries:
        print(__doc__)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        for b in binaries:
            if not os.path.exists(b):
                check(False, "%s: no such binary" % b)
                continue
            print("%s" % b)
            check_help(b)
            check_bad_numbers(b)
            check_json_planted(b)
            check_self_loops(b, tmp)
            check_progress(b)
            check_hostile(b, tmp)
            check_long_run(b)
            check_auto_stats(b)
            check_formats(b, tmp)
    return summary()


if __name__ == "__main__":
    sys.exit(main())
