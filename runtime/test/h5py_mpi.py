"""mpi4py and parallel h5py (Debian's python3-h5py-mpi, built on Open MPI)
under the preload: every HDF5, MPI-IO and POSIX call on the file is traced,
and the POSIX bytes equal strace's.

  h5py_mpi.py --preload LIB --work DIR --mpirun MPIRUN [--checker CHECK]

Runs itself as the application under `strace -f MPIRUN -np 2` (Open MPI's
mpirun, as root with OMPI_ALLOW_RUN_AS_ROOT), traced and with
DFTRACER_ENABLE=0: both ranks write their halves of one dataset of
DIR/data/par.h5 collectively through h5py's mpio driver, then read them
back and check them. Then: the two runs print the same lines; the traced
run has one trace per rank, each with H5Fcreate, H5Dwrite, MPI_File_open
and MPI-IO data calls; the bytes its POSIX events read and wrote on
par.h5 (summed over the ranks) equal strace's for the same file; every
trace passes dftracer-check. Exit 0 when they do.
"""
import argparse
import glob
import os
import re
import subprocess
import sys

import trace_lines

Ranks = 2
Elements = 1 << 16
Writes = {"write", "pwrite", "pwrite64", "writev", "pwritev", "pwritev2"}
Reads = {"read", "pread", "pread64", "readv", "preadv", "preadv2"}
# The system calls under those names (pread and pwrite are library names).
Syscalls = (Reads | Writes) - {"pread", "pwrite"}


def app(data):
    import numpy as np
    from mpi4py import MPI
    import h5py

    comm = MPI.COMM_WORLD
    rank, size = comm.Get_rank(), comm.Get_size()
    path = os.path.join(data, "par.h5")
    mine = np.arange(Elements, dtype="f8") + rank
    with h5py.File(path, "w", driver="mpio", comm=comm) as f:
        d = f.create_dataset("x", (size * Elements,), dtype="f8")
        with d.collective:
            d[rank * Elements:(rank + 1) * Elements] = mine
    with h5py.File(path, "r", driver="mpio", comm=comm) as f:
        back = f["x"][rank * Elements:(rank + 1) * Elements]
    # One line per rank, printed by rank 0: the ranks' own prints may
    # interleave on the shared stdout.
    verdicts = comm.gather("rank %d: %s" % (rank, "ok" if (back == mine).all()
                                            else "BAD"), root=0)
    if rank == 0:
        print("\n".join(verdicts), flush=True)
    return 0 if (back == mine).all() else 1


def traced(path, target):
    """POSIX bytes (read, written) on target, and the event names."""
    moved, seen = [0, 0], set()
    for event, name in trace_lines.events(path):
        args = event.get("args", {})
        seen.add(event.get("name"))
        if event.get("cat") != "POSIX" or name != target or \
                args.get("ret", -1) <= 0:
            continue
        if event["name"] in Reads:
            moved[0] += args["ret"]
        elif event["name"] in Writes:
            moved[1] += args["ret"]
    return moved, seen


def straced(log, target):
    """strace -f -y: bytes read and written on target. A call another
    process interrupted is split: "PID name(fd<path>, ... <unfinished ...>"
    then "PID <... name resumed>...) = N"."""
    moved, pending = [0, 0], {}
    start = re.compile(r"^(\d+) +(\w+)\(\d+<([^>]*)>")
    resumed = re.compile(r"^(\d+) +<\.\.\. (\w+) resumed>")
    result = re.compile(r"\) += (\d+)$")

    def add(name, path, n):
        if path != target:
            return
        if name in Reads:
            moved[0] += n
        elif name in Writes:
            moved[1] += n

    with open(log, errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            m = start.match(line)
            if m:
                if line.endswith("<unfinished ...>"):
                    pending[m.group(1)] = (m.group(2), m.group(3))
                elif result.search(line):
                    add(m.group(2), m.group(3), int(result.search(line).group(1)))
                continue
            m = resumed.match(line)
            if m and m.group(1) in pending and result.search(line):
                name, path = pending.pop(m.group(1))
                add(name, path, int(result.search(line).group(1)))
    return moved


def driver(opts):
    work, data = trace_lines.fresh_work(opts.work)
    target = os.path.join(data, "par.h5")
    base = trace_lines.clean_env("OMPI_")
    base.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
                OMPI_MCA_rmaps_base_oversubscribe="1")
    runs = {"DFTRACER_ENABLE=0": {"DFTRACER_ENABLE": "0"},
            "traced": {"DFTRACER_ENABLE": "1",
                       "DFTRACER_LOG_FILE": work + "/trace",
                       "DFTRACER_DATA_DIR": data}}

    def launch(name, extra):
        log = os.path.join(work, "strace-%s.log" % ("traced" if "traced" in name
                                                    else "off"))
        cmd = ["strace", "-f", "-qq", "-y", "-s", "0", "-o", log,
               "-e", "trace=" + ",".join(sorted(Syscalls)),
               opts.mpirun, "-np", str(Ranks), sys.executable,
               os.path.abspath(__file__), "--app", "--work", work]
        return subprocess.run(cmd, env=dict(base, LD_PRELOAD=opts.preload,
                                            **extra),
                              cwd=work, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)

    ran, failed = trace_lines.run_each(
        runs, launch, lambda out: sorted(re.findall(r"rank \d+: \w+", out)))
    if not ran:
        return 1
    traces = sorted(glob.glob(os.path.join(work, "trace-*.pfw")))
    if len(traces) != Ranks:
        print("%d trace files, expected %d: %s" % (len(traces), Ranks, traces))
        failed = 1
    total = [0, 0]
    for path in traces:
        moved, seen = traced(path, target)
        total = [total[0] + moved[0], total[1] + moved[1]]
        for need in ("H5Fcreate", "H5Dwrite", "H5Dread", "MPI_File_open"):
            if need not in seen:
                print("%s: no %s event" % (path, need))
                failed = 1
        if not any(n and n.startswith(("MPI_File_write", "MPI_File_read"))
                   for n in seen):
            print("%s: no MPI-IO data call" % path)
            failed = 1
    expected = straced(os.path.join(work, "strace-traced.log"), target)
    print("POSIX bytes on %s (read, written): trace %s, strace %s" %
          (target, total, expected))
    if total != expected or expected[1] < Ranks * Elements * 8:
        print("the trace's bytes differ from strace's")
        failed = 1
    if opts.checker:
        failed |= trace_lines.check_all(opts.checker, traces)
    return failed


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--app", action="store_true")
    parser.add_argument("--work", required=True)
    parser.add_argument("--preload")
    parser.add_argument("--mpirun", default="mpirun.openmpi")
    parser.add_argument("--checker")
    opts = parser.parse_args()
    if opts.app:
        return app(os.path.join(opts.work, "data"))
    return driver(opts)


if __name__ == "__main__":
    sys.exit(main())
