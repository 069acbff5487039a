/*===- dftracer/dftracer.h - DFTracer-compatible annotation macros -*- C -*-===*
 *
 * The annotation API that `annotate` inserts into C and C++ sources. The macro
 * names and arities are upstream DFTracer's, so an annotated build can switch
 * between this runtime (libdftracer_core from this project) and upstream
 * DFTracer by changing only include and link paths (docs/runtime.md).
 *
 * Contract for annotated code (SPEC 5.1, 5.3):
 *
 * \code
 *   int main(int argc, char **argv) {
 *     MPI_Init(&argc, &argv);
 *     DFTRACER_C_INIT(NULL, NULL, NULL);     // args may all be NULL
 *     DFTRACER_C_FUNCTION_START();           // a declaration: comes first
 *     DFTRACER_C_METADATA(meta0, "app", "ior"); // meta0: any identifier
 *     ...
 *     DFTRACER_C_FUNCTION_END();             // may appear many times,
 *     DFTRACER_C_FINI();                     // in nested blocks too
 *     MPI_Finalize();
 *     return 0;
 *   }
 * \endcode
 *
 * Design points, each a lesson from instrumenting real codes:
 *  - START declares a pointer-sized handle. On GCC and Clang it carries
 *    __attribute__((cleanup)), so the span is closed however the scope is
 *    left, including a `return` hidden in a macro that `annotate` cannot edit.
 *  - END closes the span early and nulls the handle, which disarms the
 *    cleanup. Every macro that is used as a statement expands to ONE
 *    expression (or one declaration for START forms), so it stays correct in
 *    a braceless `if`.
 *  - With tracing off, START is one load of `dftracer_active` and a branch;
 *    END and the cleanup are one test of the (null) handle.
 *  - The handle is marked `unused`: a function whose only END is hidden by a
 *    macro must still build with -Wall -Wextra -Werror.
 *  - Only `dftracer_`-prefixed symbols are exported. Upstream's bare names
 *    (`finalize`, `initialize_main`, ...) would collide with application code.
 *
 *===----------------------------------------------------------------------===*/
#ifndef DFTRACER_DFTRACER_H
#define DFTRACER_DFTRACER_H

#include <stddef.h>

#define DFTRACER_RUNTIME_VERSION_MAJOR 0
#define DFTRACER_RUNTIME_VERSION_MINOR 1
/* Lets code tell this runtime from upstream DFTracer at compile time. */
#define DFTRACER_ANNOTATE_RUNTIME 1

#if defined(__GNUC__) || defined(__clang__)
#define DFTRACER_ATTR_UNUSED_ __attribute__((unused))
#define DFTRACER_ATTR_CLEANUP_ __attribute__((cleanup(dftracer_span_cleanup_)))
#define DFTRACER_UNLIKELY_(x) __builtin_expect(!!(x), 0)
#define DFTRACER_INLINE_ static __inline__
#define DFTRACER_API __attribute__((visibility("default")))
/* A relaxed atomic load: the same single instruction as a plain load, but
 * not a data race with FINI's store (ThreadSanitizer agrees). */
#define DFTRACER_LOAD_FLAG_(x) __atomic_load_n(&(x), __ATOMIC_RELAXED)
#else
/* Without cleanup support a span left by a hidden return stays open until
 * FINI or exit, which then closes it. */
#define DFTRACER_ATTR_UNUSED_
#define DFTRACER_ATTR_CLEANUP_
#define DFTRACER_UNLIKELY_(x) (x)
#define DFTRACER_INLINE_ static inline
#define DFTRACER_API
#define DFTRACER_LOAD_FLAG_(x) (x)
#endif

/* Test builds only: without the cleanup, as upstream DFTracer or a compiler
 * without the attribute, a span that no END closes stays open until its
 * parent ends, so a test sees every END that annotate failed to place. */
#ifdef DFTRACER_TEST_NO_CLEANUP
#undef DFTRACER_ATTR_CLEANUP_
#define DFTRACER_ATTR_CLEANUP_
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* An open span. Opaque: it lives in a per-thread pool inside the library. */
struct dftracer_span;

/* Nonzero while tracing is on: set from DFTRACER_ENABLE when the library is
 * loaded, cleared by FINI. Read with a relaxed load on every START; a
 * stale value only means one span more or less around FINI. */
