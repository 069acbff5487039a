/* work.c - writes a few lines to a file: annotated. */
#include <stdio.h>

int work(const char *path, int seed) {
  int i, sum = 0;
  FILE *f = fopen(path, "w");
  if (!f)
    return -1;
  for (i = 0; i < 16; ++i) {
    sum += seed + i;
    fprintf(f, "%d %d\n", i, sum);
  }
  fclose(f);
  return sum;
}
