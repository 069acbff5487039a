int b_func(int x);

int b_func(int x)
{
    int twice = 2 * x;
    return twice;
}
