/*===- real_symbol.h - The real function, wherever the caller got it ------===*
 *
 * A wrapper forwards to the function its caller would have called without
 * the runtime. dlsym(RTLD_NEXT) sees only the global scope after the
 * runtime; a library loaded with RTLD_LOCAL (h5py's libhdf5_serial, any
 * plugin or Python module that links HDF5 or MPI privately) is not in it,
 * yet its users' calls reach the preloaded wrappers (the loader searches
 * the global scope first). So a wrapper's real function is found as the
 * loader would have bound the caller without the runtime:
 *
 *  - G, dlsym(RTLD_NEXT): the global scope after the runtime;
 *  - C, the caller's own lookup scope, when the caller (the object holding
 *    the return address, dladdr1) is a shared object other than the
 *    runtime: dlopen(its name, RTLD_NOLOAD) + dlsym on that handle, which
 *    searches it and its dependencies: the library it was linked against.
 *
 *  G when there is no C or both agree; C when there is no G. When both
 *  exist and differ, HDF5 is loaded twice (the program's, globally, and a
 *  plugin's private copy) or something interposes: the loader binds a
 *  reference to G unless G's object versions its symbols (Debian's HDF5
 *  and MPI libraries do: HDF5_SERIAL_1.8.7, HDF5_MPICH_1.8.7), where a
 *  versioned reference (made against C's library) skips it. So: G if its
 *  object has no symbol versions (an interposer, e.g. another tracer
 *  preloaded after this one), C otherwise: the caller's identifiers
 *  belong to its own copy. (Two copies with the same version names would
 *  bind to G; C is taken there too: a plugin's own library.)
 *  - Neither (the caller cannot be told: the main program, a helper of
 *    the runtime): every loaded object in load order (dl_iterate_phdr),
 *    the runtime skipped, each asked through dlopen(RTLD_NOLOAD) + dlsym.
 *
 * A definition inside the runtime is never taken. Results are cached per
 * call site (return address) and symbol, so a wrapper asks the loader once
 * per site; a site that finds nothing is cached too (until more objects
 * are loaded: dl_iterate_phdr's count), and said once per
 * symbol on stderr and, tracing on, in a `symbol_unresolved` record
 * (docs/trace-format.md); the wrapper then returns its API's failure,
 * which is all a caller of an undefined function can be given.
 *
 *===----------------------------------------------------------------------===*/
#ifndef DFTRACER_RUNTIME_REAL_SYMBOL_H
#define DFTRACER_RUNTIME_REAL_SYMBOL_H

#include "internal.h"

/* Name in any loaded object but the runtime, in load order: for lookups
 * that are not a wrapper's own forward (HDF5's and MPI's helpers), after
 * dlsym found nothing. Not cached. */
void *dftracer_real_find_loaded(const char *Name) DFT_HIDDEN;

/* The real Name for a call from return address Caller, cached per
 * (Caller, Slot); Slot is the symbol's own static word (its identity).
 * NULL when nothing defines it: said once (Layer names the events' `cat`). */
void *dftracer_real_for_caller(void **Slot, const char *Name,
                               const void *Caller,
                               const char *Layer) DFT_HIDDEN;

/* The real function Name of a wrapper, for the wrapper's caller: use in
 * the wrapper's own body (its return address is the caller's call site). */
#define DFT_REAL_FOR_CALLER(Slot, Name, Layer)                                 \
  dftracer_real_for_caller((Slot), (Name), __builtin_return_address(0),        \
                           (Layer))

#endif
