/*===- posix.c - The POSIX layer: descriptors, data, metadata -------------===*
 *
 * Each wrapper has the name and signature of the libc function, so that a
 * program linked with the library, or preloaded with it, calls it instead of
 * libc's (and so do libmpi and libhdf5). Events are `cat` "POSIX", named
 * after the symbol, with upstream DFTracer's argument keys (docs/runtime.md).
 *
 * The descriptor table (io_core.h) learns each descriptor's file at open,
 * dup/dup2/dup3/fcntl(F_DUPFD) and forgets it at close/close_range, so a
 * call on a descriptor costs one table load to decide; a call on a path
 * runs the filter (io_filter.h). A descriptor the runtime saw no open of
 * (a socket, a pipe, an inherited one) is classified at its first call
 * here (fd_classify.h); the calls that make files with names of their own
 * (mkstemp, shm_open, memfd_create) are in fd_create.c.
 *
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include "io_decls.h"

#include "fd_classify.h"
#include "fd_position.h"
#include "io_core.h"
#include "io_data_call.h"
#include "io_real.h"
#include "untraced.h"

#include <errno.h>
#include <stdarg.h>
#include <sys/file.h>
#include <sys/wait.h>

#define POSIX DftLayerPosix

/* The wrappers are the library's interface, like libc's functions: they
 * must be visible to the dynamic linker (everything else is hidden). */
const char dftracer_posix_layer_[] DFT_HIDDEN = "posix";

/* The calls that make files of their own (fd_create.c) go with this
 * layer into a program linked with the static archive. */
extern const char dftracer_fd_create_object_[];
const char *const volatile dftracer_posix_needs_fd_create_ DFT_HIDDEN =
    dftracer_fd_create_object_;

#pragma GCC visibility push(default)

/* --- Calls on a descriptor ------------------------------------------------ */

/* The body of a wrapper of a call on descriptor FD: CALL is the real call,
 * the rest the event's args (the result is `Ret`). */
#define FD_CALL(RetType, NAME, FD, CALL, ...)                                  \
  struct dftracer_io_call C;                                                   \
  RetType Ret;                                                                 \
  if (DFT_LIKELY(!dftracer_fd_begin(&C, POSIX, NAME, FD)))                  \
    return CALL;                                                               \
  Ret = CALL;                                                                  \
  DFT_IO_END(&C, __VA_ARGS__);                                                 \
  return Ret

/* A data call that is not traced returns here: one on a file the filter
 * left out is counted (DIRECTION, untraced.h). */
#define FD_UNTRACED_RETURN(FD, DIRECTION, CALL)                                \
  do {                                                                         \
    if (DFT_LIKELY(!dftracer_untraced_fd(FD)) || !dftracer_io_on(POSIX))       \
      return CALL;                                                             \
    Ret = CALL;                                                                \
    dftracer_untraced_io(FD, DIRECTION, (int64_t)Ret);                         \
    return Ret;                                                                \
  } while (0)

/* FD_CALL for a read or write (DIRECTION, untraced.h) whose buffer is at
 * address ADDR (its mem_align, io_core.h; read after the call): a call on
 * a file the filter left out is counted there. */
#define FD_DATA_CALL(RetType, NAME, FD, DIRECTION, ADDR, CALL, ...)            \
  struct dftracer_io_call C;                                                   \
  RetType Ret;                                                                 \
  if (DFT_LIKELY(!dftracer_fd_begin(&C, POSIX, NAME, FD)))                  \
    FD_UNTRACED_RETURN(FD, DIRECTION, CALL);                                   \
  Ret = CALL;                                                                  \
  DFT_IO_END_ALIGNED(&C, ADDR, __VA_ARGS__);                                   \
  return Ret
#define RD DftUntracedRead
#define WR DftUntracedWrite

/* FD_DATA_CALL for pread and pwrite: their args are fd, count, offset and
 * ret (and mem_align), which dftracer_io_end_at stores with no array
 * (issue 40). */
#define FD_AT_CALL(NAME, FD, DIRECTION, COUNT, OFFSET, ADDR, CALL)             \
  struct dftracer_io_call C;                                                   \
  ssize_t Ret;                                                                 \
  if (DFT_LIKELY(!dftracer_io_data_begin(&C, POSIX, NAME, FD)))               \
    FD_UNTRACED_RETURN(FD, DIRECTION, CALL);                                   \
  Ret = CALL;                                                                  \
  dftracer_io_end_at(&C, FD, (int64_t)(COUNT), (int64_t)(OFFSET),              \
                     (int64_t)Ret, (ADDR));                                    \
  return Ret

/* FD_DATA_CALL for the calls that move the description's position: the
 * event gets the offset it started at (fd_position.h), and `append` for a
 * write at the end. */
#define FD_MOVING_CALL(NAME, FD, DIRECTION, IS_VECTOR, COUNT, ADDR, CALL)      \
  struct dftracer_io_call C;                                                   \
  struct dftracer_fd_move M;                                                   \
  ssize_t Ret;                                                                 \
  if (DFT_LIKELY(!dftracer_io_data_begin(&C, POSIX, NAME, FD)))               \
    FD_UNTRACED_RETURN(FD, DIRECTION, CALL);                                   \
  dftracer_move_begin(&M, FD, (DIRECTION) == WR);                              \
  Ret = CALL;                                                                  \
  dftracer_move_end(&M, (int64_t)Ret);                                         \
  if (IS_VECTOR)                                                               \
    dftracer_io_end_data(&C, DftDataVector, FD, 0, (int64_t)(COUNT),           \
                         M.Offset, M.Append, (int64_t)Ret, (ADDR));            \
  else                                                                         \
    dftracer_io_end_moving(&C, FD, (int64_t)(COUNT), M.Offset, M.Append,       \
                           (int64_t)Ret, (ADDR));                              \
  return Ret

/* The address a vector call's mem_align is taken from: the bits of all
 * its buffers' addresses, whose lowest is the smallest power of two over
 * them (dftracer_mem_align). Read only when the call succeeded: the kernel
 * has read the array then. */
static inline uintptr_t iovAddr(const struct iovec *Iov, int Count,
                                ssize_t Ret) {
  uintptr_t Bits = 0;
  int I;
  if (Ret < 0)
    return 0;
  for (I = 0; I < Count; ++I)
    Bits |= (uintptr_t)Iov[I].iov_base;
  return Bits;
}

