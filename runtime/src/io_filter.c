#define _GNU_SOURCE
#include "io_filter.h"

#include "internal.h"
#include "json_writer.h"
#include "untraced.h"

#include <errno.h>
#include <fcntl.h>
#include <mntent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

struct prefixSet {
  int All;
  int Count;
  const char **Items; /* absolute, no trailing '/' (except "/" itself) */
  size_t *Lens;
};

/* /dev holds device nodes, and file systems mounted under it hold regular
 * files: the tmpfs mounts below /dev (/dev/shm, where users and MPI put
 * data) are ordinary directories to the filter, the rest of /dev is out.
 * Found once at load (dftracer_io_filter_setup). */
enum { DevTmpfsMax = 16, DevTmpfsPathMax = 256 };
static char DevTmpfs[DevTmpfsMax][DevTmpfsPathMax];
static size_t DevTmpfsLen[DevTmpfsMax];
static int DevTmpfsCount;
static const char *const DefaultExcluded[] = {
    "/etc", "/usr", "/bin",  "/sbin", "/lib",
    "/lib64", "/boot", "/opt", "/var", "/run"};

/* The data dirs in use; replaced whole (never freed: a reader may hold the
 * old one) when INIT supplies them. NULL: the default. */
static struct prefixSet *DataDirs;

static int under(const char *Path, size_t Len, const char *Dir, size_t DirLen) {
  if (Len < DirLen || memcmp(Path, Dir, DirLen) != 0)
    return 0;
  return Len == DirLen || Path[DirLen] == '/' || Dir[DirLen - 1] == '/';
}

static int endsWith(const char *Path, size_t Len, const char *Suffix) {
  size_t SLen = strlen(Suffix);
  return Len >= SLen && memcmp(Path + Len - SLen, Suffix, SLen) == 0;
}

/* Refused: counted against directory Dir (Len bytes). */
static int refuse(const char *Dir, size_t Len) {
  dftracer_untraced_pending_ = dftracer_untraced_slot(Dir, Len);
  return 0;
}

static int underDevice(const char *Path, size_t Len) {
  int I;
  if (!under(Path, Len, "/dev", 4))
    return 0;
  for (I = 0; I < DevTmpfsCount; ++I)
    if (under(Path, Len, DevTmpfs[I], DevTmpfsLen[I]))
      return 0;
  return 1;
}

/* Length of the longest run of whole leading components that Path and
 * the directory Dir share ("/work" for /work/a/b and /work/x). */
static size_t commonDirs(const char *Path, size_t Len, const char *Dir,
                         size_t DirLen) {
  size_t I = 0, Last = 0;
  while (I < Len && I < DirLen && Path[I] == Dir[I]) {
    ++I;
    if ((I == Len || Path[I] == '/') && (I == DirLen || Dir[I] == '/'))
      Last = I;
  }
  return Last;
}

/* The directory a path outside every data dir is counted in: the path
 * down to the first component that leads to no data dir (/work/a for
 * /work/a/b/f with data dir /work/x), or the file's own directory when
 * that component is the file (/work for /work/f); a tmpfs mounted under
 * /dev counts as one directory (/dev/shm). */
static int refuseOutside(const char *Path, size_t Len,
                         const struct prefixSet *Set) {
  size_t Common = 0, End;
  int I;
  for (I = 0; I < Set->Count; ++I) {
    size_t C = commonDirs(Path, Len, Set->Items[I], Set->Lens[I]);
    if (C > Common)
      Common = C;
  }
  if (Common >= Len)
    return refuse(Path, Len);
  /* A tmpfs under /dev is a top directory of its own: /dev/shm, not /dev
   * (which the filter keeps out). */
  for (I = 0; I < DevTmpfsCount; ++I)
    if (Common < DevTmpfsLen[I] &&
        under(Path, Len, DevTmpfs[I], DevTmpfsLen[I]))
      return refuse(DevTmpfs[I], DevTmpfsLen[I]);
  for (End = Common + 1; End < Len && Path[End] != '/'; ++End)
    ;
  if (End < Len)
    return refuse(Path, End);
  return Common ? refuse(Path, Common) : refuse("/", 1);
}

int dftracer_io_filter_match(const char *Path, size_t Len) {
  const struct prefixSet *Set = __atomic_load_n(&DataDirs, __ATOMIC_ACQUIRE);
  size_t I;
  int J;
  dftracer_untraced_pending_ = 0;
  /* Trace files are not the program's I/O, and are not counted. */
  if (endsWith(Path, Len, ".pfw") || endsWith(Path, Len, ".pfw.gz"))
    return 0;
  if (under(Path, Len, "/proc", 5))
    return refuse("/proc", 5);
  if (under(Path, Len, "/sys", 4))
    return refuse("/sys", 4);
  if (underDevice(Path, Len))
    return refuse("/dev", 4);
  if (!Set) {
    for (I = 0; I < sizeof(DefaultExcluded) / sizeof(DefaultExcluded[0]); ++I)
      if (under(Path, Len, DefaultExcluded[I], strlen(DefaultExcluded[I])))
        return refuse(DefaultExcluded[I], strlen(DefaultExcluded[I]));
    return 1;
  }
  if (Set->All)
    return 1;
  for (J = 0; J < Set->Count; ++J)
    if (under(Path, Len, Set->Items[J], Set->Lens[J]))
      return 1;
  return refuseOutside(Path, Len, Set);
}

