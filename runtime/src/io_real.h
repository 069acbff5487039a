/*===- io_real.h - The real functions behind the I/O wrappers -------------===*
 *
 * One pointer per POSIX and STDIO symbol of io_symbols.def, resolved with
 * dlsym(RTLD_NEXT) when the library loads (dftracer_real_resolve_all), so
 * the wrappers never call dlsym. A wrapper that runs before that (another
 * library's constructor) resolves its symbol on the spot; one that runs
 * while this thread is inside dlsym (a malloc that opens or maps files
 * while dlsym bootstraps) gets a fallback that makes the system call
 * directly, so no call ever loops back into the loader.
 *
 * The MPI-IO and HDF5 layers look their functions up at the first call
 * instead: their libraries are the program's, may not be loaded yet, or
 * at all, or only in a local scope (RTLD_LOCAL). Their wrappers forward
 * to what their caller would have bound to (real_symbol.h); their helpers
 * use dftracer_real_lookup_once.
 *
 * The runtime's own I/O (the trace file) never goes through the wrappers:
 * sink.c makes raw system calls, and everything it runs is marked busy
 * (io_core.h).
 *
 *===----------------------------------------------------------------------===*/
#ifndef DFTRACER_RUNTIME_IO_REAL_H
#define DFTRACER_RUNTIME_IO_REAL_H

#include "io_decls.h"
#include "internal.h"

enum dftracer_real_symbol {
#define DFT_POSIX(N) DftSym_##N,
#define DFT_STDIO(N) DftSym_##N,
#include "io_symbols.def"
  DftSymCount
};

struct dftracer_real {
#define DFT_POSIX(N) __typeof__(N) *N;
#define DFT_STDIO(N) __typeof__(N) *N;
#include "io_symbols.def"
};

extern struct dftracer_real dftracer_real_ DFT_HIDDEN;

/* Resolve every symbol; called once when the library loads. */
void dftracer_real_resolve_all(void) DFT_HIDDEN;
/* The real function of Sym, or its fallback; never NULL. */
void *dftracer_real_resolve_(enum dftracer_real_symbol Sym) DFT_HIDDEN;

/* The system-call fallback of Sym: for mmap, which must never reach
 * dlsym (an allocator's mmap inside dlsym would deadlock; darshan #223). */
void *dftracer_real_fallback_(enum dftracer_real_symbol Sym) DFT_HIDDEN;

/* An open with these flags takes a mode argument. */
static inline int dftracer_open_needs_mode(int Flags) {
  return (Flags & O_CREAT) || (Flags & O_TMPFILE) == O_TMPFILE;
}

/* dlsym(Handle, Name), else Name in any loaded object but the runtime
 * (a library loaded with RTLD_LOCAL: real_symbol.h), looked up once and
 * kept in *Slot; NULL (looked up again next time) while there is none. */
void *dftracer_real_lookup_once(void **Slot, void *Handle,
                                const char *Name) DFT_HIDDEN;

/* The real N, resolving it first if needed. */
#define DFT_REAL(N)                                                            \
  (DFT_LIKELY(dftracer_real_.N != NULL)                                        \
       ? dftracer_real_.N                                                      \
       : (__typeof__(dftracer_real_.N))dftracer_real_resolve_(DftSym_##N))

/* The real N if resolved, else its fallback: never calls dlsym. */
#define DFT_REAL_NOLOAD(N)                                                     \
  (DFT_LIKELY(dftracer_real_.N != NULL)                                        \
       ? dftracer_real_.N                                                      \
       : (__typeof__(dftracer_real_.N))dftracer_real_fallback_(DftSym_##N))

#endif
