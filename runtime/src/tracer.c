/*===- tracer.c - Public API and process lifecycle ------------------------===*
 *
 * Lifecycle (SPEC 5.3):
 *  - load:  the constructor reads the environment. With DFTRACER_ENABLE=1 it
 *           turns tracing on right away, so code that is annotated but never
 *           calls INIT (a library) is still traced, and registers the atexit
 *           flush.
 *  - INIT:  optional; supplies a prefix fallback and a pid override, records
 *           the MPI rank when MPI is up, and guarantees a file even when no
 *           span is written.
 *  - FINI / exit() / exec / _exit(): close the calling thread's open spans,
 *           flush every thread, stop the writer thread (writer.h), close the
 *           file. Whichever comes first wins; the rest do nothing, so FINI
 *           without INIT, FINI twice, or FINI then exit() are all harmless.
 *
 *===----------------------------------------------------------------------===*/
#include <dftracer/dftracer.h>

#include "budget.h"
#include "clock.h"
#include "compact_writer.h"
#include "event_format.h"
#include "event_record.h"
#include "internal.h"
#include "io_core.h"
#include "mpi_rank.h"
#include "open_at_exit.h"
#include "run_config.h"
#include "signals.h"
#include "span_close.h"
#include "startup.h"
#include "thread_state.h"
#include "throttle.h"
#include "untraced.h"
#include "writer.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DFT_API DFTRACER_API

DFT_API int dftracer_active;
const struct dftracer_name_entry dftracer_no_name_slot_;
struct dftracer_process dftracer_process_ = {.Lock = PTHREAD_MUTEX_INITIALIZER};

static int isActive(void) {
  return __atomic_load_n(&dftracer_active, __ATOMIC_RELAXED);
}

/* The thread's name cache slot for Name. */
static inline struct dftracer_name_entry *
nameSlot(struct dftracer_thread *T, const char *Name) {
  return dftracer_name_slot(T, Name);
}

/* The slow half of nameEntry: format and cache, with the name's index. */
static const struct dftracer_name_entry *
fillEntry(struct dftracer_thread *T, struct dftracer_name_entry *E,
          const char *Name, const char *Cat, uint32_t Func) {
  char Scratch[1024];
  size_t NameLen, CatLen, Len;
  NameLen = strlen(Name);
  CatLen = strlen(Cat);
  /* The bound assumes every byte needs \uXXXX; real names rarely need any
   * escape, so format first and cache if the actual text fits. */
  if (dftracer_name_cat_bound(NameLen, CatLen) > sizeof(Scratch))
    return NULL;
  Len = (size_t)(dftracer_format_name_cat(Scratch, Name, NameLen, Cat, CatLen) -
                 Scratch);
  if (Len > sizeof(E->Text))
    return NULL;
  memcpy(E->Text, Scratch, Len);
  E->Len = (uint32_t)Len;
  E->Name = Name;
  E->Cat = Cat;
  E->Func = Func ? Func : dftracer_fn_index(T->Stats, Name, Cat);
  return E;
}

/* The cached `"name":..,"cat":..,` text of (Name, Cat), or NULL when it is
 * too long to cache. Func: the name's index when known (a function's
 * span), else 0 (an I/O call's: looked up when the entry is filled). */
static const struct dftracer_name_entry *
nameEntry(struct dftracer_thread *T, const char *Name, const char *Cat,
          uint32_t Func) {
  struct dftracer_name_entry *E = nameSlot(T, Name);
  if (DFT_LIKELY(E->Name == Name && E->Cat == Cat))
    return E;
  return fillEntry(T, E, Name, Cat, Func);
}

/* The index of (Name, Cat) (throttle.h): from the same cache, else from
 * the process's table without formatting the text, which a throttled call
 * never needs (hundreds of hot names in turn would miss the cache on
 * every call). */
static inline uint32_t nameIndex(struct dftracer_thread *T, const char *Name,
                                 const char *Cat) {
  const struct dftracer_name_entry *E = nameSlot(T, Name);
  if (DFT_LIKELY(E->Name == Name && E->Cat == Cat))
    return E->Func;
  return dftracer_fn_index(T->Stats, Name, Cat);
}

/* Tracing has stopped (budget.h): S is only counted, I/O with its bytes. */
static void countStopped(struct dftracer_thread *T,
                         const struct dftracer_span *S, uint64_t Dur,
                         int Reason) {
  uint32_t F = S->Func ? S->Func : nameIndex(T, S->Name, S->Cat);
  uint64_t Bytes =
      S->ArgsLen ? dftracer_io_event_bytes(S->Name, S->Cat, S->Args, S->ArgsLen)
                 : 0;
  dftracer_fn_left(T->Stats, F, (enum dftracer_reason)Reason, Dur, Bytes);
}

