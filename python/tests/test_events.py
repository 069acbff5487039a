"""annotate_traces.events(): every column against a json.loads reading of
the same .pfw, the .pfw.gz and .pfc of the same trees, the generator's
known totals (this runtime's shape and upstream's), the filters against
pandas' own filtering, and errors as Python exceptions."""

import gzip
import os
import shutil
import unittest

import pandas as pd

import annotate_traces as at
from common import (IO_LAYERS, WORK, compact_copy, generate, globbed, plain,
                    reference_events)

COLUMNS = ["pid", "rank", "tid", "layer", "cat", "name", "ts_us", "dur_us",
           "offset", "ret", "file", "function", "parent", "depth"]


def top_level_io(df):
    """I/O calls not inside another I/O call (the analyzer's "I/O, once")."""
    io_names = set(df[df.layer.isin(IO_LAYERS)].name.astype(str))
    return df[df.layer.isin(IO_LAYERS) &
              ~df.parent.astype(object).isin(io_names)]


class Events(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        os.makedirs(WORK, exist_ok=True)
        cls.dir, cls.expected = generate("runtime", "--files", "3",
                                         "--spans", "400", "--threads", "2",
                                         "--seed", "7")
        cls.files = sorted(os.path.join(cls.dir, f)
                           for f in os.listdir(cls.dir))
        cls.df = at.events(cls.dir, jobs=2)

    def assert_known_totals(self, df, expected):
        """The generator's totals (its own tree, none of the analyzer's
        code): spans, per layer ops, time and bytes, per operation, per
        function calls, time and direct I/O calls."""
        self.assertEqual(len(df), expected["spans"])  # tracer spans apart
        for layer, want in expected["layers"].items():
            rows = df[df.layer == layer]
            self.assertEqual(len(rows), want["ops"], layer)
            self.assertEqual(int(rows.dur_us.sum()), want["time_us"], layer)
            self.assertEqual(int(rows[rows.op == "read"].bytes.sum()),
                             want["bytes_read"], layer)
            self.assertEqual(int(rows[rows.op == "write"].bytes.sum()),
                             want["bytes_written"], layer)
            for op, fig in want.get("operations", {}).items():
                r = rows[rows.op == op]
                self.assertEqual((len(r), int(r.dur_us.sum()),
                                  int(r.bytes.sum())),
                                 (fig["ops"], fig["time_us"], fig["bytes"]),
                                 f"{layer} {op}")
        io = top_level_io(df)
        self.assertEqual(len(io), expected["io"]["ops"])
        self.assertEqual(int(io.dur_us.sum()), expected["io"]["time_us"])
        app = df[~df.layer.isin(IO_LAYERS)]  # functions: APP and OTHER
        for fn in expected["functions"]:
            calls = app[app.name == fn["name"]]
            self.assertEqual(len(calls), fn["calls"], fn["name"])
            self.assertEqual(int(calls.dur_us.sum()), fn["time_us"], fn["name"])
            direct = io[io.function == fn["name"]]
            self.assertEqual(len(direct), fn["io_ops"], fn["name"])
            self.assertEqual(int(direct.dur_us.sum()), fn["io_time_us"],
                             fn["name"])

    def test_every_column_as_json_loads_reads_it(self):
        ref = reference_events(self.files)
        self.assertGreater(len(ref), 1000)
        self.assertEqual(plain(self.df, COLUMNS), plain(ref, COLUMNS))
        self.assertEqual(list(self.df.trace.astype(str)), list(ref.trace))
        self.assertTrue((self.df.start == self.df.ts_us / 1e6).all())
        self.assertTrue((self.df.dur == self.df.dur_us / 1e6).all())

    def test_known_totals(self):
        self.assert_known_totals(self.df, self.expected)

    def test_same_for_any_jobs(self):
        one = at.events(self.files, jobs=1)
        self.assertEqual(plain(one), plain(self.df))

    def test_compact_reads_as_pfw(self):
        pfc = at.events(compact_copy(self.dir, "runtime_pfc"))
        self.assertTrue(all(t.endswith(".pfc")
                            for t in pfc.trace.cat.categories))
        cols = [c for c in self.df.columns if c != "trace"]
        self.assertEqual(plain(pfc, cols), plain(self.df, cols))

    def test_gzip(self):
        d, expected = generate("gzip", "--files", "2", "--spans", "300",
                               "--gzip", "--members", "3", "--seed", "3")
        files = sorted(os.path.join(d, f) for f in os.listdir(d))
        self.assertTrue(all(f.endswith(".pfw.gz") for f in files))
        df = at.events(d)
        self.assertEqual(plain(df, COLUMNS),
                         plain(reference_events(files), COLUMNS))
        self.assert_known_totals(df, expected)

    def test_real_shape(self):
        # Unknown categories, fhash without FH: listed, not raised.
        d, expected = generate("real", "--files", "2", "--spans", "600",
                               "--real-shape")
        df = at.events(d)
        self.assert_known_totals(df, expected)
        files = sorted(os.path.join(d, f) for f in os.listdir(d))
        self.assertEqual(plain(df, COLUMNS),
                         plain(reference_events(files), COLUMNS))
        kinds = {p["kind"] for p in df.attrs["problems"]}
        self.assertIn("unknown_category", kinds)
        self.assertTrue(df.file.astype(str).str.startswith("fhash:").any())

    def test_without_parents_by_time(self):
        d, expected = generate("noparent", "--files", "2", "--spans", "300",
                               "--threads", "2", "--no-parent", "all")
        df = at.events(d)
        self.assert_known_totals(df, expected)
        # The same trees with p_idx give the same functions, parents and
        # depths (the generator writes a few roots in another place).
        d2, _ = generate("withparent", "--files", "2", "--spans", "300",
                         "--threads", "2")
        with_p = at.events(d2)
        cols = ["pid", "tid", "ts_us", "dur_us", "depth", "name", "function",
                "parent"]

        def ordered(f):
            f = f[cols].astype({c: str for c in ("name", "function",
                                                 "parent")})
            return f.sort_values(cols).reset_index(drop=True)
        self.assertEqual(plain(ordered(df)), plain(ordered(with_p)))
        self.assertGreater(int((df.depth > 1).sum()), 100)

    def test_upstream_shapes(self):
        for shape in ("v1", "dev"):
            d, expected = generate("upstream_" + shape, "--files", "2",
                                   "--spans", "300", "--upstream", shape)
            df = at.events(d)
            self.assert_known_totals(df, expected)

    def test_filters_equal_pandas_filtering(self):
        full = self.df
        t0 = full.start.min() + 0.25 * (full.start.max() - full.start.min())
        t1 = t0 + 0.001
        t0_us, t1_us = round(t0 * 1e6), round(t1 * 1e6)
        window = (full.ts_us + full.dur_us >= t0_us) & (full.ts_us <= t1_us)
        some = list(full.name.cat.categories[:3])
        cases = [
            (dict(ranks=1), full["rank"] == 1),
            (dict(ranks=[0, 2]), full["rank"].isin([0, 2])),
            (dict(layers="POSIX"), full.layer == "POSIX"),
            (dict(layers=["APP", "MPIIO"]), full.layer.isin(["APP", "MPIIO"])),
            (dict(names=some), full.name.isin(some)),
            (dict(t0=t0, t1=t1), window),
            (dict(t0=t0), full.ts_us + full.dur_us >= t0_us),
            (dict(t1=t1), full.ts_us <= t1_us),
            (dict(files="*file1*"), globbed(full, "*file1*")),
            (dict(ranks=[1], layers=["POSIX", "STDIO"], t0=t0, t1=t1),
             (full["rank"] == 1) & full.layer.isin(["POSIX", "STDIO"]) &
             window),
        ]
        for kw, mask in cases:
            with self.subTest(**{k: str(v) for k, v in kw.items()}):
                got = at.events(self.dir, **kw)
                want = full[mask.fillna(False).astype(bool)]
                self.assertGreater(len(want), 0)
                self.assertLess(len(want), len(full))
                self.assertEqual(plain(got), plain(want))

    def test_many_values_and_threads(self):
        """Names and files past 127 and 32767 values (the codes widen from
        int8 to int16 and int32, as pandas keeps them), read by one thread
        and by three, whole and filtered, as json.loads reads them."""
        d = os.path.join(WORK, "many")
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
        files = []
        for f, spans in enumerate((100, 200, 33000, 50)):
            path = os.path.join(d, f"trace-{f}-app.pfw")
            files.append(path)
            with open(path, "w") as out:
                out.write("[\n")
                pid = 100 + f
                out.write('{"id":1,"name":"CM","cat":"dftracer","pid":%d,'
                          '"tid":%d,"ph":"M","args":{"name":"rank",'
                          '"value":"%d"}}\n' % (pid, pid, f))
                for i in range(spans):
                    # A function per span (33,350 names), its write on one
                    # of 1,000 files.
                    out.write('{"id":%d,"name":"H5Dwrite","cat":"HDF5",'
                              '"pid":%d,"tid":%d,"ts":%d,"dur":2,"ph":"X",'
                              '"args":{"p_idx":%d,"fhash":%d,"bytes":%d,'
                              '"ret":0}}\n' % (2 * i + 2, pid, pid,
                                              10 * i + 1, 2 * i + 3,
                                              i % 1000, i + f))
                    out.write('{"id":%d,"name":"fn_%d_%d","cat":"C_APP",'
                              '"pid":%d,"tid":%d,"ts":%d,"dur":4,"ph":"X",'
                              '"args":{"p_idx":0}}\n' % (2 * i + 3, f, i, pid,
                                                         pid, 10 * i))
                    if i % 2:  # every other file named by an FH line
                        out.write('{"id":0,"name":"FH","cat":"dftracer",'
                                  '"pid":%d,"tid":%d,"ph":"M","args":'
                                  '{"name":"/d/f%d","value":%d}}\n'
                                  % (pid, pid, i % 1000, i % 1000))
                out.write("]\n")
        ref = reference_events(files)
        for jobs in (1, 3):
            df = at.events(d, jobs=jobs)
            self.assertEqual(plain(df, COLUMNS), plain(ref, COLUMNS))
            self.assertEqual(df.name.cat.codes.dtype.name, "int32")
            self.assertEqual(df.file.cat.codes.dtype.name, "int16")
            self.assertEqual(df.layer.cat.codes.dtype.name, "int8")
            # Only the values the rows use, in order of first use.
            for c in ("name", "file", "function", "parent", "cat"):
                used = pd.unique(df[c].dropna().astype(object))
                self.assertEqual(list(df[c].cat.categories), list(used), c)
            for kw, mask in (
                    (dict(ranks=[0, 3]), df["rank"].isin([0, 3])),
                    (dict(files="/d/f1*"), globbed(df, "/d/f1*")),
                    (dict(layers="APP"), df.layer == "APP"),
                    (dict(names=["fn_2_7", "fn_3_9"]),
                     df.name.isin(["fn_2_7", "fn_3_9"]))):
                with self.subTest(jobs=jobs, **{k: str(v)
                                               for k, v in kw.items()}):
                    got = at.events(d, jobs=jobs, **kw)
                    want = df[mask.fillna(False).astype(bool)]
                    self.assertGreater(len(want), 0)
                    self.assertEqual(plain(got), plain(want))
                    for c in ("name", "file", "function", "parent"):
                        used = pd.unique(got[c].dropna().astype(object))
                        self.assertEqual(list(got[c].cat.categories),
                                         list(used), c)

    def test_glob_paths(self):
        df = at.events(os.path.join(self.dir, "*-000[01]-*.pfw"))
        want = self.df[self.df.trace.isin(self.files[:2])]
        self.assertEqual(plain(df, COLUMNS), plain(want, COLUMNS))

    def test_missing_path_raises(self):
        with self.assertRaises(FileNotFoundError):
            at.events(os.path.join(WORK, "no-such-dir"))
        with self.assertRaises(FileNotFoundError):
            at.events(os.path.join(WORK, "no-such-*.pfw"))
        empty = os.path.join(WORK, "empty-dir")
        os.makedirs(empty, exist_ok=True)
        with self.assertRaises(FileNotFoundError):
            at.events(empty)
        with self.assertRaises(ValueError):
            at.events(self.dir, layers="DISK")

    def test_damaged_trace_raises_with_its_line(self):
        d = os.path.join(WORK, "damaged")
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
        with open(self.files[0]) as f:
            lines = f.read().splitlines()
        n = next(i for i, l in enumerate(lines) if i > 10 and '"ph":"X"' in l)
        lines[n] = lines[n][: len(lines[n]) // 2]  # cut mid-object
        bad = os.path.join(d, "trace-bad-app.pfw")
        with open(bad, "w") as f:
            f.write("\n".join(lines) + "\n")
        with self.assertRaises(at.TraceError) as e:
            at.events(bad)
        self.assertEqual((e.exception.path, e.exception.line), (bad, n + 1))
        self.assertIn(f"{bad}:{n + 1}:", str(e.exception))
        skipped = at.events(bad, errors="skip")
        self.assertEqual(len(skipped), len(at.events(self.files[0])) - 1)
        self.assertEqual(skipped.attrs["problems"][0]["line"], n + 1)
        # A gzip stream cut short.
        with open(self.files[0], "rb") as f:
            data = gzip.compress(f.read())
        cut = os.path.join(d, "trace-cut-app.pfw.gz")
        with open(cut, "wb") as f:
            f.write(data[: len(data) // 2])
        with self.assertRaises(at.TraceError) as e:
            at.events(cut)
        self.assertEqual(e.exception.path, cut)


if __name__ == "__main__":
    unittest.main()
