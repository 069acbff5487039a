int scale(int x);

/* A byte-order mark first, then code: the include goes after the mark. */
int scale(int x)
{
    return x * 2;
}

int twice(int x)
{
    return scale(scale(x));
}
