/*===- throttle.h - Calls counted instead of written ----------------------===*
 *
 * A span that is not written is still counted, so that totals stay exact:
 *
 *  - throttle: once a thread has written N spans of one name (function or
 *    region, DFTRACER_THROTTLE_CALLS) whose mean duration is under T µs
 *    (DFTRACER_THROTTLE_US), that name is throttled in the whole process:
 *    its STARTs no longer push a span (an I/O call inside it nests under
 *    its parent), they only read the clock, and END adds the call and its
 *    duration to the calling thread's counters. The check is repeated every
 *    N written calls, so a function that turns fast later is caught too.
 *    And once a thread has written K spans of a name
 *    (DFTRACER_THROTTLE_MAX_SPANS), it is throttled whatever its mean: the
 *    mean is inclusive, and in a library annotated whole the functions
 *    that only call traced ones stay above T while writing millions of
 *    spans. This costs nothing per span: it is tested when the mean is.
 *  - size_limit, write_error (budget.h): once tracing has stopped, every
 *    span and I/O event that ends is counted the same way, I/O with its
 *    bytes.
 *
 * At the end of the trace (budget.h's finish path: FINI, exit, exec,
 * _exit, a forked child's start) one `throttled` metadata line per name and
 * reason carries those counts (docs/trace-format.md).
 *
 * Design (the event path's rules: no malloc, no lock, signal-safe):
 *  - Names are interned once per distinct (name, category) pointer pair:
 *    a process-wide table keyed by the pointers, read without the lock,
 *    maps them to a small index; its first sight takes the process lock and
 *    interns the text, so two pointers with the same text (a static
 *    function of one name in two files, a region named like a function)
 *    share one index and one decision. Each thread's name cache (the one
 *    END uses for the preformatted name, thread_state.h) holds the index
 *    too, so an unthrottled START costs one cache probe more, no lock, no
 *    atomic read-modify-write.
 *  - Counters are per thread (struct dftracer_fn_stats, whole pages), so
 *    END touches only its own memory; a thread's are added to the process
 *    totals when it exits, and every live thread's at the end. Other
 *    threads' counters are read with relaxed atomic loads (plain loads on
 *    x86), so FINI racing a running thread reads a count at most one call
 *    old, never a torn one.
 *  - The throttled flag of a name is one byte in a process-wide array: set
 *    once, read on every START of that name.
 *
 * Index 0 stands for "not tracked" (I/O calls, which are never throttled,
 * names past DftMaxFuncs, no memory): never throttled, its counts go
 * nowhere. So a table that is full only turns throttling off for new names.
 *
 *===----------------------------------------------------------------------===*/
#ifndef DFTRACER_RUNTIME_THROTTLE_H
#define DFTRACER_RUNTIME_THROTTLE_H

#include "config.h"

#include <stddef.h>
#include <stdint.h>

/* Why calls were counted instead of written; the `reason` of the record. */
enum dftracer_reason {
  DftReasonThrottle,
  DftReasonSizeLimit,
  DftReasonWriteError,
  DftReasons
};

/* Distinct span names per process that can be throttled and counted. */
enum { DftMaxFuncs = 16384 };

struct dftracer_left {
  uint64_t Calls;
  uint64_t Dur; /* µs */
  uint64_t Bytes;
};

/* Sampled time (DftThrottleTimeSampled) of a name's throttled calls: the
 * calls that were timed, the summed ns of those that took at most the
 * outlier bound, and the count and ns of those that took longer. */
struct dftracer_sampled {
  uint64_t Timed;
  uint64_t TimedNs;
  uint64_t Long;
  uint64_t LongNs;
};

