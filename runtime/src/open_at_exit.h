/*===- open_at_exit.h - Spans other threads still had open at exit --------===*
 *
 * At exit() or FINI the calling thread's open spans are ended and written;
 * spans open on *other* threads cannot be: their owners are still running
 * (a detached worker in a loop that never returns, a thread blocked in a
 * queue), so ending a span from here would race with its owner's END. Their
 * children, already written, name them as parent, so the trace would hold
 * children of spans it never mentions. Each such span is said instead, in
 * an "open_at_exit" record (docs/trace-format.md):
 *
 *   {"id":N,"name":"open_at_exit","cat":"dftracer","pid":P,"tid":T,
 *    "ph":"M","args":{"tid":OWNER,"span_id":I,"span":"loop",
 *    "span_cat":"C_APP","level":1,"ts":START}}
 *
 * which dftracer-check reads as the reason such children have no parent.
 *
 *===----------------------------------------------------------------------===*/
#ifndef DFTRACER_RUNTIME_OPEN_AT_EXIT_H
#define DFTRACER_RUNTIME_OPEN_AT_EXIT_H

struct dftracer_thread;

/* One open_at_exit record per span still open on a registered thread other
 * than Self, formatted into a static buffer (no allocation: _exit may be in
 * a signal handler). Called as soon as tracing is off: an END from then on
 * is not written, so a span that ended between the two would be neither
 * written nor said. Caller holds the process lock. */
void dftracer_open_at_exit_collect_locked(const struct dftracer_thread *Self);

/* Write what collect found to the sink, once the writer has stopped (the
 * sink is then the caller's). Caller holds the process lock. */
void dftracer_open_at_exit_report_locked(void);

#endif
