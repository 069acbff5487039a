#define _GNU_SOURCE
#include "fd_classify.h"

#include "io_filter.h"
#include "json_writer.h"
#include "sink.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

int dftracer_fd_kind_slot(const char *Kind) {
  return dftracer_untraced_slot(Kind, strlen(Kind));
}

static int startsWith(const char *S, const char *Prefix) {
  return strncmp(S, Prefix, strlen(Prefix)) == 0;
}

/* Mark Fd as counted under Kind; 0: not traced. */
static uint64_t countAs(int Fd, const char *Kind) {
  dftracer_untraced_mark(Fd, (unsigned)dftracer_fd_kind_slot(Kind));
  return 0;
}

/* A file at Path (absolute): traced or counted as an open of it would be. */
static uint64_t asFile(int Fd, const char *Path) {
  uint64_t Hash = dftracer_io_path_hash(AT_FDCWD, Path);
  int Slot = dftracer_untraced_take();
  if (Hash) {
    dftracer_fd_set(Fd, Hash);
    return Hash;
  }
  dftracer_untraced_mark(Fd, Slot ? (unsigned)Slot : DftUntracedIgnored);
  return 0;
}

uint64_t dftracer_fd_classify(int Fd) {
  static const char Deleted[] = " (deleted)";
  char Link[DftPathMax], Proc[48] = "/proc/self/fd/";
  struct stat St;
  uint64_t Hash = 0;
  ssize_t N;
  int Saved = errno;
  if (dftracer_is_trace_fd(Fd)) {
    dftracer_untraced_mark(Fd, DftUntracedIgnored);
    return 0;
  }
  /* System calls: the program's fstat and readlink are wrapped or not
   * its own. A descriptor that is not open stays unknown. */
  if (syscall(SYS_fstat, Fd, &St) != 0) {
    errno = Saved;
    return 0;
  }
  *dftracer_put_i64(Proc + 14, Fd) = '\0';
  N = (ssize_t)syscall(SYS_readlink, Proc, Link, sizeof(Link) - 1);
  Link[N > 0 ? N : 0] = '\0';
  if (S_ISSOCK(St.st_mode))
    Hash = countAs(Fd, "socket");
  else if (S_ISFIFO(St.st_mode))
    Hash = countAs(Fd, "pipe");
  else if (N <= 0)
    Hash = countAs(Fd, "unknown");
  else if (S_ISCHR(St.st_mode) &&
           (startsWith(Link, "/dev/pts/") || startsWith(Link, "/dev/tty") ||
            startsWith(Link, "/dev/console")))
    Hash = countAs(Fd, "tty");
  else if (startsWith(Link, "/memfd:"))
    Hash = countAs(Fd, "memfd");
  else if (Link[0] != '/')
    Hash = countAs(Fd, "anon"); /* anon_inode:[eventfd], ... */
  else {
    size_t Len = (size_t)N, DLen = sizeof(Deleted) - 1;
    /* An unlinked file (tmpfile's O_TMPFILE, a removed mkstemp file): the
     * name it had, or the directory's "#inode" for O_TMPFILE. */
    if (St.st_nlink == 0 && Len > DLen &&
        memcmp(Link + Len - DLen, Deleted, DLen) == 0)
      Link[Len - DLen] = '\0';
    Hash = asFile(Fd, Link);
  }
  errno = Saved;
  return Hash;
}
