/*===- compact_encoder.c - .pfw lines to compact blocks -------------------===*
 *
 * The encoder of compact_writer.h, without the runtime around it (no
 * configuration, no libzstd loading): dftracer-convert --compact links it
 * with pages.c to write .pfc from .pfw. docs/trace-format.md specifies the
 * format.
 *
 *===----------------------------------------------------------------------===*/
#include "compact_writer.h"

#include "compact_format.h"
#include "event_format.h"
#include "event_record.h"
#include "pages.h"

#include <stdio.h>
#include <string.h>
#include <sys/uio.h>
#include <zlib.h>

/* A block holds this many raw bytes at most; at ~20 bytes a span, about
 * 13,000 events. A line whose encoding may not fit is cut into text parts. */
enum {
  BlockBytes = 256 << 10,
  LineRoomMax = BlockBytes / 2 - 256,
  CarryBytes = 64 << 10,
  StringSlots = 1 << 16, /* a power of two */
  MaxStrings = StringSlots / 2,
  StringArenaBytes = 8 << 20,
  MaxThreads = 4096,
  ThreadSlots = 8192, /* a power of two */
  MaxArgs = 64,
  NameCacheSlots = 256, /* powers of two */
  ShortSlots = 256,
  LinesBytes = 256 << 10,
  ScratchBytes = DftRecordMax + 1024, /* a record's line */
  LiteralSlots = 512,                 /* a power of two */
  LiteralMax = 64 /* a string value taken by address, quoted */
};

/* The string indices of a record's name and category, by the pointers the
 * thread knew them by and their text (event_record.h); and the shape of
 * the args its last record had when they were all integers (an I/O call's
 * fhash, fd, size...): their `,"key":` texts and key indices, which the
 * next record of the name is matched against instead of parsed, and each
 * one's last value as text and number (a file's hash, a descriptor, a
 * transfer size repeat from call to call: their digits are compared, not
 * parsed again). An I/O event's record, whose args are not text, is matched
 * by its keys' addresses instead. */
enum { ShapeKeys = 8, ShapeText = 96, IoShapeKeys = DftIoArgsMax + 1 };
struct nameSlot {
  const char *Name, *Cat;
  int64_t NameIdx, CatIdx;
  uint32_t Len;
  char Text[232];
  unsigned NKeys; /* 0: no shape */
  uint32_t KeyIdx[ShapeKeys];
  uint8_t KeyEnd[ShapeKeys]; /* of each key's text in Keys */
  char Keys[ShapeText];
  uint8_t ValLen[ShapeKeys]; /* 0: none yet */
  char Val[ShapeKeys][DFTRACER_JSON_INT_BOUND];
  int64_t ValInt[ShapeKeys];
  /* The same for a record's I/O args (event_record.h): the keys' addresses
   * and flagged lengths, and their string indices. */
  unsigned NIoKeys; /* 0: none */
  const char *IoKey[IoShapeKeys];
  size_t IoKeyLen[IoShapeKeys];
  uint32_t IoKeyIdx[IoShapeKeys];
  /* The string values of the last record's I/O args (literals, io_args.h:
   * the same address is the same text) and their string indices. */
  const char *IoStr[IoShapeKeys];
  uint32_t IoStrIdx[IoShapeKeys];
  /* The span's bytes that follow from the shape alone, for
   * encodeIoShaped: the name's and category's varints, and each I/O
   * arg's key varint (a string's index after it). At most 6 bytes each:
   * string indices are below 2^15. */
  uint8_t NameTag[8], NameTagLen;
  uint8_t IoTag[IoShapeKeys][8], IoTagLen[IoShapeKeys];
  /* Each integer arg's key slot + 1 when it had one (a key's slot never
   * changes once given), else 0. */
  uint8_t IoSlot[IoShapeKeys];
};

/* The index of a string of at most 16 bytes (arg keys, short values), by
 * its bytes: two words compared instead of a hash table's probe and
 * memcmp. */
struct shortSlot {
  uint64_t W0, W1;
  uint32_t Len;
  uint32_t Index; /* + 1; 0 = empty */
};

/* The index of a record's I/O arg key or string value (io_args.h) by its
 * address: the runtime's literals, which never change (unlike a name's
 * address, which a dlclose'd library may give back to another name). */
struct literalSlot {
  const char *Ptr;
  uint32_t Len;
  uint32_t Index; /* + 1; 0 = empty */
};

struct stringSlot {
  uint64_t Hash;
  uint32_t Off; /* in the arena */
  uint32_t Len;
  uint32_t Index; /* + 1; 0 = empty slot */
};

struct threadState {
  int64_t Pid, Tid;
  uint64_t PrevId, PrevTs, PrevParent;
  uint64_t Prev[DftCompactKeySlots];
};

struct dftracer_compact {
  dftracer_compact_out Out;
  void *Arg;
  uint64_t Consumed;
  /* The block being filled, and its compressed form with room for the
   * header in front. */
  uint8_t *Raw;
  size_t Used;
  uint8_t *Stored;
  size_t StoredCap;
  void *CCtxMem;
  size_t CCtxBytes;
  void *CCtx; /* NULL: blocks are stored */
  struct dftracer_compact_zstd Z;
  /* A line that continues in the next piece of input. */
  char *Carry;
  size_t CarryLen;
  int InParts; /* the current line's start went out as text parts */
  /* Strings: a hash table over an arena of their bytes. */
  struct stringSlot *Strings;
  char *Arena;
  size_t ArenaUsed;
  uint32_t NumStrings;
  uint8_t *KeySlot; /* per string index: slot + 1, 0 = none */
  unsigned NumKeySlots;
  /* Threads (pid, tid pairs): their states and a hash table of them. */
  struct threadState *Threads;
  uint16_t *ThreadTable; /* index + 1 */
  uint32_t NumThreads;
  uint32_t LastThread; /* index + 1 of the last one used */
  /* The runtime's: records come between the lines (event_record.h). */
  int Records;
  struct nameSlot *NameCache;
  struct shortSlot *ShortCache;
  struct literalSlot *Literals;
  char *Scratch; /* a record's line, when it is kept as text */
  /* A record's .pfw line (formatLine): the digits of the last id, ts and
   * each I/O arg's value (a file's hash, an offset: they share all but
   * their last digits from call to call), and the `"pid":P,"tid":T,` text
   * of the last thread, which rarely changes from one record to the next. */
  struct dftracer_digit_cache IdDigits, TsDigits, ArgDigits[IoShapeKeys];
  /* And each I/O arg's last `,"key":value` text: a file's hash, a
   * descriptor, a size or a return value repeat from call to call. */
  struct argText {
    const char *Key;
    size_t KeyLen;
    int64_t Value;
    uint32_t Len; /* 0: none */
    char Text[52];
  } ArgTexts[IoShapeKeys];
  int32_t LinePid, LineTid;
  uint32_t PidTidLen; /* 0: none yet */
  char PidTid[64];
  /* Both formats: the .pfw text of everything fed, records as lines. */
  dftracer_compact_out LinesOut;
  void *LinesArg;
  char *Lines;
  size_t LinesUsed;
  /* After a lost block: only text records (dftracer_compact_text_only). */
  int TextOnly;
  /* .pfw (dftracer_compact_start_lines): only the lines, no blocks. */
  int LinesOnly;
};

/* --- Allocation ------------------------------------------------------------*/

#define ALLOC_ONE(Field, Bytes)                                                \
  ((C->Field = dftracer_pages_alloc(Bytes)) != NULL)