/* S as its .pfw line, after its pid/tid piece PidTid. */
static inline __attribute__((always_inline)) void
putSpanLine(struct dftracer_thread *T, const struct dftracer_span *S,
            const struct dftracer_name_entry *E, uint64_t Dur,
            const char *PidTid, size_t PidTidLen) {
  struct dftracer_span_line L;
  size_t NameLen = 0, CatLen = 0;
  char *Out;
  if (DFT_LIKELY(E != NULL)) {
    L.NameCat = E->Text;
    L.NameCatLen = E->Len;
  } else {
    /* A name too long for the cache (a C++ signature, say): formatted
     * straight into the buffer, which grows for it if need be; no copy,
     * no allocation (a signal handler may be ending the span). */
    NameLen = strlen(S->Name);
    CatLen = strlen(S->Cat);
    L.NameCat = NULL;
    L.NameCatLen = dftracer_name_cat_bound(NameLen, CatLen);
  }
  L.Id = S->Id;
  L.ParentId = S->ParentId;
  L.Ts = S->StartUs;
  L.Dur = Dur;
  L.Level = S->Level;
  L.PidTid = PidTid;
  L.PidTidLen = PidTidLen;
  L.Args = S->Args;
  L.ArgsLen = S->ArgsLen;
  L.TsDigits = &T->TsDigits;
  L.IdDigits = &T->IdDigits;
  Out = dftracer_thread_reserve(T, dftracer_span_line_bound(&L));
  if (DFT_LIKELY(Out && E != NULL))
    dftracer_thread_commit(T, dftracer_format_span(Out, &L));
  else if (Out)
    dftracer_thread_commit(T, dftracer_format_span_named(
                                  Out, &L, S->Name, NameLen, S->Cat, CatLen));
}

/* I/O span S with Io's args as its text, in Text (DftIoArgsBytes): the
 * form the paths that want a line's args take (a record too long, tracing
 * stopped). An I/O span has no args of its own: UPDATE cannot reach it. */
static const struct dftracer_span *
withIoText(const struct dftracer_span *S,
           const struct dftracer_record_io_args *Io, struct dftracer_span *Copy,
           char *Text) {
  *Copy = *S;
  Copy->Args = Text;
  Copy->ArgsLen = (size_t)(dftracer_put_io_args(Text, Io->Fhash, Io->Args,
                                                Io->Count, 1) -
                           Text);
  return Copy;
}

/* A span too long for a record, as its line. */
static __attribute__((noinline)) void
writeLongRecord(struct dftracer_thread *T, const struct dftracer_span *S,
                const struct dftracer_name_entry *E, uint64_t Dur, int Pid,
                const struct dftracer_record_io_args *Io) {
  char PidTid[64];
  struct dftracer_span Copy;
  char Text[DftIoArgsBytes];
  putSpanLine(T, Io ? withIoText(S, Io, &Copy, Text) : S, E, Dur, PidTid,
              (size_t)(dftracer_format_pid_tid(PidTid, Pid, T->Tid) - PidTid));
}

/* Tracing has stopped: I/O span S counted, with Io's args. */
static __attribute__((noinline)) void
countStoppedIo(struct dftracer_thread *T, const struct dftracer_span *S,
               uint64_t Dur, int Reason,
               const struct dftracer_record_io_args *Io) {
  struct dftracer_span Copy;
  char Text[DftIoArgsBytes];
  countStopped(T, withIoText(S, Io, &Copy, Text), Dur, Reason);
}

/* DFTRACER_TRACE_FORMAT=compact: S as a record of its fields
 * (event_record.h), which the writer thread encodes without parsing a
 * line, with Io's args (NULL: none) as they are; as its line when too long
 * for one. */
static __attribute__((noinline)) void
writeRecord(struct dftracer_thread *T, const struct dftracer_span *S,
            const struct dftracer_name_entry *E, uint64_t Dur, int Pid,
            const struct dftracer_record_io_args *Io) {
  struct dftracer_span_record R;
  size_t NameLen = 0, CatLen = 0, Bound;
  uint32_t NIo = Io ? dftracer_record_io_count(Io) : 0;
  char *Out, *After;
  if (!E) {
    NameLen = strlen(S->Name);
    CatLen = strlen(S->Cat);
  }
  Bound = sizeof(R) + S->ArgsLen + NIo * sizeof(struct dftracer_io_arg) +
          (E ? E->Len : dftracer_name_cat_bound(NameLen, CatLen));
  if (Bound > DftRecordMax) {
    writeLongRecord(T, S, E, Dur, Pid, Io);
    return;
  }
  memset(&R, 0, sizeof(R));
  R.Marker = DftRecordMarker;
  R.Pid = Pid;
  R.Tid = T->Tid;
  R.Level = S->Level;
  R.ArgsLen = (uint32_t)S->ArgsLen;
  R.NIoArgs = NIo;
  R.Id = S->Id;
  R.ParentId = S->ParentId;
  R.Ts = S->StartUs;
  R.Dur = Dur;
  R.Name = S->Name;
  R.Cat = S->Cat;
  Out = dftracer_thread_reserve(T, Bound);
  if (!Out)
    return; /* out of memory: lost, as a line would be */
  if (E) {
    R.NameCatLen = (uint32_t)E->Len;
    R.Len = (uint32_t)(sizeof(R) + E->Len + S->ArgsLen +
                       NIo * sizeof(struct dftracer_io_arg));
    After = dftracer_put_span_record(Out, &R, E->Text, S->Args);
  } else {
    /* A name too long for the cache: formatted in place, after the
     * fields. */
    R.NameCatLen =
        (uint32_t)(dftracer_format_name_cat(Out + sizeof(R), S->Name, NameLen,
                                            S->Cat, CatLen) -
                   (Out + sizeof(R)));
    R.Len = (uint32_t)(sizeof(R) + R.NameCatLen + S->ArgsLen +
                       NIo * sizeof(struct dftracer_io_arg));
    memmove(Out + sizeof(R) + R.NameCatLen, S->Args, S->ArgsLen);
    memcpy(Out, &R, sizeof(R));
    After = Out + sizeof(R) + R.NameCatLen + S->ArgsLen;
  }
  if (Io)
    After = dftracer_put_record_io_args(After, Io);
  dftracer_thread_commit(T, After);
}

