/*===- event_format.h - The trace line format (SPEC 5.4) ------------------===*
 *
 * One JSON object per line, compatible with DFTracer .pfw and Chrome/Perfetto:
 *
 * \code
 *   {"id":7,"name":"write_data","cat":"C_APP","pid":41,"tid":41,"ts":1718...,
 *    "dur":52,"ph":"X","args":{"level":2,"p_idx":3,"bytes":1048576}}
 *   {"id":1,"name":"CM","cat":"dftracer","pid":41,"tid":41,"ph":"M",
 *    "args":{"name":"rank","value":"0"}}
 * \endcode
 *
 * `level` is the nesting depth on the thread (1 = outermost span) and `p_idx`
 * the id of the enclosing span (0 = none), so nesting can be rebuilt without
 * relying on timestamps alone. Update key/values follow them in "args".
 *
 *===----------------------------------------------------------------------===*/
#ifndef DFTRACER_RUNTIME_EVENT_FORMAT_H
#define DFTRACER_RUNTIME_EVENT_FORMAT_H

#include "json_writer.h"

#include <stddef.h>
#include <stdint.h>

/* The pieces of a span line. The two text pieces are preformatted and
 * cached per thread, since they repeat from one event to the next. */
struct dftracer_span_line {
  uint64_t Id;
  uint64_t ParentId; /* 0 when the span has no parent */
  uint64_t Ts;       /* microseconds */
  uint64_t Dur;      /* microseconds */
  unsigned Level;
  const char *NameCat; /* `"name":"fn","cat":"C_APP",` */
  size_t NameCatLen;
  const char *PidTid; /* `"pid":41,"tid":41,` */
  size_t PidTidLen;
  const char *Args; /* preformatted ",\"key\":value" pairs, may be NULL */
  size_t ArgsLen;
  /* The thread's digit caches for ts and for id/p_idx; NULL: none. */
  struct dftracer_digit_cache *TsDigits;
  struct dftracer_digit_cache *IdDigits;
};

/* Upper bound of the bytes dftracer_format_span writes. */
size_t dftracer_span_line_bound(const struct dftracer_span_line *L);
/* Writes the line and its '\n'; returns the new end. */
char *dftracer_format_span(char *Out, const struct dftracer_span_line *L);
/* The same with the NameCat piece formatted from Name and Cat in place (L's
 * NameCat is not read; its NameCatLen, for the bound, is
 * dftracer_name_cat_bound): names of any length, without a copy. */
char *dftracer_format_span_named(char *Out, const struct dftracer_span_line *L,
                                 const char *Name, size_t NameLen,
                                 const char *Cat, size_t CatLen);

/* Bound and writer of the NameCat piece. */
size_t dftracer_name_cat_bound(size_t NameLen, size_t CatLen);
char *dftracer_format_name_cat(char *Out, const char *Name, size_t NameLen,
                               const char *Cat, size_t CatLen);
/* Writer of the PidTid piece; at most 64 bytes. */
char *dftracer_format_pid_tid(char *Out, int Pid, int Tid);

size_t dftracer_metadata_line_bound(size_t KeyLen, size_t ValueLen);
char *dftracer_format_metadata(char *Out, uint64_t Id, int Pid, int Tid,
                               const char *Key, const char *Value);

/* The FH line naming file hash Hash: {"id":..,"name":"FH",..,"args":
 * {"name":"<path>","value":Hash}}. */
size_t dftracer_fh_line_bound(size_t PathLen);
char *dftracer_format_fh(char *Out, uint64_t Id, int Pid, int Tid,
                         const char *Path, size_t PathLen, uint64_t Hash);

/* A `throttled` record (calls counted instead of written; throttle.h):
 * {"id":..,"name":"throttled","cat":"dftracer",..,"ph":"M","args":
 * {"function":Name,"fcat":Cat,"calls":N,"dur":N,"bytes":N,"reason":R}},
 * and ,"time":"sampled","timed":Timed after R when Timed is not 0 (dur is
 * then estimated from that many timed calls). Reason is a literal. */
size_t dftracer_throttled_line_bound(size_t NameLen, size_t CatLen);
char *dftracer_format_throttled(char *Out, uint64_t Id, int Pid, int Tid,
                                const char *Name, size_t NameLen,
                                const char *Cat, size_t CatLen, uint64_t Calls,
                                uint64_t Dur, uint64_t Bytes,
                                const char *Reason, uint64_t Timed);

/* A `trace_stopped` record (budget.h): {..,"args":{"reason":R,"limit":N,
 * "written":N,"ts":N}}, with "error":"ENOSPC" after them when Error is not
 * NULL. Reason and Error are literals; at most 256 + 3 ints bytes. */
enum { DftTraceStoppedBound = 256 + 4 * 21 };
char *dftracer_format_trace_stopped(char *Out, uint64_t Id, int Pid, int Tid,
                                    const char *Reason, uint64_t Limit,
                                    uint64_t Written, uint64_t Ts,
                                    const char *Error);

/* Bounds and writers of one `,"key":value` pair for a span's args. */
size_t dftracer_arg_bound(size_t KeyLen, size_t ValueLen);
char *dftracer_format_arg_int(char *Out, const char *Key, long long Value);
char *dftracer_format_arg_str(char *Out, const char *Key, const char *Value);

#endif
