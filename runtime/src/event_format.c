#include "event_format.h"

#include "json_writer.h"

#include <string.h>

/* Fixed text of a span line plus its integers; generous on purpose. */
enum { SpanFixedBytes = 96 + 6 * DFTRACER_JSON_INT_BOUND };
enum { MetadataFixedBytes = 96 + 4 * DFTRACER_JSON_INT_BOUND };

size_t dftracer_span_line_bound(const struct dftracer_span_line *L) {
  return SpanFixedBytes + L->NameCatLen + L->PidTidLen + L->ArgsLen;
}

static char *putCached(char *Out, uint64_t V,
                       struct dftracer_digit_cache *Cache) {
  return Cache ? dftracer_put_u64_cached(Out, V, Cache)
               : dftracer_put_u64(Out, V);
}

/* The line up to its name and category. */
static inline char *putSpanHead(char *Out, const struct dftracer_span_line *L) {
  Out = DFTRACER_PUT_LIT(Out, "{\"id\":");
  Out = putCached(Out, L->Id, L->IdDigits);
  *Out++ = ',';
  return Out;
}

/* The line after its name and category. */
static inline char *putSpanTail(char *Out,
                                const struct dftracer_span_line *L) {
  Out = dftracer_put_raw(Out, L->PidTid, L->PidTidLen);
  Out = DFTRACER_PUT_LIT(Out, "\"ts\":");
  Out = putCached(Out, L->Ts, L->TsDigits);
  Out = DFTRACER_PUT_LIT(Out, ",\"dur\":");
  Out = dftracer_put_u64(Out, L->Dur);
  Out = DFTRACER_PUT_LIT(Out, ",\"ph\":\"X\",\"args\":{\"level\":");
  Out = dftracer_put_u64(Out, L->Level);
  Out = DFTRACER_PUT_LIT(Out, ",\"p_idx\":");
  Out = putCached(Out, L->ParentId, L->IdDigits);
  if (L->ArgsLen)
    Out = dftracer_put_raw(Out, L->Args, L->ArgsLen);
  return DFTRACER_PUT_LIT(Out, "}}\n");
}

char *dftracer_format_span(char *Out, const struct dftracer_span_line *L) {
  Out = putSpanHead(Out, L);
  Out = dftracer_put_raw(Out, L->NameCat, L->NameCatLen);
  return putSpanTail(Out, L);
}

char *dftracer_format_span_named(char *Out, const struct dftracer_span_line *L,
                                 const char *Name, size_t NameLen,
                                 const char *Cat, size_t CatLen) {
  Out = putSpanHead(Out, L);
  Out = dftracer_format_name_cat(Out, Name, NameLen, Cat, CatLen);
  return putSpanTail(Out, L);
}

size_t dftracer_name_cat_bound(size_t NameLen, size_t CatLen) {
  return 18 + dftracer_json_string_bound(NameLen) +
         dftracer_json_string_bound(CatLen);
}

char *dftracer_format_name_cat(char *Out, const char *Name, size_t NameLen,
                               const char *Cat, size_t CatLen) {
  Out = DFTRACER_PUT_LIT(Out, "\"name\":");
  Out = dftracer_put_string(Out, Name, NameLen);
  Out = DFTRACER_PUT_LIT(Out, ",\"cat\":");
  Out = dftracer_put_string(Out, Cat, CatLen);
  *Out++ = ',';
  return Out;
}

char *dftracer_format_pid_tid(char *Out, int Pid, int Tid) {
  Out = DFTRACER_PUT_LIT(Out, "\"pid\":");
  Out = dftracer_put_i64(Out, Pid);
  Out = DFTRACER_PUT_LIT(Out, ",\"tid\":");
  Out = dftracer_put_i64(Out, Tid);
  *Out++ = ',';
  return Out;
}

size_t dftracer_metadata_line_bound(size_t KeyLen, size_t ValueLen) {
  return MetadataFixedBytes + dftracer_json_string_bound(KeyLen) +
         dftracer_json_string_bound(ValueLen);
}

/* {"id":Id,"name":"<Kind>","cat":"dftracer","pid":P,"tid":T,"ph":"M",
 * "args":{ */
static char *putRecordHead(char *Out, uint64_t Id, const char *Kind, int Pid,
                           int Tid) {
  Out = DFTRACER_PUT_LIT(Out, "{\"id\":");
  Out = dftracer_put_u64(Out, Id);
  Out = DFTRACER_PUT_LIT(Out, ",\"name\":\"");
  Out = dftracer_put_raw(Out, Kind, strlen(Kind));
  Out = DFTRACER_PUT_LIT(Out, "\",\"cat\":\"dftracer\",\"pid\":");
  Out = dftracer_put_i64(Out, Pid);
  Out = DFTRACER_PUT_LIT(Out, ",\"tid\":");
  Out = dftracer_put_i64(Out, Tid);
  return DFTRACER_PUT_LIT(Out, ",\"ph\":\"M\",\"args\":{");
}

/* A metadata line up to its value: {"id":Id,"name":"<Kind>",...,"args":
 * {"name":<Name>,"value": */
