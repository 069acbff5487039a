#define _GNU_SOURCE /* fallocate */
#include "sink.h"

#include "budget.h"
#include "compact_writer.h"
#include "pages.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>
#include <zlib.h>

int dftracer_trace_fd_ = -1;

/* The trace file is written with system calls, not the libc functions that
 * the I/O layers intercept, and every sink function marks the thread busy:
 * the runtime never traces itself.
 *
 * Nothing here calls malloc or free, not even with compression: the trace
 * may be finished by a _exit() in a signal handler that interrupted malloc
 * (docs/runtime.md, Signal handlers). So the gzip stream is zlib's deflate
 * with the gzip wrapper (windowBits 15 + 16: header and CRC trailer),
 * its state in whole pages (pages.h) through zalloc/zfree, and its output
 * written by the same code as a plain file's; zlib's gz* functions would
 * malloc at open and first write and free at gzclose. */
static int sysOpen(const char *Path, int Flags, mode_t Mode) {
  return (int)syscall(SYS_openat, AT_FDCWD, Path, Flags, Mode);
}
static ssize_t sysWritev(int Fd, const struct iovec *Iov, int Count) {
  return syscall(SYS_writev, Fd, Iov, Count);
}
static int sysClose(int Fd) { return (int)syscall(SYS_close, Fd); }

/* Skips the N bytes a writev took; a short write resumes mid-buffer. */
static void skipWritten(struct iovec **Iov, int *Count, size_t N) {
  while (*Count > 0 && N >= (*Iov)->iov_len) {
    N -= (*Iov)->iov_len;
    ++*Iov;
    --*Count;
  }
  if (*Count > 0) {
    (*Iov)->iov_base = (char *)(*Iov)->iov_base + N;
    (*Iov)->iov_len -= N;
  }
}
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
 * first touch of each of their pages then faults on the host. Folios of up
 * to 32 KiB (order 3, the largest the page allocator keeps per CPU) do not
 * meet it. On the 2-vCPU KVM guest of docs/performance.md (Linux 6.18),
 * writing a fresh 1.4 GB file on ext4 cost 0.56-0.73 s of system time in
 * 16 or 32 KiB calls, as on tmpfs (0.72-0.75 s), and 3.2-3.9 s in 64 or
 * 256 KiB calls (an earlier kernel there was slow only from 512 KiB). 32
 * KiB calls cost one system call per ~220 lines. */
enum { MaxWriteBytes = 32 << 10 };

