/*===- span_close.h - The usual END, in a few dozen instructions ---------===*
 *
 * What most ENDs are (issue 40): the innermost open span of its own
 * thread, no UPDATE args, tracing on and not stopped, its name in the
 * thread's cache and room in the buffer. Such an END costs the record's
 * fixed words (event_record.h), the name's cached text copied as whole
 * vectors, the I/O args as the wrapper gave them, and the pop: no call but
 * the clock's, no lock, no atomic read-modify-write. The record is the
 * one the general path (tracer.c's closeSpanWith) writes, which takes
 * every other END; the writer thread formats or encodes it.
 *
 * Inline, for tracer.c's END and io_core.c's I/O event alike: the caller
 * is busy (busy.h) from before dftracer_fast_entry until after
 * dftracer_fast_close, so that a signal handler's event cannot take the
 * room the test found.
 *
 *===----------------------------------------------------------------------===*/
#ifndef DFTRACER_RUNTIME_SPAN_CLOSE_H
#define DFTRACER_RUNTIME_SPAN_CLOSE_H

#include <dftracer/dftracer.h>

#include "budget.h"
#include "event_record.h"
#include "internal.h"
#include "thread_state.h"
#include "throttle.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The thread's name cache slot for Name (thread_state.h). */
static inline struct dftracer_name_entry *
dftracer_name_slot(struct dftracer_thread *T, const char *Name) {
  uintptr_t Key = (uintptr_t)Name;
  return &T->Names[((Key >> 3) ^ (Key >> 11)) % DftNameCacheSlots];
}

/* A name's text no longer than this is copied as this many whole bytes
 * (the cache's entries are longer, and dftracer_fast_entry finds the room
 * in the buffer): a few vector moves, not a call to memcpy. */
enum { DftFastNameBytes = 64 };

/* S's cached name when the fast END can write it with NIo I/O args
 * (event_record.h's count, fhash included), else NULL: then the general
 * path. */
static inline __attribute__((always_inline)) const struct dftracer_name_entry *
dftracer_fast_entry(struct dftracer_thread *T, const struct dftracer_span *S,
                    uint32_t NIo) {
  const struct dftracer_name_entry *E = dftracer_name_slot(T, S->Name);
  if (DFT_UNLIKELY(
          T->Top != S || S->Closed || S->ArgsLen ||
          !__atomic_load_n(&dftracer_active, __ATOMIC_RELAXED) ||
          __atomic_load_n(&dftracer_trace_stopped_, __ATOMIC_RELAXED) ||
          E->Name != S->Name || E->Cat != S->Cat ||
          E->Len > DftFastNameBytes ||
          T->Len + sizeof(struct dftracer_span_record) + DftFastNameBytes +
                  NIo * sizeof(struct dftracer_io_arg) >
              T->Cap))
    return NULL;
  return E;
}

/* Store V's bytes at Out + Off (the record is not aligned). */
#define DFT_PUT_FIELD(Out, Type, Field, V)                                     \
  do {                                                                         \
    __typeof__(((Type *)0)->Field) DftV_ = (V);                                \
    memcpy((Out) + offsetof(Type, Field), &DftV_, sizeof(DftV_));              \
  } while (0)

/* The fast END of S, the top of T's stack, as dftracer_fast_entry allowed
 * (E), at EndUs, with Io's args (NULL: none): its record written (the one
 * writeRecord writes), S closed and popped. The caller releases S to the
 * pool when no handle reaches it any more. */
static inline __attribute__((always_inline)) void
dftracer_fast_close(struct dftracer_thread *T, struct dftracer_span *S,
                    const struct dftracer_name_entry *E, uint64_t EndUs,
                    const struct dftracer_record_io_args *Io, uint32_t NIo) {
  typedef struct dftracer_span_record R;
  uint64_t Dur = EndUs >= S->StartUs ? EndUs - S->StartUs : 0;
  size_t NameLen = E->Len;
  char *Out = T->Buf + T->Len, *After;
  const uint8_t Head[4] = {DftRecordMarker, 0, 0, 0}; /* Marker, Pad */
  if (S->Func) /* 0: an I/O call's, never throttled nor counted */
    dftracer_fn_written(T->Stats, S->Func, Dur);
  memcpy(Out, Head, sizeof(Head));
  DFT_PUT_FIELD(Out, R, Len,
                (uint32_t)(sizeof(R) + NameLen +
                           NIo * sizeof(struct dftracer_io_arg)));
  DFT_PUT_FIELD(Out, R, Pid, dftracer_process_.Pid);
  DFT_PUT_FIELD(Out, R, Tid, T->Tid);
  DFT_PUT_FIELD(Out, R, Level, S->Level);
  DFT_PUT_FIELD(Out, R, NameCatLen, (uint32_t)NameLen);
  DFT_PUT_FIELD(Out, R, ArgsLen, 0);
  DFT_PUT_FIELD(Out, R, NIoArgs, NIo);
  DFT_PUT_FIELD(Out, R, Id, S->Id);
  DFT_PUT_FIELD(Out, R, ParentId, S->ParentId);
  DFT_PUT_FIELD(Out, R, Ts, S->StartUs);
  DFT_PUT_FIELD(Out, R, Dur, Dur);
  DFT_PUT_FIELD(Out, R, Name, S->Name);
  DFT_PUT_FIELD(Out, R, Cat, S->Cat);
  memcpy(Out + sizeof(R), E->Text, DftFastNameBytes);
  After = Out + sizeof(R) + NameLen;
  if (Io)
    After = dftracer_put_record_io_args(After, Io);
  dftracer_thread_commit(T, After);
  S->Closed = S->Popped = 1;
  T->Top = S->Parent;
}

#endif