/* S as its line or record; Io: an I/O event's args in the compact format
 * (io_core.c), else NULL. */
static inline __attribute__((always_inline)) void
writeSpanWith(struct dftracer_thread *T, const struct dftracer_span *S,
              uint64_t EndUs, const struct dftracer_record_io_args *Io) {
  const struct dftracer_name_entry *E;
  int Pid = dftracer_process_.Pid;
  uint64_t Dur = EndUs >= S->StartUs ? EndUs - S->StartUs : 0;
  int Stopped = __atomic_load_n(&dftracer_trace_stopped_, __ATOMIC_RELAXED);
  if (DFT_UNLIKELY(Stopped)) {
    if (Io)
      countStoppedIo(T, S, Dur, Stopped, Io);
    else
      countStopped(T, S, Dur, Stopped);
    return;
  }
  dftracer_fn_written(T->Stats, S->Func, Dur);
  E = nameEntry(T, S->Name, S->Cat, S->Func);
  /* A record in both formats: the .pfw's line is formatted from it on the
   * writer thread (dftracer_compact_start_lines). */
  writeRecord(T, S, E, Dur, Pid, Io);
}

static void writeSpan(struct dftracer_thread *T, const struct dftracer_span *S,
                      uint64_t EndUs) {
  writeSpanWith(T, S, EndUs, NULL);
}

static void recordRank(void);

/* On the process's main thread, while MPI's rank is still to be found:
 * look for it. */
static inline void probeRank(const struct dftracer_thread *T) {
  if (DFT_UNLIKELY(__atomic_load_n(&dftracer_process_.RankState,
                                   __ATOMIC_RELAXED) == RankProbing) &&
      T->Tid == dftracer_process_.OsPid)
    recordRank();
}

/* A throttled START that reads no clock (sampled time, between timed
 * calls, throttle.h) needs no record: its handle is its name's index,
 * tagged odd (a record's address never is), and END only counts it. */
static inline struct dftracer_span *untimedHandle(uint32_t Func) {
  return (struct dftracer_span *)(((uintptr_t)Func << 1) | 1);
}
static inline int isUntimedHandle(const struct dftracer_span *S) {
  return ((uintptr_t)S & 1) != 0;
}

/* A timed START of throttled name Func: off the stack, so that what it
 * calls nests under its parent; END only needs the owner, the index and
 * the start. */
static __attribute__((noinline)) struct dftracer_span *
timedStart(struct dftracer_thread *T, uint32_t Func) {
  enum dftracer_throttled_kind Kind =
      dftracer_throttle_sampled_ ? dftracer_fn_timed_kind(T->Stats, Func)
                                 : DftThrottledExact;
  struct dftracer_span *S;
  int Busy = dftracer_busy_enter();
  S = dftracer_thread_alloc_span(T);
  if (DFT_LIKELY(S != NULL)) {
    S->Owner = T;
    S->Func = Func;
    S->HandleLive = 1;
    S->Throttled = Kind;
    S->StartUs = Kind == DftThrottledExact ? dftracer_now_us(&T->Clock)
                                           : dftracer_clock_ticks();
  }
  dftracer_busy_leave(Busy);
  return S;
}

/* A START of throttled name Func. Inline, and the untimed case with no
 * call: the function that holds it saves no register. */
static inline struct dftracer_span *throttledStart(struct dftracer_thread *T,
                                                   uint32_t Func) {
  if (DFT_LIKELY(dftracer_fn_untimed(T->Stats, Func)))
    return untimedHandle(Func);
  return timedStart(T, Func);
}

/* beginSpan's general half, with the thread marked busy (from not busy):
 * a pool to grow, ids to refill, the MPI rank to look for. */
static __attribute__((noinline)) struct dftracer_span *
beginSpanGeneral(struct dftracer_thread *T, const char *Name, const char *Cat,
                 uint32_t Func, const struct dftracer_name_entry *Slot) {
  struct dftracer_span *S = dftracer_thread_alloc_span(T);
  if (DFT_LIKELY(S != NULL)) {
    dftracer_thread_push_span(T, S, Name, Cat, Slot);
    S->Func = Func;
    probeRank(T);
    S->StartUs = dftracer_now_us(&T->Clock);
  }
  dftracer_busy_leave(0);
  return S;
}

