#define _GNU_SOURCE
#include "run_config.h"

#include "clock.h"
#include "coverage.h"
#include "internal.h"
#include "json_writer.h"
#include "records.h"
#include "sink.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#if defined(__GLIBC__)
#include <gnu/libc-version.h>
#endif

extern char **environ;

/* The bounds of CONFIG (docs/trace-format.md): argv's arguments and raw
 * bytes, the environment's variables and raw bytes; a path longer than
 * PathMax is cut. */
enum {
  ArgvMax = 64,
  ArgvBytesMax = 4096,
  EnvMax = 128,
  EnvBytesMax = 8192,
  PathMax = 4096,
  ExtraMax = 32,    /* DFTRACER_CONFIG_ENV's names */
  VersionMax = 256, /* a VERSION's text */
  /* The args' JSON text, escaped (at most 6 bytes a byte) with its keys. */
  BodyMax = 6 * (ArgvBytesMax + EnvBytesMax + 2 * PathMax + VersionMax) +
            16 * (ArgvMax + EnvMax) + 6 * PathMax + 512,
};

/* The environment variables CONFIG holds: names ending in '*' are
 * prefixes (docs/trace-format.md, "Run configuration"). */
static const char *const EnvNames[] = {
    "DFTRACER_*",   "ROMIO_*", "MPICH_*", "MPIIO_*",         "OMPI_MCA_io*",
    "OMPI_MCA_fs*", "HDF5_*",  "H5FD_*",  "OMP_NUM_THREADS", "LD_PRELOAD"};

/* CONFIG's line: the head is formatted in front of Body at each write
 * (id, pid and tid are the writer's), Body and the tail once at load. */
static char Line[DftRecordFixedBytes + BodyMax];
static size_t BodyLen; /* 0: no CONFIG (setup not run) */

/* The libraries whose VERSION records are written. */
enum { LibHdf5, LibMpi, NumLibs };
static const char *const LibNames[NumLibs] = {"HDF5", "MPI"};
struct version {
  char Text[VersionMax];
  int Known;   /* Text is set; atomic: set by the thread MPI told */
  int Written; /* in the current trace file (process lock) */
};
static struct version Versions[NumLibs];

/* Reads the whole file at Path (raw system calls: the runtime's own reads
 * never reach its wrappers) into Buf, at most Cap bytes; the bytes read, or
 * -1. *More is set when the file holds more. */
static ssize_t readFile(const char *Path, char *Buf, size_t Cap, int *More) {
  int Fd = (int)syscall(SYS_openat, AT_FDCWD, Path, O_RDONLY | O_CLOEXEC);
  size_t Got = 0;
  char Extra;
  *More = 0;
  if (Fd < 0)
    return -1;
  while (Got < Cap) {
    ssize_t N = syscall(SYS_read, Fd, Buf + Got, Cap - Got);
    if (N <= 0)
      break;
    Got += (size_t)N;
  }
  if (Got == Cap && syscall(SYS_read, Fd, &Extra, 1) == 1)
    *More = 1;
  syscall(SYS_close, Fd);
  return (ssize_t)Got;
}

/* The arguments past those read: NULs in the rest of /proc/self/cmdline. */
static unsigned countRest(size_t Skip) {
  char Buf[4096];
  unsigned Nuls = 0;
  size_t Seen = 0;
  int Fd = (int)syscall(SYS_openat, AT_FDCWD, "/proc/self/cmdline",
                        O_RDONLY | O_CLOEXEC);
  ssize_t N;
  if (Fd < 0)
    return 0;
  while ((N = syscall(SYS_read, Fd, Buf, sizeof(Buf))) > 0) {
    for (ssize_t I = 0; I < N; ++I, ++Seen)
      if (Seen >= Skip && Buf[I] == '\0')
        ++Nuls;
    if (Seen > (size_t)64 << 20)
      break; /* not a real command line */
  }
  syscall(SYS_close, Fd);
  return Nuls;
}

/* `"argv":[...],"argv_dropped":N`: whole arguments, in order, while they
 * fit the bounds. */
