/*===- stdio.c - The STDIO layer: streams ---------------------------------===*
 *
 * A stream is known by its descriptor: fopen stores the file's hash in the
 * descriptor table (io_core.h) under the stream's fd, fclose removes it, and
 * every other call looks the stream's fd up. So fdopen needs nothing of its
 * own, and POSIX calls the program makes on fileno(stream) are traced as the
 * same file. libc's own read()/write() under a stream are internal calls
 * that no wrapper sees: a stream's bytes are counted once, by its fread and
 * fwrite events (`size` × `ret`).
 *
 * Events are `cat` "STDIO"; `fd` is the stream's descriptor and `ret` of an
 * opening call is the new stream's descriptor, or -1.
 *
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include "io_decls.h"

#include "fd_classify.h"
#include "fd_position.h"
#include "io_core.h"
#include "io_data_call.h"
#include "io_filter.h"
#include "io_real.h"
#include "untraced.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>

#define STDIO DftLayerStdio

/* The wrappers are the library's interface, like libc's functions: they
 * must be visible to the dynamic linker (everything else is hidden). */
const char dftracer_stdio_layer_[] DFT_HIDDEN = "stdio";

#pragma GCC visibility push(default)

/* fread_unlocked and fwrite_unlocked may be macros (glibc's inline forms);
 * the definitions below name them in parentheses. */

/* The stream's descriptor without a call (glibc keeps it in the FILE). */
static inline int streamFd(FILE *Stream) {
#ifdef __GLIBC__
  return Stream ? Stream->_fileno : -1;
#else
  return Stream ? fileno(Stream) : -1;
#endif
}

/* Steps 2 and 3 (io_core.h) for a call on Stream, once the layer is on:
 * its descriptor goes to *Fd. A stream on a descriptor the runtime does
 * not know (stdout, fdopen of a socket) is classified (fd_classify.h). */
static inline int streamBegin(struct dftracer_io_call *C, const char *Name,
                              FILE *Stream, int *Fd) {
  uint64_t Hash;
  *Fd = streamFd(Stream);
  Hash = dftracer_fd_hash(*Fd); /* -1 (no stream): past the tables, 0 */
  return Hash && dftracer_io_begin(C, STDIO, Name, Hash);
}

/* streamBegin with the START inline (io_data_call.h), for the data calls. */
static inline __attribute__((always_inline)) int
streamDataBegin(struct dftracer_io_call *C, const char *Name, FILE *Stream,
                int *Fd) {
  uint64_t Hash;
  *Fd = streamFd(Stream);
  Hash = dftracer_fd_hash(*Fd);
  return Hash &&
         dftracer_io_begin_fast(C, dftracer_io_category(STDIO), Name, Hash);
}

/* The body of a wrapper of a call on STREAM (result `Ret`). The stream is
 * not looked at while the layer is off. */
#define STREAM_CALL(RetType, NAME, STREAM, CALL, ...)                          \
  struct dftracer_io_call C;                                                   \
  RetType Ret;                                                                 \
  int Fd;                                                                      \
  if (DFT_LIKELY(!dftracer_io_on(STDIO)) ||                                    \
      !streamBegin(&C, NAME, STREAM, &Fd))                                     \
    return CALL;                                                               \
  Ret = CALL;                                                                  \
  DFT_IO_END(&C, __VA_ARGS__);                                                 \
  return Ret

/* --- Stream positions (fd_position.h) -------------------------------------
 * A stream's position is ftell's: fread and fwrite move it by the bytes
 * they moved, fseek and rewind set it, ftell tells it. Writes on a stream
 * opened "a" go to the end the description believes in. libc moves the
 * descriptor's own position with internal calls no wrapper sees, so any
 * stream call makes it unknown. */

/* The descriptor's position is libc's to move now. */
static inline void streamMovedFd(struct dftracer_fd_desc *D) {
  if (D)
    __atomic_store_n(&D->Pos, DftPosUnknown, __ATOMIC_RELAXED);
}