/* START of a name that is not throttled, on T (tracing on, and not busy:
 * both callers tested it), of index Func and name cache slot Slot: pushed
 * on the stack. Not inlined: dftracer_span_begin jumps here. Whatever needs
 * a call, the clock's included (a new anchor, or no TSC), goes to
 * beginSpanGeneral before anything changes: this function calls nothing,
 * so it saves no register and has no frame (issue 40). The busy mark is
 * set and cleared as constants, the thread being known not busy before. */
static __attribute__((noinline)) struct dftracer_span *
beginSpan(struct dftracer_thread *T, const char *Name, const char *Cat,
          uint32_t Func, const struct dftracer_name_entry *Slot) {
  struct dftracer_span *S;
  uint64_t Now;
  (void)dftracer_busy_enter(); /* 0: see above */
  S = T->FreeList;
  if (DFT_UNLIKELY(S == NULL || T->NextId == T->IdLimit ||
                   (__atomic_load_n(&dftracer_process_.RankState,
                                    __ATOMIC_RELAXED) == RankProbing &&
                    T->Tid == dftracer_process_.OsPid) ||
                   !dftracer_now_us_nocall(&T->Clock, &Now)))
    return beginSpanGeneral(T, Name, Cat, Func, Slot);
  T->FreeList = S->NextFree;
  dftracer_thread_push_span_id(T, S, T->NextId++, Name, Cat, Slot);
  S->Func = Func;
  S->StartUs = Now;
  dftracer_busy_leave(0);
  return S;
}

/* START in general: the thread's state made if need be, the name's index
 * looked up. */
static __attribute__((noinline)) struct dftracer_span *
beginSlow(const char *Name, const char *Cat) {
  struct dftracer_thread *T;
  uint32_t Func;
  int Busy;
  if (DFT_UNLIKELY(!isActive() || dftracer_io_busy_))
    return NULL; /* called directly, raced with FINI, or in a handler */
  Busy = dftracer_busy_enter();
  T = dftracer_thread_get();
  if (DFT_UNLIKELY(!T)) {
    dftracer_busy_leave(Busy);
    return NULL;
  }
  Name = Name ? Name : "(null)";
  Cat = Cat ? Cat : "C_APP";
  Func = nameIndex(T, Name, Cat);
  dftracer_busy_leave(Busy);
  if (DFT_UNLIKELY(__atomic_load_n(&dftracer_throttled_[Func],
                                   __ATOMIC_RELAXED)))
    return throttledStart(T, Func);
  return beginSpan(T, Name, Cat, Func, nameSlot(T, Name));
}

/* Every entry point that changes the thread's stack, pool or buffer, or
 * takes the process lock, marks the thread busy (io_core.h) while it does:
 * a signal handler's write() in between is not traced into a half-written
 * line, nor waits for a lock its own thread holds, and a START or METADATA
 * in the handler is not recorded either (the handler's END then gets a
 * null handle). (UPDATE only changes its span's args, which an I/O event
 * never touches.) An untimed throttled START only counts down its name's
 * gap (a handler's racing it makes one gap one call longer at worst), so
 * it does not mark the thread.
 *
 * A name whose index the thread's name cache holds goes straight to
 * throttledStart or beginSpan: a throttled one with no stack frame of the
 * general path (the hot tiny function of issue 20 is called millions of
 * times). */
DFT_API struct dftracer_span *dftracer_span_begin(const char *Name,
                                                  const char *Cat) {
  struct dftracer_thread *T = dftracer_thread_peek();
  if (DFT_LIKELY(T != NULL) && !dftracer_io_busy_ && isActive()) {
    const struct dftracer_name_entry *E = nameSlot(T, Name);
    /* (An empty slot has Name and Cat NULL and index 0: the slow path
     * then names a NULL name.) */
    if (E->Name == Name && E->Cat == Cat && E->Func != 0) {
      if (__atomic_load_n(&dftracer_throttled_[E->Func], __ATOMIC_RELAXED))
        return throttledStart(T, E->Func);
      return beginSpan(T, Name, Cat, E->Func, E);
    }
  }
  return beginSlow(Name, Cat);
}

/* Pop T's stack down to and including S. */
static void popThrough(struct dftracer_thread *T, struct dftracer_span *S) {
  struct dftracer_span *Done;
  do {
    Done = T->Top;
    T->Top = Done->Parent;
    Done->Popped = 1;
    if (!Done->HandleLive)
      dftracer_thread_release_span(T, Done);
  } while (Done != S && T->Top);
}

/* Ending a span ends every span opened after it on the thread that is still
 * open, at the same instant: a function's END closes a region it left open
 * (REGION_START without REGION_END), so spans always nest. Their handles stay
 * valid: the records are kept until their own END or cleanup runs. */
