#define _GNU_SOURCE
#include "layer_check.h"

#include "config.h"
#include "internal.h"
#include "json_writer.h"
#include "records.h"
#include "sink.h"
#include "text_copy.h"

#include <dlfcn.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

struct probe {
  unsigned Layer;
  const char *Name;   /* the layer, as events' `cat` names it */
  const char *Symbol; /* what the program calls */
};
/* A layer found untraced later (dftracer_layer_not_traced). */
struct lateProbe {
  struct probe Probe;
  char Symbol[128];
};

static const struct probe Probes[] = {
    {DftLayerPosix, "POSIX", "read"},
    {DftLayerStdio, "STDIO", "fopen"},
#ifdef DFTRACER_HAVE_MPIIO
    {DftLayerMpiio, "MPIIO", "MPI_File_open"},
#endif
    {DftLayerHdf5, "HDF5", "H5Dwrite"},
};
enum { ProbeCount = sizeof(Probes) / sizeof(Probes[0]) };

enum { LibraryMax = 1024, FixMax = 1400 };
static struct {
  const struct probe *Probe;
  char Library[LibraryMax];
  char Fix[FixMax];
} Bypassed[ProbeCount];
static int BypassedCount; /* grows under the process lock after load */
static struct lateProbe Late[ProbeCount];

/* The line of all records: formatted under the process lock. */
static char Line[ProbeCount *
                 (DftRecordFixedBytes + 6 * (LibraryMax + FixMax) + 128)];

/* "hdf5_mpich" for ".../libhdf5_mpich.so.103"; "" when it is no library. */
static void linkName(const char *Path, char *Out, size_t Cap) {
  const char *Base = strrchr(Path, '/');
  const char *End;
  Base = Base ? Base + 1 : Path;
  Out[0] = '\0';
  if (strncmp(Base, "lib", 3) != 0 || !(End = strstr(Base, ".so")))
    return;
  Base += 3;
  if ((size_t)(End - Base) >= Cap || End == Base)
    return;
  memcpy(Out, Base, (size_t)(End - Base));
  Out[End - Base] = '\0';
}

static void say(const char *const *Parts, int Count) {
  struct iovec Iov[16];
  int I;
  for (I = 0; I < Count && I < 16; ++I) {
    Iov[I].iov_base = (void *)Parts[I];
    Iov[I].iov_len = strlen(Parts[I]);
  }
  (void)syscall(SYS_writev, STDERR_FILENO, Iov, I);
}

int dftracer_layer_check(unsigned IoLayers) {
  Dl_info Own, Won;
  int I;
  BypassedCount = 0;
  /* The object this function is in: libdftracer_core.so, or the program
   * itself when the static archive is linked in. */
  if (!dladdr((void *)&dftracer_layer_check, &Own) || !Own.dli_fbase)
    return 0;
  for (I = 0; I < ProbeCount; ++I) {
    const struct probe *P = &Probes[I];
    void *Fn;
    char Lib[256], Exe[LibraryMax];
    const char *Library;
    if (!(IoLayers & P->Layer))
      continue;
    Fn = dlsym(RTLD_DEFAULT, P->Symbol);
    if (!Fn || !dladdr(Fn, &Won) || Won.dli_fbase == Own.dli_fbase)
      continue;
    Library = Won.dli_fname;
    if (!Library || !*Library) { /* the main program */
      ssize_t N = readlink("/proc/self/exe", Exe, sizeof(Exe) - 1);
      Exe[N > 0 ? N : 0] = '\0';
      Library = N > 0 ? Exe : "the program";
    }
    Bypassed[BypassedCount].Probe = P;
    dftracer_text_copy(Bypassed[BypassedCount].Library, LibraryMax, Library);
    linkName(Library, Lib, sizeof(Lib));
    {
      char *Fix = Bypassed[BypassedCount].Fix;
      size_t Len = dftracer_text_copy(Fix, FixMax, "link -ldftracer_core before ");
      if (Lib[0]) {
        Len += dftracer_text_copy(Fix + Len, FixMax - Len, "-l");
        Len += dftracer_text_copy(Fix + Len, FixMax - Len, Lib);
      } else {
        Len += dftracer_text_copy(Fix + Len, FixMax - Len, "the library that defines ");
        Len += dftracer_text_copy(Fix + Len, FixMax - Len, P->Symbol);
      }
      dftracer_text_copy(Fix + Len, FixMax - Len,
           ", or LD_PRELOAD=libdftracer_preload.so");
    }
    {
      const char *Parts[] = {"dftracer: the ", P->Name,
                             " layer is not traced: the program's ",
                             P->Symbol, " resolves to ",
                             Bypassed[BypassedCount].Library,
                             ", not to the tracer; fix: ",
                             Bypassed[BypassedCount].Fix, "\n"};
      say(Parts, (int)(sizeof(Parts) / sizeof(Parts[0])));
    }
    ++BypassedCount;
  }
  return BypassedCount;
}

