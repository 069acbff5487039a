#define _GNU_SOURCE /* fallocate */
#include "sink.h"

#include "io_core.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>
#include <zlib.h>

/* The trace file is written with system calls, not the libc functions that
 * the I/O layers intercept, and every sink function marks the thread busy
 * for zlib's own write(): the runtime never traces itself. */
static int sysOpen(const char *Path, int Flags, mode_t Mode) {
  return (int)syscall(SYS_openat, AT_FDCWD, Path, Flags, Mode);
}
static ssize_t sysWritev(int Fd, const struct iovec *Iov, int Count) {
  return syscall(SYS_writev, Fd, Iov, Count);
}
static int sysClose(int Fd) { return (int)syscall(SYS_close, Fd); }
static int sysFallocate(int Fd, int Mode, off_t Off, off_t Len) {
  return (int)syscall(SYS_fallocate, Fd, Mode, Off, Len);
}
static int sysFtruncate(int Fd, off_t Len) {
  return (int)syscall(SYS_ftruncate, Fd, Len);
}

/* The file is created on first use, which may be the program's first
 * traced open(): it must not take the lowest free descriptor there, which
 * the program is about to get (close(0) then open() puts a file in
 * stdin's place, as a shell's redirection does). It moves to the lowest
 * free one from FirstHighFd, or from half the descriptor limit if that is
 * lower, and stays where it is when none is free up there. */
enum { FirstHighFd = 512 };
static int moveUp(int Fd) {
  struct rlimit Limit;
  rlim_t Min = FirstHighFd;
  long High;
  if (getrlimit(RLIMIT_NOFILE, &Limit) == 0 && Limit.rlim_cur / 2 < Min)
    Min = Limit.rlim_cur / 2;
  if ((rlim_t)Fd >= Min ||
      (High = syscall(SYS_fcntl, Fd, F_DUPFD_CLOEXEC, (long)Min)) < 0)
    return Fd;
  sysClose(Fd);
  return (int)High;
}
static void writevImpl(struct dftracer_sink *S, struct iovec *Iov, int Count);

enum { FirstChunk = 4 << 20, LargestChunk = 64 << 20 };

/* Bytes per write system call. A buffered write lets the kernel hold the
 * written range in page-cache folios as large as the call (ext4 since Linux
 * 6.16), and large ones come from the high-order free memory that a
 * hypervisor with free page reporting has taken back from the guest: the
 * first touch of each of their pages then faults on the host. On the
 * 2-vCPU KVM guest of docs/performance.md, writing a fresh 1.5 GB file
 * after 5 s idle cost, per 150 bytes: 14-16 ns in 256 KiB calls (17-20 in
 * 64 KiB, 15-16 in 128 KiB), 49-61 ns in 512 KiB calls, 200-215 ns in
 * 1 MiB calls. Elsewhere, 256 KiB calls cost one system call per ~1,700
 * lines, which is nothing. */
enum { MaxWriteBytes = 256 << 10 };

void dftracer_sink_reset(struct dftracer_sink *S) {
  memset(S, 0, sizeof(*S));
  S->Fd = -1;
}

/* Reserve disk blocks ahead of the writes. On ext4 this halves the kernel
 * cost of a trace write (no delayed allocation per page); KEEP_SIZE keeps
 * the file size equal to the bytes written, so a reader never sees a hole.
 * Filesystems without fallocate just skip it. */
static void preallocate(struct dftracer_sink *S, size_t Len) {
  if (!S->Chunk || S->Written + Len <= S->Reserved)
    return;
  if (sysFallocate(S->Fd, FALLOC_FL_KEEP_SIZE, (off_t)S->Reserved,
                (off_t)S->Chunk) != 0) {
    S->Chunk = 0;
    return;
  }
  S->Reserved += S->Chunk;
  if (S->Chunk < LargestChunk)
    S->Chunk *= 2;
}

static uint64_t fnv1a(uint64_t H, const void *Data, size_t Len) {
  const unsigned char *P = (const unsigned char *)Data;
  size_t I;
  for (I = 0; I < Len; ++I) {
    H ^= P[I];
    H *= 0x100000001b3ull;
  }
  return H;
}

uint64_t dftracer_trace_hash(int Pid, uint64_t WallNs) {
  char Host[256] = {0};
  uint64_t H = 0xcbf29ce484222325ull;
  gethostname(Host, sizeof(Host) - 1);
  H = fnv1a(H, Host, strlen(Host));
  H = fnv1a(H, &Pid, sizeof(Pid));
  H = fnv1a(H, &WallNs, sizeof(WallNs));
  return H;
}

int dftracer_sink_is_open(const struct dftracer_sink *S) { return S->Fd >= 0; }

static void failOnce(struct dftracer_sink *S, const char *What) {
  if (S->Failed)
    return;
  S->Failed = 1;
  fprintf(stderr,
          "dftracer: %s '%s': %s; tracing output of this process is lost "
          "(check DFTRACER_LOG_FILE)\n",
          What, S->Path, strerror(errno));
}

