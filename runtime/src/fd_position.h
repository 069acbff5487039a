/*===- fd_position.h - The file position of each open file description ----===*
 *
 * read, write, readv, writev (and their _chk forms) move a position the
 * kernel keeps per open file description, which dup, dup2, dup3,
 * fcntl(F_DUPFD) and fork share. The runtime mirrors it, so that their
 * events carry the `offset` they started at without an extra system call:
 * a description is set up at a traced open (position 0; with O_APPEND, the
 * end from one fstat), moved by the data calls' results and lseek's, left
 * alone by ftruncate and the positioned calls, shared by the duplicated
 * descriptors and forgotten with the last of them.
 *
 * A stream (stdio.c) has a position of its own, ftell's, kept in the same
 * record: libc moves the descriptor's position with internal calls no
 * wrapper sees (buffered reads and writes, fseek's lseek), so a stream call
 * makes the descriptor's position unknown.
 *
 * Unknown (DftPosUnknown) is never guessed: the event has no `offset`. It
 * is wrong, not unknown, when another process moves a description this one
 * shares (fork, a descriptor passed over a socket) or another description
 * appends to the same file (the `append` end is this description's belief),
 * and when two threads race on one description (the records are updated
 * without a lock, as two unsynchronised calls have no order anyway).
 *
 * Records come from one table sized like the descriptor table at load (a
 * description always has a descriptor, so there are enough); claiming and
 * releasing one is a compare-and-swap, so this runs in signal handlers and
 * allocates nothing on the event path.
 *
 *===----------------------------------------------------------------------===*/
#ifndef DFTRACER_RUNTIME_FD_POSITION_H
#define DFTRACER_RUNTIME_FD_POSITION_H

#include "internal.h"

#include <stdint.h>

#define DftPosUnknown ((int64_t)-1)

enum {
  DftDescAppend = 1,   /* O_APPEND: writes go to the end */
  DftStreamAppend = 2, /* a stream opened "a": fwrite goes to the end */
};

struct dftracer_fd_desc {
  int64_t Pos;       /* the descriptor's position */
  int64_t End;       /* the file's end as this description believes it */
  int64_t StreamPos; /* ftell of the stream on it */
  uint32_t Refs;     /* descriptors that share it; 0: free */
  uint32_t Flags;
};

extern struct dftracer_fd_desc *dftracer_fd_descs_ DFT_HIDDEN;
/* Per descriptor: 1 + its record's index, 0 for none. */
extern uint32_t *dftracer_fd_desc_of_ DFT_HIDDEN;
extern unsigned dftracer_fd_desc_limit_ DFT_HIDDEN;

/* Fd's record, NULL when it has none (untraced, opened before tracing). */
static inline struct dftracer_fd_desc *dftracer_fd_desc(int Fd) {
  uint32_t I;
  if ((unsigned)Fd >= dftracer_fd_desc_limit_)
    return 0;
  I = __atomic_load_n(&dftracer_fd_desc_of_[Fd], __ATOMIC_RELAXED);
  return I ? &dftracer_fd_descs_[I - 1] : 0;
}

/* The offset a non-positioned read or write on D starts at; *Append gets 1
 * for a write on an O_APPEND description. */
static inline int64_t dftracer_pos_before(struct dftracer_fd_desc *D,
                                          int Write, int *Append) {
  *Append = 0;
  if (!D)
    return DftPosUnknown;
  if (Write && (D->Flags & DftDescAppend)) {
    *Append = 1;
    return __atomic_load_n(&D->End, __ATOMIC_RELAXED);
  }
  return __atomic_load_n(&D->Pos, __ATOMIC_RELAXED);
}

/* The call that started at Offset moved Ret bytes (< 0: failed). */
static inline void dftracer_pos_after(struct dftracer_fd_desc *D,
                                      int64_t Offset, int Append,
                                      int64_t Ret) {
  if (!D || Ret < 0 || Offset < 0)
    return;
  if (Append)
    __atomic_store_n(&D->End, Offset + Ret, __ATOMIC_RELAXED);
  __atomic_store_n(&D->Pos, Offset + Ret, __ATOMIC_RELAXED);
}

/* A read or write in flight on a descriptor: where it started, found
 * before the call and moved by its result after it. */
struct dftracer_fd_move {
  struct dftracer_fd_desc *Desc; /* NULL: the position is not known */
  int64_t Offset;                /* DftPosUnknown when not known */
  int Append;                    /* a write on an O_APPEND description */
};

/* Before the call on Fd (a write when Write). */
static inline void dftracer_move_begin(struct dftracer_fd_move *M, int Fd,
                                       int Write) {
  M->Desc = dftracer_fd_desc(Fd);
  M->Offset = dftracer_pos_before(M->Desc, Write, &M->Append);
}

/* After it: it moved Ret bytes (< 0: failed). */
static inline void dftracer_move_end(const struct dftracer_fd_move *M,
                                     int64_t Ret) {
  dftracer_pos_after(M->Desc, M->Offset, M->Append, Ret);
}

/* At load, tracing on: one record per trackable descriptor. May allocate. */
void dftracer_fd_position_setup(unsigned Limit);
/* Fd was just opened (a new description) with Flags; an O_APPEND one learns
 * the file's size. Leaves errno alone. */
void dftracer_fd_position_open(int Fd, int Flags);
/* NewFd now shares OldFd's description (a NewFd it replaces is released). */
void dftracer_fd_position_dup(int OldFd, int NewFd);
/* Fd no longer refers to its description. */
void dftracer_fd_position_close(int Fd);
void dftracer_fd_position_close_range(unsigned First, unsigned Last);
/* lseek(Fd, Offset, Whence) returned Ret. */
void dftracer_fd_position_seek(int Fd, int64_t Offset, int Whence,
                               int64_t Ret);
/* ftruncate(Fd, Length) succeeded. */
void dftracer_fd_position_truncate(int Fd, int64_t Length);
/* fallocate or posix_fallocate succeeded: an append description learns
 * the file's end again (one fstat). */
void dftracer_fd_position_resized(int Fd);
/* fcntl(Fd, F_SETFL, Flags) succeeded. Leaves errno alone. */
void dftracer_fd_position_set_flags(int Fd, int Flags);
/* The file's size by fstat, DftPosUnknown when it fails; errno kept. */
int64_t dftracer_fd_size(int Fd);

#endif