void dftracer_sink_reset(struct dftracer_sink *S) {
  memset(S, 0, sizeof(*S));
  S->Fd = S->CompactFd = -1;
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

/* Warn once on stderr, with a write system call of constant strings:
 * async-signal-safe, unlike fprintf and strerror (which may translate, and
 * allocate). Tracing stops (budget.h): from now on calls are only counted,
 * which costs the program less than formatting lines nobody can write. */
static void failOnce(struct dftracer_sink *S, const char *What) {
  int Err = errno;
  const char *Why = strerrordesc_np(Err);
  const char *Parts[] = {"dftracer: ", What, " '", S->Path, "': ",
                         Why ? Why : "unknown error",
                         "; tracing stopped, the program goes on (check "
                         "DFTRACER_LOG_FILE, DFTRACER_MAX_TRACE_SIZE)\n"};
  struct iovec Iov[sizeof(Parts) / sizeof(Parts[0])];
  size_t I;
  if (S->Failed)
    return;
  S->Failed = 1;
  dftracer_budget_write_error(Err, __atomic_load_n(&S->Written,
                                                   __ATOMIC_RELAXED));
  if (S->Final)
    return; /* said already */
  for (I = 0; I < sizeof(Parts) / sizeof(Parts[0]); ++I) {
    Iov[I].iov_base = (void *)Parts[I];
    Iov[I].iov_len = strlen(Parts[I]);
  }
  (void)sysWritev(STDERR_FILENO, Iov, (int)I);
  errno = Err;
}

/* zlib's memory: whole pages, their size kept in front. */
enum { ZHeader = 16 };
static voidpf zAlloc(voidpf Opaque, uInt Items, uInt Size) {
  size_t Bytes = (size_t)Items * Size + ZHeader;
  char *Pages = (char *)dftracer_pages_alloc(Bytes);
  (void)Opaque;
  if (!Pages)
    return Z_NULL;
  memcpy(Pages, &Bytes, sizeof(Bytes));
  return Pages + ZHeader;
}
static void zFree(voidpf Opaque, voidpf Block) {
  size_t Bytes;
  (void)Opaque;
  if (!Block)
    return;
  memcpy(&Bytes, (char *)Block - ZHeader, sizeof(Bytes));
  dftracer_pages_free((char *)Block - ZHeader, Bytes);
}

/* The deflate stream and its output buffer, written out when full. */
enum { DeflateOutBytes = 256 * 1024 };
struct dftracer_deflate {
  z_stream Z;
  size_t Used;
  unsigned char Out[DeflateOutBytes];
};

static void writePlain(struct dftracer_sink *S, struct iovec *Iov, int Count);

static void writeOut(struct dftracer_sink *S) {
  struct dftracer_deflate *D = S->Deflate;
  struct iovec Iov = {D->Out, D->Used};
  if (D->Used > 0)
    writePlain(S, &Iov, 1);
  D->Used = 0;
}

/* Compress Len bytes (Flush Z_NO_FLUSH), or end the stream (Z_FINISH). */
static void deflateAll(struct dftracer_sink *S, const char *Data, size_t Len,
                       int Flush) {
  struct dftracer_deflate *D = S->Deflate;
  int Ret;
  D->Z.next_in = (Bytef *)Data;
  D->Z.avail_in = 0;
  do {
    if (D->Z.avail_in == 0) {
      uInt Part = Len > (1u << 30) ? (1u << 30) : (uInt)Len;
      D->Z.avail_in = Part;
      Len -= Part;
    }
    D->Z.next_out = D->Out + D->Used;
    D->Z.avail_out = (uInt)(DeflateOutBytes - D->Used);
    Ret = deflate(&D->Z, Len > 0 ? Z_NO_FLUSH : Flush);
    D->Used = DeflateOutBytes - D->Z.avail_out;
    if (Ret == Z_STREAM_ERROR) {
      failOnce(S, "cannot compress trace file");
      return;
    }
    if (D->Used == DeflateOutBytes)
      writeOut(S);
  } while (!S->Failed && (D->Z.avail_in > 0 || Len > 0 ||
                          (Flush == Z_FINISH && Ret != Z_STREAM_END)));
}

/* Level 1: trace text is so repetitive that it still shrinks ~15x (~21x at
 * zlib's default 6), for a third of the CPU per event; the writer thread's
 * deflate is what bounds a traced program's event rate when compressing
 * (docs/performance.md). */
static int startDeflate(struct dftracer_sink *S) {
  struct dftracer_deflate *D =
      (struct dftracer_deflate *)dftracer_pages_alloc(sizeof(*D));
  if (!D)
    return -1;
  D->Z.zalloc = zAlloc;
  D->Z.zfree = zFree;
  D->Z.opaque = Z_NULL;
  if (deflateInit2(&D->Z, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) !=
      Z_OK) {
    dftracer_pages_free(D, sizeof(*D));
    return -1;
  }
  S->Deflate = D;
  return 0;
}

static void endDeflate(struct dftracer_sink *S) {
  struct dftracer_deflate *D = S->Deflate;
  deflateAll(S, "", 0, Z_FINISH);
  if (!S->Failed)
    writeOut(S);
  deflateEnd(&D->Z);
  dftracer_pages_free(D, sizeof(*D));
  S->Deflate = NULL;
}

/* The encoder's blocks: to the trace file itself, or (both formats) to
 * the .pfc beside it. */
static void compactToSink(void *Arg, struct iovec *Iov, int Count) {
  struct dftracer_sink *S = (struct dftracer_sink *)Arg;
  if (S->Failed) /* a block after a failed one would hide the cut */
    return;
  writePlain(S, Iov, Count);
  if (!S->Failed) /* where a write error cuts the file back to */
    S->LineEnd = S->Written;
}
/* The .pfw text the encoder gives back (records as lines): to the file,
 * or through the gzip stream. */
static void linesToSink(void *Arg, struct iovec *Iov, int Count) {
  struct dftracer_sink *S = (struct dftracer_sink *)Arg;
  int I;
  if (!S->Deflate) {
    if (!S->Failed)
      writePlain(S, Iov, Count);
    return;
  }
  for (I = 0; I < Count && !S->Failed; ++I)
    deflateAll(S, (const char *)Iov[I].iov_base, Iov[I].iov_len, Z_NO_FLUSH);
}
static void compactToSide(void *Arg, struct iovec *Iov, int Count) {
  struct dftracer_sink *S = (struct dftracer_sink *)Arg;
  while (Count > 0 && S->CompactFd >= 0) {
    ssize_t N = sysWritev(S->CompactFd, Iov, Count);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0) {
      sysClose(S->CompactFd); /* a test-only file: given up silently */
      S->CompactFd = -1;
      return;
    }
    skipWritten(&Iov, &Count, (size_t)N);
  }
}

