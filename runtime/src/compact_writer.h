/*===- compact_writer.h - Trace lines re-encoded as compact blocks --------===*
 *
 * With DFTRACER_TRACE_FORMAT=compact the sink (sink.c) hands the trace's
 * lines, exactly as they would go to a .pfw file, to this encoder instead of
 * the file. It takes every span line apart (ids, times, name and category,
 * each arg by key), writes it as varint deltas against the same thread's
 * previous span, keeps every other line (metadata) as its text, and writes
 * zstd-compressed blocks (docs/trace-format.md, "Compact traces").
 *
 * Encoding at the sink rather than at END keeps the event path as it is:
 * the threads format .pfw lines, the writer thread re-encodes and
 * compresses them. So every arg another layer adds is carried without a
 * format change, and a reader that prints a span again with
 * event_format.c gets the line's bytes back (dftracer-convert): a line the
 * strict parser does not recognise is kept as text.
 *
 * Never allocates but at dftracer_compact_start (pages, no malloc), so the
 * sink may run it anywhere it runs today: a signal handler's hand-over,
 * _exit.
 *
 *===----------------------------------------------------------------------===*/
#ifndef DFTRACER_RUNTIME_COMPACT_WRITER_H
#define DFTRACER_RUNTIME_COMPACT_WRITER_H

#include <stddef.h>
#include <stdint.h>

struct iovec;
struct dftracer_compact;

/* DFTRACER_TRACE_FORMAT, read when the library loads. */
enum dftracer_trace_format {
  DftFormatPfw = 0,
  DftFormatCompact = 1,
  /* DFTRACER_TEST_BOTH_FORMATS=1 with compact: the .pfw as usual, and the
   * same lines in a .pfc beside it (tests compare the two). */
  DftFormatBoth = 2
};
extern int dftracer_trace_format_;

/* Where the encoder's bytes go; Iov may be consumed. */
typedef void (*dftracer_compact_out)(void *Arg, struct iovec *Iov, int Count);

/* libzstd's functions the encoder calls (no malloc: a static context in
 * pages), and the level; Level 0 (or no functions) stores blocks. */
struct dftracer_compact_zstd {
  size_t (*EstimateCCtx)(int Level);        /* ZSTD_estimateCCtxSize */
  void *(*InitStaticCCtx)(void *, size_t);  /* ZSTD_initStaticCCtx */
  size_t (*CompressCCtx)(void *, void *, size_t, const void *, size_t,
                         int);              /* ZSTD_compressCCtx */
  size_t (*Bound)(size_t);                  /* ZSTD_compressBound */
  unsigned (*IsError)(size_t);              /* ZSTD_isError */
  int Level;
};

/* A new encoder; writes the file header through Out. NULL when memory is
 * exhausted. The runtime's uses the libzstd it loaded (compact_writer.c);
 * _with takes the functions (compact_encoder.c, for tools). */
struct dftracer_compact *dftracer_compact_start(dftracer_compact_out Out,
                                                void *Arg);
struct dftracer_compact *
dftracer_compact_start_with(const struct dftracer_compact_zstd *Zstd,
                            dftracer_compact_out Out, void *Arg);
/* Lines of .pfw text, in any pieces (a line may end in a later call). */
void dftracer_compact_feed(struct dftracer_compact *C, const char *Data,
                           size_t Len);
/* Raw bytes encoded so far (the budget's ratio, writer.c). */
uint64_t dftracer_compact_consumed(const struct dftracer_compact *C);
/* Write the last block and free the encoder. */
void dftracer_compact_finish(struct dftracer_compact *C);
/* In a forked child: drop the parent's encoder without writing. */
void dftracer_compact_abandon(struct dftracer_compact *C);

#endif