static char *putArgv(char *Out) {
  static char Raw[ArgvBytesMax + 1];
  int More;
  ssize_t Len = readFile("/proc/self/cmdline", Raw, ArgvBytesMax, &More);
  size_t Pos = 0, Kept = 0;
  unsigned Count = 0, Dropped = 0;
  Out = DFTRACER_PUT_LIT(Out, ",\"argv\":[");
  if (Len > 0) {
    while (Pos < (size_t)Len) {
      size_t End = Pos;
      while (End < (size_t)Len && Raw[End] != '\0')
        ++End;
      if (End == (size_t)Len || Count == ArgvMax)
        break; /* cut by the byte bound, or past the count */
      if (Count)
        *Out++ = ',';
      Out = dftracer_put_string(Out, Raw + Pos, End - Pos);
      ++Count;
      Pos = End + 1;
    }
    Kept = Pos;
    /* The NULs past Kept in what was read, then in the rest of the file. */
    for (size_t I = Kept; I < (size_t)Len; ++I)
      Dropped += Raw[I] == '\0';
    if (More)
      Dropped += countRest((size_t)Len);
    else if (Kept < (size_t)Len && Raw[Len - 1] != '\0')
      ++Dropped; /* a last argument without its NUL */
  }
  Out = DFTRACER_PUT_LIT(Out, "],\"argv_dropped\":");
  return dftracer_put_u64(Out, Dropped);
}

/* DFTRACER_CONFIG_ENV's names, comma-separated ("MY_VAR,MY_PREFIX_*"),
 * copied at load. */
static char ExtraText[1024];
static const char *Extra[ExtraMax];
static int NumExtra;

static void readExtraNames(void) {
  const char *List = getenv("DFTRACER_CONFIG_ENV");
  char *P;
  if (!List)
    return;
  strncpy(ExtraText, List, sizeof(ExtraText) - 1);
  for (P = ExtraText; *P && NumExtra < ExtraMax;) {
    char *Comma = strchr(P, ',');
    if (Comma)
      *Comma = '\0';
    if (*P)
      Extra[NumExtra++] = P;
    if (!Comma)
      break;
    P = Comma + 1;
  }
}

/* Does the variable NAME=... (Entry) match Pattern ("NAME", "PREFIX*")? */
static int matches(const char *Entry, const char *Pattern) {
  size_t N = strlen(Pattern);
  if (N && Pattern[N - 1] == '*')
    return strncmp(Entry, Pattern, N - 1) == 0;
  return strncmp(Entry, Pattern, N) == 0 && Entry[N] == '=';
}

static int wanted(const char *Entry) {
  size_t I;
  for (I = 0; I < sizeof(EnvNames) / sizeof(EnvNames[0]); ++I)
    if (matches(Entry, EnvNames[I]))
      return 1;
  for (I = 0; I < (size_t)NumExtra; ++I)
    if (matches(Entry, Extra[I]))
      return 1;
  return 0;
}

/* By name, so that two runs' records compare line for line. */
static int beforeByName(const char *A, const char *B) {
  for (; *A && *A != '=' && *A == *B; ++A, ++B)
    ;
  return (unsigned char)(*A == '=' ? 0 : *A) <
         (unsigned char)(*B == '=' ? 0 : *B);
}

/* `"env":{...},"env_dropped":N`: the wanted variables by name, while they
 * fit the bounds. */
static char *putEnv(char *Out) {
  static const char *List[EnvMax];
  size_t Count = 0, Bytes = 0, I, J;
  unsigned Dropped = 0;
  char **E;
  readExtraNames();
  for (E = environ; E && *E; ++E) {
    size_t Len = strlen(*E);
    if (!strchr(*E, '=') || !wanted(*E))
      continue;
    if (Count == EnvMax || Bytes + Len > EnvBytesMax) {
      ++Dropped;
      continue;
    }
    Bytes += Len;
    /* Insertion by name: a few dozen entries, once. */
    for (J = Count++; J > 0 && beforeByName(*E, List[J - 1]); --J)
      List[J] = List[J - 1];
    List[J] = *E;
  }
  Out = DFTRACER_PUT_LIT(Out, ",\"env\":{");
  for (I = 0; I < Count; ++I) {
    const char *Eq = strchr(List[I], '=');
    if (I)
      *Out++ = ',';
    Out = dftracer_put_string(Out, List[I], (size_t)(Eq - List[I]));
    *Out++ = ':';
    Out = dftracer_put_string(Out, Eq + 1, strlen(Eq + 1));
  }
  Out = DFTRACER_PUT_LIT(Out, "},\"env_dropped\":");
  return dftracer_put_u64(Out, Dropped);
}

static char *putPathKey(char *Out, const char *Key, const char *Path,
                        size_t Len, int First) {
  if (!First)
    *Out++ = ',';
  Out = dftracer_put_string(Out, Key, strlen(Key));
  *Out++ = ':';
  return dftracer_put_string(Out, Path, Len);
}

