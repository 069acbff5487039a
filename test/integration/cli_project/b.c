int b_func(int x);

int b_func(int x)
{
    return 2 * x;
}
