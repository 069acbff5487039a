/*===- sink.h - The per-process trace file --------------------------------===*
 *
 * One file per process: `<prefix>-<16 hex>-app.pfw`, or `.pfw.gz` with
 * DFTRACER_TRACE_COMPRESSION=1, or `.pfc` with DFTRACER_TRACE_FORMAT=compact
 * (the threads' span records and lines encoded by compact_writer.h). The hash mixes host name, pid and the wall
 * clock at load, so ranks on different nodes that share a pid, and reruns
 * into the same directory, never collide. The file is created with O_EXCL on
 * first use, on a descriptor above the low ones a program counts on; its
 * first line is "[" (SPEC 5.4).
 *
 * Not thread-safe: one writer at a time (see writer.h).
 *
 *===----------------------------------------------------------------------===*/
#ifndef DFTRACER_RUNTIME_SINK_H
#define DFTRACER_RUNTIME_SINK_H

#include "busy.h"

#include <stddef.h>
#include <stdint.h>

/* The trace file's descriptor, -1 when none is open: set by the sink as it
 * opens and closes the file. */
extern int dftracer_trace_fd_ __attribute__((visibility("hidden")));

/* Is Fd the trace file's, seen from the program (not from the runtime,
 * which closes it)? Programs that close every descriptor at start would
 * otherwise close it (posix.c). */
static inline int dftracer_is_trace_fd(int Fd) {
  return Fd >= 0 &&
         Fd == __atomic_load_n(&dftracer_trace_fd_, __ATOMIC_RELAXED) &&
         !dftracer_io_busy_;
}

struct dftracer_sink {
  int Fd;
  struct dftracer_deflate *Deflate; /* the gzip stream, or NULL (sink.c) */
  struct dftracer_compact *Compact; /* the .pfc encoder, or NULL */
  int Binary;        /* Fd is the .pfc (no lines to cut back to) */
  int CompactFd;     /* the .pfc beside the .pfw (both formats), or -1 */
  int Failed;        /* opening or writing failed: drop everything, warn once */
  int WriteFailed;   /* ... a write, with the file open (budget.h) */
  int Final;         /* the one attempt at the last lines after that */
  uint64_t Written;  /* bytes written to Fd; atomic (the budget reads it) */
  uint64_t LineEnd;  /* of the last whole line (plain) or block (.pfc) */
  uint64_t Consumed; /* bytes given to deflate; atomic, as Written */
  uint64_t Reserved; /* bytes preallocated with fallocate */
  uint64_t Chunk;    /* next preallocation size; 0 = unsupported */
  char Path[4200];
};

void dftracer_sink_reset(struct dftracer_sink *S);
/* 64-bit file-name hash of this process; see above. */
uint64_t dftracer_trace_hash(int Pid, uint64_t WallNs);
/* Create the file if not yet open. Returns 0 when the sink is usable. */
int dftracer_sink_open(struct dftracer_sink *S, const char *Prefix,
                       int Compress, uint64_t Hash);
int dftracer_sink_is_open(const struct dftracer_sink *S);
/* Append bytes; on failure warns once and drops all later writes. */
void dftracer_sink_write(struct dftracer_sink *S, const char *Data, size_t Len);
/* Append Count buffers in order; Iov is consumed (advanced on short
 * writes). */
struct iovec;
void dftracer_sink_writev(struct dftracer_sink *S, struct iovec *Iov,
                          int Count);
void dftracer_sink_close(struct dftracer_sink *S);
/* After a write error, at the end: let the last lines (the counts of what
 * was not written) try once more, on a plain file that the error cut back
 * to its last whole line, or a .pfc cut back to its last whole block (they
 * go in a block of text records). Returns 1 when they will be tried. */
int dftracer_sink_retry_final(struct dftracer_sink *S);
/* In a forked child: forget the parent's file without writing to it. */
void dftracer_sink_abandon(struct dftracer_sink *S);

#endif
