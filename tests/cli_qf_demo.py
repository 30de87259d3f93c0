#!/usr/bin/env python3
"""cli_qf_demo.py - the qf_demo command line, as a user meets it.

    python3 tests/cli_qf_demo.py <qf_demo_host> <qf_demo>

For each binary (the plain C build and the nvcc build; on a machine with no
GPU the nvcc build runs on the host through --backend auto):
  --help and -h print the usage on stdout and exit 0;
  each malformed or out-of-range number exits 2 with a message on stderr
  that names the option (and, out of range, the range);
  a small run with --json prints one JSON object that Python's json module
  reads, with every step's name, keys, seconds, M keys/s and backend, and
  every check held; stderr has one progress line per step;
  a small run without --json prints the table and "every check held";
  a name --backend or --kind does not know is echoed with the names it
  takes (exit 2); a --file that cannot be written is named (exit 1);
  a long run's table lines reach a pipe as they are printed (stdout
  line-buffered), with a progress line on stderr before its first step.
Prints one line per check, then "N passed, N failed"; the exit status is the
number of failures (capped at 100).
"""
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cli_check  # noqa: E402
from cli_check import check, run, run_watched, summary  # noqa: E402
cli_check.verbose = True


# (arguments, the option the message must name, text the message must hold)
BAD_NUMBERS = [
    (["--keys", "abc"], "--keys", "not a whole number"),
    (["--keys", "-5"], "--keys", "not a whole number"),
    (["--keys", "12x"], "--keys", "not a whole number"),
    (["--keys", " 12"], "--keys", "not a whole number"),
    (["--keys", ""], "--keys", "not a whole number"),
    (["--keys", "5"], "--keys", "10 to 1073741823"),
    (["--keys", "99999999999999999999999"], "--keys", "10 to 1073741823"),
    (["--q", "99"], "--q", "1 to 32"),
    (["--q", "0"], "--q", "1 to 32"),
    (["--r", "33"], "--r", "1 to 32"),
    (["--r", "7"], "--r", "5, 13, 21 or 29"),
    (["--seed", "-1"], "--seed", "not a whole number"),
    (["--seed", "0x"], "--seed", "not a whole number"),
    (["--seed", "18446744073709551616"], "--seed", "0 to 18446744073709551615"),
    (["--keys"], "--keys", "needs a value"),
    (["--bogus", "1"], "--bogus", "unknown option"),
    (["--backend", "gpu"], "--backend", "unknown --backend 'gpu': use auto, cuda or host"),
    (["--kind", "bloom"], "--kind", "unknown --kind 'bloom': use rsqf, sqf or both"),
]

STEPS = ["build", "lookup, present keys", "lookup, absent keys", "delete", "insert",
         "merge (items in the result)", "save (items)", "load (validated on the host)"]


def test_binary(binary, tmp):
    name = os.path.basename(binary)
    for flag in ["--help", "-h"]:
        rc, out, err, _ = run(binary, [flag])
        check(rc == 0 and out.startswith("usage: qf_demo") and "--json" in out,
              "%s %s: exit 0, usage on stdout (rc %d)" % (name, flag, rc))
    for args, opt, text in BAD_NUMBERS:
        rc, out, err, _ = run(binary, args)
        first = err.splitlines()[0] if err else ""
        check(rc == 2 and opt in first and text in first,
              "%s %s: exit 2 naming %s, '%s' (rc %d, stderr %r)" % (name, " ".join(args), opt, text, rc, first))
    path = os.path.join(tmp, name + ".qf")
    rc, out, err, _ = run(binary, ["--keys", "3000", "--json", "--file", path])
    check(rc == 0, "%s --json: exit 0 (rc %d, stderr %r)" % (name, rc, err[-300:]))
    try:
        doc = json.loads(out)
    except ValueError as e:
        doc = None
        check(False, "%s --json: stdout is one JSON object (%s: %r)" % (name, e, out[:200]))
    if doc is not None:
        check(doc.get("every_check_held") is True, "%s --json: every_check_held is true" % name)
        steps = doc.get("steps", [])
        check(len(steps) == 2 * len(STEPS), "%s --json: %d steps (two kinds of %d)" % (name, len(steps), len(STEPS)))
        check([s.get("name") for s in steps] == STEPS * 2, "%s --json: the steps in order" % name)
        fields = all(set(s) >= {"kind", "name", "keys", "seconds", "mkeys_per_s", "backend"} and
                     isinstance(s["keys"], int) and s["keys"] > 0 and s["seconds"] >= 0 and
                     s["backend"] == doc.get("backend") for s in steps)
        check(fields, "%s --json: every step has kind, name, keys, seconds, mkeys_per_s, backend" % name)
        progress = [l for l in err.splitlines() if l.startswith("qf_demo: ")]
        check(len(progress) == len(steps), "%s --json: one progress line a step on stderr (%d lines, %d steps)"
              % (name, len(progress), len(steps)))
    check(not os.path.exists(path), "%s --json: the demo removed its file" % name)
    rc, out, err, _ = run(binary, ["--keys", "3000", "--kind", "sqf", "--r", "5", "--file", path])
    check(rc == 0 and "every check held" in out and "lookup, absent keys" in out,
          "%s table: every check held (rc %d)" % (name, rc))
    bad = os.path.join(tmp, "no", "such", "dir", "f.qf")
    rc, out, err, _ = run(binary, ["--keys", "3000", "--kind", "rsqf", "--file", bad])
    check(rc == 1 and ("--file %s:" % bad) in err, "%s unwritable --file: exit 1 naming it (rc %d, stderr %r)" % (
        name, rc, err[-300:]))
    check_long_run(binary, tmp)


def check_long_run(binary, tmp):
    """10 million keys on HOST, killed after about a second of processor time (before the build
    ends): the first lines of the table are on stdout already, and the build's progress line on
    stderr. On a machine too loaded to give the run that much processor time in the wall time
    allowed, the stdout check is skipped, not failed."""
    name = os.path.basename(binary)
    path = os.path.join(tmp, name + "_long.qf")
    out, err, cpu = run_watched(binary, ["--backend", "host", "--kind", "rsqf", "--file", path], 1.0, 6.0)
    told = any("rsqf: build, 10000000 keys" in t for _, t in err)
    table = any(t.startswith("RSQF q=24 r=8 on host") for _, t in out)
    if told or table or cpu >= 1.0:
        check(told and table, "%s long run: the first lines while it runs (stdout %r, stderr %r)" % (name, out[:3],
                                                                                                  err[:3]))
    else:
        print("skip %s long run: the machine gave it %.1f s of processor time" % (name, cpu))
    if os.path.exists(path):
        os.remove(path)


def main():
    if len(sys.argv) != 3:
        print("usage: cli_qf_demo.py <qf_demo_host> <qf_demo>")
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        for binary in sys.argv[1:]:
            test_binary(binary, tmp)
    return summary()


if __name__ == "__main__":
    sys.exit(main())
