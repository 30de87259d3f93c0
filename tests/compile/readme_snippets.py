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

  python3 tests/compile/readme_snippets.py [CC]     (CC defaults to $CC or cc)
"""
import os
import re
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


def check_fences(lines):
    """Return a list of problems with the README's ``` fences, and the C blocks as (line, text)."""
    problems, blocks = [], []
    open_at, lang, body = None, None, []
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
        elif m.group(1):
            problems.append("line %d: ```%s opens a block inside the block of line %d" % (no, m.group(1), open_at))
        else:
            if lang == "c":
                blocks.append((open_at, "".join(body)))
            open_at = None
    if open_at is not None:
        problems.append("line %d: the block opened here is never closed" % open_at)
    return problems, blocks


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


def main(argv):
    cc = argv[0] if argv else os.environ.get("CC", "cc")
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        lines = f.read().splitlines(keepends=True)
    problems, blocks = check_fences(lines)
    for p in problems:
        print("README.md fences: " + p)
    if not blocks:
        print("README.md has no ```c blocks")
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
    print("%d of %d README C blocks compile, link and run; fences %s" %
          (len(blocks) - failed, len(blocks), "ok" if not problems else "BROKEN"))
    return 1 if failed or problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