/* The start time of process Pid (/proc/PID/stat's 22nd field, in clock
 * ticks since boot): with the pid, it names the process even after the pid
 * is reused. 0 when unknown. */
static unsigned long long startTicks(long Pid) {
  char Path[64], Stat[1024];
  int More;
  ssize_t N;
  const char *P;
  int Field = 2;
  snprintf(Path, sizeof(Path), "/proc/%ld/stat", Pid);
  N = readFile(Path, Stat, sizeof(Stat) - 1, &More);
  if (N <= 0)
    return 0;
  Stat[N] = '\0';
  P = strrchr(Stat, ')'); /* past the command's name, which may hold blanks */
  if (!P)
    return 0;
  for (++P; *P && Field < 22; ++P)
    if (*P == ' ')
      ++Field;
  return strtoull(P, NULL, 10);
}

/* `"launch":"..."`: what the processes of one launch share and another
 * launch of the same command does not (docs/trace-format.md), so that the
 * analysis tells two runs of one program apart (its jobs, issue 36):
 * PMIx's namespace (Open MPI, Slurm with PMIx), else the Slurm job step,
 * else, under a PMI launcher (MPICH's Hydra, whose ranks on a node are
 * children of one proxy), the parent process, else this process. Learnt
 * at load: a forked child keeps its parent's launch. */
static char *putLaunch(char *Out) {
  char Launch[PathMax];
  char Host[256];
  const char *Ns = getenv("PMIX_NAMESPACE");
  const char *Job = getenv("SLURM_JOB_ID");
  const char *Step = getenv("SLURM_STEP_ID");
  if (gethostname(Host, sizeof(Host) - 1) != 0)
    Host[0] = '\0';
  Host[sizeof(Host) - 1] = '\0';
  if (Ns && *Ns)
    snprintf(Launch, sizeof(Launch), "pmix:%s", Ns);
  else if (Job && *Job && Step && *Step)
    snprintf(Launch, sizeof(Launch), "slurm:%s.%s", Job, Step);
  else if (getenv("PMI_RANK") || getenv("PMI_FD") || getenv("PMI_PORT")) {
    long Parent = (long)getppid();
    snprintf(Launch, sizeof(Launch), "ppid:%s:%ld:%llu", Host, Parent,
             startTicks(Parent));
  } else {
    long Self = (long)getpid();
    snprintf(Launch, sizeof(Launch), "pid:%s:%ld:%llu", Host, Self,
             startTicks(Self));
  }
  return putPathKey(Out, "launch", Launch, strlen(Launch), 0);
}

/* HDF5's version from its exported H5_lib_vers_info_g ("HDF5 library
 * version: 1.10.8"), which is only read; else from H5get_libversion, which
 * enters HDF5's API (it may initialise the library, and is not safe beside
 * another thread's HDF5 call in a build without thread safety), so it is
 * only called where asked (the finish paths). */
static void lookUpHdf5(int MayCall) {
  struct version *V = &Versions[LibHdf5];
  const char *Info;
  if (V->Known)
    return;
  Info = (const char *)dlsym(RTLD_DEFAULT, "H5_lib_vers_info_g");
  if (Info) {
    const char *Colon = strstr(Info, "version:");
    const char *P = Colon ? Colon + 8 : Info;
    size_t N = 0;
    while (*P == ' ')
      ++P;
    while (P[N] && P[N] != '\n' && N < VersionMax - 1)
      ++N;
    memcpy(V->Text, P, N);
    V->Text[N] = '\0';
  } else if (MayCall) {
    typedef int (*VersionFn)(unsigned *, unsigned *, unsigned *);
    VersionFn Fn;
    unsigned Major, Minor, Release;
    *(void **)&Fn = dlsym(RTLD_DEFAULT, "H5get_libversion");
    if (!Fn || Fn(&Major, &Minor, &Release) < 0)
      return;
    snprintf(V->Text, sizeof(V->Text), "%u.%u.%u", Major, Minor, Release);
  } else {
    return;
  }
  if (V->Text[0])
    __atomic_store_n(&V->Known, 1, __ATOMIC_RELEASE);
}

