/* A GCC nested function: gcc compiles it, Clang cannot parse it. */
int broken_twice(int x) {
  int twice(int y) { return 2 * y; }
  return twice(x);
}
