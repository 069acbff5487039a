/*===- thread_state.h - Per-thread event buffer and span pool -------------===*
 *
 * Every thread that traces owns a dftracer_thread: a byte buffer of finished
 * events (span records, event_record.h, and metadata lines), the stack of
 * its open spans and a pool of span records. START and END touch only this
 * structure, so they take no lock.
 *
 * Flushing protocol (the only shared access):
 *  - The owner formats a line at Buf[Len..] and then publishes the new Len
 *    with a release store.
 *  - Anyone holding the process lock may output Buf[Flushed..Published]
 *    (writer.h) and advance Flushed. FINI and exit() do this for threads that
 *    are still running; those bytes are complete lines, and the owner only
 *    writes past Published, so nothing is read while being written.
 *  - Only the owner replaces a full buffer, under the lock: it hands the
 *    unflushed bytes to the writer with the buffer and continues in an empty
 *    one (Len = Flushed = Published = 0).
 *
 *===----------------------------------------------------------------------===*/
#ifndef DFTRACER_RUNTIME_THREAD_STATE_H
#define DFTRACER_RUNTIME_THREAD_STATE_H

#include "clock.h"
#include "json_writer.h"

#include <stddef.h>
#include <stdint.h>

struct dftracer_thread;
struct dftracer_name_entry;

/* An open span. The handle in annotated code points at one of these. */
struct dftracer_span {
  uint64_t Id;
  uint64_t ParentId;
  uint64_t StartUs;
  const char *Name;
  const char *Cat;
  struct dftracer_span *Parent; /* enclosing span on the same thread */
  struct dftracer_thread *Owner;
  /* Owner's name cache slot for Name (span_close.h's dftracer_name_slot),
   * found at START: the fast END only checks that it still holds Name. */
  const struct dftracer_name_entry *Slot;
  unsigned Level;
  uint32_t Func; /* its name's index (throttle.h); 0 for I/O calls */
  /* Throttled: a START of a throttled name, never on the stack; its END
   * only counts it (tracer.c). */
  unsigned char Throttled;
  /* Record states. A record returns to the pool only when it is off the
   * stack AND no handle in application code can still reach it:
   *   Closed      the event is written (or dropped after FINI)
   *   HandleLive  END/cleanup has not yet run on its handle
   *   Popped      no longer on the thread's stack
   * Bytes side by side: a push sets all four with one store. */
  unsigned char Closed;
  unsigned char HandleLive;
  unsigned char Popped;
  char *Args; /* ",\"key\":value" pairs from UPDATE */
  size_t ArgsLen;
  size_t ArgsCap;
  struct dftracer_span *NextFree;
};

struct dftracer_span_block;

/* Preformatted `"name":"fn","cat":"C_APP",` of a recently ended span, keyed
 * by the two pointers (names are __func__ or literals: static storage).
 * Escaping a name on every END costs more than looking it up. */
enum { DftNameCacheSlots = 64, DftNameCacheText = 232 };
struct dftracer_name_entry {
  const char *Name;
  const char *Cat;
  uint32_t Func; /* the name's index (throttle.h) */
  uint32_t Len;
  char Text[DftNameCacheText];
};
/* 256 bytes: a slot's offset is its index shifted (span_close.h). */
_Static_assert(sizeof(struct dftracer_name_entry) == 256,
               "a name cache entry is 256 bytes");

struct dftracer_chunk;
struct dftracer_fn_stats;

struct dftracer_thread {
  /* The buffer; NULL after running out of memory. Buf and Cap copy its
   * Data and Cap so that the inline reserve needs no second load. */
  struct dftracer_chunk *Chunk;
  char *Buf;
  size_t Cap;
  size_t Len;                /* owner's cursor */
  size_t Published;          /* atomic: bytes of complete lines */
  size_t Flushed;            /* guarded by the process lock */
  struct dftracer_span *Top; /* innermost open span */
  struct dftracer_span *FreeList;
  struct dftracer_span_block *Blocks;
  uint64_t NextId;
  uint64_t IdLimit;
  int Tid;
  int PrefixPid; /* pid that Prefix was formatted with */
  size_t PrefixLen;
  char Prefix[64];                    /* `"pid":P,"tid":T,"ts":` */
  struct dftracer_thread *NextThread; /* registry (thread_state.c) */
  struct dftracer_fn_stats *Stats;    /* per-name counts (throttle.h) */
  struct dftracer_clock Clock;
  struct dftracer_digit_cache TsDigits; /* for the event formatter */
  struct dftracer_digit_cache IdDigits;
  struct dftracer_name_entry Names[DftNameCacheSlots];
};

/* The calling thread's state. initial-exec: one direct TLS load on START
 * instead of a __tls_get_addr call, which matters when the library is
 * shared. */
