/* crc32.c - vendored; in the compile database but outside --root. */
#include "crc32.h"

uint32_t crc32_buffer(uint32_t crc, const void *data, size_t len)
{
    const unsigned char *p = data;
    crc = ~crc;
    while (len--)
        crc = crc32_byte(crc, *p++);
    return ~crc;
}