static void freeAll(struct dftracer_compact *C) {
  dftracer_pages_free(C->Raw, BlockBytes);
  dftracer_pages_free(C->Stored, C->StoredCap);
  dftracer_pages_free(C->CCtxMem, C->CCtxBytes);
  dftracer_pages_free(C->Carry, CarryBytes);
  dftracer_pages_free(C->Strings, StringSlots * sizeof(struct stringSlot));
  dftracer_pages_free(C->Arena, StringArenaBytes);
  dftracer_pages_free(C->KeySlot, MaxStrings);
  dftracer_pages_free(C->Threads, MaxThreads * sizeof(struct threadState));
  dftracer_pages_free(C->ThreadTable, ThreadSlots * sizeof(uint16_t));
  dftracer_pages_free(C->NameCache, NameCacheSlots * sizeof(struct nameSlot));
  dftracer_pages_free(C->ShortCache, ShortSlots * sizeof(struct shortSlot));
  dftracer_pages_free(C->Scratch, ScratchBytes);
  dftracer_pages_free(C->Literals, LiteralSlots * sizeof(struct literalSlot));
  dftracer_pages_free(C->Lines, LinesBytes);
  dftracer_pages_free(C, sizeof(*C));
}

static void writeHeader(struct dftracer_compact *C) {
  uint8_t Head[DftCompactMagicLen + 4];
  char Json[256];
  struct iovec Iov[2];
  int Len = snprintf(Json, sizeof(Json),
                     "{\"format\":\"dftracer-compact\",\"version\":%d,"
                     "\"codec\":\"%s\",\"level\":%d,\"block_bytes\":%d}",
                     DftCompactVersion, C->CCtx ? "zstd" : "none",
                     C->CCtx ? C->Z.Level : 0, (int)BlockBytes);
  memcpy(Head, DFT_COMPACT_MAGIC, DftCompactMagicLen);
  dft_put_u32le(Head + DftCompactMagicLen, (uint32_t)Len);
  Iov[0].iov_base = Head;
  Iov[0].iov_len = sizeof(Head);
  Iov[1].iov_base = Json;
  Iov[1].iov_len = (size_t)Len;
  C->Out(C->Arg, Iov, 2);
}

struct dftracer_compact *
dftracer_compact_start_with(const struct dftracer_compact_zstd *Zstd,
                            dftracer_compact_out Out, void *Arg) {
  struct dftracer_compact *C = dftracer_pages_alloc(sizeof(*C));
  if (!C)
    return NULL;
  C->Z = *Zstd;
  if (!C->Z.EstimateCCtx || !C->Z.InitStaticCCtx || !C->Z.CompressCCtx ||
      !C->Z.Bound || !C->Z.IsError)
    C->Z.Level = 0;
  C->Out = Out;
  C->Arg = Arg;
  C->StoredCap = DftCompactBlockHeader +
                 (C->Z.Level > 0 ? C->Z.Bound(BlockBytes) : BlockBytes);
  if (!ALLOC_ONE(Raw, BlockBytes) || !ALLOC_ONE(Stored, C->StoredCap) ||
      !ALLOC_ONE(Carry, CarryBytes) ||
      !ALLOC_ONE(Strings, StringSlots * sizeof(struct stringSlot)) ||
      !ALLOC_ONE(Arena, StringArenaBytes) || !ALLOC_ONE(KeySlot, MaxStrings) ||
      !ALLOC_ONE(Threads, MaxThreads * sizeof(struct threadState)) ||
      !ALLOC_ONE(ThreadTable, ThreadSlots * sizeof(uint16_t)) ||
      !ALLOC_ONE(NameCache, NameCacheSlots * sizeof(struct nameSlot)) ||
      !ALLOC_ONE(ShortCache, ShortSlots * sizeof(struct shortSlot))) {
    freeAll(C);
    return NULL;
  }
  if (C->Z.Level > 0) {
    C->CCtxBytes = C->Z.EstimateCCtx(C->Z.Level);
    C->CCtxMem = dftracer_pages_alloc(C->CCtxBytes);
    if (C->CCtxMem)
      C->CCtx = C->Z.InitStaticCCtx(C->CCtxMem, C->CCtxBytes);
  }
  writeHeader(C);
  return C;
}

struct dftracer_compact *dftracer_compact_start_lines(dftracer_compact_out Out,
                                                     void *Arg) {
  struct dftracer_compact *C = dftracer_pages_alloc(sizeof(*C));
  if (!C)
    return NULL;
  C->LinesOnly = 1;
  C->Records = 1;
  C->LinesOut = Out;
  C->LinesArg = Arg;
  if (!ALLOC_ONE(Carry, CarryBytes) || !ALLOC_ONE(Scratch, ScratchBytes) ||
      !ALLOC_ONE(Lines, LinesBytes)) {
    freeAll(C);
    return NULL;
  }
  return C;
}

/* --- Blocks ----------------------------------------------------------------*/

static void flushBlock(struct dftracer_compact *C) {
  uint8_t *H = C->Stored;
  size_t N = 0;
  int Codec = DftCodecNone;
  struct iovec Iov[2];
  int Count = 1;
  if (C->Used == 0)
    return;
  if (C->CCtx) {
    N = C->Z.CompressCCtx(C->CCtx, H + DftCompactBlockHeader,
                       C->StoredCap - DftCompactBlockHeader, C->Raw, C->Used,
                       C->Z.Level);
    if (!C->Z.IsError(N) && N < C->Used)
      Codec = DftCodecZstd;
  }
  memcpy(H, DFT_COMPACT_BLOCK_MAGIC, 4);
  H[4] = (uint8_t)Codec;
  H[5] = H[6] = H[7] = 0;
  dft_put_u32le(H + 8, (uint32_t)C->Used);
  Iov[0].iov_base = H;
  if (Codec == DftCodecZstd) {
    dft_put_u32le(H + 12, (uint32_t)N);
    dft_put_u32le(H + 16, (uint32_t)crc32(0, H + DftCompactBlockHeader,
                                          (uInt)N));
    Iov[0].iov_len = DftCompactBlockHeader + N;
  } else {
    dft_put_u32le(H + 12, (uint32_t)C->Used);
    dft_put_u32le(H + 16, (uint32_t)crc32(0, C->Raw, (uInt)C->Used));
    Iov[0].iov_len = DftCompactBlockHeader;
    Iov[1].iov_base = C->Raw;
    Iov[1].iov_len = C->Used;
    Count = 2;
  }
  C->Out(C->Arg, Iov, Count);
  C->Used = 0;
}

/* Room for Bytes more in the block. */
static uint8_t *room(struct dftracer_compact *C, size_t Bytes) {
  if (C->Used + Bytes > BlockBytes)
    flushBlock(C);
  return C->Raw + C->Used;
}

/* A line as its text, cut into parts when long. */
static void putText(struct dftracer_compact *C, const char *Line, size_t Len) {
  if (C->LinesOnly)
    return; /* the text went out as it came (passText) */
  for (;;) {
    size_t Part = Len > LineRoomMax ? LineRoomMax : Len;
    uint8_t *Q = room(C, Part + 16);
    *Q++ = Part < Len ? DftTagTextPart : DftTagText;
    Q = dft_put_varint(Q, Part);
    memcpy(Q, Line, Part);
    C->Used = (size_t)(Q + Part - C->Raw);
    if (Part == Len)
      return;
    Line += Part;
    Len -= Part;
  }
}

/* --- Tables ----------------------------------------------------------------*/

/* Eight bytes at a time: names, keys and values are short, and every span
 * line hashes several. */
static uint64_t hashBytes(const char *P, size_t Len) {
  uint64_t H = 0x9e3779b97f4a7c15ull ^ Len, W;
  while (Len >= 8) {
    memcpy(&W, P, 8);
    H = (H ^ W) * 0xff51afd7ed558ccdull;
    H ^= H >> 32;
    P += 8;
    Len -= 8;
  }
  W = 0;
  memcpy(&W, P, Len);
  H = (H ^ W) * 0xc4ceb9fe1a85ec53ull;
  return H ^ (H >> 29);
}

/* The index of the string [P, P + Len), defined in the block (at *Q) when
 * new; -1 when the tables are full. */
