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
 * dftracer_fast_close (or dftracer_fast_done, when the caller stores the
 * args itself: io_core.c's data calls), so that a signal handler's event
 * cannot take the room the test found.
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
  /* Index ((Key >> 3) ^ (Key >> 11)) % DftNameCacheSlots, computed as
   * its byte offset (entries are 256 bytes): fewer instructions on every
   * START (issue 40). */
  uintptr_t Key = (uintptr_t)Name;
  uintptr_t Off = ((Key ^ (Key >> 8)) << 5) & ((DftNameCacheSlots - 1) << 8);
  return (struct dftracer_name_entry *)((char *)T->Names + Off);
}

/* The slot of no name (Name NULL, which no span has): what a span that
 * must not take the fast END points at (dftracer_fast_entry). */
extern const struct dftracer_name_entry dftracer_no_name_slot_
    __attribute__((visibility("hidden")));

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
  /* A span with UPDATE args, or closed by FINI while still on the stack,
   * has the empty slot (dftracer_no_name_slot_), whose Name matches none:
   * the name test below sends it to the general path, with no test of its
   * own. */
  const struct dftracer_name_entry *E = S->Slot;
  if (DFT_UNLIKELY(
          T->Top != S ||
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

/* S's duration when it ends at EndUs. */
static inline uint64_t dftracer_span_dur(const struct dftracer_span *S,
                                         uint64_t EndUs) {
  return EndUs >= S->StartUs ? EndUs - S->StartUs : 0;
}

/* The fast END of S, the top of T's stack, as dftracer_fast_entry allowed
 * (E), of duration Dur (dftracer_span_dur), with NIo I/O args: the
 * record's fixed words and name written (those writeRecord writes);
 * returns where its NIo args go, which the caller stores before
 * dftracer_fast_done. */
static inline __attribute__((always_inline)) char *
dftracer_fast_head(struct dftracer_thread *T, struct dftracer_span *S,
                   const struct dftracer_name_entry *E, uint64_t Dur,
                   uint32_t NIo) {
  typedef struct dftracer_span_record R;
  size_t NameLen = E->Len;
  char *Out = T->Buf + T->Len;
  const uint8_t Head[4] = {DftRecordMarker, 0, 0, 0}; /* Marker, Pad */
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
  return Out + sizeof(R) + NameLen;
}

/* The record dftracer_fast_head began, its args stored up to After:
 * published, S closed and popped, and its call counted (last, so that the
 * throttle's judging, a call, comes when nothing else is left to do: fewer
 * registers live across it). */
static inline __attribute__((always_inline)) void
dftracer_fast_done(struct dftracer_thread *T, struct dftracer_span *S,
                   char *After, uint64_t Dur) {
  uint32_t Func = S->Func;
  dftracer_thread_commit(T, After);
  S->Closed = S->Popped = 1;
  T->Top = S->Parent;
  if (Func) /* 0: an I/O call's, never throttled nor counted */
    dftracer_fn_written(T->Stats, Func, Dur);
}

/* The fast END of S as above, with Io's args (NULL: none; NIo their
 * count, dftracer_record_io_count). The caller releases S to the pool
 * when no handle reaches it any more. */
static inline __attribute__((always_inline)) void
dftracer_fast_close(struct dftracer_thread *T, struct dftracer_span *S,
                    const struct dftracer_name_entry *E, uint64_t EndUs,
                    const struct dftracer_record_io_args *Io, uint32_t NIo) {
  uint64_t Dur = dftracer_span_dur(S, EndUs);
  char *After = dftracer_fast_head(T, S, E, Dur, NIo);
  if (Io)
    After = dftracer_put_record_io_args(After, Io);
  dftracer_fast_done(T, S, After, Dur);
}

#endif
