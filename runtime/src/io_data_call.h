/*===- io_data_call.h - A read's or write's START and END, inline ----------===*
 *
 * The data calls (read, write, pread, pwrite, fread, fwrite and their
 * forms) are the calls a program makes millions of, so their START and
 * END are inline in each wrapper (issue 40): the span is pushed and the
 * record's fixed words and args are stored straight into the thread's
 * buffer (span_close.h's fast END), and the wrapper's frame is the only
 * one. A START or END that needs any call (a thread's first event, an id
 * block to refill, the general END, a clock read through the kernel or a
 * new anchor) is found before anything changes and done out of line, by
 * dftracer_io_begin_general_ and dftracer_io_end_data_calling_, which
 * write the same span and record. The other wrappers call the same code
 * (dftracer_io_begin_cat, dftracer_io_end_data).
 *
 * Keys and order, for every shape (io_core.h): `fhash`, `fd`, `size`
 * (DftDataStream), `count` (`iovcnt` for DftDataVector), `offset` when
 * known or always for DftDataAt, `append` 1 when Append, `ret`,
 * `mem_align` when the buffer is not aligned.
 *
 *===----------------------------------------------------------------------===*/
#ifndef DFTRACER_RUNTIME_IO_DATA_CALL_H
#define DFTRACER_RUNTIME_IO_DATA_CALL_H

#include "busy.h"
#include "clock.h"
#include "fd_classify.h"
#include "io_core.h"
#include "span_close.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The general START (io_core.c): a thread's first call, an id block to
 * refill, a clock read that needs a call (no TSC, or its anchor to renew).
 * Nothing here sets errno once the thread has its state. */
int dftracer_io_begin_general_(struct dftracer_io_call *C, const char *Cat,
                               const char *Name, uint64_t Fhash) DFT_HIDDEN;

/* The usual START calls nothing: anything that would (the general START's
 * cases) is found before the thread's state changes and handed over. The
 * clock is read while busy: a signal handler's call after this nests under
 * a span whose start is set. */
static inline __attribute__((always_inline)) int
dftracer_io_begin_fast(struct dftracer_io_call *C, const char *Cat,
                       const char *Name, uint64_t Fhash) {
  struct dftracer_thread *T = dftracer_thread_peek();
  uint64_t Us;
  int Busy;
  if (DFT_UNLIKELY(!T) || DFT_UNLIKELY(T->NextId == T->IdLimit))
    return dftracer_io_begin_general_(C, Cat, Name, Fhash);
  Busy = dftracer_busy_enter();
  if (DFT_UNLIKELY(!dftracer_now_us_nocall(&T->Clock, &Us))) {
    dftracer_busy_leave(Busy);
    return dftracer_io_begin_general_(C, Cat, Name, Fhash);
  }
  dftracer_thread_push_span_id(T, &C->Span, T->NextId++, Name, Cat,
                               dftracer_name_slot(T, Name));
  C->T = T;
  C->Fhash = Fhash;
  C->Span.StartUs = Us;
  dftracer_busy_leave(Busy);
  return 1;
}

/* The whole END of a data call, out of line (io_core.c). */
void dftracer_io_end_data_calling_(struct dftracer_io_call *C, unsigned Shape,
                                   int64_t Fd, int64_t Size, int64_t Count,
                                   int64_t Offset, int Append, int64_t Ret,
                                   uintptr_t BufAddr) DFT_HIDDEN;

/* Arg A stored at Out (unaligned) as its three words, with no copy
 * through the stack; returns its end. */
static inline __attribute__((always_inline)) char *
putArg(char *Out, struct dftracer_io_arg A) {
  memcpy(Out + offsetof(struct dftracer_io_arg, Key), &A.Key, sizeof(A.Key));
  memcpy(Out + offsetof(struct dftracer_io_arg, KeyLen), &A.KeyLen,
         sizeof(A.KeyLen));
  memcpy(Out + offsetof(struct dftracer_io_arg, Value), &A.Value,
         sizeof(A.Value));
  return Out + sizeof(A);
}

/* The count of a data call's args in its record, the fhash included
 * (event_record.h), and the args stored at Out in endDataGeneral's order;
 * returns their end. */
