#include "throttle.h"

#include "clock.h"
#include "event_format.h"
#include "internal.h"
#include "json_writer.h"
#include "pages.h"
#include "thread_state.h"
#include "writer.h"

#include <string.h>

unsigned char dftracer_throttled_[DftMaxFuncs];
int dftracer_throttle_sampled_;

uint64_t dftracer_throttle_calls_; /* 0: never throttle */
uint64_t dftracer_throttle_us_;
uint64_t dftracer_throttle_max_spans_; /* the cap; ~0: none */
static uint64_t SampleEvery; /* sampled time: mean gap between timed calls */
/* Sampled time: a timed call longer than this is an outlier (dftracer_throttle_sampled_us):
 * 10 x the mean under which names are throttled (100 µs by default). */
static uint64_t OutlierNs;

/* An interned name. Text points into NameText (copies: a library that
 * called START may be unloaded before the end). Guarded by the lock. */
struct fnEntry {
  const char *Name;
  const char *Cat;
  size_t NameLen;
  size_t CatLen;
  uint64_t Hash;
  struct dftracer_left Total[DftReasons]; /* of threads that exited */
  struct dftracer_sampled Sampled;        /* of the throttle's calls */
};
static struct fnEntry *Funcs; /* Funcs[1..FuncCount] */
static uint32_t FuncCount;

/* Text hash -> index (open addressing, 0 empty), under the lock. */
enum { TextSlots = 2 * DftMaxFuncs };
static uint32_t *ByText;

/* (Name, Cat) pointers -> index: read without the lock (Func published
 * last, with release; 0 empty), written under it. Several pointers may
 * name one index. Past 3/4 full a new pointer pair is looked up by text
 * under the lock at each first sight on a thread, which is slower only. */
enum { PtrSlots = 4 * DftMaxFuncs };
struct ptrEntry {
  const char *Name;
  const char *Cat;
  uint32_t Func;
};
static struct ptrEntry *ByPtr;
static uint32_t PtrCount;

static struct dftracer_text_store NameText;

void dftracer_throttle_setup(const struct dftracer_config *Config) {
  dftracer_throttle_calls_ = Config->ThrottleCalls;
  dftracer_throttle_us_ = Config->ThrottleUs;
  dftracer_throttle_max_spans_ =
      Config->ThrottleMaxSpans ? Config->ThrottleMaxSpans : ~0ull;
  SampleEvery = Config->ThrottleSample;
  OutlierNs = dftracer_throttle_us_ < ~0ull / 10000u
                  ? dftracer_throttle_us_ * 10000u
                  : ~0ull;
  dftracer_throttle_sampled_ = Config->ThrottleTime == DftThrottleTimeSampled;
  Funcs = (struct fnEntry *)dftracer_pages_alloc(sizeof(struct fnEntry) *
                                                 DftMaxFuncs);
  ByText = (uint32_t *)dftracer_pages_alloc(sizeof(uint32_t) * TextSlots);
  ByPtr = (struct ptrEntry *)dftracer_pages_alloc(sizeof(struct ptrEntry) *
                                                  PtrSlots);
  if (!Funcs || !ByText || !ByPtr)
    Funcs = NULL; /* no memory: nothing is tracked (index 0) */
}

struct dftracer_fn_stats *dftracer_fn_stats_new(void) {
  struct dftracer_fn_stats *S = (struct dftracer_fn_stats *)
      dftracer_pages_alloc(sizeof(struct dftracer_fn_stats));
  /* Each thread its own sequence of gaps (xorshift needs a state not 0). */
  if (S)
    S->Rng = ((uint64_t)(uintptr_t)S * 0x9e3779b97f4a7c15ull) | 1;
  return S;
}

