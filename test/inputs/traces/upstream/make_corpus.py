#!/usr/bin/env python3
"""Writes the upstream-shaped traces of this directory (README.md).

Not run by the tests: the traces are committed, and their expected analyses
(*.expected.json) were written by hand from the program below, not from this
script or the tools. It models how upstream DFTracer's logger numbers and
writes events, as read in its source (docs/trace-format.md, "Upstream
DFTracer"): v1.0.8 (LLNL/dftracer src/dftracer/df_logger.h and
writer/chrome_writer.cpp), v2 (hex hhash, no closing "]", aggregates as "C")
and the development line (llnl-asr/dftracer serialization/json_line.cpp and
docs/trace_format.rst: NDJSON, integer "ph" and "type").

The program, the same in every file (times in us after T0):
  main [10, 10000)
    write_phase [20, 5000)
      open64 /data/out.bin @30 +12
      write_header [50, 80)   pwrite64 @55 +20  64 bytes
      write_header [90, 120)  pwrite64 @95 +20  64 bytes
      pwrite64 @200 +3000 1048576 bytes;  pwrite64 @3300 +500 65536 bytes
      close @4000 +5
    read_phase [5100, 9000)
      open64 /data/out.bin @5110 +10
      pread64 @5200 +400 65536 bytes;  pread64 @5700 +400 65536 bytes
      close @8000 +4
"""
import gzip
import os

HERE = os.path.dirname(os.path.abspath(__file__))
T0 = 1733000000000000
HOST = "node01"
HHASH = 12345678901234567890  # above 2^63, as upstream's 64-bit hashes
HHEX = "ab54a98ceb1f0ad2"
FILEHASH = 17293822569102704642  # /data/out.bin, above 2^63
FHEX = "f000000000000002"


class V1:
    """Upstream v1's DFTLogger: one process-wide index and stack."""

    def __init__(self, pid, meta, hexhash=False, t0=T0):
        self.pid, self.tid, self.meta, self.hex, self.t0 = pid, pid, meta, hexhash, t0
        self.index = 0
        self.stack = []
        self.lines = []
        self.known = {}
        self.mpi_done = False
        self.mpi = False

    def hh(self):
        return '"%s"' % HHEX if self.hex else str(HHASH)

    def enter(self):
        self.index += 1
        self.stack.append(self.index)
        return self.index

    def exit(self):
        self.stack.pop()

    def parent(self):
        return self.stack[-2] if len(self.stack) > 1 else -1

    def metadata(self, name, key, value, quoted=True):
        idx = self.enter()
        v = '"%s"' % value if quoted else value
        self.lines.append(
            '{"id":%d,"name":"%s","cat":"dftracer","pid":%d,"tid":%d,"ph":"M",'
            '"args":{"hhash":%s,"name":"%s","value":%s}}'
            % (idx, name, self.pid, self.tid, self.hh(), key, v))
        self.exit()

    def hash_and_store(self, s, kind, value):
        if s in self.known:
            return
        self.known[s] = value
        self.metadata(kind, s, value, quoted=self.hex)

    def handle_mpi(self):
        if self.mpi and not self.mpi_done:
            self.mpi_done = True
            self.metadata("PR", "rank", str(self.pid - 4242))
            self.metadata("process_name", "Rank %d" % (self.pid - 4242),
                          "process_name")

    def log(self, name, cat, ts, dur, args):
        local = self.index
        if args is not None:
            args = dict(args)
            args["level"] = len(self.stack)
            args["p_idx"] = self.parent()
        self.handle_mpi()
        idx = self.stack[-1] if self.meta else local
        line = ('{"id":%d,"name":"%s","cat":"%s","pid":%d,"tid":%d,"ts":%d,'
                '"dur":%d,"ph":"X"' % (idx, name, cat, self.pid, self.tid,
                                        self.t0 + ts, dur))
        if self.meta and args is not None:
            body = ",".join('"%s":%s' % (k, v) for k, v in args.items())
            line += ',"args":{"hhash":%s,%s}}' % (self.hh(), body)
        else:
            line += "}"
        self.lines.append(line)

    # --- what the program does -----------------------------------------
    def init(self):
        self.hash_and_store(HOST, "HH", HHEX if self.hex else str(HHASH))
        self.metadata("thread_name", str(self.pid), "thread_name")
        meta = None
        if self.meta:
            self.hash_and_store("./kernel --n 4", "SH", "11" if not self.hex else "b")
            self.hash_and_store("kernel", "SH", "12" if not self.hex else "c")
            meta = {"version": '"1.0.8"', "exec_hash": "12", "cmd_hash": "11",
                    "date": '"Sun Dec  1 00:00:00 2024"', "ppid": "4000"}
        self.enter()
        self.log("start", "dftracer", 0, 0, meta)
        self.exit()

    def fini(self):
        meta = {"num_events": str(self.index)}
        self.enter()
        self.log("end", "dftracer", 10100, 0, meta)
        self.exit()

    def region(self, name, t0, t1, body):
        self.enter()
        body()
        self.log(name, "C_APP", t0, t1 - t0, {} if self.meta else None)
        self.exit()

    def io(self, name, ts, dur, args, path=None):
        fh = FHEX if self.hex else str(FILEHASH)
        if path is not None:
            self.hash_and_store(path, "FH", fh)
        meta = None
        if self.meta:
            meta = {"fhash": '"%s"' % fh if self.hex else fh}
            meta.update(args)
        self.enter()
        self.log(name, "POSIX", ts, dur, meta)
        self.exit()

    def aggregate(self, name, ts, cnt, fields):  # v2: written as "C"
        body = ",".join('"%s":%s' % kv for kv in fields)
        self.lines.append(
            '{"name":"%s","cat":"POSIX","pid":%d,"tid":%d,"ts":%d,'
            '"ph":"C","args":{"hhash":%s,"dft_cnt":%d,%s}}'
            % (name, self.pid, self.tid, self.t0 + ts, self.hh(), cnt, body))