ssize_t read(int fd, void *buf, size_t count) {
  FD_MOVING_CALL("read", fd, RD, 0, count, (uintptr_t)buf,
                 DFT_REAL(read)(fd, buf, count));
}

ssize_t __read_chk(int fd, void *buf, size_t count, size_t buflen) {
  FD_MOVING_CALL("__read_chk", fd, RD, 0, count, (uintptr_t)buf,
                 DFT_REAL(__read_chk)(fd, buf, count, buflen));
}

ssize_t write(int fd, const void *buf, size_t count) {
  FD_MOVING_CALL("write", fd, WR, 0, count, (uintptr_t)buf,
                 DFT_REAL(write)(fd, buf, count));
}

ssize_t pread(int fd, void *buf, size_t count, off_t offset) {
  FD_AT_CALL("pread", fd, RD, count, offset, (uintptr_t)buf,
             DFT_REAL(pread)(fd, buf, count, offset));
}

ssize_t pread64(int fd, void *buf, size_t count, off64_t offset) {
  FD_AT_CALL("pread64", fd, RD, count, offset, (uintptr_t)buf,
             DFT_REAL(pread64)(fd, buf, count, offset));
}

ssize_t __pread_chk(int fd, void *buf, size_t count, off_t offset,
                    size_t buflen) {
  FD_AT_CALL("__pread_chk", fd, RD, count, offset, (uintptr_t)buf,
             DFT_REAL(__pread_chk)(fd, buf, count, offset, buflen));
}

ssize_t __pread64_chk(int fd, void *buf, size_t count, off64_t offset,
                      size_t buflen) {
  FD_AT_CALL("__pread64_chk", fd, RD, count, offset, (uintptr_t)buf,
             DFT_REAL(__pread64_chk)(fd, buf, count, offset, buflen));
}

ssize_t pwrite(int fd, const void *buf, size_t count, off_t offset) {
  FD_AT_CALL("pwrite", fd, WR, count, offset, (uintptr_t)buf,
             DFT_REAL(pwrite)(fd, buf, count, offset));
}

ssize_t pwrite64(int fd, const void *buf, size_t count, off64_t offset) {
  FD_AT_CALL("pwrite64", fd, WR, count, offset, (uintptr_t)buf,
             DFT_REAL(pwrite64)(fd, buf, count, offset));
}

ssize_t readv(int fd, const struct iovec *iov, int iovcnt) {
  FD_MOVING_CALL("readv", fd, RD, 1, iovcnt, iovAddr(iov, iovcnt, Ret),
                 DFT_REAL(readv)(fd, iov, iovcnt));
}

ssize_t writev(int fd, const struct iovec *iov, int iovcnt) {
  FD_MOVING_CALL("writev", fd, WR, 1, iovcnt, iovAddr(iov, iovcnt, Ret),
                 DFT_REAL(writev)(fd, iov, iovcnt));
}

ssize_t preadv(int fd, const struct iovec *iov, int iovcnt, off_t offset) {
  FD_DATA_CALL(ssize_t, "preadv", fd, RD, iovAddr(iov, iovcnt, Ret),
               DFT_REAL(preadv)(fd, iov, iovcnt, offset),
          DFT_ARG(fd, fd), DFT_ARG(iovcnt, iovcnt), DFT_ARG(offset, offset),
          DFT_ARG(ret, Ret));
}

ssize_t preadv64(int fd, const struct iovec *iov, int iovcnt,
                 off64_t offset) {
  FD_DATA_CALL(ssize_t, "preadv64", fd, RD, iovAddr(iov, iovcnt, Ret),
          DFT_REAL(preadv64)(fd, iov, iovcnt, offset), DFT_ARG(fd, fd),
          DFT_ARG(iovcnt, iovcnt), DFT_ARG(offset, offset), DFT_ARG(ret, Ret));
}

ssize_t pwritev(int fd, const struct iovec *iov, int iovcnt, off_t offset) {
  FD_DATA_CALL(ssize_t, "pwritev", fd, WR, iovAddr(iov, iovcnt, Ret),
               DFT_REAL(pwritev)(fd, iov, iovcnt, offset),
          DFT_ARG(fd, fd), DFT_ARG(iovcnt, iovcnt), DFT_ARG(offset, offset),
          DFT_ARG(ret, Ret));
}

ssize_t pwritev64(int fd, const struct iovec *iov, int iovcnt,
                  off64_t offset) {
  FD_DATA_CALL(ssize_t, "pwritev64", fd, WR, iovAddr(iov, iovcnt, Ret),
          DFT_REAL(pwritev64)(fd, iov, iovcnt, offset), DFT_ARG(fd, fd),
          DFT_ARG(iovcnt, iovcnt), DFT_ARG(offset, offset), DFT_ARG(ret, Ret));
}

/* FD_CALL that also runs AFTER (on `Ret`) when the call was traced. */
#define FD_CALL_THEN(RetType, NAME, FD, CALL, AFTER, ...)                      \
  struct dftracer_io_call C;                                                   \
  RetType Ret;                                                                 \
  if (DFT_LIKELY(!dftracer_fd_begin(&C, POSIX, NAME, FD)))                  \
    return CALL;                                                               \
  Ret = CALL;                                                                  \
  AFTER;                                                                       \
  DFT_IO_END(&C, __VA_ARGS__);                                                 \
  return Ret

off_t lseek(int fd, off_t offset, int whence) {
  FD_CALL_THEN(off_t, "lseek", fd, DFT_REAL(lseek)(fd, offset, whence),
               dftracer_fd_position_seek(fd, offset, whence, Ret),
               DFT_ARG(fd, fd), DFT_ARG(offset, offset),
               DFT_ARG(whence, whence), DFT_ARG(ret, Ret));
}

off64_t lseek64(int fd, off64_t offset, int whence) {
  FD_CALL_THEN(off64_t, "lseek64", fd, DFT_REAL(lseek64)(fd, offset, whence),
               dftracer_fd_position_seek(fd, offset, whence, Ret),
               DFT_ARG(fd, fd), DFT_ARG(offset, offset),
               DFT_ARG(whence, whence), DFT_ARG(ret, Ret));
}

