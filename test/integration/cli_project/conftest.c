/* What configure compiles to probe the compiler: passed through. */
int probe(void) { return 0; }
