/*===- tune.c - Parsing DFTRACER_TUNE and the MPI-IO environment ----------===*
 *
 * The keys are the table below (data): the list each is set on, the shape
 * of its value and the HDF5 functions that set and get it. Parsing happens
 * once, at load, into static storage; the wrappers (tune_hdf5.c,
 * tune_mpiio.c) read it without locks.
 *
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include "tune.h"

#include "busy.h"
#include "internal.h"
#include "json_writer.h"
#include "records.h"

#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* --- The keys ------------------------------------------------------------ */

/* HDF5's values, by index. "latest" (libver) is DftLibverLatest, resolved
 * when applied to what the library calls its latest format. */
static const char *const FillTimes[] = {"alloc", "never", "ifset"};
static const char *const AllocTimes[] = {"default", "early", "late", "incr"};
static const char *const Libvers[] = {"earliest", "v18", "v110", "v112",
                                      "v114"};
static const char *const Strategies[] = {"fsm_aggr", "page", "aggr", "none"};
static const char *const Xfers[] = {"independent", "collective"};
static const char *const CollOpts[] = {"collective_io", "individual_io"};
#define NAMES(A) A, sizeof(A) / sizeof(A[0])
enum { DftLibverLatest = 1000 };

static const struct dftracer_tune_key Keys[] = {
    {"hdf5.alignment", DftTuneFapl, DftShapeSize2, DftAccHsize2, NULL, 0,
     "THRESHOLD,ALIGNMENT (two byte counts)", "H5Pset_alignment",
     "H5Pget_alignment", 0},
    {"hdf5.meta_block_size", DftTuneFapl, DftShapeSize, DftAccHsize, NULL, 0,
     "a byte count", "H5Pset_meta_block_size", "H5Pget_meta_block_size", 0},
    {"hdf5.sieve_buf_size", DftTuneFapl, DftShapeSize, DftAccSize, NULL, 0,
     "a byte count", "H5Pset_sieve_buf_size", "H5Pget_sieve_buf_size", 0},
    {"hdf5.small_data_block_size", DftTuneFapl, DftShapeSize, DftAccHsize, NULL,
     0, "a byte count", "H5Pset_small_data_block_size",
     "H5Pget_small_data_block_size", 0},
    {"hdf5.coll_metadata_write", DftTuneFapl, DftShapeBool, DftAccBool, NULL, 0,
     "0 or 1", "H5Pset_coll_metadata_write", "H5Pget_coll_metadata_write", 0},
    {"hdf5.all_coll_metadata_ops", DftTuneFapl, DftShapeBool, DftAccBool, NULL,
     0, "0 or 1", "H5Pset_all_coll_metadata_ops",
     "H5Pget_all_coll_metadata_ops", 0},
    {"hdf5.page_buffer_size", DftTuneFapl, DftShapeSize, DftAccPageBuf, NULL, 0,
     "a byte count (the file must use hdf5.file_space_strategy=page)",
     "H5Pset_page_buffer_size", "H5Pget_page_buffer_size", 0},
    {"hdf5.chunk_cache", DftTuneFapl, DftShapeCache, DftAccCache, NULL, 0,
     "NSLOTS,NBYTES,W0 (W0 from 0 to 1)", "H5Pset_cache", "H5Pget_cache", 0},
    {"hdf5.file_locking", DftTuneFapl, DftShapeBool, DftAccLocking, NULL, 0,
     "0 or 1", "H5Pset_file_locking", "H5Pget_file_locking", 1},
    {"hdf5.libver", DftTuneFapl, DftShapeEnum2, DftAccInt2, NAMES(Libvers),
     "LOW,HIGH, each earliest|v18|v110|v112|v114|latest",
     "H5Pset_libver_bounds", "H5Pget_libver_bounds", 0},
    {"hdf5.file_space_strategy", DftTuneFcpl, DftShapeEnum, DftAccStrategy,
     NAMES(Strategies), "fsm_aggr|page|aggr|none", "H5Pset_file_space_strategy",
     "H5Pget_file_space_strategy", 0},
    {"hdf5.file_space_page_size", DftTuneFcpl, DftShapeSize, DftAccHsize, NULL,
     0, "a byte count", "H5Pset_file_space_page_size",
     "H5Pget_file_space_page_size", 0},
    {"hdf5.fill_time", DftTuneDcpl, DftShapeEnum, DftAccInt, NAMES(FillTimes),
     "never|alloc|ifset", "H5Pset_fill_time", "H5Pget_fill_time", 0},
    {"hdf5.alloc_time", DftTuneDcpl, DftShapeEnum, DftAccInt, NAMES(AllocTimes),
     "early|late|incr|default", "H5Pset_alloc_time", "H5Pget_alloc_time", 0},
    {"hdf5.xfer", DftTuneDxpl, DftShapeEnum, DftAccInt, NAMES(Xfers),
     "collective|independent", "H5Pset_dxpl_mpio", "H5Pget_dxpl_mpio", 0},
    {"hdf5.coll_opt", DftTuneDxpl, DftShapeEnum, DftAccSetOnly, NAMES(CollOpts),
     "collective_io|individual_io", "H5Pset_dxpl_mpio_collective_opt", NULL, 0},
    {"mpiio.", DftTuneMpiio, DftShapeString, DftAccNone, NULL, 0,
     "mpiio.HINT=VALUE (a hint's name, a value without ';')", NULL, NULL, 0},
};
enum { KeyCount = sizeof(Keys) / sizeof(Keys[0]) };
static const struct dftracer_tune_key *const MpiioKey = &Keys[KeyCount - 1];

