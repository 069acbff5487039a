"""What the Python-workload tests (pool_terminate.py, torch_dataloader.py,
h5py_mpi.py) share: a fresh work directory and environment, the runs of
one application under several configurations compared, the events of a
.pfw with the path of each event's file, and dftracer-check over the
traces."""
import json
import os
import shutil
import subprocess


def fresh_work(work):
    """(work, work/data) as absolute paths, work emptied first."""
    work = os.path.abspath(work)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(os.path.join(work, "data"))
    return work, os.path.join(work, "data")


def clean_env(*prefixes):
    """This environment without the preload, DFTRACER_* and the prefixes."""
    drop = ("DFTRACER_",) + prefixes
    return {k: v for k, v in os.environ.items()
            if not k.startswith(drop) and k != "LD_PRELOAD"}


def run_each(runs, launch, lines):
    """launch(name, extra env) for each of runs ({name: extra env}); each
    run's lines(stdout) printed. Returns (ran, failed): ran is False when a
    run exited non-zero (said, with its output); failed is 1 when the runs
    printed different lines."""
    outputs = {}
    for name, extra in runs.items():
        done = launch(name, extra)
        if done.returncode != 0:
            print("%s: the application failed (%d):\n%s%s" %
                  (name, done.returncode, done.stdout, done.stderr))
            return False, 1
        outputs[name] = tuple(lines(done.stdout))
        print("%s: %s" % (name, "; ".join(outputs[name])))
    if len(set(outputs.values())) != 1:
        print("the outputs differ")
        return True, 1
    return True, 0


def events(path):
    """(event, file path or "") for every event line of a .pfw, the path
    from the FH lines before it."""
    names = {}
    with open(path) as f:
        for line in f:
            line = line.strip().rstrip(",")
            if not line.startswith("{"):
                continue
            event = json.loads(line)
            args = event.get("args", {})
            if event.get("name") == "FH":
                names[args["value"]] = args["name"]
                continue
            yield event, names.get(args.get("fhash"), "")


def check_all(checker, traces):
    """dftracer-check on each trace: 0 when all pass, else 1 (said)."""
    failed = 0
    for path in traces:
        check = subprocess.run([checker, path], stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
        if check.returncode != 0:
            print("%s: dftracer-check failed:\n%s" % (path, check.stdout))
            failed = 1
    return failed
