#define _GNU_SOURCE
#include "thread_state.h"

#include "internal.h"
#include "busy.h"
#include "pages.h"
#include "throttle.h"
#include "writer.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

enum { SpansPerBlock = 64, IdsPerBlock = 1024 };

struct dftracer_span_block {
  struct dftracer_span_block *Next;
  struct dftracer_span Spans[SpansPerBlock];
};

_Thread_local struct dftracer_thread *dftracer_current_thread_;
#define Current dftracer_current_thread_

static uint64_t NextIdBlock = 1; /* ids start at 1: p_idx 0 means "none" */
static pthread_key_t ExitKey;
static int ExitKeyValid;

void dftracer_close_open_spans_(struct dftracer_thread *T);

/* A thread's state, its span records and its buffer are pages (pages.h):
 * its first event, or the one that needs more records, may be in a signal
 * handler that interrupted malloc. (UPDATE's args are malloc's: UPDATE is
 * not an event.) */
static void freeThread(struct dftracer_thread *T) {
  struct dftracer_span_block *B = T->Blocks;
  while (B) {
    struct dftracer_span_block *Next = B->Next;
    int I;
    for (I = 0; I < SpansPerBlock; ++I)
      free(B->Spans[I].Args);
    dftracer_pages_free(B, sizeof(*B));
    B = Next;
  }
  dftracer_chunk_free(T->Chunk);
  dftracer_fn_stats_free(T->Stats);
  dftracer_pages_free(T, sizeof(*T));
}

/* The registry of live states. A thread's first event may run in a signal
 * handler, even one that interrupted this thread inside the runtime, so it
 * pushes its state without the lock: a compare-and-swap on the head. Only
 * lock holders unlink states or walk the list; a push meanwhile does no
 * harm, as it only changes the head. */
static void registerThread(struct dftracer_thread *T) {
  struct dftracer_thread **Head = &dftracer_process_.Threads;
  struct dftracer_thread *Old = __atomic_load_n(Head, __ATOMIC_RELAXED);
  do
    T->NextThread = Old;
  while (!__atomic_compare_exchange_n(Head, &Old, T, 1, __ATOMIC_RELEASE,
                                      __ATOMIC_RELAXED));
}