void dftracer_io_filter_setup(void) {
  FILE *Mounts = setmntent("/proc/self/mounts", "r");
  struct mntent *M;
  DevTmpfsCount = 0;
  if (!Mounts)
    return;
  while ((M = getmntent(Mounts)) != NULL && DevTmpfsCount < DevTmpfsMax) {
    size_t Len = strlen(M->mnt_dir);
    if (strcmp(M->mnt_type, "tmpfs") != 0 || Len <= 5 ||
        Len >= DevTmpfsPathMax || strncmp(M->mnt_dir, "/dev/", 5) != 0)
      continue;
    memcpy(DevTmpfs[DevTmpfsCount], M->mnt_dir, Len + 1);
    DevTmpfsLen[DevTmpfsCount++] = Len;
  }
  endmntent(Mounts);
}

/* Drop `.` components and repeated slashes of the absolute path Buf in
 * place (`..` is kept: with symbolic links it is not lexical). */
static size_t clean(char *Buf, size_t Len) {
  size_t In = 0, Out = 0;
  while (In < Len) {
    if (Buf[In] == '/') {
      while (In + 1 < Len && Buf[In + 1] == '/')
        ++In;
      if (In + 1 < Len && Buf[In + 1] == '.' &&
          (In + 2 == Len || Buf[In + 2] == '/')) {
        In += 2;
        continue;
      }
    }
    Buf[Out++] = Buf[In++];
  }
  if (Out > 1 && Buf[Out - 1] == '/')
    --Out;
  if (Out == 0)
    Buf[Out++] = '/';
  Buf[Out] = '\0';
  return Out;
}

size_t dftracer_io_absolute_path(int DirFd, const char *Path, char *Out) {
  size_t Base = 0, Len;
  if (!Path)
    return 0;
  Len = strlen(Path);
  if (Path[0] != '/') {
    if (DirFd == AT_FDCWD) {
      /* The system call: glibc's getcwd may allocate. */
      long N = syscall(SYS_getcwd, Out, (size_t)DftPathMax);
      if (N <= 0)
        return 0;
      Base = strlen(Out);
    } else {
      char Link[48] = "/proc/self/fd/";
      ssize_t N;
      /* Not snprintf: this may run in a signal handler. */
      *dftracer_put_i64(Link + 14, DirFd) = '\0';
      N = (ssize_t)syscall(SYS_readlink, Link, Out, (size_t)DftPathMax - 1);
      if (N <= 0 || Out[0] != '/')
        return 0;
      Base = (size_t)N;
    }
    if (Base + 1 + Len + 1 > DftPathMax)
      return 0;
    Out[Base++] = '/';
  } else if (Len + 1 > DftPathMax) {
    return 0;
  }
  memcpy(Out + Base, Path, Len + 1);
  return clean(Out, Base + Len);
}

int dftracer_io_filter_path(int DirFd, const char *Path, int *Slot) {
  char Abs[DftPathMax];
  int Saved = errno, Traced = 0;
  size_t Len = dftracer_io_absolute_path(DirFd, Path, Abs);
  *Slot = 0;
  if (Len) {
    Traced = dftracer_io_filter_match(Abs, Len);
    *Slot = dftracer_untraced_take();
  }
  errno = Saved;
  return Traced;
}

uint64_t dftracer_io_path_hash_of(const char *Path, size_t Len) {
  uint64_t H = 0xcbf29ce484222325ull;
  size_t I;
  for (I = 0; I < Len; ++I) {
    H ^= (unsigned char)Path[I];
    H *= 0x100000001b3ull;
  }
  H &= (1ull << 53) - 1; /* exact in a double: any JSON reader gets it */
  return H ? H : 1;
}

void dftracer_io_filter_set(const char *Dirs) {
  struct prefixSet *Set;
  const char *P;
  char Abs[DftPathMax];
  int Count = 1, I = 0;
  if (!Dirs || !*Dirs) {
    __atomic_store_n(&DataDirs, NULL, __ATOMIC_RELEASE);
    return;
  }
  for (P = Dirs; *P; ++P)
    Count += *P == ':';
  Set = (struct prefixSet *)calloc(1, sizeof(*Set));
  if (!Set)
    return;
  Set->Items = (const char **)calloc((size_t)Count, sizeof(char *));
  Set->Lens = (size_t *)calloc((size_t)Count, sizeof(size_t));
  if (!Set->Items || !Set->Lens)
    return;
  for (P = Dirs; *P;) {
    const char *End = strchr(P, ':');
    size_t Len = End ? (size_t)(End - P) : strlen(P);
    char Item[DftPathMax];
    if (Len > 0 && Len < sizeof(Item)) {
      memcpy(Item, P, Len);
      Item[Len] = '\0';
      if (strcmp(Item, "all") == 0) {
        Set->All = 1;
      } else {
        size_t AbsLen = dftracer_io_absolute_path(AT_FDCWD, Item, Abs);
        char *Copy = AbsLen ? strdup(Abs) : NULL;
        if (Copy) {
          Set->Items[I] = Copy;
          Set->Lens[I++] = AbsLen;
        }
      }
    }
    P += Len;
    if (*P == ':')
      ++P;
  }
  Set->Count = I;
  __atomic_store_n(&DataDirs, Set, __ATOMIC_RELEASE);
}
