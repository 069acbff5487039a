/*===- fd_classify.h - Descriptors the runtime saw no open of --------------===*
 *
 * A descriptor gets its file at the open the runtime wrapped (io_core.h's
 * table, untraced.h's byte). Many are made elsewhere: socket, pipe,
 * accept, eventfd, open_by_handle_at, openat2 (a system call only in
 * glibc 2.36), the descriptors a process inherits, libc's internal opens
 * (tmpfile's O_TMPFILE), and their dups. Such a descriptor is classified
 * once, at its first traced call (dftracer_fd_begin), with an fstat and a
 * readlink of /proc/self/fd/N, both system calls:
 *
 *  - a file (a path that starts with '/', not a memfd) is what an open of
 *    that path would have been: traced, with its FH line, under the data
 *    dirs (io_filter.h), or counted against its directory (an unlinked
 *    file's " (deleted)" is dropped from the path);
 *  - anything else is counted under its kind (untraced.h): `socket`,
 *    `pipe` (pipes and FIFOs), `tty` (terminals), `memfd` (memfd_create),
 *    `anon` (eventfd, epoll, timerfd, signalfd, inotify, pidfd: the kernel's
 *    anon_inode descriptors), `unknown` (no link to read: /proc not
 *    mounted).
 *
 * The answer stays with the descriptor (the byte of untraced.h, or its
 * file hash) until close, dup2/dup3 onto it or close_range forgets it, as
 * for opened files; a dup gets its source's. A descriptor that is already
 * known costs the wrappers nothing more than before: its hash, else its
 * byte, is loaded and tested. Classifying allocates nothing and takes no
 * lock but the first sight of a traced path's (io_core.h), so it runs in
 * signal handlers too; errno is left as it was.
 *
 * Known limits: a descriptor closed by a call the runtime does not wrap
 * (libc's internal close, a raw system call) and reused by a socket or
 * pipe keeps its earlier answer.
 *
 *===----------------------------------------------------------------------===*/
#ifndef DFTRACER_RUNTIME_FD_CLASSIFY_H
#define DFTRACER_RUNTIME_FD_CLASSIFY_H

#include "io_core.h"
#include "untraced.h"

#include <stdint.h>

/* Classify Fd (not known yet): its file hash when it is a traced file,
 * else 0, its byte set to where its calls are counted (or ignored). */
uint64_t dftracer_fd_classify(int Fd) DFT_HIDDEN;

/* The untraced slot of a kind ("memfd"), claimed on first use. */
int dftracer_fd_kind_slot(const char *Kind) DFT_HIDDEN;

/* Fd's file hash, classifying it first if the runtime knows nothing of
 * it; 0: not traced. Call with tracing on and the thread not busy. */
static inline uint64_t dftracer_fd_hash(int Fd) {
  uint64_t Hash = dftracer_fd_get(Fd);
  if (DFT_LIKELY(Hash) ||
      DFT_LIKELY(dftracer_untraced_byte(Fd) != DftUntracedUnknown))
    return Hash;
  return dftracer_fd_classify(Fd);
}

/* dftracer_io_fd_begin (io_core.h) for a descriptor the runtime may not
 * know yet. */
static inline int dftracer_fd_begin(struct dftracer_io_call *C,
                                    unsigned Layer, const char *Name, int Fd) {
  uint64_t Hash;
  if (DFT_LIKELY(!dftracer_io_on(Layer)))
    return 0;
  Hash = dftracer_fd_hash(Fd);
  return Hash && dftracer_io_begin(C, Layer, Name, Hash);
}

#endif