int fsync(int fd) {
  FD_CALL(int, "fsync", fd, DFT_REAL(fsync)(fd), DFT_ARG(fd, fd),
          DFT_ARG(ret, Ret));
}

int fdatasync(int fd) {
  FD_CALL(int, "fdatasync", fd, DFT_REAL(fdatasync)(fd), DFT_ARG(fd, fd),
          DFT_ARG(ret, Ret));
}

/* Advice, space and write-back on a range: events with the range. */
int posix_fadvise(int fd, off_t offset, off_t len, int advice) {
  FD_CALL(int, "posix_fadvise", fd,
          DFT_REAL(posix_fadvise)(fd, offset, len, advice), DFT_ARG(fd, fd),
          DFT_ARG(offset, offset), DFT_ARG(length, len),
          DFT_ARG(advice, advice), DFT_ARG(ret, Ret));
}

int posix_fadvise64(int fd, off64_t offset, off64_t len, int advice) {
  FD_CALL(int, "posix_fadvise64", fd,
          DFT_REAL(posix_fadvise64)(fd, offset, len, advice), DFT_ARG(fd, fd),
          DFT_ARG(offset, offset), DFT_ARG(length, len),
          DFT_ARG(advice, advice), DFT_ARG(ret, Ret));
}

int sync_file_range(int fd, off64_t offset, off64_t nbytes,
                    unsigned int flags) {
  FD_CALL(int, "sync_file_range", fd,
          DFT_REAL(sync_file_range)(fd, offset, nbytes, flags),
          DFT_ARG(fd, fd), DFT_ARG(offset, offset), DFT_ARG(length, nbytes),
          DFT_ARG(flags, flags), DFT_ARG(ret, Ret));
}

/* Space allocated past the end moves an append description's end. */
#define RESIZED(FD, RET)                                                       \
  if ((RET) == 0)                                                              \
  dftracer_fd_position_resized(FD)

int fallocate(int fd, int mode, off_t offset, off_t len) {
  FD_CALL_THEN(int, "fallocate", fd,
               DFT_REAL(fallocate)(fd, mode, offset, len), RESIZED(fd, Ret),
               DFT_ARG(fd, fd), DFT_ARG(mode, mode), DFT_ARG(offset, offset),
               DFT_ARG(length, len), DFT_ARG(ret, Ret));
}

int fallocate64(int fd, int mode, off64_t offset, off64_t len) {
  FD_CALL_THEN(int, "fallocate64", fd,
               DFT_REAL(fallocate64)(fd, mode, offset, len), RESIZED(fd, Ret),
               DFT_ARG(fd, fd), DFT_ARG(mode, mode), DFT_ARG(offset, offset),
               DFT_ARG(length, len), DFT_ARG(ret, Ret));
}

/* posix_fallocate returns an error number (errno is not set). */
int posix_fallocate(int fd, off_t offset, off_t len) {
  FD_CALL_THEN(int, "posix_fallocate", fd,
               DFT_REAL(posix_fallocate)(fd, offset, len), RESIZED(fd, Ret),
               DFT_ARG(fd, fd), DFT_ARG(offset, offset),
               DFT_ARG(length, len), DFT_ARG(ret, Ret));
}

int posix_fallocate64(int fd, off64_t offset, off64_t len) {
  FD_CALL_THEN(int, "posix_fallocate64", fd,
               DFT_REAL(posix_fallocate64)(fd, offset, len), RESIZED(fd, Ret),
               DFT_ARG(fd, fd), DFT_ARG(offset, offset),
               DFT_ARG(length, len), DFT_ARG(ret, Ret));
}

/* flock: the event lasts as long as the call waited for the lock. */
int flock(int fd, int operation) {
  FD_CALL(int, "flock", fd, DFT_REAL(flock)(fd, operation), DFT_ARG(fd, fd),
          DFT_ARG(operation, operation), DFT_ARG(ret, Ret));
}

/* ftruncate leaves the position where it is; an append description's
 * end is the new length. */
#define TRUNCATED(FD, LENGTH, RET)                                             \
  if ((RET) == 0)                                                              \
  dftracer_fd_position_truncate(FD, LENGTH)

int ftruncate(int fd, off_t length) {
  FD_CALL_THEN(int, "ftruncate", fd, DFT_REAL(ftruncate)(fd, length),
               TRUNCATED(fd, length, Ret), DFT_ARG(fd, fd),
               DFT_ARG(length, length), DFT_ARG(ret, Ret));
}

int ftruncate64(int fd, off64_t length) {
  FD_CALL_THEN(int, "ftruncate64", fd, DFT_REAL(ftruncate64)(fd, length),
               TRUNCATED(fd, length, Ret), DFT_ARG(fd, fd),
               DFT_ARG(length, length), DFT_ARG(ret, Ret));
}

int fstat(int fd, struct stat *buf) {
  FD_CALL(int, "fstat", fd, DFT_REAL(fstat)(fd, buf), DFT_ARG(fd, fd),
          DFT_ARG(ret, Ret));
}

int fstat64(int fd, struct stat64 *buf) {
  FD_CALL(int, "fstat64", fd, DFT_REAL(fstat64)(fd, buf), DFT_ARG(fd, fd),
          DFT_ARG(ret, Ret));
}

int __fxstat(int ver, int fd, struct stat *buf) {
  FD_CALL(int, "__fxstat", fd, DFT_REAL(__fxstat)(ver, fd, buf),
          DFT_ARG(fd, fd), DFT_ARG(ret, Ret));
}

int __fxstat64(int ver, int fd, struct stat64 *buf) {
  FD_CALL(int, "__fxstat64", fd, DFT_REAL(__fxstat64)(ver, fd, buf),
          DFT_ARG(fd, fd), DFT_ARG(ret, Ret));
}

/* --- mmap and msync ------------------------------------------------------
 * msync names no descriptor: the mappings of traced files are remembered
 * (the last few; a mapping made over one forgets it) to name its file.
 * The real mmap is never looked up from inside mmap (DFT_REAL_NOLOAD). */
enum { MappingSlots = 64 };
static struct {
  uintptr_t Begin, End; /* atomic */
  uint64_t Hash;
} Mappings[MappingSlots];
static unsigned NextMapping;

