#define _GNU_SOURCE
#include "untraced.h"

#include "internal.h"
#include "json_writer.h"
#include "records.h"
#include "sink.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

_Thread_local int dftracer_untraced_pending_;
unsigned char *dftracer_untraced_fds_;
unsigned dftracer_untraced_fd_limit_;

/* A slot's number fits a descriptor's byte below DftUntracedIgnored; the
 * last one is the catch-all "/". */
enum { Slots = 64, DirMax = 256, Claiming = 1, Ready = 2 };
static struct {
  int State;
  size_t Len;
  char Dir[DirMax];
  uint64_t Opens, Reads, Writes, BytesRead, BytesWritten;
} Dirs[Slots];

static char Line[DftRecordFixedBytes + 16 + Slots * (6 * DirMax + 5 * 40 + 96)];

enum { MaxFds = 1 << 20, MinFds = 1024 };

static void forkChild(void) {
  int I;
  /* The parent's counts are the parent's to report. */
  for (I = 0; I < Slots; ++I)
    Dirs[I].Opens = Dirs[I].Reads = Dirs[I].Writes = Dirs[I].BytesRead =
        Dirs[I].BytesWritten = 0;
}

void dftracer_untraced_setup(void) {
  struct rlimit Limit;
  rlim_t Fds = MaxFds;
  if (getrlimit(RLIMIT_NOFILE, &Limit) == 0 && Limit.rlim_max < Fds)
    Fds = Limit.rlim_max < MinFds ? MinFds : Limit.rlim_max;
  dftracer_untraced_fds_ = (unsigned char *)calloc((size_t)Fds, 1);
  if (dftracer_untraced_fds_)
    dftracer_untraced_fd_limit_ = (unsigned)Fds;
  pthread_atfork(NULL, NULL, forkChild);
}