/* --- Storage ---------------------------------------------------------------
 */

enum {
  MaxSettings = DftTuneMaxSettings,
  MaxInvalid = 16,
  FileBytes = 16 << 10
};
struct dftracer_tune_setting dftracer_tune_settings_[MaxSettings];
unsigned dftracer_tune_count_;
unsigned dftracer_tune_lists_;

/* Malformed settings: written once as process-wide records. */
static struct {
  char Text[DftTuneTextMax];
  char Reason[DftTuneTextMax];
  char Key[DftTuneHintMax];
  unsigned char Source;
} Invalid[MaxInvalid];
static unsigned InvalidCount;
static int InvalidFlushed;
/* One stderr line per setting (and status) and process. */
static unsigned char Warned[MaxSettings];

static const char *const SourceNames[] = {"DFTRACER_TUNE", "ROMIO_HINTS",
                                          "MPICH_MPIIO_HINTS", "MPIIO_HINTS"};
static const char *const StatusNames[] = {"applied", "already", "kept",
                                          "ignored", "invalid"};

/* Bounded copy of Len bytes of Src into Dst (Size bytes). */
static void copyText(char *Dst, size_t Size, const char *Src, size_t Len) {
  if (Len >= Size)
    Len = Size - 1;
  memcpy(Dst, Src, Len);
  Dst[Len] = '\0';
}

static void warnLine(const char *Text, const char *Source, const char *Status,
                     const char *Reason) {
  char Line[1024];
  int N = snprintf(Line, sizeof(Line), "dftracer[%d]: %s '%s' %s: %s\n",
                   (int)getpid(), Source, Text, Status, Reason);
  if (N > 0) {
    int Busy = dftracer_busy_enter();
    ssize_t W =
        write(2, Line, (size_t)N < sizeof(Line) ? (size_t)N : sizeof(Line) - 1);
    (void)W;
    dftracer_busy_leave(Busy);
  }
}

/* A malformed setting (of key Key, "" when unknown): its stderr line now,
 * its record later. */
static void invalidKey(const char *Text, size_t Len, int Source,
                       const char *Reason, const char *Key, size_t KeyLen);
static void invalid(const char *Text, size_t Len, int Source,
                    const char *Reason) {
  invalidKey(Text, Len, Source, Reason, "", 0);
}
static void invalidKey(const char *Text, size_t Len, int Source,
                       const char *Reason, const char *Key, size_t KeyLen) {
  char Copy[DftTuneTextMax];
  copyText(Copy, sizeof(Copy), Text, Len);
  warnLine(Copy, SourceNames[Source], "invalid", Reason);
  if (InvalidCount < MaxInvalid) {
    strcpy(Invalid[InvalidCount].Text, Copy);
    copyText(Invalid[InvalidCount].Reason, DftTuneTextMax, Reason,
             strlen(Reason));
    copyText(Invalid[InvalidCount].Key, DftTuneHintMax, Key, KeyLen);
    Invalid[InvalidCount].Source = (unsigned char)Source;
    ++InvalidCount;
    dftracer_tune_lists_ |= DftTuneHasInvalid;
  }
}

/* --- Values ------------------------------------------------------------------
 */

