/* Every form of non-positioned read and write, lseek, ftruncate, dup,
 * O_APPEND and streams, each data call preceded by a probe of the position
 * the kernel (or, after fflush, the stream) has: getppid() as a marker,
 * then lseek(fd, 0, SEEK_CUR), or SEEK_END before a write that appends.
 * The probes are system calls, not lseek(): the runtime does not see them.
 * runtime.io_strace_offsets (offset_check.cmake) compares each data
 * event's `offset` with the probe strace shows before it, and each pread's
 * and pwrite's with its system call's. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

static char Buf[8192];

static void probe(int Fd, int Whence) {
  syscall(SYS_getppid);
  syscall(SYS_lseek, Fd, 0L, Whence);
}
#define AT(Fd) probe(Fd, SEEK_CUR)
#define AT_END(Fd) probe(Fd, SEEK_END)
#define STREAM_AT(F) (fflush(F), probe(fileno(F), SEEK_CUR))
#define STREAM_AT_END(F) (fflush(F), probe(fileno(F), SEEK_END))

static void check(int Ok, const char *What) {
  if (!Ok) {
    perror(What);
    exit(1);
  }
}

static void descriptors(const char *Path) {
  struct iovec Iov[2] = {{Buf, 300}, {Buf + 300, 212}};
  int Fd = open(Path, O_CREAT | O_RDWR | O_TRUNC, 0644), Dup, Dup2, Low;
  check(Fd >= 0, "open");
  AT(Fd), check(write(Fd, Buf, 100) == 100, "write");
  check(pwrite(Fd, Buf, 50, 1000) == 50, "pwrite"); /* does not move it */
  AT(Fd), check(write(Fd, Buf, 10) == 10, "write");
  check(lseek(Fd, 4000, SEEK_SET) == 4000, "lseek");
  AT(Fd), check(writev(Fd, Iov, 2) == 512, "writev");
  check(lseek(Fd, -20, SEEK_CUR) == 4492, "lseek");
  AT(Fd), check(read(Fd, Buf, 30) == 20, "read"); /* short: at the end */
  Dup = dup(Fd);
  AT(Dup), check(write(Dup, Buf, 7) == 7, "write dup");
  AT(Fd), check(write(Fd, Buf, 5) == 5, "write shared");
  Low = fcntl(Fd, F_DUPFD, 50);
  check(lseek(Low, 64, SEEK_SET) == 64, "lseek dupfd");
  AT(Fd), check(readv(Fd, Iov, 2) == 512, "readv");
  Dup2 = dup2(Fd, 60);
  check(Dup2 == 60, "dup2");
  check(lseek(60, 8, SEEK_END) > 0, "lseek end");
  AT(Fd), check(write(Fd, Buf, 3) == 3, "write past end");
  check(ftruncate(Fd, 10) == 0, "ftruncate"); /* the position stays */
  AT(Low), check(write(Low, Buf, 4) == 4, "write after ftruncate");
  check(pread(Fd, Buf, 4, 0) == 4, "pread");
  AT(Dup2), check(read(Dup2, Buf, 16) == 0, "read at end");
  close(Fd), close(Dup), close(Low);
  AT(Dup2), check(write(Dup2, Buf, 2) == 2, "write last descriptor");
  close(Dup2);
  /* A new description on the same file: its own position. */
  Fd = open(Path, O_RDONLY);
  AT(Fd), check(read(Fd, Buf, 100) == 100, "read again");
  close(Fd);
}

static void appending(const char *Path) {
  struct iovec Iov[2] = {{Buf, 10}, {Buf + 10, 20}};
  int Fd = open(Path, O_WRONLY | O_APPEND);
  check(Fd >= 0, "open append");
  AT_END(Fd), check(write(Fd, Buf, 11) == 11, "append");
  check(lseek(Fd, 0, SEEK_SET) == 0, "lseek append");
  AT_END(Fd), check(writev(Fd, Iov, 2) == 30, "append writev");
  check(ftruncate(Fd, 5) == 0, "ftruncate append");
  AT_END(Fd), check(write(Fd, Buf, 9) == 9, "append after ftruncate");
  close(Fd);
  /* O_APPEND set later. */
  Fd = open(Path, O_WRONLY);
  AT(Fd), check(write(Fd, Buf, 2) == 2, "write before F_SETFL");
  check(fcntl(Fd, F_SETFL, O_APPEND) == 0, "F_SETFL");
  AT_END(Fd), check(write(Fd, Buf, 6) == 6, "write after F_SETFL");
  close(Fd);
}

static void streams(const char *Path) {
  FILE *F = fopen(Path, "w+");
  check(F != NULL, "fopen");
  STREAM_AT(F), check(fwrite(Buf, 1, 100, F) == 100, "fwrite");
  STREAM_AT(F), check(fwrite(Buf, 10, 3, F) == 3, "fwrite items");
  check(fseek(F, 20, SEEK_SET) == 0, "fseek");
  STREAM_AT(F), check(fread(Buf, 1, 15, F) == 15, "fread");
  STREAM_AT(F), check(fread(Buf, 1, 15, F) == 15, "fread buffered");
  check(fseek(F, 0, SEEK_END) == 0, "fseek end");
  STREAM_AT(F), check(fwrite(Buf, 1, 77, F) == 77, "fwrite at end");
  rewind(F);
  STREAM_AT(F), check(fread(Buf, 7, 100, F) == 29, "fread short");
  check(fseek(F, -3, SEEK_CUR) == 0, "fseek back");
  STREAM_AT(F), check(fread(Buf, 1, 10, F) == 3, "fread tail");
  fclose(F);
  F = fopen(Path, "a");
  check(F != NULL, "fopen a");
  STREAM_AT_END(F), check(fwrite(Buf, 1, 40, F) == 40, "fwrite a");
  STREAM_AT_END(F), check(fwrite(Buf, 4, 5, F) == 5, "fwrite a items");
  fclose(F);
  /* A stream on a descriptor that has a position already. */
  {
    int Fd = open(Path, O_RDONLY);
    check(Fd >= 0 && lseek(Fd, 33, SEEK_SET) == 33, "open for fdopen");
    F = fdopen(Fd, "r");
    check(F != NULL, "fdopen");
    STREAM_AT(F), check(fread(Buf, 1, 12, F) == 12, "fread fdopen");
    fclose(F);
  }
}

/* io_offsets [DIR [clean]]: the files in DIR (made if missing; data by
 * default), removed at the end with `clean` (a directory in /dev/shm for
 * runtime.io_file_system_tmpfs). */
int main(int argc, char **argv) {
  const char *Dir = argc > 1 ? argv[1] : "data";
  char A[4096], B[4096];
  memset(Buf, 'x', sizeof(Buf));
  snprintf(A, sizeof(A), "%s/offsets.bin", Dir);
  snprintf(B, sizeof(B), "%s/stream.txt", Dir);
  mkdir(Dir, 0755);
  descriptors(A);
  appending(A);
  streams(B);
  if (argc > 2 && strcmp(argv[2], "clean") == 0) {
    unlink(A), unlink(B);
    rmdir(Dir);
  }
  return 0;
}