/* The offset an fread (Write 0) or fwrite on D starts at. */
static inline int64_t streamBefore(struct dftracer_fd_desc *D, int Write,
                                   int *Append) {
  *Append = 0;
  if (!D)
    return DftPosUnknown;
  if (Write && (D->Flags & DftStreamAppend)) {
    *Append = 1;
    return __atomic_load_n(&D->End, __ATOMIC_RELAXED);
  }
  return __atomic_load_n(&D->StreamPos, __ATOMIC_RELAXED);
}

/* The position of Stream as libc has it (after a short transfer, whose
 * partial item ftell counts and `ret` does not). */
static int64_t streamTell(FILE *Stream) {
  int Saved = errno;
  int64_t Pos = (int64_t)DFT_REAL(ftello64)(Stream);
  errno = Saved;
  return Pos < 0 ? DftPosUnknown : Pos;
}

/* Items of Size bytes moved, Count asked for, from Offset. */
static inline void streamAfter(struct dftracer_fd_desc *D, FILE *Stream,
                               int64_t Offset, int Append, size_t Size,
                               size_t Count, size_t Ret) {
  int64_t Pos;
  if (!D)
    return;
  streamMovedFd(D);
  if (Ret < Count && Size != 1)
    Pos = streamTell(Stream);
  else
    Pos = Offset < 0 ? DftPosUnknown : Offset + (int64_t)(Ret * Size);
  if (Append)
    __atomic_store_n(&D->End, Pos, __ATOMIC_RELAXED);
  __atomic_store_n(&D->StreamPos, Pos, __ATOMIC_RELAXED);
}

/* The flags of open(2) that a stream mode means (only O_APPEND matters). */
static int modeFlags(const char *Mode) {
  return Mode && Mode[0] == 'a' ? O_APPEND : 0;
}

/* A new stream on Fd, a new description (fopen) or not (fdopen). */
static void streamOpened(int Fd, const char *Mode, int NewDescription) {
  struct dftracer_fd_desc *D;
  if (NewDescription)
    dftracer_fd_position_open(Fd, modeFlags(Mode));
  if (!(D = dftracer_fd_desc(Fd)))
    return;
  D->StreamPos = NewDescription ? 0 : D->Pos;
  if (modeFlags(Mode)) {
    if (D->End < 0)
      D->End = dftracer_fd_size(Fd);
    __atomic_fetch_or(&D->Flags, DftStreamAppend | DftDescAppend,
                      __ATOMIC_RELAXED);
  }
}

/* STREAM_CALL for fread and fwrite (DIRECTION, untraced.h) of COUNT items
 * of SIZE bytes at BUF: a call on a file the filter left out is counted
 * there. */
#define STREAM_DATA_CALL(NAME, STREAM, BUF, SIZE, COUNT, DIRECTION, CALL)      \
  struct dftracer_io_call C;                                                   \
  struct dftracer_fd_desc *D;                                                  \
  size_t Ret;                                                                  \
  int64_t Offset;                                                              \
  int Fd, Append;                                                              \
  if (DFT_LIKELY(!dftracer_io_on(STDIO)))                                      \
    return CALL;                                                               \
  if (!streamDataBegin(&C, NAME, STREAM, &Fd)) {                               \
    if (DFT_LIKELY(!dftracer_untraced_fd(Fd)))                                 \
      return CALL;                                                             \
    Ret = CALL;                                                                \
    dftracer_untraced_io(Fd, DIRECTION, (int64_t)(Ret * (SIZE)));              \
    return Ret;                                                                \
  }                                                                            \
  D = dftracer_fd_desc(Fd);                                                    \
  Offset = streamBefore(D, (DIRECTION) == DftUntracedWrite, &Append);          \
  Ret = CALL;                                                                  \
  streamAfter(D, STREAM, Offset, Append, SIZE, COUNT, Ret);                    \
  dftracer_io_end_stream(&C, Fd, (int64_t)(SIZE), (int64_t)(COUNT), Offset,   \
                         Append, (int64_t)Ret, (uintptr_t)(BUF));              \
  return Ret