static void forgetMappings(uintptr_t Begin, uintptr_t End) {
  int I;
  for (I = 0; I < MappingSlots; ++I) {
    uintptr_t B = __atomic_load_n(&Mappings[I].Begin, __ATOMIC_RELAXED);
    uintptr_t E = __atomic_load_n(&Mappings[I].End, __ATOMIC_RELAXED);
    if (B < End && Begin < E)
      __atomic_store_n(&Mappings[I].End, (uintptr_t)0, __ATOMIC_RELAXED);
  }
}

static void noteMapping(void *Addr, size_t Len, uint64_t Hash) {
  uintptr_t B = (uintptr_t)Addr;
  unsigned I;
  forgetMappings(B, B + Len);
  if (!Hash)
    return;
  I = __atomic_fetch_add(&NextMapping, 1, __ATOMIC_RELAXED) % MappingSlots;
  __atomic_store_n(&Mappings[I].End, (uintptr_t)0, __ATOMIC_RELAXED);
  __atomic_store_n(&Mappings[I].Hash, Hash, __ATOMIC_RELAXED);
  __atomic_store_n(&Mappings[I].Begin, B, __ATOMIC_RELAXED);
  __atomic_store_n(&Mappings[I].End, B + Len, __ATOMIC_RELEASE);
}

static uint64_t mappingHash(void *Addr) {
  uintptr_t A = (uintptr_t)Addr;
  int I;
  for (I = 0; I < MappingSlots; ++I) {
    uintptr_t E = __atomic_load_n(&Mappings[I].End, __ATOMIC_ACQUIRE);
    if (A < E && A >= __atomic_load_n(&Mappings[I].Begin, __ATOMIC_RELAXED))
      return __atomic_load_n(&Mappings[I].Hash, __ATOMIC_RELAXED);
  }
  return 0;
}

#define MMAP_BODY(NAME, REAL)                                                  \
  struct dftracer_io_call C;                                                   \
  void *Ret;                                                                   \
  uint64_t Hash;                                                               \
  int On;                                                                      \
  if (DFT_LIKELY(!dftracer_io_tracking()))                                     \
    return REAL(addr, length, prot, flags, fd, offset);                        \
  Hash = (flags & MAP_ANONYMOUS) ? 0 : dftracer_fd_get(fd);                    \
  On = Hash && dftracer_io_on(POSIX) &&                                        \
       dftracer_io_begin(&C, POSIX, NAME, Hash);                               \
  Ret = REAL(addr, length, prot, flags, fd, offset);                           \
  if (Ret != MAP_FAILED)                                                       \
    noteMapping(Ret, length, Hash);                                            \
  if (On)                                                                      \
    DFT_IO_END(&C, DFT_ARG(fd, fd), DFT_ARG(length, length),                   \
               DFT_ARG(offset, offset), DFT_ARG(flags, flags),                 \
               DFT_ARG(ret, Ret == MAP_FAILED ? -1 : 0));                      \
  return Ret

void *mmap(void *addr, size_t length, int prot, int flags, int fd,
           off_t offset) {
  MMAP_BODY("mmap", DFT_REAL_NOLOAD(mmap));
}

void *mmap64(void *addr, size_t length, int prot, int flags, int fd,
             off64_t offset) {
  MMAP_BODY("mmap64", DFT_REAL_NOLOAD(mmap64));
}

int msync(void *addr, size_t length, int flags) {
  struct dftracer_io_call C;
  uint64_t Hash;
  int Ret;
  if (DFT_LIKELY(!dftracer_io_on(POSIX)) || !(Hash = mappingHash(addr)) ||
      !dftracer_io_begin(&C, POSIX, "msync", Hash))
    return DFT_REAL(msync)(addr, length, flags);
  Ret = DFT_REAL(msync)(addr, length, flags);
  DFT_IO_END(&C, DFT_ARG(length, length), DFT_ARG(flags, flags),
             DFT_ARG(ret, Ret));
  return Ret;
}

/* --- Opening ------------------------------------------------------------- */

enum { NoDirFd = -1000 }; /* not an *at form: no dirfd key */

static void endOpen(struct dftracer_io_call *C, int DirFd, int Flags,
                    mode_t Mode, int Ret) {
  struct dftracer_io_arg Args[4] = {DFT_ARG(flags, Flags)};
  int N = 1;
  if (dftracer_open_needs_mode(Flags)) {
    struct dftracer_io_arg A = DFT_ARG(mode, Mode);
    Args[N++] = A;
  }
  if (DirFd != NoDirFd) {
    struct dftracer_io_arg A = DFT_ARG(dirfd, DirFd);
    Args[N++] = A;
  }
  {
    struct dftracer_io_arg A = DFT_ARG(ret, Ret);
    Args[N++] = A;
  }
  dftracer_io_end(C, Args, N);
}

/* The hash of a path being opened; *Skip gets its untraced slot. */
static inline uint64_t openHash(int DirFd, const char *Path, int *Skip) {
  uint64_t Hash = dftracer_io_path_hash(DirFd, Path);
  *Skip = dftracer_untraced_take();
  return Hash;
}

/* An open of PATH relative to DIRFD: the new descriptor gets the file's
 * hash (0 for an untraced file, or with the layer off, which also clears
 * what an earlier, untracked close left). */
#define OPEN_CALL(NAME, DIRFD, PATH, FLAGS, MODE, CALL)                        \
  struct dftracer_io_call C;                                                   \
  uint64_t Hash;                                                               \
  int Ret, On, Skip = 0;                                                       \
  if (DFT_LIKELY(!dftracer_io_tracking()))                                     \
    return CALL;                                                               \
  Hash = dftracer_io_on(POSIX)                                                 \
             ? openHash((DIRFD) == NoDirFd ? AT_FDCWD : (DIRFD), PATH, &Skip)  \
             : 0;                                                              \
  On = Hash && dftracer_io_begin(&C, POSIX, NAME, Hash);                       \
  Ret = CALL;                                                                  \
  if (Ret >= 0) {                                                              \
    dftracer_fd_set(Ret, Hash);                                                \
    dftracer_untraced_opened(Ret, Skip);                                       \
    if (Hash)                                                                  \
      dftracer_fd_position_open(Ret, FLAGS);                                   \
    else                                                                       \
      dftracer_fd_position_close(Ret);                                         \
  }                                                                            \
  if (On)                                                                      \
    endOpen(&C, DIRFD, FLAGS, MODE, Ret);                                      \
  return Ret