static inline __attribute__((always_inline)) void
closeSpanWith(struct dftracer_thread *T, struct dftracer_span *S,
              uint64_t EndUs, const struct dftracer_record_io_args *Io) {
  struct dftracer_span *Inner;
  for (Inner = T->Top; Inner != S; Inner = Inner->Parent) {
    if (!Inner->Closed && isActive())
      writeSpan(T, Inner, EndUs);
    Inner->Closed = 1;
  }
  if (DFT_LIKELY(isActive())) {
    if (Io)
      writeSpanWith(T, S, EndUs, Io);
    else
      writeSpan(T, S, EndUs);
  }
  S->Closed = 1;
  popThrough(T, S);
}

static inline void closeSpan(struct dftracer_thread *T,
                             struct dftracer_span *S, uint64_t EndUs) {
  closeSpanWith(T, S, EndUs, NULL);
}

/* END of a timed throttled call: counted with its duration. */
static __attribute__((noinline)) void throttledEnd(struct dftracer_span *S) {
  struct dftracer_thread *T = S->Owner;
  int Busy;
  if (DFT_UNLIKELY(T != dftracer_thread_peek()))
    return; /* not ours to touch */
  Busy = dftracer_busy_enter();
  if (S->Throttled == DftThrottledExact) {
    uint64_t EndUs = dftracer_now_us(&T->Clock);
    if (DFT_LIKELY(isActive()))
      dftracer_fn_left(T->Stats, S->Func, DftReasonThrottle,
                       EndUs >= S->StartUs ? EndUs - S->StartUs : 0, 0);
  } else { /* DftThrottledTicks: untimed calls have no record */
    uint64_t Ticks = dftracer_clock_ticks() - S->StartUs;
    if (DFT_LIKELY(isActive()))
      dftracer_fn_left_timed(T->Stats, S->Func,
                             (int64_t)Ticks > 0 ? Ticks : 0);
  }
  dftracer_thread_release_span(T, S);
  dftracer_busy_leave(Busy);
}

/* END of S by its owner T, busy, at EndUs, when the fast END cannot take
 * it: a span closed earlier with an enclosing one or by FINI/exit, one
 * with inner spans still open, UPDATE args, tracing off or stopped, a name
 * not in the cache, a full buffer. */
static __attribute__((noinline)) void
endGeneral(struct dftracer_thread *T, struct dftracer_span *S,
           uint64_t EndUs) {
  S->HandleLive = 0;
  if (DFT_LIKELY(!S->Closed))
    closeSpan(T, S, EndUs);
  else if (S->Popped)
    dftracer_thread_release_span(T, S);
}

/* endGeneral, then the busy mark back to Busy: endSpan's calls are
 * jumps here, so that its own path calls nothing. */
static __attribute__((noinline)) void
endGeneralLeave(struct dftracer_thread *T, struct dftracer_span *S,
                uint64_t EndUs, int Busy) {
  endGeneral(T, S, EndUs);
  dftracer_busy_leave(Busy);
}

/* END of S by its owner T, busy since Busy, at EndUs. */
static inline __attribute__((always_inline)) void
endAt(struct dftracer_thread *T, struct dftracer_span *S, uint64_t EndUs,
      int Busy) {
  const struct dftracer_name_entry *E = dftracer_fast_entry(T, S, 0);
  if (DFT_UNLIKELY(E == NULL)) {
    endGeneralLeave(T, S, EndUs, Busy);
    return;
  }
  S->HandleLive = 0;
  dftracer_fast_close(T, S, E, EndUs, NULL, 0);
  dftracer_thread_release_span(T, S);
  dftracer_busy_leave(Busy);
}

/* endSpan when the clock needs a call (a new anchor, or no TSC). */
static __attribute__((noinline)) void
endSpanClock(struct dftracer_thread *T, struct dftracer_span *S, int Busy) {
  endAt(T, S, dftracer_now_us(&T->Clock), Busy);
}

/* END of a span that is not throttled. Not inlined: dftracer_span_end
 * jumps here, so that the untimed throttled END saves no register. What
 * needs a call (the clock's new anchor, an END the fast path cannot take:
 * endGeneral) is a jump to a function that makes it, before anything
 * changes, so that this function calls nothing and saves no register
 * (issue 40). */
static __attribute__((noinline)) void endSpan(struct dftracer_span *S) {
  struct dftracer_thread *T = S->Owner;
  uint64_t EndUs;
  int Busy;
  if (DFT_UNLIKELY(T != dftracer_thread_peek()))
    return; /* not ours to touch: the owner closes it with its parent */
  /* Busy before the tests: a signal handler's I/O event in between would
   * take the room they found. */
  Busy = dftracer_busy_enter();
  if (DFT_UNLIKELY(!dftracer_now_us_nocall(&T->Clock, &EndUs))) {
    endSpanClock(T, S, Busy);
    return;
  }
  endAt(T, S, EndUs, Busy);
}

/* An untimed throttled call (the hot case) is only counted, here, with no
 * call and no register saved. */