struct dftracer_fn_stat {
  /* Spans of this name the thread wrote, and their summed duration: the
   * throttle's evidence. Owner only. Next: when to judge again (0: this
   * thread has not used the name yet). */
  uint64_t Calls;
  uint64_t Dur;
  uint64_t Next;
  /* Sampled time: throttled calls of this name left before the next timed
   * one (0 or 1: this one). Owner only. */
  uint64_t Countdown;
  /* Calls not written, per reason, and the throttled ones' sampled time:
   * relaxed atomics (read at the end). */
  struct dftracer_left Left[DftReasons];
  struct dftracer_sampled Sampled;
};

/* One thread's counters, indexed by name; whole pages, touched only where
 * used. Used lists the indices the thread has touched, for the merge. */
struct dftracer_fn_stats {
  uint64_t Rng; /* sampled time's gaps (xorshift; owner only) */
  uint32_t UsedCount;
  uint32_t Used[DftMaxFuncs];
  struct dftracer_fn_stat Stat[DftMaxFuncs];
};

/* The throttled flag of each index. */
extern unsigned char dftracer_throttled_[DftMaxFuncs]
    __attribute__((visibility("hidden")));

/* At load, tracing on: the limits, the tables. */
void dftracer_throttle_setup(const struct dftracer_config *Config);

/* A thread's counters, or NULL when memory is exhausted (nothing is then
 * throttled or counted on that thread). */
struct dftracer_fn_stats *dftracer_fn_stats_new(void);
void dftracer_fn_stats_free(struct dftracer_fn_stats *S);

/* The index of (Name, Cat), interned on first sight (takes the process
 * lock then: the caller is busy), ready for use in St: 0 when not
 * tracked. Name and Cat are static storage. */
uint32_t dftracer_fn_index(struct dftracer_fn_stats *St, const char *Name,
                           const char *Cat);

/* The throttle's settings (throttle.c, set at load): a name is judged
 * every dftracer_throttle_calls_ written calls (0: never), throttled when
 * its mean is under dftracer_throttle_us_ or its calls reach
 * dftracer_throttle_max_spans_ (~0: no cap). */
extern uint64_t dftracer_throttle_calls_ __attribute__((visibility("hidden")));
extern uint64_t dftracer_throttle_us_ __attribute__((visibility("hidden")));
extern uint64_t dftracer_throttle_max_spans_
    __attribute__((visibility("hidden")));

/* The call count at which a name judged at Calls is judged next: N calls
 * on, never later than the cap. */
static inline uint64_t dftracer_fn_next_judged(uint64_t Calls) {
  uint64_t Next = Calls + dftracer_throttle_calls_;
  return Next < dftracer_throttle_max_spans_ ? Next
                                             : dftracer_throttle_max_spans_;
}

/* END of a written span of index F: count it, and judge the name every N
 * calls. The judging is inline, with no call, so that the usual END calls
 * nothing and saves no register (issue 40). */
static inline void dftracer_fn_written(struct dftracer_fn_stats *St,
                                       uint32_t F, uint64_t Dur) {
  struct dftracer_fn_stat *S = &St->Stat[F];
  S->Dur += Dur;
  if (__builtin_expect(++S->Calls == S->Next, 0)) {
    /* Mean under the threshold: Dur < Calls x us (no division; both stay
     * far from 2^64 in any real run). Or the cap reached, whatever the
     * mean: the next judgement is never later than the cap. */
    if (S->Dur < S->Calls * dftracer_throttle_us_ ||
        S->Calls >= dftracer_throttle_max_spans_)
      __atomic_store_n(&dftracer_throttled_[F], 1, __ATOMIC_RELAXED);
    else
      S->Next = dftracer_fn_next_judged(S->Next);
  }
}

/* A call of index F not written for Reason. */
static inline void dftracer_fn_left(struct dftracer_fn_stats *St, uint32_t F,
                                    enum dftracer_reason Reason, uint64_t Dur,
                                    uint64_t Bytes) {
  struct dftracer_left *L = &St->Stat[F].Left[Reason];
  __atomic_store_n(&L->Calls, __atomic_load_n(&L->Calls, __ATOMIC_RELAXED) + 1,
                   __ATOMIC_RELAXED);
  __atomic_store_n(&L->Dur, __atomic_load_n(&L->Dur, __ATOMIC_RELAXED) + Dur,
                   __ATOMIC_RELAXED);
  if (Bytes)
    __atomic_store_n(&L->Bytes,
                     __atomic_load_n(&L->Bytes, __ATOMIC_RELAXED) + Bytes,
                     __ATOMIC_RELAXED);
}

