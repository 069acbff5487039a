/*===- io_args.h - An I/O event's args, as the wrapper gives them --------===*
 *
 * A wrapper ends its event with an array of these (DFT_ARG, io_core.h).
 * In the .pfw format the traced thread writes them as the line's
 * `,"key":value` text (dftracer_put_io_args); in the compact format it
 * copies the array into the span's record as it is (event_record.h), and
 * the writer thread's encoder takes keys and string values by their
 * pointers, like names, and the integers as they are: nothing is
 * formatted or parsed, and the .pfw text, when wanted (both formats,
 * dftracer-convert), is the same dftracer_put_io_args makes.
 *
 *===----------------------------------------------------------------------===*/
#ifndef DFTRACER_RUNTIME_IO_ARGS_H
#define DFTRACER_RUNTIME_IO_ARGS_H

#include "json_writer.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* An argument of the event: Key is the preformatted `"name":`. With
 * DftIoArgString in KeyLen (DFT_ARG_STR, ended with DFT_IO_END_STR), Value is
 * a `const char *` written as a JSON string: a flag bit rather than a field
 * of its own keeps the arrays every event builds at three words. Keys and
 * string values are the runtime's own literals (static storage that lives
 * as long as the writer thread, nothing to escape): the compact encoder
 * keys its tables by their addresses. */
struct dftracer_io_arg {
  const char *Key;
  size_t KeyLen;
  int64_t Value;
};
#define DftIoArgString ((size_t)1 << (sizeof(size_t) * 8 - 1))
#define DFT_IO_ARG_IS_STRING(A) (((A).KeyLen & DftIoArgString) != 0)

/* An event writes at most this many args (after its fhash), in at most
 * this many bytes of text. */
enum { DftIoArgsMax = 10, DftIoArgsBytes = 512 };

/* The key of the file hash every I/O event starts its args with. */
#define DFT_FHASH_KEY "\"fhash\":"

/* The text `,"key":value` of A; Strings: 0 when A is not a string (the
 * test is then compiled out). */
static inline __attribute__((always_inline)) char *
dftracer_put_io_arg(char *Out, const struct dftracer_io_arg *A, int Strings) {
  *Out++ = ',';
  if (Strings && (A->KeyLen & DftIoArgString)) {
    const char *Str = (const char *)(intptr_t)A->Value;
    Out = dftracer_put_raw(Out, A->Key, A->KeyLen & ~DftIoArgString);
    *Out++ = '"';
    Out = dftracer_put_raw(Out, Str, strlen(Str));
    *Out++ = '"';
    return Out;
  }
  Out = dftracer_put_raw(Out, A->Key, A->KeyLen);
  return dftracer_put_i64(Out, A->Value);
}

/* The text of an event's args: `,"fhash":Fhash` when Fhash is not 0, then
 * the first DftIoArgsMax of Args in order. Strings: 0 when no arg is a
 * string. */
static inline __attribute__((always_inline)) char *
dftracer_put_io_args(char *Out, uint64_t Fhash,
                     const struct dftracer_io_arg *Args, int Count,
                     int Strings) {
  int I;
  if (Fhash) {
    Out = DFTRACER_PUT_LIT(Out, "," DFT_FHASH_KEY);
    Out = dftracer_put_u64(Out, Fhash);
  }
  for (I = 0; I < Count && I < DftIoArgsMax; ++I)
    Out = dftracer_put_io_arg(Out, &Args[I], Strings);
  return Out;
}

#endif