/* An open of PATH: the new stream's descriptor gets the file's hash. */
#define FOPEN_CALL(NAME, PATH, CALL)                                           \
  struct dftracer_io_call C;                                                   \
  FILE *Ret;                                                                   \
  uint64_t Hash = 0;                                                           \
  int On, Skip = 0;                                                            \
  if (DFT_LIKELY(!dftracer_io_tracking()))                                     \
    return CALL;                                                               \
  if (dftracer_io_on(STDIO)) {                                                 \
    Hash = dftracer_io_path_hash(AT_FDCWD, PATH);                              \
    Skip = dftracer_untraced_take();                                           \
  }                                                                            \
  On = Hash && dftracer_io_begin(&C, STDIO, NAME, Hash);                       \
  Ret = CALL;                                                                  \
  if (Ret) {                                                                   \
    dftracer_fd_set(streamFd(Ret), Hash);                                      \
    dftracer_untraced_opened(streamFd(Ret), Skip);                             \
    if (Hash)                                                                  \
      streamOpened(streamFd(Ret), mode, 1);                                    \
    else                                                                       \
      dftracer_fd_position_close(streamFd(Ret));                               \
  }                                                                            \
  if (On)                                                                      \
    DFT_IO_END(&C, DFT_ARG(ret, Ret ? streamFd(Ret) : -1));                    \
  return Ret

FILE *fopen(const char *pathname, const char *mode) {
  FOPEN_CALL("fopen", pathname, DFT_REAL(fopen)(pathname, mode));
}

FILE *fopen64(const char *pathname, const char *mode) {
  FOPEN_CALL("fopen64", pathname, DFT_REAL(fopen64)(pathname, mode));
}

FILE *fdopen(int fd, const char *mode) {
  struct dftracer_io_call C;
  FILE *Ret;
  if (DFT_LIKELY(!dftracer_fd_begin(&C, STDIO, "fdopen", fd)))
    return DFT_REAL(fdopen)(fd, mode);
  Ret = DFT_REAL(fdopen)(fd, mode);
  if (Ret)
    streamOpened(fd, mode, 0);
  DFT_IO_END(&C, DFT_ARG(fd, fd), DFT_ARG(ret, Ret ? fd : -1));
  return Ret;
}

/* tmpfile: an unnamed file in P_tmpdir (glibc opens the directory with
 * O_TMPFILE, or makes and unlinks a name there), made by libc's internal
 * calls. The directory decides whether it is traced (before the call, so
 * that the event lasts it); its FH name is what /proc/self/fd says, the
 * directory and "#inode" (fd_classify.h). Untraced, it is counted there
 * as an open. */
#define TMPFILE_CALL(NAME, CALL)                                               \
  struct dftracer_io_call C;                                                   \
  FILE *Ret;                                                                   \
  uint64_t Hash = 0;                                                           \
  int On = 0, Slot = 0, Fd;                                                    \
  if (DFT_LIKELY(!dftracer_io_tracking()))                                     \
    return CALL;                                                               \
  if (dftracer_io_on(STDIO) &&                                                 \
      dftracer_io_filter_path(AT_FDCWD, P_tmpdir "/#", &Slot))                 \
    On = dftracer_io_begin(&C, STDIO, NAME, 0);                                \
  Ret = CALL;                                                                  \
  if (Ret && (Fd = streamFd(Ret)) >= 0) {                                      \
    dftracer_fd_set(Fd, 0);                                                    \
    dftracer_untraced_mark(Fd, DftUntracedUnknown);                            \
    dftracer_fd_position_close(Fd);                                            \
    if (dftracer_io_on(STDIO) && (Hash = dftracer_fd_classify(Fd)) != 0)       \
      streamOpened(Fd, "w+", 1);                                               \
    else if (dftracer_untraced_fd(Fd))                                         \
      dftracer_untraced_opened(Fd, (int)dftracer_untraced_byte(Fd));           \
  }                                                                            \
  if (On) {                                                                    \
    C.Fhash = Hash;                                                            \
    DFT_IO_END(&C, DFT_ARG(ret, Ret ? streamFd(Ret) : -1));                    \
  }                                                                            \
  return Ret

FILE *tmpfile(void) { TMPFILE_CALL("tmpfile", DFT_REAL(tmpfile)()); }