static int64_t intern(struct dftracer_compact *C, const char *P, size_t Len,
                      uint8_t **Q) {
  uint64_t H = hashBytes(P, Len);
  size_t I = (size_t)H & (StringSlots - 1);
  struct stringSlot *S;
  for (;; I = (I + 1) & (StringSlots - 1)) {
    S = &C->Strings[I];
    if (S->Index == 0)
      break;
    if (S->Hash == H && S->Len == Len && memcmp(C->Arena + S->Off, P, Len) == 0)
      return S->Index - 1;
  }
  if (C->NumStrings >= MaxStrings || C->ArenaUsed + Len > StringArenaBytes)
    return -1;
  memcpy(C->Arena + C->ArenaUsed, P, Len);
  S->Hash = H;
  S->Off = (uint32_t)C->ArenaUsed;
  S->Len = (uint32_t)Len;
  S->Index = ++C->NumStrings;
  C->ArenaUsed += Len;
  *(*Q)++ = DftTagString;
  *Q = dft_put_varint(*Q, Len);
  memcpy(*Q, P, Len);
  *Q += Len;
  return S->Index - 1;
}

/* The index of thread (Pid, Tid), defined at *Q when new; -1 when full. */
static int64_t threadIndex(struct dftracer_compact *C, int64_t Pid,
                           int64_t Tid, uint8_t **Q) {
  size_t I;
  struct threadState *T;
  if (C->LastThread) {
    T = &C->Threads[C->LastThread - 1];
    if (T->Pid == Pid && T->Tid == Tid)
      return C->LastThread - 1;
  }
  I = (size_t)(hashBytes((const char *)&Tid, sizeof(Tid)) ^ (uint64_t)Pid) &
      (ThreadSlots - 1);
  for (;; I = (I + 1) & (ThreadSlots - 1)) {
    uint16_t X = C->ThreadTable[I];
    if (X == 0)
      break;
    T = &C->Threads[X - 1];
    if (T->Pid == Pid && T->Tid == Tid) {
      C->LastThread = X;
      return X - 1;
    }
  }
  if (C->NumThreads >= MaxThreads)
    return -1;
  T = &C->Threads[C->NumThreads];
  memset(T, 0, sizeof(*T));
  T->Pid = Pid;
  T->Tid = Tid;
  C->ThreadTable[I] = (uint16_t)++C->NumThreads;
  C->LastThread = C->NumThreads;
  *(*Q)++ = DftTagThread;
  *Q = dft_put_svarint(*Q, Pid);
  *Q = dft_put_svarint(*Q, Tid);
  return C->NumThreads - 1;
}

/* --- The strict span-line parser -------------------------------------------
 * It accepts exactly what event_format.c writes, so that printing the parts
 * again gives the same bytes: integers without leading zeros or '+', "-0"
 * refused, strings kept as their escaped text. */

static inline __attribute__((always_inline)) const char *
lit(const char *P, const char *End, const char *Lit, size_t N) {
  if (!P || (size_t)(End - P) < N || memcmp(P, Lit, N) != 0)
    return NULL;
  return P + N;
}
#define LIT(P, End, Lit) lit((P), (End), Lit, sizeof(Lit) - 1)

/* Up to 19 digits cannot overflow; 20 are checked. */
static inline const char *parseU64(const char *P, const char *End,
                                   uint64_t *V) {
  uint64_t R;
  const char *Start = P;
  if (!P || P == End || (unsigned)(*P - '0') > 9)
    return NULL;
  if (*P == '0') {
    *V = 0;
    return P + 1 < End && (unsigned)(P[1] - '0') <= 9 ? NULL : P + 1;
  }
  R = (uint64_t)(*P++ - '0');
  while (P < End && (unsigned)(*P - '0') <= 9 && P - Start < 19)
    R = R * 10 + (uint64_t)(*P++ - '0');
  if (P < End && (unsigned)(*P - '0') <= 9) { /* a 20th digit */
    unsigned D = (unsigned)(*P - '0');
    if (R > (UINT64_MAX - D) / 10 || (P + 1 < End && (unsigned)(P[1] - '0') <= 9))
      return NULL;
    R = R * 10 + D;
    ++P;
  }
  *V = R;
  return P;
}

/* Magnitudes up to INT64_MAX either way (INT64_MIN is kept as text). */
static inline const char *parseI64(const char *P, const char *End, int64_t *V) {
  uint64_t M;
  int Neg = P && P < End && *P == '-';
  P = parseU64(Neg ? P + 1 : P, End, &M);
  if (!P || M > (uint64_t)INT64_MAX || (Neg && M == 0))
    return NULL;
  *V = Neg ? -(int64_t)M : (int64_t)M;
  return P;
}

/* Past the string that starts at P ('"'). */
static inline const char *scanString(const char *P, const char *End) {
  if (!P || P == End || *P != '"')
    return NULL;
  for (++P; P < End; ++P) {
    if (*P == '\\')
      ++P;
    else if (*P == '"')
      return P + 1;
  }
  return NULL;
}

/* Past one JSON value of any kind (its text is kept as is). */
static const char *scanValue(const char *P, const char *End) {
  int Depth = 0;
  while (P && P < End) {
    char Ch = *P;
    if (Ch == '"') {
      P = scanString(P, End);
      if (Depth == 0)
        return P;
      continue;
    }
    if (Ch == '{' || Ch == '[')
      ++Depth;
    else if (Ch == '}' || Ch == ']') {
      if (Depth == 0)
        return P;
      if (--Depth == 0)
        return P + 1;
    } else if (Ch == ',' && Depth == 0)
      return P;
    ++P;
  }
  return P && Depth == 0 ? P : NULL; /* ends where the args end */
}

/* A DftArgString with Value NULL has its index in Int already. */
struct parsedArg {
  const char *Key, *Value;
  size_t KeyLen, ValueLen;
  int Kind;
  int64_t Int;
  int64_t KeyIdx; /* the key's string index; -1 until interned */
};

/* A span's fields, from its line or from its record. */
struct spanFields {
  uint64_t Id, Ts, Dur, Level, Parent;
  int64_t Pid, Tid;
  const char *Name, *Cat; /* quoted text; read when the index is -1 */
  size_t NameLen, CatLen;
  int64_t NameIdx, CatIdx;
};

/* The `,"key":value` pairs of [P, End) as event_format.c writes them; their
 * number, or -1 for anything else. */
static int parseArgs(const char *P, const char *End, struct parsedArg *Args) {
  int NArgs = 0;
  while (P < End) {
    struct parsedArg *A;
    const char *After;
    if (*P != ',' || NArgs == MaxArgs)
      return -1;
    A = &Args[NArgs++];
    A->KeyIdx = -1;
    A->Key = P + 1;
    P = scanString(A->Key, End);
    if (!P)
      return -1;
    A->KeyLen = (size_t)(P - A->Key);
    P = LIT(P, End, ":");
    if (!P || P == End)
      return -1;
    A->Value = P;
    if (*P == '"') {
      A->Kind = DftArgString;
      P = scanString(P, End);
    } else if ((After = parseI64(P, End, &A->Int)) != NULL &&
               (After == End || *After == ',')) {
      A->Kind = DftArgInt;
      P = After;
    } else {
      A->Kind = DftArgRaw;
      P = scanValue(P, End);
    }
    if (!P || P == A->Value)
      return -1;
    A->ValueLen = (size_t)(P - A->Value);
  }
  return NArgs;
}

/* intern() for strings of at most 16 bytes, through a small cache. */
static int64_t internShort(struct dftracer_compact *C, const char *P,
                           size_t Len, uint8_t **Q) {
  uint64_t W0 = 0, W1 = 0;
  struct shortSlot *S;
  int64_t Index;
  if (Len > 16)
    return intern(C, P, Len, Q);
  if (Len >= 8) {
    memcpy(&W0, P, 8);
    memcpy(&W1, P + Len - 8, 8);
  } else {
    memcpy(&W0, P, Len);
  }
  S = &C->ShortCache[((W0 ^ (W1 >> 7) ^ Len) * 0x9e3779b97f4a7c15ull) >> 56];
  if (S->Index && S->W0 == W0 && S->W1 == W1 && S->Len == Len)
    return S->Index - 1;
  Index = intern(C, P, Len, Q);
  if (Index >= 0) {
    S->W0 = W0;
    S->W1 = W1;
    S->Len = (uint32_t)Len;
    S->Index = (uint32_t)Index + 1;
  }
  return Index;
}

