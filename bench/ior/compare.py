#!/usr/bin/env python3
"""One IOR case of bench/ior/run.sh, side by side: Darshan, this analyzer,
strace.

    compare.py RUN_DIR DATA_DIR TITLE      # a markdown table per file

RUN_DIR holds darshan.txt (`darshan-parser --all`), analyze.json
(`dftracer-analyze --json --all-files`), strace-darshan.json and
strace-traced.json (strace_access.py of each run). Rows are the files under
DATA_DIR (IOR's), named relative to it. strace's sequential and consecutive
counts are given with both definitions, "ours / Darshan's" (see
strace_access.py): each tool is right when it equals its own. A cell is "-"
where a tool has no such figure.
"""
import collections
import json
import os
import sys


def darshan_records(path):
    """{(module, rank, file): {counter: value}} from darshan-parser --all."""
    recs = collections.defaultdict(dict)
    with open(path) as fh:
        for line in fh:
            if line.startswith('#') or '\t' not in line:
                continue
            p = line.rstrip('\n').split('\t')
            if len(p) < 6:
                continue
            mod, rank, _, counter, value, name = p[:6]
            try:
                v = float(value) if '.' in value else int(value)
            except ValueError:
                v = value
            recs[(mod, int(rank), name)][counter] = v
    return recs


def fmt(v):
    if v is None:
        return '-'
    if isinstance(v, float):
        return '%.6g' % v
    if isinstance(v, list):
        if v and not isinstance(v[0], list):
            return ', '.join(str(x) for x in v)
        return ', '.join('%s x %s' % (a, b) for a, b in v) or 'none'
    return str(v)


def common(rec, prefix, key):
    """Darshan's ACCESSn/STRIDEn pairs with a count, most common first."""
    out = []
    for i in range(1, 5):
        n = rec.get('%s%d_COUNT' % (prefix, i), 0)
        if n:
            out.append([rec.get('%s%d_%s' % (prefix, i, key)), n])
    return out


