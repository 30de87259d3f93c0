"""The shared pieces of the command-line tests (tests/cli_*.py): run a binary
and count the checks. Each script ends with summary(), which prints the last
line, "N passed, N failed", and returns the exit status (the failures, capped
at 100)."""
import errno
import json
import os
import subprocess
import sys
import threading
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


def cpu_seconds(pid):
    """Processor time (user + system) of a running process, from /proc; None where there is no /proc."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def run_watched(binary, args, cpu_target, wall_limit):
    """Run binary with args until it has used cpu_target seconds of processor time (wall time where
    there is no /proc), or wall_limit seconds have passed, or it ends; then kill it. Returns
    (stdout lines, stderr lines, cpu seconds used), each line a (seconds since the start, text)
    pair: what a person watching the terminal saw, and when. A loaded machine gives the program
    less processor time than wall time: a check that needs the program to have worked a while
    looks at the cpu seconds, not at the clock."""
    t0 = time.time()
    p = subprocess.Popen([binary] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    seen = {"out": [], "err": []}

    def read(stream, key):
        for raw in iter(stream.readline, b""):
            seen[key].append((time.time() - t0, raw.decode("utf-8", "replace").rstrip("\n")))

    readers = [threading.Thread(target=read, args=(p.stdout, "out")),
               threading.Thread(target=read, args=(p.stderr, "err"))]
    for r in readers:
        r.start()
    used = 0.0
    while p.poll() is None and time.time() - t0 < wall_limit:
        cpu = cpu_seconds(p.pid)
        used = cpu if cpu is not None else time.time() - t0
        if used >= cpu_target:
            break
        time.sleep(0.05)
    if p.poll() is None:
        p.kill()
    p.wait()
    for r in readers:
        r.join()
    return seen["out"], seen["err"], used


def check_watched(binary, args, graph_prefix, graph_cpu, progress_marker):
    """A long run of binary with args, killed after a few seconds (run_watched): a line on stderr
    within 3 s; the graph's line (starting with graph_prefix) on stdout while it runs, once it had
    graph_cpu s of processor time; a line holding progress_marker on stderr once it had 2 s. A
    check whose processor time the machine did not give is skipped, not failed."""
    out, err, cpu = run_watched(binary, args, 2.0, 8.0)
    first = err[0][0] if err else None
    check(first is not None and first < 3.0, "%s long run: first stderr line after %s s (want < 3): %r" %
          (binary, first, err[:1]))
    graph_line = any(t.startswith(graph_prefix) for _, t in out)
    if graph_line or cpu >= graph_cpu:
        check(graph_line, "%s long run: the graph's line on stdout while it runs: %r" % (binary, out[:2]))
    progress = any(progress_marker in t for _, t in err)
    if progress or cpu >= 2.0:
        check(progress, "%s long run: a %r line within %.1f s of processor time: %r" %
              (binary, progress_marker, cpu, err))
    else:
        print("skip %s long run: the machine gave it %.1f s of processor time" % (binary, cpu))


def os_reason(code):
    """The C library's words for an errno (strerror), as the CLIs print them."""
    return os.strerror(code)


LINUX = sys.platform.startswith("linux")
ENOENT, EISDIR = errno.ENOENT, errno.EISDIR


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
