"""The shared pieces of the command-line tests (tests/cli_*.py): run a binary
and count the checks. Each script ends with summary(), which prints the last
line, "N passed, N failed", and returns the exit status (the failures, capped
at 100)."""
import json
import subprocess
import time

passed = 0
failed = 0
verbose = False  # True: a line for every check, not only for failures


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
        if verbose:
            print("ok   " + what)
    else:
        failed += 1
        print("FAIL " + what)


def run(binary, args, timeout=120):
    """(exit status, stdout, stderr, seconds) of binary with args."""
    t0 = time.time()
    p = subprocess.run([binary] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
    return (p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace"),
            time.time() - t0)


def parse_json(out):
    """The one JSON object on stdout, or None."""
    try:
        r = json.loads(out)
    except ValueError:
        return None
    return r if isinstance(r, dict) else None


def summary():
    print("%d passed, %d failed" % (passed, failed))
    return min(failed, 100)