DFT_API void dftracer_span_end(struct dftracer_span **Handle) {
  struct dftracer_span *S = *Handle;
  *Handle = NULL;
  if (!S)
    return;
  if (DFT_LIKELY(isUntimedHandle(S))) {
    uint32_t Func = (uint32_t)((uintptr_t)S >> 1);
    struct dftracer_thread *T = dftracer_thread_peek();
    /* Counted by the thread that ends it, if that thread has used the
     * name (the merge only reads the names a thread used). */
    if (DFT_LIKELY(T && T->Stats && T->Stats->Stat[Func].Next != 0) &&
        isActive()) {
      int Busy = dftracer_busy_enter();
      dftracer_fn_left_untimed(T->Stats, Func);
      dftracer_busy_leave(Busy);
    }
    return;
  }
  if (S->Throttled)
    throttledEnd(S);
  else
    endSpan(S);
}

/* End an I/O call's span (io_core.c). Its record lives in the wrapper's
 * frame and keeps HandleLive set, so it never enters the pool. FINI may
 * have written it already (then it is only taken off the stack). */
void dftracer_span_finish_io_(struct dftracer_thread *T,
                              struct dftracer_span *S, uint64_t EndUs) {
  if (!S->Closed)
    closeSpan(T, S, EndUs);
  else if (!S->Popped)
    popThrough(T, S);
}

/* The same in the compact format, with the event's args as the wrapper
 * gave them (event_record.h). */
void dftracer_span_finish_io_args_(struct dftracer_thread *T,
                                   struct dftracer_span *S, uint64_t EndUs,
                                   const struct dftracer_record_io_args *Io) {
  int Saved;
  /* The general path (io_core.c tried the fast one) may hand a full buffer over or see a name first:
   * the program's errno is kept. */
  Saved = errno;
  if (!S->Closed)
    closeSpanWith(T, S, EndUs, Io);
  else if (!S->Popped)
    popThrough(T, S);
  errno = Saved;
}

/* Grow S's args so that Extra more bytes fit. */
static char *reserveArgs(struct dftracer_span *S, size_t Extra) {
  if (S->ArgsLen + Extra > S->ArgsCap) {
    size_t NewCap = S->ArgsCap ? S->ArgsCap : 128;
    char *New;
    while (NewCap < S->ArgsLen + Extra)
      NewCap *= 2;
    New = (char *)realloc(S->Args, NewCap);
    if (!New)
      return NULL;
    S->Args = New;
    S->ArgsCap = NewCap;
  }
  return S->Args + S->ArgsLen;
}

DFT_API void dftracer_span_update_int(struct dftracer_span *S, const char *Key,
                                      long long Value) {
  char *Out;
  if (!S || isUntimedHandle(S) || S->Closed || S->Throttled || !Key ||
      !dftracer_process_.Config.IncMetadata)
    return;
  Out = reserveArgs(S, dftracer_arg_bound(strlen(Key), 0));
  if (Out) {
    S->ArgsLen = (size_t)(dftracer_format_arg_int(Out, Key, Value) - S->Args);
    S->Slot = &dftracer_no_name_slot_; /* args: no fast END */
  }
}

DFT_API void dftracer_span_update_str(struct dftracer_span *S, const char *Key,
                                      const char *Value) {
  char *Out;
  if (!S || isUntimedHandle(S) || S->Closed || S->Throttled || !Key ||
      !dftracer_process_.Config.IncMetadata)
    return;
  if (!Value)
    Value = "(null)";
  Out = reserveArgs(S, dftracer_arg_bound(strlen(Key), strlen(Value)));
  if (Out) {
    S->ArgsLen = (size_t)(dftracer_format_arg_str(Out, Key, Value) - S->Args);
    S->Slot = &dftracer_no_name_slot_; /* args: no fast END */
  }
}

static void writeMetadata(const char *Key, const char *Value) {
  struct dftracer_thread *T;
  char *Out = NULL;
  int Busy;
  if (!isActive())
    return;
  Busy = dftracer_busy_enter();
  T = dftracer_thread_get();
  if (T)
    Out = dftracer_thread_reserve(
        T, dftracer_metadata_line_bound(strlen(Key), strlen(Value)));
  if (Out)
    dftracer_thread_commit(
        T, dftracer_format_metadata(Out, dftracer_thread_next_id(T),
                                    dftracer_process_.Pid, T->Tid, Key, Value));
  dftracer_busy_leave(Busy);
}

DFT_API void dftracer_metadata(const char *Key, const char *Value) {
  if (Key && !dftracer_io_busy_) /* not in a handler inside the runtime */
    writeMetadata(Key, Value ? Value : "(null)");
}

/* Record the MPI rank once, as soon as MPI can tell it: at INIT, on the
 * main thread's STARTs while MPI is not up yet (a main that calls
 * ior_main(), which calls MPI_Init, has INIT before MPI_Init and FINI after
 * MPI_Finalize), and at FINI. Without MPI the first probe settles it. */