static inline __attribute__((always_inline)) uint32_t
dataArgCount(const struct dftracer_io_call *C, unsigned Shape, int64_t Offset,
             int Append, int64_t MemAlign) {
  return 3u + (C->Fhash != 0) + (Shape == DftDataStream) +
         (Offset >= 0 || Shape == DftDataAt) + (Append != 0) + (MemAlign != 0);
}
static inline __attribute__((always_inline)) char *
putDataArgs(char *Out, const struct dftracer_io_call *C, unsigned Shape,
            int64_t Fd, int64_t Size, int64_t Count, int64_t Offset, int Append,
            int64_t Ret, int64_t MemAlign) {
  if (C->Fhash)
    Out = putArg(Out, (struct dftracer_io_arg){DFT_FHASH_KEY,
                                               sizeof(DFT_FHASH_KEY) - 1,
                                               (int64_t)C->Fhash});
  Out = putArg(Out, (struct dftracer_io_arg)DFT_ARG(fd, Fd));
  if (Shape == DftDataStream)
    Out = putArg(Out, (struct dftracer_io_arg)DFT_ARG(size, Size));
  if (Shape == DftDataVector)
    Out = putArg(Out, (struct dftracer_io_arg)DFT_ARG(iovcnt, Count));
  else
    Out = putArg(Out, (struct dftracer_io_arg)DFT_ARG(count, Count));
  if (Offset >= 0 || Shape == DftDataAt)
    Out = putArg(Out, (struct dftracer_io_arg)DFT_ARG(offset, Offset));
  if (Append)
    Out = putArg(Out, (struct dftracer_io_arg)DFT_ARG(append, 1));
  Out = putArg(Out, (struct dftracer_io_arg)DFT_ARG(ret, Ret));
  if (MemAlign)
    Out = putArg(Out, (struct dftracer_io_arg)DFT_ARG(mem_align, MemAlign));
  return Out;
}

/* The usual END of a data call calls nothing: it is the fast END with a
 * clock read that needs no call (dftracer_now_us_nocall); when either is
 * refused, before anything is written, dftracer_io_end_data_calling_ does
 * the whole END. An I/O span has no function to count (Func 0), so
 * dftracer_fast_done's count is not needed. */
static inline __attribute__((always_inline)) void dftracer_io_end_data_fast(
    struct dftracer_io_call *C, unsigned Shape, int64_t Fd, int64_t Size,
    int64_t Count, int64_t Offset, int Append, int64_t Ret, uintptr_t BufAddr) {
  int Busy = dftracer_busy_enter();
  struct dftracer_thread *T = C->T;
  int64_t MemAlign = dftracer_mem_align(BufAddr);
  uint32_t NIo = dataArgCount(C, Shape, Offset, Append, MemAlign);
  const struct dftracer_name_entry *E = dftracer_fast_entry(T, &C->Span, NIo);
  uint64_t EndUs, Dur;
  char *Out;
  if (DFT_UNLIKELY(!E) ||
      DFT_UNLIKELY(!dftracer_now_us_nocall(&T->Clock, &EndUs))) {
    dftracer_busy_leave(Busy);
    dftracer_io_end_data_calling_(C, Shape, Fd, Size, Count, Offset, Append,
                                  Ret, BufAddr);
    return;
  }
  Dur = dftracer_span_dur(&C->Span, EndUs);
  Out = dftracer_fast_head(T, &C->Span, E, Dur, NIo);
  Out = putDataArgs(Out, C, Shape, Fd, Size, Count, Offset, Append, Ret,
                    MemAlign);
  dftracer_thread_commit(T, Out);
  C->Span.Closed = C->Span.Popped = 1;
  T->Top = C->Span.Parent;
  dftracer_busy_leave(Busy);
}

/* Steps 1 to 3 (io_core.h) of a data call on descriptor Fd of Layer,
 * with the START inline. */
static inline __attribute__((always_inline)) int
dftracer_io_data_begin(struct dftracer_io_call *C, unsigned Layer,
                       const char *Name, int Fd) {
  uint64_t Hash;
  if (DFT_LIKELY(!dftracer_io_on(Layer)))
    return 0;
  Hash = dftracer_fd_hash(Fd);
  return Hash && dftracer_io_begin_fast(C, dftracer_io_category(Layer), Name,
                                        Hash);
}

/* pread, pwrite and their forms: the caller's offset, always present. */
static inline __attribute__((always_inline)) void
dftracer_io_end_at(struct dftracer_io_call *C, int64_t Fd, int64_t Count,
                   int64_t Offset, int64_t Ret, uintptr_t BufAddr) {
  dftracer_io_end_data_fast(C, DftDataAt, Fd, 0, Count, Offset, 0, Ret,
                            BufAddr);
}

/* read, write and their _chk forms: the offset they started at, when
 * known (fd_position.h). */
static inline __attribute__((always_inline)) void
dftracer_io_end_moving(struct dftracer_io_call *C, int64_t Fd, int64_t Count,
                       int64_t Offset, int Append, int64_t Ret,
                       uintptr_t BufAddr) {
  dftracer_io_end_data_fast(C, DftDataPosix, Fd, 0, Count, Offset, Append, Ret,
                            BufAddr);
}

/* fread, fwrite and the stream puts: Count items of Size bytes. */
static inline __attribute__((always_inline)) void
dftracer_io_end_stream(struct dftracer_io_call *C, int64_t Fd, int64_t Size,
                       int64_t Count, int64_t Offset, int Append, int64_t Ret,
                       uintptr_t BufAddr) {
  dftracer_io_end_data_fast(C, DftDataStream, Fd, Size, Count, Offset, Append,
                            Ret, BufAddr);
}

#endif
