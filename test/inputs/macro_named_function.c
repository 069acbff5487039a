#include <stdio.h>

/* HDF5's H5Oshared.h: a header included by each message class defines its
 * shared-message callbacks under names the includer chooses by macro. The
 * name comes from a macro, the body is ordinary code in the file: the
 * functions are annotated like any other. */
typedef int herr_t;
#define H5O_SHARED_TYPE fill
#define H5O_CAT2(a, b) a##b
#define H5O_CAT(a, b) H5O_CAT2(a, b)
#define H5O_SHARED_DECODE H5O_CAT(H5O_SHARED_TYPE, _shared_decode)
#define H5O_SHARED_ENCODE H5O_CAT(H5O_SHARED_TYPE, _shared_encode)
#define DECLARE_GETTER(name) int get_##name(void)

static herr_t H5O_SHARED_DECODE(const unsigned char *p, size_t len)
{
    if (len == 0)
        return -1;
    printf("decode %u\n", p[0]);
    return 0;
}

static herr_t H5O_SHARED_ENCODE(unsigned char *p, size_t len)
{
    if (len)
        p[0] = 1;
    return fill_shared_decode(p, len);
}

DECLARE_GETTER(answer)
{
    puts("answer");
    return 42;
}

int main(void)
{
    unsigned char buf[1];
    return fill_shared_encode(buf, sizeof buf) + get_answer() - 42;
}