def program(L, stop_after=None, aggregate_headers=False, exit_inside=False):
    """Runs the program on logger L; stop_after: kill after N lines."""
    def header(t0, t1, ts):
        def body():
            if not aggregate_headers:
                L.io("pwrite64", ts, 20, {"fd": 3, "count": 64,
                                          "offset": 0, "ret": 64})
        L.region("write_header", t0, t1, body)

    def write_phase():
        L.io("open64", 30, 12, {"flags": 577, "mode": 420, "ret": 3},
             path="/data/out.bin")
        header(50, 80, 55)
        header(90, 120, 95)
        L.io("pwrite64", 200, 3000, {"fd": 3, "count": 1048576,
                                     "offset": 128, "ret": 1048576})
        L.io("pwrite64", 3300, 500, {"fd": 3, "count": 65536,
                                     "offset": 1048704, "ret": 65536})
        L.io("close", 4000, 5, {"fd": 3, "ret": 0})

    def read_phase():
        L.io("open64", 5110, 10, {"flags": 0, "ret": 3}, path="/data/out.bin")
        L.io("pread64", 5200, 400, {"fd": 3, "count": 65536, "offset": 0,
                                    "ret": 65536})
        L.io("pread64", 5700, 400, {"fd": 3, "count": 65536,
                                    "offset": 65536, "ret": 65536})
        L.io("close", 8000, 4, {"fd": 3, "ret": 0})
        if exit_inside:
            raise SystemExit  # exit() here: read_phase and main never end

    def main():
        L.mpi = True  # MPI_Init: rank metadata at the next log
        L.region("write_phase", 20, 5000, write_phase)
        L.region("read_phase", 5100, 9000, read_phase)

    L.init()
    try:
        L.region("main", 10, 10000, main)
    except SystemExit:
        L.stack = L.stack[:0]
    if aggregate_headers:
        L.aggregate("pwrite64", 0, 2, [("fd", 3), ("count", 64), ("offset", 0),
                                       ("ret_min", 64), ("ret_max", 64),
                                       ("ret_sum", 128), ("dur_min", 20),
                                       ("dur_max", 20), ("dur_sum", 40)])
    L.fini()
    return L.lines