FILE *tmpfile64(void) { TMPFILE_CALL("tmpfile64", DFT_REAL(tmpfile64)()); }

/* freopen closes the stream's descriptor and opens PATH (or, when PATH is
 * NULL, reopens the same file with another mode). */
#define FREOPEN_CALL(NAME, REAL)                                               \
  struct dftracer_io_call C;                                                   \
  FILE *Ret;                                                                   \
  uint64_t Hash;                                                               \
  int On, OldFd;                                                               \
  if (DFT_LIKELY(!dftracer_io_tracking()))                                     \
    return REAL(pathname, mode, stream);                                       \
  OldFd = streamFd(stream);                                                    \
  Hash = !dftracer_io_on(STDIO) ? 0                                            \
         : pathname            ? dftracer_io_path_hash(AT_FDCWD, pathname)     \
                               : dftracer_fd_get(OldFd);                       \
  dftracer_fd_set(OldFd, 0);                                                   \
  dftracer_untraced_closed(OldFd);                                             \
  dftracer_fd_position_close(OldFd);                                           \
  On = Hash && dftracer_io_begin(&C, STDIO, NAME, Hash);                       \
  Ret = REAL(pathname, mode, stream);                                          \
  if (Ret) {                                                                   \
    dftracer_fd_set(streamFd(Ret), Hash);                                      \
    if (Hash)                                                                  \
      streamOpened(streamFd(Ret), mode, 1);                                    \
  }                                                                            \
  if (On)                                                                      \
    DFT_IO_END(&C, DFT_ARG(ret, Ret ? streamFd(Ret) : -1));                    \
  return Ret

FILE *freopen(const char *pathname, const char *mode, FILE *stream) {
  FREOPEN_CALL("freopen", DFT_REAL(freopen));
}

FILE *freopen64(const char *pathname, const char *mode, FILE *stream) {
  FREOPEN_CALL("freopen64", DFT_REAL(freopen64));
}

int fclose(FILE *stream) {
  struct dftracer_io_call C;
  uint64_t Hash;
  int Ret, Fd;
  if (DFT_LIKELY(!dftracer_io_tracking()))
    return DFT_REAL(fclose)(stream);
  Fd = streamFd(stream);
  if (!(Hash = dftracer_fd_get(Fd))) {
    dftracer_untraced_closed(Fd);
    return DFT_REAL(fclose)(stream);
  }
  dftracer_fd_set(Fd, 0); /* libc closes the descriptor internally */
  dftracer_fd_position_close(Fd);
  if (!dftracer_io_on(STDIO) || !dftracer_io_begin(&C, STDIO, "fclose", Hash))
    return DFT_REAL(fclose)(stream);
  Ret = DFT_REAL(fclose)(stream);
  DFT_IO_END(&C, DFT_ARG(fd, Fd), DFT_ARG(ret, Ret));
  return Ret;
}

size_t fread(void *ptr, size_t size, size_t count, FILE *stream) {
  STREAM_DATA_CALL("fread", stream, ptr, size, count, DftUntracedRead,
                   DFT_REAL(fread)(ptr, size, count, stream));
}

size_t __fread_chk(void *ptr, size_t ptrlen, size_t size, size_t count,
                   FILE *stream) {
  STREAM_DATA_CALL("__fread_chk", stream, ptr, size, count, DftUntracedRead,
                   DFT_REAL(__fread_chk)(ptr, ptrlen, size, count, stream));
}

size_t(fread_unlocked)(void *ptr, size_t size, size_t count, FILE *stream) {
  STREAM_DATA_CALL("fread_unlocked", stream, ptr, size, count, DftUntracedRead,
                   DFT_REAL(fread_unlocked)(ptr, size, count, stream));
}

size_t fwrite(const void *ptr, size_t size, size_t count, FILE *stream) {
  STREAM_DATA_CALL("fwrite", stream, ptr, size, count, DftUntracedWrite,
                   DFT_REAL(fwrite)(ptr, size, count, stream));
}

