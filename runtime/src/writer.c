#define _GNU_SOURCE /* pthread_setname_np */
#include "writer.h"

#include "budget.h"
#include "compact_writer.h"
#include "internal.h"
#include "busy.h"
#include "layer_check.h"
#include "node_info.h"
#include "pages.h"
#include "run_config.h"
#include "signals.h"
#include "thread_state.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/uio.h>
#include <time.h>

/* The writer is woken once WakeBytes are queued rather than for every
 * buffer: a wake-up costs the waking thread a system call and both threads
 * a context switch, so it is paid once per megabyte. It takes at most
 * BatchChunks buffers at a time, so that the room they held in the queue
 * comes back while it goes on writing, and keeps StockChunks empty ones
 * ready: enough for the threads to hand over a wake-up's worth and more
 * while it sleeps, so that a hand-over almost never maps new pages (a
 * system call, though a safe one in a signal handler, pages.h). The
 * writer's stack is small:
 * it only calls writev and zlib, whose state lives in pages (sink.c). */
enum {
  WakeBytes = 1 << 20,
  BatchChunks = 16,
  StockChunks = WakeBytes / DFTRACER_CHUNK_BYTES + 2,
  WriterStackBytes = 256 * 1024
};

enum writerState {
  WriterIdle,    /* not needed yet; starts on the first full buffer handed
                    over outside a signal handler */
  WriterRunning, /* owns the sink */
  WriterStopped  /* stopped at FINI, never started, or in a forked child */
};

/* Guarded by the process lock. */
static struct {
  enum writerState State;
  int StopRequested;
  int Done; /* the writer has written everything and is leaving */
  pthread_t Thread;
  pthread_cond_t Work;  /* something was queued, or stop was requested */
  pthread_cond_t Space; /* the writer wrote a batch */
  struct dftracer_chunk *Head, *Tail;
  size_t QueuedBytes; /* queued, or taken by the writer and not yet written */
  struct dftracer_chunk *Pool; /* empty buffers of DFTRACER_CHUNK_BYTES */
  int PoolCount;
  /* Lines output under the lock while the writer runs (file names, the
   * rest of a thread's buffer), packed here and queued before anything
   * queued after them. */
  struct dftracer_chunk *Side;
  /* Bytes handed over for the current file, for the size budget. */
  uint64_t Handed;
} W = {.Work = PTHREAD_COND_INITIALIZER, .Space = PTHREAD_COND_INITIALIZER};

/* A chunk is whole pages (pages.h): a hand-over and a file-name line may
 * run in a signal handler, where malloc is unsafe. Its capacity is what the
 * pages hold past the header. */
/* dftracer_writer_on_open's. */
static void (*OnOpen)(void);

void dftracer_writer_on_open(void (*Fn)(void)) { OnOpen = Fn; }

static size_t capacityFor(size_t Cap) {
  return dftracer_pages_round(sizeof(struct dftracer_chunk) + Cap) -
         sizeof(struct dftracer_chunk);
}

struct dftracer_chunk *dftracer_chunk_new(size_t Cap) {
  struct dftracer_chunk *C;
  Cap = capacityFor(Cap);
  C = (struct dftracer_chunk *)dftracer_pages_alloc(
      sizeof(struct dftracer_chunk) + Cap);
  if (C)
    C->Cap = Cap; /* the pages are zeroed: Next, Begin and End too */
  return C;
}

void dftracer_chunk_free(struct dftracer_chunk *C) {
  if (C)
    dftracer_pages_free(C, sizeof(struct dftracer_chunk) + C->Cap);
}

/* The sink, opened on first use. 0 when bytes can be written. */
static int openSinkLocked(void) {
  struct dftracer_process *P = &dftracer_process_;
  if (P->Finished)
    return -1;
  if (dftracer_sink_is_open(&P->Sink))
    return 0;
  if (!P->Config.LogPrefix[0])
    dftracer_config_set_prefix(&P->Config, "./trace");
  if (dftracer_sink_open(&P->Sink, P->Config.LogPrefix, P->Config.Compression,
                         P->TraceHash) != 0)
    return -1;
  dftracer_layer_report_locked();    /* layer_bypassed (layer_check.h) */
  dftracer_node_report_locked();     /* NODE (node_info.h) */
  dftracer_run_config_report_locked(); /* CONFIG, VERSION (run_config.h) */
  if (OnOpen)
    OnOpen(); /* a forked child's first write: its parent's paths */
  return 0;
}

