/*===- compact_format.h - The compact trace format's constants -----------===*
 *
 * Shared by the runtime's encoder (compact_writer.c) and the readers
 * (analysis/reader/CompactReader.cpp): a C header, usable from C++.
 * The format itself is specified in docs/trace-format.md, "Compact traces".
 *
 *   file   := header block*
 *   header := Magic[8] u32le(Len) Json[Len]      (self-describing, versioned)
 *   block  := "DFCB" u8(codec) u8[3]=0 u32le(RawLen) u32le(StoredLen)
 *             u32le(crc32 of the stored bytes) Stored[StoredLen]
 *
 * A block's raw bytes are records (tags below); the tables they define
 * (strings, threads) and the per-thread deltas carry over from block to
 * block, so a file is read from its start, and a truncated file loses only
 * its unfinished last block.
 *
 *===----------------------------------------------------------------------===*/
#ifndef DFTRACER_RUNTIME_COMPACT_FORMAT_H
#define DFTRACER_RUNTIME_COMPACT_FORMAT_H

#include <stddef.h>
#include <stdint.h>

/* "\x89DFTPFC\n": a high byte first (not text), a newline last (a transfer
 * that rewrites line ends breaks the magic, not the data). */
#define DFT_COMPACT_MAGIC "\x89" "DFTPFC\n"
enum { DftCompactMagicLen = 8, DftCompactVersion = 1 };

#define DFT_COMPACT_BLOCK_MAGIC "DFCB"
enum { DftCompactBlockHeader = 20 };

enum dft_compact_codec { DftCodecNone = 0, DftCodecZstd = 1 };

/* Record tags. */
enum dft_compact_tag {
  DftTagSpan = 1,    /* a span line, field by field */
  DftTagText = 2,    /* a line kept as its text (metadata, anything else) */
  DftTagString = 3,  /* defines the next string: varint Len, Len bytes */
  DftTagThread = 4,  /* defines the next thread: svarint pid, svarint tid */
  DftTagTextPart = 5 /* the first bytes of a long text line; Text ends it */
};

/* Kinds of a span's arg, in the low 2 bits of its key varint. */
enum dft_compact_arg {
  DftArgInt = 0,    /* svarint, the delta to the thread's last value of
                       the key when the key has a slot */
  DftArgString = 1, /* varint string index (the escaped, quoted text) */
  DftArgRaw = 2     /* varint Len, Len bytes of JSON text as written */
};

/* The first DftCompactKeySlots distinct keys that carry an integer get a
 * slot, in order of first appearance: their values are deltas. */
enum { DftCompactKeySlots = 64 };

static inline uint8_t *dft_put_varint(uint8_t *Out, uint64_t V) {
  while (V >= 0x80) {
    *Out++ = (uint8_t)(V | 0x80);
    V >>= 7;
  }
  *Out++ = (uint8_t)V;
  return Out;
}

static inline uint64_t dft_zigzag(int64_t V) {
  return ((uint64_t)V << 1) ^ (uint64_t)(V >> 63);
}

static inline int64_t dft_unzigzag(uint64_t V) {
  return (int64_t)(V >> 1) ^ -(int64_t)(V & 1);
}

static inline uint8_t *dft_put_svarint(uint8_t *Out, int64_t V) {
  return dft_put_varint(Out, dft_zigzag(V));
}

/* Reads a varint from [*P, End); 0 on overrun or more than 10 bytes. */
static inline int dft_get_varint(const uint8_t **P, const uint8_t *End,
                                 uint64_t *V) {
  uint64_t R = 0;
  unsigned Shift = 0;
  const uint8_t *Q = *P;
  while (Q < End && Shift < 70) {
    uint8_t B = *Q++;
    R |= (uint64_t)(B & 0x7f) << Shift;
    if (!(B & 0x80)) {
      *P = Q;
      *V = R;
      return 1;
    }
    Shift += 7;
  }
  return 0;
}

static inline void dft_put_u32le(uint8_t *Out, uint32_t V) {
  Out[0] = (uint8_t)V;
  Out[1] = (uint8_t)(V >> 8);
  Out[2] = (uint8_t)(V >> 16);
  Out[3] = (uint8_t)(V >> 24);
}

static inline uint32_t dft_get_u32le(const uint8_t *P) {
  return (uint32_t)P[0] | (uint32_t)P[1] << 8 | (uint32_t)P[2] << 16 |
         (uint32_t)P[3] << 24;
}

#endif
