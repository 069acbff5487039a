#!/usr/bin/python3
"""README.md's demo output blocks have the shape the tools print today.

    readme_blocks_check.py SOURCE_DIR [README]

The blocks marked `<!-- demo:NAME -->` in README.md are copied from one run
of scripts/demo.sh by scripts/readme-blocks.py. Nothing here runs the demo:
each block is checked against the literals of the code that prints it
(dftracer-check's Summary.cpp, the diagnosis's DiagnoseOutput.cpp,
--compare's CompareOutput.cpp and Compare.cpp, dftracer-tune's Tune.cpp and
TuneOutput.cpp, and demo.sh's step titles), so a block left stale when the
output changed (a comparison without the "changed:" line it now prints
first, a tune table with other columns) fails, and the fix is to rerun
scripts/readme-blocks.py. Every failure is printed; exit 1 if any.
"""

import re
import sys

SRC = sys.argv[1] if len(sys.argv) > 1 else "."
README = sys.argv[2] if len(sys.argv) > 2 else SRC + "/README.md"
BLOCKS = ["summary", "findings", "compare", "tune", "ledger"]
failures = []


def fail(block, what):
    failures.append(f"demo:{block}: {what}")


def source(path):
    with open(f"{SRC}/{path}", encoding="utf-8") as f:
        return f.read()


def literal(block, path, text):
    """The code still prints TEXT: it is a literal in PATH."""
    if text not in source(path):
        fail(block, f"{path} no longer holds {text!r}: the output changed; "
                    "update the check and rerun scripts/readme-blocks.py")


def read_blocks():
    lines = open(README, encoding="utf-8").read().split("\n")
    blocks, i = {}, 0
    while i < len(lines):
        m = re.match(r"^<!-- demo:([a-z0-9_]+) -->$", lines[i])
        if m:
            if i + 1 >= len(lines) or not lines[i + 1].startswith("```"):
                fail(m.group(1), "the marker is not followed by a ``` fence")
            else:
                j = i + 2
                while j < len(lines) and lines[j] != "```":
                    j += 1
                blocks[m.group(1)] = lines[i + 2 : j]
                i = j
        i += 1
    return blocks


def need(block, lines, pattern, what):
    """Some line matches PATTERN; its index, or None (a failure)."""
    for n, line in enumerate(lines):
        if re.search(pattern, line):
            return n
    fail(block, f"no line {what} (/{pattern}/)")
    return None


def next_text(lines, n):
    """The first non-blank line after line n."""
    for line in lines[n + 1 :]:
        if line.strip():
            return line
    return ""


def check_summary(b):
    name = "summary"
    literal(name, "scripts/demo.sh", "trace summary (dftracer-check): functions and the I/O calls in them")
    literal(name, "scripts/demo.sh", "the I/O under the first call of $fn (rank 0)")
    if not b or not b[0].startswith("==> mpiio_shared: trace summary (dftracer-check): functions and the I/O calls in them"):
        fail(name, "does not start with the demo's step line for mpiio_shared's trace summary")
    literal(name, "analysis/check/Summary.cpp", '" file(s), " << Set.Events << " events, "')
    literal(name, "analysis/check/Summary.cpp", '<< " spans, " << S.Meta << " metadata')
    need(name, b, r"^    \d+ file\(s\), \d+ events, \d+ spans, \d+ metadata$", "'N file(s), N events, N spans, N metadata'")
    literal(name, "analysis/check/Summary.cpp", '"function", "calls", "total_us", "self_us"')
    need(name, b, r"^    function +calls +total_us +self_us$", "with the function table's header")
    literal(name, "analysis/check/Summary.cpp", '"layer",\n                "ops", "bytes_read", "bytes_written", "time_us"')
    need(name, b, r"^    layer +ops +bytes_read +bytes_written +time_us$", "with the layer table's header")
    need(name, b, r"^==> mpiio_shared: the I/O under the first call of write_phase \(rank 0\)$", "with the I/O tree's step line")