static void writeNowLocked(const char *Data, size_t Len) {
  if (openSinkLocked() == 0)
    dftracer_sink_write(&dftracer_process_.Sink, Data, Len);
}

/* Buffers of the usual size are kept for reuse, never freed while the
 * writer runs: freeing and allocating them again would make the allocator
 * give back and fault in the same memory over and over. Their number stays
 * bounded (writer.h). */
static void recycleLocked(struct dftracer_chunk *C) {
  if (C->Cap != capacityFor(DFTRACER_CHUNK_BYTES)) {
    dftracer_chunk_free(C);
    return;
  }
  C->Begin = C->End = 0;
  C->Next = W.Pool;
  W.Pool = C;
  ++W.PoolCount;
}

/* Writer only: fill the pool up to StockChunks. */
static void stockLocked(void) {
  struct dftracer_chunk *C;
  while (W.PoolCount < StockChunks &&
         (C = dftracer_chunk_new(DFTRACER_CHUNK_BYTES)) != NULL)
    recycleLocked(C);
}

static struct dftracer_chunk *takeEmptyLocked(size_t MinCap) {
  struct dftracer_chunk *C = W.Pool;
  if (C && MinCap <= C->Cap) {
    W.Pool = C->Next;
    --W.PoolCount;
    return C;
  }
  return dftracer_chunk_new(MinCap > DFTRACER_CHUNK_BYTES
                                ? MinCap
                                : DFTRACER_CHUNK_BYTES);
}

static void appendLocked(struct dftracer_chunk *C) {
  C->Next = NULL;
  if (W.Tail)
    W.Tail->Next = C;
  else
    W.Head = C;
  W.Tail = C;
  W.QueuedBytes += C->End - C->Begin;
  if (W.QueuedBytes >= WakeBytes)
    pthread_cond_signal(&W.Work);
}

/* Queue the lines output so far, if any. */
static void queueSideLocked(void) {
  struct dftracer_chunk *Side = W.Side;
  W.Side = NULL;
  if (Side && Side->End > Side->Begin)
    appendLocked(Side);
  else if (Side)
    recycleLocked(Side);
}

/* Queue C after everything output before it. */
static void enqueueLocked(struct dftracer_chunk *C) {
  queueSideLocked();
  appendLocked(C);
}

/* Write a batch in order. Runs without the lock: while the writer runs
 * nobody else touches the sink. */
static void writeBatch(struct dftracer_chunk *Batch) {
  struct iovec Iov[BatchChunks];
  int Count = 0;
  for (; Batch; Batch = Batch->Next, ++Count) {
    Iov[Count].iov_base = Batch->Data + Batch->Begin;
    Iov[Count].iov_len = Batch->End - Batch->Begin;
  }
  dftracer_sink_writev(&dftracer_process_.Sink, Iov, Count);
}

/* Take up to BatchChunks buffers off the queue; *Bytes is their size. */
static struct dftracer_chunk *popBatchLocked(size_t *Bytes) {
  struct dftracer_chunk *Batch = W.Head, *Last = W.Head;
  int Count = 1;
  *Bytes = Last->End - Last->Begin;
  while (Last->Next && Count < BatchChunks) {
    Last = Last->Next;
    *Bytes += Last->End - Last->Begin;
    ++Count;
  }
  W.Head = Last->Next;
  if (!W.Head)
    W.Tail = NULL;
  Last->Next = NULL;
  return Batch;
}

/* Wait for work; after IntervalMs (0: forever) without, ETIMEDOUT. */
static int waitForWorkLocked(unsigned long long IntervalMs) {
  struct timespec Until;
  if (IntervalMs == 0 || clock_gettime(CLOCK_REALTIME, &Until) != 0)
    return pthread_cond_wait(&W.Work, &dftracer_process_.Lock);
  Until.tv_sec += (time_t)(IntervalMs / 1000);
  Until.tv_nsec += (long)(IntervalMs % 1000) * 1000000L;
  if (Until.tv_nsec >= 1000000000L) {
    ++Until.tv_sec;
    Until.tv_nsec -= 1000000000L;
  }
  return pthread_cond_timedwait(&W.Work, &dftracer_process_.Lock, &Until);
}

