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
/* Same text as dftracer_put_u64. */
char *dftracer_put_u64_cached(char *Out, uint64_t V,
                              struct dftracer_digit_cache *Cache);
char *dftracer_put_i64(char *Out, int64_t V);
/* Writes S quoted and escaped. */
char *dftracer_put_string(char *Out, const char *S, size_t Len);

static inline char *dftracer_put_raw(char *Out, const char *S, size_t Len) {
  memcpy(Out, S, Len);
  return Out + Len;
}

/* For string literals: the length is known at compile time. */
#define DFTRACER_PUT_LIT(Out, Lit) dftracer_put_raw((Out), Lit, sizeof(Lit) - 1)

#endif