/* Writes F and its args as a span record; 0 when the tables are full (the
 * caller keeps the span as text). Bound: the span's size as text. */
static int putSpan(struct dftracer_compact *C, struct spanFields *F,
                   struct parsedArg *Args, int NArgs, size_t Bound) {
  int64_t ThreadIdx;
  int I;
  uint8_t *Q, *Start;
  struct threadState *T;
  /* Room for the record and the strings it may define (each shorter than
   * the line). */
  Start = Q = room(C, 2 * Bound + 256);
  ThreadIdx = threadIndex(C, F->Pid, F->Tid, &Q);
  if (ThreadIdx < 0)
    goto asText;
  if (F->NameIdx < 0 &&
      ((F->NameIdx = intern(C, F->Name, F->NameLen, &Q)) < 0 ||
       (F->CatIdx = intern(C, F->Cat, F->CatLen, &Q)) < 0)) {
    F->NameIdx = -1;
    goto asText;
  }
  for (I = 0; I < NArgs; ++I) {
    if (Args[I].KeyIdx < 0 &&
        (Args[I].KeyIdx = internShort(C, Args[I].Key, Args[I].KeyLen, &Q)) < 0)
      goto asText;
    if (Args[I].Kind == DftArgString && Args[I].Value) {
      int64_t V = internShort(C, Args[I].Value, Args[I].ValueLen, &Q);
      if (V < 0)
        goto asText;
      Args[I].Int = V;
    }
  }
  T = &C->Threads[ThreadIdx];
  *Q++ = DftTagSpan;
  Q = dft_put_varint(Q, (uint64_t)ThreadIdx);
  Q = dft_put_svarint(Q, (int64_t)(F->Id - (T->PrevId + 1)));
  Q = dft_put_varint(Q, (uint64_t)F->NameIdx);
  Q = dft_put_varint(Q, (uint64_t)F->CatIdx);
  Q = dft_put_svarint(Q, (int64_t)(F->Ts - T->PrevTs));
  Q = dft_put_varint(Q, F->Dur);
  Q = dft_put_varint(Q, F->Level);
  Q = dft_put_svarint(Q, (int64_t)(F->Parent - T->PrevParent));
  Q = dft_put_varint(Q, (uint64_t)NArgs);
  T->PrevId = F->Id;
  T->PrevTs = F->Ts;
  T->PrevParent = F->Parent;
  for (I = 0; I < NArgs; ++I) {
    struct parsedArg *A = &Args[I];
    Q = dft_put_varint(Q, (uint64_t)A->KeyIdx << 2 | (uint64_t)A->Kind);
    if (A->Kind == DftArgInt) {
      unsigned Slot = C->KeySlot[A->KeyIdx];
      if (Slot == 0 && C->NumKeySlots < DftCompactKeySlots)
        Slot = C->KeySlot[A->KeyIdx] = (uint8_t)++C->NumKeySlots;
      if (Slot) {
        Q = dft_put_svarint(Q, (int64_t)((uint64_t)A->Int - T->Prev[Slot - 1]));
        T->Prev[Slot - 1] = (uint64_t)A->Int;
      } else {
        Q = dft_put_svarint(Q, A->Int);
      }
    } else if (A->Kind == DftArgString) {
      Q = dft_put_varint(Q, (uint64_t)A->Int);
    } else {
      Q = dft_put_varint(Q, A->ValueLen);
      memcpy(Q, A->Value, A->ValueLen);
      Q += A->ValueLen;
    }
  }
  C->Used += (size_t)(Q - Start);
  return 1;
asText:
  /* Keep the definitions written so far (the tables hold them now). */
  C->Used += (size_t)(Q - Start);
  return 0;
}

/* 1 when Line was written as a span; 0 to keep it as text. */
static int encodeSpan(struct dftracer_compact *C, const char *Line,
                      size_t Len) {
  const char *P = Line, *End = Line + Len, *ArgsEnd = End - 2;
  struct spanFields F;
  struct parsedArg Args[MaxArgs];
  int NArgs;

  P = parseU64(LIT(P, End, "{\"id\":"), End, &F.Id);
  F.Name = LIT(P, End, ",\"name\":");
  P = scanString(F.Name, End);
  if (!P)
    return 0;
  F.NameLen = (size_t)(P - F.Name);
  F.Cat = LIT(P, End, ",\"cat\":");
  P = scanString(F.Cat, End);
  if (!P)
    return 0;
  F.CatLen = (size_t)(P - F.Cat);
  P = parseI64(LIT(P, End, ",\"pid\":"), End, &F.Pid);
  P = parseI64(LIT(P, End, ",\"tid\":"), End, &F.Tid);
  P = parseU64(LIT(P, End, ",\"ts\":"), End, &F.Ts);
  P = parseU64(LIT(P, End, ",\"dur\":"), End, &F.Dur);
  P = parseU64(LIT(P, End, ",\"ph\":\"X\",\"args\":{\"level\":"), End,
               &F.Level);
  P = parseU64(LIT(P, End, ",\"p_idx\":"), End, &F.Parent);
  if (!P || F.Pid < INT32_MIN || F.Pid > INT32_MAX || F.Tid < INT32_MIN ||
      F.Tid > INT32_MAX || F.Level > UINT32_MAX || P > ArgsEnd ||
      memcmp(ArgsEnd, "}}", 2) != 0)
    return 0;
  NArgs = parseArgs(P, ArgsEnd, Args);
  if (NArgs < 0)
    return 0;
  F.NameIdx = F.CatIdx = -1;
  return putSpan(C, &F, Args, NArgs, Len);
}

static void encodeLine(struct dftracer_compact *C, const char *Line,
                       size_t Len) {
  if (C->LinesOnly)
    return;
  if (C->TextOnly || Len > LineRoomMax / 2 || !encodeSpan(C, Line, Len))
    putText(C, Line, Len);
}

/* --- Records (event_record.h) -----------------------------------------------*/

/* The record at P, or its length 0 when it is not one. */
static size_t recordLen(const char *P, size_t Have) {
  typedef struct dftracer_span_record R;
  uint32_t Len, NameCatLen, ArgsLen, NIoArgs;
  if (Have < sizeof(R))
    return 0;
  /* Only the four fields read (the record is unaligned). */
  memcpy(&Len, P + offsetof(R, Len), 4);
  memcpy(&NameCatLen, P + offsetof(R, NameCatLen), 4);
  memcpy(&ArgsLen, P + offsetof(R, ArgsLen), 4);
  memcpy(&NIoArgs, P + offsetof(R, NIoArgs), 4);
  if (Len > DftRecordMax || Len < sizeof(R) ||
      (uint64_t)NameCatLen + ArgsLen +
              (uint64_t)NIoArgs * sizeof(struct dftracer_io_arg) !=
          Len - sizeof(R))
    return 0;
  return Len;
}

/* V in decimal through Cache (json_writer.h); small values directly. */
static inline char *putU64Cached(char *Out, uint64_t V,
                                 struct dftracer_digit_cache *Cache) {
  if (V < 10) {
    *Out = (char)('0' + V);
    return Out + 1;
  }
  return dftracer_put_u64_cached(Out, V, Cache);
}

/* V in decimal; one digit without a call. */
static inline char *putU64Small(char *Out, uint64_t V) {
  if (V < 10) {
    *Out = (char)('0' + V);
    return Out + 1;
  }
  return dftracer_put_u64(Out, V);
}