def v1_file(lines, closed=True):
    # "  " before the first event, overwritten by "[\n" at finalize; "]"
    # appended without a newline.
    if not closed:
        return "  " + "\n".join(lines) + "\n"
    return "[\n" + "\n".join(lines) + "\n" + ("]" if closed else "")


def write(name, text, gz=False):
    path = os.path.join(HERE, name)
    if gz:
        with open(path, "wb") as f:
            f.write(gzip.compress(text.encode(), mtime=0))
    else:
        with open(path, "w") as f:
            f.write(text)


class Dev:
    """Upstream's development line: NDJSON, integer ph and type, hex hashes,
    no level or p_idx; metadata records have no id."""

    def __init__(self, pid, unit="US", record_unit=True, scale=1, t0=T0):
        self.pid, self.tid = pid, pid
        self.unit, self.record, self.scale, self.t0 = unit, record_unit, scale, t0
        self.index = 0
        self.lines = []
        self.known = set()

    def t(self, us):
        return (self.t0 + us) * self.scale

    def meta(self, name, key, value):
        self.lines.append(
            '{"name":"%s","cat":"dftracer","type":1,"pid":%d,"tid":%d,"ph":4,'
            '"args":{"hhash":"%s","name":"%s","value":"%s"}}'
            % (name, self.pid, self.tid, HHEX, key, value))

    def complete(self, name, cat, typ, ts, dur, args):
        self.index += 1
        body = "".join(',"%s":%s' % kv for kv in args.items())
        self.lines.append(
            '{"id":%d,"name":"%s","cat":"%s","type":%d,"pid":%d,"tid":%d,'
            '"ts":%d,"dur":%d,"ph":1,"args":{"hhash":"%s"%s}}'
            % (self.index, name, cat, typ, self.pid, self.tid, self.t(ts),
               dur * self.scale, HHEX, body))

    def series(self, name, cat, typ, ph, ts, args):
        body = ",".join('"%s":%s' % kv for kv in args)
        self.lines.append(
            '{"name":"%s","cat":"%s","type":%d,"ts":%d,"ph":%d,"pid":%d,'
            '"tid":%d,"args":{"hhash":"%s",%s}}'
            % (name, cat, typ, self.t(ts), ph, self.pid, self.tid, HHEX, body))

    def end(self, ts):
        cfg = ""
        if self.record:
            cfg = (',"cfg":{"enable":1,"metadata":1,"time_metric":"%s",'
                   '"aggregation_enable":0}' % self.unit)
        n = self.index  # the records before "end"
        self.complete("end", "dftracer", 1, ts, 0, {"num_events": n, "_": 0})
        self.lines[-1] = self.lines[-1].replace(
            ',"num_events":%d,"_":0' % n, ',"num_events":%d%s' % (n, cfg))


