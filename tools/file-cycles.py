#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""file-cycles.py DIR [-v]: the cycles among the C files of DIR.

A file -> file graph: file A points at file B when A names a non-static
function or table (an smq_* identifier) that B defines.  Prints each cycle
(strongly connected component of more than one file), largest last; with
-v also what each file of the largest one uses of the others.  A rough
measure of layering (Documentation/layout.md quotes it for block/): it
reads text, not the preprocessor, and it does not see calls through ops
tables, which is the point of those tables.
"""
import glob
import os
import re
import sys


def graph(d):
    files = sorted(glob.glob(os.path.join(d, "*.c")))
    defs, src = {}, {}
    for f in files:
        with open(f, encoding="utf-8") as fh:
            s = re.sub(r"/\*.*?\*/", "", fh.read(), flags=re.S)
        src[f] = s
        for m in re.finditer(r"^(?!static)[a-z][^\n;=]*?\b(smq_\w+)\(", s, re.M):
            defs.setdefault(m.group(1), f)
        for m in re.finditer(r"^(?:const )?struct \w+ (smq_\w+)\s*=", s, re.M):
            defs.setdefault(m.group(1), f)
    uses = {f: {} for f in files}
    for f in files:
        for w in set(re.findall(r"\bsmq_\w+\b", src[f])):
            t = defs.get(w)
            if t and t != f:
                uses[f].setdefault(t, []).append(w)
    return files, uses


def cycles(files, uses):
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in uses[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            out.append(comp)

    sys.setrecursionlimit(10000)
    for v in files:
        if v not in index:
            visit(v)
    return sorted((c for c in out if len(c) > 1), key=len)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    files, uses = graph(sys.argv[1])
    found = cycles(files, uses)
    if not found:
        print("no cycle")
    for c in found:
        print("cycle of %d: %s" % (len(c), " ".join(sorted(os.path.basename(f) for f in c))))
    if found and "-v" in sys.argv[2:]:
        big = set(found[-1])
        for f in sorted(big):
            used = ["%s (%s)" % (os.path.basename(t), ", ".join(sorted(set(w))[:4]))
                    for t, w in sorted(uses[f].items()) if t in big]
            print("  %s -> %s" % (os.path.basename(f), "; ".join(used)))


if __name__ == "__main__":
    main()
