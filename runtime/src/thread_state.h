/*===- thread_state.h - Per-thread event buffer and span pool -------------===*
 *
 * Every thread that traces owns a dftracer_thread: a byte buffer of finished
 * JSON lines, the stack of its open spans and a pool of span records. START
 * and END touch only this structure, so they take no lock.
 *
 * Flushing protocol (the only shared access):
 *  - The owner formats a line at Buf[Len..] and then publishes the new Len
 *    with a release store.
 *  - Anyone holding the process lock may write Buf[Flushed..Published] to the
 *    sink and advance Flushed. FINI and exit() do this for threads that are
 *    still running; those bytes are complete lines, and the owner only writes
 *    past Published, so nothing is read while being written.
 *  - Only the owner rewinds the buffer (Len = Flushed = 0), under the lock,
 *    when it is full, and only the owner grows it, under the lock.
 *
 *===----------------------------------------------------------------------===*/
#ifndef DFTRACER_RUNTIME_THREAD_STATE_H
#define DFTRACER_RUNTIME_THREAD_STATE_H

#include <stddef.h>
#include <stdint.h>

struct dftracer_thread;

/* An open span. The handle in annotated code points at one of these. */
struct dftracer_span {
  uint64_t Id;
  uint64_t ParentId;
  uint64_t StartUs;
  const char *Name;
  const char *Cat;
  struct dftracer_span *Parent; /* enclosing span on the same thread */
  struct dftracer_thread *Owner;
  unsigned Level;
  /* Record states. A record returns to the pool only when it is off the
   * stack AND no handle in application code can still reach it:
   *   Closed      the event is written (or dropped after FINI)
   *   HandleLive  END/cleanup has not yet run on its handle
   *   Popped      no longer on the thread's stack */
  int Closed;
  int HandleLive;
  int Popped;
  char *Args; /* ",\"key\":value" pairs from UPDATE */
  size_t ArgsLen;
  size_t ArgsCap;
  struct dftracer_span *NextFree;
};

struct dftracer_span_block;

struct dftracer_thread {
  char *Buf;
  size_t Cap;
  size_t Len;       /* owner's cursor */
  size_t Published; /* atomic: bytes of complete lines */
  size_t Flushed;   /* guarded by the process lock */
  struct dftracer_span *Top; /* innermost open span */
  struct dftracer_span *FreeList;
  struct dftracer_span_block *Blocks;
  uint64_t NextId;
  uint64_t IdLimit;
  int Tid;
  struct dftracer_thread *NextThread; /* registry, guarded by the lock */
};

/* The calling thread's state, created and registered on first use; NULL only
 * when memory is exhausted. */
struct dftracer_thread *dftracer_thread_get(void);
/* The calling thread's state if it has one. */
struct dftracer_thread *dftracer_thread_peek(void);

/* A process-unique event id; ids are handed out to threads in blocks. */
uint64_t dftracer_thread_next_id(struct dftracer_thread *T);

struct dftracer_span *dftracer_thread_alloc_span(struct dftracer_thread *T);
void dftracer_thread_release_span(struct dftracer_thread *T,
                                  struct dftracer_span *S);

/* Room for Bound bytes at the cursor (flushing or growing as needed), or
 * NULL when out of memory. Finish with dftracer_thread_commit. */
char *dftracer_thread_reserve(struct dftracer_thread *T, size_t Bound);
void dftracer_thread_commit(struct dftracer_thread *T, char *End);

/* Hand published bytes to the sink. Caller holds the process lock. */
void dftracer_thread_flush_locked(struct dftracer_thread *T);
/* Flush every registered thread. Caller holds the process lock. */
void dftracer_thread_flush_all_locked(void);

/* Install the thread-exit hook; called once when the library loads. */
void dftracer_thread_setup(void);
/* In a forked child: forget every thread but the caller's events. */
void dftracer_thread_forget_all(void);

#endif