static void *writerMain(void *Arg) {
  struct dftracer_process *P = &dftracer_process_;
  (void)Arg;
  dftracer_io_busy_ = 1; /* its writes are never traced */
  pthread_setname_np(pthread_self(), "dftracer-write");
  pthread_mutex_lock(&P->Lock);
  for (;;) {
    struct dftracer_chunk *Batch, *Next;
    size_t Bytes;
    int Open;
    stockLocked();
    while (!W.Head && !W.StopRequested)
      if (waitForWorkLocked(P->Config.FlushIntervalMs) == ETIMEDOUT) {
        /* A quiet interval: what the threads have finished, however
         * little, goes to the file, so that a process killed without
         * running any code (SIGKILL, the OOM killer) loses at most the
         * events of one interval (and its unfinished spans). */
        dftracer_thread_flush_all_locked();
        queueSideLocked();
      }
    if (!W.Head)
      break; /* stop requested and everything written */
    Batch = popBatchLocked(&Bytes);
    /* Opened under the lock: INIT may be setting the prefix. */
    Open = openSinkLocked() == 0;
    pthread_mutex_unlock(&P->Lock);
    if (Open)
      writeBatch(Batch);
    pthread_mutex_lock(&P->Lock);
    W.QueuedBytes -= Bytes;
    for (; Batch; Batch = Next) {
      Next = Batch->Next;
      recycleLocked(Batch);
    }
    pthread_cond_broadcast(&W.Space);
  }
  W.Done = 1; /* a stop waits for this, and joins only if it may */
  pthread_cond_broadcast(&W.Space);
  pthread_mutex_unlock(&P->Lock);
  return NULL;
}

/* Start the writer with every signal blocked, so that signals meant for the
 * application are never delivered to it. Not from a signal handler:
 * pthread_create allocates the new thread's TLS with malloc and takes
 * glibc's stack-cache lock, either of which the code the signal
 * interrupted may hold. Where the calling thread may be running one
 * (signals.h: judged from its mask, which is read here anyway), the writer
 * stays idle, this hand-over writes its buffer itself, and a later one
 * starts it. */
static void startLocked(void) {
  pthread_attr_t Attr;
  sigset_t All, Old;
  sigfillset(&All);
  pthread_sigmask(SIG_SETMASK, &All, &Old);
  if (!dftracer_signals_may_be_handling(&Old)) {
    W.State = WriterStopped; /* unless it starts: then writes stay here */
    if (pthread_attr_init(&Attr) == 0) {
      pthread_attr_setstacksize(&Attr, WriterStackBytes);
      if (pthread_create(&W.Thread, &Attr, writerMain, NULL) == 0)
        W.State = WriterRunning;
      pthread_attr_destroy(&Attr);
    }
  }
  pthread_sigmask(SIG_SETMASK, &Old, NULL);
}

/* The trace's size so far, as the budget counts it (budget.h). The
 * threads hand over span records (event_record.h), which the sink's
 * encoder turns into the file's bytes: the bytes written, plus what is
 * queued at the ratio seen so far, plus the encoder's output buffer. A
 * gzip or compact trace is smaller than what was handed (1 before any);
 * a plain .pfw larger, its lines longer than the records (2 before any:
 * a span's line is ~1.5 times its record). */
static void accountLocked(size_t Bytes) {
  struct dftracer_process *P = &dftracer_process_;
  uint64_t FileBytes, Written, In, Pending;
  int Grows = dftracer_trace_format_ == DftFormatPfw && !P->Config.Compression;
  W.Handed += Bytes;
  if (P->Finishing)
    return; /* the rest of the buffers, the last lines: room was left */
  Written = __atomic_load_n(&P->Sink.Written, __ATOMIC_RELAXED);
  In = __atomic_load_n(&P->Sink.Consumed, __ATOMIC_RELAXED);
  Pending = W.Handed > In ? W.Handed - In : 0;
  if (Grows)
    Pending = In > 0 && Written > In
                  ? (uint64_t)((double)Pending * (double)Written / (double)In) +
                        1
                  : 2 * Pending;
  else if (In > 0)
    Pending /= In / (Written + 1) + 1;
  FileBytes = Written + (256u << 10) + Pending;
  dftracer_budget_check_locked(FileBytes);
}