#define VA_MODE(LAST, FLAGS)                                                   \
  mode_t mode = 0;                                                             \
  if (dftracer_open_needs_mode(FLAGS)) {                                       \
    va_list Ap;                                                                \
    va_start(Ap, LAST);                                                        \
    mode = (mode_t)va_arg(Ap, int);                                            \
    va_end(Ap);                                                                \
  }

int open(const char *pathname, int flags, ...) {
  VA_MODE(flags, flags);
  OPEN_CALL("open", NoDirFd, pathname, flags, mode,
            DFT_REAL(open)(pathname, flags, mode));
}

int open64(const char *pathname, int flags, ...) {
  VA_MODE(flags, flags);
  OPEN_CALL("open64", NoDirFd, pathname, flags, mode,
            DFT_REAL(open64)(pathname, flags, mode));
}

int __open_2(const char *pathname, int flags) {
  OPEN_CALL("__open_2", NoDirFd, pathname, flags, 0,
            DFT_REAL(__open_2)(pathname, flags));
}

int __open64_2(const char *pathname, int flags) {
  OPEN_CALL("__open64_2", NoDirFd, pathname, flags, 0,
            DFT_REAL(__open64_2)(pathname, flags));
}

int openat(int dirfd, const char *pathname, int flags, ...) {
  VA_MODE(flags, flags);
  OPEN_CALL("openat", dirfd, pathname, flags, mode,
            DFT_REAL(openat)(dirfd, pathname, flags, mode));
}

int openat64(int dirfd, const char *pathname, int flags, ...) {
  VA_MODE(flags, flags);
  OPEN_CALL("openat64", dirfd, pathname, flags, mode,
            DFT_REAL(openat64)(dirfd, pathname, flags, mode));
}

int __openat_2(int dirfd, const char *pathname, int flags) {
  OPEN_CALL("__openat_2", dirfd, pathname, flags, 0,
            DFT_REAL(__openat_2)(dirfd, pathname, flags));
}

int __openat64_2(int dirfd, const char *pathname, int flags) {
  OPEN_CALL("__openat64_2", dirfd, pathname, flags, 0,
            DFT_REAL(__openat64_2)(dirfd, pathname, flags));
}

int creat(const char *pathname, mode_t mode) {
  OPEN_CALL("creat", NoDirFd, pathname, O_CREAT | O_WRONLY | O_TRUNC, mode,
            DFT_REAL(creat)(pathname, mode));
}

int creat64(const char *pathname, mode_t mode) {
  OPEN_CALL("creat64", NoDirFd, pathname, O_CREAT | O_WRONLY | O_TRUNC, mode,
            DFT_REAL(creat64)(pathname, mode));
}

/* --- Closing and duplicating ---------------------------------------------- */

/* The trace file's descriptor is kept open when the program closes it
 * (a daemon closing every descriptor at start): close reports success, as
 * it would, and the range closes skip it. */
int close(int fd) {
  struct dftracer_io_call C;
  uint64_t Hash;
  int Ret;
  if (DFT_UNLIKELY(dftracer_is_trace_fd(fd)))
    return 0;
  if (DFT_LIKELY(!dftracer_io_tracking()) || !(Hash = dftracer_fd_get(fd))) {
    dftracer_untraced_closed(fd); /* before: the number may be reused */
    return DFT_REAL(close)(fd);
  }
  /* Forgotten first: once closed, another thread may reuse the number. */
  dftracer_fd_set(fd, 0);
  dftracer_fd_position_close(fd);
  if (!dftracer_io_on(POSIX) || !dftracer_io_begin(&C, POSIX, "close", Hash))
    return DFT_REAL(close)(fd);
  Ret = DFT_REAL(close)(fd);
  DFT_IO_END(&C, DFT_ARG(fd, fd), DFT_ARG(ret, Ret));
  return Ret;
}

int close_range(unsigned int first, unsigned int last, int flags) {
  int Trace = __atomic_load_n(&dftracer_trace_fd_, __ATOMIC_RELAXED);
  if (dftracer_io_tracking() && !(flags & CLOSE_RANGE_CLOEXEC)) {
    dftracer_fd_clear_range(first, last);
    dftracer_fd_position_close_range(first, last);
    dftracer_untraced_clear_range(first, last);
  }
  if (dftracer_is_trace_fd(Trace) && (unsigned)Trace >= first &&
      (unsigned)Trace <= last) {
    int Ret = 0;
    if ((unsigned)Trace > first)
      Ret = DFT_REAL(close_range)(first, (unsigned)Trace - 1, flags);
    if (Ret == 0 && (unsigned)Trace < last)
      Ret = DFT_REAL(close_range)((unsigned)Trace + 1, last, flags);
    return Ret;
  }
  return DFT_REAL(close_range)(first, last, flags);
}

void closefrom(int lowfd) {
  int Trace = __atomic_load_n(&dftracer_trace_fd_, __ATOMIC_RELAXED);
  if (dftracer_io_tracking() && lowfd >= 0) {
    dftracer_fd_clear_range((unsigned)lowfd, ~0u);
    dftracer_fd_position_close_range((unsigned)lowfd, ~0u);
    dftracer_untraced_clear_range((unsigned)lowfd, ~0u);
  }
  if (dftracer_is_trace_fd(Trace) && Trace >= lowfd) {
    if (Trace > lowfd)
      DFT_REAL(close_range)((unsigned)lowfd, (unsigned)Trace - 1, 0);
    DFT_REAL(closefrom)(Trace + 1);
    return;
  }
  DFT_REAL(closefrom)(lowfd);
}

/* A new descriptor NewFd, when Ret >= 0, refers to OldFd's file. */
#define DUP_CALL(NAME, OLDFD, NEWFD, CALL, ...)                                \
  struct dftracer_io_call C;                                                   \
  uint64_t Hash;                                                               \
  int Ret, On;                                                                 \
  if (DFT_LIKELY(!dftracer_io_tracking()))                                     \
    return CALL;                                                               \
  Hash = dftracer_fd_get(OLDFD);                                               \
  On = Hash && dftracer_io_on(POSIX) &&                                        \
       dftracer_io_begin(&C, POSIX, NAME, Hash);                               \
  Ret = CALL;                                                                  \
  if (Ret >= 0) {                                                              \
    dftracer_fd_set(NEWFD, Hash);                                              \
    dftracer_untraced_dup(OLDFD, NEWFD);                                       \
    dftracer_fd_position_dup(OLDFD, NEWFD);                                    \
  }                                                                            \
  if (On)                                                                      \
    DFT_IO_END(&C, __VA_ARGS__);                                               \
  return Ret

