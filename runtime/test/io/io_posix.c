/* Every POSIX call the runtime intercepts, on a file under the data dir
 * (data/, traced) and on one outside it (other/, and /dev/null: never), each
 * phase in an annotated function so that the events' nesting is checked
 * too (io_posix.expect). Built plain and with -O2 -D_FORTIFY_SOURCE=2
 * -D_FILE_OFFSET_BITS=64, which changes the symbols called (open64,
 * __open_2, __read_chk, pread64, ...): io_posix_lfs.expect. */
#define _GNU_SOURCE
#include <dftracer/dftracer.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

static char Buf[8192];

static void check(int Ok, const char *What) {
  if (!Ok) {
    fprintf(stderr, "io_posix: %s failed: %s\n", What, strerror(errno));
    exit(1);
  }
}

/* Writes 4096 + 2 * 1024 + 2 * 512 + 2 * 256 bytes. */
static void writePhase(const char *Path) {
  DFTRACER_C_FUNCTION_START();
  struct iovec Iov[2] = {{Buf, 256}, {Buf, 256}};
  int Fd = open(Path, O_CREAT | O_RDWR | O_TRUNC, 0644), Dup, Dup2, DupFd;
  check(Fd >= 0, "open");
  check(write(Fd, Buf, 4096) == 4096, "write");
  check(pwrite(Fd, Buf, 1024, 4096) == 1024, "pwrite");
  check(pwrite(Fd, Buf, 1024, 5120) == 1024, "pwrite");
  check(lseek(Fd, 6144, SEEK_SET) == 6144, "lseek");
  check(writev(Fd, Iov, 2) == 512, "writev");
  check(pwritev(Fd, Iov, 2, 6656) == 512, "pwritev");
  Dup = dup(Fd);
  check(Dup >= 0 && write(Dup, Buf, 256) == 256, "dup+write");
  Dup2 = dup2(Fd, 40);
  check(Dup2 == 40 && write(Dup2, Buf, 256) == 256, "dup2+write");
  DupFd = fcntl(Fd, F_DUPFD, 50);
  check(DupFd >= 50 && fsync(DupFd) == 0, "fcntl+fsync");
  check(fdatasync(Fd) == 0, "fdatasync");
  check(ftruncate(Fd, 8192) == 0, "ftruncate");
  check(close(Dup) == 0 && close(Dup2) == 0 && close(DupFd) == 0, "close");
  check(close(Fd) == 0, "close");
  /* A closed descriptor is forgotten: this write goes nowhere traced. */
  check(write(Fd, Buf, 1) == -1 && errno == EBADF, "write after close");
  DFTRACER_C_FUNCTION_END();
}

static void readPhase(const char *Dir, const char *Name) {
  DFTRACER_C_FUNCTION_START();
  struct iovec Iov[2] = {{Buf, 128}, {Buf, 128}};
  int DirFd = open(Dir, O_RDONLY | O_DIRECTORY);
  int Fd = openat(DirFd, Name, O_RDONLY);
  void *Map;
  check(DirFd >= 0 && Fd >= 0, "openat");
  check(read(Fd, Buf, 1000) == 1000, "read");
  check(pread(Fd, Buf, 2000, 100) == 2000, "pread");
  check(readv(Fd, Iov, 2) == 256, "readv");
  check(preadv(Fd, Iov, 2, 0) == 256, "preadv");
  Map = mmap(NULL, 4096, PROT_READ, MAP_SHARED, Fd, 0);
  check(Map != MAP_FAILED && msync(Map, 4096, MS_SYNC) == 0, "mmap+msync");
  munmap(Map, 4096);
  check(close(Fd) == 0 && close(DirFd) == 0, "close");
  DFTRACER_C_FUNCTION_END();
}

