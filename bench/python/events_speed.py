#!/usr/bin/python3
"""annotate_traces.events() against reading the same .pfw files in Python,
and against dftracer-analyze -j 1.

    PYTHONPATH=build/python /usr/bin/python3 bench/python/events_speed.py \
        [--gen build/bin/dftracer_trace_gen --files 16 --spans 100000] \
        [--analyze build/bin/dftracer-analyze] [--read-json [--subset K]] \
        [--modes events,json.loads] [--reps N] [--base OTHER_PYTHONPATH] [DIR]

Without DIR, a real-shaped set is generated (dftracer_trace_gen generate
--real-shape) in a temporary directory. Each reader runs in its own
process (so its peak memory is its own), one thread, and prints its time,
MB/s of uncompressed trace text, and peak RSS. With --reps N every mode
runs N times, the modes alternating (a loaded machine slows them alike),
and the median and the least CPU time are printed. --base measures
events() of another build of the module (its PYTHONPATH) alternately with
this one. --subset K: read_json (slow: ~6 MB/s) on the first K files only,
with events() again on those K files for its ratio. Not run by CI: the
figures go to docs/performance.md ("Python module").
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


def child(mode, d, files):
    global at, pd
    import annotate_traces as at  # imported before the clock starts
    import pandas as pd
    if files:  # a subset: its files linked into a directory of their own
        sub = tempfile.mkdtemp()
        for f in files_of(d)[:files]:
            os.symlink(f, os.path.join(sub, os.path.basename(f)))
        d = sub
    t, cpu = time.perf_counter(), time.process_time()
    rows = MODES[mode](d)
    secs, cpu = time.perf_counter() - t, time.process_time() - cpu
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    print(json.dumps({"rows": rows, "seconds": secs, "cpu": cpu,
                      "peak": peak}))


def measure(mode, d, files=0, pythonpath=None):
    env = dict(os.environ)
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    out = subprocess.run([sys.executable, __file__, "--child", mode, d,
                          "--subset", str(files)],
                         check=True, capture_output=True, text=True,
                         env=env).stdout
    return json.loads(out)


def measure_analyze(analyze, d):
    # GNU time: its own peak, which RUSAGE_CHILDREN would mix with the
    # Python children's.
    with tempfile.NamedTemporaryFile("r") as out:
        subprocess.run(["/usr/bin/time", "-o", out.name, "-f", "%e %U %S %M",
                        analyze, "-j", "1", "--json", d], check=True,
                       capture_output=True)
        wall, user, system, kb = out.read().split()[-4:]
    return {"rows": 0, "seconds": float(wall),
            "cpu": float(user) + float(system), "peak": int(kb) * 1024}


def median(v):
    v = sorted(v)
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("dir", nargs="?")
    p.add_argument("--gen", default="build/bin/dftracer_trace_gen")
    p.add_argument("--files", type=int, default=16)
    p.add_argument("--spans", type=int, default=100000)
    p.add_argument("--analyze", help="also time dftracer-analyze -j 1")
    p.add_argument("--read-json", action="store_true",
                   help="also pandas.read_json(lines=True) (slow)")
    p.add_argument("--subset", type=int, default=0,
                   help="read_json on the first K files only")
    p.add_argument("--modes", default="events,json.loads,loads only",
                   help="comma-separated: " + ", ".join(MODES))
    p.add_argument("--reps", type=int, default=1)
    p.add_argument("--base", help="PYTHONPATH of another build: its "
                   "events() too, alternating")
    p.add_argument("--child", help=argparse.SUPPRESS)
    a = p.parse_args()
    if a.child:
        return child(a.child, a.dir, a.subset)
    tmp = None
    d = a.dir
    if not d:
        tmp = tempfile.TemporaryDirectory()
        d = os.path.join(tmp.name, "set")
        subprocess.run([a.gen, "generate", "--dir", d, "--files",
                        str(a.files), "--spans", str(a.spans),
                        "--real-shape"], check=True, capture_output=True)
    size = sum(os.path.getsize(f) for f in files_of(d))
    sub_size = sum(os.path.getsize(f) for f in files_of(d)[:a.subset])
    print(f"{len(files_of(d))} files, {size / 1e6:.1f} MB of .pfw")
    # (label, MB read, how to run it once)
    runs = [(m, size, lambda m=m: measure(m, d))
            for m in a.modes.split(",") if m]
    if a.base:
        runs.append(("events (base)", size,
                     lambda: measure("events", d, 0, a.base)))
    if a.analyze:
        runs.append(("dftracer-analyze -j 1", size,
                     lambda: measure_analyze(a.analyze, d)))
    if a.read_json:
        if a.subset:
            runs.append((f"events ({a.subset} files)", sub_size,
                         lambda: measure("events", d, a.subset)))
        runs.append(("read_json" + (f" ({a.subset} files)" if a.subset
                                    else ""), sub_size if a.subset else size,
                     lambda: measure("read_json", d, a.subset)))
    results = {label: [] for label, _, _ in runs}
    for _ in range(a.reps):
        for label, _, run in runs:
            results[label].append(run())
    first = None
    for label, mb, _ in runs:
        rs = results[label]
        cpu = median([r["cpu"] for r in rs])
        wall = median([r["seconds"] for r in rs])
        least = min(r["cpu"] for r in rs)
        peak = max(r["peak"] for r in rs)
        rows = rs[0]["rows"]
        first = first or cpu
        per_m = (f"  {peak / rows * 1e6 / 2**20:.0f} MiB per million rows"
                 if rows else "")
        print(f"{label:>24}: cpu {cpu:7.2f} s (least {least:6.2f})  wall "
              f"{wall:7.2f} s  {mb / 1e6 / cpu:7.1f} MB per CPU s  peak "
              f"{peak / 2**20:6.0f} MiB{per_m}  x{cpu / first:.2f} of the "
              "first, by CPU")


if __name__ == "__main__":
    main()
