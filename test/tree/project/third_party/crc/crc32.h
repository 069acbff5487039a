/* crc32.h - vendored CRC-32 (IEEE 802.3), outside the project's --root.
 * annotate must leave this file byte for byte unchanged, although it defines
 * a function and is included by annotated files. */
#ifndef TREE_CRC32_H
#define TREE_CRC32_H

#include <stddef.h>
#include <stdint.h>

uint32_t crc32_buffer(uint32_t crc, const void *data, size_t len);

static inline uint32_t crc32_byte(uint32_t crc, unsigned char byte)
{
    int k;
    crc ^= byte;
    for (k = 0; k < 8; k++)
        crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    return crc;
}

#endif