/* The .pfw line of record R, with its '\n': NameCat and Args are its text,
 * IoBytes its N I/O args (event_record.h). The same bytes as
 * dftracer_format_span of the line's pieces with the I/O args as
 * dftracer_put_io_args writes them, but written in one pass, the pid and
 * tid text reused and the integers through digit caches: this runs once
 * per event on the writer thread (issue 40). */
static char *formatLine(struct dftracer_compact *C, char *Out,
                        const struct dftracer_span_record *R,
                        const char *NameCat, const char *Args,
                        const char *IoBytes, uint32_t N) {
  uint32_t I;
  if (R->Pid != C->LinePid || R->Tid != C->LineTid || !C->PidTidLen) {
    C->PidTidLen = (uint32_t)(dftracer_format_pid_tid(C->PidTid, R->Pid,
                                                      R->Tid) -
                              C->PidTid);
    C->LinePid = R->Pid;
    C->LineTid = R->Tid;
  }
  Out = DFTRACER_PUT_LIT(Out, "{\"id\":");
  Out = putU64Cached(Out, R->Id, &C->IdDigits);
  *Out++ = ',';
  Out = dftracer_put_raw(Out, NameCat, R->NameCatLen);
  Out = dftracer_put_raw(Out, C->PidTid, C->PidTidLen);
  Out = DFTRACER_PUT_LIT(Out, "\"ts\":");
  Out = putU64Cached(Out, R->Ts, &C->TsDigits);
  Out = DFTRACER_PUT_LIT(Out, ",\"dur\":");
  Out = putU64Small(Out, R->Dur);
  Out = DFTRACER_PUT_LIT(Out, ",\"ph\":\"X\",\"args\":{\"level\":");
  Out = putU64Small(Out, R->Level);
  Out = DFTRACER_PUT_LIT(Out, ",\"p_idx\":");
  Out = putU64Cached(Out, R->ParentId, &C->IdDigits);
  Out = dftracer_put_raw(Out, Args, R->ArgsLen);
  for (I = 0; I < N; ++I) {
    struct dftracer_io_arg A;
    struct argText *T = &C->ArgTexts[I];
    char *Start = Out;
    memcpy(&A, IoBytes + I * sizeof(A), sizeof(A)); /* unaligned */
    if ((uint64_t)A.Value < 10 && !DFT_IO_ARG_IS_STRING(A)) {
      /* A descriptor, a count, a return value: cheaper written than
       * looked up. */
      *Out++ = ',';
      Out = dftracer_put_raw(Out, A.Key, A.KeyLen);
      *Out++ = (char)('0' + A.Value);
      continue;
    }
    if ((((uintptr_t)T->Key ^ (uintptr_t)A.Key) | (T->KeyLen ^ A.KeyLen) |
         ((uint64_t)T->Value ^ (uint64_t)A.Value)) == 0 &&
        T->Len) {
      /* A fixed-size copy; the excess is overwritten (the line's
       * buffer has room: a record's line is shorter than ScratchBytes). */
      memcpy(Out, T->Text, sizeof(T->Text));
      Out += T->Len;
      continue;
    }
    *Out++ = ',';
    if (DFT_IO_ARG_IS_STRING(A)) {
      const char *Str = (const char *)(intptr_t)A.Value;
      Out = dftracer_put_raw(Out, A.Key, A.KeyLen & ~DftIoArgString);
      *Out++ = '"';
      Out = dftracer_put_raw(Out, Str, strlen(Str));
      *Out++ = '"';
    } else {
      Out = dftracer_put_raw(Out, A.Key, A.KeyLen);
      if (A.Value < 0) {
        *Out++ = '-';
        /* Negated in unsigned arithmetic, as dftracer_put_i64 does. */
        Out = dftracer_put_u64(Out, 0 - (uint64_t)A.Value);
      } else {
        Out = putU64Cached(Out, (uint64_t)A.Value, &C->ArgDigits[I]);
      }
    }
    /* Kept for the next record when it fits (a string's text too: its
     * address is a literal's, the same address the same text). */
    if ((size_t)(Out - Start) <= sizeof(T->Text)) {
      T->Key = A.Key;
      T->KeyLen = A.KeyLen;
      T->Value = A.Value;
      T->Len = (uint32_t)(Out - Start);
      memcpy(T->Text, Start, sizeof(T->Text)); /* past Out: room, as above */
    } else {
      T->Len = 0;
    }
  }
  return DFTRACER_PUT_LIT(Out, "}}\n");
}

/* Both formats: the .pfw text, out when the buffer is full. */
static void flushLines(struct dftracer_compact *C) {
  struct iovec Iov;
  if (!C->LinesUsed)
    return;
  Iov.iov_base = C->Lines;
  Iov.iov_len = C->LinesUsed;
  C->LinesOut(C->LinesArg, &Iov, 1);
  C->LinesUsed = 0;
}
static void passText(struct dftracer_compact *C, const char *Data,
                     size_t Len) {
  while (C->Lines && Len > 0) {
    size_t N = LinesBytes - C->LinesUsed;
    if (N > Len)
      N = Len;
    memcpy(C->Lines + C->LinesUsed, Data, N);
    C->LinesUsed += N;
    Data += N;
    Len -= N;
    if (C->LinesUsed == LinesBytes)
      flushLines(C);
  }
}

/* The name and category of R from the cache (*Hit, its slot), else
 * parsed from its text (*Fill, the slot to fill). 0 when the text is not a
 * NameCat. */
/* memcmp(A, B, Len) == 0 without a call: a NameCat is a few words. */
static inline int sameText(const char *A, const char *B, size_t Len) {
  uint64_t X, Y;
  size_t I;
  if (Len < 8)
    return memcmp(A, B, Len) == 0;
  for (I = 0; I + 8 < Len; I += 8) {
    memcpy(&X, A + I, 8);
    memcpy(&Y, B + I, 8);
    if (X != Y)
      return 0;
  }
  memcpy(&X, A + Len - 8, 8);
  memcpy(&Y, B + Len - 8, 8);
  return X == Y;
}

/* The name cache's slot for R, and whether it holds R's names. */
static inline struct nameSlot *nameSlotOf(struct dftracer_compact *C,
                                          const struct dftracer_span_record *R,
                                          const char *NameCat, int *Same) {
  uintptr_t Key = (uintptr_t)R->Name ^ ((uintptr_t)R->Cat >> 4);
  struct nameSlot *S = &C->NameCache[((Key >> 3) ^ (Key >> 12)) &
                                     (NameCacheSlots - 1)];
  *Same = S->Name == R->Name && S->Cat == R->Cat && S->Len == R->NameCatLen &&
          sameText(S->Text, NameCat, R->NameCatLen);
  return S;
}

static int recordNames(struct dftracer_compact *C,
                       const struct dftracer_span_record *R,
                       const char *NameCat, struct spanFields *F,
                       struct nameSlot **Hit, struct nameSlot **Fill) {
  int Same;
  struct nameSlot *S = nameSlotOf(C, R, NameCat, &Same);
  const char *P, *End = NameCat + R->NameCatLen;
  *Fill = *Hit = NULL;
  if (Same) {
    F->NameIdx = S->NameIdx;
    F->CatIdx = S->CatIdx;
    *Hit = S;
    return 1;
  }
  F->NameIdx = F->CatIdx = -1;
  F->Name = LIT(NameCat, End, "\"name\":");
  P = scanString(F->Name, End);
  F->Cat = LIT(P, End, ",\"cat\":");
  P = scanString(F->Cat, End);
  if (!P || P + 1 != End || *P != ',')
    return 0;
  F->NameLen = (size_t)(F->Cat - 7 - F->Name);
  F->CatLen = (size_t)(P - F->Cat);
  if (R->NameCatLen <= sizeof(S->Text))
    *Fill = S;
  return 1;
}

