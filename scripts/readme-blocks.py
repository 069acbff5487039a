#!/usr/bin/python3
"""Regenerate README.md's demo output blocks from ONE run of scripts/demo.sh.

    scripts/readme-blocks.py                # run the demo, save its log, rewrite README.md
    scripts/readme-blocks.py --log FILE     # cut the blocks from a saved demo log instead
    scripts/readme-blocks.py --check        # say which blocks would change, write nothing

Every block that shows the demo's output is marked in README.md by an HTML
comment on the line before its opening fence, `<!-- demo:NAME -->`. All of
them are cut from the same log, so the findings, the comparison and the
tuning trial the README shows come from one run and cannot contradict each
other (issue 36). The demo's log is kept in build/demo/demo.log (or the
--log file). README.md is rewritten atomically (a temporary file in its
folder, then rename); nothing is written when no block changed.

How each block is cut ("trimmed" in the README; a cut is one `...` line):
  summary   the mpiio_shared steps "trace summary" and "the I/O under the
            first call of write_phase": `not traced:` lines, the function
            table past its first 8 rows and the per-process table are cut
  findings  the step "Findings of the kernels' traces": every finding's
            first line; independent_mpiio's finding whole, at most 3 lines
            of each kind (site:, file:, advice:, ...)
  compare   the step "Comparison": "what changed" past its first 6 rows,
            the operation and function tables, the file table past its
            first row are cut
  tune      the step "Tuning: dftracer-tune run", whole
  ledger    the step "The trial in the ledger", whole
Paths under the clone are written relative to it; trailing blanks dropped.
The shape of the blocks is checked by test/docs/readme_blocks_check.py
(ctest -L docs).
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MARK = re.compile(r"^<!-- demo:([a-z_]+) -->$")
CUT = "..."


def sections(log):
    """The demo's steps: {title: [lines]}, each list starting with its "==> " line."""
    out, cur = {}, None
    for line in log.splitlines():
        if line.startswith("==> "):
            cur = [line]
            out[line[4:]] = cur
        elif cur is not None:
            cur.append(line)
    return out


def find(secs, prefix):
    for title, lines in secs.items():
        if title.startswith(prefix):
            return list(lines)
    sys.exit(f"readme-blocks: the demo's log has no step starting {prefix!r}")


def paragraphs(lines):
    """Split at blank lines (the demo indents them to 4 blanks)."""
    paras, cur = [], []
    for line in lines:
        if line.strip():
            cur.append(line)
        else:
            paras.append(cur)
            cur = []
    paras.append(cur)
    return paras


def indent_of(line):
    return line[: len(line) - len(line.lstrip())]


def join(paras):
    """Paragraphs back into lines, a blank line between them; a dropped one
    (None) is a "..." line at the end of the one before it."""
    kept = []
    for p in paras:
        if p is None:
            if not kept:
                kept.append(["    " + CUT])
            elif kept[-1][-1].strip() != CUT:
                kept[-1] = kept[-1] + [indent_of(kept[-1][-1]) + CUT]
        else:
            kept.append(p)
    out = []
    for p in kept:
        if out:
            out.append("")
        out.extend(p)
    return out


def head(p, n):
    """The first n lines of a paragraph, then "..." when there were more."""
    if len(p) <= n:
        return p
    return p[:n] + [indent_of(p[-1]) + CUT]


def cut_summary(secs):
    out = []
    summary = find(secs, "mpiio_shared: trace summary")
    out.append(summary[0])
    paras = paragraphs(summary[1:])
    kept = []
    for p in paras:
        if not p:
            continue
        if any(line.lstrip().startswith("not traced:") for line in p):
            rest = [l for l in p if not l.lstrip().startswith("not traced:")]
            kept.append(["    " + CUT] + rest)
        elif p[0].lstrip().startswith("function "):
            kept.append(head(p, 1 + 8))
        elif p[0].lstrip().startswith("layer "):
            kept.append(p)
        else:  # the per-process table, "trace is valid"
            kept.append(None)
    out += join(kept)
    tree = find(secs, "mpiio_shared: the I/O under the first call")
    out.append("")
    out += [l for l in tree if l.strip()]
    return out


