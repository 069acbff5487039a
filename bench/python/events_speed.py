#!/usr/bin/python3
"""annotate_traces.events() against reading the same .pfw files in Python.

    PYTHONPATH=build/python /usr/bin/python3 bench/python/events_speed.py \
        [--gen build/bin/dftracer_trace_gen --files 16 --spans 100000] \
        [--analyze build/bin/dftracer-analyze] [--read-json] [DIR]

Without DIR, a real-shaped set is generated (dftracer_trace_gen generate
--real-shape) in a temporary directory. Each reader runs once, one thread,
in its own process (so its peak memory is its own), and prints its time,
MB/s of uncompressed trace text, and peak RSS. Not run by CI: the figures
go to docs/performance.md ("Python module").
"""

import argparse
import glob
import io
import json
import os
import resource
import subprocess
import sys
import tempfile
import time


def files_of(d):
    return sorted(glob.glob(os.path.join(d, "*.pfw")))


def mode_events(d):
    df = at.events(d, jobs=1, errors="skip")
    return len(df)


def mode_loads(d):
    # The loop people write: a dict per line, kept, then a DataFrame.
    rows = []
    for path in files_of(d):
        with open(path) as f:
            for line in f:
                line = line.strip()
                if line in ("", "[", "]"):
                    continue
                e = json.loads(line)
                if e.get("ph") == "X":
                    rows.append(e)
    return len(pd.DataFrame(rows))


def mode_parse_only(d):
    # json.loads alone, nothing kept: the floor of any Python line loop.
    n = 0
    for path in files_of(d):
        with open(path) as f:
            for line in f:
                line = line.strip()
                if line not in ("", "[", "]"):
                    n += json.loads(line).get("ph") == "X"
    return n


def mode_read_json(d):
    n = 0
    for path in files_of(d):
        with open(path) as f:
            text = "".join(l for l in f if l.strip() not in ("", "[", "]"))
        n += len(pd.read_json(io.StringIO(text), lines=True))
    return n


MODES = {"events": mode_events, "json.loads": mode_loads,
         "loads only": mode_parse_only,
         "read_json": mode_read_json}


def child(mode, d):
    global at, pd
    import annotate_traces as at  # imported before the clock starts
    import pandas as pd
    t, cpu = time.perf_counter(), time.process_time()
    rows = MODES[mode](d)
    secs, cpu = time.perf_counter() - t, time.process_time() - cpu
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    print(json.dumps({"rows": rows, "seconds": secs, "cpu": cpu,
                      "peak": peak}))


def measure(mode, d):
    out = subprocess.run([sys.executable, __file__, "--child", mode, d],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("dir", nargs="?")
    p.add_argument("--gen", default="build/bin/dftracer_trace_gen")
    p.add_argument("--files", type=int, default=16)
    p.add_argument("--spans", type=int, default=100000)
    p.add_argument("--analyze", help="also time dftracer-analyze -j 1")
    p.add_argument("--read-json", action="store_true",
                   help="also pandas.read_json(lines=True) (slow)")
    p.add_argument("--child", help=argparse.SUPPRESS)
    a = p.parse_args()
    if a.child:
        return child(a.child, a.dir)
    tmp = None
    d = a.dir
    if not d:
        tmp = tempfile.TemporaryDirectory()
        d = os.path.join(tmp.name, "set")
        subprocess.run([a.gen, "generate", "--dir", d, "--files",
                        str(a.files), "--spans", str(a.spans),
                        "--real-shape"], check=True, capture_output=True)
    size = sum(os.path.getsize(f) for f in files_of(d))
    print(f"{len(files_of(d))} files, {size / 1e6:.1f} MB of .pfw")
    modes = ["events", "json.loads", "loads only"] + (
        ["read_json"] if a.read_json else [])
    base = None
    for m in modes:
        r = measure(m, d)
        rate = size / 1e6 / r["seconds"]
        base = base or r["seconds"]
        print(f"{m:>12}: {r['seconds']:7.2f} s (cpu {r['cpu']:6.2f} s)  "
              f"{rate:7.1f} MB/s  "
              f"peak {r['peak'] / 2**20:7.0f} MiB  "
              f"({r['peak'] / max(r['rows'], 1) * 1e6 / 2**20:.0f} MiB per "
              f"million rows; {r['rows']} rows)  x{r['seconds'] / base:.1f}")
    if a.analyze:
        t = time.perf_counter()
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([a.analyze, "-j", "1", "--json", d], check=True,
                       capture_output=True)
        secs = time.perf_counter() - t
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime + after.ru_stime - before.ru_utime -
               before.ru_stime)
        print(f"dftracer-analyze -j 1: {secs:7.2f} s (cpu {cpu:6.2f} s)  "
              f"{size / 1e6 / secs:7.1f} MB/s")


if __name__ == "__main__":
    main()
