/*===- budget.h - The trace never breaks the program ----------------------===*
 *
 * Tracing stops, and the program goes on, when
 *  - size_limit: the trace would grow past DFTRACER_MAX_TRACE_SIZE bytes
 *    (K, M, G suffixes; 0 means no limit). Unset, the limit is a quarter
 *    of the space free to the process on the trace's file system when the
 *    file is created, shared by the ranks of the node when an MPI launcher
 *    says how many there are (MPI_LOCALNRANKS, OMPI_COMM_WORLD_LOCAL_SIZE):
 *    the trace leaves the program and its neighbours at least three
 *    quarters of what was free.
 *  - write_error: a write of the trace fails (ENOSPC, EIO, ...), on the
 *    writer thread or on a traced thread that writes itself; or the file
 *    cannot be created.
 * From then on every span and I/O event that ends is only counted, per
 * name (throttle.h), and stderr says so once. At the end the counts go out
 * as `throttled` lines with that reason, followed by one `trace_stopped`
 * line (docs/trace-format.md); after a write error they are attempted once
 * (the failed line is cut off first, so the file ends on a whole line) and
 * stderr is the only report if that fails too.
 *
 * The check is made where bytes leave a thread (a 64 KiB buffer handed
 * over, lines output under the lock), on the bytes handed over so far:
 * for a gzip trace on the compressed bytes written plus those queued. It
 * stops early enough that the lines still in the threads' buffers and the
 * final records fit under the limit: limits below (threads + 2) x 64 KiB
 * plus the records stop tracing at the first hand-over.
 *
 *===----------------------------------------------------------------------===*/
#ifndef DFTRACER_RUNTIME_BUDGET_H
#define DFTRACER_RUNTIME_BUDGET_H

#include "config.h"

#include <stdint.h>

/* 0 while tracing; else why it stopped (DftReasonSizeLimit or
 * DftReasonWriteError, throttle.h). Read on every END. */
extern int dftracer_trace_stopped_ __attribute__((visibility("hidden")));

/* At load, tracing on. */
void dftracer_budget_setup(const struct dftracer_config *Config);

/* The trace file Fd was just created: the default limit, from its file
 * system's free space. Caller holds the process lock. */
void dftracer_budget_opened_locked(int Fd);

/* FileBytes of trace are written or on their way: stop if the limit is
 * near. Caller holds the process lock. */
void dftracer_budget_check_locked(uint64_t FileBytes);

/* The trace could not be written (Err: errno), after Written bytes. Any
 * thread, lock held or not: the writer thread writes without it. */
void dftracer_budget_write_error(int Err, uint64_t Written);

/* The `trace_stopped` line, if tracing stopped. Caller holds the process
 * lock, at the end of the trace, after the `throttled` lines. */
void dftracer_budget_output_locked(int Pid, int Tid);

/* A new trace file (forked child, failed exec): a fresh budget. */
void dftracer_budget_reset(void);

#endif