static const char *skipSpace(const char *P, const char *End) {
  while (P < End && (*P == ' ' || *P == '\t' || *P == '\r' || *P == '\n'))
    ++P;
  return P;
}

static const char *trimEnd(const char *Begin, const char *End) {
  while (End > Begin && (End[-1] == ' ' || End[-1] == '\t' || End[-1] == '\r' ||
                         End[-1] == '\n'))
    --End;
  return End;
}

/* A byte count, with an optional K/M/G/T (binary) suffix, "B" or "iB"
 * after it. */
static int parseSize(const char *P, const char *End, unsigned long long *Out) {
  unsigned long long V = 0;
  const char *Digits = P;
  unsigned Shift = 0;
  while (P < End && *P >= '0' && *P <= '9') {
    unsigned long long D = (unsigned long long)(*P - '0');
    if (V > (~0ULL - D) / 10)
      return 0;
    V = V * 10 + D;
    ++P;
  }
  if (P == Digits)
    return 0;
  if (P < End) {
    switch (*P | 0x20) {
    case 'k':
      Shift = 10;
      break;
    case 'm':
      Shift = 20;
      break;
    case 'g':
      Shift = 30;
      break;
    case 't':
      Shift = 40;
      break;
    default:
      return 0;
    }
    ++P;
    if (P < End && (*P | 0x20) == 'i')
      ++P;
    if (P < End && (*P | 0x20) == 'b')
      ++P;
  }
  if (P != End || (Shift && V > (~0ULL >> Shift)))
    return 0;
  *Out = V << Shift;
  return 1;
}

static int parseName(const struct dftracer_tune_key *K, const char *P,
                     const char *End, unsigned long long *Out) {
  size_t Len = (size_t)(End - P);
  unsigned I;
  if (K->Names == Libvers && Len == 6 && memcmp(P, "latest", 6) == 0) {
    *Out = DftLibverLatest;
    return 1;
  }
  for (I = 0; I < K->NameCount; ++I)
    if (strlen(K->Names[I]) == Len && memcmp(P, K->Names[I], Len) == 0) {
      *Out = I;
      return 1;
    }
  return 0;
}

/* Split [P, End) at commas into at most Max fields; their count, or -1
 * when there are more. */
static int fields(const char *P, const char *End, const char **Begin,
                  const char **Stop, int Max) {
  int N = 0;
  for (;;) {
    const char *Comma = memchr(P, ',', (size_t)(End - P));
    const char *E = Comma ? Comma : End;
    if (N == Max)
      return -1;
    Begin[N] = skipSpace(P, E);
    Stop[N] = trimEnd(Begin[N], E);
    ++N;
    if (!Comma)
      return N;
    P = Comma + 1;
  }
}

static int parseValue(const struct dftracer_tune_key *K, const char *P,
                      const char *End, struct dftracer_tune_value *V) {
  const char *B[3], *E[3];
  int N = fields(P, End, B, E, 3);
  memset(V, 0, sizeof(*V));
  switch ((enum dftracer_tune_shape)K->Shape) {
  case DftShapeSize:
    return N == 1 && parseSize(B[0], E[0], &V->U[0]);
  case DftShapeSize2:
    return N == 2 && parseSize(B[0], E[0], &V->U[0]) &&
           parseSize(B[1], E[1], &V->U[1]);
  case DftShapeBool:
    if (N != 1 || E[0] - B[0] != 1 || (*B[0] != '0' && *B[0] != '1'))
      return 0;
    V->U[0] = (unsigned long long)(*B[0] - '0');
    return 1;
  case DftShapeEnum:
    return N == 1 && parseName(K, B[0], E[0], &V->U[0]);
  case DftShapeEnum2:
    return N == 2 && parseName(K, B[0], E[0], &V->U[0]) &&
           parseName(K, B[1], E[1], &V->U[1]);
  case DftShapeCache: {
    char W[64], *WEnd;
    if (N != 3 || !parseSize(B[0], E[0], &V->U[0]) ||
        !parseSize(B[1], E[1], &V->U[1]) || E[2] == B[2] ||
        (size_t)(E[2] - B[2]) >= sizeof(W))
      return 0;
    copyText(W, sizeof(W), B[2], (size_t)(E[2] - B[2]));
    V->W = strtod(W, &WEnd);
    return *WEnd == '\0' && V->W >= 0.0 && V->W <= 1.0;
  }
  case DftShapeString:
    return End > P && !memchr(P, ';', (size_t)(End - P));
  }
  return 0;
}

