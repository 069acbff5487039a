#define _GNU_SOURCE
#include "real_symbol.h"

#include "busy.h"
#include "records.h"
#include "text_copy.h"

#include <dftracer/dftracer.h>
#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

/* The object holding the runtime (libdftracer_preload.so, _core.so, or
 * the program when the archive is linked in). */
static struct link_map *ownMap(void) {
  static struct link_map *Own;
  struct link_map *M = __atomic_load_n(&Own, __ATOMIC_ACQUIRE);
  Dl_info Info;
  if (!M && dladdr1((void *)&ownMap, &Info, (void **)&M, RTLD_DL_LINKMAP))
    __atomic_store_n(&Own, M, __ATOMIC_RELEASE);
  return M;
}

static struct link_map *mapOf(const void *Addr) {
  Dl_info Info;
  struct link_map *M = NULL;
  if (!Addr || !dladdr1(Addr, &Info, (void **)&M, RTLD_DL_LINKMAP))
    return NULL;
  return M;
}

/* Fn, unless it is the runtime's own (a wrapper). */
static void *notOwn(void *Fn) {
  return Fn && mapOf(Fn) == ownMap() ? NULL : Fn;
}

/* dlsym in the lookup scope of the loaded object Name (it and its
 * dependencies); NULL if it is not loaded. */
static void *inScopeOf(const char *Name, const char *Symbol) {
  void *H, *Fn;
  if (!Name || !*Name || !(H = dlopen(Name, RTLD_NOLOAD | RTLD_LAZY)))
    return NULL;
  Fn = notOwn(dlsym(H, Symbol));
  dlclose(H); /* the reference NOLOAD took */
  return Fn;
}

/* Does the object define versioned symbols (DT_VERSYM)? */
static int versioned(const struct link_map *M) {
  const ElfW(Dyn) *D;
  for (D = M ? M->l_ld : NULL; D && D->d_tag != DT_NULL; ++D)
    if (D->d_tag == DT_VERSYM)
      return 1;
  return 0;
}

/* --- Every loaded object, in load order ---------------------------------- */

enum { NamesBytes = 256 * 1024 };
struct names {
  char *Buf;
  size_t Len;
  const char *Skip;
  unsigned long long Adds;
};

static int collect(struct dl_phdr_info *Info, size_t Size, void *Data) {
  struct names *N = Data;
  size_t Len;
  (void)Size;
  N->Adds = Info->dlpi_adds;
  if (!N->Buf)
    return 1; /* only the count was wanted */
  if (!Info->dlpi_name || !*Info->dlpi_name ||
      (N->Skip && strcmp(Info->dlpi_name, N->Skip) == 0))
    return 0;
  Len = strlen(Info->dlpi_name) + 1;
  if (N->Len + Len > NamesBytes)
    return 1;
  memcpy(N->Buf + N->Len, Info->dlpi_name, Len);
  N->Len += Len;
  return 0;
}

/* Names found nowhere, and how many objects had been loaded then: asked
 * again only once more are loaded (optional helpers are asked per file). */
enum { MissSlots = 64 };
static struct {
  const char *Name;
  unsigned long long Adds;
} Misses[MissSlots];
static pthread_mutex_t Lock = PTHREAD_MUTEX_INITIALIZER;

static unsigned long long loadCount(void) {
  struct names N = {NULL, 0, NULL, 0};
  dl_iterate_phdr(collect, &N);
  return N.Adds;
}

void *dftracer_real_find_loaded(const char *Name) {
  struct names N = {NULL, 0, NULL, 0};
  struct link_map *Own = ownMap();
  void *Fn = NULL;
  int Busy = dftracer_busy_enter();
  unsigned long long Adds = loadCount();
  size_t At;
  int I, Known = 0;
  pthread_mutex_lock(&Lock);
  for (I = 0; I < MissSlots && Misses[I].Name; ++I)
    if (Misses[I].Name == Name && Misses[I].Adds == Adds)
      Known = 1;
  pthread_mutex_unlock(&Lock);
  if (Known)
    goto Done;
  /* Names are copied out (no allocation: an anonymous mapping), so the
   * loader's lock is not held while dlopen runs. */
  N.Buf = (char *)syscall(SYS_mmap, NULL, (size_t)NamesBytes,
                          PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                          -1, 0);
  if (N.Buf == MAP_FAILED)
    goto Done;
  N.Skip = Own ? Own->l_name : NULL;
  dl_iterate_phdr(collect, &N);
  for (At = 0; At < N.Len && !Fn; At += strlen(N.Buf + At) + 1)
    Fn = inScopeOf(N.Buf + At, Name);
  syscall(SYS_munmap, N.Buf, (size_t)NamesBytes);
  if (!Fn) {
    pthread_mutex_lock(&Lock);
    for (I = 0; I < MissSlots; ++I)
      if (!Misses[I].Name || Misses[I].Name == Name) {
        Misses[I].Name = Name;
        Misses[I].Adds = Adds;
        break;
      }
    pthread_mutex_unlock(&Lock);
  }
Done:
  dftracer_busy_leave(Busy);
  return Fn;
}

/* --- Per call site ------------------------------------------------------- */

