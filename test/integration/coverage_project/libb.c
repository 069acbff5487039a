/* libb.c - covlib_b, linked by covlib_a alone: annotated (it calls out, so
 * the overhead guard keeps it). */
#include <stdio.h>
#include <string.h>

int libb(int v) {
  char text[32];
  snprintf(text, sizeof(text), "libb %d", v);
  return (int)strlen(text);
}