void dftracer_layer_not_traced(unsigned Layer, const char *Symbol,
                               const char *Library, const char *Why,
                               const char *Fix) {
  struct dftracer_process *P = &dftracer_process_;
  char Record[DftRecordFixedBytes + 6 * (LibraryMax + FixMax + 128)];
  char *Out = Record;
  const char *Name = NULL;
  int I, Open = 0, Added = 0;
  for (I = 0; I < ProbeCount; ++I)
    if (Probes[I].Layer == Layer)
      Name = Probes[I].Name;
  if (!Name)
    return;
  pthread_mutex_lock(&P->Lock);
  for (I = 0; I < BypassedCount; ++I)
    if (Bypassed[I].Probe->Layer == Layer)
      break;
  if (I == BypassedCount && BypassedCount < ProbeCount) {
    struct lateProbe *L = &Late[BypassedCount];
    L->Probe.Layer = Layer;
    L->Probe.Name = Name;
    dftracer_text_copy(L->Symbol, sizeof(L->Symbol), Symbol);
    L->Probe.Symbol = L->Symbol;
    Bypassed[BypassedCount].Probe = &L->Probe;
    dftracer_text_copy(Bypassed[BypassedCount].Library, LibraryMax, Library);
    dftracer_text_copy(Bypassed[BypassedCount].Fix, FixMax, Fix);
    Out = dftracer_record_head(Out, "layer_bypassed");
    Out = dftracer_record_str(Out, "layer", Name, 1);
    Out = dftracer_record_str(Out, "symbol", L->Symbol, 0);
    Out = dftracer_record_str(Out, "library", Bypassed[BypassedCount].Library,
                              0);
    Out = dftracer_record_str(Out, "fix", Bypassed[BypassedCount].Fix, 0);
    Out = dftracer_record_tail(Out);
    ++BypassedCount;
    Added = 1;
    /* An open file has its top written: the record follows this thread's
     * events instead. A file opened later starts with it. */
    Open = dftracer_sink_is_open(&P->Sink);
  }
  pthread_mutex_unlock(&P->Lock);
  if (!Added)
    return;
  {
    const char *Parts[] = {"dftracer: the ", Name, " layer is not traced: ",
                           Why, "; fix: ", Fix, "\n"};
    say(Parts, (int)(sizeof(Parts) / sizeof(Parts[0])));
  }
  if (Open)
    dftracer_record_emit(Record, (size_t)(Out - Record));
}

void dftracer_layer_report_locked(void) {
  char *Out = Line;
  int I;
  for (I = 0; I < BypassedCount; ++I) {
    Out = dftracer_record_head(Out, "layer_bypassed");
    Out = dftracer_record_str(Out, "layer", Bypassed[I].Probe->Name, 1);
    Out = dftracer_record_str(Out, "symbol", Bypassed[I].Probe->Symbol, 0);
    Out = dftracer_record_str(Out, "library", Bypassed[I].Library, 0);
    Out = dftracer_record_str(Out, "fix", Bypassed[I].Fix, 0);
    Out = dftracer_record_tail(Out);
  }
  if (Out > Line)
    dftracer_sink_write(&dftracer_process_.Sink, Line, (size_t)(Out - Line));
}
