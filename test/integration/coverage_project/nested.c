/* nested.c - a GCC nested function: gcc compiles it, Clang cannot parse
 * it, so annotate leaves the file out and the trace's coverage record
 * names it. */
int nested(int v)
{
    int twice(int x) { return 2 * x; }
    return twice(v);
}
