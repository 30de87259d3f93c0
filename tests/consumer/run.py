#!/usr/bin/env python3
"""Configure, build and run the consumer project (tests/consumer) three ways.

  subdir  add_subdirectory of the source tree
  fetch   FetchContent_Declare(gpuamq SOURCE_DIR <source tree>)
  find    the source tree configured alone, `cmake --install`ed into a prefix,
          then find_package(gpuamq) / find_package(gpuclique)

Each way works in a fresh folder <work>/<way>. The consumer sets no CUDA
architecture, so each way also checks that the library's floor reached the
implementation file's compile command (compute_80, nothing older), and each
runs the program, which checks a quotient filter and a maximum clique on the
host backend and prints "consumer ok".

  python3 tests/consumer/run.py --source DIR --work DIR [--cmake CMAKE]
      [--generator G] [--cc CC] [--nvcc NVCC] [--ways subdir,fetch,find]
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys

WAYS = ("subdir", "fetch", "find")


def run(cmd, env):
    print("+ " + " ".join(cmd), flush=True)
    r = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        print(r.stdout)
        raise RuntimeError("exit status %d: %s" % (r.returncode, " ".join(cmd)))
    return r.stdout


def install_library(args, folder, env):
    """Configure the library alone (no tests, examples or benchmarks) and install it; return the prefix."""
    prefix = os.path.join(folder, "prefix")
    lib_build = os.path.join(folder, "library")
    run([args.cmake, "-S", args.source, "-B", lib_build, "-G", args.generator,
         "-DGPUAMQ_BUILD_TESTS=OFF", "-DGPUAMQ_BUILD_EXAMPLES=OFF", "-DGPUAMQ_BUILD_BENCH=OFF",
         "-DCMAKE_INSTALL_PREFIX=" + prefix], env)
    run([args.cmake, "--build", lib_build], env)
    run([args.cmake, "--install", lib_build], env)
    for rel in ("include/gpuamq/gpuamq.h", "include/gpuamq/gpuclique.h", "include/gpuamq/gpuprim.cuh",
                "include/gpuamq/prim/scan.cuh", "include/gpuamq/amq/qf/host.h",
                "include/gpuamq/clique/sets/methods.cuh",
                "share/cmake/gpuamq/gpuamqConfig.cmake",
                "share/cmake/gpuamq/gpuamqConfigVersion.cmake", "share/cmake/gpuclique/gpucliqueConfig.cmake"):
        if not os.path.isfile(os.path.join(prefix, rel)):
            raise RuntimeError("cmake --install left out " + rel)
    return prefix


def check_architecture(build):
    """The implementation file compiled for sm_80 (the floor), not for nvcc's default."""
    with open(os.path.join(build, "compile_commands.json"), encoding="utf-8") as f:
        commands = json.load(f)
    impl = [c["command"] for c in commands if c["file"].endswith("impl.cu")]
    if len(impl) != 1:
        raise RuntimeError("expected one compile command for impl.cu, found %d" % len(impl))
    archs = sorted(set(re.findall(r"(?:compute|sm)_(\d+)", impl[0])))
    if not archs or min(int(a) for a in archs) < 80 or "80" not in archs:
        raise RuntimeError("impl.cu compiled for %s, expected the floor sm_80: %s" % (archs, impl[0]))
    return archs


def one_way(args, way, env):
    folder = os.path.join(args.work, way)
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    build = os.path.join(folder, "build")
    cmd = [args.cmake, "-S", os.path.join(args.source, "tests", "consumer"), "-B", build, "-G", args.generator,
           "-DGPUAMQ_CONSUMER_MODE=" + way, "-DGPUAMQ_SOURCE_DIR=" + args.source,
           "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON"]
    if args.cc:
        cmd.append("-DCMAKE_C_COMPILER=" + args.cc)
    if args.nvcc:
        cmd.append("-DCMAKE_CUDA_COMPILER=" + args.nvcc)
    if way == "find":
        cmd.append("-DCMAKE_PREFIX_PATH=" + install_library(args, folder, env))
    run(cmd, env)
    archs = check_architecture(build)
    run([args.cmake, "--build", build], env)
    out = run([os.path.join(build, "consumer")], env)
    print(out.strip())
    if "consumer ok" not in out:
        raise RuntimeError("the consumer did not print 'consumer ok'")
    print("%s: ok (impl.cu for sm_%s)" % (way, ", sm_".join(archs)), flush=True)


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--source", required=True)
    p.add_argument("--work", required=True)
    p.add_argument("--cmake", default="cmake")
    p.add_argument("--generator", default="Ninja")
    p.add_argument("--cc")
    p.add_argument("--nvcc")
    p.add_argument("--ways", default=",".join(WAYS))
    args = p.parse_args(argv)
    args.source = os.path.abspath(args.source)
    args.work = os.path.abspath(args.work)
    env = dict(os.environ)
    env.pop("CUDAARCHS", None)  # it would set the consumer's architecture: the test needs CMake's default
    failed = []
    for way in args.ways.split(","):
        if way not in WAYS:
            print("unknown way %s (ways: %s)" % (way, ", ".join(WAYS)))
            return 2
        try:
            one_way(args, way, env)
        except RuntimeError as e:
            print("%s: FAILED: %s" % (way, e), flush=True)
            failed.append(way)
    print("consumer: %d of %d ways passed" % (len(args.ways.split(",")) - len(failed), len(args.ways.split(","))))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
