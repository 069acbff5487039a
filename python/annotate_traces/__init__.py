"""DFTracer traces and dftracer-analyze's report as pandas DataFrames.

The C++ reader and analysis of annotate's `dftracer-check` and
`dftracer-analyze` (analysis/), bound with pybind11 (docs/python.md):

    import annotate_traces as at
    df = at.events("traces/", ranks=[1], layers=["POSIX"])   # one row a span
    a = at.analyze("traces/")            # the report: a.layers, a.findings
    a.to_html("report.html")

Named annotate_traces so as not to clash with upstream DFTracer's
`dftracer` package.
"""

import errno
import glob
import json
import os

import numpy as np
import pandas as pd

from . import _core

__all__ = ["events", "analyze", "compare", "Analysis", "Comparison",
           "TraceError", "LAYERS", "OPERATIONS"]

#: The layers a span is counted in (docs/analysis.md), in their order.
LAYERS = list(_core.layer_names())
#: The operations of I/O spans (docs/analysis.md, the operation taxonomy).
OPERATIONS = list(_core.op_names())

# Problems that make a trace damaged: events() raises on them unless
# errors="skip" (the others, such as unknown_category, are only listed).
DAMAGED = ("truncated_line", "invalid_line", "bad_field", "negative_time",
           "bad_stream")

_RULES = os.path.join(os.path.dirname(__file__),
                      "dftracer-analyze-diagnosis.json")


class TraceError(ValueError):
    """A damaged or unreadable trace: `path`, `line` (0: the whole file),
    `kind` (dftracer-analyze's issue name) and `message`."""

    def __init__(self, path, line, kind, message):
        self.path, self.line, self.kind, self.message = path, line, kind, message
        where = f"{path}:{line}" if line else path
        super().__init__(f"{where}: {kind}: {message}")


def _list(value, kind=str):
    if value is None:
        return None
    if isinstance(value, (str, bytes, os.PathLike)) or not hasattr(
            value, "__iter__"):
        value = [value]
    return [kind(v) for v in value]


def trace_files(paths):
    """The trace files `paths` name: files as given, directories expanded
    to the .pfw, .pfw.gz and .pfc files in them (as dftracer-analyze
    does), glob patterns matched. FileNotFoundError when one names
    nothing."""
    args = []
    for p in _list(paths, os.fspath):
        if glob.has_magic(p):
            matched = sorted(glob.glob(p))
            if not matched:
                raise FileNotFoundError(errno.ENOENT,
                                        "no file matches the pattern", p)
            args.extend(matched)
        elif not os.path.exists(p):
            raise FileNotFoundError(errno.ENOENT,
                                    "no such trace file or directory", p)
        else:
            args.append(p)
    if not args:
        raise FileNotFoundError(errno.ENOENT, "no trace given")
    files, problems = _core.expand(args)
    if problems:
        raise FileNotFoundError(errno.ENOENT, problems[0])
    return files


def _categorical(codes, values):
    return pd.Categorical.from_codes(codes, categories=pd.Index(values,
                                                                dtype=object))


def _optional(values, missing):
    return pd.arrays.IntegerArray(values, missing)


def _microseconds(seconds):
    return None if seconds is None else int(round(float(seconds) * 1e6))