extern _Thread_local struct dftracer_thread *dftracer_current_thread_
    __attribute__((tls_model("initial-exec"), visibility("hidden")));

/* Slow paths of the inline functions below. */
struct dftracer_thread *dftracer_thread_create_(void);
void dftracer_thread_refill_ids_(struct dftracer_thread *T);
int dftracer_thread_grow_pool_(struct dftracer_thread *T);
char *dftracer_thread_reserve_slow_(struct dftracer_thread *T, size_t Bound);

/* The calling thread's state, created and registered on first use; NULL only
 * when memory is exhausted. */
static inline struct dftracer_thread *dftracer_thread_get(void) {
  struct dftracer_thread *T = dftracer_current_thread_;
  return __builtin_expect(T != NULL, 1) ? T : dftracer_thread_create_();
}
/* The calling thread's state if it has one. */
static inline struct dftracer_thread *dftracer_thread_peek(void) {
  return dftracer_current_thread_;
}

/* A process-unique event id; ids are handed out to threads in blocks. */
static inline uint64_t dftracer_thread_next_id(struct dftracer_thread *T) {
  if (__builtin_expect(T->NextId == T->IdLimit, 0))
    dftracer_thread_refill_ids_(T);
  return T->NextId++;
}

static inline struct dftracer_span *
dftracer_thread_alloc_span(struct dftracer_thread *T) {
  struct dftracer_span *S;
  if (__builtin_expect(T->FreeList == NULL, 0) &&
      !dftracer_thread_grow_pool_(T))
    return NULL;
  S = T->FreeList;
  T->FreeList = S->NextFree;
  return S;
}

static inline void dftracer_thread_release_span(struct dftracer_thread *T,
                                                struct dftracer_span *S) {
  S->NextFree = T->FreeList;
  T->FreeList = S;
}

/* Make S the innermost open span of T, of id Id, named Name in category
 * Cat (both static storage), whose name cache slot is Slot. The caller
 * sets S->StartUs. */
static inline __attribute__((always_inline)) void
dftracer_thread_push_span_id(struct dftracer_thread *T,
                             struct dftracer_span *S, uint64_t Id,
                             const char *Name, const char *Cat,
                             const struct dftracer_name_entry *Slot) {
  struct dftracer_span *Top = T->Top;
  S->Id = Id;
  S->Parent = Top;
  S->ParentId = Top ? Top->Id : 0;
  S->Level = Top ? Top->Level + 1 : 1;
  S->Name = Name;
  S->Cat = Cat;
  S->Owner = T;
  S->Slot = Slot;
  S->Func = 0;
  S->Throttled = 0;
  S->Closed = 0;
  S->HandleLive = 1;
  S->Popped = 0;
  S->ArgsLen = 0;
  T->Top = S;
}

/* The same with the thread's next id. */
static inline void
dftracer_thread_push_span(struct dftracer_thread *T, struct dftracer_span *S,
                          const char *Name, const char *Cat,
                          const struct dftracer_name_entry *Slot) {
  dftracer_thread_push_span_id(T, S, dftracer_thread_next_id(T), Name, Cat,
                               Slot);
}

/* Empty T's stack: its open spans belong to a trace that is finished (a
 * forked child's parent's, a failed exec's). Their records stay valid for
 * the handles in live frames, whose END then only frees them. */
static inline void dftracer_thread_drop_spans(struct dftracer_thread *T) {
  struct dftracer_span *S;
  for (S = T->Top; S; S = S->Parent)
    S->Closed = S->Popped = 1;
  T->Top = NULL;
}

/* One process-unique id outside the threads' blocks (FH lines). */
uint64_t dftracer_take_id_(void);

/* Room for Bound bytes at the cursor (flushing or growing as needed), or
 * NULL when out of memory. Finish with dftracer_thread_commit. */
static inline char *dftracer_thread_reserve(struct dftracer_thread *T,
                                            size_t Bound) {
  if (__builtin_expect(T->Len + Bound <= T->Cap, 1))
    return T->Buf + T->Len;
  return dftracer_thread_reserve_slow_(T, Bound);
}

static inline void dftracer_thread_commit(struct dftracer_thread *T,
                                          char *End) {
  T->Len = (size_t)(End - T->Buf);
  __atomic_store_n(&T->Published, T->Len, __ATOMIC_RELEASE);
}

/* Hand published bytes to the sink. Caller holds the process lock. */
void dftracer_thread_flush_locked(struct dftracer_thread *T);
/* Flush every registered thread. Caller holds the process lock. */
void dftracer_thread_flush_all_locked(void);

/* Install the thread-exit hook; called once when the library loads. */
void dftracer_thread_setup(void);
/* In a forked child: forget every other thread, the caller's unflushed
 * events and its open spans (they belong to the parent's trace), and start
 * ids from 1 again for the child's own file. */
void dftracer_thread_forget_all(int ChildTid);

#endif
