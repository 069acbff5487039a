#!/usr/bin/env python3
"""The referee of bench/ior/run.sh: what `strace -f -y -e trace=desc` saw.

    strace_access.py STRACE_LOG DATA_DIR          # JSON on stdout

Per file under DATA_DIR: opens (and failed opens), reads, writes, bytes, and, from the file
positions strace shows (lseek's result, then each read/write moves it; the
offset argument of pread/pwrite and their v-forms), the access counters with
both definitions, so the two tools can each be checked against the kernel's
view: `ours` (the first call of a process on a file is neither sequential
nor consecutive; docs/analysis.md) and `darshan` (last byte starts at 0, so
a first call at an offset > 0 is sequential, as darshan-posix.c). Also the
common access sizes, the calls whose offset is not a multiple of 4096
(ext4's block size) and the processes (pids) that moved data.

strace numbers pids, not ranks: the per-rank figures of the other tools are
checked through the per-process counts.
"""
import collections
import json
import re
import sys

CALL = re.compile(r'^(\d+)\s+(\w+)\((.*)$')
RESUMED = re.compile(r'^(\d+)\s+<\.\.\. (\w+) resumed>(.*)$')
RET = re.compile(r'\)\s+=\s+(-?\d+)')
FDPATH = re.compile(r'^(\d+)<([^>]*)>')
READS = {'read', 'pread64', 'readv', 'preadv', 'preadv2'}
WRITES = {'write', 'pwrite64', 'writev', 'pwritev', 'pwritev2'}
OPENS = {'open', 'openat', 'creat', 'openat2'}
POSITIONED = {'pread64', 'pwrite64', 'preadv', 'pwritev', 'preadv2', 'pwritev2'}


def calls(lines):
    """(pid, name, args, ret) of each completed call, joining
    '<unfinished ...>' with its '<... resumed>' line."""
    pending = {}
    for line in lines:
        line = line.rstrip('\n')
        m = RESUMED.match(line)
        if m:
            pid, name, rest = m.groups()
            head = pending.pop(pid, None)
            if head is None or head[0] != name:
                continue
            text = head[1] + rest
        else:
            m = CALL.match(line)
            if not m:
                continue
            pid, name, text = m.groups()
            if text.endswith('<unfinished ...>'):
                pending[pid] = (name, text[:-len('<unfinished ...>')])
                continue
        r = RET.search(text)
        if r:
            yield pid, name, text, int(r.group(1))


def split_args(text):
    """Top-level comma-separated arguments of a call's text."""
    depth, cur, out = 0, [], []
    body = text[:text.rfind(')')] if ')' in text else text
    i = 0
    while i < len(body):
        c = body[i]
        if c == '"':
            j = i + 1
            while j < len(body) and body[j] != '"':
                j += 2 if body[j] == '\\' else 1
            cur.append(body[i:j + 1])
            i = j + 1
            continue
        if c in '([{<':
            depth += 1
        elif c in ')]}>':
            depth -= 1
        if c == ',' and depth == 0:
            out.append(''.join(cur).strip())
            cur = []
        else:
            cur.append(c)
        i += 1
    if cur:
        out.append(''.join(cur).strip())
    return out


class Stream:
    """One process's data calls on one file, classified both ways."""

    def __init__(self):
        self.calls = []  # (write?, offset, size)

    def figures(self):
        f = collections.Counter()
        last_end = {False: None, True: None}     # ours: end of previous
        last_byte = {False: 0, True: 0}          # darshan: last byte, from 0
        last_kind = None
        for w, off, size in self.calls:
            k = 'writes' if w else 'reads'
            f[k] += 1
            f['bytes_written' if w else 'bytes_read'] += size
            if last_end[w] is not None:
                if off >= last_end[w]:
                    f['seq_' + k] += 1
                if off == last_end[w]:
                    f['consec_' + k] += 1
            last_end[w] = off + size
            if off > last_byte[w]:
                f['darshan_seq_' + k] += 1
            if off == last_byte[w] + 1:
                f['darshan_consec_' + k] += 1
            last_byte[w] = off + size - 1
            if last_kind is not None and last_kind != w:
                f['rw_switches'] += 1
            last_kind = w
            if off % 4096:
                f['not_aligned_4096'] += 1
        return f


def main():
    log, data = sys.argv[1], sys.argv[2].rstrip('/') + '/'
    pos = {}            # (pid, fd) -> position
    streams = collections.defaultdict(Stream)  # (path, pid)
    opens = collections.Counter()
    failed_opens = collections.Counter()
    sizes = collections.defaultdict(collections.Counter)
    with open(log, errors='replace') as fh:
        for pid, name, text, ret in calls(fh):
            args = split_args(text)
            if name in OPENS:
                m = re.search(r'=\s+(\d+)<([^>]*)>', text)
                if ret >= 0 and m and m.group(2).startswith(data):
                    opens[m.group(2)] += 1
                    pos[(pid, m.group(1))] = 0
                elif ret < 0:  # the path is the call's string argument
                    p = re.search(r'"(%s[^"]*)"' % re.escape(data), text)
                    if p:
                        failed_opens[p.group(1)] += 1
                continue
            if not args:
                continue
            m = FDPATH.match(args[0])
            if not m or not m.group(2).startswith(data):
                continue
            fd, path = m.groups()
            if name in ('lseek', '_llseek') and ret >= 0:
                pos[(pid, fd)] = ret
            elif (name in READS or name in WRITES) and ret >= 0:
                if name in POSITIONED:
                    off = int(args[3])  # pread64(fd, buf, n, off), preadv(fd, iov, n, off)
                else:
                    off = pos.get((pid, fd), 0)
                    pos[(pid, fd)] = off + ret
                streams[(path, pid)].calls.append((name in WRITES, off, ret))
                sizes[path][ret] += 1
    files = {}
    for path in sorted(set(p for p, _ in streams) | set(opens)):
        tot = collections.Counter()
        per_pid = {}
        for (p, pid), s in sorted(streams.items()):
            if p != path:
                continue
            f = s.figures()
            tot.update(f)
            per_pid[pid] = f['bytes_read'] + f['bytes_written']
        common = sorted(sizes[path].items(), key=lambda kv: (-kv[1], kv[0]))[:4]
        files[path] = dict(opens=opens[path], failed_opens=failed_opens[path],
                           processes=len(per_pid),
                           bytes_by_process=sorted(per_pid.values()),
                           common_access=[list(kv) for kv in common],
                           **{k: tot[k] for k in sorted(tot)})
    json.dump(files, sys.stdout, indent=1, sort_keys=True)
    print()


if __name__ == '__main__':
    main()