DFTRACER_API extern int dftracer_active;

/* Tracer lifetime. `log_file` is the path prefix used when DFTRACER_LOG_FILE
 * is unset; `data_dirs` is accepted for upstream compatibility and ignored;
 * `process_id`, when not NULL, replaces the OS pid in the trace. Calling FINI
 * without INIT, or twice, does nothing. */
DFTRACER_API void dftracer_init(const char *log_file, const char *data_dirs,
                                int *process_id);
DFTRACER_API void dftracer_fini(void);

/* Open a span named `name` (static storage: __func__ or a literal) in
 * category `cat`. Returns NULL when tracing is off. */
DFTRACER_API struct dftracer_span *dftracer_span_begin(const char *name,
                                                       const char *cat);
/* Close *span, write its event and set *span to NULL. *span must not be
 * NULL; the inline wrappers below test it. */
DFTRACER_API void dftracer_span_end(struct dftracer_span **span);
/* Attach key/value to an open span (kept only with DFTRACER_INC_METADATA=1).
 * A NULL span is ignored. */
DFTRACER_API void dftracer_span_update_int(struct dftracer_span *span,
                                           const char *key, long long value);
DFTRACER_API void dftracer_span_update_str(struct dftracer_span *span,
                                           const char *key, const char *value);
/* Write a process metadata event {"name":key,"value":value}. */
DFTRACER_API void dftracer_metadata(const char *key, const char *value);
/* The coverage of the program's sources (which were annotated, which not
 * and why), as JSON text in static storage, kept by pointer: called at
 * start-up by the constructor the build integration links into the program
 * (annotate-cc, annotate_target), through a weak reference, so a program
 * linked without the runtime still runs. Each trace file then starts with a
 * `coverage` record (docs/runtime.md, "Coverage"). Text that is not valid
 * gives no record and one line on stderr. */
DFTRACER_API void dftracer_register_coverage(const char *json);

/* Inline so that the disabled path never calls into the library. `static
 * inline` functions that are not used raise no warning in C or C++;
 * `__inline__` keeps strict C89 (-std=c89) working on GCC and Clang. */
DFTRACER_INLINE_ void dftracer_span_finish_(struct dftracer_span **span) {
  if (DFTRACER_UNLIKELY_(*span != NULL))
    dftracer_span_end(span);
}
DFTRACER_INLINE_ void dftracer_span_cleanup_(struct dftracer_span **span) {
  if (DFTRACER_UNLIKELY_(*span != NULL))
    dftracer_span_end(span);
}
DFTRACER_INLINE_ struct dftracer_span *dftracer_span_start_(const char *name,
                                                            const char *cat) {
  return DFTRACER_UNLIKELY_(DFTRACER_LOAD_FLAG_(dftracer_active))
             ? dftracer_span_begin(name, cat)
             : (struct dftracer_span *)0;
}

#ifdef __cplusplus
}
#endif

/*===-- C API -------------------------------------------------------------===*/

#define DFTRACER_C_INIT(log_file, data_dirs, process_id)                       \
  dftracer_init((log_file), (data_dirs), (process_id))
#define DFTRACER_C_FINI() dftracer_fini()

/* A declaration: must come before statements in C89 code, hence first. */
#define DFTRACER_C_FUNCTION_START()                                            \
  struct dftracer_span *dftracer_fn_span DFTRACER_ATTR_UNUSED_                 \
      DFTRACER_ATTR_CLEANUP_ = dftracer_span_start_(__func__, "C_APP")
#define DFTRACER_C_FUNCTION_END() dftracer_span_finish_(&dftracer_fn_span)