def check_findings(b):
    name = "findings"
    literal(name, "scripts/demo.sh", "Findings of the kernels' traces (the analysis's first section; docs/diagnosis.md)")
    if not b or b[0] != "==> Findings of the kernels' traces (the analysis's first section; docs/diagnosis.md)":
        fail(name, "does not start with the demo's findings step line")
    literal(name, "analysis/report/DiagnoseOutput.cpp", 'Os << "Findings (" << Fs.size() << ", by seconds recoverable; rules: "')
    if len(b) < 2 or not re.match(r"^    Findings \(\d+, by seconds recoverable; rules: \S+\)$", b[1]):
        fail(name, "its second line is not 'Findings (N, by seconds recoverable; rules: FILE)'")
    heads = [l for l in b if re.match(r"^    \d+\. [a-z0-9_]+: ", l)]
    if not heads:
        fail(name, "no finding's first line ('N. kind: ...')")
    # Each line of a finding's body starts with a key DiagnoseOutput.cpp prints.
    for line in b[2:]:
        m = re.match(r"^       ([a-z]+): ", line)
        if m:
            literal(name, "analysis/report/DiagnoseOutput.cpp", f'"   {m.group(1)}: ')
        elif not re.match(r"^    \d+\. [a-z0-9_]+: ", line) and line.strip() != "...":
            fail(name, f"a line the diagnosis does not print: {line!r}")


def check_compare(b):
    name = "compare"
    literal(name, "analysis/report/CompareOutput.cpp", 'std::string S = "Comparison: "')
    n = need(name, b, r"^    Comparison: \d+ baseline runs?, \d+ changed runs?; (comparable|NOT comparable)", "'Comparison: N baseline run(s), N changed run(s); comparable'")
    if n is not None:
        literal(name, "analysis/diagnose/Compare.cpp", 'std::string S = "changed: "')
        if not next_text(b, n).startswith("    changed: "):
            fail(name, "the line after the header is not 'changed: ...', the line --compare prints first")
    literal(name, "analysis/report/CompareOutput.cpp", '"\\nwhat changed (" << C.Changes.size() << "):\\n"')
    need(name, b, r"^    what changed \(\d+\):$", "'what changed (N):'")
    literal(name, "analysis/report/CompareOutput.cpp", 'Os << Indent << "verdict (" << R.Metric.Description')
    v = need(name, b, r"^    verdict \(.+, (s|MiB/s)\): (faster|slower|no detectable change|cannot decide)$", "'verdict (METRIC, UNIT): STATUS'")
    if v is not None:
        for k, key in enumerate(["baseline: ", "changed: ", "ratio of medians ", "why: "]):
            if v + 1 + k >= len(b) or not b[v + 1 + k].startswith("      " + key):
                fail(name, f"the verdict's line {k + 1} does not start with {key!r}")
        literal(name, "analysis/report/CompareOutput.cpp", '"  baseline: " << sideText')
        literal(name, "analysis/report/CompareOutput.cpp", '"  why: " << V.Why')
    literal(name, "analysis/report/CompareOutput.cpp", 'Os << "\\nfindings (" << C.Findings.size() << "):\\n"')
    f = need(name, b, r"^    findings \(\d+\):$", "'findings (N):'")
    literal(name, "analysis/report/CompareOutput.cpp", 'Os << ": " << F.Status << ", " << F.Run << " ("')
    for phrase in ["run faster", "run slower", "run no faster", "run: cannot decide"]:
        literal(name, "analysis/diagnose/Compare.cpp", f'"{phrase}"')
    if f is not None:
        for line in b[f + 1 :]:
            if not line.strip():
                break
            if not re.match(r"^      [a-z0-9_]+( \(.*\))?: (fixed|improved|unchanged|regressed|new), "
                            r"(run faster|run slower|run no faster|run: cannot decide) \(", line):
                fail(name, f"a finding's line is not 'KIND (FUNCTION): STATUS, RUN (...': {line!r}")
    literal(name, "analysis/report/CompareOutput.cpp", '": ops, bytes, seconds, MiB/s per call (before -> "')
    need(name, b, r"^    layer: ops, bytes, seconds, MiB/s per call \(before -> after, change\)$", "with the layer figures' header")