static void *resolve(const char *Name, const void *Caller,
                     const char **CallerName) {
  struct link_map *Own = ownMap();
  struct link_map *By = mapOf(Caller);
  void *G = notOwn(dlsym(RTLD_NEXT, Name));
  void *C = NULL;
  *CallerName = By && By->l_name && *By->l_name ? By->l_name : "the program";
  if (By && By != Own)
    C = inScopeOf(By->l_name, Name);
  if (G && C && G != C)
    return versioned(mapOf(G)) ? C : G;
  if (G || C)
    return G ? G : C;
  return dftracer_real_find_loaded(Name);
}

enum { SiteSlots = 1024, SiteProbes = 16, SaidSlots = 64 };
/* An entry is published by its Site (stored last). Fn NULL: nothing was
 * found while Adds objects had been loaded; asked again once more are (a
 * program that calls through a pointer dlsym gave it, then loads HDF5). */
static struct {
  const void *Site;
  void **Slot;
  void *Fn;
  unsigned long long Adds;
} Sites[SiteSlots];
static void **Said[SaidSlots];

static unsigned siteIndex(const void *Site, void **Slot) {
  uintptr_t H = (uintptr_t)Site * 0x9E3779B97F4A7C15ull ^ (uintptr_t)Slot;
  return (unsigned)(H >> 20) % SiteSlots;
}

static void remember(const void *Site, void **Slot, void *Fn,
                     unsigned long long Adds) {
  unsigned I = siteIndex(Site, Slot), K;
  pthread_mutex_lock(&Lock);
  for (K = 0; K < SiteProbes; ++K, I = (I + 1) % SiteSlots) {
    const void *S = __atomic_load_n(&Sites[I].Site, __ATOMIC_ACQUIRE);
    if (S == Site && Sites[I].Slot == Slot) { /* asked again, or a race */
      __atomic_store_n(&Sites[I].Adds, Adds, __ATOMIC_RELAXED);
      if (Fn)
        __atomic_store_n(&Sites[I].Fn, Fn, __ATOMIC_RELEASE);
      break;
    }
    if (!S) {
      Sites[I].Slot = Slot;
      Sites[I].Fn = Fn;
      Sites[I].Adds = Adds;
      __atomic_store_n(&Sites[I].Site, Site, __ATOMIC_RELEASE);
      break;
    }
  }
  pthread_mutex_unlock(&Lock); /* full: resolved again at each call */
}

static int known(const void *Site, void **Slot, void **Fn) {
  unsigned I = siteIndex(Site, Slot), K;
  for (K = 0; K < SiteProbes; ++K, I = (I + 1) % SiteSlots) {
    const void *S = __atomic_load_n(&Sites[I].Site, __ATOMIC_ACQUIRE);
    if (!S)
      return 0;
    if (S == Site && Sites[I].Slot == Slot) {
      *Fn = __atomic_load_n(&Sites[I].Fn, __ATOMIC_ACQUIRE);
      return *Fn || __atomic_load_n(&Sites[I].Adds, __ATOMIC_RELAXED) ==
                        loadCount();
    }
  }
  return 0;
}

/* Once per symbol: stderr, and a record when tracing is on. */
static void sayMissing(void **Slot, const char *Name, const char *Layer,
                       const char *CallerName) {
  char Caller[1024];
  int I, First = 0;
  pthread_mutex_lock(&Lock);
  for (I = 0; I < SaidSlots; ++I) {
    if (Said[I] == Slot)
      break;
    if (!Said[I]) {
      Said[I] = Slot;
      First = 1;
      break;
    }
  }
  pthread_mutex_unlock(&Lock);
  if (!First)
    return;
  dftracer_text_copy(Caller, sizeof(Caller), CallerName);
  {
    const char *Parts[] = {"dftracer: ", Name, " (", Layer,
                           ") is called from ", Caller,
                           " but no loaded library defines it; the call "
                           "returns the layer's failure\n"};
    struct iovec Iov[7];
    for (I = 0; I < 7; ++I) {
      Iov[I].iov_base = (void *)Parts[I];
      Iov[I].iov_len = strlen(Parts[I]);
    }
    (void)syscall(SYS_writev, STDERR_FILENO, Iov, 7);
  }
  if (__atomic_load_n(&dftracer_active, __ATOMIC_RELAXED)) {
    char Line[DftRecordFixedBytes + 6 * (1024 + 128)];
    char *Out = dftracer_record_head(Line, "symbol_unresolved");
    Out = dftracer_record_str(Out, "layer", Layer, 1);
    Out = dftracer_record_str(Out, "symbol", Name, 0);
    Out = dftracer_record_str(Out, "caller", Caller, 0);
    Out = dftracer_record_tail(Out);
    dftracer_record_emit(Line, (size_t)(Out - Line));
  }
}

void *dftracer_real_for_caller(void **Slot, const char *Name,
                               const void *Caller, const char *Layer) {
  void *Fn;
  const char *CallerName;
  unsigned long long Adds;
  int Busy;
  if (known(Caller, Slot, &Fn))
    return Fn;
  Busy = dftracer_busy_enter();
  Adds = loadCount();
  Fn = resolve(Name, Caller, &CallerName);
  remember(Caller, Slot, Fn, Adds);
  if (!Fn)
    sayMissing(Slot, Name, Layer, CallerName);
  dftracer_busy_leave(Busy);
  return Fn;
}
