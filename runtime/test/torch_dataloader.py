"""A PyTorch DataLoader with worker processes: every file each worker reads
is in the traces, and the application runs unchanged.

  torch_dataloader.py --preload LIB --work DIR [--checker dftracer-check]

Writes Files files of different sizes to DIR/data, then runs itself as the
application three times with Debian's /usr/bin/python3: untraced, under
LD_PRELOAD=LIB with DFTRACER_ENABLE=0, and traced. The application iterates
a torch.utils.data.DataLoader (num_workers=2, batch_size=None) over a
Dataset whose items are the files' bytes, read with open().read() in the
workers, and prints one line: the files it got and a checksum. The three
lines must be equal (the preload is transparent); in the traced run every
file's bytes must be in the traces exactly once (the read calls' returns
summed per file equal its size), read by worker processes (not the main
one), and every trace must pass dftracer-check. Exit 0 when they are.
"""
import argparse
import glob
import os
import subprocess
import sys

import trace_lines

Files = 24
Workers = 2
ReadCalls = {"read", "pread", "pread64", "readv", "preadv", "preadv2",
             "fread"}


def sizeOf(i):
    return 4096 * (i + 1) + 123 * i  # every file a different size


def app(data):
    import hashlib

    import torch
    from torch.utils.data import DataLoader, Dataset

    class Files(Dataset):
        def __init__(self, paths):
            self.paths = paths

        def __len__(self):
            return len(self.paths)

        def __getitem__(self, i):
            with open(self.paths[i], "rb") as f:
                return torch.frombuffer(bytearray(f.read()), dtype=torch.uint8)

    paths = sorted(glob.glob(os.path.join(data, "f-*")))
    loader = DataLoader(Files(paths), batch_size=None, num_workers=Workers)
    digest = hashlib.sha256()
    count = 0
    for item in loader:
        digest.update(item.numpy().tobytes())
        count += 1
    print("%d files, sha256 %s" % (count, digest.hexdigest()))
    return 0


def traced(path):
    """{file name: bytes read} and {pid: reads} from one .pfw."""
    sums, pids = {}, {}
    for event, name in trace_lines.events(path):
        args = event.get("args", {})
        if event.get("cat") in ("POSIX", "STDIO") and \
                event["name"] in ReadCalls and "/data/f-" in name and \
                args.get("ret", -1) > 0:
            sums[name] = sums.get(name, 0) + args["ret"]
            pids[event["pid"]] = pids.get(event["pid"], 0) + 1
    return sums, pids


def driver(opts):
    work, data = trace_lines.fresh_work(opts.work)
    for i in range(Files):
        with open(os.path.join(data, "f-%02d" % i), "wb") as f:
            f.write(bytes((i * 7 + j) % 251 for j in range(sizeOf(i))))
    runs = {
        "untraced": {},
        "DFTRACER_ENABLE=0": {"LD_PRELOAD": opts.preload,
                              "DFTRACER_ENABLE": "0"},
        "traced": {"LD_PRELOAD": opts.preload, "DFTRACER_ENABLE": "1",
                   "DFTRACER_LOG_FILE": work + "/trace",
                   "DFTRACER_DATA_DIR": data},
    }

    def launch(name, extra):
        return subprocess.run([sys.executable, os.path.abspath(__file__),
                               "--app", "--work", work],
                              env=dict(trace_lines.clean_env(), **extra),
                              cwd=work, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)

    ran, failed = trace_lines.run_each(runs, launch,
                                       lambda out: [out.strip()])
    if not ran:
        return 1
    traces = sorted(glob.glob(os.path.join(work, "trace-*.pfw")))
    sums, pids = {}, {}
    for path in traces:
        s, p = traced(path)
        for k, v in s.items():
            sums[k] = sums.get(k, 0) + v
        for k, v in p.items():
            pids[k] = pids.get(k, 0) + v
    for i in range(Files):
        path = os.path.join(data, "f-%02d" % i)
        if sums.get(path, 0) != sizeOf(i):
            print("%s: %d bytes, %d read in the traces" %
                  (path, sizeOf(i), sums.get(path, 0)))
            failed = 1
    if len(pids) != Workers:
        print("reads by %d processes %s, expected the %d workers" %
              (len(pids), pids, Workers))
        failed = 1
    if opts.checker:
        failed |= trace_lines.check_all(opts.checker, traces)
    print("%d trace files; reads per process %s" % (len(traces), pids))
    return failed


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--app", action="store_true")
    parser.add_argument("--work", required=True)
    parser.add_argument("--preload")
    parser.add_argument("--checker")
    opts = parser.parse_args()
    if opts.app:
        return app(os.path.join(opts.work, "data"))
    return driver(opts)


if __name__ == "__main__":
    sys.exit(main())
