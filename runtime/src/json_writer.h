/*===- json_writer.h - Append JSON scalars to a byte buffer ---------------===*
 *
 * The hot path formats one event per END, so these avoid printf (hundreds of
 * nanoseconds) and never allocate: callers reserve an upper bound first
 * (dftracer_json_string_bound) and write through a cursor.
 *
 * Strings come from application code (function names, UPDATE values such as
 * file paths), so escaping is complete: quotes, backslashes and control
 * characters are escaped and bytes that are not valid UTF-8 become U+FFFD,
 * because one undecodable byte would make the whole line invalid JSON.
 *
 *===----------------------------------------------------------------------===*/
#ifndef DFTRACER_RUNTIME_JSON_WRITER_H
#define DFTRACER_RUNTIME_JSON_WRITER_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Most bytes dftracer_put_string can write for a string of Len bytes. */
static inline size_t dftracer_json_string_bound(size_t Len) {
  return 6 * Len + 2;
}

/* Most bytes of a decimal 64-bit integer, sign included. */
#define DFTRACER_JSON_INT_BOUND 21

char *dftracer_put_u64(char *Out, uint64_t V);

/* The decimal text of V / 10^4 for the last V written through it.
 * Timestamps of consecutive events, and ids handed out one after another,
 * share all but their last four digits: only those are then formatted. A
 * zeroed cache is empty. */
struct dftracer_digit_cache {
  uint64_t Key;
  size_t Len;
  char Text[24];
};
/* Exactly 4 digits of V < 10^4, zero-padded. */
static inline char *dftracer_put4(char *Out, uint32_t V) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  /* The splits of json_writer.c's eightDigits on one lane: x/100 as
   * x*10486 >> 20 and x/10 as x*103 >> 10, exact for these ranges, both
   * pairs at once; the first digit lands in the lowest byte. */
  uint32_t Q = (V * 10486) >> 20;
  uint32_t X = Q | (V - Q * 100) << 16;
  uint32_t Word;
  Q = ((X * 103) >> 10) & 0x000F000Fu;
  Word = (Q | (X - Q * 10) << 8) | 0x30303030u;
  memcpy(Out, &Word, 4);
#else
  Out[0] = (char)('0' + V / 1000);
  Out[1] = (char)('0' + V / 100 % 10);
  Out[2] = (char)('0' + V / 10 % 10);
  Out[3] = (char)('0' + V % 10);
#endif
  return Out + 4;
}

/* Same text as dftracer_put_u64. Inline: the writer thread formats four
 * integers of every I/O event through these (issue 40). */
static inline char *dftracer_put_u64_cached(char *Out, uint64_t V,
                                            struct dftracer_digit_cache *Cache) {
  uint64_t Key;
  if (V < 10000)
    return dftracer_put_u64(Out, V);
  Key = V / 10000;
  if (Key != Cache->Key) {
    Cache->Len = (size_t)(dftracer_put_u64(Cache->Text, Key) - Cache->Text);
    Cache->Key = Key;
  }
  /* A fixed-size copy (Key has at most 16 digits) beats a call to memcpy
   * with the exact length; the excess is overwritten. */
  memcpy(Out, Cache->Text, 16);
  return dftracer_put4(Out + Cache->Len, (uint32_t)(V - Key * 10000));
}
char *dftracer_put_i64(char *Out, int64_t V);
/* Writes S quoted and escaped. */
char *dftracer_put_string(char *Out, const char *S, size_t Len);

/* Copies Len bytes. The runtime's texts are short (keys, a name and
 * category, a pid and tid), so a copy of unknown length up to 32 bytes is
 * two overlapping moves rather than a call to memcpy, which costs more in
 * its call and dispatch than the copy itself (issue 40). Never reads or
 * writes outside [S, S + Len) and [Out, Out + Len). */
static inline __attribute__((always_inline)) char *
dftracer_put_raw(char *Out, const char *S, size_t Len) {
  uint64_t A, B, C, D;
  uint32_t U, V;
  if (__builtin_constant_p(Len) || Len > 32) {
    memcpy(Out, S, Len);
  } else if (Len >= 16) {
    memcpy(&A, S, 8);
    memcpy(&B, S + 8, 8);
    memcpy(&C, S + Len - 16, 8);
    memcpy(&D, S + Len - 8, 8);
    memcpy(Out, &A, 8);
    memcpy(Out + 8, &B, 8);
    memcpy(Out + Len - 16, &C, 8);
    memcpy(Out + Len - 8, &D, 8);
  } else if (Len >= 8) {
    memcpy(&A, S, 8);
    memcpy(&B, S + Len - 8, 8);
    memcpy(Out, &A, 8);
    memcpy(Out + Len - 8, &B, 8);
  } else if (Len >= 4) {
    memcpy(&U, S, 4);
    memcpy(&V, S + Len - 4, 4);
    memcpy(Out, &U, 4);
    memcpy(Out + Len - 4, &V, 4);
  } else if (Len > 0) {
    char X = S[0], Y = S[Len / 2], Z = S[Len - 1];
    Out[0] = X;
    Out[Len / 2] = Y;
    Out[Len - 1] = Z;
  }
  return Out + Len;
}

/* For string literals: the length is known at compile time. */
#define DFTRACER_PUT_LIT(Out, Lit) dftracer_put_raw((Out), Lit, sizeof(Lit) - 1)

#endif