int dup(int oldfd) {
  DUP_CALL("dup", oldfd, Ret, DFT_REAL(dup)(oldfd), DFT_ARG(fd, oldfd),
           DFT_ARG(ret, Ret));
}

int dup2(int oldfd, int newfd) {
  DUP_CALL("dup2", oldfd, newfd, DFT_REAL(dup2)(oldfd, newfd),
           DFT_ARG(fd, oldfd), DFT_ARG(newfd, newfd), DFT_ARG(ret, Ret));
}

int dup3(int oldfd, int newfd, int flags) {
  DUP_CALL("dup3", oldfd, newfd, DFT_REAL(dup3)(oldfd, newfd, flags),
           DFT_ARG(fd, oldfd), DFT_ARG(newfd, newfd), DFT_ARG(ret, Ret));
}

/* fcntl's third argument is an int or a pointer, by command; it is passed
 * on as it came (glibc itself reads it as a pointer). A lock command
 * (isLock) classifies a descriptor the runtime does not know yet
 * (fd_classify.h), and its event carries the lock (`type`, `whence`,
 * `start`, `len`: struct flock, read after the call when the kernel read
 * it) and lasts as long as F_SETLKW waited. */
static inline int isLock(int Cmd) {
  return Cmd == F_SETLK || Cmd == F_SETLKW || Cmd == F_GETLK ||
         Cmd == F_OFD_SETLK || Cmd == F_OFD_SETLKW || Cmd == F_OFD_GETLK;
}

static void endLock(struct dftracer_io_call *C, int Fd, int Cmd,
                    const struct flock *Lock, int Ret, int Err) {
  /* Read only when the kernel did: it succeeded, or failed on the lock
   * itself (a bad descriptor fails before the structure is read). */
  if (Ret != 0 && Err != EAGAIN && Err != EACCES && Err != EDEADLK &&
      Err != EINTR) {
    DFT_IO_END(C, DFT_ARG(fd, Fd), DFT_ARG(cmd, Cmd), DFT_ARG(ret, Ret));
    return;
  }
  DFT_IO_END(C, DFT_ARG(fd, Fd), DFT_ARG(cmd, Cmd), DFT_ARG(type, Lock->l_type),
             DFT_ARG(whence, Lock->l_whence), DFT_ARG(start, Lock->l_start),
             DFT_ARG(len, Lock->l_len), DFT_ARG(ret, Ret));
}

#define FCNTL_BODY(NAME, REAL)                                                 \
  struct dftracer_io_call C;                                                   \
  uint64_t Hash;                                                               \
  void *Arg;                                                                   \
  int Ret, On;                                                                 \
  va_list Ap;                                                                  \
  va_start(Ap, cmd);                                                           \
  Arg = va_arg(Ap, void *);                                                    \
  va_end(Ap);                                                                  \
  if (DFT_LIKELY(!dftracer_io_tracking()) ||                                   \
      !(Hash = isLock(cmd) && dftracer_io_on(POSIX) ? dftracer_fd_hash(fd)     \
                                                    : dftracer_fd_get(fd))) {  \
    Ret = REAL(fd, cmd, Arg);                                                  \
    if (Ret >= 0 && (cmd == F_DUPFD || cmd == F_DUPFD_CLOEXEC) &&              \
        dftracer_io_tracking()) {                                              \
      dftracer_fd_set(Ret, 0);                                                 \
      dftracer_untraced_dup(fd, Ret);                                          \
      dftracer_fd_position_dup(fd, Ret);                                       \
    }                                                                          \
    return Ret;                                                                \
  }                                                                            \
  On = dftracer_io_on(POSIX) && dftracer_io_begin(&C, POSIX, NAME, Hash);      \
  Ret = REAL(fd, cmd, Arg);                                                    \
  if (Ret >= 0 && (cmd == F_DUPFD || cmd == F_DUPFD_CLOEXEC)) {                \
    dftracer_fd_set(Ret, Hash);                                                \
    dftracer_fd_position_dup(fd, Ret);                                         \
  } else if (Ret >= 0 && cmd == F_SETFL) {                                     \
    dftracer_fd_position_set_flags(fd, (int)(intptr_t)Arg);                    \
  }                                                                            \
  if (On && isLock(cmd))                                                       \
    endLock(&C, fd, cmd, (const struct flock *)Arg, Ret, errno);               \
  else if (On)                                                                 \
    DFT_IO_END(&C, DFT_ARG(fd, fd), DFT_ARG(cmd, cmd), DFT_ARG(ret, Ret));     \
  return Ret

int fcntl(int fd, int cmd, ...) { FCNTL_BODY("fcntl", DFT_REAL(fcntl)); }

int fcntl64(int fd, int cmd, ...) { FCNTL_BODY("fcntl64", DFT_REAL(fcntl64)); }

/* --- Calls on a path ------------------------------------------------------ */

/* The hash for an *at call: the descriptor's own file when the path is
 * empty and AT_EMPTY_PATH asks for it. */
static uint64_t atHash(int DirFd, const char *Path, int Flags) {
  if (Path && !Path[0] && (Flags & AT_EMPTY_PATH))
    return dftracer_fd_get(DirFd);
  return dftracer_io_path_hash(DirFd, Path);
}

/* The body of a wrapper of a call on a path: HASH computes the file hash
 * (0: untraced), CALL is the real call, the rest the args (result `Ret`). */
#define PATH_CALL(RetType, NAME, HASH, CALL, ...)                              \
  struct dftracer_io_call C;                                                   \
  RetType Ret;                                                                 \
  uint64_t Hash;                                                               \
  if (DFT_LIKELY(!dftracer_io_on(POSIX)) || !(Hash = (HASH)) ||                \
      !dftracer_io_begin(&C, POSIX, NAME, Hash))                               \
    return CALL;                                                               \
  Ret = CALL;                                                                  \
  DFT_IO_END(&C, __VA_ARGS__);                                                 \
  return Ret