void dftracer_fn_left_timed(struct dftracer_fn_stats *St, uint32_t F,
                            uint64_t Ticks) {
  struct dftracer_left *C = &St->Stat[F].Left[DftReasonThrottle];
  struct dftracer_sampled *L = &St->Stat[F].Sampled;
  uint64_t Ns = dftracer_clock_ticks_ns(Ticks);
  /* Relaxed stores, read by FINI at any moment (dftracer_fn_left). */
  __atomic_store_n(&C->Calls, __atomic_load_n(&C->Calls, __ATOMIC_RELAXED) + 1,
                   __ATOMIC_RELAXED);
  __atomic_store_n(&L->Timed, __atomic_load_n(&L->Timed, __ATOMIC_RELAXED) + 1,
                   __ATOMIC_RELAXED);
  if (Ns <= OutlierNs) {
    __atomic_store_n(&L->TimedNs,
                     __atomic_load_n(&L->TimedNs, __ATOMIC_RELAXED) + Ns,
                     __ATOMIC_RELAXED);
  } else {
    __atomic_store_n(&L->LongNs,
                     __atomic_load_n(&L->LongNs, __ATOMIC_RELAXED) + Ns,
                     __ATOMIC_RELAXED);
    __atomic_store_n(&L->Long, __atomic_load_n(&L->Long, __ATOMIC_RELAXED) + 1,
                     __ATOMIC_RELAXED);
  }
}

enum dftracer_throttled_kind dftracer_fn_timed_kind(struct dftracer_fn_stats *St,
                                                    uint32_t F) {
  uint64_t X = St->Rng;
  if (!dftracer_throttle_sampled_)
    return DftThrottledExact;
  /* The gap to the next timed call: uniform in [1, 2 x SampleEvery - 1],
   * mean SampleEvery. Random, not a fixed stride, so that a program whose
   * calls alternate (every other one slow, say) cannot line up with the
   * timed ones. */
  X ^= X << 13;
  X ^= X >> 7;
  X ^= X << 17;
  St->Rng = X;
  St->Stat[F].Countdown = SampleEvery <= 1 ? 1 : 1 + X % (2 * SampleEvery - 1);
  return DftThrottledTicks;
}

void dftracer_fn_stats_free(struct dftracer_fn_stats *S) {
  dftracer_pages_free(S, sizeof(*S));
}

static uint32_t ptrSlot(const char *Name, const char *Cat) {
  uintptr_t K = (uintptr_t)Name * 31 + (uintptr_t)Cat;
  K ^= K >> 17;
  K *= 0x9e3779b97f4a7c15ull;
  return (uint32_t)(K >> 40) & (PtrSlots - 1);
}

static uint32_t findPtr(const char *Name, const char *Cat) {
  uint32_t I = ptrSlot(Name, Cat), F;
  while ((F = __atomic_load_n(&ByPtr[I].Func, __ATOMIC_ACQUIRE)) != 0) {
    if (ByPtr[I].Name == Name && ByPtr[I].Cat == Cat)
      return F;
    I = (I + 1) & (PtrSlots - 1);
  }
  return 0;
}

static uint64_t textHash(const char *Name, size_t NameLen, const char *Cat,
                         size_t CatLen) {
  uint64_t H = 0xcbf29ce484222325ull;
  size_t I;
  for (I = 0; I < NameLen; ++I)
    H = (H ^ (unsigned char)Name[I]) * 0x100000001b3ull;
  H = (H ^ 0xff) * 0x100000001b3ull; /* no byte of text is 0xff alone */
  for (I = 0; I < CatLen; ++I)
    H = (H ^ (unsigned char)Cat[I]) * 0x100000001b3ull;
  return H;
}

/* The index of this text, interned if new; 0 when the table is full.
 * Caller holds the lock. */