def events(paths, ranks=None, layers=None, names=None, t0=None, t1=None,
           files=None, jobs=0, errors="raise", time_unit=None):
    """Every span of the traces as a DataFrame, one row a span.

    paths: a trace (.pfw, .pfw.gz, .pfc, upstream's shapes), a directory of
    them or a glob pattern, or a list of these. Filters, applied while the
    files are read: ranks (CM "rank" values), layers ("APP", "POSIX",
    "STDIO", "MPIIO", "HDF5", "OTHER"), names (span names), t0/t1 (seconds
    on the `start` clock: spans overlapping [t0, t1]), files (fnmatch globs
    on the `file` column). jobs: files read in parallel (0: every core).
    errors: "raise" (TraceError on the first damaged line) or "skip" (as
    dftracer-analyze: skipped, listed in df.attrs["problems"]).
    time_unit: the unit of traces that do not record theirs (default us).
    Columns are described in docs/python.md."""
    if errors not in ("raise", "skip"):
        raise ValueError("errors must be 'raise' or 'skip'")
    traces = trace_files(paths)
    c = _core.read_events(
        traces, _list(ranks, int), _list(layers, lambda l: str(l).upper()),
        _list(names),
        _microseconds(t0), _microseconds(t1), _list(files), int(jobs),
        time_unit)
    problems = [dict(zip(("trace", "line", "kind", "message"), p))
                for p in c["problems"]]
    if errors == "raise":
        for p in problems:
            if p["kind"] in DAMAGED:
                raise TraceError(p["trace"], p["line"], p["kind"],
                                 p["message"])
    frame = pd.DataFrame({
        "pid": c["pid"],
        "rank": _optional(*c["rank"]),
        "tid": c["tid"],
        "layer": _categorical(c["layer"], LAYERS),
        "cat": _categorical(*c["cat"]),
        "name": _categorical(*c["name"]),
        "op": _categorical(c["op"], OPERATIONS),
        "start": c["start"],
        "dur": c["dur"],
        "ts_us": c["ts_us"],
        "dur_us": c["dur_us"],
        "bytes": c["bytes"],
        "offset": _optional(*c["offset"]),
        "ret": _optional(*c["ret"]),
        "file": _categorical(*c["file"]),
        "function": _categorical(*c["function"]),
        "parent": _categorical(*c["parent"]),
        "depth": c["depth"],
        "trace": _categorical(*c["trace"]),
    }, copy=False)
    frame.attrs["problems"] = problems
    frame.attrs["problem_count"] = c["problem_count"]
    frame.attrs["text_bytes"] = c["text_bytes"]
    return frame


def _flat(record, prefix="", out=None, skip=()):
    """A JSON object as one row: nested objects as "a.b" columns, lists kept
    as they are."""
    out = {} if out is None else out
    for key, value in record.items():
        if key in skip and not prefix:
            continue
        if isinstance(value, dict):
            _flat(value, prefix + key + ".", out)
        else:
            out[prefix + key] = value
    return out


def _frame(rows):
    rows = list(rows)
    if rows and not isinstance(rows[0], dict):
        return pd.DataFrame({"value": rows})
    return pd.DataFrame([_flat(r) for r in rows])


def _report_tables(j):
    """The report's tables (docs/analysis.md's JSON schema), each a
    DataFrame whose cells are the JSON's values."""
    t = {}
    layers = j.get("layers", {})
    t["layers"] = pd.DataFrame(
        [{"layer": name, **_flat(fig, skip=("access", "operations", "mpiio"))}
         for name, fig in layers.items()])
    t["operations"] = _frame(
        {"layer": name, "operation": op, **fig}
        for name, lf in layers.items()
        for op, fig in lf.get("operations", {}).items())
    t["access"] = _frame({"layer": name, **lf["access"]}
                         for name, lf in layers.items() if "access" in lf)
    mpiio = {}
    for name, lf in layers.items():
        mpiio.update(lf.get("mpiio", {}))
    t["mpiio"] = _frame({"kind": kind, **fig} for kind, fig in mpiio.items()
                        if isinstance(fig, dict))
    sizes = j.get("sizes", {})
    bins = sizes.get("bins", [])
    t["sizes"] = _frame(
        {"layer": name, "bin": b, "read": rw["read"][i],
         "write": rw["write"][i]}
        for name, rw in sizes.items() if isinstance(rw, dict)
        for i, b in enumerate(bins))
    top = j.get("files_top", {})
    t["files"] = _frame(j["files_all"] if "files_all" in j
                        else top.get("by_time", []))
    t["files_by_bytes"] = _frame(top.get("by_bytes", []))
    t["ranks"] = _frame(j.get("ranks", {}).get("list", []))
    t["issues"] = _frame(j.get("issues", {}).get("first", []))
    # Every other list (functions, datasets, findings, caveats, records of
    # the runtime, and sections added later) under its own key; lists one
    # level down as "key.sub".
    for key, value in j.items():
        if key in t or key in ("files_all",):
            continue
        if isinstance(value, list):
            t[key] = _frame(value)
        elif isinstance(value, dict):
            for sub, v in value.items():
                if isinstance(v, list) and v and isinstance(v[0], dict) \
                        and f"{key}.{sub}" not in t and key not in (
                            "files_top", "ranks", "issues"):
                    t[f"{key}.{sub}"] = _frame(v)
    return t


