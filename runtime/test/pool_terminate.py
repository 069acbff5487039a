"""multiprocessing.Pool workers ended by terminate() keep their traces.

  pool_terminate.py --preload LIB --work DIR --method fork|spawn|forkserver
                    [--checker dftracer-check]

Runs itself as the application under LD_PRELOAD=LIB (the test runs
/usr/bin/python3, Debian's, not whichever python3 is first on PATH): a Pool
of Workers processes whose initializer writes Bytes bytes to DIR/data/w-PID,
waits on a barrier with the main process and sleeps; the main process then
calls terminate(): SIGTERM, whose disposition in a worker is SIG_DFL. Then every worker's
bytes must be in the traces, summed per pid, exactly what its file holds,
and every trace must pass dftracer-check. Exit 0 when they are.
"""
import argparse
import glob
import os
import subprocess
import sys
import time

import trace_lines

Workers = 3
Bytes = 819200
WriteCalls = {"write", "pwrite", "pwrite64", "writev", "pwritev", "pwritev2"}


def initWorker(data, barrier):
    with open(os.path.join(data, "w-%d" % os.getpid()), "wb") as f:
        f.write(b"x" * Bytes)
    barrier.wait()
    # Never take a task: a worker that did could leave on the sentinel
    # terminate() also sends (then _exit finishes its trace), so SIGTERM is
    # the only way out.
    time.sleep(3600)


def app(method, data):
    import multiprocessing

    ctx = multiprocessing.get_context(method)
    barrier = ctx.Barrier(Workers + 1)
    pool = ctx.Pool(Workers, initializer=initWorker, initargs=(data, barrier))
    barrier.wait()  # every worker has written and closed its file
    pool.terminate()
    pool.join()
    return 0


def traced(path):
    """Bytes written per pid to files under data/, from one .pfw."""
    sums = {}
    for event, name in trace_lines.events(path):
        args = event.get("args", {})
        if event.get("cat") == "POSIX" and event["name"] in WriteCalls and \
                "/data/w-" in name and args.get("ret", -1) > 0:
            sums[event["pid"]] = sums.get(event["pid"], 0) + args["ret"]
    return sums


def driver(opts):
    work = os.path.abspath(opts.work)
    data = os.path.join(work, "data")
    subprocess.run(["rm", "-rf", work], check=True)
    os.makedirs(data)
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("DFTRACER_") and k != "LD_PRELOAD"}
    env.update(DFTRACER_ENABLE="1", DFTRACER_LOG_FILE=work + "/trace",
               DFTRACER_DATA_DIR=data, LD_PRELOAD=opts.preload)
    run = subprocess.run([sys.executable, os.path.abspath(__file__), "--app",
                          "--method", opts.method, "--work", work], env=env,
                         cwd=work, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True)
    if run.returncode != 0:
        print("application failed (%d):\n%s" % (run.returncode, run.stdout))
        return 1
    written = {}
    for path in glob.glob(os.path.join(data, "w-*")):
        written[int(path.rsplit("-", 1)[1])] = os.path.getsize(path)
    traces = sorted(glob.glob(os.path.join(work, "trace-*.pfw")))
    seen = {}
    for path in traces:
        for pid, n in traced(path).items():
            seen[pid] = seen.get(pid, 0) + n
    failed = 0
    if len(written) != Workers or set(written.values()) != {Bytes}:
        print("workers wrote %s, expected %d files of %d bytes" %
              (written, Workers, Bytes))
        failed = 1
    for pid, n in sorted(written.items()):
        if seen.get(pid, 0) != n:
            print("worker %d: %d bytes written, %d in the trace" %
                  (pid, n, seen.get(pid, 0)))
            failed = 1
    if opts.checker:
        failed |= trace_lines.check_all(opts.checker, traces)
    print("%s: %d workers, bytes per pid in the trace %s" %
          (opts.method, len(written), seen))
    return failed


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--app", action="store_true")
    parser.add_argument("--method", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--preload")
    parser.add_argument("--checker")
    opts = parser.parse_args()
    if opts.app:
        return app(opts.method, os.path.join(opts.work, "data"))
    return driver(opts)


if __name__ == "__main__":
    sys.exit(main())