void dftracer_tune_format(const struct dftracer_tune_key *K,
                          const struct dftracer_tune_value *V, char *Out,
                          size_t Size) {
  const char *A, *B;
  switch ((enum dftracer_tune_shape)K->Shape) {
  case DftShapeSize:
  case DftShapeBool:
    snprintf(Out, Size, "%llu", V->U[0]);
    return;
  case DftShapeSize2:
    snprintf(Out, Size, "%llu,%llu", V->U[0], V->U[1]);
    return;
  case DftShapeCache:
    snprintf(Out, Size, "%llu,%llu,%g", V->U[0], V->U[1], V->W);
    return;
  case DftShapeEnum:
  case DftShapeEnum2:
    A = V->U[0] == DftLibverLatest ? "latest"
        : V->U[0] < K->NameCount   ? K->Names[V->U[0]]
                                   : "?";
    B = V->U[1] == DftLibverLatest ? "latest"
        : V->U[1] < K->NameCount   ? K->Names[V->U[1]]
                                   : "?";
    if (K->Shape == DftShapeEnum)
      snprintf(Out, Size, "%s", A);
    else
      snprintf(Out, Size, "%s,%s", A, B);
    return;
  case DftShapeString:
    break;
  }
  if (Size)
    Out[0] = '\0';
}

int dftracer_tune_equal(const struct dftracer_tune_key *K,
                        const struct dftracer_tune_value *A,
                        const struct dftracer_tune_value *B) {
  double D = A->W - B->W;
  return A->U[0] == B->U[0] && A->U[1] == B->U[1] && A->U[2] == B->U[2] &&
         (K->Shape != DftShapeCache || (D < 1e-6 && D > -1e-6));
}

/* --- DFTRACER_TUNE
 * ------------------------------------------------------------ */

static int validHintName(const char *P, const char *End) {
  if (P == End)
    return 0;
  for (; P < End; ++P)
    if (!((*P >= 'a' && *P <= 'z') || (*P >= 'A' && *P <= 'Z') ||
          (*P >= '0' && *P <= '9') || *P == '_' || *P == '-' || *P == '.'))
      return 0;
  return 1;
}

static struct dftracer_tune_setting *newSetting(void) {
  if (dftracer_tune_count_ >= MaxSettings)
    return NULL;
  return &dftracer_tune_settings_[dftracer_tune_count_];
}

static void commit(struct dftracer_tune_setting *S) {
  dftracer_tune_lists_ |= 1u << S->Key->List;
  ++dftracer_tune_count_;
}