#define CWD_HASH(PATH) dftracer_io_path_hash(AT_FDCWD, PATH)

int stat(const char *pathname, struct stat *buf) {
  PATH_CALL(int, "stat", CWD_HASH(pathname), DFT_REAL(stat)(pathname, buf),
            DFT_ARG(ret, Ret));
}

int stat64(const char *pathname, struct stat64 *buf) {
  PATH_CALL(int, "stat64", CWD_HASH(pathname), DFT_REAL(stat64)(pathname, buf),
            DFT_ARG(ret, Ret));
}

int lstat(const char *pathname, struct stat *buf) {
  PATH_CALL(int, "lstat", CWD_HASH(pathname), DFT_REAL(lstat)(pathname, buf),
            DFT_ARG(ret, Ret));
}

int lstat64(const char *pathname, struct stat64 *buf) {
  PATH_CALL(int, "lstat64", CWD_HASH(pathname),
            DFT_REAL(lstat64)(pathname, buf), DFT_ARG(ret, Ret));
}

int fstatat(int dirfd, const char *pathname, struct stat *buf, int flags) {
  PATH_CALL(int, "fstatat", atHash(dirfd, pathname, flags),
            DFT_REAL(fstatat)(dirfd, pathname, buf, flags),
            DFT_ARG(dirfd, dirfd), DFT_ARG(flags, flags), DFT_ARG(ret, Ret));
}

int fstatat64(int dirfd, const char *pathname, struct stat64 *buf,
              int flags) {
  PATH_CALL(int, "fstatat64", atHash(dirfd, pathname, flags),
            DFT_REAL(fstatat64)(dirfd, pathname, buf, flags),
            DFT_ARG(dirfd, dirfd), DFT_ARG(flags, flags), DFT_ARG(ret, Ret));
}

int statx(int dirfd, const char *pathname, int flags, unsigned int mask,
          struct statx *statxbuf) {
  PATH_CALL(int, "statx", atHash(dirfd, pathname, flags),
            DFT_REAL(statx)(dirfd, pathname, flags, mask, statxbuf),
            DFT_ARG(dirfd, dirfd), DFT_ARG(flags, flags), DFT_ARG(ret, Ret));
}

int __xstat(int ver, const char *pathname, struct stat *buf) {
  PATH_CALL(int, "__xstat", CWD_HASH(pathname),
            DFT_REAL(__xstat)(ver, pathname, buf), DFT_ARG(ret, Ret));
}

int __xstat64(int ver, const char *pathname, struct stat64 *buf) {
  PATH_CALL(int, "__xstat64", CWD_HASH(pathname),
            DFT_REAL(__xstat64)(ver, pathname, buf), DFT_ARG(ret, Ret));
}

int __lxstat(int ver, const char *pathname, struct stat *buf) {
  PATH_CALL(int, "__lxstat", CWD_HASH(pathname),
            DFT_REAL(__lxstat)(ver, pathname, buf), DFT_ARG(ret, Ret));
}

int __lxstat64(int ver, const char *pathname, struct stat64 *buf) {
  PATH_CALL(int, "__lxstat64", CWD_HASH(pathname),
            DFT_REAL(__lxstat64)(ver, pathname, buf), DFT_ARG(ret, Ret));
}

int __fxstatat(int ver, int dirfd, const char *pathname, struct stat *buf,
               int flags) {
  PATH_CALL(int, "__fxstatat", atHash(dirfd, pathname, flags),
            DFT_REAL(__fxstatat)(ver, dirfd, pathname, buf, flags),
            DFT_ARG(dirfd, dirfd), DFT_ARG(flags, flags), DFT_ARG(ret, Ret));
}

int __fxstatat64(int ver, int dirfd, const char *pathname,
                 struct stat64 *buf, int flags) {
  PATH_CALL(int, "__fxstatat64", atHash(dirfd, pathname, flags),
            DFT_REAL(__fxstatat64)(ver, dirfd, pathname, buf, flags),
            DFT_ARG(dirfd, dirfd), DFT_ARG(flags, flags), DFT_ARG(ret, Ret));
}

int access(const char *pathname, int mode) {
  PATH_CALL(int, "access", CWD_HASH(pathname),
            DFT_REAL(access)(pathname, mode), DFT_ARG(mode, mode),
            DFT_ARG(ret, Ret));
}

int faccessat(int dirfd, const char *pathname, int mode, int flags) {
  PATH_CALL(int, "faccessat", atHash(dirfd, pathname, flags),
            DFT_REAL(faccessat)(dirfd, pathname, mode, flags),
            DFT_ARG(dirfd, dirfd), DFT_ARG(mode, mode), DFT_ARG(ret, Ret));
}

int unlink(const char *pathname) {
  PATH_CALL(int, "unlink", CWD_HASH(pathname), DFT_REAL(unlink)(pathname),
            DFT_ARG(ret, Ret));
}

int unlinkat(int dirfd, const char *pathname, int flags) {
  PATH_CALL(int, "unlinkat", atHash(dirfd, pathname, 0),
            DFT_REAL(unlinkat)(dirfd, pathname, flags), DFT_ARG(dirfd, dirfd),
            DFT_ARG(flags, flags), DFT_ARG(ret, Ret));
}

int mkdir(const char *pathname, mode_t mode) {
  PATH_CALL(int, "mkdir", CWD_HASH(pathname), DFT_REAL(mkdir)(pathname, mode),
            DFT_ARG(mode, mode), DFT_ARG(ret, Ret));
}

int mkdirat(int dirfd, const char *pathname, mode_t mode) {
  PATH_CALL(int, "mkdirat", atHash(dirfd, pathname, 0),
            DFT_REAL(mkdirat)(dirfd, pathname, mode), DFT_ARG(dirfd, dirfd),
            DFT_ARG(mode, mode), DFT_ARG(ret, Ret));
}

int rmdir(const char *pathname) {
  PATH_CALL(int, "rmdir", CWD_HASH(pathname), DFT_REAL(rmdir)(pathname),
            DFT_ARG(ret, Ret));
}

/* rename's event carries the old path's hash; the new path gets its FH
 * line too, and its hash as `new_fhash`. */