def cut_findings(secs):
    lines = [l for l in find(secs, "Findings of the kernels' traces") if l.strip()]
    out = lines[:2]  # the step, "Findings (N, ...)"
    finding = re.compile(r"^    \d+\. ")
    whole = False
    seen = {}
    for line in lines[2:]:
        if finding.match(line):
            whole = re.match(r"^    \d+\. independent_mpiio:", line) is not None
            seen = {}
            out.append(line)
            continue
        if not whole:
            if out[-1].strip() != CUT:
                out.append("    " + CUT)
            continue
        kind = line.split(":", 1)[0].strip()
        seen[kind] = seen.get(kind, 0) + 1
        if seen[kind] <= 3:
            out.append(line)
        elif seen[kind] == 4:
            out.append(indent_of(line) + CUT)
    return out


def cut_compare(secs):
    lines = find(secs, "Comparison: dftracer-analyze --compare")
    paras = paragraphs(lines)
    kept = []
    for p in paras:
        if not p:
            continue
        first = p[0].lstrip()
        if first.startswith("what changed ("):
            kept.append(head(p, 1 + 6))
        elif first.startswith(("operation:", "function:")):
            kept.append(None)
        elif first.startswith("file:"):
            kept.append(head(p, 1 + 1))
        else:
            kept.append(p)
    return join(kept)


def whole(prefix):
    return lambda secs: [l for l in find(secs, prefix)]


CUTTERS = {
    "summary": cut_summary,
    "findings": cut_findings,
    "compare": cut_compare,
    "tune": whole("Tuning: dftracer-tune run"),
    "ledger": whole("The trial in the ledger"),
}


def tidy(lines, root):
    out = [l.replace(root + "/", "").rstrip() for l in lines]
    while out and not out[-1]:
        out.pop()
    return out


def rewrite(readme, blocks):
    """README's text with each marked block's fence content replaced."""
    src = readme.split("\n")
    out, i, done = [], 0, set()
    while i < len(src):
        line = src[i]
        out.append(line)
        m = MARK.match(line)
        if not m:
            i += 1
            continue
        name = m.group(1)
        if name not in blocks:
            sys.exit(f"readme-blocks: README.md marks an unknown block demo:{name}")
        if i + 1 >= len(src) or not src[i + 1].startswith("```"):
            sys.exit(f"readme-blocks: demo:{name} is not followed by a ``` fence")
        out.append(src[i + 1])
        j = i + 2
        while j < len(src) and src[j] != "```":
            j += 1
        if j == len(src):
            sys.exit(f"readme-blocks: demo:{name}'s fence is not closed")
        out += blocks[name]
        out.append("```")
        done.add(name)
        i = j + 1
    missing = set(blocks) - done
    if missing:
        sys.exit("readme-blocks: README.md has no marker for " +
                 ", ".join(f"demo:{n}" for n in sorted(missing)))
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--log", help="a saved log of scripts/demo.sh (default: run it)")
    ap.add_argument("--check", action="store_true", help="write nothing; exit 1 if a block would change")
    ap.add_argument("--readme", default=os.path.join(ROOT, "README.md"))
    args = ap.parse_args()

    if args.log:
        with open(args.log, encoding="utf-8") as f:
            log = f.read()
    else:
        build = os.environ.get("BUILD_DIR", os.path.join(ROOT, "build"))
        print(f"readme-blocks: running scripts/demo.sh (BUILD_DIR={build})", file=sys.stderr)
        run = subprocess.run([os.path.join(ROOT, "scripts", "demo.sh")],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             text=True)
        log = run.stdout
        os.makedirs(os.path.join(build, "demo"), exist_ok=True)
        path = os.path.join(build, "demo", "demo.log")
        with open(path, "w", encoding="utf-8") as f:
            f.write(log)
        if run.returncode != 0:
            sys.exit(f"readme-blocks: the demo failed (exit {run.returncode}); its log: {path}")
        print(f"readme-blocks: the demo's log: {path}", file=sys.stderr)

    secs = sections(log)
    blocks = {name: tidy(cut(secs), ROOT) for name, cut in CUTTERS.items()}
    with open(args.readme, encoding="utf-8") as f:
        before = f.read()
    after = rewrite(before, blocks)
    if after == before:
        print("readme-blocks: README.md is up to date", file=sys.stderr)
        return 0
    if args.check:
        print("readme-blocks: README.md's demo blocks differ from this log", file=sys.stderr)
        return 1
    folder = os.path.dirname(os.path.abspath(args.readme))
    fd, tmp = tempfile.mkstemp(prefix=".README.", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(after)
        os.chmod(tmp, os.stat(args.readme).st_mode & 0o777)
        os.replace(tmp, args.readme)
    except BaseException:
        os.unlink(tmp)
        raise
    print(f"readme-blocks: rewrote {len(blocks)} blocks of {args.readme}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