/* One setting, [GLOB:]KEY[?]=VALUE, of DFTRACER_TUNE. */
static void parseSetting(const char *P, const char *End) {
  char Reason[DftTuneTextMax];
  const char *Eq, *KeyBegin, *KeyEnd, *Colon, *C;
  const struct dftracer_tune_key *K = NULL;
  struct dftracer_tune_setting *S;
  int Default = 0;
  unsigned I;
  P = skipSpace(P, End);
  End = trimEnd(P, End);
  if (P == End)
    return;
  if ((size_t)(End - P) >= DftTuneTextMax) {
    invalid(P, (size_t)(End - P), DftSrcTune, "longer than 255 bytes");
    return;
  }
  Eq = memchr(P, '=', (size_t)(End - P));
  if (!Eq) {
    invalid(P, (size_t)(End - P), DftSrcTune,
            "expected KEY=VALUE, KEY?=VALUE or GLOB:KEY=VALUE");
    return;
  }
  KeyEnd = Eq;
  if (KeyEnd > P && KeyEnd[-1] == '?') {
    Default = 1;
    --KeyEnd;
  }
  /* The key begins after the last ':' before the '=' (a glob's end). */
  Colon = NULL;
  for (C = P; C < KeyEnd; ++C)
    if (*C == ':')
      Colon = C;
  KeyBegin = Colon ? Colon + 1 : P;
  KeyBegin = skipSpace(KeyBegin, KeyEnd);
  KeyEnd = trimEnd(KeyBegin, KeyEnd);
  if ((size_t)(KeyEnd - KeyBegin) > 6 && memcmp(KeyBegin, "mpiio.", 6) == 0) {
    if (validHintName(KeyBegin + 6, KeyEnd))
      K = MpiioKey;
  } else {
    for (I = 0; I + 1 < KeyCount; ++I)
      if (strlen(Keys[I].Name) == (size_t)(KeyEnd - KeyBegin) &&
          memcmp(Keys[I].Name, KeyBegin, (size_t)(KeyEnd - KeyBegin)) == 0)
        K = &Keys[I];
  }
  if (!K) {
    invalid(P, (size_t)(End - P), DftSrcTune,
            "unknown key: expected hdf5.PROPERTY (docs/runtime.md, "
            "\"Tuning without rebuilding\") or mpiio.HINT");
    return;
  }
  if (!(S = newSetting())) {
    invalid(P, (size_t)(End - P), DftSrcTune, "more than 64 settings");
    return;
  }
  memset(S, 0, sizeof(*S));
  {
    const char *VBegin = skipSpace(Eq + 1, End);
    if (!parseValue(K, VBegin, End, &S->Value)) {
      snprintf(Reason, sizeof(Reason), "expected %s", K->Expect);
      invalidKey(P, (size_t)(End - P), DftSrcTune, Reason, KeyBegin,
                 (size_t)(KeyEnd - KeyBegin));
      return;
    }
    copyText(S->Requested, sizeof(S->Requested), VBegin,
             (size_t)(End - VBegin));
  }
  S->Key = K;
  copyText(S->Text, sizeof(S->Text), P, (size_t)(End - P));
  if (Colon)
    copyText(S->Glob, sizeof(S->Glob), P, (size_t)(Colon - P));
  copyText(S->Name, sizeof(S->Name), KeyBegin, (size_t)(KeyEnd - KeyBegin));
  if (K == MpiioKey)
    copyText(S->Hint, sizeof(S->Hint), KeyBegin + 6,
             (size_t)(KeyEnd - KeyBegin - 6));
  S->Default = (unsigned char)Default;
  S->Source = DftSrcTune;
  commit(S);
}

/* The whole of file Path into Buf (Size bytes); its length, or -1. */
static ssize_t readFile(const char *Path, char *Buf, size_t Size) {
  int Busy = dftracer_busy_enter();
  int Fd = open(Path, O_RDONLY | O_CLOEXEC);
  ssize_t Len = 0, N = 0;
  if (Fd >= 0) {
    while ((size_t)Len < Size - 1 &&
           (N = read(Fd, Buf + Len, Size - 1 - (size_t)Len)) > 0)
      Len += N;
    close(Fd);
  }
  dftracer_busy_leave(Busy);
  if (Fd < 0 || N < 0)
    return -1;
  Buf[Len] = '\0';
  return Len;
}

/* Lines of Text (`#` comments), or settings split at Sep. */
static void parseList(const char *Text, size_t Len, char Sep, int Comments) {
  const char *P = Text, *End = Text + Len;
  while (P < End) {
    const char *Stop = memchr(P, Sep, (size_t)(End - P));
    const char *E = Stop ? Stop : End;
    if (Comments) {
      const char *Hash = memchr(P, '#', (size_t)(E - P));
      if (Hash)
        E = Hash;
    }
    parseSetting(P, E);
    P = (Stop ? Stop : End) + 1;
  }
}

static char FileText[FileBytes];

static void parseTune(const char *Value) {
  const char *P = Value;
  while (*P == ' ' || *P == '\t')
    ++P;
  if (*P == '@') {
    ssize_t Len = readFile(P + 1, FileText, sizeof(FileText));
    if (Len < 0) {
      invalid(P, strlen(P), DftSrcTune, "cannot read the file it names");
      return;
    }
    parseList(FileText, (size_t)Len, '\n', 1);
    return;
  }
  parseList(Value, strlen(Value), ';', 0);
}

/* --- The MPI-IO environment
 * ----------------------------------------------------- */

/* An environment hint: a setting with the source's name, never applied. */
static void envHint(int Source, const char *Text, size_t TextLen,
                    const char *Glob, size_t GlobLen, const char *Key,
                    size_t KeyLen, const char *Value, size_t ValueLen,
                    const char *Mistake) {
  struct dftracer_tune_setting *S = newSetting();
  if (!S)
    return;
  memset(S, 0, sizeof(*S));
  S->Key = MpiioKey;
  copyText(S->Text, sizeof(S->Text), Text, TextLen);
  copyText(S->Glob, sizeof(S->Glob), Glob, GlobLen);
  copyText(S->Hint, sizeof(S->Hint), Key, KeyLen);
  memcpy(S->Name, "mpiio.", 6);
  copyText(S->Name + 6, sizeof(S->Name) - 6, Key, KeyLen);
  copyText(S->Requested, sizeof(S->Requested), Value, ValueLen);
  S->Source = (unsigned char)Source;
  S->Invalid = Mistake;
  commit(S);
}

