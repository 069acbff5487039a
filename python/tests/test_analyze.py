"""annotate_traces.analyze() and compare(): the same text as
dftracer-analyze --json (byte for byte, so figure for figure) on generated
real-shaped sets, access patterns with tuning records and the runtime's
records; every table cell equal to its JSON value; the same HTML page; the
same comparison."""

import os
import unittest

import annotate_traces as at
from common import ANALYZE, WORK, ReportChecks, cli_json, generate, run

RECORDS = os.environ.get("ANNOTATE_TRACES_RECORDS")


class Analyze(ReportChecks, unittest.TestCase):
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