/* Caller holds the process lock. */
static void unregisterLocked(struct dftracer_thread *T) {
  struct dftracer_thread **Head = &dftracer_process_.Threads, *Link;
  struct dftracer_thread *Old = T;
  if (__atomic_compare_exchange_n(Head, &Old, T->NextThread, 0,
                                  __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
    return;
  /* Not the head (any more): its predecessor is older than any push. */
  for (Link = Old; Link; Link = Link->NextThread) {
    if (Link->NextThread == T) {
      Link->NextThread = T->NextThread;
      return;
    }
  }
}

/* pthread key destructor: a thread leaves with its spans closed and its
 * events in the sink. The main thread is covered by atexit instead. Busy
 * throughout (tracer.c): a signal handler's write() must neither write into
 * the buffer being flushed and freed nor wait for the lock. */
static void onThreadExit(void *Arg) {
  struct dftracer_thread *T = (struct dftracer_thread *)Arg;
  struct dftracer_process *P = &dftracer_process_;
  int Busy = dftracer_busy_enter();
  dftracer_close_open_spans_(T);
  pthread_mutex_lock(&P->Lock);
  dftracer_thread_flush_locked(T);
  dftracer_throttle_merge_locked(T->Stats);
  unregisterLocked(T);
  pthread_mutex_unlock(&P->Lock);
  Current = NULL;
  freeThread(T);
  dftracer_busy_leave(Busy);
}

void dftracer_thread_setup(void) {
  ExitKeyValid = pthread_key_create(&ExitKey, onThreadExit) == 0;
}

/* The key was created at load, before the program's own: glibc keeps the
 * values of the first 32 keys in the thread's descriptor, so setting it
 * allocates nothing. */
struct dftracer_thread *dftracer_thread_create_(void) {
  struct dftracer_thread *T =
      (struct dftracer_thread *)dftracer_pages_alloc(sizeof(*T));
  if (!T)
    return NULL;
  T->Chunk = dftracer_chunk_new(DFTRACER_CHUNK_BYTES);
  T->Stats = dftracer_fn_stats_new();
  if (!T->Chunk || !T->Stats) {
    dftracer_chunk_free(T->Chunk);
    dftracer_fn_stats_free(T->Stats);
    dftracer_pages_free(T, sizeof(*T));
    return NULL;
  }
  T->Buf = T->Chunk->Data;
  T->Cap = T->Chunk->Cap;
  T->Tid = (int)syscall(SYS_gettid);
  registerThread(T);
  if (ExitKeyValid)
    pthread_setspecific(ExitKey, T);
  Current = T;
  return T;
}

void dftracer_thread_refill_ids_(struct dftracer_thread *T) {
  T->NextId = __atomic_fetch_add(&NextIdBlock, IdsPerBlock, __ATOMIC_RELAXED);
  T->IdLimit = T->NextId + IdsPerBlock;
}

uint64_t dftracer_take_id_(void) {
  return __atomic_fetch_add(&NextIdBlock, 1, __ATOMIC_RELAXED);
}

int dftracer_thread_grow_pool_(struct dftracer_thread *T) {
  struct dftracer_span_block *B =
      (struct dftracer_span_block *)dftracer_pages_alloc(sizeof(*B));
  int I;
  if (!B)
    return 0;
  B->Next = T->Blocks;
  T->Blocks = B;
  for (I = SpansPerBlock - 1; I >= 0; --I) {
    B->Spans[I].NextFree = T->FreeList;
    T->FreeList = &B->Spans[I];
  }
  return 1;
}

/* Owner only: the buffer is full (or the next line is larger than it). */
char *dftracer_thread_reserve_slow_(struct dftracer_thread *T, size_t Bound) {
  struct dftracer_process *P = &dftracer_process_;
  struct dftracer_chunk *Full = T->Chunk, *Next;
  size_t MinCap = Bound > DFTRACER_CHUNK_BYTES ? Bound : DFTRACER_CHUNK_BYTES;
  /* Where START, END and METADATA reach system calls (the first hand-over
   * starts the writer thread; with no writer, the buffer is written here):
   * what they do to errno must not show in the program. */
  int Saved = errno;
  pthread_mutex_lock(&P->Lock);
  if (Full) {
    /* The unflushed lines travel with the buffer. Marking them flushed
     * first means no FINI on another thread can output them a second time
     * while the hand-over waits for room in the writer's queue. */
    Full->Begin = T->Flushed;
    Full->End = T->Len;
    T->Flushed = T->Len;
    Next = dftracer_writer_swap_locked(Full, MinCap);
  } else {
    Next = dftracer_chunk_new(MinCap); /* retry after running out */
  }
  T->Chunk = Next;
  T->Buf = Next ? Next->Data : NULL;
  T->Cap = Next ? Next->Cap : 0;
  T->Len = T->Flushed = 0;
  __atomic_store_n(&T->Published, (size_t)0, __ATOMIC_RELEASE);
  pthread_mutex_unlock(&P->Lock);
  errno = Saved;
  return T->Buf;
}

void dftracer_thread_flush_locked(struct dftracer_thread *T) {
  size_t Published = __atomic_load_n(&T->Published, __ATOMIC_ACQUIRE);
  if (Published > T->Flushed)
    dftracer_writer_output_locked(T->Buf + T->Flushed,
                                  Published - T->Flushed);
  T->Flushed = Published;
}

void dftracer_thread_flush_all_locked(void) {
  struct dftracer_thread *T;
  for (T = __atomic_load_n(&dftracer_process_.Threads, __ATOMIC_ACQUIRE); T;
       T = T->NextThread)
    dftracer_thread_flush_locked(T);
}

void dftracer_thread_forget_all(int ChildTid) {
  struct dftracer_thread *T = Current;
  /* Other threads do not exist in the child; their states are leaked rather
   * than freed, since their memory may be mid-update. The caller's state
   * stays usable but its unflushed lines belong to the parent. */
  dftracer_process_.Threads = T;
  NextIdBlock = 1;
  if (!T)
    return;
  T->NextThread = NULL;
  T->Len = T->Flushed = 0;
  __atomic_store_n(&T->Published, (size_t)0, __ATOMIC_RELAXED);
  T->NextId = T->IdLimit = 0;
  T->Tid = ChildTid;
  T->PrefixLen = 0;
  memset(&T->IdDigits, 0, sizeof(T->IdDigits));
  /* The open spans were the parent's: the child's file starts at level 1. */
  dftracer_thread_drop_spans(T);
}
