#!/usr/bin/env python3
"""Compile every ```c block of README.md (json.h's habit: the docs must build).

A block that defines an *_IMPLEMENTATION macro is a whole file and is compiled
as it stands; any other block is a statement list, compiled inside main() with
both public headers and <stdio.h> included. Both with a C99 compiler and
-Wall -Wextra -Werror -pedantic (syntax only, nothing is linked or run).

  python3 tests/compile/readme_snippets.py [CC]     (CC defaults to $CC or cc)
"""
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main(argv):
    cc = argv[0] if argv else os.environ.get("CC", "cc")
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        blocks = re.findall(r"^```c\n(.*?)^```", f.read(), re.M | re.S)
    if not blocks:
        print("README.md has no ```c blocks")
        return 1
    failed = 0
    for i, code in enumerate(blocks, 1):
        if "_IMPLEMENTATION" in code:
            text = code
        else:
            text = ('#include <stdio.h>\n#include "gpuamq.h"\n#include "gpuclique.h"\n'
                    "int main(void) {\n%s  return 0;\n}\n" % code)
        with tempfile.NamedTemporaryFile("w", suffix=".c", delete=False) as f:
            f.write(text)
            path = f.name
        cmd = [cc, "-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic", "-fsyntax-only", "-I", ROOT, path]
        r = subprocess.run(cmd, capture_output=True, text=True)
        os.unlink(path)
        status = "ok" if r.returncode == 0 else "FAILED"
        print("README block %d: %s" % (i, status))
        if r.returncode != 0:
            print(r.stderr)
            failed += 1
    print("%d of %d README C blocks compile" % (len(blocks) - failed, len(blocks)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
