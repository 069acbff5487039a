"""What the Python-workload tests (pool_terminate.py, torch_dataloader.py,
h5py_mpi.py) share: the events of a .pfw with the path of each event's
file, and dftracer-check over the traces."""
import json
import subprocess


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
