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

/* One open_at_exit record, straight to the sink, per span still open on a
 * registered thread other than Self. Caller holds the process lock, with
 * the writer stopped (the sink is this thread's). */
void dftracer_open_at_exit_report_locked(const struct dftracer_thread *Self);

#endif