static uint32_t internLocked(const char *Name, const char *Cat) {
  size_t NameLen = strlen(Name), CatLen = strlen(Cat);
  uint64_t Hash = textHash(Name, NameLen, Cat, CatLen);
  uint32_t I = (uint32_t)Hash & (TextSlots - 1), F;
  struct fnEntry *E;
  for (; (F = ByText[I]) != 0; I = (I + 1) & (TextSlots - 1)) {
    E = &Funcs[F];
    if (E->Hash == Hash && E->NameLen == NameLen && E->CatLen == CatLen &&
        memcmp(E->Name, Name, NameLen) == 0 && memcmp(E->Cat, Cat, CatLen) == 0)
      return F;
  }
  if (FuncCount + 1 >= DftMaxFuncs)
    return 0;
  E = &Funcs[FuncCount + 1];
  if (!(E->Name = dftracer_text_copy(&NameText, Name, NameLen)) ||
      !(E->Cat = dftracer_text_copy(&NameText, Cat, CatLen)))
    return 0;
  E->NameLen = NameLen;
  E->CatLen = CatLen;
  E->Hash = Hash;
  F = ++FuncCount;
  ByText[I] = F;
  return F;
}

static uint32_t lookupSlow(const char *Name, const char *Cat) {
  struct dftracer_process *P = &dftracer_process_;
  uint32_t F;
  pthread_mutex_lock(&P->Lock);
  F = findPtr(Name, Cat);
  if (!F && (F = internLocked(Name, Cat)) != 0 &&
      PtrCount < PtrSlots / 4 * 3) {
    uint32_t I = ptrSlot(Name, Cat);
    while (ByPtr[I].Func != 0)
      I = (I + 1) & (PtrSlots - 1);
    ByPtr[I].Name = Name;
    ByPtr[I].Cat = Cat;
    __atomic_store_n(&ByPtr[I].Func, F, __ATOMIC_RELEASE);
    ++PtrCount;
  }
  pthread_mutex_unlock(&P->Lock);
  return F;
}

uint32_t dftracer_fn_index(struct dftracer_fn_stats *St, const char *Name,
                           const char *Cat) {
  uint32_t F;
  if (!St || !Funcs)
    return 0;
  F = findPtr(Name, Cat);
  if (!F && !(F = lookupSlow(Name, Cat)))
    return 0;
  if (St->Stat[F].Next == 0) {
    /* First use on this thread: with no judging, Next stays at ~0. */
    uint32_t N = St->UsedCount;
    St->Stat[F].Next = dftracer_throttle_calls_ ? dftracer_fn_next_judged(0)
                                                : ~0ull;
    St->Used[N] = F;
    /* Published after the index: the end of the trace may read the list
     * while this thread runs. */
    __atomic_store_n(&St->UsedCount, N + 1, __ATOMIC_RELEASE);
  }
  return F;
}

/* The value of `"Key":` in Args, if there. */
static int argValue(const char *Args, size_t Len, const char *Key,
                    int64_t *Value) {
  size_t KeyLen = strlen(Key), I;
  for (I = 0; I + KeyLen + 3 < Len; ++I) {
    const char *P = Args + I;
    int Neg = 0;
    int64_t V = 0;
    if (P[0] != '"' || memcmp(P + 1, Key, KeyLen) != 0 ||
        P[KeyLen + 1] != '"' || P[KeyLen + 2] != ':')
      continue;
    P += KeyLen + 3;
    if (P < Args + Len && *P == '-') {
      Neg = 1;
      ++P;
    }
    while (P < Args + Len && *P >= '0' && *P <= '9')
      V = V * 10 + (*P++ - '0');
    *Value = Neg ? -V : V;
    return 1;
  }
  return 0;
}

