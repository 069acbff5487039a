/* nested.c - a GCC nested function: annotate (Clang) cannot parse it. */
int nested(int v)
{
    int twice(int x) { return 2 * x; }
    return twice(v);
}