static char *putMetadataHead(char *Out, uint64_t Id, const char *Kind,
                             int Pid, int Tid, const char *Name,
                             size_t NameLen) {
  Out = putRecordHead(Out, Id, Kind, Pid, Tid);
  Out = DFTRACER_PUT_LIT(Out, "\"name\":");
  Out = dftracer_put_string(Out, Name, NameLen);
  return DFTRACER_PUT_LIT(Out, ",\"value\":");
}

char *dftracer_format_metadata(char *Out, uint64_t Id, int Pid, int Tid,
                               const char *Key, const char *Value) {
  Out = putMetadataHead(Out, Id, "CM", Pid, Tid, Key, strlen(Key));
  Out = dftracer_put_string(Out, Value, strlen(Value));
  return DFTRACER_PUT_LIT(Out, "}}\n");
}

size_t dftracer_fh_line_bound(size_t PathLen) {
  return MetadataFixedBytes + dftracer_json_string_bound(PathLen);
}

char *dftracer_format_fh(char *Out, uint64_t Id, int Pid, int Tid,
                         const char *Path, size_t PathLen, uint64_t Hash) {
  Out = putMetadataHead(Out, Id, "FH", Pid, Tid, Path, PathLen);
  Out = dftracer_put_u64(Out, Hash);
  return DFTRACER_PUT_LIT(Out, "}}\n");
}

size_t dftracer_throttled_line_bound(size_t NameLen, size_t CatLen) {
  return 224 + 7 * DFTRACER_JSON_INT_BOUND +
         dftracer_json_string_bound(NameLen) +
         dftracer_json_string_bound(CatLen);
}

char *dftracer_format_throttled(char *Out, uint64_t Id, int Pid, int Tid,
                                const char *Name, size_t NameLen,
                                const char *Cat, size_t CatLen, uint64_t Calls,
                                uint64_t Dur, uint64_t Bytes,
                                const char *Reason, uint64_t Timed) {
  Out = putRecordHead(Out, Id, "throttled", Pid, Tid);
  Out = DFTRACER_PUT_LIT(Out, "\"function\":");
  Out = dftracer_put_string(Out, Name, NameLen);
  Out = DFTRACER_PUT_LIT(Out, ",\"fcat\":");
  Out = dftracer_put_string(Out, Cat, CatLen);
  Out = DFTRACER_PUT_LIT(Out, ",\"calls\":");
  Out = dftracer_put_u64(Out, Calls);
  Out = DFTRACER_PUT_LIT(Out, ",\"dur\":");
  Out = dftracer_put_u64(Out, Dur);
  Out = DFTRACER_PUT_LIT(Out, ",\"bytes\":");
  Out = dftracer_put_u64(Out, Bytes);
  Out = DFTRACER_PUT_LIT(Out, ",\"reason\":\"");
  Out = dftracer_put_raw(Out, Reason, strlen(Reason));
  if (Timed) {
    Out = DFTRACER_PUT_LIT(Out, "\",\"time\":\"sampled\",\"timed\":");
    Out = dftracer_put_u64(Out, Timed);
    return DFTRACER_PUT_LIT(Out, "}}\n");
  }
  return DFTRACER_PUT_LIT(Out, "\"}}\n");
}

char *dftracer_format_trace_stopped(char *Out, uint64_t Id, int Pid, int Tid,
                                    const char *Reason, uint64_t Limit,
                                    uint64_t Written, uint64_t Ts,
                                    const char *Error) {
  Out = putRecordHead(Out, Id, "trace_stopped", Pid, Tid);
  Out = DFTRACER_PUT_LIT(Out, "\"reason\":\"");
  Out = dftracer_put_raw(Out, Reason, strlen(Reason));
  Out = DFTRACER_PUT_LIT(Out, "\",\"limit\":");
  Out = dftracer_put_u64(Out, Limit);
  Out = DFTRACER_PUT_LIT(Out, ",\"written\":");
  Out = dftracer_put_u64(Out, Written);
  Out = DFTRACER_PUT_LIT(Out, ",\"ts\":");
  Out = dftracer_put_u64(Out, Ts);
  if (Error) {
    Out = DFTRACER_PUT_LIT(Out, ",\"error\":\"");
    Out = dftracer_put_raw(Out, Error, strlen(Error));
    *Out++ = '"';
  }
  return DFTRACER_PUT_LIT(Out, "}}\n");
}

size_t dftracer_arg_bound(size_t KeyLen, size_t ValueLen) {
  return 2 + DFTRACER_JSON_INT_BOUND + dftracer_json_string_bound(KeyLen) +
         dftracer_json_string_bound(ValueLen);
}

char *dftracer_format_arg_int(char *Out, const char *Key, long long Value) {
  *Out++ = ',';
  Out = dftracer_put_string(Out, Key, strlen(Key));
  *Out++ = ':';
  return dftracer_put_i64(Out, (int64_t)Value);
}

char *dftracer_format_arg_str(char *Out, const char *Key, const char *Value) {
  *Out++ = ',';
  Out = dftracer_put_string(Out, Key, strlen(Key));
  *Out++ = ':';
  return dftracer_put_string(Out, Value, strlen(Value));
}
