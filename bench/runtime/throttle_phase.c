/*===- throttle_phase.c - A hot one-line function, traced and not ---------===*
 *
 * The case of issue 20: h5bench's uniform_random_number(), a one-line
 * wrapper around rand() called 4,194,304 times per rank to fill the
 * buffer of its 192 MiB write. Run by throttle.sh, with tracing off, on
 * with throttling (the default) and on without (DFTRACER_THROTTLE=0).
 *
 *   dftracer_throttle_bench one  CALLS DIR [MIB]
 *                                           fill CALLS doubles with
 *                                           uniform_random_number(), write
 *                                           them to DIR/data.bin again and
 *                                           again until MIB MiB (192) are
 *                                           written
 *   dftracer_throttle_bench many CALLS      500 distinct one-line
 *                                           functions, called round-robin
 *                                           CALLS times in all
 *
 * Prints `phase_us=N cpu_us=N` for the phase alone (fill and write; the
 * round-robin loop), wall time and this process's CPU time.
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include <dftracer/dftracer.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static double uniform_random_number(void) {
  DFTRACER_C_FUNCTION_START();
  double R = (double)rand() / RAND_MAX;
  DFTRACER_C_FUNCTION_END();
  return R;
}

#define F(n)                                                                   \
  static __attribute__((noinline)) long fn_##n(long X) {                       \
    DFTRACER_C_FUNCTION_START();                                               \
    DFTRACER_C_FUNCTION_END();                                                 \
    return X + 1;                                                              \
  }
#define F10(n) F(n##0) F(n##1) F(n##2) F(n##3) F(n##4) F(n##5) F(n##6) \
  F(n##7) F(n##8) F(n##9)
#define F100(n) F10(n##0) F10(n##1) F10(n##2) F10(n##3) F10(n##4) F10(n##5) \
  F10(n##6) F10(n##7) F10(n##8) F10(n##9)
F100(1) F100(2) F100(3) F100(4) F100(5)
#define P(n) fn_##n,
#define P10(n) P(n##0) P(n##1) P(n##2) P(n##3) P(n##4) P(n##5) P(n##6) \
  P(n##7) P(n##8) P(n##9)
#define P100(n) P10(n##0) P10(n##1) P10(n##2) P10(n##3) P10(n##4) P10(n##5) \
  P10(n##6) P10(n##7) P10(n##8) P10(n##9)
static long (*const Many[])(long) = {P100(1) P100(2) P100(3) P100(4) P100(5)};
enum { ManyCount = sizeof(Many) / sizeof(Many[0]) };

static long long nowUs(clockid_t Clock) {
  struct timespec Ts;
  clock_gettime(Clock, &Ts);
  return (long long)Ts.tv_sec * 1000000 + Ts.tv_nsec / 1000;
}

int main(int Argc, char **Argv) {
  long Calls, I;
  long long Wall, Cpu;
  if (Argc < 3 || (Calls = atol(Argv[2])) <= 0 ||
      (strcmp(Argv[1], "one") == 0 && Argc != 4 && Argc != 5)) {
    fprintf(stderr, "usage: dftracer_throttle_bench one CALLS DIR [MIB] | "
                    "many CALLS\n");
    return 2;
  }
  DFTRACER_C_INIT(NULL, NULL, NULL);
  Wall = nowUs(CLOCK_MONOTONIC);
  Cpu = nowUs(CLOCK_PROCESS_CPUTIME_ID);
  if (strcmp(Argv[1], "one") == 0) {
    double *Buf = (double *)malloc((size_t)Calls * sizeof(double));
    char Path[4096];
    int Fd;
    size_t Bytes = (size_t)Calls * sizeof(double), Left;
    long long Total = (Argc == 5 ? atoll(Argv[4]) : 192) << 20;
    srand(1);
    for (I = 0; I < Calls; ++I)
      Buf[I] = uniform_random_number();
    snprintf(Path, sizeof(Path), "%s/data.bin", Argv[3]);
    if (!Buf || (Fd = open(Path, O_CREAT | O_WRONLY | O_TRUNC, 0644)) < 0)
      return 1;
    for (; Total > 0; Total -= (long long)Bytes) {
      const char *At = (const char *)Buf;
      for (Left = Bytes; Left > 0;) {
        ssize_t N = write(Fd, At, Left > (1u << 20) ? (1u << 20) : Left);
        if (N <= 0)
          return 1;
        At += N;
        Left -= (size_t)N;
      }
    }
    close(Fd);
    free(Buf);
  } else {
    long X = 0;
    for (I = 0; I < Calls; ++I)
      X = Many[I % ManyCount](X);
    if (X != Calls)
      return 1;
  }
  Wall = nowUs(CLOCK_MONOTONIC) - Wall;
  Cpu = nowUs(CLOCK_PROCESS_CPUTIME_ID) - Cpu;
  DFTRACER_C_FINI();
  printf("phase_us=%lld cpu_us=%lld\n", Wall, Cpu);
  return 0;
}