def check_tune(b):
    name = "tune"
    literal(name, "scripts/demo.sh", "Tuning: dftracer-tune run, vpic_writer")
    if not b or not b[0].startswith("==> Tuning: dftracer-tune run, vpic_writer"):
        fail(name, "does not start with the demo's tuning step line")
    need(name, b, r"^    \$ dftracer-tune run ", "'$ dftracer-tune run ...'")
    literal(name, "analysis/tune/Tune.cpp", 'Out << O.Name << ": " << O.Replicates << " rounds, "')
    r = need(name, b, r"^    \S+: \d+ rounds, .+ \((s|MiB/s)\)$", "'NAME: N rounds, METRIC (UNIT)'")
    # The table's header: the cells Tune.cpp pushes first, the metric's
    # name and unit in the third.
    tune = source("analysis/tune/Tune.cpp")
    m = re.search(r'Table\.push_back\(\{"candidate".*?\}\);', tune, re.S)
    if not m:
        fail(name, "analysis/tune/Tune.cpp no longer pushes the table's header "
                   "(Table.push_back({\"candidate\", ...})): update this check")
    elif r is not None:
        lits = re.findall(r'"((?:[^"\\]|\\.)*)"', m.group(0))
        # candidate, what changed, " (", ") median [min..max]", change, ...
        cells = re.split(r"  +", b[r + 1].strip()) if r + 1 < len(b) else []
        want = lits[:2] + ["METRIC" + lits[2] + "UNIT" + lits[3]] + lits[4:]
        got = cells[:2] + [re.sub(r"^\S+ \((s|MiB/s)\) ", "METRIC (UNIT) ", cells[2]) if len(cells) > 2 else ""] + cells[3:]
        if got != want:
            fail(name, f"the table's header is {cells}, Tune.cpp prints {want}")
        if r + 2 >= len(b) or not re.match(r"^    baseline +- +\d", b[r + 2]):
            fail(name, "the table's second row is not the baseline's")
    need(name, b, r"^    #\d+ ", "with a candidate's row ('#N ...')")
    literal(name, "analysis/tune/Tune.cpp", 'Whys.push_back(A.C.Label + ": " + T.Status + ": " + T.Why)')
    need(name, b, r"^    #\d+: (faster|slower|no detectable change|cannot decide|failed)", "'#N: VERDICT: why'")
    literal(name, "analysis/tune/Tune.cpp", 'Out << "runs: " << Work << "\\nledger: "')
    need(name, b, r"^    runs: ", "'runs: DIR'")
    need(name, b, r"^    ledger: ", "'ledger: FILE'")


def check_ledger(b):
    name = "ledger"
    literal(name, "scripts/demo.sh", "The trial in the ledger: dftracer-tune ledger --markdown")
    if not b or b[0] != "==> The trial in the ledger: dftracer-tune ledger --markdown":
        fail(name, "does not start with the demo's ledger step line")
    need(name, b, r"^    \$ dftracer-tune ledger --markdown", "'$ dftracer-tune ledger --markdown ...'")
    literal(name, "analysis/tune/TuneOutput.cpp", 'Out << "# Tuning ledger (" << L->path() << ")')
    need(name, b, r"^    # Tuning ledger \(.+\)$", "'# Tuning ledger (FILE)'")
    literal(name, "analysis/tune/TuneOutput.cpp", 'Os << "### #" << T.Id << " " << T.Date.substr(0, 10)')
    need(name, b, r"^    ### #\d+ \d{4}-\d\d-\d\d \S+: .+: (faster|slower|no detectable change|cannot decide|failed)$", "'### #N DATE APP: SETTING: STATUS'")
    # The entry's "- key:" lines, each printed by TuneOutput.cpp, in its order.
    out = source("analysis/tune/TuneOutput.cpp")
    last = -1
    keys = [re.match(r"^    - ([a-z ]+):", l).group(1) for l in b if re.match(r"^    - [a-z ]+:", l)]
    if not keys:
        fail(name, "no '- key: value' line of the markdown entry")
    for key in keys:
        at = out.find(f'"- {key}: ')
        if at < 0:
            fail(name, f"TuneOutput.cpp does not print '- {key}: '")
        elif at < last:
            fail(name, f"'- {key}:' is out of TuneOutput.cpp's order")
        else:
            last = at
    for key in ["workload", "file system", "setting", "verdict", "findings fixed", "note"]:
        if key not in keys:
            fail(name, f"the entry has no '- {key}:' line, which TuneOutput.cpp always prints")


blocks = read_blocks()
for name in BLOCKS:
    if name not in blocks:
        fail(name, f"README.md has no block marked <!-- demo:{name} -->")
    elif not any(l.strip() for l in blocks[name]):
        fail(name, "the block is empty: run scripts/readme-blocks.py")
    else:
        globals()["check_" + name](blocks[name])
for name in blocks:
    if name not in BLOCKS:
        fail(name, "a marker scripts/readme-blocks.py does not know")

for f in failures:
    print("FAIL " + f)
print(f"readme_blocks_check: {len(blocks)} blocks, {len(failures)} failure(s)")
sys.exit(1 if failures else 0)