size_t(fwrite_unlocked)(const void *ptr, size_t size, size_t count,
                       FILE *stream) {
  STREAM_DATA_CALL("fwrite_unlocked", stream, ptr, size, count, DftUntracedWrite,
                   DFT_REAL(fwrite_unlocked)(ptr, size, count, stream));
}

/* --- Formatted and character output ----------------------------------------
 * fprintf and fputs (and their forms) write through the stream's
 * buffer as fwrite does; their events have fwrite's keys with `size` 1:
 * `count` the bytes asked for (fprintf's: those it wrote), `ret` the bytes
 * written, -1 when the call failed. glibc's printf family calls its own
 * internal vfprintf, not these, so nothing is counted twice. printf,
 * puts, putchar (stdout) and the character functions (fputc, putc: an
 * event per character) are not wrapped: docs/runtime.md. */
#define STREAM_PUT_CALL(RetType, NAME, STREAM, COUNT, CALL, MOVED)            \
  struct dftracer_io_call C;                                                   \
  struct dftracer_fd_desc *D;                                                  \
  RetType Ret;                                                                 \
  int64_t Offset, Moved;                                                       \
  int Fd, Append;                                                              \
  if (DFT_LIKELY(!dftracer_io_on(STDIO)))                                      \
    return CALL;                                                               \
  if (!streamBegin(&C, NAME, STREAM, &Fd)) {                                   \
    if (DFT_LIKELY(!dftracer_untraced_fd(Fd)))                                 \
      return CALL;                                                             \
    Ret = CALL;                                                                \
    dftracer_untraced_io(Fd, DftUntracedWrite, (int64_t)(MOVED));              \
    return Ret;                                                                \
  }                                                                            \
  D = dftracer_fd_desc(Fd);                                                    \
  Offset = streamBefore(D, 1, &Append);                                        \
  Ret = CALL;                                                                  \
  Moved = (int64_t)(MOVED);                                                    \
  streamAfter(D, STREAM, Offset, Append, 1, Moved > 0 ? (size_t)Moved : 0,     \
              Moved > 0 ? (size_t)Moved : 0);                                  \
  dftracer_io_end_stream(&C, Fd, 1, (COUNT) < 0 ? Moved : (int64_t)(COUNT),   \
                         Offset, Append, Moved, 0);                            \
  return Ret

/* Flag < 0: vfprintf, else __vfprintf_chk with Flag. */
static int putFormatted(const char *Name, FILE *Stream, int Flag,
                        const char *Format, va_list Ap) {
  STREAM_PUT_CALL(int, Name, Stream, -1,
                  Flag < 0 ? DFT_REAL(vfprintf)(Stream, Format, Ap)
                           : DFT_REAL(__vfprintf_chk)(Stream, Flag, Format, Ap),
                  Ret < 0 ? -1 : Ret);
}

int fprintf(FILE *stream, const char *format, ...) {
  va_list Ap;
  int Ret;
  va_start(Ap, format);
  Ret = putFormatted("fprintf", stream, -1, format, Ap);
  va_end(Ap);
  return Ret;
}

int vfprintf(FILE *stream, const char *format, va_list ap) {
  return putFormatted("vfprintf", stream, -1, format, ap);
}

int __fprintf_chk(FILE *stream, int flag, const char *format, ...) {
  va_list Ap;
  int Ret;
  va_start(Ap, format);
  Ret = putFormatted("__fprintf_chk", stream, flag < 0 ? 0 : flag, format,
                     Ap);
  va_end(Ap);
  return Ret;
}

int __vfprintf_chk(FILE *stream, int flag, const char *format, va_list ap) {
  return putFormatted("__vfprintf_chk", stream, flag < 0 ? 0 : flag, format,
                      ap);
}

/* fputs returns a non-negative number (glibc: 1), not the bytes. */
int fputs(const char *s, FILE *stream) {
  STREAM_PUT_CALL(int, "fputs", stream, (int64_t)strlen(s),
                  DFT_REAL(fputs)(s, stream),
                  Ret < 0 ? -1 : (int64_t)strlen(s));
}

