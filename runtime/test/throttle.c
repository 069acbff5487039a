/* A one-line annotated function called K times (throttle_check.cmake counts
 * its spans and adds the calls of its `throttled` record: the sum must be
 * the program's own count, which it prints).
 *
 *   dft_throttle loop K      tiny() K times inside loop()
 *   dft_throttle io K        tinyIo() K times: one write() of 1 byte each,
 *                            into data/out (under a throttled tinyIo the
 *                            write nests under loop())
 *   dft_throttle chain K     parent() K times inside loop(), each call
 *                            calling tiny() 4 times (a function whose
 *                            own work is nothing but its traced children)
 *   dft_throttle threads K   4 threads, each loop() with K calls
 *   dft_throttle fork K      loop() K times, then a child does it K times
 *                            and exits, then the parent K times again
 *   dft_throttle stdout K    loop() K times, printing a line per 1000
 *                            calls (the output checked against an
 *                            untraced run by write_error.sh)
 */
#include <dftracer/dftracer.h>

#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static long Calls; /* the program's own count (per process) */
static pthread_mutex_t CallsLock = PTHREAD_MUTEX_INITIALIZER;
static int Fd = -1;

static __attribute__((noinline)) long tiny(long X) {
  DFTRACER_C_FUNCTION_START();
  DFTRACER_C_FUNCTION_END();
  return X + 1;
}

static __attribute__((noinline)) void tinyIo(void) {
  DFTRACER_C_FUNCTION_START();
  if (write(Fd, "x", 1) != 1)
    exit(3);
  DFTRACER_C_FUNCTION_END();
}

static __attribute__((noinline)) long parent(long X) {
  int I;
  DFTRACER_C_FUNCTION_START();
  for (I = 0; I < 4; ++I)
    X = tiny(X);
  DFTRACER_C_FUNCTION_END();
  return X;
}

enum body { Tiny, Io, Chain };

static void loop(long K, enum body Body, int Print) {
  long I, N = 0;
  DFTRACER_C_FUNCTION_START();
  for (I = 0; I < K; ++I) {
    if (Body == Io)
      tinyIo();
    else if (Body == Chain)
      N = parent(N);
    else
      N = tiny(N);
    if (Print && (I + 1) % 1000 == 0)
      printf("call %ld\n", I + 1);
  }
  pthread_mutex_lock(&CallsLock);
  Calls += K;
  pthread_mutex_unlock(&CallsLock);
  DFTRACER_C_FUNCTION_END();
}

static long K;
static void *threadMain(void *Arg) {
  (void)Arg;
  loop(K, Tiny, 0);
  return NULL;
}

int main(int Argc, char **Argv) {
  const char *Mode;
  int Status = 0;
  if (Argc != 3 || (K = atol(Argv[2])) <= 0) {
    fprintf(stderr, "usage: dft_throttle loop|io|chain|threads|fork|stdout K\n");
    return 2;
  }
  Mode = Argv[1];
  DFTRACER_C_INIT(NULL, NULL, NULL);
  if (strcmp(Mode, "loop") == 0) {
    loop(K, Tiny, 0);
  } else if (strcmp(Mode, "chain") == 0) {
    loop(K, Chain, 0);
  } else if (strcmp(Mode, "stdout") == 0) {
    loop(K, Tiny, 1);
  } else if (strcmp(Mode, "io") == 0) {
    if (mkdir("data", 0755) != 0 ||
        (Fd = open("data/out", O_CREAT | O_WRONLY | O_TRUNC, 0644)) < 0)
      return 1;
    loop(K, Io, 0);
    close(Fd);
  } else if (strcmp(Mode, "threads") == 0) {
    pthread_t T[4];
    int I;
    for (I = 0; I < 4; ++I)
      if (pthread_create(&T[I], NULL, threadMain, NULL) != 0)
        return 1;
    for (I = 0; I < 4; ++I)
      pthread_join(T[I], NULL);
  } else if (strcmp(Mode, "fork") == 0) {
    pid_t Child;
    loop(K, Tiny, 0);
    fflush(stdout);
    Child = fork();
    if (Child == 0) {
      loop(K, Tiny, 0);
      printf("calls %ld pid %d\n", Calls - K, (int)getpid());
      exit(0);
    }
    if (Child < 0 || waitpid(Child, &Status, 0) != Child)
      return 1;
    loop(K, Tiny, 0);
  } else {
    fprintf(stderr, "dft_throttle: unknown mode '%s'\n", Mode);
    return 2;
  }
  printf("calls %ld pid %d\n", Calls, (int)getpid());
  if (fflush(stdout) != 0)
    return 4; /* the program's own output failed (a full disk) */
  DFTRACER_C_FINI();
  return WIFEXITED(Status) && WEXITSTATUS(Status) == 0 ? 0 : 1;
}