uint64_t dftracer_io_event_bytes(const char *Name, const char *Cat,
                                 const char *Args, size_t ArgsLen) {
  int64_t Ret = -1, Bytes = 0, Size = 0, Count = 0;
  int Data = strstr(Name, "read") != NULL || strstr(Name, "write") != NULL;
  int Hdf5 = strcmp(Cat, "HDF5") == 0;
  if (!Data || strstr(Name, "readlink") || strstr(Name, "readdir"))
    return 0;
  if (!Hdf5 && strcmp(Cat, "POSIX") != 0 && strcmp(Cat, "STDIO") != 0 &&
      strcmp(Cat, "MPIIO") != 0)
    return 0; /* a function or region: no bytes */
  argValue(Args, ArgsLen, "ret", &Ret);
  if (strcmp(Cat, "POSIX") == 0) {
    if (strstr(Name, "aio_"))
      return Ret == 0 && argValue(Args, ArgsLen, "count", &Count) &&
                     Count > 0
                 ? (uint64_t)Count
                 : 0;
    return Ret > 0 ? (uint64_t)Ret : 0;
  }
  if (strcmp(Cat, "STDIO") == 0)
    return Ret > 0 && argValue(Args, ArgsLen, "size", &Size) && Size > 0
               ? (uint64_t)Size * (uint64_t)Ret
               : 0;
  if (!argValue(Args, ArgsLen, "bytes", &Bytes) || Bytes <= 0)
    return 0;
  if (strcmp(Cat, "MPIIO") == 0)
    return Ret == 0 ? (uint64_t)Bytes : 0;
  return Ret >= 0 ? (uint64_t)Bytes : 0; /* HDF5 */
}

static void addLeft(struct dftracer_left *To, struct dftracer_left *From,
                    int Zero) {
  To->Calls += __atomic_load_n(&From->Calls, __ATOMIC_RELAXED);
  To->Dur += __atomic_load_n(&From->Dur, __ATOMIC_RELAXED);
  To->Bytes += __atomic_load_n(&From->Bytes, __ATOMIC_RELAXED);
  if (Zero) {
    __atomic_store_n(&From->Calls, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&From->Dur, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&From->Bytes, 0, __ATOMIC_RELAXED);
  }
}

static void addSampled(struct dftracer_sampled *To,
                       struct dftracer_sampled *From, int Zero) {
  To->Timed += __atomic_load_n(&From->Timed, __ATOMIC_RELAXED);
  To->TimedNs += __atomic_load_n(&From->TimedNs, __ATOMIC_RELAXED);
  To->Long += __atomic_load_n(&From->Long, __ATOMIC_RELAXED);
  To->LongNs += __atomic_load_n(&From->LongNs, __ATOMIC_RELAXED);
  if (Zero) {
    __atomic_store_n(&From->Timed, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&From->TimedNs, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&From->Long, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&From->LongNs, 0, __ATOMIC_RELAXED);
  }
}

static void mergeLocked(struct dftracer_fn_stats *St, int Zero) {
  uint32_t I, F;
  int R;
  uint32_t Count;
  if (!St || !Funcs)
    return;
  Count = __atomic_load_n(&St->UsedCount, __ATOMIC_ACQUIRE);
  for (I = 0; I < Count; ++I) {
    F = St->Used[I];
    for (R = 0; R < DftReasons; ++R)
      addLeft(&Funcs[F].Total[R], &St->Stat[F].Left[R], Zero);
    addSampled(&Funcs[F].Sampled, &St->Stat[F].Sampled, Zero);
  }
}

void dftracer_throttle_merge_locked(struct dftracer_fn_stats *St) {
  mergeLocked(St, 0);
}

static const char *const ReasonName[DftReasons] = {"throttle", "size_limit",
                                                   "write_error"};

/* Fixed text of a record around its name, category and numbers. */
enum { RecordFixedBytes = 224 + 7 * DFTRACER_JSON_INT_BOUND };

uint64_t dftracer_throttle_output_bound(void) {
  uint64_t Bytes = 0;
  uint32_t F;
  if (!Funcs)
    return 0;
  /* Read under the lock by the budget: a reason's line per name at most
   * (only the reasons seen are written, but which are is not known yet). */
  for (F = 1; F <= FuncCount; ++F)
    Bytes += 2 * (RecordFixedBytes +
                  dftracer_json_string_bound(Funcs[F].NameLen) +
                  dftracer_json_string_bound(Funcs[F].CatLen));
  return Bytes;
}