int(fputs_unlocked)(const char *s, FILE *stream) {
  STREAM_PUT_CALL(int, "fputs_unlocked", stream, (int64_t)strlen(s),
                  DFT_REAL(fputs_unlocked)(s, stream),
                  Ret < 0 ? -1 : (int64_t)strlen(s));
}

/* A successful fseek's position: where libc now has the stream (its
 * ftell after a seek mostly reads the offset it just set). The
 * event's `ret` is that position (-1: failed), docs/trace-format.md. */
static int64_t seekEnd(FILE *Stream, int Fd, int Ret) {
  struct dftracer_fd_desc *D = dftracer_fd_desc(Fd);
  int64_t Pos = Ret == 0 ? streamTell(Stream) : DftPosUnknown;
  if (D) {
    streamMovedFd(D);
    if (Ret == 0)
      __atomic_store_n(&D->StreamPos, Pos, __ATOMIC_RELAXED);
  }
  return Ret == 0 ? Pos : -1;
}

/* A stream call that tells the position (ftell) or moves the descriptor's
 * (fflush). */
static int64_t toldAt(int Fd, int64_t Ret) {
  struct dftracer_fd_desc *D = dftracer_fd_desc(Fd);
  if (D && Ret >= 0)
    __atomic_store_n(&D->StreamPos, Ret, __ATOMIC_RELAXED);
  return Ret;
}

int fseek(FILE *stream, long offset, int whence) {
  STREAM_CALL(int, "fseek", stream, DFT_REAL(fseek)(stream, offset, whence),
              DFT_ARG(fd, Fd), DFT_ARG(offset, offset),
              DFT_ARG(whence, whence), DFT_ARG(ret, seekEnd(stream, Fd, Ret)));
}

int fseeko(FILE *stream, off_t offset, int whence) {
  STREAM_CALL(int, "fseeko", stream, DFT_REAL(fseeko)(stream, offset, whence),
              DFT_ARG(fd, Fd), DFT_ARG(offset, offset),
              DFT_ARG(whence, whence), DFT_ARG(ret, seekEnd(stream, Fd, Ret)));
}

int fseeko64(FILE *stream, off64_t offset, int whence) {
  STREAM_CALL(int, "fseeko64", stream,
              DFT_REAL(fseeko64)(stream, offset, whence), DFT_ARG(fd, Fd),
              DFT_ARG(offset, offset), DFT_ARG(whence, whence),
              DFT_ARG(ret, seekEnd(stream, Fd, Ret)));
}

long ftell(FILE *stream) {
  STREAM_CALL(long, "ftell", stream, DFT_REAL(ftell)(stream), DFT_ARG(fd, Fd),
              DFT_ARG(ret, toldAt(Fd, Ret)));
}

off_t ftello(FILE *stream) {
  STREAM_CALL(off_t, "ftello", stream, DFT_REAL(ftello)(stream),
              DFT_ARG(fd, Fd), DFT_ARG(ret, toldAt(Fd, Ret)));
}

off64_t ftello64(FILE *stream) {
  STREAM_CALL(off64_t, "ftello64", stream, DFT_REAL(ftello64)(stream),
              DFT_ARG(fd, Fd), DFT_ARG(ret, toldAt(Fd, Ret)));
}

int fflush(FILE *stream) {
  STREAM_CALL(int, "fflush", stream, DFT_REAL(fflush)(stream),
              DFT_ARG(fd, Fd),
              DFT_ARG(ret, (streamMovedFd(dftracer_fd_desc(Fd)), Ret)));
}

void rewind(FILE *stream) {
  struct dftracer_io_call C;
  int Fd;
  if (DFT_LIKELY(!dftracer_io_on(STDIO)) ||
      !streamBegin(&C, "rewind", stream, &Fd)) {
    DFT_REAL(rewind)(stream);
    return;
  }
  DFT_REAL(rewind)(stream);
  {
    struct dftracer_fd_desc *D = dftracer_fd_desc(Fd);
    if (D) {
      streamMovedFd(D);
      __atomic_store_n(&D->StreamPos, 0, __ATOMIC_RELAXED);
    }
  }
  DFT_IO_END(&C, DFT_ARG(fd, Fd));
}