void dftracer_run_config_setup(void) {
  char *Out = Line + DftRecordFixedBytes;
  static char Path[PathMax];
  ssize_t N;
  const char *Glibc = "";
  N = syscall(SYS_readlinkat, AT_FDCWD, "/proc/self/exe", Path,
              sizeof(Path) - 1);
  Out = putPathKey(Out, "exe", Path, N > 0 ? (size_t)N : 0, 1);
  Out = putArgv(Out);
  N = syscall(SYS_getcwd, Path, sizeof(Path));
  Out =
      putPathKey(Out, "cwd", Path, N > 0 ? strnlen(Path, sizeof(Path)) : 0, 0);
  Out = putEnv(Out);
#if defined(__GLIBC__)
  Glibc = gnu_get_libc_version();
#endif
  Out = putPathKey(Out, "glibc", Glibc, strlen(Glibc), 0);
  Out = putLaunch(Out);
  Out = dftracer_record_tail(Out);
  BodyLen = (size_t)(Out - (Line + DftRecordFixedBytes));
  lookUpHdf5(0);
}

static void writeVersionLocked(int Lib) {
  char Rec[DftRecordFixedBytes + 6 * VersionMax + 64], *Out = Rec;
  Out = dftracer_record_head(Out, "VERSION");
  Out = dftracer_record_str(Out, "library", LibNames[Lib], 1);
  Out = dftracer_record_str(Out, "version", Versions[Lib].Text, 0);
  Out = dftracer_record_tail(Out);
  dftracer_sink_write(&dftracer_process_.Sink, Rec, (size_t)(Out - Rec));
  Versions[Lib].Written = 1;
}

void dftracer_run_config_report_locked(void) {
  char Head[DftRecordFixedBytes];
  size_t HeadLen;
  int Lib;
  if (BodyLen) {
    /* The head goes right in front of the body. */
    HeadLen = (size_t)(dftracer_record_head(Head, "CONFIG") - Head);
    memcpy(Line + DftRecordFixedBytes - HeadLen, Head, HeadLen);
    dftracer_sink_write(&dftracer_process_.Sink,
                        Line + DftRecordFixedBytes - HeadLen,
                        HeadLen + BodyLen);
  }
  dftracer_coverage_report_locked(); /* coverage (coverage.h) */
  for (Lib = 0; Lib < NumLibs; ++Lib) {
    Versions[Lib].Written = 0; /* a new file */
    if (__atomic_load_n(&Versions[Lib].Known, __ATOMIC_ACQUIRE))
      writeVersionLocked(Lib);
  }
}

void dftracer_run_config_end_locked(int MayLookUp) {
  int Lib;
  if (!dftracer_sink_is_open(&dftracer_process_.Sink))
    return;
  if (MayLookUp)
    lookUpHdf5(1);
  for (Lib = 0; Lib < NumLibs; ++Lib)
    if (!Versions[Lib].Written &&
        __atomic_load_n(&Versions[Lib].Known, __ATOMIC_ACQUIRE))
      writeVersionLocked(Lib);
}

void dftracer_run_config_trace_end_locked(void) {
  char Rec[DftRecordFixedBytes + 32], *Out = Rec;
  if (!dftracer_sink_is_open(&dftracer_process_.Sink))
    return;
  Out = dftracer_record_head(Out, "trace_end");
  Out = dftracer_record_u64(Out, "ts",
                            (unsigned long long)dftracer_monotonic_us(), 1);
  Out = dftracer_record_tail(Out);
  dftracer_sink_write(&dftracer_process_.Sink, Rec, (size_t)(Out - Rec));
}

void dftracer_run_config_mpi_job(int Rank, int Size, const char *Version) {
  char Rec[DftRecordFixedBytes + 64], *Out = Rec;
  struct version *V = &Versions[LibMpi];
  if (Version && *Version && !__atomic_load_n(&V->Known, __ATOMIC_ACQUIRE)) {
    /* The first line, its blanks folded ("MPICH Version:\t4.0.2"). */
    size_t N = 0;
    for (; *Version && *Version != '\n' && N < VersionMax - 1; ++Version) {
      int Blank = *Version == ' ' || *Version == '\t' || *Version == '\r';
      if (!Blank)
        V->Text[N++] = *Version;
      else if (N && V->Text[N - 1] != ' ')
        V->Text[N++] = ' ';
    }
    while (N && V->Text[N - 1] == ' ')
      --N;
    V->Text[N] = '\0';
    __atomic_store_n(&V->Known, 1, __ATOMIC_RELEASE);
  }
  Out = dftracer_record_head(Out, "MPI_JOB");
  Out = dftracer_record_u64(Out, "rank", (unsigned long long)Rank, 1);
  Out = dftracer_record_u64(Out, "size", (unsigned long long)Size, 0);
  Out = dftracer_record_tail(Out);
  dftracer_record_emit(Rec, (size_t)(Out - Rec));
}
