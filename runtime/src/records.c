#define _GNU_SOURCE
#include "records.h"

#include "internal.h"
#include "busy.h"
#include "json_writer.h"
#include "thread_state.h"

#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

extern uint64_t dftracer_take_id_(void);

char *dftracer_record_head(char *Out, const char *Name) {
  Out = DFTRACER_PUT_LIT(Out, "{\"id\":");
  Out = dftracer_put_u64(Out, dftracer_take_id_());
  Out = DFTRACER_PUT_LIT(Out, ",\"name\":\"");
  Out = dftracer_put_raw(Out, Name, strlen(Name));
  Out = DFTRACER_PUT_LIT(Out, "\",\"cat\":\"dftracer\",\"pid\":");
  Out = dftracer_put_i64(Out, dftracer_process_.Pid);
  Out = DFTRACER_PUT_LIT(Out, ",\"tid\":");
  Out = dftracer_put_i64(Out, (int64_t)syscall(SYS_gettid));
  return DFTRACER_PUT_LIT(Out, ",\"ph\":\"M\",\"args\":{");
}

static char *key(char *Out, const char *Key, int First) {
  if (!First)
    *Out++ = ',';
  Out = dftracer_put_string(Out, Key, strlen(Key));
  *Out++ = ':';
  return Out;
}

char *dftracer_record_str(char *Out, const char *Key, const char *Value,
                          int First) {
  Out = key(Out, Key, First);
  return dftracer_put_string(Out, Value, strlen(Value));
}

char *dftracer_record_u64(char *Out, const char *Key, unsigned long long Value,
                          int First) {
  Out = key(Out, Key, First);
  return dftracer_put_u64(Out, (uint64_t)Value);
}

char *dftracer_record_tail(char *Out) { return DFTRACER_PUT_LIT(Out, "}}\n"); }

void dftracer_record_emit(const char *Line, size_t Len) {
  int Busy = dftracer_busy_enter();
  struct dftracer_thread *T = dftracer_thread_get();
  char *Out = T ? dftracer_thread_reserve(T, Len) : NULL;
  if (Out) {
    memcpy(Out, Line, Len);
    dftracer_thread_commit(T, Out + Len);
  }
  dftracer_busy_leave(Busy);
}
