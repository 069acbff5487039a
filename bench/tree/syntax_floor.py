#!/usr/bin/python3
"""The floor annotate is measured against on a real tree: `clang
-fsyntax-only -w` of each distinct command of a compile database, JOBS at
a time. Each command's compiler, `-c` and `-o FILE` are dropped, as is a
ccache in front of the compiler; flags Clang does not know (found by one
probe on the first command) are dropped too; EXTRA (e.g. mpicc's own -I
directories, which annotate finds itself) are added. One parse per
distinct command: a file built into several targets with the same flags
(LevelDB's util/testutil.cc, 31 commands but for -o) is parsed once, as
annotate plans it once. Exits 1, naming each, if Clang rejects any.

    syntax_floor.py DATABASE JOBS CLANG [EXTRA...]
"""
import json
import re
import shlex
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor


def args(c):
    a = (c.get("arguments") or shlex.split(c["command"]))[1:]
    if a and a[0].endswith("ccache"):  # a launcher in the command itself
        a = a[1:]
    out, skip = [], False
    for x in a:
        if skip:
            skip = False
        elif x == "-o":
            skip = True
        elif x != "-c":
            out.append(x)
    return out


def main():
    cmds = json.load(open(sys.argv[1]))
    jobs, clang, extra = int(sys.argv[2]), sys.argv[3], sys.argv[4:]
    probe = subprocess.run([clang, "-fsyntax-only", "-w"] + args(cmds[0]) + extra,
                           cwd=cmds[0]["directory"], capture_output=True, text=True)
    unknown = set(re.findall(r"unknown argument: '([^']*)'", probe.stderr))

    def run(c):
        a = [x for x in args(c) if x not in unknown] + extra
        return subprocess.run([clang, "-fsyntax-only", "-w"] + a, cwd=c["directory"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)

    seen, uniq = set(), []
    for c in cmds:
        k = (c["directory"], c["file"], tuple(args(c)))
        if k not in seen:
            seen.add(k)
            uniq.append(c)
    print(f"clang -fsyntax-only: {len(uniq)} distinct commands of {len(cmds)}", file=sys.stderr)
    with ThreadPoolExecutor(jobs) as ex:
        bad = [c["file"] + ": " + r.stderr[:300]
               for c, r in zip(uniq, ex.map(run, uniq)) if r.returncode]
    if bad:
        print("clang -fsyntax-only rejected:", *bad, sep="\n", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
