/*===- event_record.h - A span as fields, in a thread's buffer ------------===*
 *
 * A traced thread does not format its spans: it copies the span's fields
 * into its buffer as one of these records, and the writer thread takes
 * them from there, in the compact format to encode them (compact_writer.h)
 * without parsing anything but the args, in .pfw to print each as its line
 * (dftracer_compact_start_lines; issue 40: the calling thread pays the
 * same in both formats). The buffer
 * still holds text lines too (metadata, file names: whatever is not a
 * span), so a record starts with a byte no line starts with.
 *
 *   record := Marker u8[3]=0 u32(Len) fields NameCat[NameCatLen] Args[ArgsLen]
 *             IoArgs[NIoArgs]
 *
 * NameCat is the span line's `"name":"fn","cat":"C_APP",` piece and Args
 * its `,"key":value` pairs (UPDATE's), both exactly as the .pfw line would
 * hold them; Name and Cat are the pointers the thread knew them by, which
 * only key the encoder's cache (it compares the text before trusting one:
 * a dlclose'd library's addresses may come back with other names). An I/O
 * event's args come after, not as text but as the wrapper's array
 * (io_args.h), the first of them its fhash when it has one: their keys and
 * strings are the runtime's literals, which the encoder takes by address.
 * The .pfw line puts IoArgs's text after Args's. Host byte order and
 * layout: a record never leaves the process.
 *
 *===----------------------------------------------------------------------===*/
#ifndef DFTRACER_RUNTIME_EVENT_RECORD_H
#define DFTRACER_RUNTIME_EVENT_RECORD_H

#include "io_args.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* ASCII record separator: .pfw lines start with '{' (SPEC 5.4). */
enum { DftRecordMarker = 0x1e };

/* A record is at most this long; a longer span (huge UPDATE args) is
 * written as its line instead, so the encoder's carry-over holds any
 * record cut between two buffers. */
enum { DftRecordMax = 16 << 10 };

struct dftracer_span_record {
  uint8_t Marker;
  uint8_t Pad[3];
  uint32_t Len; /* the whole record, text included */
  int32_t Pid, Tid;
  uint32_t Level;
  uint32_t NameCatLen;
  uint32_t ArgsLen;
  uint32_t NIoArgs; /* struct dftracer_io_arg after Args */
  uint64_t Id, ParentId, Ts, Dur;
  const char *Name, *Cat;
};

/* An I/O event's args for its record: the fhash (0: none) and the
 * wrapper's array. */
struct dftracer_record_io_args {
  uint64_t Fhash;
  const struct dftracer_io_arg *Args;
  int Count;
};

/* The IoArgs of Io: how many, and their bytes. */
static inline uint32_t
dftracer_record_io_count(const struct dftracer_record_io_args *Io) {
  int N = Io->Count < DftIoArgsMax ? Io->Count : DftIoArgsMax;
  return (uint32_t)(N + (Io->Fhash != 0));
}

/* Writes Io's IoArgs at Out (unaligned); returns their end. */
static inline char *
dftracer_put_record_io_args(char *Out,
                            const struct dftracer_record_io_args *Io) {
  size_t N = Io->Count < DftIoArgsMax ? (size_t)Io->Count : DftIoArgsMax;
  if (Io->Fhash) {
    struct dftracer_io_arg F = {DFT_FHASH_KEY, sizeof(DFT_FHASH_KEY) - 1,
                                (int64_t)Io->Fhash};
    memcpy(Out, &F, sizeof(F));
    Out += sizeof(F);
  }
  memcpy(Out, Io->Args, N * sizeof(*Io->Args));
  return Out + N * sizeof(*Io->Args);
}

/* Writes the record at Out (unaligned) up to its IoArgs; returns its end. */
static inline char *dftracer_put_span_record(
    char *Out, const struct dftracer_span_record *Head, const char *NameCat,
    const char *Args) {
  memcpy(Out, Head, sizeof(*Head));
  memcpy(Out + sizeof(*Head), NameCat, Head->NameCatLen);
  if (Head->ArgsLen)
    memcpy(Out + sizeof(*Head) + Head->NameCatLen, Args, Head->ArgsLen);
  return Out + sizeof(*Head) + Head->NameCatLen + Head->ArgsLen;
}

#endif