static void recordRank(void) {
  struct dftracer_process *P = &dftracer_process_;
  char Text[16];
  int Rank, Never;
  if (__atomic_load_n(&P->RankState, __ATOMIC_RELAXED) != RankProbing)
    return;
  Rank = dftracer_mpi_rank(&Never);
  if (Rank < 0) {
    if (Never)
      __atomic_store_n(&P->RankState, RankNever, __ATOMIC_RELAXED);
    return;
  }
  __atomic_store_n(&P->RankState, RankRecorded, __ATOMIC_RELAXED);
  snprintf(Text, sizeof(Text), "%d", Rank);
  writeMetadata("rank", Text); /* busy already: from START, INIT, FINI */
}

/* From the MPI-IO layer: MPI is up, so a program without annotated spans on
 * the main thread gets its rank recorded too. */
void dftracer_probe_rank_(void) {
  int Busy = dftracer_busy_enter();
  struct dftracer_thread *T = dftracer_thread_get();
  if (T)
    probeRank(T);
  dftracer_busy_leave(Busy);
}

/* Write every still-open span of T as ending now, innermost first. Records
 * stay on the stack, marked closed: handles in live frames may still point
 * at them (FINI called below a traced function). */
void dftracer_close_open_spans_(struct dftracer_thread *T) {
  uint64_t Now = dftracer_now_us(&T->Clock);
  struct dftracer_span *S;
  for (S = T->Top; S; S = S->Parent) {
    if (S->Closed)
      continue;
    if (isActive())
      writeSpan(T, S, Now);
    S->Closed = 1;
    S->Slot = &dftracer_no_name_slot_; /* no fast END (span_close.h) */
  }
}

DFT_API void dftracer_init(const char *LogFile, const char *DataDirs,
                           int *ProcessId) {
  struct dftracer_process *P = &dftracer_process_;
  int First, Busy;
  if (!P->Config.Enable)
    return;
  Busy = dftracer_busy_enter();
  dftracer_io_set_data_dirs(DataDirs);
  pthread_mutex_lock(&P->Lock);
  First = !P->Finished && !P->Initialized;
  if (First) {
    if (!P->Config.LogPrefix[0])
      dftracer_config_set_prefix(&P->Config,
                                 LogFile && *LogFile ? LogFile : "./trace");
    if (ProcessId)
      P->Pid = *ProcessId;
    P->Initialized = 1;
  }
  pthread_mutex_unlock(&P->Lock);
  if (First)
    recordRank();
  dftracer_busy_leave(Busy);
}

/* The lines that keep totals exact (throttle.h, budget.h): what was
 * counted instead of written, and why tracing stopped. After everything
 * else, with the writer stopped, so that after a write error they are
 * written here, or not at all. */
static void writeCountsLocked(const struct dftracer_thread *T) {
  struct dftracer_process *P = &dftracer_process_;
  int Tid = T ? T->Tid : P->OsPid;
  if (__atomic_load_n(&dftracer_trace_stopped_, __ATOMIC_RELAXED) ==
          DftReasonWriteError &&
      !dftracer_sink_retry_final(&P->Sink))
    return;
  dftracer_throttle_output_locked(P->Pid, Tid);
  dftracer_budget_output_locked(P->Pid, Tid);
}

/* AtUnderscoreExit: from _exit, perhaps in a signal handler that
 * interrupted malloc, so nothing may call malloc or free or take a lock
 * this thread may hold. It is not busy (the caller checked), so it holds
 * no runtime lock: the process lock is only ever taken busy. The rank is
 * not asked of MPI (MPI calls are not async-signal-safe), and the writer
 * thread is not joined (pthread_join takes glibc's stack-cache lock and may
 * free its memory): it is only waited for until it has written everything.
 * The rest is the event path's, which allocates only pages (pages.h), and
 * the sink's, which does not allocate at all (sink.c). */
static void finish(int AtUnderscoreExit) {
  struct dftracer_process *P = &dftracer_process_;
  struct dftracer_thread *T = dftracer_thread_peek();
  int Busy = dftracer_busy_enter();
  pthread_mutex_lock(&P->Lock);
  if (P->Finishing) {
    pthread_mutex_unlock(&P->Lock);
    dftracer_busy_leave(Busy);
    return;
  }
  P->Finishing = 1;
  pthread_mutex_unlock(&P->Lock);
  if (!AtUnderscoreExit)
    recordRank();
  if (T)
    dftracer_close_open_spans_(T);
  pthread_mutex_lock(&P->Lock);
  __atomic_store_n(&dftracer_active, 0, __ATOMIC_RELAXED);
  dftracer_open_at_exit_collect_locked(T); /* other threads' (open_at_exit.h) */
  dftracer_thread_flush_all_locked();
  dftracer_writer_stop_locked(!AtUnderscoreExit);
  writeCountsLocked(T);
  if (P->Initialized && !dftracer_sink_is_open(&P->Sink))
    dftracer_writer_output_locked("", 0); /* INIT promises a file */
  dftracer_untraced_report_locked();
  dftracer_open_at_exit_report_locked();
  dftracer_run_config_trace_end_locked(); /* the last line (run_config.h) */
  dftracer_sink_close(&P->Sink);
  P->Finished = 1;
  pthread_mutex_unlock(&P->Lock);
  dftracer_busy_leave(Busy);
}