/* How a throttled START is timed (the span's Throttled field). */
enum dftracer_throttled_kind {
  DftThrottledExact = 1,   /* StartUs: now_us, END adds the µs to Dur */
  DftThrottledTicks = 2    /* StartUs: clock ticks (sampled mode) */
  /* (Sampled mode's untimed calls have no record: tracer.c.) */
};

/* Sampled time is on (DFTRACER_THROTTLE_TIME=sampled). */
extern int dftracer_throttle_sampled_ __attribute__((visibility("hidden")));

/* Whether this throttled START of index F reads no clock: in sampled
 * mode, the first throttled call of a name on a thread and then 1 in ~N
 * (random gaps, so that a pattern in the program cannot line up with
 * them) are timed, the rest are not. Inline and call-free: the hot path. */
static inline int dftracer_fn_untimed(struct dftracer_fn_stats *St,
                                      uint32_t F) {
  struct dftracer_fn_stat *S = &St->Stat[F];
  if (__builtin_expect(dftracer_throttle_sampled_ && S->Countdown > 1, 1)) {
    --S->Countdown;
    return 1;
  }
  return 0;
}

/* How a throttled START that dftracer_fn_untimed did not skip is timed
 * (sampled mode: draws the gap to the next timed call). */
enum dftracer_throttled_kind dftracer_fn_timed_kind(struct dftracer_fn_stats *St,
                                                    uint32_t F);

/* END of an untimed throttled call of index F (sampled mode): counted.
 * Owner only; FINI may read the counter at any moment, so the store is
 * relaxed (plain on x86), never an atomic read-modify-write. */
static inline void dftracer_fn_left_untimed(struct dftracer_fn_stats *St,
                                            uint32_t F) {
  struct dftracer_left *L = &St->Stat[F].Left[DftReasonThrottle];
  __atomic_store_n(&L->Calls, __atomic_load_n(&L->Calls, __ATOMIC_RELAXED) + 1,
                   __ATOMIC_RELAXED);
}

/* END of a timed throttled call of index F (sampled mode), Ticks of
 * dftracer_clock_ticks long. */
void dftracer_fn_left_timed(struct dftracer_fn_stats *St, uint32_t F,
                            uint64_t Ticks);

/* Sampled time: the total, in µs, that the `throttled` line says for
 * L->Calls calls of which S timed some (throttle.c has the rule); S->Timed
 * is not 0. */
uint64_t dftracer_throttle_sampled_us(const struct dftracer_left *L,
                                      const struct dftracer_sampled *S);

/* Bytes an I/O event moved, by the rule of docs/trace-format.md, from its
 * name, category and formatted args (",\"key\":value" pairs). */
uint64_t dftracer_io_event_bytes(const char *Name, const char *Cat,
                                 const char *Args, size_t ArgsLen);

/* A thread leaves: its counts join the process totals. Caller holds the
 * process lock. */
void dftracer_throttle_merge_locked(struct dftracer_fn_stats *St);

/* The `throttled` lines of the trace being finished: every live thread's
 * counts and the totals, which are then zeroed (a failed exec goes on in
 * a new file). Caller holds the process lock. */
void dftracer_throttle_output_locked(int Pid, int Tid);

/* In a forked child or a new file: the counts so far were the old file's.
 * St: the calling thread's (the only one in a child), may be NULL. Caller
 * holds the process lock. */
void dftracer_throttle_reset_locked(struct dftracer_fn_stats *St);

/* Most bytes the `throttled` lines can take, for the size budget. */
uint64_t dftracer_throttle_output_bound(void);

#endif
