#!/usr/bin/env python3
"""annotate_summary.py REPORT_JSON STDERR: the figures of one `annotate -p`
run over a real tree (its --report JSON's summary, the warning and error
lines it printed, its last line). Exits 1 when a file failed, so that the
bench scripts (annotate_h5bench.sh, bench/leveldb) stop there."""
import json
import sys

summary = json.load(open(sys.argv[1]))["summary"]
err = open(sys.argv[2]).read().splitlines()
warnings = [l for l in err if ": warning: " in l]
print("report:", ", ".join(f"{k} {v}" for k, v in summary.items()
                           if not isinstance(v, (dict, list))))
print(f"warning lines printed {len(warnings)}")
for line in warnings + [l for l in err if ": error: " in l]:
    print("  " + line)
if err:
    print("  " + err[-1])
sys.exit(1 if summary["failed"] else 0)