/* Sampled time: the calls' total estimated from the timed ones, rounded
 * to the microsecond. The timed calls within the outlier bound stand for
 * all calls in their proportion (their mean x calls x their share). Those
 * beyond it (the thread preempted, a page fault: one such call seen 1 time
 * in SampleEvery and counted SampleEvery times would be most of the
 * estimate, and vary by that much from run to run) count once each, as
 * measured, while fewer than LongExtrapolated were seen; from then on they
 * are common enough to stand for the calls in their proportion too. */
enum { LongExtrapolated = 16 };
uint64_t dftracer_throttle_sampled_us(const struct dftracer_left *L,
                                      const struct dftracer_sampled *S) {
  uint64_t Short = S->Timed - S->Long;
  unsigned __int128 Ns;
  if (S->Long >= LongExtrapolated || Short == 0)
    Ns = (unsigned __int128)(S->TimedNs + S->LongNs) * L->Calls / S->Timed;
  else
    Ns = (unsigned __int128)S->TimedNs * (L->Calls - S->Long) / Short +
         S->LongNs;
  return (uint64_t)((Ns + 500u) / 1000u);
}

void dftracer_throttle_output_locked(int Pid, int Tid) {
  struct dftracer_thread *T;
  uint32_t F;
  int R;
  if (!Funcs)
    return;
  for (T = __atomic_load_n(&dftracer_process_.Threads, __ATOMIC_ACQUIRE); T;
       T = T->NextThread)
    mergeLocked(T->Stats, 1);
  for (F = 1; F <= FuncCount; ++F) {
    struct fnEntry *E = &Funcs[F];
    for (R = 0; R < DftReasons; ++R) {
      struct dftracer_left *L = &E->Total[R];
      /* Most names are never throttled: the line is formatted on the
       * stack only for those that were (a name is at most ~4 KiB of JSON
       * here; longer ones go through whole pages). */
      char Line[4096], *Buf = Line, *End;
      size_t Bound;
      uint64_t Dur = L->Dur, Timed = 0;
      if (L->Calls == 0)
        continue;
      if (R == DftReasonThrottle && (Timed = E->Sampled.Timed) != 0)
        Dur += dftracer_throttle_sampled_us(L, &E->Sampled);
      Bound = dftracer_throttled_line_bound(E->NameLen, E->CatLen);
      if (Bound > sizeof(Line) &&
          !(Buf = (char *)dftracer_pages_alloc(Bound)))
        continue;
      End = dftracer_format_throttled(Buf, dftracer_take_id_(), Pid, Tid,
                                      E->Name, E->NameLen, E->Cat, E->CatLen,
                                      L->Calls, Dur, L->Bytes,
                                      ReasonName[R], Timed);
      dftracer_writer_output_locked(Buf, (size_t)(End - Buf));
      if (Buf != Line)
        dftracer_pages_free(Buf, Bound);
      memset(L, 0, sizeof(*L));
    }
    memset(&E->Sampled, 0, sizeof(E->Sampled));
  }
}

void dftracer_throttle_reset_locked(struct dftracer_fn_stats *St) {
  uint32_t F;
  int R;
  if (!Funcs)
    return;
  for (F = 1; F <= FuncCount; ++F) {
    memset(Funcs[F].Total, 0, sizeof(Funcs[F].Total));
    memset(&Funcs[F].Sampled, 0, sizeof(Funcs[F].Sampled));
  }
  if (St) {
    uint32_t I;
    for (I = 0; I < St->UsedCount; ++I) {
      for (R = 0; R < DftReasons; ++R)
        memset(&St->Stat[St->Used[I]].Left[R], 0, sizeof(struct dftracer_left));
      memset(&St->Stat[St->Used[I]].Sampled, 0,
             sizeof(struct dftracer_sampled));
    }
  }
}