/* memcmp(A, B, Len) == 0 for the short keys of a shape, without a call:
 * the first and last words of each, overlapping. */
static inline int sameShort(const char *A, const char *B, size_t Len) {
  uint64_t X0, X1, Y0, Y1;
  uint32_t U0, U1, V0, V1;
  if (Len >= 8 && Len <= 16) {
    memcpy(&X0, A, 8);
    memcpy(&Y0, B, 8);
    memcpy(&X1, A + Len - 8, 8);
    memcpy(&Y1, B + Len - 8, 8);
    return ((X0 ^ Y0) | (X1 ^ Y1)) == 0;
  }
  if (Len >= 4 && Len < 8) {
    memcpy(&U0, A, 4);
    memcpy(&V0, B, 4);
    memcpy(&U1, A + Len - 4, 4);
    memcpy(&V1, B + Len - 4, 4);
    return ((U0 ^ V0) | (U1 ^ V1)) == 0;
  }
  if (Len < 4) {
    size_t I;
    for (I = 0; I < Len; ++I)
      if (A[I] != B[I])
        return 0;
    return 1;
  }
  return memcmp(A, B, Len) == 0;
}

/* The args [P, End) as S's shape: their number, or -1 when they differ. */
static int parseShaped(struct nameSlot *S, const char *P, const char *End,
                       struct parsedArg *Args) {
  unsigned I, From = 0;
  for (I = 0; I < S->NKeys; ++I) {
    size_t Len = S->KeyEnd[I] - From, V = S->ValLen[I];
    const char *After;
    if ((size_t)(End - P) < Len || !sameShort(P, S->Keys + From, Len))
      return -1;
    P += Len;
    /* The same digits as last time, up to the next arg: the same value. */
    if (V && (size_t)(End - P) >= V && (P + V == End || P[V] == ',') &&
        sameShort(P, S->Val[I], V)) {
      Args[I].Int = S->ValInt[I];
      After = P + V;
    } else {
      After = parseI64(P, End, &Args[I].Int);
      if (!After || (After != End && *After != ','))
        return -1;
      S->ValLen[I] = (uint8_t)(After - P);
      memcpy(S->Val[I], P, (size_t)(After - P));
      S->ValInt[I] = Args[I].Int;
    }
    Args[I].Kind = DftArgInt;
    Args[I].KeyIdx = S->KeyIdx[I];
    P = After;
    From = S->KeyEnd[I];
  }
  return P == End ? (int)S->NKeys : -1;
}

/* Keep the shape of Args (parsed and interned) in S, if it has one. */
static void noteShape(struct nameSlot *S, const struct parsedArg *Args,
                      int NArgs) {
  unsigned I, At = 0;
  S->NKeys = 0;
  if (NArgs > ShapeKeys)
    return;
  for (I = 0; I < (unsigned)NArgs; ++I) {
    size_t Len = Args[I].KeyLen + 2; /* `,"key":` */
    if (Args[I].Kind != DftArgInt || At + Len > ShapeText)
      return;
    memcpy(S->Keys + At, Args[I].Key - 1, Len);
    At += (unsigned)Len;
    S->KeyEnd[I] = (uint8_t)At;
    S->KeyIdx[I] = (uint32_t)Args[I].KeyIdx;
    S->ValLen[I] = 0;
  }
  S->NKeys = (unsigned)NArgs;
}

/* The slot of literal Ptr (io_args.h). */
static struct literalSlot *literalSlot(struct dftracer_compact *C,
                                       const char *Ptr) {
  uintptr_t K = (uintptr_t)Ptr;
  return &C->Literals[((K >> 3) ^ (K >> 12)) & (LiteralSlots - 1)];
}

/* The index of literal [Ptr, Ptr + Len) when known, else -1. */
static int64_t literalIndex(struct dftracer_compact *C, const char *Ptr,
                            size_t Len) {
  struct literalSlot *S = literalSlot(C, Ptr);
  return S->Index && S->Ptr == Ptr && S->Len == Len ? (int64_t)S->Index - 1
                                                    : -1;
}

static void rememberLiteral(struct dftracer_compact *C, const char *Ptr,
                            size_t Len, int64_t Index) {
  struct literalSlot *S = literalSlot(C, Ptr);
  S->Ptr = Ptr;
  S->Len = (uint32_t)Len;
  S->Index = (uint32_t)Index + 1;
}

/* The I/O args Io[0, N) of a record (event_record.h) as parsed args:
 * keys from the name's shape (Shape, NULL: none) when their addresses are
 * its, else by address from the literal cache, else their text to intern;
 * strings likewise (quoted in Quoted). *Misses: how many were interned.
 * Returns -1 when one cannot be taken (a string longer than LiteralMax:
 * the record is then kept as text), 1 when the keys were Shape's, else 0. */
static int takeIoArgs(struct dftracer_compact *C,
                      const struct dftracer_io_arg *Io, uint32_t N,
                      struct parsedArg *Args, char (*Quoted)[LiteralMax],
                      const struct nameSlot *Shape, unsigned *Misses) {
  uint32_t I;
  int Same = Shape && Shape->NIoKeys == N;
  for (I = 0; I < N; ++I) {
    struct parsedArg *A = &Args[I];
    size_t KeyLen = Io[I].KeyLen & ~DftIoArgString;
    if (KeyLen < 3)
      return -1;
    A->Key = Io[I].Key;
    A->KeyLen = KeyLen - 1; /* `"key"`, as a line's parse gives it */
    if (Same && Shape->IoKey[I] == Io[I].Key &&
        Shape->IoKeyLen[I] == Io[I].KeyLen) {
      A->KeyIdx = Shape->IoKeyIdx[I];
    } else {
      Same = 0;
      if ((A->KeyIdx = literalIndex(C, Io[I].Key, KeyLen)) < 0)
        ++*Misses;
    }
    if (DFT_IO_ARG_IS_STRING(Io[I])) {
      const char *Str = (const char *)(intptr_t)Io[I].Value;
      size_t Len = strlen(Str);
      A->Kind = DftArgString;
      A->Value = NULL;
      if ((A->Int = literalIndex(C, Str, Len)) < 0) {
        if (Len + 2 > LiteralMax)
          return -1;
        Quoted[I][0] = '"';
        memcpy(Quoted[I] + 1, Str, Len);
        Quoted[I][Len + 1] = '"';
        A->Value = Quoted[I];
        A->ValueLen = Len + 2;
        ++*Misses;
      }
    } else if (Io[I].Value == INT64_MIN) {
      /* Kept as text, as parseI64 keeps it. */
      A->Kind = DftArgRaw;
      A->Value = "-9223372036854775808";
      A->ValueLen = 20;
    } else {
      A->Kind = DftArgInt;
      A->Int = Io[I].Value;
    }
  }
  return Same;
}

/* After the record's span went out: the literals it interned, by address. */
static void rememberIoArgs(struct dftracer_compact *C,
                           const struct dftracer_io_arg *Io, uint32_t N,
                           const struct parsedArg *Args) {
  uint32_t I;
  for (I = 0; I < N; ++I) {
    size_t KeyLen = Io[I].KeyLen & ~DftIoArgString;
    if (literalIndex(C, Io[I].Key, KeyLen) < 0)
      rememberLiteral(C, Io[I].Key, KeyLen, Args[I].KeyIdx);
    if (DFT_IO_ARG_IS_STRING(Io[I]) && Args[I].Value) {
      const char *Str = (const char *)(intptr_t)Io[I].Value;
      rememberLiteral(C, Str, Args[I].ValueLen - 2, Args[I].Int);
    }
  }
}