struct dftracer_chunk *dftracer_writer_swap_locked(struct dftracer_chunk *Full,
                                                   size_t MinCap) {
  struct dftracer_process *P = &dftracer_process_;
  struct dftracer_chunk *Grown;
  int Starting = W.State == WriterIdle && !P->Finished;
  accountLocked(Full->End - Full->Begin);
  if (Starting)
    startLocked();
  while (W.State == WriterRunning &&
         W.QueuedBytes >= DFTRACER_WRITER_QUEUE_BYTES) {
    pthread_cond_signal(&W.Work); /* in case the limit is below WakeBytes */
    pthread_cond_wait(&W.Space, &P->Lock);
  }
  /* The hand-over that starts the writer (or would have, but for a
   * handler it may be in) writes its buffer here, so that
   * the trace file and its first events exist however long the new thread
   * waits for a CPU (a process killed before it runs keeps them). Every
   * later one is queued, even before the writer has stocked its pool: an
   * empty buffer is pages from the kernel, safe in a signal handler
   * (pages.h). Were this thread to write it, it would encode the buffer
   * under the lock every other thread's hand-over waits for, and the
   * writer, finding the lock taken, could keep losing the race for it
   * (issue 40). */
  if (W.State == WriterRunning && !Starting) {
    struct dftracer_chunk *Empty = takeEmptyLocked(MinCap);
    if (Empty) {
      enqueueLocked(Full);
      return Empty;
    }
  }
  /* No writer, the one just started, or no memory for a second buffer. */
  writeNowLocked(Full->Data + Full->Begin, Full->End - Full->Begin);
  Full->Begin = Full->End = 0;
  if (Full->Cap >= MinCap)
    return Full;
  Grown = dftracer_chunk_new(MinCap);
  dftracer_chunk_free(Full);
  return Grown;
}

void dftracer_writer_output_locked(const char *Data, size_t Len) {
  /* Once tracing has stopped only the last lines are written (file names
   * would grow the trace with every new file). */
  if (Len > 0 &&
      __atomic_load_n(&dftracer_trace_stopped_, __ATOMIC_RELAXED) &&
      !dftracer_process_.Finishing)
    return;
  accountLocked(Len);
  if (W.State != WriterRunning) {
    writeNowLocked(Data, Len); /* Len 0 still creates the file */
    return;
  }
  while (Len > 0) {
    size_t Part;
    if (!W.Side && !(W.Side = takeEmptyLocked(DFTRACER_CHUNK_BYTES)))
      return; /* out of memory: these lines are lost, as with any other */
    Part = W.Side->Cap - W.Side->End;
    if (Part > Len)
      Part = Len;
    memcpy(W.Side->Data + W.Side->End, Data, Part);
    W.Side->End += Part;
    Data += Part;
    Len -= Part;
    if (W.Side->End == W.Side->Cap)
      queueSideLocked();
  }
}

void dftracer_writer_stop_locked(int Join) {
  struct dftracer_process *P = &dftracer_process_;
  struct dftracer_chunk *C;
  if (W.State == WriterRunning) {
    W.StopRequested = 1;
    pthread_cond_signal(&W.Work);
    while (!W.Done)
      pthread_cond_wait(&W.Space, &P->Lock);
    if (Join) {
      pthread_mutex_unlock(&P->Lock);
      pthread_join(W.Thread, NULL);
      pthread_mutex_lock(&P->Lock);
    }
  }
  W.State = WriterStopped;
  pthread_cond_broadcast(&W.Space);
  queueSideLocked(); /* the newest lines: after everything queued */
  /* Queued after the writer's last look: threads that were waiting for
   * space when it stopped. */
  while ((C = W.Head) != NULL) {
    W.Head = C->Next;
    writeNowLocked(C->Data + C->Begin, C->End - C->Begin);
    dftracer_chunk_free(C);
  }
  W.Tail = NULL;
  W.QueuedBytes = 0;
  /* Libraries whose version became known after the file's top (MPI's,
   * learnt with the rank; a libhdf5 loaded later): VERSION at the end. */
  dftracer_run_config_end_locked(Join);
  W.Handed = 0; /* a new file, if any, has its own budget */
  while ((C = W.Pool) != NULL) {
    W.Pool = C->Next;
    dftracer_chunk_free(C);
  }
  W.PoolCount = 0;
}

void dftracer_writer_forget(void) {
  /* The parent's writer may have been using the queue and the pool at the
   * fork: they are leaked, not freed. */
  W.State = WriterStopped;
  W.StopRequested = W.Done = 0;
  W.Head = W.Tail = W.Pool = W.Side = NULL;
  W.QueuedBytes = 0;
  W.PoolCount = 0;
  W.Handed = 0;
  pthread_cond_init(&W.Work, NULL);
  pthread_cond_init(&W.Space, NULL);
}
