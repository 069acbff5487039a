/*===- fd_create.c - Calls that make a file with a name of their own -----===*
 *
 * mkstemp and its family, shm_open and memfd_create make a descriptor
 * with libc's internal open (or a system call of their own), which no
 * open wrapper sees. Their wrappers (cat "POSIX", named after the symbol)
 * give the new descriptor its file as an open would:
 *
 *  - the mkstemp family: the file the template became (the template's
 *    directory decides, before the call, whether it is traced: the event
 *    lasts the call; its FH line names the file made). `flags` are those
 *    of the open made (O_RDWR|O_CREAT|O_EXCL and mkostemp's own);
 *  - shm_open: /dev/shm/NAME, which glibc opens; traced when /dev/shm is
 *    (by default, or when a data dir names it), else counted there;
 *  - memfd_create: an anonymous file, no path: counted under the kind
 *    `memfd` (untraced.h), its open included; no event.
 *
 * tmpfile is a stream: stdio.c. The real functions are found as the
 * others' are (io_real.h).
 *
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include "io_decls.h"

#include "fd_classify.h"
#include "fd_position.h"
#include "io_core.h"
#include "io_filter.h"
#include "io_real.h"
#include "untraced.h"

#include <errno.h>
#include <string.h>

#define POSIX DftLayerPosix

/* posix.c refers to this, so that the static archive links this object
 * with the POSIX layer (io_core.c's dftracer_io_layer_objects_). */
const char dftracer_fd_create_object_[] DFT_HIDDEN = "fd_create";

/* The new descriptor Fd (>= 0) is the file Hash (0: not traced, counted in
 * Slot when not 0), a new description opened with Flags. */
static void created(int Fd, uint64_t Hash, int Slot, int Flags) {
  dftracer_fd_set(Fd, Hash);
  dftracer_untraced_opened(Fd, Hash ? 0 : Slot);
  if (Hash)
    dftracer_fd_position_open(Fd, Flags);
  else
    dftracer_fd_position_close(Fd);
}

#pragma GCC visibility push(default)

/* The mkstemp family: TEMPLATE names the file once the call made it. */
#define MKSTEMP_CALL(NAME, TEMPLATE, FLAGS, CALL)                              \
  struct dftracer_io_call C;                                                   \
  uint64_t Hash = 0;                                                           \
  int Ret, On = 0, Slot = 0, Traced = 0;                                       \
  if (DFT_LIKELY(!dftracer_io_tracking()))                                     \
    return CALL;                                                               \
  if (dftracer_io_on(POSIX))                                                   \
    Traced = dftracer_io_filter_path(AT_FDCWD, TEMPLATE, &Slot);               \
  On = Traced && dftracer_io_begin(&C, POSIX, NAME, 0);                        \
  Ret = CALL;                                                                  \
  if (Ret >= 0) {                                                              \
    if (Traced)                                                                \
      Hash = dftracer_io_path_hash(AT_FDCWD, TEMPLATE);                        \
    created(Ret, Hash, Slot, FLAGS);                                           \
  }                                                                            \
  if (On) {                                                                    \
    C.Fhash = Hash;                                                            \
    DFT_IO_END(&C, DFT_ARG(flags, O_RDWR | O_CREAT | O_EXCL | (FLAGS)),        \
               DFT_ARG(ret, Ret));                                             \
  }                                                                            \
  return Ret

int mkstemp(char *template) {
  MKSTEMP_CALL("mkstemp", template, 0, DFT_REAL(mkstemp)(template));
}

int mkstemp64(char *template) {
  MKSTEMP_CALL("mkstemp64", template, 0, DFT_REAL(mkstemp64)(template));
}

int mkostemp(char *template, int flags) {
  MKSTEMP_CALL("mkostemp", template, flags,
               DFT_REAL(mkostemp)(template, flags));
}

int mkostemp64(char *template, int flags) {
  MKSTEMP_CALL("mkostemp64", template, flags,
               DFT_REAL(mkostemp64)(template, flags));
}

int mkstemps(char *template, int suffixlen) {
  MKSTEMP_CALL("mkstemps", template, 0,
               DFT_REAL(mkstemps)(template, suffixlen));
}

int mkstemps64(char *template, int suffixlen) {
  MKSTEMP_CALL("mkstemps64", template, 0,
               DFT_REAL(mkstemps64)(template, suffixlen));
}

int mkostemps(char *template, int suffixlen, int flags) {
  MKSTEMP_CALL("mkostemps", template, flags,
               DFT_REAL(mkostemps)(template, suffixlen, flags));
}

int mkostemps64(char *template, int suffixlen, int flags) {
  MKSTEMP_CALL("mkostemps64", template, flags,
               DFT_REAL(mkostemps64)(template, suffixlen, flags));
}

/* The path glibc's shm_open opens: /dev/shm/ and the name without its
 * leading slashes; 0 when it does not fit. */
static size_t shmPath(const char *Name, char *Out) {
  static const char Dir[] = "/dev/shm/";
  size_t Len;
  if (!Name)
    return 0;
  while (*Name == '/')
    ++Name;
  Len = strlen(Name);
  if (sizeof(Dir) + Len > DftPathMax)
    return 0;
  memcpy(Out, Dir, sizeof(Dir) - 1);
  memcpy(Out + sizeof(Dir) - 1, Name, Len + 1);
  return sizeof(Dir) - 1 + Len;
}

int shm_open(const char *name, int oflag, mode_t mode) {
  struct dftracer_io_call C;
  char Path[DftPathMax];
  uint64_t Hash = 0;
  int Ret, On, Slot = 0;
  if (DFT_LIKELY(!dftracer_io_tracking()))
    return DFT_REAL(shm_open)(name, oflag, mode);
  if (dftracer_io_on(POSIX) && shmPath(name, Path)) {
    Hash = dftracer_io_path_hash(AT_FDCWD, Path);
    Slot = dftracer_untraced_take();
  }
  On = Hash && dftracer_io_begin(&C, POSIX, "shm_open", Hash);
  Ret = DFT_REAL(shm_open)(name, oflag, mode);
  if (Ret >= 0)
    created(Ret, Hash, Slot, oflag);
  if (On)
    DFT_IO_END(&C, DFT_ARG(flags, oflag), DFT_ARG(mode, mode),
               DFT_ARG(ret, Ret));
  return Ret;
}

int memfd_create(const char *name, unsigned int flags) {
  int Ret = DFT_REAL(memfd_create)(name, flags);
  if (Ret >= 0 && dftracer_io_tracking())
    created(Ret, 0, dftracer_io_on(POSIX) ? dftracer_fd_kind_slot("memfd") : 0,
            0);
  return Ret;
}
