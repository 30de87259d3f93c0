#!/usr/bin/env python3
"""Compile, link and run every ```c block of README.md against dist/ (the docs must work).

First the README's fences are checked: each fence line (```, ```c, ```sh, ...)
starts at column 0 and holds nothing else, no other line contains ```, and
they pair up (every block is closed).

Then, in a temporary folder, dist/gpuamq.h and dist/gpuclique.h are built
once into one implementation object (host backend: a C99 compiler, so AUTO
runs HOST), and each C block becomes a program:
  - a block with a main() is a whole file and is compiled as it stands;
  - a block that defines an *_IMPLEMENTATION macro is an implementation file:
    it is compiled on its own and linked with a main() that calls a function
    of each half (instead of the shared implementation object);
  - any other block is a fragment: it is placed inside
        #include <stdio.h>, <stdlib.h>, <string.h>, "gpuamq.h", "gpuclique.h"
        int main(void) { <block> return 0; }
    and linked with the implementation object.
Everything is compiled with -std=c99 -Wall -Wextra -Werror -pedantic, linked
with -lm, and run in the temporary folder (so files a block writes land
there); a block passes when its program exits 0.

Last, the ```sh block right after the line LINK_MARK (below) is run line by
line, as a vendoring user types it: in a folder of its own holding copies of
dist/gpuamq.h and dist/gpuclique.h, the README's implementation block as
impl.cu and impl.c, and main.c (a C main calling a function of each half).
Each line is one command (a trailing # comment is dropped); nvcc is the one
given (or found on PATH, or in /usr/local/cuda/bin), and the CUDA root in the
lines, /usr/local/cuda, becomes that nvcc's. Every program a line links
(-o NAME) is run and must exit 0. A line whose tool is missing is reported as
skipped; with --impl-object OBJ the nvcc compile of impl.cu is replaced by a
copy of OBJ (an nvcc object of the same two dist/ includes, built already).

  python3 tests/compile/readme_snippets.py [CC] [--nvcc NVCC] [--impl-object OBJ]
      (CC defaults to $CC or cc)
"""
import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CFLAGS = ["-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic"]
HEADERS = ('#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n'
           '#include "gpuamq.h"\n#include "gpuclique.h"\n')
IMPL = '#define GPUAMQ_IMPLEMENTATION\n#include "gpuamq.h"\n#define GPUCLIQUE_IMPLEMENTATION\n#include "gpuclique.h"\n'
CALL_BOTH = HEADERS + ('int main(void) {\n  gamq_backend a;\n  gclq_backend c;\n'
                       '  return gamq_backend_resolve(GAMQ_BACKEND_HOST, &a) != GAMQ_SUCCESS ||\n'
                       '         gclq_backend_resolve(GCLQ_BACKEND_HOST, &c) != GCLQ_SUCCESS;\n}\n')
LINK_MARK = "<!-- readme_snippets.py runs the lines below -->"


def check_fences(lines):
    """Return a list of problems with the README's ``` fences, the C blocks as (line, text), and
    the ```sh blocks that follow LINK_MARK, as (line, text)."""
    problems, blocks, link_blocks = [], [], []
    open_at, lang, body, marked = None, None, [], False
    for no, line in enumerate(lines, 1):
        if "```" not in line:
            if open_at is not None:
                body.append(line)
            continue
        m = re.match(r"^```([A-Za-z0-9_+-]*)\s*$", line)
        if not m:
            problems.append("line %d: a fence must start at column 0 and stand alone: %r" % (no, line))
            continue
        if open_at is None:
            open_at, lang, body = no, m.group(1), []
            marked = no > 1 and lines[no - 2].strip() == LINK_MARK
        elif m.group(1):
            problems.append("line %d: ```%s opens a block inside the block of line %d" % (no, m.group(1), open_at))
        else:
            if lang == "c":
                blocks.append((open_at, "".join(body)))
            elif lang == "sh" and marked:
                link_blocks.append((open_at, "".join(body)))
            open_at = None
    if open_at is not None:
        problems.append("line %d: the block opened here is never closed" % open_at)
    return problems, blocks, link_blocks