int rename(const char *oldpath, const char *newpath) {
  uint64_t NewHash = 0;
  if (dftracer_io_on(POSIX))
    NewHash = CWD_HASH(newpath);
  {
    PATH_CALL(int, "rename", CWD_HASH(oldpath),
              DFT_REAL(rename)(oldpath, newpath),
              DFT_ARG(new_fhash, NewHash), DFT_ARG(ret, Ret));
  }
}

int renameat(int olddirfd, const char *oldpath, int newdirfd,
             const char *newpath) {
  uint64_t NewHash = 0;
  if (dftracer_io_on(POSIX))
    NewHash = atHash(newdirfd, newpath, 0);
  {
    PATH_CALL(int, "renameat", atHash(olddirfd, oldpath, 0),
              DFT_REAL(renameat)(olddirfd, oldpath, newdirfd, newpath),
              DFT_ARG(new_fhash, NewHash), DFT_ARG(ret, Ret));
  }
}

/* A directory stream's descriptor carries the directory's hash, so that
 * closedir finds it. */
DIR *opendir(const char *name) {
  struct dftracer_io_call C;
  DIR *Ret;
  uint64_t Hash;
  int On;
  if (DFT_LIKELY(!dftracer_io_tracking()))
    return DFT_REAL(opendir)(name);
  Hash = dftracer_io_on(POSIX) ? CWD_HASH(name) : 0;
  On = Hash && dftracer_io_begin(&C, POSIX, "opendir", Hash);
  Ret = DFT_REAL(opendir)(name);
  if (Ret)
    dftracer_fd_set(dirfd(Ret), Hash);
  if (On)
    DFT_IO_END(&C, DFT_ARG(ret, Ret ? 0 : -1));
  return Ret;
}

int closedir(DIR *dirp) {
  struct dftracer_io_call C;
  uint64_t Hash;
  int Ret, Fd;
  if (DFT_LIKELY(!dftracer_io_tracking()))
    return DFT_REAL(closedir)(dirp);
  Fd = dirfd(dirp);
  if (!(Hash = dftracer_fd_get(Fd))) {
    dftracer_untraced_closed(Fd); /* before: the number may be reused */
    return DFT_REAL(closedir)(dirp);
  }
  dftracer_fd_set(Fd, 0);
  if (!dftracer_io_on(POSIX) || !dftracer_io_begin(&C, POSIX, "closedir", Hash))
    return DFT_REAL(closedir)(dirp);
  Ret = DFT_REAL(closedir)(dirp);
  DFT_IO_END(&C, DFT_ARG(ret, Ret));
  return Ret;
}

/* --- Processes ------------------------------------------------------------
 * vfork is in vfork.c. posix_spawn needs nothing: glibc's makes no
 * intercepted call.
 *
 * exec ends the process image: the trace is finished (and, if exec fails,
 * continued in a new file) around it. The l-forms are turned into the
 * v-forms, as glibc does.
 *
 * _exit and _Exit end the process without atexit handlers, as a forked
 * child does (a Python multiprocessing worker's os._exit): the trace is
 * finished first, async-signal-safely (tracer.c). exit() reaches libc's
 * _exit through an internal call, not this wrapper. The real function is
 * the one resolved at load, else the system call: never dlsym here. */
void dftracer_before_exec_(int *WasActive);
void dftracer_after_failed_exec_(int WasActive);
void dftracer_before__exit_(void);

void _exit(int status) {
  dftracer_before__exit_();
  DFT_REAL_NOLOAD(_exit)(status);
  __builtin_unreachable();
}

void _Exit(int status) {
  dftracer_before__exit_();
  DFT_REAL_NOLOAD(_Exit)(status);
  __builtin_unreachable();
}

#define EXEC_CALL(CALL)                                                        \
  int Was, Ret, Saved;                                                         \
  if (DFT_LIKELY(!dftracer_io_tracking()))                                     \
    return CALL;                                                               \
  dftracer_before_exec_(&Was);                                                 \
  Ret = CALL;                                                                  \
  Saved = errno;                                                               \
  dftracer_after_failed_exec_(Was);                                            \
  errno = Saved;                                                               \
  return Ret

int execve(const char *path, char *const argv[], char *const envp[]) {
  EXEC_CALL(DFT_REAL(execve)(path, argv, envp));
}

int execv(const char *path, char *const argv[]) {
  EXEC_CALL(DFT_REAL(execv)(path, argv));
}

int execvp(const char *file, char *const argv[]) {
  EXEC_CALL(DFT_REAL(execvp)(file, argv));
}

int execvpe(const char *file, char *const argv[], char *const envp[]) {
  EXEC_CALL(DFT_REAL(execvpe)(file, argv, envp));
}

int fexecve(int fd, char *const argv[], char *const envp[]) {
  EXEC_CALL(DFT_REAL(fexecve)(fd, argv, envp));
}

/* The arguments of an l-form, up to the NULL, in a NULL-terminated array
 * on the caller's stack (ARGV); with WANT_ENV, ENVP gets the word after it
 * (execle). */
#define COLLECT_ARGS(ARG0, ARGV, WANT_ENV, ENVP)                               \
  size_t N = 1;                                                                \
  va_list Ap;                                                                  \
  va_start(Ap, ARG0);                                                          \
  while (va_arg(Ap, char *))                                                   \
    ++N;                                                                       \
  va_end(Ap);                                                                  \
  char **ARGV = (char **)__builtin_alloca((N + 1) * sizeof(char *));           \
  va_start(Ap, ARG0);                                                          \
  ARGV[0] = (char *)ARG0;                                                      \
  for (size_t I = 1; I <= N; ++I)                                              \
    ARGV[I] = va_arg(Ap, char *);                                              \
  if (WANT_ENV)                                                                \
    ENVP = va_arg(Ap, char **);                                                \
  va_end(Ap)

int execl(const char *path, const char *arg, ...) {
  char **Envp = NULL;
  COLLECT_ARGS(arg, Argv, 0, Envp);
  (void)Envp;
  return execv(path, Argv);
}

int execlp(const char *file, const char *arg, ...) {
  char **Envp = NULL;
  COLLECT_ARGS(arg, Argv, 0, Envp);
  (void)Envp;
  return execvp(file, Argv);
}

int execle(const char *path, const char *arg, ...) {
  char **Envp = NULL;
  COLLECT_ARGS(arg, Argv, 1, Envp);
  return execve(path, Argv, Envp);
}