static void metadataPhase(const char *Dir, const char *Path,
                          const char *Renamed) {
  DFTRACER_C_FUNCTION_START();
  struct stat St;
  struct statx Stx;
  char Sub[256];
  DIR *D;
  int Fd;
  check(stat(Path, &St) == 0 && St.st_size == 8192, "stat");
  check(lstat(Path, &St) == 0, "lstat");
  check(fstatat(AT_FDCWD, Path, &St, 0) == 0, "fstatat");
  check(statx(AT_FDCWD, Path, 0, STATX_SIZE, &Stx) == 0, "statx");
  Fd = open(Path, O_RDONLY);
  check(Fd >= 0 && fstat(Fd, &St) == 0 && close(Fd) == 0, "fstat");
  check(access(Path, R_OK) == 0, "access");
  check(stat("no-such-file", &St) == -1 && errno == ENOENT, "errno kept");
  snprintf(Sub, sizeof(Sub), "%s/sub", Dir);
  check(mkdir(Sub, 0755) == 0 && rmdir(Sub) == 0, "mkdir+rmdir");
  D = opendir(Dir);
  check(D != NULL && closedir(D) == 0, "opendir+closedir");
  check(rename(Path, Renamed) == 0 && unlink(Renamed) == 0, "rename+unlink");
  DFTRACER_C_FUNCTION_END();
}

/* Sizes and flags the compiler cannot check: with _FORTIFY_SOURCE these
 * become __open_2 (__open64_2), __read_chk, __pread_chk (__pread64_chk)
 * and __openat_2 (__openat64_2); plain, they are open, read, pread, openat. */
static volatile int ReadOnly = O_RDONLY;
static volatile size_t Three = 3;
static void fortified(const char *Path) {
  DFTRACER_C_FUNCTION_START();
  char Small[64];
  size_t N = Three;
  int Flags = ReadOnly;
  int Fd = open(Path, Flags), Fd2;
  check(Fd >= 0 && read(Fd, Small, N) == (ssize_t)N, "read");
  check(pread(Fd, Small, N, 1) == (ssize_t)N, "pread");
  Fd2 = openat(AT_FDCWD, Path, Flags);
  check(Fd2 >= 0 && close(Fd2) == 0 && close(Fd) == 0, "openat");
  DFTRACER_C_FUNCTION_END();
}

/* The stat entry points of glibc < 2.33 that old binaries still call. */
int __xstat(int Ver, const char *Path, struct stat *Buf);
int __lxstat(int Ver, const char *Path, struct stat *Buf);
int __fxstat(int Ver, int Fd, struct stat *Buf);
#if defined(__x86_64__)
#define STAT_VER 1
#else
#define STAT_VER 0
#endif
static void oldStat(const char *Path) {
  DFTRACER_C_FUNCTION_START();
  struct stat St;
  int Fd = open(Path, O_RDONLY);
  check(__xstat(STAT_VER, Path, &St) == 0 && St.st_size == 8192, "__xstat");
  check(__lxstat(STAT_VER, Path, &St) == 0, "__lxstat");
  check(Fd >= 0 && __fxstat(STAT_VER, Fd, &St) == 0 && close(Fd) == 0,
        "__fxstat");
  DFTRACER_C_FUNCTION_END();
}

static void untraced(void) {
  DFTRACER_C_FUNCTION_START();
  int Fd = open("/dev/null", O_WRONLY);
  check(Fd >= 0 && write(Fd, Buf, 10) == 10 && close(Fd) == 0, "/dev/null");
  DFTRACER_C_FUNCTION_END();
}

int main(void) {
  DFTRACER_C_INIT(NULL, NULL, NULL);
  DFTRACER_C_FUNCTION_START();
  memset(Buf, 'x', sizeof(Buf));
  check(mkdir("data", 0755) == 0 && mkdir("other", 0755) == 0, "mkdir");
  writePhase("data/a.bin");
  readPhase("data", "a.bin");
  fortified("data/a.bin");
  oldStat("data/a.bin");
  metadataPhase("data", "data/a.bin", "data/renamed.bin");
  writePhase("other/b.bin");
  readPhase("other", "b.bin");
  fortified("other/b.bin");
  oldStat("other/b.bin");
  metadataPhase("other", "other/b.bin", "other/renamed.bin");
  untraced();
  DFTRACER_C_FUNCTION_END();
  DFTRACER_C_FINI();
  return 0;
}