/* ROMIO_HINTS: a file of `key value` lines, read by ROMIO at the first
 * open; it fills the keys the application did not set. */
static void parseRomioHints(const char *Path) {
  static char Buf[FileBytes];
  ssize_t Len = readFile(Path, Buf, sizeof(Buf));
  const char *P = Buf, *End;
  if (Len < 0) {
    invalid(Path, strlen(Path), DftSrcRomioHints,
            "cannot read the file it names");
    return;
  }
  End = Buf + Len;
  while (P < End) {
    const char *Nl = memchr(P, '\n', (size_t)(End - P));
    const char *E = trimEnd(P, Nl ? Nl : End), *K = skipSpace(P, E), *KE, *V;
    if (K < E && *K != '#') {
      KE = K;
      while (KE < E && *KE != ' ' && *KE != '\t')
        ++KE;
      V = skipSpace(KE, E);
      if (V == E)
        invalid(K, (size_t)(E - K), DftSrcRomioHints,
                "expected 'KEY VALUE' (ROMIO skips a key without a value)");
      else
        envHint(DftSrcRomioHints, K, (size_t)(E - K), "", 0, K,
                (size_t)(KE - K), V, (size_t)(E - V), NULL);
    }
    P = (Nl ? Nl : End) + 1;
  }
}

/* MPICH_MPIIO_HINTS (Cray MPICH) and MPIIO_HINTS, the same syntax:
 * `PATTERN:KEY=VALUE:KEY=VALUE,PATTERN:...`. A hint separated with ';' or
 * ',' makes a key swallow the rest (Cray reports "unrecognized value" and
 * the run goes on): said as `invalid`. */
static void parseCrayHints(int Source, const char *Value) {
  const char *P = Value, *End = Value + strlen(Value);
  while (P < End) {
    const char *Comma = memchr(P, ',', (size_t)(End - P));
    const char *E = Comma ? Comma : End;
    const char *Colon = memchr(P, ':', (size_t)(E - P));
    const char *Glob = P, *H;
    if (!Colon) {
      if (skipSpace(P, E) < E)
        invalid(P, (size_t)(E - P), Source,
                "expected PATTERN:KEY=VALUE[:KEY=VALUE...]: patterns are "
                "separated with ',', hints with ':'");
      P = E + 1;
      continue;
    }
    H = Colon + 1;
    while (H < E) {
      const char *Next = memchr(H, ':', (size_t)(E - H));
      const char *HE = Next ? Next : E;
      const char *Eq = memchr(H, '=', (size_t)(HE - H));
      if (!Eq || Eq == H)
        invalid(H, (size_t)(HE - H), Source,
                "expected KEY=VALUE (hints are separated with ':')");
      else {
        const char *V = Eq + 1, *Mistake = NULL;
        if (memchr(V, ';', (size_t)(HE - V)))
          Mistake = "the value has ';': hints here are separated with ':' "
                    "(the key swallowed the rest of the list)";
        else if (memchr(V, '=', (size_t)(HE - V)))
          Mistake = "the value has '=': a hint separator is missing (hints "
                    "here are separated with ':')";
        envHint(Source, H, (size_t)(HE - H), Glob, (size_t)(Colon - Glob), H,
                (size_t)(Eq - H), V, (size_t)(HE - V), Mistake);
        if (Mistake)
          warnLine(dftracer_tune_settings_[dftracer_tune_count_ - 1].Text,
                   SourceNames[Source], "invalid", Mistake);
      }
      H = HE + 1;
    }
    P = E + 1;
  }
}

void dftracer_tune_setup(void) {
  const char *V;
  if ((V = getenv("DFTRACER_TUNE")) && *V)
    parseTune(V);
  if ((V = getenv("ROMIO_HINTS")) && *V)
    parseRomioHints(V);
  if ((V = getenv("MPICH_MPIIO_HINTS")) && *V)
    parseCrayHints(DftSrcMpichHints, V);
  if ((V = getenv("MPIIO_HINTS")) && *V)
    parseCrayHints(DftSrcMpiioHints, V);
}

