/* tune_writer: the program dftracer-tune's tests tune (tune.cmake).
 *
 *   tune_writer -o DIR [-s SIZE] [-t TOTAL] [-d USEC]
 *
 * Writes TOTAL bytes (default 1 MiB) to DIR/data with write(2) calls of
 * SIZE bytes (default 4096), sleeping USEC microseconds (default 0) after
 * each call: the sleep makes the cost of many small transfers large and
 * deterministic, so a bigger SIZE is faster beyond any noise of the
 * machine. With TUNE_WRITER_CRASH set it raises SIGSEGV before writing
 * (a candidate setting that crashes the program). Exit 0, or 1 on a bad
 * argument or a failed write. */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static long number(const char *s, const char *what) {
  char *end = NULL;
  long v = strtol(s, &end, 10);
  if (!*s || *end || v < 0) {
    fprintf(stderr, "tune_writer: %s must be a number, not '%s'\n", what, s);
    exit(1);
  }
  return v;
}

int main(int argc, char **argv) {
  const char *dir = NULL;
  long size = 4096, total = 1 << 20, delay = 0;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "-o"))
      dir = argv[i + 1];
    else if (!strcmp(argv[i], "-s"))
      size = number(argv[i + 1], "-s");
    else if (!strcmp(argv[i], "-t"))
      total = number(argv[i + 1], "-t");
    else if (!strcmp(argv[i], "-d"))
      delay = number(argv[i + 1], "-d");
    else {
      fprintf(stderr, "tune_writer: unknown option '%s'\n", argv[i]);
      return 1;
    }
  }
  if (!dir || size <= 0) {
    fprintf(stderr,
            "usage: tune_writer -o DIR [-s SIZE] [-t TOTAL] [-d USEC]\n");
    return 1;
  }
  if (getenv("TUNE_WRITER_CRASH"))
    raise(SIGSEGV);
  char path[4096];
  snprintf(path, sizeof(path), "%s/data", dir);
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) {
    perror(path);
    return 1;
  }
  char *buf = calloc(1, (size_t)size);
  if (!buf)
    return 1;
  for (long done = 0; done < total; done += size) {
    long n = total - done < size ? total - done : size;
    if (write(fd, buf, (size_t)n) != n) {
      perror("write");
      return 1;
    }
    if (delay) {
      struct timespec ts = {delay / 1000000, (delay % 1000000) * 1000};
      nanosleep(&ts, NULL);
    }
  }
  free(buf);
  return close(fd) == 0 ? 0 : 1;
}
