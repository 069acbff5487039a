#define _GNU_SOURCE
#include "fd_position.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

struct dftracer_fd_desc *dftracer_fd_descs_;
uint32_t *dftracer_fd_desc_of_;
unsigned dftracer_fd_desc_limit_;

void dftracer_fd_position_setup(unsigned Limit) {
  dftracer_fd_descs_ =
      (struct dftracer_fd_desc *)calloc(Limit, sizeof(*dftracer_fd_descs_));
  dftracer_fd_desc_of_ = (uint32_t *)calloc(Limit, sizeof(uint32_t));
  if (dftracer_fd_descs_ && dftracer_fd_desc_of_)
    dftracer_fd_desc_limit_ = Limit;
}

int64_t dftracer_fd_size(int Fd) {
  struct stat St;
  int Saved = errno;
  /* The system call: the runtime's own fstat is not the program's. */
  long Ok = syscall(SYS_fstat, Fd, &St);
  errno = Saved;
  return Ok == 0 && S_ISREG(St.st_mode) ? (int64_t)St.st_size
                                        : DftPosUnknown;
}

static void release(uint32_t Index) {
  if (Index)
    __atomic_fetch_sub(&dftracer_fd_descs_[Index - 1].Refs, 1,
                       __ATOMIC_RELEASE);
}

/* Point Fd at record Index (0: none), releasing what it pointed at. */
static void point(int Fd, uint32_t Index) {
  release(__atomic_exchange_n(&dftracer_fd_desc_of_[Fd], Index,
                              __ATOMIC_ACQ_REL));
}

void dftracer_fd_position_open(int Fd, int Flags) {
  unsigned I, N = dftracer_fd_desc_limit_;
  if ((unsigned)Fd >= N)
    return;
  point(Fd, 0);
  /* Usually the record of the same number is free: start there. */
  for (I = 0; I < N; ++I) {
    unsigned J = ((unsigned)Fd + I) % N;
    struct dftracer_fd_desc *D = &dftracer_fd_descs_[J];
    uint32_t Zero = 0;
    if (__atomic_load_n(&D->Refs, __ATOMIC_RELAXED) == 0 &&
        __atomic_compare_exchange_n(&D->Refs, &Zero, 1, 0, __ATOMIC_ACQUIRE,
                                    __ATOMIC_RELAXED)) {
      D->Flags = (Flags & O_APPEND) ? DftDescAppend : 0;
      D->Pos = 0;
      D->StreamPos = 0;
      D->End = (Flags & O_APPEND) ? dftracer_fd_size(Fd) : DftPosUnknown;
      __atomic_store_n(&dftracer_fd_desc_of_[Fd], J + 1, __ATOMIC_RELEASE);
      return;
    }
  }
}

void dftracer_fd_position_dup(int OldFd, int NewFd) {
  uint32_t Index = 0;
  if ((unsigned)NewFd >= dftracer_fd_desc_limit_ || OldFd == NewFd)
    return;
  if ((unsigned)OldFd < dftracer_fd_desc_limit_)
    Index = __atomic_load_n(&dftracer_fd_desc_of_[OldFd], __ATOMIC_ACQUIRE);
  if (Index)
    __atomic_fetch_add(&dftracer_fd_descs_[Index - 1].Refs, 1,
                       __ATOMIC_RELAXED);
  point(NewFd, Index);
}

void dftracer_fd_position_close(int Fd) {
  if ((unsigned)Fd < dftracer_fd_desc_limit_ &&
      __atomic_load_n(&dftracer_fd_desc_of_[Fd], __ATOMIC_RELAXED))
    point(Fd, 0);
}

void dftracer_fd_position_close_range(unsigned First, unsigned Last) {
  unsigned Fd;
  for (Fd = First; Fd <= Last && Fd < dftracer_fd_desc_limit_; ++Fd)
    dftracer_fd_position_close((int)Fd);
}

void dftracer_fd_position_seek(int Fd, int64_t Offset, int Whence,
                               int64_t Ret) {
  struct dftracer_fd_desc *D = dftracer_fd_desc(Fd);
  if (!D || Ret < 0)
    return;
  __atomic_store_n(&D->Pos, Ret, __ATOMIC_RELAXED);
  /* SEEK_END tells the end too: an append description resynchronises. */
  if (Whence == SEEK_END && (D->Flags & DftDescAppend) && Ret - Offset >= 0)
    __atomic_store_n(&D->End, Ret - Offset, __ATOMIC_RELAXED);
}

void dftracer_fd_position_truncate(int Fd, int64_t Length) {
  struct dftracer_fd_desc *D = dftracer_fd_desc(Fd);
  if (D && (D->Flags & DftDescAppend))
    __atomic_store_n(&D->End, Length, __ATOMIC_RELAXED);
}

void dftracer_fd_position_resized(int Fd) {
  struct dftracer_fd_desc *D = dftracer_fd_desc(Fd);
  if (D && (D->Flags & DftDescAppend))
    __atomic_store_n(&D->End, dftracer_fd_size(Fd), __ATOMIC_RELAXED);
}

void dftracer_fd_position_set_flags(int Fd, int Flags) {
  struct dftracer_fd_desc *D = dftracer_fd_desc(Fd);
  if (!D)
    return;
  if ((Flags & O_APPEND) && !(D->Flags & DftDescAppend)) {
    __atomic_store_n(&D->End, dftracer_fd_size(Fd), __ATOMIC_RELAXED);
    __atomic_fetch_or(&D->Flags, DftDescAppend, __ATOMIC_RELAXED);
  } else if (!(Flags & O_APPEND)) {
    __atomic_fetch_and(&D->Flags, ~(uint32_t)DftDescAppend, __ATOMIC_RELAXED);
  }
}