def posix_rows(d, o, s1, s2, dranks):
    """Rows for the POSIX layer of one file: (figure, darshan, ours,
    strace of the Darshan run, strace of the traced run)."""
    a = (o or {}).get('access_by_layer', {}).get('POSIX', {})
    rk = (o or {}).get('ranks', {})
    g = lambda k: d.get(k) if d else None
    st = lambda s, k: (s or {}).get(k, 0) if s is not None else None
    opens = lambda s: None if s is None else '%d (+%d)' % (s.get('opens', 0), s.get('failed_opens', 0))
    both = lambda s, k: None if s is None else '%d / %d' % (s.get(k, 0), s.get('darshan_' + k, 0))
    rows = [
        ('processes (ranks)', dranks, rk.get('count'), st(s1, 'processes'), st(s2, 'processes')),
        ('opens (+ failed)', g('POSIX_OPENS'), (o or {}).get('layers', {}).get('POSIX') and o.get('opens'), opens(s1), opens(s2)),
        ('reads', g('POSIX_READS'), a.get('reads'), st(s1, 'reads'), st(s2, 'reads')),
        ('writes', g('POSIX_WRITES'), a.get('writes'), st(s1, 'writes'), st(s2, 'writes')),
        ('bytes read', g('POSIX_BYTES_READ'), (o or {}).get('layers', {}).get('POSIX', {}).get('bytes_read'), st(s1, 'bytes_read'), st(s2, 'bytes_read')),
        ('bytes written', g('POSIX_BYTES_WRITTEN'), (o or {}).get('layers', {}).get('POSIX', {}).get('bytes_written'), st(s1, 'bytes_written'), st(s2, 'bytes_written')),
        ('seq reads', g('POSIX_SEQ_READS'), a.get('seq_reads'), both(s1, 'seq_reads'), both(s2, 'seq_reads')),
        ('seq writes', g('POSIX_SEQ_WRITES'), a.get('seq_writes'), both(s1, 'seq_writes'), both(s2, 'seq_writes')),
        ('consec reads', g('POSIX_CONSEC_READS'), a.get('consec_reads'), both(s1, 'consec_reads'), both(s2, 'consec_reads')),
        ('consec writes', g('POSIX_CONSEC_WRITES'), a.get('consec_writes'), both(s1, 'consec_writes'), both(s2, 'consec_writes')),
        ('rw switches', g('POSIX_RW_SWITCHES'), a.get('rw_switches'), st(s1, 'rw_switches'), st(s2, 'rw_switches')),
        ('common access sizes', common(d, 'POSIX_ACCESS', 'ACCESS') if d else None, a.get('common_access'), (s1 or {}).get('common_access'), (s2 or {}).get('common_access')),
        ('strides', common(d, 'POSIX_STRIDE', 'STRIDE') if d else None, a.get('strides'), None, None),
        ('file alignment (unit)', g('POSIX_FILE_ALIGNMENT'), a.get('alignment'), 4096, 4096),
        ('file not aligned', g('POSIX_FILE_NOT_ALIGNED'), a.get('not_aligned'), st(s1, 'not_aligned_4096'), st(s2, 'not_aligned_4096')),
        ('memory alignment (unit) / not aligned', None if not d else '%s / %s' % (g('POSIX_MEM_ALIGNMENT'), g('POSIX_MEM_NOT_ALIGNED')), None, None, None),
        ('max byte read', g('POSIX_MAX_BYTE_READ'), a.get('max_byte_read'), None, None),
        ('max byte written', g('POSIX_MAX_BYTE_WRITTEN'), a.get('max_byte_written'), None, None),
    ]
    if rk:
        # Darshan fills the rank figures in only for a shared record (-1).
        shared = d is not None and dranks.startswith('all')
        fr = sr = None
        if d:
            fr = 'rank %s, %s B, %.6f s' % (g('POSIX_FASTEST_RANK'), g('POSIX_FASTEST_RANK_BYTES'), g('POSIX_F_FASTEST_RANK_TIME') or 0)
            sr = 'rank %s, %s B, %.6f s' % (g('POSIX_SLOWEST_RANK'), g('POSIX_SLOWEST_RANK_BYTES'), g('POSIX_F_SLOWEST_RANK_TIME') or 0)
        if not shared:
            fr = sr = None
        rows.append(('fastest rank', fr, 'rank %s, %.6f s' % (rk['fastest']['rank'], rk['fastest']['time_us'] / 1e6), None, None))
        rows.append(('slowest rank', sr, 'rank %s, %.6f s' % (rk['slowest']['rank'], rk['slowest']['time_us'] / 1e6), None, None))
        rows.append(('rank bytes: fewest / most', None, '%s / %s' % (rk['fewest_bytes']['bytes'], rk['most_bytes']['bytes']), fmt((s1 or {}).get('bytes_by_process')), fmt((s2 or {}).get('bytes_by_process'))))
        rows.append(('variance of rank bytes', g('POSIX_F_VARIANCE_RANK_BYTES') if shared else None, rk.get('bytes_variance'), None, None))
    return rows


def mpiio_rows(d, o):
    m = (o or {}).get('layers', {}).get('MPIIO', {}).get('mpiio', {})
    ops = lambda k: m.get(k, {}).get('ops', 0) if m else None
    g = lambda k: d.get(k) if d else None
    return [
        ('MPI-IO opens: indep / coll', None if not d else '%s / %s' % (g('MPIIO_INDEP_OPENS'), g('MPIIO_COLL_OPENS')), None if not m else 'opens %s' % m.get('opens'), None, None),
        ('MPI-IO independent reads + writes', None if not d else (g('MPIIO_INDEP_READS') or 0) + (g('MPIIO_INDEP_WRITES') or 0), ops('independent'), None, None),
        ('MPI-IO collective reads + writes', None if not d else (g('MPIIO_COLL_READS') or 0) + (g('MPIIO_COLL_WRITES') or 0), ops('collective'), None, None),
        ('MPI-IO kinds (ours)', None, None if not m else ', '.join('%s %s' % (k, v['ops']) for k, v in sorted(m.items()) if isinstance(v, dict)), None, None),
        ('MPI-IO bytes read / written', None if not d else '%s / %s' % (g('MPIIO_BYTES_READ'), g('MPIIO_BYTES_WRITTEN')), None if not o else '%s / %s' % (o['layers'].get('MPIIO', {}).get('bytes_read'), o['layers'].get('MPIIO', {}).get('bytes_written')), None, None),
        ('MPI-IO views, hints', None if not d else 'views %s, hints %s' % (g('MPIIO_VIEWS'), g('MPIIO_HINTS')), None if not o or 'mpiio' not in o else 'views %s, hints %d keys' % (sum(v['calls'] for v in o['mpiio'].get('views', [])), len(o['mpiio'].get('hints', {}))), None, None),
    ]


