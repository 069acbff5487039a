/* POSIX asynchronous I/O on a file under the data dir (data/, traced) and
 * on one outside it (other/, not), each phase in an annotated function
 * (io_aio.expect): the requests and their completions nest under the
 * function that makes them, the transfers themselves are made by glibc's
 * helper thread and recorded nowhere. Built plain (aio_read, aio_write,
 * aio_return) and with -D_FILE_OFFSET_BITS=64 (their 64 forms:
 * io_aio_lfs.expect).
 *
 * `io_aio edge` makes the requests whose bytes differ from what moved
 * (io_aio_edge.expect): a refused request, a transfer that fails after it
 * was queued, and a read past the end of the file. */
#define _GNU_SOURCE
#include <dftracer/dftracer.h>

#include <aio.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char Buf[8192];

static void check(int Ok, const char *What) {
  if (!Ok) {
    fprintf(stderr, "io_aio: %s failed: %s\n", What, strerror(errno));
    exit(1);
  }
}

static struct aiocb request(int Fd, size_t Count, off_t Offset) {
  struct aiocb Cb;
  memset(&Cb, 0, sizeof(Cb));
  Cb.aio_fildes = Fd;
  Cb.aio_buf = Buf;
  Cb.aio_nbytes = Count;
  Cb.aio_offset = Offset;
  Cb.aio_sigevent.sigev_notify = SIGEV_NONE;
  return Cb;
}

/* Waits for Cb's transfer and collects its result, as ROMIO's wait does. */
static ssize_t finish(struct aiocb *Cb) {
  const struct aiocb *List[1] = {Cb};
  while (aio_error(Cb) == EINPROGRESS)
    aio_suspend(List, 1, NULL);
  return aio_return(Cb);
}

/* Two writes in flight at once: 4096 bytes at 0 and 1024 at 4096. */
static void writePhase(const char *Path) {
  DFTRACER_C_FUNCTION_START();
  int Fd = open(Path, O_CREAT | O_RDWR | O_TRUNC, 0644);
  struct aiocb A = request(Fd, 4096, 0), B = request(Fd, 1024, 4096);
  check(Fd >= 0, "open");
  check(aio_write(&A) == 0 && aio_write(&B) == 0, "aio_write");
  check(finish(&A) == 4096 && finish(&B) == 1024, "aio_return");
  check(close(Fd) == 0, "close");
  DFTRACER_C_FUNCTION_END();
}

/* 1000 bytes at 100. */
static void readPhase(const char *Path) {
  DFTRACER_C_FUNCTION_START();
  int Fd = open(Path, O_RDONLY);
  struct aiocb A = request(Fd, 1000, 100);
  check(Fd >= 0, "open");
  check(aio_read(&A) == 0 && finish(&A) == 1000, "aio_read");
  check(close(Fd) == 0, "close");
  DFTRACER_C_FUNCTION_END();
}

/* The file is 5120 bytes long. */
static void edgeCases(const char *Path) {
  DFTRACER_C_FUNCTION_START();
  int Fd = open(Path, O_WRONLY);
  struct aiocb Refused = request(Fd, 16, 0), Failed = request(Fd, 64, 0), Short;
  check(Fd >= 0, "open");
  /* A priority out of range: refused at once, errno as libc set it. */
  Refused.aio_reqprio = -1;
  errno = 0;
  check(aio_write(&Refused) == -1 && errno == EINVAL, "refused aio_write");
  /* Reading a write-only descriptor: queued, then the transfer fails. */
  check(aio_read(&Failed) == 0, "aio_read queued");
  check(finish(&Failed) == -1 && aio_error(&Failed) == EBADF,
        "failed aio_read");
  check(close(Fd) == 0, "close");
  /* 4096 bytes asked at 4096: 1024 left before the end. */
  Fd = open(Path, O_RDONLY);
  Short = request(Fd, 4096, 4096);
  check(Fd >= 0 && aio_read(&Short) == 0 && finish(&Short) == 1024,
        "short aio_read");
  check(close(Fd) == 0, "close");
  DFTRACER_C_FUNCTION_END();
}

int main(int argc, char **argv) {
  int Edge = argc > 1 && strcmp(argv[1], "edge") == 0;
  DFTRACER_C_INIT(NULL, NULL, NULL);
  DFTRACER_C_FUNCTION_START();
  memset(Buf, 'a', sizeof(Buf));
  check(mkdir("data", 0755) == 0 && mkdir("other", 0755) == 0, "mkdir");
  writePhase("data/aio.bin");
  readPhase("data/aio.bin");
  writePhase("other/aio.bin");
  readPhase("other/aio.bin");
  if (Edge) {
    edgeCases("data/aio.bin");
    edgeCases("other/aio.bin");
  }
  DFTRACER_C_FUNCTION_END();
  DFTRACER_C_FINI();
  return 0;
}
