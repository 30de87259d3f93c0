#!/usr/bin/env python3
"""nvcc for an architecture older than sm_80 stops with gpuprim.cuh's message.

Compiles a one-line implementation file (both halves, from the sources) with
-arch=sm_75, in a temporary folder. Passes when nvcc fails, its first error is
the #error of gpuprim.cuh, and that error is the only one. The message must
name a fixed architecture (-arch=native without a GPU is what lands there) and
CMAKE_CUDA_ARCHITECTURES, for CMake users.

  python3 tests/compile/arch_guard.py [NVCC]     (NVCC defaults to nvcc)
"""
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MESSAGE = ("gpuamq/gpuclique need sm_80 or newer: compile with a fixed architecture, e.g. -arch=sm_90",
           "CMake: set CMAKE_CUDA_ARCHITECTURES")


def main(argv):
    nvcc = argv[0] if argv else "nvcc"
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "impl.cu")
        with open(src, "w") as f:
            f.write("#define GPUAMQ_IMPLEMENTATION\n#include \"gpuamq.h\"\n"
                    "#define GPUCLIQUE_IMPLEMENTATION\n#include \"gpuclique.h\"\n")
        cmd = [nvcc, "-arch=sm_75", "-I", ROOT, "-c", src, "-o", os.path.join(tmp, "impl.o")]
        r = subprocess.run(cmd, capture_output=True, text=True)
    out = r.stdout + r.stderr
    print("$ " + " ".join(cmd))
    print(out.strip())
    # error reports, "file:line:col: error: ..." (gcc's preprocessor) or "file(line): error" (cudafe);
    # the source line and caret gcc prints under a report are not counted
    reports = [line for line in out.splitlines() if re.match(r".*:\d+(:\d+)?: (fatal )?error", line) or
               re.match(r".*\(\d+\): error", line)]
    if r.returncode == 0:
        print("arch_guard: FAILED: nvcc -arch=sm_75 compiled the implementation")
        return 1
    if not reports or not all(part in reports[0] for part in MESSAGE):
        print("arch_guard: FAILED: the first error is not gpuprim.cuh's message")
        return 1
    if len(reports) != 1:
        print("arch_guard: FAILED: %d errors, expected only the #error" % len(reports))
        return 1
    print("arch_guard: ok (nvcc stopped with the message alone)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