def table(title, rows):
    out = ['', '**%s**' % title, '',
           '| figure | Darshan | annotate | strace (Darshan run) | strace (traced run) |',
           '|---|---|---|---|---|']
    for r in rows:
        out.append('| ' + ' | '.join(fmt(x) for x in r) + ' |')
    return out


def main():
    run, data, title = sys.argv[1], sys.argv[2].rstrip('/') + '/', sys.argv[3]
    recs = darshan_records(os.path.join(run, 'darshan.txt'))
    ana = json.load(open(os.path.join(run, 'analyze.json')))
    s1 = json.load(open(os.path.join(run, 'strace-darshan.json')))
    s2 = json.load(open(os.path.join(run, 'strace-traced.json')))
    ours = {f['path']: f for f in ana.get('files_all', []) if f['path'].startswith(data)}
    names = sorted(set(n for (m, _, n) in recs if n.startswith(data) and m not in ('H5F', 'H5D')) | set(ours) | set(s1) | set(s2))
    lines = ['### ' + title]
    for n in names:
        by_mod = {}
        for (mod, rank, name), c in recs.items():
            if name == n:
                by_mod[mod] = (rank, c)
        rel = n[len(data):]
        dr = by_mod.get('POSIX')
        dranks = None if not dr else ('all (shared record, rank -1)' if dr[0] == -1 else 'rank %d' % dr[0])
        rows = posix_rows(dr[1] if dr else None, ours.get(n), s1.get(n), s2.get(n), dranks)
        if 'MPI-IO' in by_mod or 'MPIIO' in (ours.get(n) or {}).get('layers', {}):
            rows += mpiio_rows(by_mod.get('MPI-IO', (0, None))[1], ours.get(n))
        lines += table(rel, rows)
    # HDF5: Darshan's H5F/H5D records against the analyzer's datasets.
    h5 = [(k, c) for k, c in recs.items() if k[0] in ('H5F', 'H5D')]
    if h5 or ana.get('datasets'):
        lines += ['', '**HDF5**', '', '| record | Darshan | annotate |', '|---|---|---|']
        for (mod, rank, name), c in sorted(h5):
            if mod == 'H5F':
                lines.append('| H5F %s (rank %d) | opens %s, flushes %s, use MPI-IO %s | - |' % (name[len(data):] if name.startswith(data) else name, rank, c.get('H5F_OPENS'), c.get('H5F_FLUSHES'), c.get('H5F_USE_MPIIO')))
            else:
                lines.append('| H5D %s (rank %d) | opens %s, reads %s, writes %s, bytes r/w %s / %s, collective %s, access %s | - |' % (name[len(data):] if name.startswith(data) else name, rank, c.get('H5D_OPENS'), c.get('H5D_READS'), c.get('H5D_WRITES'), c.get('H5D_BYTES_READ'), c.get('H5D_BYTES_WRITTEN'), c.get('H5D_USE_MPIIO_COLLECTIVE'), fmt(common(c, 'H5D_ACCESS', 'ACCESS'))))
        for ds in ana.get('datasets', []):
            f = ds['file'][len(data):] if ds['file'].startswith(data) else ds['file']
            lines.append('| dataset %s:%s | - | records %s, reads %s, writes %s, bytes r/w %s / %s, collective %s, independent %s, sizes %s |' % (f, ds['dset'], ds['records'], ds['reads']['ops'], ds['writes']['ops'], ds['reads']['bytes'], ds['writes']['bytes'], ds['collective'], ds['independent'], fmt(ds.get('transfer_sizes'))))
    print('\n'.join(lines))


if __name__ == '__main__':
    main()
