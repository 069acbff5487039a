/* What the data-dir filter leaves out is counted (io_untraced.expect and
 * the `untraced` record's regexes in CMakeLists.txt). With
 * DFTRACER_DATA_DIR=run/data, in run/ under the work directory:
 *   other/ (a directory beside the data dir): 3 opens (2 open, 1 fopen),
 *     5 reads of 370 bytes (one through a dup), 5 writes of 380 bytes
 *     (one fwrite of 3 items of 10 bytes);
 *   top.txt (a file beside it): 1 open, 1 write of 7 bytes, in run/
 *     itself;
 *   /dev/null: 1 open, 1 write of 5 bytes, under /dev;
 *   /dev/shm/<file>: 1 open, 1 write of 11 bytes, under /dev/shm (traced
 *     instead when the data dirs name /dev/shm: argument "shm").
 * and run/data/in.bin, traced: 1 open, 1 write, 1 close. */
#include <dftracer/dftracer.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char Buf[512];

static void check(int Ok, const char *What) {
  if (!Ok) {
    perror(What);
    exit(1);
  }
}

static void writeFile(const char *Path, size_t Bytes) {
  int Fd = open(Path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
  check(Fd >= 0, Path);
  check(write(Fd, Buf, Bytes) == (ssize_t)Bytes, "write");
  check(close(Fd) == 0, "close");
}

static void outside(void) {
  DFTRACER_C_FUNCTION_START();
  int Fd, Copy, I;
  FILE *S;
  check((Fd = open("run/other/a.bin", O_CREAT | O_WRONLY | O_TRUNC, 0644)) >= 0,
        "open run/other/a.bin");
  for (I = 0; I < 3; ++I)
    check(write(Fd, Buf, 100) == 100, "write");
  check(pwrite(Fd, Buf, 50, 300) == 50, "pwrite");
  check(close(Fd) == 0, "close");
  check((Fd = open("run/other/a.bin", O_RDONLY)) >= 0, "open run/other/a.bin");
  check(read(Fd, Buf, 200) == 200, "read");
  check(read(Fd, Buf, 200) == 150, "read");
  check(read(Fd, Buf, 200) == 0, "read at the end");
  check(pread(Fd, Buf, 10, 0) == 10, "pread");
  check((Copy = dup(Fd)) >= 0, "dup");
  check(pread(Copy, Buf, 10, 5) == 10, "pread on the copy");
  check(close(Copy) == 0 && close(Fd) == 0, "close");
  check((S = fopen("run/other/s.txt", "w")) != NULL, "fopen");
  check(fwrite(Buf, 10, 3, S) == 3, "fwrite");
  check(fclose(S) == 0, "fclose");
  writeFile("run/top.txt", 7);
  writeFile("/dev/null", 5);
  DFTRACER_C_FUNCTION_END();
}

int main(int argc, char **argv) {
  char Shm[64];
  (void)argc;
  (void)argv;
  DFTRACER_C_INIT(NULL, NULL, NULL);
  memset(Buf, 'x', sizeof(Buf));
  check(mkdir("run", 0755) == 0 && mkdir("run/data", 0755) == 0 &&
            mkdir("run/other", 0755) == 0,
        "mkdir");
  writeFile("run/data/in.bin", 16);
  outside();
  snprintf(Shm, sizeof(Shm), "/dev/shm/dft_untraced_%d", (int)getpid());
  writeFile(Shm, 11);
  check(unlink(Shm) == 0, "unlink");
  DFTRACER_C_FINI();
  return 0;
}
