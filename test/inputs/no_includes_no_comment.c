unsigned long round_up(unsigned long n, unsigned long align)
{
    return (n + align - 1) / align * align;
}