class _Tables:
    def __getattr__(self, name):
        tables = self.__dict__.get("tables", {})
        if name in tables:
            return tables[name]
        raise AttributeError(name)

    def __dir__(self):
        return list(super().__dir__()) + list(self.tables)


class Analysis(_Tables):
    """dftracer-analyze's report of one run.

    json: the report as `dftracer-analyze --json` prints it (a dict);
    tables: name -> DataFrame (also as attributes: a.layers, a.operations,
    a.files, a.ranks, a.functions, a.access, a.mpiio, a.sizes, a.datasets,
    a.findings, a.issues, ...); to_html(path): the `--html` page."""

    def __init__(self, core):
        self._core = core
        self.text = core.json_text().decode()
        self.json = json.loads(self.text)
        self.tables = _report_tables(self.json)

    def to_html(self, path):
        data = self._core.html_text()
        tmp = os.fspath(path) + ".tmp"
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, path)

    def __repr__(self):
        return (f"<annotate_traces.Analysis: {self.json.get('files')} files, "
                f"{self.json.get('events')} events; tables "
                f"{', '.join(self.tables)}>")


def analyze(paths, jobs=0, diagnose=True, top=10, all_files=False, rules=None,
            time_unit=None):
    """The analysis of `dftracer-analyze --json` (with --no-diagnose when
    diagnose is False, --top, --all-files, --diagnosis-rules,
    --time-unit), in this process. Returns an Analysis."""
    traces = trace_files(paths)
    core = _core.Analysis(traces, int(jobs), bool(diagnose),
                          os.fspath(rules) if rules else _RULES, int(top),
                          bool(all_files), time_unit)
    if core.unreadable():
        raise TraceError(", ".join(traces), 0, "bad_stream",
                         f"{core.unreadable()} trace(s) could not be read")
    return Analysis(core)


class Comparison(_Tables):
    """`dftracer-analyze --compare`: json (its "compare" object under
    "compare", as the CLI prints it), comparable, tables (rows, findings,
    ...), to_html(path)."""

    def __init__(self, json_bytes, html, comparable):
        self.text = json_bytes.decode()
        self.json = json.loads(self.text)
        self._html = html
        self.comparable = comparable
        c = self.json.get("compare", {})
        self.tables = {k: _frame(v) for k, v in c.items()
                       if isinstance(v, list)}

    def to_html(self, path):
        tmp = os.fspath(path) + ".tmp"
        with open(tmp, "wb") as f:
            f.write(self._html)
        os.replace(tmp, path)


def compare(base, changed, jobs=0, diagnose=True, replicates=False,
            force=False, rules=None, time_unit=None):
    """`dftracer-analyze --compare BASE... CHANGED...`: base is one run or a
    list of runs (replicates; a run is a directory or file); changed is one
    run given as one or more paths, or with replicates=True a list of
    runs. Raises ValueError when the runs are not comparable, unless
    force."""
    base_runs = [[p] for p in _list(base, os.fspath)]
    changed_paths = _list(changed, os.fspath)
    changed_runs = ([[p] for p in changed_paths] if replicates
                    else [changed_paths])
    for run in base_runs + changed_runs:
        trace_files(run)  # a missing path is an error here, not a caveat
    js, html, comparable, unreadable = _core.compare(
        base_runs, changed_runs, int(jobs), bool(diagnose),
        os.fspath(rules) if rules else _RULES, bool(force), time_unit)
    if unreadable:
        raise TraceError(" ".join(map(" ".join, base_runs + changed_runs)),
                         0, "bad_stream", "a run has no readable trace")
    result = Comparison(js, html, comparable)
    if not comparable and not force:
        raise ValueError("the runs are not comparable (see "
                         "compare['differs']); force=True compares anyway: "
                         + "; ".join(map(str, result.json.get(
                             "compare", {}).get("differs", []))))
    return result
