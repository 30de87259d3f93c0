#!/usr/bin/env python3
"""size_check.py - library files and functions a reader can hold.

Reads every library source (gpuamq.h, gpuclique.h, gpuprim.cuh and everything
under amq/, clique/ and prim/) and fails when

  a file       has more than 2000 lines;
  a function   has more than 80 lines (from the first line of its signature,
               template line included, to its closing brace), except at most
               three kernels (__global__) of fewer than 130 lines, each with a
               comment in its first lines or just above it that says why it is
               one function (the words "one function").

Functions are found by their braces, with comments, strings and preprocessor
lines left out: a brace at file or struct level whose header (the text since
the previous ';', '{' or '}') holds a parameter list and is not a struct,
class, union, enum, namespace or extern block.

  python3 tests/compile/size_check.py [ROOT] [--list]   exit 1 and list each finding;
                                                        --list prints every function over 60 lines
"""
import os
import re
import sys

LIBRARY = ["gpuamq.h", "gpuclique.h", "gpuprim.cuh"]
FOLDERS = ["amq", "clique", "prim"]
SUFFIXES = (".h", ".cuh", ".cu", ".c")
MAX_FILE, MAX_FUNCTION, MAX_KERNEL, KERNELS = 2000, 80, 130, 3
BLOCKS = re.compile(r"\b(struct|class|union|enum|namespace)\b|extern\s*$")


def first_branches(text):
    """The text with the lines of every #else / #elif branch blanked, so that a
    signature written twice under #if / #else opens one body."""
    depth_dropped, kept = [], []
    for line in text.split("\n"):
        d = line.strip()
        if re.match(r"#\s*if", d):
            depth_dropped.append(False)
        elif re.match(r"#\s*(else|elif)", d) and depth_dropped:
            depth_dropped[-1] = True
        elif re.match(r"#\s*endif", d) and depth_dropped:
            depth_dropped.pop()
            kept.append("")
            continue
        kept.append("" if any(depth_dropped) else line)
    return "\n".join(kept)


def blank_out(text):
    """The text with comments, string and char literals, preprocessor lines and
    the #else branches replaced by spaces (newlines kept, so that offsets keep
    their lines)."""
    text = first_branches(text)
    out, i, n = list(text), 0, len(text)
    at_line_start = True
    while i < n:
        c = text[i]
        if c == "\n":
            at_line_start = True
            i += 1
            continue
        if at_line_start and c == "#":  # a preprocessor line, with its continuations
            j = i
            while j < n and (text[j] != "\n" or text[j - 1] == "\\"):
                j += 1
            for k in range(i, j):
                if out[k] != "\n":
                    out[k] = " "
            i = j
            continue
        if not c.isspace():
            at_line_start = False
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j += 1
        else:
            i += 1
            continue
        for k in range(i, min(j, n)):
            if out[k] != "\n":
                out[k] = " "
        i = j
    return "".join(out)


def functions(text):
    """Yield (first line, last line, header) of every function body at file or
    struct level."""
    code = blank_out(text)
    line_of = [0] * (len(code) + 1)
    line = 1
    for k, ch in enumerate(code):
        line_of[k] = line
        if ch == "\n":
            line += 1
    stack = []  # per open brace: "type" (struct-like: functions may sit inside) or "body"
    head_start = 0
    for k, ch in enumerate(code):
        if ch in ";{}":
            if ch == "{":
                head = code[head_start:k].strip()
                inside_type = all(kind == "type" for kind in stack)
                if BLOCKS.search(head.split("(")[0]) or not head:
                    stack.append("type" if inside_type else "body")
                elif inside_type and "(" in head and not re.match(r"(if|for|while|switch|do|else)\b", head):
                    first = head_start + (len(code[head_start:k]) - len(code[head_start:k].lstrip()))
                    stack.append(("fn", line_of[first], head))
                else:
                    stack.append("body")
            elif ch == "}" and stack:
                top = stack.pop()
                if isinstance(top, tuple):
                    yield top[1], line_of[k], top[2]
            head_start = k + 1


def main(argv):
    root = next((a for a in argv[1:] if not a.startswith("--")), os.path.join(os.path.dirname(__file__), "..", ".."))
    paths = [os.path.join(root, f) for f in LIBRARY]
    for folder in FOLDERS:
        for d, _, files in os.walk(os.path.join(root, folder)):
            paths += [os.path.join(d, f) for f in sorted(files) if f.endswith(SUFFIXES)]
    findings, kernels = [], []
    for path in sorted(paths):
        text = open(path, encoding="utf-8").read()
        rel = os.path.relpath(path, root)
        lines = text.split("\n")
        if len(lines) > MAX_FILE:
            findings.append(f"{rel}: {len(lines)} lines (at most {MAX_FILE})")
        for first, last, head in functions(text):
            n = last - first + 1
            bare = re.sub(r"__launch_bounds__\s*\((?:[^()]|\([^()]*\))*\)", "", head)
            name = (re.findall(r"(\w+)\s*\(", bare) or ["?"])[0]
            if "--list" in argv and n > 60:
                print(f"{rel}:{first}: {name} {n} lines")
            if n <= MAX_FUNCTION:
                continue
            around = "\n".join(lines[max(0, first - 12):first + 8])
            if "__global__" in head and n < MAX_KERNEL and re.search(r"one\s+function", around, re.I):
                kernels.append(f"{rel}:{first}: {name} ({n} lines)")
            else:
                findings.append(f"{rel}:{first}: {name} has {n} lines (at most {MAX_FUNCTION}; a kernel of fewer "
                                f"than {MAX_KERNEL} may be one of {KERNELS} with a comment saying why it is one function)")
    if len(kernels) > KERNELS:
        findings += [f"{k}: more than {KERNELS} kernels over {MAX_FUNCTION} lines" for k in kernels]
    for f in findings:
        print(f)
    if findings:
        return 1
    print(f"library sizes: files at most {MAX_FILE} lines, functions at most {MAX_FUNCTION}; "
          f"{len(kernels)} kernel(s) over {MAX_FUNCTION}: " + ("; ".join(kernels) or "none"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