int dftracer_untraced_slot(const char *Dir, size_t Len) {
  int I;
  if (Len >= DirMax)
    Len = DirMax - 1;
  for (I = 0; I < Slots - 1; ++I) {
    int State = __atomic_load_n(&Dirs[I].State, __ATOMIC_ACQUIRE);
    if (State == 0) {
      int Expected = 0;
      if (!__atomic_compare_exchange_n(&Dirs[I].State, &Expected, Claiming, 0,
                                       __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
        State = Expected;
      } else {
        memcpy(Dirs[I].Dir, Dir, Len);
        Dirs[I].Dir[Len] = '\0';
        Dirs[I].Len = Len;
        __atomic_store_n(&Dirs[I].State, Ready, __ATOMIC_RELEASE);
        return I + 1;
      }
    }
    /* A slot being claimed by another thread is skipped: at worst one
     * directory gets two slots, which the record merges. */
    if (State == Ready && Dirs[I].Len == Len &&
        memcmp(Dirs[I].Dir, Dir, Len) == 0)
      return I + 1;
  }
  if (__atomic_load_n(&Dirs[Slots - 1].State, __ATOMIC_ACQUIRE) != Ready) {
    int Expected = 0;
    if (__atomic_compare_exchange_n(&Dirs[Slots - 1].State, &Expected, Claiming,
                                    0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
      Dirs[Slots - 1].Dir[0] = '/';
      Dirs[Slots - 1].Dir[1] = '\0';
      Dirs[Slots - 1].Len = 1;
      __atomic_store_n(&Dirs[Slots - 1].State, Ready, __ATOMIC_RELEASE);
    }
  }
  return Slots;
}

static void add(uint64_t *Counter, uint64_t N) {
  __atomic_fetch_add(Counter, N, __ATOMIC_RELAXED);
}

void dftracer_untraced_opened(int Fd, int Slot) {
  if ((unsigned)Fd < dftracer_untraced_fd_limit_ &&
      (Slot || dftracer_untraced_fds_[Fd]))
    __atomic_store_n(&dftracer_untraced_fds_[Fd], (unsigned char)Slot,
                     __ATOMIC_RELAXED);
  if (Slot > 0 && Slot <= Slots)
    add(&Dirs[Slot - 1].Opens, 1);
}

void dftracer_untraced_clear_range(unsigned First, unsigned Last) {
  unsigned Fd;
  for (Fd = First; Fd <= Last && Fd < dftracer_untraced_fd_limit_; ++Fd)
    if (dftracer_untraced_fds_[Fd])
      __atomic_store_n(&dftracer_untraced_fds_[Fd], 0, __ATOMIC_RELAXED);
}

void dftracer_untraced_io(int Fd, int Direction, int64_t Ret) {
  int Slot;
  if ((unsigned)Fd >= dftracer_untraced_fd_limit_ ||
      !(Slot = __atomic_load_n(&dftracer_untraced_fds_[Fd], __ATOMIC_RELAXED)) ||
      Slot > Slots)
    return;
  if (Direction == DftUntracedRead) {
    add(&Dirs[Slot - 1].Reads, 1);
    if (Ret > 0)
      add(&Dirs[Slot - 1].BytesRead, (uint64_t)Ret);
  } else {
    add(&Dirs[Slot - 1].Writes, 1);
    if (Ret > 0)
      add(&Dirs[Slot - 1].BytesWritten, (uint64_t)Ret);
  }
}

static uint64_t takeCount(uint64_t *Counter) {
  return __atomic_exchange_n(Counter, 0, __ATOMIC_RELAXED);
}

void dftracer_untraced_report_locked(void) {
  uint64_t Counts[Slots][5];
  char *Out = Line;
  int I, J, Any = 0, First = 1;
  /* Taken (and zeroed) whatever happens next: a trace that restarts (a
   * failed exec) reports only what came after. */
  for (I = 0; I < Slots; ++I) {
    Counts[I][0] = takeCount(&Dirs[I].Opens);
    Counts[I][1] = takeCount(&Dirs[I].Reads);
    Counts[I][2] = takeCount(&Dirs[I].Writes);
    Counts[I][3] = takeCount(&Dirs[I].BytesRead);
    Counts[I][4] = takeCount(&Dirs[I].BytesWritten);
  }
  /* Two slots of one directory (a race at first sight): the first gets
   * both. */
  for (I = 0; I < Slots; ++I) {
    if (__atomic_load_n(&Dirs[I].State, __ATOMIC_ACQUIRE) != Ready)
      continue;
    for (J = I + 1; J < Slots; ++J) {
      int K;
      if (__atomic_load_n(&Dirs[J].State, __ATOMIC_ACQUIRE) != Ready ||
          Dirs[J].Len != Dirs[I].Len ||
          memcmp(Dirs[J].Dir, Dirs[I].Dir, Dirs[I].Len) != 0)
        continue;
      for (K = 0; K < 5; ++K) {
        Counts[I][K] += Counts[J][K];
        Counts[J][K] = 0;
      }
    }
    for (J = 0; J < 5; ++J)
      Any |= Counts[I][J] != 0;
  }
  if (!Any || !dftracer_sink_is_open(&dftracer_process_.Sink))
    return;
  Out = dftracer_record_head(Out, "untraced");
  Out = DFTRACER_PUT_LIT(Out, "\"dirs\":[");
  for (I = 0; I < Slots; ++I) {
    if (__atomic_load_n(&Dirs[I].State, __ATOMIC_ACQUIRE) != Ready ||
        !(Counts[I][0] | Counts[I][1] | Counts[I][2] | Counts[I][3] |
          Counts[I][4]))
      continue;
    if (!First)
      *Out++ = ',';
    First = 0;
    *Out++ = '{';
    Out = dftracer_record_str(Out, "dir", Dirs[I].Dir, 1);
    Out = dftracer_record_u64(Out, "opens", Counts[I][0], 0);
    Out = dftracer_record_u64(Out, "reads", Counts[I][1], 0);
    Out = dftracer_record_u64(Out, "writes", Counts[I][2], 0);
    Out = dftracer_record_u64(Out, "bytes_read", Counts[I][3], 0);
    Out = dftracer_record_u64(Out, "bytes_written", Counts[I][4], 0);
    *Out++ = '}';
  }
  *Out++ = ']';
  Out = dftracer_record_tail(Out);
  dftracer_sink_write(&dftracer_process_.Sink, Line, (size_t)(Out - Line));
}
