"""What the annotate_traces tests share: the tools (from the environment
ctest sets, python/tests/CMakeLists.txt), trace sets generated with known
totals, and a slow reference reader written with json.loads only."""

import fnmatch
import gzip
import json
import os
import shutil
import subprocess

import pandas as pd

GEN = os.environ["ANNOTATE_TRACES_GEN"]
ANALYZE = os.environ["ANNOTATE_TRACES_ANALYZE"]
CONVERT = os.environ["ANNOTATE_TRACES_CONVERT"]
WORK = os.environ["ANNOTATE_TRACES_WORK"]

IO_LAYERS = ("POSIX", "STDIO", "MPIIO", "HDF5")
CATEGORY_LAYER = {"C_APP": "APP", "CPP_APP": "APP", "PY_APP": "APP",
                  "POSIX": "POSIX", "STDIO": "STDIO", "MPIIO": "MPIIO",
                  "HDF5": "HDF5"}


def run(*args, **kw):
    return subprocess.run([str(a) for a in args], check=True,
                          capture_output=True, **kw)


def generate(name, *flags):
    """dftracer_trace_gen generate into WORK/name; returns (directory,
    the generator's expected totals)."""
    d = os.path.join(WORK, name)
    shutil.rmtree(d, ignore_errors=True)
    expected = d + ".expected.json"
    run(GEN, "generate", "--dir", d, *flags, "--expected", expected)
    with open(expected) as f:
        return d, json.load(f)


def compact_copy(src, name):
    """Each .pfw of src as .pfc (dftracer-convert --compact) in WORK/name."""
    d = os.path.join(WORK, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    for f in sorted(os.listdir(src)):
        base = f.split(".")[0]
        run(CONVERT, "--compact", "-o", os.path.join(d, base + ".pfc"),
            os.path.join(src, f))
    return d


def cli_json(*args):
    """dftracer-analyze --json ARGS: (its text, parsed)."""
    out = run(ANALYZE, "--json", *args).stdout.decode()
    return out, json.loads(out)


def reference_events(paths):
    """Every span of the .pfw/.pfw.gz files, read line by line with
    json.loads: the columns events() has, found the obvious way (parents
    by p_idx, the file by its FH line, the rank by CM)."""
    rows = []
    for path in paths:
        opener = gzip.open if path.endswith(".gz") else open
        spans, paths_by, ranks = [], {}, {}
        with opener(path, "rt") as f:
            for line in f:
                line = line.strip()
                if line in ("", "[", "]"):
                    continue
                e = json.loads(line)
                args = e.get("args", {})
                if e.get("ph") == "M":
                    if e["name"] == "FH":
                        paths_by[(e["pid"], args["value"])] = args["name"]
                    elif e["name"] in ("CM", "PR") and args["name"] == "rank":
                        ranks[e["pid"]] = int(args["value"])
                    continue
                if e.get("ph") != "X" or e.get("cat") == "dftracer":
                    continue
                spans.append(e)
        by_id = {(e["pid"], e["id"]): e for e in spans}

        def parent_of(e):
            p = e.get("args", {}).get("p_idx", 0)
            return by_id.get((e["pid"], p)) if p else None

        for e in spans:
            args = e.get("args", {})
            layer = CATEGORY_LAYER.get(e["cat"], "OTHER")
            parent, depth, fn, up = parent_of(e), 0, None, e
            while fn is None:
                p = up.get("args", {}).get("p_idx", 0)
                if CATEGORY_LAYER.get(up["cat"], "OTHER") not in IO_LAYERS:
                    fn = up["name"]
                elif not p:
                    fn = "(no function)"
                elif (up["pid"], p) not in by_id:
                    fn = "(unknown parent)"
                else:
                    up = by_id[(up["pid"], p)]
            up = parent
            while up is not None:
                depth += 1
                up = parent_of(up)
            fh = args.get("fhash")
            rows.append({
                "pid": e["pid"], "rank": ranks.get(e["pid"]), "tid": e["tid"],
                "layer": layer, "cat": e["cat"], "name": e["name"],
                "ts_us": e["ts"], "dur_us": e["dur"],
                "offset": args.get("offset"), "ret": args.get("ret"),
                "file": None if fh is None else paths_by.get(
                    (e["pid"], fh), f"fhash:{fh}"),
                "function": fn,
                "parent": parent["name"] if parent is not None else (
                    "(unknown parent)" if args.get("p_idx") else None),
                "depth": depth, "trace": path})
    return pd.DataFrame(rows)


def plain(frame, columns=None):
    """frame's columns as plain Python values (categoricals as their
    values, missing as None), index reset: frames read differently compare
    equal when their values are."""
    columns = list(frame.columns) if columns is None else columns
    out = {}
    for c in columns:
        s = frame[c]
        out[c] = [None if pd.isna(v) else (v.item() if hasattr(v, "item")
                                           else v)
                  for v in s.astype(object)]
    return out


def globbed(frame, pattern):
    names = [f for f in frame.file.cat.categories
             if fnmatch.fnmatch(f, pattern)]
    return frame.file.isin(names)
