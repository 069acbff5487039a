/*===- text_copy.h - Bounded string copies for fixed buffers ---------------===*
 *
 * The runtime formats its messages and records in static or stack buffers
 * (no malloc: they may be written in a signal handler), so every string it
 * copies in is cut to the room left.
 *
 *===----------------------------------------------------------------------===*/
#ifndef DFTRACER_RUNTIME_TEXT_COPY_H
#define DFTRACER_RUNTIME_TEXT_COPY_H

#include <stddef.h>
#include <string.h>

/* Copies In into Out (Cap > 0 bytes), cut to Cap - 1 bytes, terminated;
 * returns the bytes copied. */
static inline size_t dftracer_text_copy(char *Out, size_t Cap,
                                        const char *In) {
  size_t Len = strlen(In);
  if (Len >= Cap)
    Len = Cap - 1;
  memcpy(Out, In, Len);
  Out[Len] = '\0';
  return Len;
}

#endif
