#include "open_at_exit.h"

#include "internal.h"
#include "json_writer.h"
#include "records.h"
#include "sink.h"
#include "thread_state.h"

#include <string.h>

/* The deepest an owner's stack is walked: a bound, should a race hand the
 * walk a record that was popped and reused meanwhile. */
enum { MaxDepth = 1024, NameMax = 200 };

/* The records collected, written at report. 64 KiB holds ~250 spans; past
 * that the rest are not said (a process with more spans open on other
 * threads at exit than that is not one this was made for). */
static char Collected[64 << 10];
static size_t CollectedLen;

/* The owners run on while this reads their stacks, without their lock (a
 * push or pop takes none). The reads are memory-safe: a registered
 * thread's span records stay mapped until it unregisters, which takes the
 * process lock this caller holds (thread_state.c). At worst a race names a
 * span that has just ended, or misses one that has just begun: the record
 * is a statement about a running thread, not a span. Hence no ThreadSanitizer
 * here: the races are the point. */
__attribute__((no_sanitize("thread"))) static void
collectThread(const struct dftracer_thread *T) {
  /* The head and tail, the name and category escaped, the four integers
   * and their keys' text. */
  const size_t RecordMax = DftRecordFixedBytes +
                           2 * dftracer_json_string_bound(NameMax) +
                           4 * DFTRACER_JSON_INT_BOUND + 64;
  const struct dftracer_span *S = T->Top;
  int Depth;
  for (Depth = 0; S && Depth < MaxDepth; ++Depth, S = S->Parent) {
    char *Out = Collected + CollectedLen;
    if (S->Closed || !S->Name) /* closed by FINI, still on the stack */
      continue;
    if (sizeof(Collected) - CollectedLen < RecordMax)
      return;
    Out = dftracer_record_head(Out, "open_at_exit");
    Out = dftracer_record_u64(Out, "tid", (unsigned long long)T->Tid, 1);
    Out = dftracer_record_u64(Out, "span_id", (unsigned long long)S->Id, 0);
    Out = DFTRACER_PUT_LIT(Out, ",\"span\":");
    Out = dftracer_put_string(Out, S->Name, strnlen(S->Name, NameMax));
    if (S->Cat) {
      Out = DFTRACER_PUT_LIT(Out, ",\"span_cat\":");
      Out = dftracer_put_string(Out, S->Cat, strnlen(S->Cat, NameMax));
    }
    Out = dftracer_record_u64(Out, "level", S->Level, 0);
    Out = dftracer_record_u64(Out, "ts", (unsigned long long)S->StartUs, 0);
    Out = dftracer_record_tail(Out);
    CollectedLen = (size_t)(Out - Collected);
  }
}

void dftracer_open_at_exit_collect_locked(const struct dftracer_thread *Self) {
  const struct dftracer_thread *T;
  CollectedLen = 0;
  for (T = __atomic_load_n(&dftracer_process_.Threads, __ATOMIC_ACQUIRE); T;
       T = T->NextThread)
    if (T != Self)
      collectThread(T);
}

void dftracer_open_at_exit_report_locked(void) {
  if (CollectedLen && dftracer_sink_is_open(&dftracer_process_.Sink))
    dftracer_sink_write(&dftracer_process_.Sink, Collected, CollectedLen);
  CollectedLen = 0;
}