def dev_program(D, aggregated=False):
    D.meta("HH", HOST, HHEX)
    D.meta("thread_name", str(D.pid), "thread_name")
    D.complete("start", "dftracer", 1, 0, 0, {"ppid": 4000})
    fh = '"%s"' % FHEX
    if not aggregated:
        D.meta("FH", "/data/out.bin", FHEX)
        io = [("open64", 30, 12, {"fhash": fh, "flags": 577, "mode": 420}),
              ("pwrite64", 55, 20, {"fhash": fh, "count": 64, "offset": 0, "ret": 64}),
              ("write_header", 50, 30, None),
              ("pwrite64", 95, 20, {"fhash": fh, "count": 64, "offset": 0, "ret": 64}),
              ("write_header", 90, 30, None),
              ("pwrite64", 200, 3000, {"fhash": fh, "count": 1048576,
                                       "offset": 128, "ret": 1048576}),
              ("pwrite64", 3300, 500, {"fhash": fh, "count": 65536,
                                       "offset": 1048704, "ret": 65536}),
              ("close", 4000, 5, {"fhash": fh, "ret": 0}),
              ("write_phase", 20, 4980, None),
              ("open64", 5110, 10, {"fhash": fh, "flags": 0}),
              ("pread64", 5200, 400, {"fhash": fh, "count": 65536,
                                      "offset": 0, "ret": 65536}),
              ("pread64", 5700, 400, {"fhash": fh, "count": 65536,
                                      "offset": 65536, "ret": 65536}),
              ("close", 8000, 4, {"fhash": fh, "ret": 0}),
              ("read_phase", 5100, 3900, None),
              ("main", 10, 9990, None)]
        for name, ts, dur, args in io:
            if args is None:
                D.complete(name, "C_APP", 2, ts, dur, {})
            else:
                D.complete(name, "POSIX", 3, ts, dur, args)
        D.series("cpu", "sys", 7, 2, 5000, [("user_pct", 12.5), ("idle_pct", 87.5)])
    else:
        recs = [("main", "C_APP", 2, 1, [("dur", 9990)]),
                ("write_phase", "C_APP", 2, 1, [("dur", 4980)]),
                ("write_header", "C_APP", 2, 2, [("dur_min", 30), ("dur_max", 30),
                                                 ("dur_sum", 60)]),
                ("read_phase", "C_APP", 2, 1, [("dur", 3900)]),
                ("open64", "POSIX", 3, 2, [("dur_min", 10), ("dur_max", 12),
                                           ("dur_sum", 22), ("flags_min", 0),
                                           ("flags_max", 577), ("flags_sum", 577)]),
                ("pwrite64", "POSIX", 3, 4, [("dur_min", 20), ("dur_max", 3000),
                                             ("dur_sum", 3540), ("ret_min", 64),
                                             ("ret_max", 1048576),
                                             ("ret_sum", 1114240)]),
                ("close", "POSIX", 3, 2, [("dur_min", 4), ("dur_max", 5),
                                          ("dur_sum", 9), ("ret", 0)]),
                ("pread64", "POSIX", 3, 2, [("dur_min", 400), ("dur_max", 400),
                                            ("dur_sum", 800), ("ret_min", 65536),
                                            ("ret_max", 65536),
                                            ("ret_sum", 131072)])]
        for name, cat, typ, cnt, fields in recs:
            D.series(name, cat, typ, 3, 0, [("dft_cnt", cnt)] + fields)
    D.end(10100)
    return D.lines


def main():
    full = program(V1(4242, meta=True))
    write("v1_metadata.pfw", v1_file(full))
    write("v1_metadata.pfw.gz", v1_file(full), gz=True)
    # "[" and the first event on one line (a writer that puts no newline
    # after "["), and a file holding "[" only (no event was written).
    write("bracket_inline.pfw", "[" + "\n".join(full) + "\n]")
    write("bracket_only.pfw", "[\n")
    write("v1_default.pfw", v1_file(program(V1(4242, meta=False))))
    other = program(V1(4243, meta=True, t0=T0 + 7))
    # dftracer_merge: "[" from every file dropped, leading spaces too, "]["
    # (one file's "]" and the next one's "[") left as an empty line.
    write("merged.pfw", "[\n" + "\n".join(full) + "\n\n" + "\n".join(other)
          + "\n]\n")
    write("concatenated.pfw", v1_file(full) + v1_file(other))
    write("v2_hex.pfw", v1_file(program(V1(4242, meta=True, hexhash=True),
                                        aggregate_headers=True), closed=True)
          .rstrip("]"))
    killed = program(V1(4242, meta=True))
    cut = killed.index(next(l for l in killed if '"name":"pread64"' in l)) + 1
    write("killed_v1.pfw", v1_file(killed[:cut], closed=False)
          + killed[cut][:57])
    write("exit_inside.pfw", v1_file(program(V1(4242, meta=True),
                                             exit_inside=True)))
    write("dev.pfw", "\n".join(dev_program(Dev(4242))) + "\n")
    write("dev_ns.pfw", "\n".join(dev_program(Dev(4242, unit="NS", scale=1000)))
          + "\n")
    write("dev_ms_unrecorded.pfw",
          "\n".join(dev_program(Dev(4242, record_unit=False,
                                    t0=1733000000000))) + "\n")
    write("dev_aggregated.pfw",
          "\n".join(dev_program(Dev(4242), aggregated=True)) + "\n")


if __name__ == "__main__":
    main()