/* The encoder that takes the threads' span records (event_record.h):
 * DFTRACER_TRACE_FORMAT=compact's, and for both formats with its own
 * file, Path with .pfc for .pfw; the .pfw's, which only formats them as
 * lines (dftracer_compact_start_lines). */
static int startCompact(struct dftracer_sink *S) {
  int Both = dftracer_trace_format_ == DftFormatBoth;
  if (dftracer_trace_format_ == DftFormatPfw) {
    S->Compact = dftracer_compact_start_lines(linesToSink, S);
    S->Binary = 0;
    return S->Compact ? 0 : -1;
  }
  if (Both) {
    char Side[sizeof(S->Path)];
    size_t Len = strlen(S->Path);
    memcpy(Side, S->Path, Len + 1);
    memcpy(Side + Len - 3, "pfc", 3);
    S->CompactFd = sysOpen(Side, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
                           0644);
    if (S->CompactFd >= 0) /* else the .pfw alone, still from the encoder */
      S->CompactFd = moveUp(S->CompactFd);
  }
  S->Compact =
      dftracer_compact_start(Both ? compactToSide : compactToSink, S);
  S->Binary = !Both;
  /* The threads write records (event_record.h): the encoder reads them,
   * and for both formats gives back the .pfw's lines. */
  if (S->Compact &&
      dftracer_compact_take_records(S->Compact, Both ? linesToSink : NULL,
                                    S) != 0) {
    dftracer_compact_finish(S->Compact);
    S->Compact = NULL;
  }
  return S->Compact ? 0 : -1;
}

