"""annotate_traces.analyze() on the e2e kernels' traces (test/e2e and
test/e2e_cxx: each kernel annotated, built and run under mpiexec -n 2 by
its e2e.NAME.run fixture; ANNOTATE_TRACES_E2E names their trace
directories): the same text as dftracer-analyze --json, byte for byte, so
figure for figure, kernel by kernel and for all of them as one run; every
table cell equal to its JSON value; and events() counting each layer's
calls, time and bytes as the report does."""

import os
import unittest

import annotate_traces as at
from common import ReportChecks

DIRS = [d for d in os.environ.get("ANNOTATE_TRACES_E2E", "").split(os.pathsep)
        if d]


def kernel(traces):
    return os.path.basename(os.path.dirname(os.path.normpath(traces)))


@unittest.skipUnless(DIRS, "no e2e traces given (ANNOTATE_TRACES_E2E)")
class E2E(ReportChecks, unittest.TestCase):
    def test_each_kernel(self):
        for d in DIRS:
            with self.subTest(kernel=kernel(d)):
                self.assertGreaterEqual(len(at.trace_files(d)), 2)  # -n 2
                a = self.same_as_cli([d])
                self.assertGreater(a.json["events"], 0)
                self.assertGreater(len(a.functions), 0)
                self.same_as_cli([d], "-j", "2", "--no-diagnose", jobs=2,
                                 diagnose=False)

    def test_all_kernels_as_one_run(self):
        a = self.same_as_cli(DIRS, "--all-files", all_files=True)
        self.assertEqual(a.json["files"],
                         sum(len(at.trace_files(d)) for d in DIRS))

    def test_events_count_as_the_report(self):
        """Each layer's calls, time and bytes read and written, from the
        rows of events(), equal the report's layers table."""
        df = at.events(DIRS, errors="skip")
        a = at.analyze(DIRS)
        self.assertEqual(len(df.trace.cat.categories), a.json["files"])
        for row in a.layers.itertuples():
            rows = df[df.layer == row.layer]
            self.assertEqual(len(rows), row.ops, row.layer)
            self.assertEqual(int(rows.dur_us.sum()), row.time_us, row.layer)
            self.assertEqual(int(rows[rows.op == "read"].bytes.sum()),
                             row.bytes_read, row.layer)
            self.assertEqual(int(rows[rows.op == "write"].bytes.sum()),
                             row.bytes_written, row.layer)


if __name__ == "__main__":
    unittest.main()
