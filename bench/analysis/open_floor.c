/* The system's floor under reading many small trace files (issue 41):
 * what listing a directory and opening, reading and closing each file
 * costs with no analysis at all, as dftracer-analyze does it (stat for the
 * largest-first order, open, read until end of file, close), on THREADS
 * threads taking every THREADS-th file.
 *
 *   cc -O2 -pthread -o open_floor bench/analysis/open_floor.c
 *   /usr/bin/time -f '%e s wall, %U user, %S system' \
 *     ./open_floor DIR [THREADS [STAT [EOF_READ]]]
 *
 * STAT (default 1): stat each file first; EOF_READ (default 1): read again
 * until read returns 0. Prints the files and bytes read. */
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char **Names;
static int Count, Threads = 1, DoStat = 1, DoEofRead = 1;
static const char *Dir;

static void *readShare(void *Arg) {
  static __thread char Buf[1 << 16];
  char Path[4096];
  long Bytes = 0;
  for (int I = (int)(long)Arg; I < Count; I += Threads) {
    struct stat St;
    ssize_t N;
    int Fd;
    snprintf(Path, sizeof Path, "%s/%s", Dir, Names[I]);
    if (DoStat && stat(Path, &St) != 0)
      continue;
    Fd = open(Path, O_RDONLY | O_CLOEXEC);
    if (Fd < 0)
      continue;
    while ((N = read(Fd, Buf, sizeof Buf)) > 0) {
      Bytes += N;
      if (!DoEofRead && (size_t)N < sizeof Buf)
        break;
    }
    close(Fd);
  }
  return (void *)Bytes;
}

int main(int Argc, char **Argv) {
  DIR *D;
  struct dirent *E;
  int Cap = 1024;
  long Total = 0;
  pthread_t T[64];
  if (Argc < 2) {
    fprintf(stderr, "usage: %s DIR [THREADS [STAT [EOF_READ]]]\n", Argv[0]);
    return 2;
  }
  Dir = Argv[1];
  if (Argc > 2)
    Threads = atoi(Argv[2]);
  if (Argc > 3)
    DoStat = atoi(Argv[3]);
  if (Argc > 4)
    DoEofRead = atoi(Argv[4]);
  if (Threads < 1 || Threads > 64) {
    fprintf(stderr, "%s: THREADS is 1 to 64\n", Argv[0]);
    return 2;
  }
  if (!(D = opendir(Dir))) {
    perror(Dir);
    return 1;
  }
  Names = malloc(Cap * sizeof *Names);
  while ((E = readdir(D))) {
    if (!strcmp(E->d_name, ".") || !strcmp(E->d_name, ".."))
      continue;
    if (Count == Cap)
      Names = realloc(Names, (Cap *= 2) * sizeof *Names);
    Names[Count++] = strdup(E->d_name);
  }
  closedir(D);
  for (long I = 0; I < Threads; ++I)
    pthread_create(&T[I], NULL, readShare, (void *)I);
  for (int I = 0; I < Threads; ++I) {
    void *Bytes;
    pthread_join(T[I], &Bytes);
    Total += (long)Bytes;
  }
  printf("%d files, %ld bytes\n", Count, Total);
  return 0;
}
