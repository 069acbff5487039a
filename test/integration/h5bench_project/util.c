#include "util.h"

#include <stdlib.h>

int uniform_random_number(void) { return rand() % 1000; }

void fill_buffer(int *Data, long Count) {
  long I;
  for (I = 0; I < Count; ++I)
    Data[I] = uniform_random_number();
}