/* `name` is an identifier, as upstream: it names the handle and the span. */
#define DFTRACER_C_REGION_START(name)                                          \
  struct dftracer_span *dftracer_region_##name DFTRACER_ATTR_UNUSED_           \
      DFTRACER_ATTR_CLEANUP_ = dftracer_span_start_(#name, "C_APP")
#define DFTRACER_C_REGION_END(name)                                            \
  dftracer_span_finish_(&dftracer_region_##name)

#define DFTRACER_C_FUNCTION_UPDATE_INT(key, val)                               \
  dftracer_span_update_int(dftracer_fn_span, (key), (val))
#define DFTRACER_C_FUNCTION_UPDATE_STR(key, val)                               \
  dftracer_span_update_str(dftracer_fn_span, (key), (val))
#define DFTRACER_C_REGION_UPDATE_INT(name, key, val)                           \
  dftracer_span_update_int(dftracer_region_##name, (key), (val))
#define DFTRACER_C_REGION_UPDATE_STR(name, key, val)                           \
  dftracer_span_update_str(dftracer_region_##name, (key), (val))

/* Upstream token-pastes `name`, so it must be an identifier there. Pasting it
 * here too makes a string literal fail on this runtime as it would upstream,
 * while the macro stays a single expression. */
#define DFTRACER_STR_(x) #x
#define DFTRACER_PASTE_STR_(a, b) DFTRACER_STR_(a##b)
#define DFTRACER_C_METADATA(name, key, val)                                    \
  ((void)DFTRACER_PASTE_STR_(dftracer_meta_, name),                            \
   dftracer_metadata((key), (val)))

/*===-- C++ API -----------------------------------------------------------===*/

#ifdef __cplusplus
namespace dftracer {

/// RAII span over the C API; C++11, header-only, no exceptions thrown.
class Span {
public:
  Span(const char *Name, const char *Cat)
      : Handle(dftracer_span_start_(Name, Cat)) {}
  ~Span() { dftracer_span_finish_(&Handle); }

  /// Close the span before the end of the scope; later calls do nothing.
  void end() { dftracer_span_finish_(&Handle); }

  // One overload per integer type: an exact match beats the null-pointer
  // conversion of a literal 0 to `const char *`.
  void update(const char *Key, int Value) { updateInt(Key, Value); }
  void update(const char *Key, unsigned Value) { updateInt(Key, Value); }
  void update(const char *Key, long Value) { updateInt(Key, Value); }
  void update(const char *Key, unsigned long Value) {
    updateInt(Key, static_cast<long long>(Value));
  }
  void update(const char *Key, long long Value) { updateInt(Key, Value); }
  void update(const char *Key, unsigned long long Value) {
    updateInt(Key, static_cast<long long>(Value));
  }
  void update(const char *Key, const char *Value) {
    if (Handle)
      dftracer_span_update_str(Handle, Key, Value);
  }

private:
  Span(const Span &); // not copyable (C++11 and C++03 alike)
  Span &operator=(const Span &);
  void updateInt(const char *Key, long long Value) {
    if (Handle)
      dftracer_span_update_int(Handle, Key, Value);
  }
  struct dftracer_span *Handle;
};

} // namespace dftracer

#define DFTRACER_CPP_INIT(log_file, data_dirs, process_id)                     \
  dftracer_init((log_file), (data_dirs), (process_id))
#define DFTRACER_CPP_FINI() dftracer_fini()
#define DFTRACER_CPP_FUNCTION()                                                \
  ::dftracer::Span dftracer_cpp_fn(__func__, "CPP_APP")
#define DFTRACER_CPP_REGION(name)                                              \
  ::dftracer::Span dftracer_cpp_region_##name(#name, "CPP_APP")
/* Upstream heap-allocates here; a scoped object with an explicit end() gives
 * the same span without `new`, and still closes on early exit. */
#define DFTRACER_CPP_REGION_START(name)                                        \
  ::dftracer::Span dftracer_cpp_region_##name(#name, "CPP_APP")
#define DFTRACER_CPP_REGION_END(name) dftracer_cpp_region_##name.end()
#define DFTRACER_CPP_FUNCTION_UPDATE(key, val)                                 \
  dftracer_cpp_fn.update((key), (val))
#define DFTRACER_CPP_REGION_UPDATE(name, key, val)                             \
  dftracer_cpp_region_##name.update((key), (val))
#define DFTRACER_CPP_REGION_DYN_UPDATE(name, key, val)                         \
  dftracer_cpp_region_##name.update((key), (val))
#define DFTRACER_CPP_METADATA(name, key, val)                                  \
  DFTRACER_C_METADATA(name, key, val)
#endif /* __cplusplus */

#endif /* DFTRACER_DFTRACER_H */