def compile_run(cc, tmp, name, sources, objects, run):
    """Compile sources (name -> text) and link with objects; run the program when asked. (ok, output)"""
    paths = []
    for fname, text in sources.items():
        path = os.path.join(tmp, fname)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        paths.append(path)
    exe = os.path.join(tmp, name)
    cmd = [cc] + CFLAGS + ["-I", os.path.join(ROOT, "dist")] + paths + objects + ["-o", exe, "-lm"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        return False, " ".join(cmd) + "\n" + r.stdout + r.stderr
    if not run:
        return True, ""
    r = subprocess.run([exe], capture_output=True, text=True, cwd=tmp, timeout=300)
    out = r.stdout + r.stderr
    if r.returncode != 0:
        return False, "%s exited %d\n%s" % (name, r.returncode, out)
    return True, out


def find_nvcc(given):
    """The nvcc to run: the one given, else on PATH, else in /usr/local/cuda/bin; None if none."""
    for cand in (given, shutil.which("nvcc"), "/usr/local/cuda/bin/nvcc"):
        if cand and os.path.isfile(cand) and os.access(cand, os.X_OK):
            return cand
    return None


def run_link_lines(folder, line_no, text, impl_code, nvcc, impl_object):
    """Run the README's link lines (see the module's doc) in folder; return the number that failed."""
    os.makedirs(folder)
    for name in ("gpuamq.h", "gpuclique.h"):
        shutil.copy(os.path.join(ROOT, "dist", name), folder)
    for name, code in (("impl.cu", impl_code), ("impl.c", impl_code), ("main.c", CALL_BOTH)):
        with open(os.path.join(folder, name), "w", encoding="utf-8") as f:
            f.write(code)
    cuda_root = os.path.dirname(os.path.dirname(os.path.abspath(nvcc))) if nvcc else None
    failed = 0
    for i, raw in enumerate(text.splitlines()):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        argv = shlex.split(line)
        where = "README line %d: %s" % (line_no + 1 + i, line)
        if argv[0] == "nvcc" and "-c" in argv and "impl.cu" in argv and impl_object:
            shutil.copy(impl_object, os.path.join(folder, "impl.o"))
            print("%s: ok (a copy of %s, built already)" % (where, impl_object))
            continue
        if argv[0] == "nvcc" and nvcc is None:
            print("%s: skipped (no nvcc)" % where)
            continue
        if argv[0] != "nvcc" and shutil.which(argv[0]) is None:
            print("%s: skipped (no %s)" % (where, argv[0]))
            continue
        if "impl.o" in argv and not os.path.isfile(os.path.join(folder, "impl.o")):
            print("%s: skipped (no impl.o: no nvcc)" % where)
            continue
        if cuda_root:
            argv = [a.replace("/usr/local/cuda", cuda_root, 1) for a in argv]
        if argv[0] == "nvcc":
            argv[0] = nvcc
        r = subprocess.run(argv, capture_output=True, text=True, cwd=folder)
        if r.returncode != 0:
            said = (r.stdout + r.stderr).rstrip().splitlines()
            print("%s: FAILED\n    %s\n%s" % (where, " ".join(argv), "\n".join(said[:20])))
            if len(said) > 20:
                print("    ... (%d more lines)" % (len(said) - 20))
            failed += 1
            continue
        out = ""
        if "-o" in argv and "-c" not in argv:
            exe = os.path.join(folder, argv[argv.index("-o") + 1])
            p = subprocess.run([exe], capture_output=True, text=True, cwd=folder, timeout=120)
            out = (p.stdout + p.stderr).strip()
            os.remove(exe)
            if p.returncode != 0:
                print("%s: FAILED: the program exited %d\n    %s" % (where, p.returncode, out))
                failed += 1
                continue
            out = " (the program ran)"
        print("%s: ok%s" % (where, out))
    return failed


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("cc", nargs="?", default=os.environ.get("CC", "cc"))
    ap.add_argument("--nvcc", help="the nvcc of the link lines (default: on PATH, else /usr/local/cuda/bin)")
    ap.add_argument("--impl-object", help="an nvcc object of both dist/ implementations, instead of compiling impl.cu")
    args = ap.parse_args(argv)
    cc = args.cc
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        lines = f.read().splitlines(keepends=True)
    problems, blocks, link_blocks = check_fences(lines)
    for p in problems:
        print("README.md fences: " + p)
    if not blocks:
        print("README.md has no ```c blocks")
        return 1
    if len(link_blocks) != 1:
        print("README.md has %d ```sh blocks after %s, expected one (the link lines)" % (len(link_blocks), LINK_MARK))
        return 1
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        impl_obj = os.path.join(tmp, "impl.o")
        with open(os.path.join(tmp, "impl.c"), "w") as f:
            f.write(IMPL)
        cmd = [cc] + CFLAGS + ["-I", os.path.join(ROOT, "dist"), "-c", os.path.join(tmp, "impl.c"), "-o", impl_obj]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            print("the dist/ implementation does not compile:\n" + r.stderr)
            return 1
        for i, (line, code) in enumerate(blocks, 1):
            name = "block%d" % i
            if re.search(r"\bmain\s*\(", code):
                kind = "whole file"
                ok, out = compile_run(cc, tmp, name, {name + ".c": code}, [impl_obj], True)
            elif "_IMPLEMENTATION" in code:
                kind = "implementation file"
                ok, out = compile_run(cc, tmp, name, {name + ".c": code, name + "_main.c": CALL_BOTH}, [], True)
            else:
                kind = "fragment in main()"
                text = HEADERS + "int main(void) {\n#line %d \"README.md\"\n%s  return 0;\n}\n" % (line + 1, code)
                ok, out = compile_run(cc, tmp, name, {name + ".c": text}, [impl_obj], True)
            print("README block %d (line %d, %s): %s" % (i, line, kind, "ok" if ok else "FAILED"))
            for out_line in out.strip().splitlines():
                print("    " + out_line)
            failed += not ok
        impl_blocks = [code for _, code in blocks if "#define GPUAMQ_IMPLEMENTATION" in code]
        if not impl_blocks:
            print("README.md has no implementation block (#define GPUAMQ_IMPLEMENTATION) for the link lines")
            return 1
        link_failed = run_link_lines(os.path.join(tmp, "link"), link_blocks[0][0], link_blocks[0][1], impl_blocks[0],
                                     find_nvcc(args.nvcc), args.impl_object)
    print("%d of %d README C blocks compile, link and run; link lines %s; fences %s" %
          (len(blocks) - failed, len(blocks), "ok" if not link_failed else "FAILED",
           "ok" if not problems else "BROKEN"))
    return 1 if failed or link_failed or problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
