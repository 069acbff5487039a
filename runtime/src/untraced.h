/*===- untraced.h - What the data-dir filter left out ---------------------===*
 *
 * A call the filter (io_filter.h) keeps out of the trace is still counted,
 * per excluded directory: opens, reads, writes and the bytes read and
 * written, so that a report can say what it does not show instead of
 * showing a hole. The directory is the excluded prefix that matched
 * (/usr, /proc, /dev) or, outside every data dir, the path's first
 * directory that is not on the way to one (io_filter.c). At the end of the
 * process (each trace file's end) one `untraced` record lists them
 * (docs/trace-format.md), and the counts start again from zero.
 *
 * Everything here is signal-safe and allocation-free past setup: counters
 * are relaxed atomics in static storage, a directory's slot is claimed
 * with a compare-and-swap, and descriptors map to slots through a byte
 * table allocated at load.
 *
 * Counted: opens of POSIX open/openat/creat, the mkstemp family,
 * shm_open, memfd_create and STDIO fopen/tmpfile; reads and writes of the
 * POSIX read/write/pread/pwrite/readv/writev families and of STDIO
 * fread/fwrite on such descriptors (and on their dup and fcntl copies).
 * Not counted: aio and mmap, path calls (stat, unlink, ...).
 *
 * A descriptor the runtime saw no open of (a socket, a pipe, an inherited
 * one, ...) is classified at its first traced call (fd_classify.h): a
 * file is then traced or counted like an opened one; anything else is
 * counted under its kind, a slot named without a leading '/' ("socket",
 * "pipe", "tty", "memfd", "anon", "unknown").
 *
 * A descriptor's byte: 0 (DftUntracedUnknown) not classified yet, a
 * slot's number (1..64) counted there, DftUntracedIgnored neither traced
 * nor counted (a trace file).
 *
 *===----------------------------------------------------------------------===*/
#ifndef DFTRACER_RUNTIME_UNTRACED_H
#define DFTRACER_RUNTIME_UNTRACED_H

#include <stddef.h>
#include <stdint.h>

enum { DftUntracedRead = 0, DftUntracedWrite = 1 };
enum { DftUntracedUnknown = 0, DftUntracedIgnored = 255 };

/* The slot (1-based) of the last path this thread's filter refused, 0
 * when it traced it or could not tell (io_filter.c sets it). */
extern _Thread_local int dftracer_untraced_pending_
    __attribute__((tls_model("initial-exec"), visibility("hidden")));
/* Descriptor -> slot (1-based), 0: not counted. */
extern unsigned char *dftracer_untraced_fds_
    __attribute__((visibility("hidden")));
extern unsigned dftracer_untraced_fd_limit_
    __attribute__((visibility("hidden")));

/* At load, tracing on: the descriptor table. May allocate. */
void dftracer_untraced_setup(void);

/* The slot of directory Dir (Len bytes), claimed on first sight; 0 if
 * none is left (then the last slot, "/", takes it). */
int dftracer_untraced_slot(const char *Dir, size_t Len);

/* What the filter decided for the path just hashed on this thread: its
 * slot, or 0; resets it. */
static inline int dftracer_untraced_take(void) {
  int Slot = dftracer_untraced_pending_;
  dftracer_untraced_pending_ = 0;
  return Slot;
}

/* An open that returned Fd (>= 0) of a file in Slot (0: traced or not
 * counted): remembered for the descriptor, counted as an open. */
void dftracer_untraced_opened(int Fd, int Slot);

/* Fd is closed: forget it. */
static inline void dftracer_untraced_closed(int Fd) {
  if ((unsigned)Fd < dftracer_untraced_fd_limit_ && dftracer_untraced_fds_[Fd])
    __atomic_store_n(&dftracer_untraced_fds_[Fd], 0, __ATOMIC_RELAXED);
}

/* NewFd now refers to OldFd's file. */
static inline void dftracer_untraced_dup(int OldFd, int NewFd) {
  unsigned char Slot = 0;
  if ((unsigned)NewFd >= dftracer_untraced_fd_limit_)
    return;
  if ((unsigned)OldFd < dftracer_untraced_fd_limit_)
    Slot = __atomic_load_n(&dftracer_untraced_fds_[OldFd], __ATOMIC_RELAXED);
  if (Slot || dftracer_untraced_fds_[NewFd])
    __atomic_store_n(&dftracer_untraced_fds_[NewFd], Slot, __ATOMIC_RELAXED);
}

/* Descriptors [First, Last] are closed. */
void dftracer_untraced_clear_range(unsigned First, unsigned Last);

/* Fd's byte; DftUntracedIgnored past the table (nothing to learn). */
static inline unsigned dftracer_untraced_byte(int Fd) {
  return (unsigned)Fd < dftracer_untraced_fd_limit_
             ? __atomic_load_n(&dftracer_untraced_fds_[Fd], __ATOMIC_RELAXED)
             : (unsigned)DftUntracedIgnored;
}

/* Remember Fd's byte (a slot, DftUntracedIgnored, or 0 to forget it). */
static inline void dftracer_untraced_mark(int Fd, unsigned Byte) {
  if ((unsigned)Fd < dftracer_untraced_fd_limit_)
    __atomic_store_n(&dftracer_untraced_fds_[Fd], (unsigned char)Byte,
                     __ATOMIC_RELAXED);
}

/* Is Fd an untraced file (or kind) whose reads and writes are counted? */
static inline int dftracer_untraced_fd(int Fd) {
  unsigned Byte = dftracer_untraced_byte(Fd);
  return Byte != DftUntracedUnknown && Byte != DftUntracedIgnored;
}

/* A read or write (Direction) on untraced Fd that returned Ret bytes. */
void dftracer_untraced_io(int Fd, int Direction, int64_t Ret);

/* At the end of a trace file, process lock held: the `untraced` record to
 * the sink when the file is open (a process that wrote nothing else
 * leaves no file), then every count back to zero. No allocation. */
void dftracer_untraced_report_locked(void);

#endif
