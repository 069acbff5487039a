"""annotate_traces.analyze() and compare(): the same text as
dftracer-analyze --json (byte for byte, so figure for figure) on generated
real-shaped sets, access patterns with tuning records and the runtime's
records; every table cell equal to its JSON value; the same HTML page; the
same comparison."""

import math
import os
import unittest

import annotate_traces as at
from common import ANALYZE, WORK, cli_json, generate, run

RECORDS = os.environ.get("ANNOTATE_TRACES_RECORDS")


def flat(record, prefix=""):
    out = {}
    for k, v in record.items():
        if isinstance(v, dict):
            out.update(flat(v, prefix + k + "."))
        else:
            out[prefix + k] = v
    return out


class Analyze(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        os.makedirs(WORK, exist_ok=True)
        cls.real, _ = generate("analyze_real", "--files", "4", "--spans",
                               "3000", "--real-shape", "--threads", "2")
        cls.access = os.path.join(WORK, "analyze_access")
        run("rm", "-rf", cls.access)
        os.makedirs(cls.access)
        run(os.environ["ANNOTATE_TRACES_GEN"], "access", "--dir", cls.access,
            "--pattern", "strided", "--ranks", "4", "--calls", "64")

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

    def test_real_shape(self):
        a = self.same_as_cli([self.real], "-j", "2", jobs=2)
        self.assertGreater(len(a.findings), 0)
        self.assertGreater(len(a.functions), 5)
        self.same_as_cli([self.real], "-j", "1", "--no-diagnose",
                         jobs=1, diagnose=False)
        self.same_as_cli([self.real], "--top", "3", "--all-files",
                         top=3, all_files=True)

    def test_access_patterns_and_tuning_records(self):
        a = self.same_as_cli([self.access])
        self.assertGreater(len(a.mpiio) + len(a.access), 0)

    @unittest.skipUnless(RECORDS, "no records traces given")
    def test_runtime_records(self):
        self.same_as_cli([RECORDS])

    def test_html_is_the_cli_page(self):
        mine = os.path.join(WORK, "mine.html")
        cli = os.path.join(WORK, "cli.html")
        # The page names the rules file: the one dftracer-analyze finds.
        rules = os.path.join(os.path.dirname(ANALYZE),
                             "dftracer-analyze-diagnosis.json")
        at.analyze(self.real, rules=rules).to_html(mine)
        run(ANALYZE, "--html", cli, self.real)
        with open(mine, "rb") as f, open(cli, "rb") as g:
            self.assertEqual(f.read(), g.read())

    def test_compare(self):
        base, _ = generate("compare_base", "--files", "2", "--spans", "800",
                           "--real-shape", "--seed", "1")
        changed, _ = generate("compare_changed", "--files", "2", "--spans",
                              "800", "--real-shape", "--seed", "2")
        text, j = cli_json("--compare", base, changed)
        c = at.compare(base, changed)
        self.assertEqual(c.text, text)
        self.assertTrue(c.comparable)
        for key, v in j["compare"].items():
            if isinstance(v, list) and v and isinstance(v[0], dict):
                self.assert_rows(c.tables[key], v, key)
        mine = os.path.join(WORK, "compare.html")
        cli = os.path.join(WORK, "compare-cli.html")
        c.to_html(mine)
        run(ANALYZE, "--compare", base, "--html", cli, changed)
        with open(mine, "rb") as f, open(cli, "rb") as g:
            self.assertEqual(f.read(), g.read())

    def test_bad_paths_raise(self):
        with self.assertRaises(FileNotFoundError):
            at.analyze(os.path.join(WORK, "no-such-run"))
        with self.assertRaises(FileNotFoundError):
            at.compare(os.path.join(WORK, "no-such-run"), self.real)
        with self.assertRaises(ValueError):
            at.analyze(self.real, rules=os.path.join(WORK, "no-rules.json"))


if __name__ == "__main__":
    unittest.main()
