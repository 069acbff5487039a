"""What the annotate_traces tests share: the tools (from the environment
ctest sets, python/tests/CMakeLists.txt), trace sets generated with known
totals, and a slow reference reader written with json.loads only."""

import fnmatch
import gzip
import json
import math
import os
import shutil
import subprocess

import pandas as pd

import annotate_traces as at

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


def flat(record, prefix=""):
    out = {}
    for k, v in record.items():
        if isinstance(v, dict):
            out.update(flat(v, prefix + k + "."))
        else:
            out[prefix + k] = v
    return out


class ReportChecks:
    """analyze() against dftracer-analyze --json, for unittest classes."""

    def assert_rows(self, table, records, name, extra=()):
        """Each row of table holds record i's every value under its dotted
        key (and the keys of extra, given per row)."""
        self.assertEqual(len(table), len(records), name)
        for i, rec in enumerate(records):
            want = flat(rec)
            row = table.iloc[i]
            for k, v in want.items():
                got = row[k]
                if isinstance(v, float) and math.isnan(v):
                    self.assertTrue(math.isnan(got), f"{name}[{i}].{k}")
                else:
                    self.assertEqual(got, v, f"{name}[{i}].{k}")
            for c in table.columns:
                if c not in want and c not in extra:
                    self.assertTrue(row[c] is None or (
                        isinstance(row[c], float) and math.isnan(row[c])),
                        f"{name}[{i}].{c} is not in the JSON")

    def assert_tables(self, a):
        j = a.json
        layers = j["layers"]
        self.assert_rows(a.layers, [
            {k: v for k, v in f.items()
             if k not in ("access", "operations", "mpiio")}
            for f in layers.values()], "layers", ("layer",))
        self.assertEqual(list(a.layers.layer), list(layers))
        ops = [(l, o, f) for l, lf in layers.items()
               for o, f in lf.get("operations", {}).items()]
        self.assert_rows(a.operations, [f for _, _, f in ops], "operations",
                         ("layer", "operation"))
        self.assertEqual(list(zip(a.operations.layer, a.operations.operation)),
                         [(l, o) for l, o, _ in ops])
        acc = [(l, lf["access"]) for l, lf in layers.items() if "access" in lf]
        self.assert_rows(a.access, [x for _, x in acc], "access", ("layer",))
        kinds = {k: v for k, v in layers.get("MPIIO", {}).get("mpiio",
                                                                {}).items()
                 if isinstance(v, dict)}
        self.assert_rows(a.mpiio, list(kinds.values()), "mpiio", ("kind",))
        sizes = j["sizes"]
        for r in a.sizes.itertuples():
            i = sizes["bins"].index(r.bin)
            self.assertEqual((r.read, r.write), (sizes[r.layer]["read"][i],
                                                 sizes[r.layer]["write"][i]))
        self.assertEqual(len(a.sizes), len(sizes["bins"]) * (len(sizes) - 1))
        files = j["files_all"] if "files_all" in j else j["files_top"]["by_time"]
        self.assert_rows(a.files, files, "files")
        self.assert_rows(a.files_by_bytes, j["files_top"]["by_bytes"],
                         "files_by_bytes")
        self.assert_rows(a.ranks, j["ranks"]["list"], "ranks")
        self.assert_rows(a.issues, j["issues"]["first"], "issues")
        for key in ("functions", "findings", "datasets", "throttled",
                    "untraced", "unknown_operations"):
            if key in j:
                self.assert_rows(getattr(a, key), j[key], key)
        # Every list of the report is a table.
        for key, v in j.items():
            if isinstance(v, list) and v and isinstance(v[0], dict):
                self.assertIn("files" if key == "files_all" else key, a.tables)

    def same_as_cli(self, paths, *flags, **kw):
        text, j = cli_json(*flags, *paths)
        a = at.analyze(paths, **kw)
        self.assertEqual(a.text, text)
        self.assertEqual(a.json, j)
        self.assert_tables(a)
        return a
