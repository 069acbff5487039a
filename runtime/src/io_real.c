#define _GNU_SOURCE
#include "io_real.h"
#include "real_symbol.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <sys/syscall.h>

struct dftracer_real dftracer_real_;

static const char *const Names[DftSymCount] = {
#define DFT_POSIX(N) #N,
#define DFT_STDIO(N) #N,
#include "io_symbols.def"
};

/* Set while this thread is inside dlsym: a wrapper it reaches (through a
 * malloc that opens or maps a file) must not call dlsym again. */
static _Thread_local int Resolving __attribute__((tls_model("initial-exec")));

/* --- Fallbacks: the system call itself, for the calls an allocator or the
 * loader may make while dlsym bootstraps. Everything else fails cleanly. */
static int sysOpen(const char *Path, int Flags, ...) {
  mode_t Mode = 0;
  if (dftracer_open_needs_mode(Flags)) {
    va_list Ap;
    va_start(Ap, Flags);
    Mode = (mode_t)va_arg(Ap, int);
    va_end(Ap);
  }
  return (int)syscall(SYS_openat, AT_FDCWD, Path, Flags, Mode);
}
static int sysOpenat(int DirFd, const char *Path, int Flags, ...) {
  mode_t Mode = 0;
  if (dftracer_open_needs_mode(Flags)) {
    va_list Ap;
    va_start(Ap, Flags);
    Mode = (mode_t)va_arg(Ap, int);
    va_end(Ap);
  }
  return (int)syscall(SYS_openat, DirFd, Path, Flags, Mode);
}
static int sysClose(int Fd) { return (int)syscall(SYS_close, Fd); }
static ssize_t sysRead(int Fd, void *Buf, size_t Count) {
  return syscall(SYS_read, Fd, Buf, Count);
}
static ssize_t sysWrite(int Fd, const void *Buf, size_t Count) {
  return syscall(SYS_write, Fd, Buf, Count);
}
static ssize_t sysPread(int Fd, void *Buf, size_t Count, off_t Off) {
  return syscall(SYS_pread64, Fd, Buf, Count, Off);
}
static off_t sysLseek(int Fd, off_t Off, int Whence) {
  return (off_t)syscall(SYS_lseek, Fd, Off, Whence);
}
static void *sysMmap(void *Addr, size_t Len, int Prot, int Flags, int Fd,
                     off_t Off) {
  return (void *)syscall(SYS_mmap, Addr, Len, Prot, Flags, Fd, Off);
}
static int sysFstat(int Fd, struct stat *Buf) {
  return (int)syscall(SYS_fstat, Fd, Buf);
}
/* _exit's own system call: the whole process ends; it never returns. */
static __attribute__((noreturn)) void sysExitGroup(int Status) {
  for (;;)
    syscall(SYS_exit_group, Status);
}
static long failInt(void) {
  errno = ENOSYS;
  return -1;
}
static void *failPtr(void) {
  errno = ENOSYS;
  return NULL;
}

void *dftracer_real_fallback_(enum dftracer_real_symbol Sym) {
  switch (Sym) {
  case DftSym_open:
  case DftSym_open64:
    return (void *)sysOpen;
  case DftSym_openat:
  case DftSym_openat64:
    return (void *)sysOpenat;
  case DftSym_close:
    return (void *)sysClose;
  case DftSym_read:
    return (void *)sysRead;
  case DftSym_write:
    return (void *)sysWrite;
  case DftSym_pread:
  case DftSym_pread64:
    return (void *)sysPread;
  case DftSym_lseek:
  case DftSym_lseek64:
    return (void *)sysLseek;
  case DftSym_mmap:
  case DftSym_mmap64:
    return (void *)sysMmap;
  case DftSym_fstat:
  case DftSym_fstat64:
    return (void *)sysFstat;
  case DftSym_fopen:
  case DftSym_fopen64:
  case DftSym_fdopen:
  case DftSym_freopen:
  case DftSym_freopen64:
  case DftSym_opendir:
  case DftSym_tmpfile:
  case DftSym_tmpfile64:
    return (void *)failPtr;
  case DftSym_vfork:
    return (void *)fork; /* which POSIX allows a vfork to be */
  case DftSym__exit:
  case DftSym__Exit:
    return (void *)sysExitGroup; /* failing is not an option */
  default:
    return (void *)failInt;
  }
}

/* The stat entry points of glibc < 2.33 exist only as old symbol versions,
 * which plain dlsym does not return. */
static void *lookupOld(const char *Name) {
#if defined(__x86_64__)
  return dlvsym(RTLD_NEXT, Name, "GLIBC_2.2.5");
#elif defined(__aarch64__)
  return dlvsym(RTLD_NEXT, Name, "GLIBC_2.17");
#else
  (void)Name;
  return NULL;
#endif
}

static void *lookup(enum dftracer_real_symbol Sym) {
  void *Fn;
  Resolving = 1;
  Fn = dlsym(RTLD_NEXT, Names[Sym]);
  if (!Fn && Names[Sym][0] == '_' && Names[Sym][1] == '_')
    Fn = lookupOld(Names[Sym]);
  Resolving = 0;
  return Fn;
}

void *dftracer_real_resolve_(enum dftracer_real_symbol Sym) {
  void **Slot = (void **)&dftracer_real_ + Sym;
  void *Fn = __atomic_load_n(Slot, __ATOMIC_ACQUIRE);
  if (Fn)
    return Fn;
  if (Resolving)
    return dftracer_real_fallback_(Sym);
  Fn = lookup(Sym);
  if (!Fn)
    return dftracer_real_fallback_(
        Sym); /* not in this libc: fail, do not crash */
  __atomic_store_n(Slot, Fn, __ATOMIC_RELEASE);
  return Fn;
}

void *dftracer_real_lookup_once(void **Slot, void *Handle, const char *Name) {
  void *Fn = __atomic_load_n(Slot, __ATOMIC_ACQUIRE);
  if (!Fn) {
    Fn = dlsym(Handle, Name);
    if (!Fn) /* a library loaded with RTLD_LOCAL (real_symbol.h) */
      Fn = dftracer_real_find_loaded(Name);
    __atomic_store_n(Slot, Fn, __ATOMIC_RELEASE);
  }
  return Fn;
}

void dftracer_real_resolve_all(void) {
  int Sym;
  for (Sym = 0; Sym < DftSymCount; ++Sym)
    (void)dftracer_real_resolve_((enum dftracer_real_symbol)Sym);
}
