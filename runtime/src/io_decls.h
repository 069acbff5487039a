/*===- io_decls.h - Declarations of every intercepted libc symbol ---------===*
 *
 * The prototypes the wrappers define. The public ones come from the libc
 * headers; the entry points that only fortified (_FORTIFY_SOURCE) or old
 * binaries call are not declared there, so they are declared here with
 * glibc's signatures. Fortification itself is off in the runtime's own
 * sources: its inline definitions of read() and friends would clash with
 * the wrappers.
 *
 *===----------------------------------------------------------------------===*/
#ifndef DFTRACER_RUNTIME_IO_DECLS_H
#define DFTRACER_RUNTIME_IO_DECLS_H

#ifndef _GNU_SOURCE
#error "io_decls.h needs _GNU_SOURCE (the *64 and statx declarations)"
#endif
#ifdef _FORTIFY_SOURCE
#undef _FORTIFY_SOURCE
#endif

#include <aio.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

int __open_2(const char *Path, int Flags);
int __open64_2(const char *Path, int Flags);
int __openat_2(int DirFd, const char *Path, int Flags);
int __openat64_2(int DirFd, const char *Path, int Flags);
ssize_t __read_chk(int Fd, void *Buf, size_t Count, size_t BufLen);
ssize_t __pread_chk(int Fd, void *Buf, size_t Count, off_t Offset,
                    size_t BufLen);
ssize_t __pread64_chk(int Fd, void *Buf, size_t Count, off64_t Offset,
                      size_t BufLen);
/* The stat entry points of glibc < 2.33, still exported for old binaries. */
int __xstat(int Ver, const char *Path, struct stat *Buf);
int __xstat64(int Ver, const char *Path, struct stat64 *Buf);
int __lxstat(int Ver, const char *Path, struct stat *Buf);
int __lxstat64(int Ver, const char *Path, struct stat64 *Buf);
int __fxstat(int Ver, int Fd, struct stat *Buf);
int __fxstat64(int Ver, int Fd, struct stat64 *Buf);
int __fxstatat(int Ver, int DirFd, const char *Path, struct stat *Buf,
               int Flags);
int __fxstatat64(int Ver, int DirFd, const char *Path, struct stat64 *Buf,
                 int Flags);
int __fprintf_chk(FILE *Stream, int Flag, const char *Format, ...);
int __vfprintf_chk(FILE *Stream, int Flag, const char *Format, va_list Ap);
size_t __fread_chk(void *Ptr, size_t PtrLen, size_t Size, size_t N,
                   FILE *Stream);

#endif