static int openImpl(struct dftracer_sink *S, const char *Prefix, int Compress,
                    uint64_t Hash) {
  static const char Header[] = "[\n";
  int Attempt;
  int Compact = dftracer_trace_format_ == DftFormatCompact;
  if (dftracer_trace_format_ != DftFormatPfw)
    Compress = 0;
  if (S->Fd >= 0)
    return 0;
  if (S->Failed)
    return -1;
  /* O_EXCL: a name that exists belongs to another process; pick another. */
  for (Attempt = 0; Attempt < 16; ++Attempt) {
    snprintf(S->Path, sizeof(S->Path), "%s-%016llx-app.%s%s", Prefix,
             (unsigned long long)(Hash + (uint64_t)Attempt),
             Compact ? "pfc" : "pfw", Compress ? ".gz" : "");
    S->Fd = sysOpen(S->Path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (S->Fd >= 0 || errno != EEXIST)
      break;
  }
  if (S->Fd < 0) {
    failOnce(S, "cannot create trace file");
    return -1;
  }
  S->Fd = moveUp(S->Fd);
  S->Chunk = FirstChunk;
  dftracer_budget_opened_locked(S->Fd);
  if (Compress && startDeflate(S) != 0) {
    failOnce(S, "cannot start gzip stream for");
    sysClose(S->Fd);
    S->Fd = -1;
    return -1;
  }
  if (startCompact(S) != 0) {
    failOnce(S, "cannot start the compact encoder for");
    sysClose(S->Fd);
    S->Fd = -1;
    return -1;
  }
  if (!S->Binary) {
    struct iovec Iov = {(void *)Header, sizeof(Header) - 1};
    linesToSink(S, &Iov, 1); /* not through the encoder */
  }
  return S->Failed ? -1 : 0;
}

static void writevImpl(struct dftracer_sink *S, struct iovec *Iov, int Count) {
  int I;
  if (S->Fd < 0 || S->Failed)
    return;
  if (S->Compact) {
    /* The encoder writes the .pfw (linesToSink). */
    for (I = 0; I < Count; ++I)
      dftracer_compact_feed(S->Compact, (const char *)Iov[I].iov_base,
                            Iov[I].iov_len);
    __atomic_store_n(&S->Consumed, dftracer_compact_consumed(S->Compact),
                     __ATOMIC_RELAXED);
    return;
  }
  if (!S->Deflate) {
    writePlain(S, Iov, Count);
    return;
  }
  for (I = 0; I < Count && !S->Failed; ++I) {
    deflateAll(S, (const char *)Iov[I].iov_base, Iov[I].iov_len, Z_NO_FLUSH);
    __atomic_store_n(&S->Consumed, S->Consumed + Iov[I].iov_len,
                     __ATOMIC_RELAXED);
  }
}

/* Where the last whole line written ends: N bytes of Iov[0..Count) just
 * went out after S->Written. Lines end in '\n', usually the last byte. */
static void noteLineEnd(struct dftracer_sink *S, const struct iovec *Iov,
                        int Count, size_t N) {
  uint64_t At = S->Written;
  int I;
  for (I = 0; I < Count && N > 0; ++I) {
    size_t Part = Iov[I].iov_len < N ? Iov[I].iov_len : N;
    const char *Nl = (const char *)memrchr(Iov[I].iov_base, '\n', Part);
    if (Nl)
      S->LineEnd = At + (uint64_t)(Nl - (const char *)Iov[I].iov_base) + 1;
    At += Part;
    N -= Part;
  }
}

/* A write failed: the line it cut is taken back (a plain file then ends
 * on a whole line, a .pfc on a whole block, and the space it held is free
 * again for the last lines), and tracing stops. */
static void writeFailed(struct dftracer_sink *S) {
  int Err = errno;
  /* Back to the cut, too: the last lines would land past a hole. */
  if (!S->Deflate && S->LineEnd < S->Written &&
      sysFtruncate(S->Fd, (off_t)S->LineEnd) == 0 &&
      syscall(SYS_lseek, S->Fd, (off_t)S->LineEnd, SEEK_SET) >= 0)
    __atomic_store_n(&S->Written, S->LineEnd, __ATOMIC_RELAXED);
  S->WriteFailed = 1;
  errno = Err;
  failOnce(S, "cannot write trace file");
}

/* The bytes as they go to the file: the trace text, or the gzip stream. */
static void writePlain(struct dftracer_sink *S, struct iovec *Iov, int Count) {
  size_t Total = 0;
  int I;
  for (I = 0; I < Count; ++I)
    Total += Iov[I].iov_len;
  preallocate(S, Total);
  while (Count > 0) {
    /* The buffers that fit in MaxWriteBytes, or the first one cut to it. */
    int Part = 0;
    size_t Bytes = 0, Whole;
    ssize_t N;
    /* Empty buffers first: else the loop below takes them alone when the
     * next one is larger than MaxWriteBytes, and writes 0 bytes. */
    skipWritten(&Iov, &Count, 0);
    if (Count == 0)
      break;
    Whole = Iov->iov_len;
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
    if (N == 0 && Total > 0)
      errno = ENOSPC; /* what a zero-byte write of a regular file means */
    if (N < 0 || (N == 0 && Total > 0)) {
      writeFailed(S);
      return;
    }
    if (!S->Binary)
      noteLineEnd(S, Iov, Count, (size_t)N);
    __atomic_store_n(&S->Written, S->Written + (uint64_t)N, __ATOMIC_RELAXED);
    Total -= (size_t)N;
    skipWritten(&Iov, &Count, (size_t)N);
  }
}

static void closeImpl(struct dftracer_sink *S) {
  if (S->Fd < 0)
    return;
  if (S->Compact) {
    dftracer_compact_finish(S->Compact); /* the last block */
    S->Compact = NULL;
  }
  if (S->Deflate)
    endDeflate(S); /* the gzip trailer, after the encoder's last lines */
  if (S->CompactFd >= 0) {
    sysClose(S->CompactFd);
    S->CompactFd = -1;
  }
  /* Give back the blocks preallocated past the end. */
  if (S->Reserved > S->Written && sysFtruncate(S->Fd, (off_t)S->Written) != 0)
    failOnce(S, "cannot trim trace file");
  if (sysClose(S->Fd) != 0)
    failOnce(S, "cannot close trace file");
  S->Fd = -1;
}

void dftracer_sink_abandon(struct dftracer_sink *S) {
  /* The file is the parent's; finishing the gzip stream would append to
   * it, so only the child's descriptor is closed and the deflate state is
   * left as it is (pages the child never uses again). */
  if (S->Fd >= 0)
    sysClose(S->Fd);
  if (S->CompactFd >= 0)
    sysClose(S->CompactFd);
  __atomic_store_n(&dftracer_trace_fd_, -1, __ATOMIC_RELAXED);
  dftracer_compact_abandon(S->Compact);
  S->Compact = NULL;
  S->CompactFd = -1;
  S->Deflate = NULL;
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

int dftracer_sink_retry_final(struct dftracer_sink *S) {
  if (S->Fd < 0 || !S->WriteFailed || S->Deflate || S->Final)
    return 0;
  S->Final = 1;
  S->Failed = 0;
  /* The block that failed is gone with the strings it defined. */
  if (S->Binary)
    dftracer_compact_text_only(S->Compact);
  else
    dftracer_compact_drop_partial(S->Compact);
  return 1;
}

void dftracer_sink_close(struct dftracer_sink *S) {
  int Busy = dftracer_busy_enter();
  __atomic_store_n(&dftracer_trace_fd_, -1, __ATOMIC_RELAXED);
  closeImpl(S);
  dftracer_busy_leave(Busy);
}