/* Keep the keys of Io (taken as Args) as S's I/O shape. */
static void noteIoShape(struct dftracer_compact *C, struct nameSlot *S,
                        const struct dftracer_io_arg *Io,
                        uint32_t N, const struct parsedArg *Args) {
  uint32_t I;
  S->NIoKeys = 0;
  if (N > IoShapeKeys)
    return;
  for (I = 0; I < N; ++I) {
    S->IoKey[I] = Io[I].Key;
    S->IoKeyLen[I] = Io[I].KeyLen;
    S->IoKeyIdx[I] = (uint32_t)Args[I].KeyIdx;
    S->IoStr[I] = DFT_IO_ARG_IS_STRING(Io[I])
                      ? (const char *)(intptr_t)Io[I].Value
                      : NULL;
    S->IoStrIdx[I] = (uint32_t)Args[I].Int; /* a string's index */
    S->IoSlot[I] = DFT_IO_ARG_IS_STRING(Io[I]) || Args[I].KeyIdx < 0
                       ? 0
                       : C->KeySlot[Args[I].KeyIdx];
    {
      uint8_t *Q = S->IoTag[I];
      if (S->IoStr[I]) {
        Q = dft_put_varint(Q, (uint64_t)Args[I].KeyIdx << 2 | DftArgString);
        Q = dft_put_varint(Q, S->IoStrIdx[I]);
      } else {
        Q = dft_put_varint(Q, (uint64_t)Args[I].KeyIdx << 2 | DftArgInt);
      }
      S->IoTagLen[I] = (uint8_t)(Q - S->IoTag[I]);
    }
  }
  S->NIoKeys = N;
}

/* An I/O record (no text args) whose name S holds and whose I/O args
 * have S's keys and string values: the span putSpan would write, written
 * from S without taking the args apart (issue 40: most records are
 * these). 0, having written nothing but maybe its thread's definition,
 * when the record is not such: the caller then encodes it in full. */
static int encodeIoShaped(struct dftracer_compact *C,
                          const struct dftracer_span_record *R,
                          const char *IoBytes, uint32_t N,
                          const struct nameSlot *S) {
  typedef struct dftracer_io_arg Arg;
  uint64_t Old[IoShapeKeys];
  uint32_t I;
  int64_t ThreadIdx;
  uint8_t *Q, *Start;
  struct threadState *T;
  if (S->NIoKeys != N)
    return 0;
  /* As putSpan: the same room, so blocks end where they would. */
  Start = Q = room(C, 2 * (R->Len + N * LiteralMax) + 256);
  T = C->LastThread ? &C->Threads[C->LastThread - 1] : NULL;
  if (T && T->Pid == R->Pid && T->Tid == R->Tid) {
    ThreadIdx = C->LastThread - 1; /* threadIndex's first test, inline */
  } else {
    ThreadIdx = threadIndex(C, R->Pid, R->Tid, &Q);
    C->Used += (size_t)(Q - Start);
    if (ThreadIdx < 0)
      return 0;
    Start = Q;
    T = &C->Threads[ThreadIdx];
  }
  /* The span is written past C->Used and counts only once it is whole:
   * until then the block does not hold it. */
  *Q++ = DftTagSpan;
  Q = dft_put_varint(Q, (uint64_t)ThreadIdx);
  Q = dft_put_svarint(Q, (int64_t)(R->Id - (T->PrevId + 1)));
  memcpy(Q, S->NameTag, 8); /* the block has room past the span */
  Q += S->NameTagLen;
  Q = dft_put_svarint(Q, (int64_t)(R->Ts - T->PrevTs));
  Q = dft_put_varint(Q, R->Dur);
  Q = dft_put_varint(Q, R->Level);
  Q = dft_put_svarint(Q, (int64_t)(R->ParentId - T->PrevParent));
  Q = dft_put_varint(Q, N);
  /* The args, each checked against S as it is written (field by field:
   * the array is unaligned): S's key, S's string, an integer that putSpan
   * would write the same way. */
  for (I = 0; I < N; ++I) {
    const char *P = IoBytes + I * sizeof(Arg), *Key;
    size_t KeyLen;
    int64_t Value;
    unsigned Slot;
    memcpy(&Key, P + offsetof(Arg, Key), sizeof(Key));
    memcpy(&KeyLen, P + offsetof(Arg, KeyLen), sizeof(KeyLen));
    memcpy(&Value, P + offsetof(Arg, Value), sizeof(Value));
    if (Key != S->IoKey[I] || KeyLen != S->IoKeyLen[I])
      goto differs;
    memcpy(Q, S->IoTag[I], 8); /* the key (a string's index after it) */
    Q += S->IoTagLen[I];
    if (KeyLen & DftIoArgString) {
      if ((const char *)(intptr_t)Value != S->IoStr[I])
        goto differs;
      continue;
    }
    if (Value == INT64_MIN)
      goto differs; /* putSpan keeps it as text */
    if ((Slot = S->IoSlot[I]) != 0) {
      Old[I] = T->Prev[Slot - 1];
      Q = dft_put_svarint(Q, (int64_t)((uint64_t)Value - Old[I]));
      T->Prev[Slot - 1] = (uint64_t)Value;
    } else if (C->KeySlot[S->IoKeyIdx[I]] ||
               C->NumKeySlots < DftCompactKeySlots) {
      goto differs; /* it has a slot since, or putSpan gives it one now */
    } else {
      Q = dft_put_svarint(Q, Value);
    }
  }
  T->PrevId = R->Id;
  T->PrevTs = R->Ts;
  T->PrevParent = R->ParentId;
  C->Used += (size_t)(Q - Start);
  return 1;
differs:
  /* The deltas taken so far undone, last first (a key twice in the args
   * gets back its first old value). */
  while (I-- > 0)
    if (!(S->IoKeyLen[I] & DftIoArgString) && S->IoSlot[I])
      T->Prev[S->IoSlot[I] - 1] = Old[I];
  return 0;
}

/* A record any other way: its args taken apart (text and I/O args), or
 * kept as its line's text. */
static __attribute__((noinline)) void
encodeRecordFull(struct dftracer_compact *C,
                             const struct dftracer_span_record *Rec,
                             const char *NameCat, const char *ArgText,
                             const char *IoBytes, uint32_t NIo) {
  struct dftracer_span_record R = *Rec;
  struct spanFields F;
  struct parsedArg Args[MaxArgs];
  struct dftracer_io_arg Io[DftIoArgsMax + 1];
  char Quoted[DftIoArgsMax + 1][LiteralMax];
  struct nameSlot *Hit, *Fill;
  int Shaped = 0;
  char *Line;
  int NArgs = -1;
  uint32_t I;
  unsigned Misses = 0;
  for (I = 0; I < NIo; ++I) /* a fixed size each: moves, not a call */
    memcpy(&Io[I], IoBytes + I * sizeof(Io[0]), sizeof(Io[0]));
  if (!C->TextOnly && recordNames(C, &R, NameCat, &F, &Hit, &Fill)) {
    if (NIo) {
      NArgs = R.ArgsLen ? parseArgs(ArgText, ArgText + R.ArgsLen, Args) : 0;
      if (NArgs < 0 || NArgs + (int)NIo > MaxArgs ||
          takeIoArgs(C, Io, NIo, Args + NArgs, Quoted, Hit, &Misses) < 0)
        NArgs = -1;
      else
        NArgs += (int)NIo;
    } else if (Hit && Hit->NKeys &&
               (NArgs = parseShaped(Hit, ArgText, ArgText + R.ArgsLen,
                                    Args)) >= 0) {
      Shaped = 1;
    } else {
      NArgs = parseArgs(ArgText, ArgText + R.ArgsLen, Args);
    }
  }
  if (NArgs >= 0) {
    F.Id = R.Id;
    F.Parent = R.ParentId;
    F.Ts = R.Ts;
    F.Dur = R.Dur;
    F.Level = R.Level;
    F.Pid = R.Pid;
    F.Tid = R.Tid;
    if (putSpan(C, &F, Args, NArgs, R.Len + NIo * LiteralMax)) {
      if (Misses)
        rememberIoArgs(C, Io, NIo, Args + (NArgs - (int)NIo));
      if (Fill) {
        Fill->Name = R.Name;
        Fill->Cat = R.Cat;
        Fill->NameIdx = F.NameIdx;
        Fill->CatIdx = F.CatIdx;
        Fill->NameTagLen =
            (uint8_t)(dft_put_varint(dft_put_varint(Fill->NameTag,
                                                    (uint64_t)F.NameIdx),
                                     (uint64_t)F.CatIdx) -
                      Fill->NameTag);
        Fill->Len = R.NameCatLen;
        Fill->NKeys = 0;
        Fill->NIoKeys = 0;
        memcpy(Fill->Text, NameCat, R.NameCatLen);
        Hit = Fill;
      }
      /* The I/O shape again when only its strings changed: the next
       * record of the name will most likely have these. */
      if (Hit && NIo)
        noteIoShape(C, Hit, Io, NIo, Args + (NArgs - (int)NIo));
      else if (Hit && !Shaped && !NIo)
        noteShape(Hit, Args, NArgs);
      return;
    }
  }
  /* Kept as its line's text, as a line that does not parse would be. */
  Line = C->Scratch;
  putText(C, Line,
          (size_t)(formatLine(C, Line, &R, NameCat, ArgText, IoBytes, NIo) -
                   Line) -
              1);
}

