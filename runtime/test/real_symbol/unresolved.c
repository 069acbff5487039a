/* A wrapper whose real function no loaded object defines (issue 37): the
 * program finds H5Fcreate through dlsym(RTLD_DEFAULT), which under the
 * preload returns the runtime's wrapper although no libhdf5 is loaded.
 * Each call must return HDF5's failure (-1), and stderr must say so once
 * (two calls, one line); the trace's `symbol_unresolved` record is
 * checked by the test. Untraced, dlsym finds nothing and it says so. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

typedef int64_t (*create_fn)(const char *, unsigned, int64_t, int64_t);

int main(void) {
  create_fn Create;
  char Line[4096];
  int64_t First, Second;
  int Saved, Lines = 0;
  FILE *Log;
  *(void **)&Create = dlsym(RTLD_DEFAULT, "H5Fcreate");
  if (!Create) {
    printf("no H5Fcreate\n");
    return 0;
  }
  Log = tmpfile();
  Saved = dup(2);
  if (!Log || Saved < 0 || dup2(fileno(Log), 2) < 0)
    return 2;
  First = Create("data/none.h5", 2u, 0, 0);
  Second = Create("data/none.h5", 2u, 0, 0);
  dup2(Saved, 2);
  rewind(Log);
  while (fgets(Line, sizeof(Line), Log))
    if (strstr(Line, "H5Fcreate"))
      ++Lines, fputs(Line, stderr);
  printf("H5Fcreate: %lld %lld, said %d time(s)\n", (long long)First,
         (long long)Second, Lines);
  return First == -1 && Second == -1 && Lines == 1 ? 0 : 1;
}