/* exec replaces the process image, and with it the buffers: the trace is
 * finished first, the calling thread's open spans ending at the exec. If
 * exec fails, tracing goes on into a new file, as in a forked child (the
 * old one is complete). */
void dftracer_before_exec_(int *WasActive) {
  *WasActive = isActive();
  if (*WasActive)
    finish(0);
}

/* _exit and _Exit (posix.c) skip atexit: the trace is finished here, as at
 * exit(). Not when this thread is inside the runtime (a signal handler that
 * interrupted it): its buffer or the file may be half-written, and it may
 * hold the process lock; what it had buffered is then lost, as before. */
void dftracer_before__exit_(void) {
  sigset_t Old;
  if (!isActive() || dftracer_io_busy_)
    return;
  dftracer_signals_hold(&Old); /* signals.h: not cut short by SIGTERM */
  finish(1);
  pthread_sigmask(SIG_SETMASK, &Old, NULL);
}

static void restartInNewFile(void);

void dftracer_after_failed_exec_(int WasActive) {
  if (WasActive)
    restartInNewFile();
}

/* FINI without INIT does nothing: the atexit flush still writes whatever
 * was traced, so a stray FINI cannot cut a trace short. */
DFT_API void dftracer_fini(void) {
  struct dftracer_process *P = &dftracer_process_;
  int Initialized, Busy;
  if (!P->Config.Enable)
    return;
  Busy = dftracer_busy_enter();
  pthread_mutex_lock(&P->Lock);
  Initialized = P->Initialized;
  pthread_mutex_unlock(&P->Lock);
  if (Initialized)
    finish(0);
  dftracer_busy_leave(Busy);
}

static void onExit(void) { finish(0); }

/* A new trace file for this process (a forked child, a failed exec): new
 * name, no span open on the calling thread, every known path named again. */
static void restartInNewFile(void) {
  struct dftracer_process *P = &dftracer_process_;
  struct dftracer_thread *T = dftracer_thread_peek();
  int Busy = dftracer_busy_enter();
  if (T)
    dftracer_thread_drop_spans(T);
  pthread_mutex_lock(&P->Lock);
  dftracer_sink_reset(&P->Sink);
  P->TraceHash = dftracer_trace_hash(P->Pid, dftracer_wall_ns());
  P->Finishing = P->Finished = 0;
  /* What was counted belonged to the old file (written there, or the
   * parent's). */
  dftracer_throttle_reset_locked(T ? T->Stats : NULL);
  dftracer_budget_reset();
  dftracer_io_after_fork();
  pthread_mutex_unlock(&P->Lock);
  __atomic_store_n(&dftracer_active, 1, __ATOMIC_RELAXED);
  dftracer_busy_leave(Busy);
}

/* A forked child traces into its own file, never into its parent's (lines
 * would interleave, and a gzip stream would break): it gets its own pid,
 * file name and ids, starts with no open span, and names again every file
 * its parent had seen (its descriptors are inherited). A child of a process
 * that had already finished tracing stays off. (A child that execs re-reads
 * DFTRACER_ENABLE.) */
static void onForkChild(void) {
  struct dftracer_process *P = &dftracer_process_;
  int Was = isActive();
  __atomic_store_n(&dftracer_active, 0, __ATOMIC_RELAXED);
  pthread_mutex_init(&P->Lock, NULL);
  dftracer_sink_abandon(&P->Sink);
  dftracer_sink_reset(&P->Sink);
  dftracer_writer_forget();
  P->Pid = P->OsPid = (int)getpid();
  dftracer_thread_forget_all(P->OsPid);
  if (!Was || P->Finishing)
    return;
  P->RankState = RankNever; /* not an MPI process */
  restartInNewFile();
}

/* Priority 101: run before application constructors, so C++ static
 * initialisers are traced too. */
__attribute__((constructor(101))) static void onLoad(void) {
  struct dftracer_process *P = &dftracer_process_;
  dftracer_config_from_env(&P->Config);
  dftracer_startup_checks_(&P->Config); /* launchers, layers (startup.h) */
  dftracer_sink_reset(&P->Sink);
  /* Always: the wrappers call the real functions, traced or not. */
  dftracer_io_load();
  if (!P->Config.Enable)
    return; /* nothing is ever allocated or written */
  dftracer_io_setup();
  dftracer_clock_init(P->Config.MonotonicClock);
  dftracer_throttle_setup(&P->Config);
  dftracer_budget_setup(&P->Config);
  P->Pid = P->OsPid = (int)getpid();
  P->TraceHash = dftracer_trace_hash(P->Pid, dftracer_wall_ns());
  dftracer_thread_setup();
  pthread_atfork(NULL, NULL, onForkChild);
  atexit(onExit);
  __atomic_store_n(&dftracer_active, 1, __ATOMIC_RELAXED);
}