int dftracer_tune_matches(const struct dftracer_tune_setting *S,
                          const char *Abs, const char *Given) {
  const char *Base;
  if (!S->Glob[0])
    return 1;
  if (S->Source == DftSrcTune)
    return fnmatch(S->Glob, Abs, 0) == 0;
  /* The MPI library's patterns: the name as given, its base name, or the
   * absolute path. */
  Base = strrchr(Given, '/');
  return fnmatch(S->Glob, Given, 0) == 0 || fnmatch(S->Glob, Abs, 0) == 0 ||
         (Base && fnmatch(S->Glob, Base + 1, 0) == 0);
}

/* --- Records
 * ---------------------------------------------------------------------- */

/* Each value is cut to its cap, so that the line's bound holds whatever
 * was written (an escaped byte takes up to 6). */
enum {
  CapSetting = 2 * DftTuneTextMax,
  CapKey = DftTuneHintMax,
  CapValue = DftTuneValueMax,
  CapReason = DftTuneTextMax,
  RecordBytes = DftRecordFixedBytes + 256 +
                6 * (CapSetting + CapKey + 4 * CapValue + CapReason)
};

static char *putStr(char *Out, const char *Key, const char *Value, size_t Cap,
                    int First) {
  size_t Len = Value ? strlen(Value) : 0;
  if (!First)
    *Out++ = ',';
  Out = dftracer_put_string(Out, Key, strlen(Key));
  *Out++ = ':';
  return dftracer_put_string(Out, Value ? Value : "", Len < Cap ? Len : Cap);
}

static void emit(uint64_t Fhash, const char *Setting, const char *Key,
                 const char *Requested, int Default, int Source,
                 const char *Before, const char *Effect, int Status,
                 const char *Reason) {
  char Line[RecordBytes], *Out = Line;
  Out = dftracer_record_head(Out, "tuning");
  if (Fhash)
    Out = dftracer_record_u64(Out, "fhash", Fhash, 1);
  Out = putStr(Out, "setting", Setting, CapSetting, !Fhash);
  Out = putStr(Out, "key", Key, CapKey, 0);
  Out = putStr(Out, "requested", Requested, CapValue, 0);
  Out = putStr(Out, "op", Default ? "default" : "set", CapKey, 0);
  Out = putStr(Out, "source", SourceNames[Source], CapKey, 0);
  Out = putStr(Out, "before", Before, CapValue, 0);
  Out = putStr(Out, "effect", Effect, CapValue, 0);
  Out = putStr(Out, "status", StatusNames[Status], CapKey, 0);
  Out = putStr(Out, "reason", Reason, CapReason, 0);
  Out = dftracer_record_tail(Out);
  dftracer_record_emit(Line, (size_t)(Out - Line));
}

void dftracer_tune_record(uint64_t Fhash, const struct dftracer_tune_setting *S,
                          const char *Before, const char *Effect,
                          enum dftracer_tune_status Status,
                          const char *Reason) {
  char Text[DftTuneTextMax + DftTuneTextMax];
  unsigned Index = (unsigned)(S - dftracer_tune_settings_);
  dftracer_tune_flush_invalid();
  if (S->Glob[0] && S->Source != DftSrcTune)
    snprintf(Text, sizeof(Text), "%s:%s", S->Glob, S->Text);
  else
    snprintf(Text, sizeof(Text), "%s", S->Text);
  emit(Fhash, Text, S->Name, S->Requested, S->Default, S->Source, Before,
       Effect, Status, Reason);
  if ((Status == DftTuneIgnored || Status == DftTuneInvalid) &&
      Index < MaxSettings &&
      !__atomic_exchange_n(&Warned[Index], 1, __ATOMIC_ACQ_REL) &&
      !(Status == DftTuneInvalid && S->Source != DftSrcTune))
    warnLine(Text, SourceNames[S->Source], StatusNames[Status],
             Reason ? Reason : "");
}

void dftracer_tune_flush_invalid(void) {
  unsigned I;
  if (!InvalidCount ||
      __atomic_exchange_n(&InvalidFlushed, 1, __ATOMIC_ACQ_REL))
    return;
  for (I = 0; I < InvalidCount; ++I)
    emit(0, Invalid[I].Text, Invalid[I].Key, "", 0, Invalid[I].Source, "", "",
         DftTuneInvalid, Invalid[I].Reason);
}
