/* span_check.so: does every span an annotated library opens get its END?
 *
 *   LD_PRELOAD=span_check.so SPAN_CHECK_OUT=FILE program ...
 *
 * For bench/hdf5/run_hdf5_tests.sh (issue 21). The library is built with
 * -DDFTRACER_TEST_NO_CLEANUP, so only the ENDs annotate placed close a span;
 * a span whose function left without END stays on the runtime's stack and
 * is closed by its parent's END, at the parent's end. The trace then still
 * nests, so dftracer-check cannot see it. This shim sits between the library
 * and the runtime: dftracer_span_begin pushes the handle on a per-thread
 * shadow stack, dftracer_span_end pops it, and every handle found above the
 * one being ended is a span its function never ended (a "leak"), counted
 * per function name. At exit it writes to SPAN_CHECK_OUT (default stderr):
 *
 *   span_check: begins B ends E leaked L leaked_in_context C open_at_exit O overflow V
 *   span_check: leaked N NAME            (one line per leaking name)
 *   span_check: leaked_in_context N NAME
 *
 * SPAN_CHECK_CONTEXT=NAME counts apart (C) the leaks found while a span of
 * that name is open: for HDF5 1.10, H5_term_library, where FUNC_ENTER_*'s
 * `if (H5_PKG_INIT_VAR || !H5_TERM_GLOBAL) {` is false for a package already
 * shut down, so the END annotate placed before FUNC_LEAVE_* (inside that
 * scope) is skipped while the macro's return is not (run_hdf5_tests.sh).
 *
 * open_at_exit counts handles still pushed when the process exits (spans
 * that atexit handlers or other threads had open: not leaks by themselves).
 * Everything is static: the shim never calls malloc on the event path. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct dftracer_span;
typedef struct dftracer_span *(*BeginFn)(const char *, const char *);
typedef void (*EndFn)(struct dftracer_span **);

static BeginFn RealBegin;
static EndFn RealEnd;

enum { StackDepth = 4096, TableSize = 1 << 14 };

struct Frame {
  struct dftracer_span *Span;
  const char *Name;
};
static __thread struct Frame Stack[StackDepth];
static __thread unsigned Depth;

/* Leaked names, keyed by the name pointer (__func__: one per function). */
static const char *_Atomic Names[TableSize];
static atomic_ulong Leaks[TableSize], LeaksInContext[TableSize];
static atomic_ulong Begins, Ends, Leaked, LeakedInContext, Overflow, OpenAtExit;
static const char *Context; /* SPAN_CHECK_CONTEXT */

static void resolve(void) {
  if (!RealBegin)
    RealBegin = (BeginFn)dlsym(RTLD_NEXT, "dftracer_span_begin");
  if (!RealEnd)
    RealEnd = (EndFn)dlsym(RTLD_NEXT, "dftracer_span_end");
}

static void countLeak(const char *Name, int InContext) {
  size_t H = ((size_t)Name >> 3) & (TableSize - 1);
  atomic_fetch_add(InContext ? &LeakedInContext : &Leaked, 1);
  for (size_t I = 0; I < TableSize; ++I, H = (H + 1) & (TableSize - 1)) {
    const char *Old = atomic_load(&Names[H]);
    if (!Old && atomic_compare_exchange_strong(&Names[H], &Old, Name))
      Old = Name;
    if (Old == Name) {
      atomic_fetch_add(InContext ? &LeaksInContext[H] : &Leaks[H], 1);
      return;
    }
  }
}

struct dftracer_span *dftracer_span_begin(const char *Name, const char *Cat) {
  struct dftracer_span *S;
  resolve();
  S = RealBegin(Name, Cat);
  if (!S)
    return S; /* tracing off or stopped: no END will come */
  atomic_fetch_add(&Begins, 1);
  if (Depth < StackDepth)
    Stack[Depth] = (struct Frame){S, Name};
  else
    atomic_fetch_add(&Overflow, 1);
  ++Depth;
  return S;
}

void dftracer_span_end(struct dftracer_span **Handle) {
  struct dftracer_span *S = *Handle;
  unsigned D = Depth < StackDepth ? Depth : StackDepth;
  resolve();
  atomic_fetch_add(&Ends, 1);
  /* Find S from the top; everything above it was left without its END. */
  for (unsigned I = D; I-- > 0;) {
    if (Stack[I].Span != S)
      continue;
    if (I + 1 < D) {
      int InContext = 0;
      for (unsigned K = 0; Context && K <= I && !InContext; ++K)
        InContext = Stack[K].Name && !strcmp(Stack[K].Name, Context);
      for (unsigned J = I + 1; J < D; ++J)
        countLeak(Stack[J].Name, InContext);
    }
    Depth = I;
    break;
  }
  RealEnd(Handle);
}

__attribute__((constructor)) static void start(void) {
  resolve();
  Context = getenv("SPAN_CHECK_CONTEXT");
}

__attribute__((destructor)) static void report(void) {
  const char *Path = getenv("SPAN_CHECK_OUT");
  int Fd = Path ? open(Path, O_WRONLY | O_CREAT | O_APPEND, 0644) : 2;
  char Line[512];
  int N;
  atomic_fetch_add(&OpenAtExit, Depth < StackDepth ? Depth : StackDepth);
  N = snprintf(Line, sizeof Line,
               "span_check: begins %lu ends %lu leaked %lu leaked_in_context "
               "%lu open_at_exit %lu overflow %lu\n",
               atomic_load(&Begins), atomic_load(&Ends), atomic_load(&Leaked),
               atomic_load(&LeakedInContext), atomic_load(&OpenAtExit),
               atomic_load(&Overflow));
  if (Fd >= 0 && write(Fd, Line, (size_t)N) < 0)
    return;
  for (size_t I = 0; Fd >= 0 && I < TableSize; ++I) {
    const char *Name = atomic_load(&Names[I]);
    if (!Name)
      continue;
    if (atomic_load(&Leaks[I])) {
      N = snprintf(Line, sizeof Line, "span_check: leaked %lu %s\n",
                   atomic_load(&Leaks[I]), Name);
      if (write(Fd, Line, (size_t)N) < 0)
        break;
    }
    if (atomic_load(&LeaksInContext[I])) {
      N = snprintf(Line, sizeof Line, "span_check: leaked_in_context %lu %s\n",
                   atomic_load(&LeaksInContext[I]), Name);
      if (write(Fd, Line, (size_t)N) < 0)
        break;
    }
  }
  if (Path && Fd >= 0)
    close(Fd);
}