static int openImpl(struct dftracer_sink *S, const char *Prefix, int Compress,
                    uint64_t Hash) {
  static const char Header[] = "[\n";
  int Attempt;
  if (S->Fd >= 0)
    return 0;
  if (S->Failed)
    return -1;
  /* O_EXCL: a name that exists belongs to another process; pick another. */
  for (Attempt = 0; Attempt < 16; ++Attempt) {
    snprintf(S->Path, sizeof(S->Path), "%s-%016llx-app.pfw%s", Prefix,
             (unsigned long long)(Hash + (uint64_t)Attempt),
             Compress ? ".gz" : "");
    S->Fd = sysOpen(S->Path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (S->Fd >= 0 || errno != EEXIST)
      break;
  }
  if (S->Fd < 0) {
    failOnce(S, "cannot create trace file");
    return -1;
  }
  S->Fd = moveUp(S->Fd);
  if (Compress) {
    /* Level 1: trace text is so repetitive that it still shrinks ~15x
     * (~21x at zlib's default 6), for a third of the CPU per event; the
     * writer thread's deflate is what bounds a traced program's event rate
     * when compressing (docs/performance.md). */
    S->Gz = gzdopen(S->Fd, "wb1");
    if (!S->Gz) {
      failOnce(S, "cannot start gzip stream for");
      sysClose(S->Fd);
      S->Fd = -1;
      return -1;
    }
    gzbuffer((gzFile)S->Gz, 256 * 1024);
  } else {
    S->Chunk = FirstChunk;
  }
  {
    struct iovec Iov = {(void *)Header, sizeof(Header) - 1};
    writevImpl(S, &Iov, 1);
  }
  return S->Failed ? -1 : 0;
}


static void gzWriteAll(struct dftracer_sink *S, const char *Data, size_t Len) {
  while (Len > 0 && !S->Failed) {
    unsigned Chunk = Len > (1u << 30) ? (1u << 30) : (unsigned)Len;
    int N = gzwrite((gzFile)S->Gz, Data, Chunk);
    if (N <= 0) {
      failOnce(S, "cannot write compressed trace file");
      return;
    }
    Data += N;
    Len -= (size_t)N;
  }
}

static void writevImpl(struct dftracer_sink *S, struct iovec *Iov, int Count) {
  size_t Total = 0;
  int I;
  if (S->Fd < 0 || S->Failed)
    return;
  if (S->Gz) {
    for (I = 0; I < Count; ++I)
      gzWriteAll(S, (const char *)Iov[I].iov_base, Iov[I].iov_len);
    return;
  }
  for (I = 0; I < Count; ++I)
    Total += Iov[I].iov_len;
  preallocate(S, Total);
  while (Count > 0) {
    /* The buffers that fit in MaxWriteBytes, or the first one cut to it. */
    int Part = 0;
    size_t Bytes = 0, Whole = Iov->iov_len;
    ssize_t N;
    while (Part < Count && Bytes + Iov[Part].iov_len <= MaxWriteBytes)
      Bytes += Iov[Part++].iov_len;
    if (Part == 0) {
      Iov->iov_len = MaxWriteBytes;
      Part = 1;
    }
    N = sysWritev(S->Fd, Iov, Part);
    Iov->iov_len = Whole;
    if (N < 0 && errno == EINTR)
      continue;
    if (N < 0 || (N == 0 && Total > 0)) {
      failOnce(S, "cannot write trace file");
      return;
    }
    S->Written += (uint64_t)N;
    Total -= (size_t)N;
    /* Skip what went out; a short write resumes mid-buffer. */
    while (Count > 0 && (size_t)N >= Iov->iov_len) {
      N -= (ssize_t)Iov->iov_len;
      ++Iov;
      --Count;
    }
    if (Count > 0) {
      Iov->iov_base = (char *)Iov->iov_base + N;
      Iov->iov_len -= (size_t)N;
    }
  }
}

static void closeImpl(struct dftracer_sink *S) {
  if (S->Fd < 0)
    return;
  if (S->Gz) {
    /* gzclose closes the descriptor too. */
    if (gzclose((gzFile)S->Gz) != Z_OK)
      failOnce(S, "cannot finish compressed trace file");
  } else {
    /* Give back the blocks preallocated past the end. */
    if (S->Reserved > S->Written && sysFtruncate(S->Fd, (off_t)S->Written) != 0)
      failOnce(S, "cannot trim trace file");
    if (sysClose(S->Fd) != 0)
      failOnce(S, "cannot close trace file");
  }
  S->Gz = NULL;
  S->Fd = -1;
}

void dftracer_sink_abandon(struct dftracer_sink *S) {
  /* The descriptor is shared with the parent; gzclose would append a gzip
   * trailer to the parent's stream, so only the child's copy is closed and
   * the zlib state is leaked (the child is about to exec or exit). */
  if (S->Fd >= 0)
    sysClose(S->Fd);
  __atomic_store_n(&dftracer_trace_fd_, -1, __ATOMIC_RELAXED);
  S->Gz = NULL;
  S->Fd = -1;
}

int dftracer_sink_open(struct dftracer_sink *S, const char *Prefix,
                       int Compress, uint64_t Hash) {
  int Ret, Busy = dftracer_busy_enter();
  Ret = openImpl(S, Prefix, Compress, Hash);
  __atomic_store_n(&dftracer_trace_fd_, S->Fd, __ATOMIC_RELAXED);
  dftracer_busy_leave(Busy);
  return Ret;
}

void dftracer_sink_writev(struct dftracer_sink *S, struct iovec *Iov,
                          int Count) {
  int Busy = dftracer_busy_enter();
  writevImpl(S, Iov, Count);
  dftracer_busy_leave(Busy);
}

void dftracer_sink_write(struct dftracer_sink *S, const char *Data,
                         size_t Len) {
  struct iovec Iov;
  Iov.iov_base = (void *)Data;
  Iov.iov_len = Len;
  dftracer_sink_writev(S, &Iov, 1);
}

void dftracer_sink_close(struct dftracer_sink *S) {
  int Busy = dftracer_busy_enter();
  __atomic_store_n(&dftracer_trace_fd_, -1, __ATOMIC_RELAXED);
  closeImpl(S);
  dftracer_busy_leave(Busy);
}