static void encodeRecord(struct dftracer_compact *C, const char *P) {
  struct dftracer_span_record R;
  const char *NameCat, *ArgText, *IoBytes;
  struct nameSlot *S;
  uint32_t NIo;
  int Same;
  memcpy(&R, P, sizeof(R));
  NameCat = P + sizeof(R);
  ArgText = NameCat + R.NameCatLen;
  IoBytes = ArgText + R.ArgsLen;
  /* The runtime writes at most an fhash and DftIoArgsMax I/O args. */
  NIo = R.NIoArgs <= IoShapeKeys ? R.NIoArgs : IoShapeKeys;
  if (C->Lines) {
    if (LinesBytes - C->LinesUsed < ScratchBytes)
      flushLines(C);
    C->LinesUsed = (size_t)(formatLine(C, C->Lines + C->LinesUsed, &R,
                                       NameCat, ArgText, IoBytes, NIo) -
                            C->Lines);
    if (C->LinesOnly)
      return;
  }
  if (!C->TextOnly && NIo && !R.ArgsLen) {
    S = nameSlotOf(C, &R, NameCat, &Same);
    if (Same && encodeIoShaped(C, &R, IoBytes, NIo, S))
      return;
  }
  encodeRecordFull(C, &R, NameCat, ArgText, IoBytes, NIo);
}

/* --- Input -----------------------------------------------------------------*/

/* The bytes of a line that does not end here, as text parts. */
static void putParts(struct dftracer_compact *C, const char *Data, size_t Len) {
  while (!C->LinesOnly && Len > 0) {
    size_t N = Len > LineRoomMax ? LineRoomMax : Len;
    uint8_t *Q = room(C, N + 16);
    *Q++ = DftTagTextPart;
    Q = dft_put_varint(Q, N);
    memcpy(Q, Data, N);
    C->Used = (size_t)(Q + N - C->Raw);
    Data += N;
    Len -= N;
  }
}

/* A record cut between two pieces of input: its bytes gather in the carry
 * (a record is never longer than it, event_record.h). Returns the bytes of
 * Data taken. */
static size_t carryRecord(struct dftracer_compact *C, const char *Data,
                          size_t Len) {
  size_t Want = C->CarryLen < sizeof(struct dftracer_span_record)
                    ? sizeof(struct dftracer_span_record)
                    : recordLen(C->Carry, C->CarryLen);
  size_t Take;
  if (Want == 0) { /* not a record after all: text, as any broken line */
    putParts(C, C->Carry, C->CarryLen);
    C->CarryLen = 0;
    C->InParts = 1;
    return 0;
  }
  Take = Want - C->CarryLen < Len ? Want - C->CarryLen : Len;
  memcpy(C->Carry + C->CarryLen, Data, Take);
  C->CarryLen += Take;
  if (C->CarryLen >= sizeof(struct dftracer_span_record) &&
      recordLen(C->Carry, C->CarryLen) == C->CarryLen) {
    encodeRecord(C, C->Carry);
    C->CarryLen = 0;
  }
  return Take;
}

static void feed(struct dftracer_compact *C, const char *Data, size_t Len) {
  const char *End = Data + Len;
  while (Data < End) {
    const char *Nl;
    size_t Part;
    if (C->Records && !C->InParts &&
        (C->CarryLen ? (uint8_t)C->Carry[0] : (uint8_t)*Data) ==
            DftRecordMarker) {
      size_t N;
      if (!C->CarryLen &&
          (N = recordLen(Data, (size_t)(End - Data))) != 0 &&
          N <= (size_t)(End - Data)) {
        encodeRecord(C, Data);
        Data += N;
      } else {
        Data += carryRecord(C, Data, (size_t)(End - Data));
      }
      continue;
    }
    Nl = memchr(Data, '\n', (size_t)(End - Data));
    Part = (size_t)((Nl ? Nl : End) - Data);
    if (C->InParts) { /* the line's start went out as parts already */
      passText(C, Data, Nl ? Part + 1 : Part);
      if (!Nl) {
        putParts(C, Data, Part);
        return;
      }
      putText(C, Data, Part);
      C->InParts = 0;
    } else if (C->CarryLen + Part > CarryBytes) {
      /* A very long line: kept as text, its start out as parts. */
      putParts(C, C->Carry, C->CarryLen);
      C->CarryLen = 0;
      C->InParts = 1;
      continue;
    } else if (!Nl) {
      passText(C, Data, Part);
      memcpy(C->Carry + C->CarryLen, Data, Part);
      C->CarryLen += Part;
      return;
    } else if (C->CarryLen) {
      passText(C, Data, Part + 1);
      memcpy(C->Carry + C->CarryLen, Data, Part);
      encodeLine(C, C->Carry, C->CarryLen + Part);
      C->CarryLen = 0;
    } else {
      passText(C, Data, Part + 1);
      encodeLine(C, Data, Part);
    }
    Data = Nl + 1;
  }
}

void dftracer_compact_feed(struct dftracer_compact *C, const char *Data,
                           size_t Len) {
  C->Consumed += Len;
  feed(C, Data, Len);
  if (C->Lines)
    flushLines(C);
}

int dftracer_compact_take_records(struct dftracer_compact *C,
                                  dftracer_compact_out LinesOut,
                                  void *LinesArg) {
  if (!ALLOC_ONE(Scratch, ScratchBytes) ||
      !ALLOC_ONE(Literals, LiteralSlots * sizeof(struct literalSlot)))
    return -1;
  if (LinesOut && !ALLOC_ONE(Lines, LinesBytes))
    return -1;
  C->Records = 1;
  C->LinesOut = LinesOut;
  C->LinesArg = LinesArg;
  return 0;
}

void dftracer_compact_text_only(struct dftracer_compact *C) {
  if (!C)
    return;
  C->Used = 0;
  C->CarryLen = 0;
  C->InParts = 0;
  C->TextOnly = 1;
}

void dftracer_compact_drop_partial(struct dftracer_compact *C) {
  if (!C)
    return;
  C->CarryLen = 0;
  C->InParts = 0;
}

uint64_t dftracer_compact_consumed(const struct dftracer_compact *C) {
  return C ? C->Consumed : 0;
}

void dftracer_compact_finish(struct dftracer_compact *C) {
  if (!C)
    return;
  /* A last line without its end (never from the runtime) stays parts
   * that no text record finishes, which readers report. */
  if (!C->Records || !C->CarryLen || (uint8_t)C->Carry[0] != DftRecordMarker)
    putParts(C, C->Carry, C->CarryLen);
  flushBlock(C);
  freeAll(C);
}

void dftracer_compact_abandon(struct dftracer_compact *C) {
  (void)C; /* the parent's: its pages are left as they are */
}
