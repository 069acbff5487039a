/*===- event_record.h - A span as fields, in a thread's buffer ------------===*
 *
 * With DFTRACER_TRACE_FORMAT=compact a traced thread does not format its
 * spans as .pfw lines: it copies the span's fields into its buffer as one
 * of these records, and the writer thread's encoder (compact_writer.h)
 * takes them from there without parsing anything but the args. The buffer
 * still holds text lines too (metadata, file names: whatever is not a
 * span), so a record starts with a byte no line starts with.
 *
 *   record := Marker u8[3]=0 u32(Len) fields NameCat[NameCatLen] Args[ArgsLen]
 *
 * NameCat is the span line's `"name":"fn","cat":"C_APP",` piece and Args
 * its `,"key":value` pairs, both exactly as the .pfw line would hold them;
 * Name and Cat are the pointers the thread knew them by, which only key
 * the encoder's cache (it compares the text before trusting one: a
 * dlclose'd library's addresses may come back with other names). Host
 * byte order and layout: a record never leaves the process.
 *
 *===----------------------------------------------------------------------===*/
#ifndef DFTRACER_RUNTIME_EVENT_RECORD_H
#define DFTRACER_RUNTIME_EVENT_RECORD_H

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
  uint32_t Pad2;
  uint64_t Id, ParentId, Ts, Dur;
  const char *Name, *Cat;
};

/* Writes the record at Out (unaligned); returns its end. */
static inline char *dftracer_put_span_record(
    char *Out, const struct dftracer_span_record *Head, const char *NameCat,
    const char *Args) {
  memcpy(Out, Head, sizeof(*Head));
  memcpy(Out + sizeof(*Head), NameCat, Head->NameCatLen);
  if (Head->ArgsLen)
    memcpy(Out + sizeof(*Head) + Head->NameCatLen, Args, Head->ArgsLen);
  return Out + Head->Len;
}

#endif
