#!/usr/bin/env python3
"""The setops CLI, as a user and a script see it.

  python3 tests/cli_setops.py SETOPS_HOST SETOPS

Runs every check against each binary given (the gcc build, HOST only, and
the nvcc build, which runs CUDA where there is a GPU and HOST elsewhere):
--help, strict arguments (each bad one is exit 2 naming the option), the
three operations on a random text file against a Python reference (the
printed lines, --out files sorted and complete, --json checked by the json
module), the binary format, malformed and hostile files (the line or the
byte offset named, fast), AUTO's stats on small work (fell_back names a
missing device), errors in the user's words (the system's reason for a
missing file, a directory or an --out that cannot be written; a pair past
the last set and a method of all pairs for one pair are usage errors,
exit 2, naming the argument; a name an option does not know echoed with
the names it takes), --quiet, --max-pairs (the answer's cap: one pair
below it is exit 1 naming the option), and the same --out bytes from every
binary. The
last line is "N passed, N failed"; the exit status is the number of
failures (capped at 100)."""
import os
import random
import struct
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_check import EISDIR, ENOENT, LINUX, check, os_reason, parse_json, run, summary  # noqa: E402


def random_sets(rng, k, universe):
    sets = []
    for i in range(k):
        if i > 0 and rng.random() < 0.2:
            src = sets[rng.randrange(i)]
            sets.append(sorted(x for x in src if rng.random() < 0.6))  # a subset
        else:
            sets.append(sorted(rng.sample(range(universe), rng.randrange(1, universe // 3))))
    return [s for s in sets if s]  # text files cannot hold an empty set


def write_text(path, sets):
    with open(path, "w") as f:
        f.write("# random sets\n")
        for s in sets:
            f.write(" ".join(str(x) for x in s) + "\n")


def write_binary(path, sets, universe):
    with open(path, "wb") as f:
        f.write(struct.pack("<IIQ", len(sets), universe, sum(len(s) for s in sets)))
        f.write(struct.pack("<%dI" % len(sets), *[len(s) for s in sets]))
        for s in sets:
            f.write(struct.pack("<%dI" % len(s), *s))


def read_lines(path):
    with open(path) as f:
        return f.read()


def check_help(binary):
    for flag in ("--help", "-h"):
        rc, out, err, _ = run(binary, [flag])
        check(rc == 0 and "usage:" in out and "--json" in out, "%s %s: exit %d, usage on stdout" % (binary, flag, rc))


def check_bad_arguments(binary, tmp):
    g = ["--gen", "uniform", "--k", "10", "--universe", "1000", "--avg", "50"]
    cases = [
        (g + ["--seed", "abc"], "--seed", "not a whole number"),
        (["--gen", "uniform", "--k", "-1", "--universe", "1000", "--avg", "50"], "--k", "not a whole number"),
        (["--gen", "uniform", "--k", "10", "--universe", "0", "--avg", "5"], "--universe", "out of range"),
        (["--gen", "uniform", "--k", "10", "--universe", "100", "--avg", "500"], "--avg", "above --universe"),
        (["--gen", "gauss", "--k", "10", "--universe", "100", "--avg", "5"], "--gen",
         "unknown --gen 'gauss': use uniform, normal or zipf"),
        (["--gen", "uniform", "--k", "10"], "--gen", "needs --k, --universe and --avg"),
        (g + ["--budget", "5MB"], "--budget", "not a number"),
        (g + ["--budget", "-1"], "--budget", "out of range"),
        (g + ["--method", "hashing"], "--method", "unknown --method 'hashing': use auto, merge-path"),
        (g + ["--backend", "gpu"], "--backend", "unknown --backend 'gpu': use auto, cuda or host"),
        (g + ["pair", "0", "1", "--method", "bit-matrix"], "--method", "all pairs at once"),
        (g + ["--method", "inverted-index", "pair", "0", "1"], "--method", "all pairs at once"),
        (g + ["pair", "0", "10"], "pair", "set 10 is out of range 0..9 (10 sets)"),
        (g + ["pair", "12", "3"], "pair", "set 12 is out of range 0..9"),
        (g + ["containment", "--threshold", "1.5"], "--threshold", "out of range"),
        (g + ["containment", "--threshold", "0"], "--threshold", "above 0"),
        (g + ["all", "--threshold", "0.5"], "--threshold", "goes with containment"),
        (g + ["all", "--split", "4"], "--split", "goes with containment"),
        (g + ["containment", "--split", "0"], "--split", "out of range"),
        (g + ["containment", "--split", "some"], "--split", "not a whole number"),
        (g + ["pair", "1"], "pair", "takes I J"),
        (g + ["pair", "1", "x"], "pair", "not a whole number"),
        (g + ["all", "containment"], "containment", "give one operation"),
        (g + ["--seed"], "--seed", "missing its value"),
        (g + ["--frobnicate", "1"], "--frobnicate", "unknown option"),
        (g + ["all", "--max-pairs", "0"], "--max-pairs", "out of range"),
        (g + ["all", "--max-pairs", "many"], "--max-pairs", "not a whole number"),
        (g + ["pair", "0", "1", "--max-pairs", "5"], "--max-pairs", "goes with all or containment"),
        ([], "", "give one FILE or --gen"),
        ([os.path.join(tmp, "a.txt")] + g, "", "give one FILE or --gen"),
    ]
    for args, option, says in cases:
        rc, out, err, _ = run(binary, args)
        check(rc == 2 and option in err and says in err,
              "%s %s: exit %d (want 2), stderr %r should name %r and say %r" % (binary, " ".join(args), rc,
                                                                             err[:200], option, says))


METHODS = ["auto", "merge-path", "binary-search", "serial-merge", "hash", "bitmap", "bitmap-dynamic", "ip-obs",
           "ip-hash"]
ALL_PAIRS_METHODS = ["inverted-index", "bit-matrix"]


def check_operations(binary, tmp, sets, path):
    """all, containment and pair on a file against the Python reference; the
    --out files are returned so that the binaries can be compared."""
    k = len(sets)
    inter = {(i, j): len(set(sets[i]) & set(sets[j])) for i in range(k) for j in range(k) if i != j}
    outs = []
    # all pairs
    out_path = os.path.join(tmp, "all_out.txt")
    rc, out, err, _ = run(binary, [path, "all", "--out", out_path])
    total = sum(inter[(i, j)] for i in range(k) for j in range(i + 1, k))
    check(rc == 0 and out.strip().splitlines()[-1] == "pairs %d, intersections total %d" % (k * (k - 1) // 2, total),
          "%s all: exit %d, last line %r, want total %d" % (binary, rc, out.strip().splitlines()[-1:], total))
    want = "".join("%d %d %d\n" % (i, j, inter[(i, j)]) for i in range(k) for j in range(i + 1, k) if inter[(i, j)])
    got = read_lines(out_path) if rc == 0 else ""
    check(got == want, "%s all --out: %d lines, want %d" % (binary, got.count("\n"), want.count("\n")))
    outs.append(got)
    # containment at 1 (subsets) and at 0.5
    for t in (None, "0.5"):
        out_path = os.path.join(tmp, "contain_out.txt")
        args = [path, "containment", "--out", out_path] + (["--threshold", t] if t else [])
        rc, out, err, _ = run(binary, args)
        th = float(t) if t else 1.0
        pairs = [(i, j) for i in range(k) for j in range(k) if i != j and inter[(i, j)] >= th * len(sets[i])]
        check(rc == 0 and out.strip().splitlines()[-1] == "containments %d" % len(pairs),
              "%s containment %s: exit %d, %r, want %d" % (binary, t, rc, out.strip().splitlines()[-1:], len(pairs)))
        got = read_lines(out_path) if rc == 0 else ""
        check(got == "".join("%d %d\n" % p for p in pairs), "%s containment %s --out differs" % (binary, t))
        outs.append(got)
    for split in ("1", "3", "%d" % (k + 1), "off", "auto"):  # MMJoin's split: the same bytes at every threshold
        rc, out, err, _ = run(binary, [path, "containment", "--threshold", "0.5", "--split", split, "--out", out_path])
        got_s = read_lines(out_path) if rc == 0 else ""
        check(rc == 0 and got_s == outs[-1], "%s containment --split %s: exit %d, --out differs" % (binary, split, rc))
    # one pair, its elements
    out_path = os.path.join(tmp, "pair_out.txt")
    rc, out, err, _ = run(binary, [path, "pair", "2", "0", "--out", out_path])
    common = sorted(set(sets[2]) & set(sets[0]))
    check(rc == 0 and "intersection %d" % len(common) in out, "%s pair: exit %d, %r" % (binary, rc, out[-200:]))
    got = read_lines(out_path) if rc == 0 else ""
    check(got == "".join("%d\n" % x for x in common), "%s pair --out differs" % binary)
    outs.append(got)
    for method in METHODS:  # every method gives the same elements
        rc, out, err, _ = run(binary, [path, "pair", "2", "0", "--method", method, "--out", out_path])
        got_m = read_lines(out_path) if rc == 0 else ""
        check(rc == 0 and got_m == got, "%s pair --method %s: exit %d, --out differs" % (binary, method, rc))
    for method in ALL_PAIRS_METHODS:  # all pairs at once: the same total; refused for one pair
        rc, out, err, _ = run(binary, [path, "all", "--method", method])
        check(rc == 0 and ("intersections total %d" % total) in out,
              "%s all --method %s: exit %d, %r" % (binary, method, rc, out[-200:]))
        rc, out, err, _ = run(binary, [path, "pair", "2", "0", "--method", method])
        check(rc == 2 and "--method" in err and "not pair" in err,
              "%s pair --method %s: exit %d (want 2, naming --method): %r" % (binary, method, rc, err[:200]))
    rc, out, err, _ = run(binary, [path, "pair", "0", str(k)])
    check(rc == 2 and ("pair: set %d is out of range 0..%d (%d sets)" % (k, k - 1, k)) in err,
          "%s pair out of range: exit %d (want 2), %r" % (binary, rc, err[:200]))
    # --json
    rc, out, err, _ = run(binary, [path, "all", "--json"])
    r = parse_json(out)
    check(rc == 0 and r is not None and r["pairs"] == k * (k - 1) // 2 and r["intersections_total"] == total and
          r["stats"]["backend"] in ("host", "cuda"), "%s all --json: exit %d, %r" % (binary, rc, out[:200]))
    return outs


def check_max_pairs(binary, tmp):
    """20 equal sets: all pairs keep 190 pairs, containment 380 (each way).
    One below is exit 1 naming --max-pairs; the exact figure and none pass."""
    path = os.path.join(tmp, "equal.txt")
    write_text(path, [[1, 5, 9]] * 20)
    for op, kept in (("all", 190), ("containment", 380)):
        for cap, ok in ((str(kept - 1), False), (str(kept), True), ("none", True)):
            rc, out, err, _ = run(binary, [path, op, "--max-pairs", cap, "--quiet"])
            if ok:
                check(rc == 0, "%s %s --max-pairs %s: exit %d, %r" % (binary, op, cap, rc, err[-200:]))
            else:
                check(rc == 1 and "more than %s pairs" % cap in err and "--max-pairs" in err,
                      "%s %s --max-pairs %s: exit %d (want 1), stderr %r" % (binary, op, cap, rc, err[-200:]))


def check_binary_and_generated(binary, tmp, sets, universe):
    path = os.path.join(tmp, "sets.bin")
    write_binary(path, sets, universe)
    rc, out, err, _ = run(binary, [path, "all"])
    rc2, out2, _, _ = run(binary, [os.path.join(tmp, "sets.txt"), "all"])
    check(rc == 0 and rc2 == 0 and out.strip().splitlines()[-1] == out2.strip().splitlines()[-1],
          "%s: the binary file and the text file differ (%d, %d)" % (binary, rc, rc2))
    g = ["--gen", "zipf", "--k", "40", "--universe", "5000", "--avg", "300", "all", "--json"]
    rc, out, _, _ = run(binary, g + ["--seed", "3"])
    rc2, out2, _, _ = run(binary, g + ["--seed", "3"])
    rc3, out3, _, _ = run(binary, g + ["--seed", "4"])
    a, b, c = parse_json(out), parse_json(out2), parse_json(out3)
    ok = None not in (a, b, c) and rc == rc2 == rc3 == 0
    check(ok and a["intersections_total"] == b["intersections_total"], "%s --gen --seed 3 twice differs" % binary)
    check(ok and (a["elements"], a["intersections_total"]) != (c["elements"], c["intersections_total"]),
          "%s --gen --seed 3 and 4 give the same sets" % binary)


def check_malformed(binary, tmp):
    path = os.path.join(tmp, "bad.txt")
    with open(path, "w") as f:
        f.write("1 2 3\n# fine so far\n4 9 7\n")
    rc, out, err, _ = run(binary, [path, "all"])
    check(rc == 1 and "line 3" in err and "does not follow" in err, "%s unsorted: exit %d, %r" % (binary, rc, err[:200]))
    with open(path, "w") as f:
        f.write("1 2 3\n4 five\n")
    rc, out, err, _ = run(binary, [path, "all"])
    check(rc == 1 and "line 2" in err, "%s not a number: exit %d, %r" % (binary, rc, err[:200]))
    path = os.path.join(tmp, "hostile.bin")
    with open(path, "wb") as f:
        f.write(struct.pack("<IIQI", 0xFFFFFFFF, 10, 0xFFFFFFFFFFFF, 1))
    rc, out, err, secs = run(binary, [path, "all"], timeout=30)
    check(rc == 1 and "byte" in err and secs < 10, "%s hostile header: exit %d in %.1f s, %r" % (binary, rc, secs,
                                                                                                  err[:200]))
    with open(path, "wb") as f:
        f.write(struct.pack("<IIQ2I3I", 2, 10, 3, 2, 1, 5, 4, 6))  # set 0 is 5 4
    rc, out, err, _ = run(binary, [path, "all"])
    check(rc == 1 and "byte 28" in err and "set 0" in err, "%s unsorted binary: exit %d, %r" % (binary, rc, err[:200]))
    rc, out, err, _ = run(binary, [os.path.join(tmp, "no_such_file.txt"), "all"])
    check(rc == 1 and ("cannot open the file: %s" % os_reason(ENOENT)) in err,
          "%s missing file: exit %d, the system's reason: %r" % (binary, rc, err[-300:]))
    for name in ("a_dir", "a_dir.bin"):  # both readers
        os.makedirs(os.path.join(tmp, name), exist_ok=True)
        rc, out, err, _ = run(binary, [os.path.join(tmp, name), "all"])
        check(rc == 1 and "cannot read the file" in err and "out of memory" not in err and
              (not LINUX or os_reason(EISDIR) in err),
              "%s %s, a directory: exit %d, the system's reason: %r" % (binary, name, rc, err[-300:]))


def check_out_and_quiet(binary, path, tmp):
    """--out where it cannot be written names --out and the system's reason; --quiet leaves stderr
    empty on success (the reading line is the CLI's own)."""
    bad = os.path.join(tmp, "no", "such", "dir", "out.txt")
    rc, out, err, _ = run(binary, [path, "all", "--out", bad])
    check(rc == 1 and "--out" in err and os_reason(ENOENT) in err,
          "%s unwritable --out: exit %d, %r" % (binary, rc, err[-300:]))
    rc, out, err, _ = run(binary, [path, "all", "--quiet"])
    check(rc == 0 and err == "", "%s --quiet: exit %d, stderr %r" % (binary, rc, err[-300:]))
    rc, out, err, _ = run(binary, [path, "all"])
    check(rc == 0 and err.startswith("setops: reading "), "%s: the line at once on stderr: %r" % (binary, err[:200]))


def check_auto_stats(binary, path):
    """AUTO on small work runs HOST (auto_small); without a device fell_back is 1 too."""
    device = run(binary, [path, "pair", "0", "1", "--backend", "cuda"])[0] == 0
    rc, out, err, _ = run(binary, [path, "pair", "0", "1", "--json"])
    r = parse_json(out)
    if rc != 0 or r is None:
        check(False, "%s AUTO pair --json: exit %d (%s)" % (binary, rc, err[:200]))
        return
    s = r["stats"]
    check(s["backend"] == "host" and s["auto_small"] == 1 and s["fell_back"] == (0 if device else 1),
          "%s AUTO small work (device %s): %r" % (binary, device, s))


def main():
    binaries = sys.argv[1:]
    if not binaries:
        print(__doc__)
        return 2
    rng = random.Random(int(time.time()))  # fresh sets every run
    universe = 200
    sets = random_sets(rng, 30, universe)
    outputs = []
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "sets.txt")
        write_text(path, sets)
        for b in binaries:
            if not os.path.exists(b):
                check(False, "%s: no such binary" % b)
                continue
            print("%s" % b)
            check_help(b)
            check_bad_arguments(b, tmp)
            outputs.append(check_operations(b, tmp, sets, path))
            check_binary_and_generated(b, tmp, sets, universe)
            check_max_pairs(b, tmp)
            check_malformed(b, tmp)
            check_auto_stats(b, path)
            check_out_and_quiet(b, path, tmp)
    check(all(o == outputs[0] for o in outputs), "the binaries' --out files differ")
    return summary()


if __name__ == "__main__":
    sys.exit(main())
