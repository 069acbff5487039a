/* liba.c - covlib_a, a static library that calls covlib_b: annotated. */
int libb(int v);

int liba(int v) { return libb(v) + 1; }
