/*===- compact_writer.h - Trace lines re-encoded as compact blocks --------===*
 *
 * With DFTRACER_TRACE_FORMAT=compact the traced threads put each span in
 * their buffers as a record of its fields (event_record.h) instead of a
 * .pfw line, and the sink (sink.c) hands the buffers, records and the
 * remaining lines (metadata), to this encoder instead of the file. It
 * writes every span as varint deltas against the same thread's previous
 * span (name, category and arg keys by string index), keeps every other
 * line as its text, and writes zstd-compressed blocks
 * (docs/trace-format.md, "Compact traces").
 *
 * The args stay the text the .pfw line would hold, parsed here by key: so
 * every arg another layer adds is carried without a format change, and a
 * reader that prints a span again with event_format.c gets the line's
 * bytes back (dftracer-convert). dftracer-convert --compact feeds .pfw
 * lines, which the same encoder takes apart with a strict parser; a line
 * it does not recognise is kept as text.
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
/* The .pfw trace's: no file header and no blocks, only the .pfw text of
 * everything fed, span records (event_record.h) as their lines, given to
 * Out at the end of every feed. The traced threads write records in both
 * formats, so a .pfw line is formatted here, on the writer thread, not on
 * the thread that traced it. NULL when memory is exhausted. */
struct dftracer_compact *dftracer_compact_start_lines(dftracer_compact_out Out,
                                                     void *Arg);
/* Lines of .pfw text, in any pieces (a line may end in a later call), and
 * after dftracer_compact_take_records span records between them. */
void dftracer_compact_feed(struct dftracer_compact *C, const char *Data,
                           size_t Len);
/* The runtime's: what is fed holds the threads' span records too
 * (event_record.h). With LinesOut (both formats) the encoder also gives
 * out the .pfw text of everything fed, each record as its line, at the end
 * of every feed. -1 when memory is exhausted. */
int dftracer_compact_take_records(struct dftracer_compact *C,
                                  dftracer_compact_out LinesOut,
                                  void *LinesArg);
/* After a block was lost (a write error): drop the block being filled,
 * whose records may use strings the lost one defined, and keep all that
 * follows as text, which refers to nothing (the last lines). */
void dftracer_compact_text_only(struct dftracer_compact *C);
/* After a write error (.pfw from records): forget a record or line cut
 * between the pieces fed before it, whose rest will never come; the last
 * lines then start afresh. */
void dftracer_compact_drop_partial(struct dftracer_compact *C);
/* Raw bytes encoded so far (the budget's ratio, writer.c). */
uint64_t dftracer_compact_consumed(const struct dftracer_compact *C);
/* Write the last block and free the encoder. */
void dftracer_compact_finish(struct dftracer_compact *C);
/* In a forked child: drop the parent's encoder without writing. */
void dftracer_compact_abandon(struct dftracer_compact *C);

#endif
