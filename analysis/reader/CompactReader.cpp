//===- CompactReader.cpp - The records of a compact (.pfc) trace ----------===//

#include "CompactReader.h"

#include "EventParser.h"

extern "C" {
#include "compact_format.h"
#include "event_format.h"
#include "json_writer.h"
}

#include <libdeflate.h>
#include <zstd.h>

#if defined(__x86_64__) || defined(__SSE2__)
#include <immintrin.h>
#endif

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace dftrace {

struct CompactReader::Thread {
  int64_t Pid = 0, Tid = 0;
  uint64_t PrevId = 0, PrevTs = 0, PrevParent = 0;
  unsigned PidTidDigits = 0; // of Pid and Tid in the .pfw line
  uint64_t Prev[DftCompactKeySlots] = {};
};

struct CompactReader::Zstd {
  ZSTD_DCtx *D = ZSTD_createDCtx();
  ~Zstd() { ZSTD_freeDCtx(D); }
};

CompactReader::CompactReader(std::string Path)
    : Path(std::move(Path)), Z(std::make_unique<Zstd>()) {}

CompactReader::~CompactReader() {
  if (Fd >= 0)
    ::close(Fd);
}

bool CompactReader::sniff(const std::string &Path) {
  int F = ::open(Path.c_str(), O_RDONLY | O_CLOEXEC);
  if (F < 0)
    return false;
  char Head[DftCompactMagicLen];
  ssize_t N = ::read(F, Head, sizeof(Head));
  ::close(F);
  return N == DftCompactMagicLen &&
         std::memcmp(Head, DFT_COMPACT_MAGIC, DftCompactMagicLen) == 0;
}

bool CompactReader::isCompactHead(const char *Data, size_t Size) {
  return Size >= DftCompactMagicLen &&
         std::memcmp(Data, DFT_COMPACT_MAGIC, DftCompactMagicLen) == 0;
}

bool CompactReader::readExact(void *To, size_t N, size_t &Got) {
  Got = 0;
  while (Got < N) {
    ssize_t R = ::read(Fd, static_cast<char *>(To) + Got, N - Got);
    if (R < 0 && errno == EINTR)
      continue;
    if (R < 0) {
      Error = std::string("read error: ") + std::strerror(errno);
      return false;
    }
    if (R == 0)
      break;
    Got += static_cast<size_t>(R);
  }
  FileOffset += Got;
  return true;
}

// What the file holds past FileOffset now (a pipe has no size: no bound).
uint64_t CompactReader::bytesLeft() const {
  struct stat St;
  if (::fstat(Fd, &St) != 0 || !S_ISREG(St.st_mode))
    return UINT64_MAX;
  uint64_t Size = static_cast<uint64_t>(St.st_size);
  return Size > FileOffset ? Size - FileOffset : 0;
}

bool CompactReader::fail(const std::string &Why) {
  Error = Why;
  AtEnd = true;
  return false;
}

bool CompactReader::open(std::string &OpenError) {
  Fd = ::open(Path.c_str(), O_RDONLY | O_CLOEXEC);
  if (Fd < 0) {
    OpenError = std::string("cannot open: ") + std::strerror(errno);
    return false;
  }
  uint8_t Head[DftCompactMagicLen + 4];
  size_t Got;
  if (!readExact(Head, sizeof(Head), Got) || Got < sizeof(Head) ||
      std::memcmp(Head, DFT_COMPACT_MAGIC, DftCompactMagicLen) != 0) {
    OpenError = "not a compact trace (no header)";
    return false;
  }
  uint32_t Len = dft_get_u32le(Head + DftCompactMagicLen);
  if (Len > (1u << 20) || Len > bytesLeft()) {
    OpenError = "compact trace header is truncated";
    return false;
  }
  std::string Json(Len, '\0');
  if (!readExact(Json.data(), Len, Got) || Got < Len) {
    OpenError = "compact trace header is truncated";
    return false;
  }
  // {"format":"dftracer-compact","version":N,...}: only the version
  // decides whether this reader can read it.
  size_t V = Json.find("\"version\":");
  if (V == std::string::npos ||
      std::strtol(Json.c_str() + V + 10, nullptr, 10) != DftCompactVersion) {
    OpenError = "compact trace version not supported by this reader: " + Json;
    return false;
  }
  return true;
}

namespace {

/// crc32(0, Data, Len), as zlib computes it (the writer's checksum), by
/// libdeflate, which folds with carry-less multiplication where the
/// processor has it: zlib's tables cost 4 instructions a byte, a tenth of
/// the reader's own work.
uint32_t blockCrc(const uint8_t *Data, size_t Len) {
  return libdeflate_crc32(0, Data, Len);
}

} // namespace

bool CompactReader::readBlock() {
  uint8_t H[DftCompactBlockHeader];
  size_t Got;
  BlockOffset = FileOffset;
  if (!readExact(H, sizeof(H), Got))
    return fail(Error);
  if (Got == 0) {
    AtEnd = true;
    return false;
  }
  std::string At = "block at byte " + std::to_string(BlockOffset);
  if (Got < sizeof(H))
    return fail(At + " is truncated (" + std::to_string(Got) + " of " +
                std::to_string(sizeof(H)) +
                " header bytes): its events are lost");
  if (std::memcmp(H, DFT_COMPACT_BLOCK_MAGIC, 4) != 0)
    return fail(At + " has no block magic: the rest of the file is lost");
  uint32_t RawLen = dft_get_u32le(H + 8), StoredLen = dft_get_u32le(H + 12);
  uint32_t Crc = dft_get_u32le(H + 16);
  // A length from the file is only trusted as far as the file goes: a
  // damaged header must not make the reader allocate gigabytes.
  uint64_t Left = bytesLeft();
  if (StoredLen <= Left) {
    Stored.resize(StoredLen);
    if (!readExact(Stored.data(), StoredLen, Got))
      return fail(Error);
  } else { // what a read would have got, without its buffer
    Got = static_cast<size_t>(Left);
    FileOffset += Left;
  }
  if (Got < StoredLen)
    return fail(At + " is truncated (" + std::to_string(Got) + " of " +
                std::to_string(StoredLen) +
                " bytes; the writer was killed?): its events are lost");
  if (blockCrc(Stored.data(), StoredLen) != Crc)
    return fail(At + " is corrupt (checksum mismatch): the rest of the file "
                     "is lost");
  if (H[4] == DftCodecNone) {
    Raw.swap(Stored);
  } else if (H[4] == DftCodecZstd) {
    // The frame says its own size: a RawLen that disagrees is damage, found
    // before it is allocated.
    if (ZSTD_getFrameContentSize(Stored.data(), StoredLen) != RawLen)
      return fail(At + " does not decompress: the rest of the file is lost");
    Raw.resize(RawLen);
    size_t N = ZSTD_decompressDCtx(Z->D, Raw.data(), RawLen, Stored.data(),
                                   StoredLen);
    if (ZSTD_isError(N) || N != RawLen)
      return fail(At + " does not decompress: the rest of the file is lost");
  } else {
    return fail(At + " has unknown codec " + std::to_string(H[4]));
  }
  if (Raw.size() != RawLen)
    return fail(At + " has the wrong length");
  Raw.resize(RawLen + Padding);
  std::memset(Raw.data() + RawLen, 0, Padding);
  P = Raw.data();
  End = P + RawLen;
  return true;
}

namespace {

/// A varint as dft_get_varint reads it (LEB128, at most 10 bytes), for a
/// buffer with at least 16 bytes readable past P: one byte is one branch;
/// two to eight bytes are read as one word, their 7-bit groups put
/// together by three shifts, without a branch per byte. False past 10
/// bytes. The caller checks that P did not pass the data's end.
inline bool fastVarint(const uint8_t *&P, uint64_t &V) {
  uint64_t B = P[0];
  if (B < 0x80) {
    V = B;
    ++P;
    return true;
  }
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  uint64_t W;
  std::memcpy(&W, P, 8);
  uint64_t Stops = ~W & 0x8080808080808080ull; // bytes without a next one
  if (Stops) {
    unsigned Len = (unsigned(__builtin_ctzll(Stops)) >> 3) + 1; // 2..8
    // The bytes up to the first stop: the bits up to its own (Stops ^
    // (Stops - 1)), less the continuation bits.
    uint64_t X = W & (Stops ^ (Stops - 1)) & 0x7f7f7f7f7f7f7f7full;
    X = ((X & 0x7f007f007f007f00ull) >> 1) | (X & 0x007f007f007f007full);
    X = ((X & 0x3fff00003fff0000ull) >> 2) | (X & 0x00003fff00003fffull);
    X = ((X & 0x0fffffff00000000ull) >> 4) | (X & 0x000000000fffffffull);
    V = X;
    P += Len;
    return true;
  }
#endif
  uint64_t R = 0;
  for (unsigned I = 0; I < 10; ++I) {
    B = P[I];
    R |= (B & 0x7f) << (7 * I);
    if (B < 0x80) {
      V = R;
      P += I + 1;
      return true;
    }
  }
  return false;
}

/// Decimal digits of V, without dividing: by its count of leading zero
/// bits, the digits of the largest value with that bit length, less one
/// when V is below the power of ten that length reaches (a division per
/// digit was a third of the compact reader's own time; the power of ten
/// found by a multiplication, a tenth).
size_t digitsU(uint64_t V) {
  struct Row {
    uint8_t Digits;     // of 2^(64 - Lz) - 1
    uint64_t Threshold; // below it, one digit less (0: never)
  };
  static constexpr auto Table = [] {
    struct {
      Row R[64];
    } T{};
    for (int Lz = 0; Lz < 64; ++Lz) {
      uint64_t Max = ~0ull >> Lz, Pow = 1;
      uint8_t D = 1;
      while (Max / Pow >= 10) {
        Pow *= 10;
        ++D;
      }
      uint64_t Min = Lz == 63 ? 1 : uint64_t(1) << (63 - Lz); // 0 has a digit
      T.R[Lz] = {D, Min < Pow ? Pow : 0};
    }
    return T;
  }();
  const Row &R = Table.R[__builtin_clzll(V | 1)];
  return R.Digits - (V < R.Threshold);
}

size_t digitsI(int64_t V) {
  return V < 0 ? 1 + digitsU(0 - static_cast<uint64_t>(V))
               : digitsU(static_cast<uint64_t>(V));
}

/// As simdjson reads an integer.
void setInt(Field &F, int64_t V) {
  F.K = Field::Int;
  F.I = V;
  F.U = V >= 0 ? static_cast<uint64_t>(V) : 0;
  F.D = static_cast<double>(V);
}

/// As simdjson reads an unsigned integer: Int when it fits.
void setU64(Field &F, uint64_t V) {
  if (V <= uint64_t(INT64_MAX)) {
    F.K = Field::Int;
    F.I = static_cast<int64_t>(V);
    F.U = V;
    F.D = static_cast<double>(static_cast<int64_t>(V));
    return;
  }
  F.K = Field::UInt;
  F.U = V;
  F.I = INT64_MAX;
  F.D = static_cast<double>(V);
}

void setString(Field &F, std::string_view S) {
  F.K = Field::String;
  F.S = S;
}

} // namespace

int64_t CompactReader::threadPid(uint32_t I) const { return Threads[I].Pid; }

// The table's next string, S as written (escaped, quoted), and what it
// means as a name, category or args key.
void CompactReader::defineString(std::string_view S) {
  const std::string &Raw = Strings.emplace_back(S);
  ++NumStrings;
  StringUse U;
  std::string Plain;
  U.RawSize = uint32_t(Raw.size());
  U.Ok = unescapeJsonString(Raw, Plain);
  if (U.Ok && Plain == std::string_view(Raw).substr(1, Raw.size() - 2)) {
    U.Plain = std::string_view(Raw).substr(1, Raw.size() - 2); // stable
  } else {
    U.Plain = Unescaped.emplace_back(std::move(Plain));
  }
  Event Dummy;
  if (!U.Ok || U.Plain == "cfg") {
    U.Offset = StringUse::AsText;
  } else if (Field *F = eventArgField(Dummy, U.Plain)) {
    U.Offset =
        int16_t(reinterpret_cast<char *>(F) - reinterpret_cast<char *>(&Dummy));
    U.Hash = F == &Dummy.FHash || F == &Dummy.DHash;
    if (F == &Dummy.Count || F == &Dummy.Size || F == &Dummy.Bytes ||
        F == &Dummy.Length || F == &Dummy.FHash)
      U.Check = NeedsUnsigned;
    else if (F == &Dummy.Level || F == &Dummy.ParentIdx)
      U.Check = Again;
  }
  U.L = layerOfCategory(U.Plain);
  U.Tracer = U.Plain == "dftracer";
  U.Reject = U.Tracer              ? uint8_t(Again)
             : U.L == Layer::Other ? uint8_t(NotAnIoLayer)
             : isIoLayer(U.L)      ? uint8_t(Again | NeedsUnsigned)
                                   : uint8_t(Again);
  Uses.push_back(U);
}

// A span's ids and time from its 9 header varints V (docs/trace-format.md):
// the deltas applied to thread T's last values, which become these.
inline CompactReader::SpanHead CompactReader::spanHead(Thread &T,
                                                       const uint64_t *V) {
  SpanHead H;
  H.Id = T.PrevId = T.PrevId + 1 + uint64_t(dft_unzigzag(V[1]));
  H.Ts = T.PrevTs = T.PrevTs + uint64_t(dft_unzigzag(V[4]));
  H.Parent = T.PrevParent = T.PrevParent + uint64_t(dft_unzigzag(V[7]));
  return H;
}

// R's span fields from the header varints V and H. R.NArgs is V[8].
inline void CompactReader::spanFields(Record &R, const Thread &T,
                                      const uint64_t *V,
                                      const SpanHead &H) const {
  R.K = Record::SpanRecord;
  R.Thread = uint32_t(V[0]);
  R.Pid = T.Pid;
  R.Tid = T.Tid;
  R.Id = H.Id;
  R.Name = uint32_t(V[2]);
  R.Cat = uint32_t(V[3]);
  R.Ts = H.Ts;
  R.Dur = V[5];
  R.Level = V[6];
  R.ParentId = H.Parent;
  R.NArgs = V[8];
}

// An integer arg's value from its varint B: a delta to thread T's last
// value of the key when the key has a slot (the first DftCompactKeySlots
// keys that carry integers get one, in order of first appearance).
inline int64_t CompactReader::intArg(StringUse &Key, Thread &T, uint64_t B) {
  uint8_t &Slot = Key.Slot;
  if (Slot == 0 && NumKeySlots < DftCompactKeySlots)
    Slot = uint8_t(++NumKeySlots);
  if (Slot)
    return int64_t(T.Prev[Slot - 1] += uint64_t(dft_unzigzag(B)));
  return dft_unzigzag(B);
}

// The span at P, decoded without a bound check per byte (Raw's padding
// covers a record's overrun until the checks after its fields) but
// otherwise as decodeRecord decodes it, in the same order. With Fill, S.E
// is filled instead of R (CompactEvent), and R only for a span S does not
// take. It gives up only on a record decodeRecord finds damaged: then P is
// where it was, and decodeRecord reads the record again and says what is
// wrong and where (what this one changed of the thread's arg values and
// slots is not used after that error).
template <bool Fill>
[[gnu::always_inline]] inline bool CompactReader::nextSpan(Record &R,
                                                           CompactEvent *S) {
  // The members read per arg, in locals: a store to an Arg (its uint8_t
  // kind) may alias anything, and would make them read again.
  const uint8_t *const DataEnd = End;
  const size_t Known = NumStrings;
  StringUse *const U = Uses.data();
  const uint8_t *Q = P + 1;
  uint64_t V[9];
#ifdef __SSE2__
  // Most spans' nine header varints are one byte each: one test of their
  // high bits for all (the padding covers the 16 bytes read).
  if ((_mm_movemask_epi8(
           _mm_loadu_si128(reinterpret_cast<const __m128i *>(Q))) &
       0x1ff) == 0) {
#pragma GCC unroll 9
    for (unsigned I = 0; I < 9; ++I)
      V[I] = Q[I];
    Q += 9;
  } else
#endif
  {
#pragma GCC unroll 9
    for (uint64_t &X : V)
      if (!fastVarint(Q, X))
        return false;
  }
  if (Q > DataEnd || V[0] >= NumThreads || V[2] >= Known || V[3] >= Known ||
      V[8] > 64)
    return false;
  Thread &T = Threads[V[0]];
  uint64_t PrevId = T.PrevId, PrevTs = T.PrevTs, PrevParent = T.PrevParent;
  SpanHead H = spanHead(T, V);
  CompactEvent::Pass F;
  Arg *Args = nullptr;
  uint64_t N = V[8];
  if constexpr (Fill) {
    F = S->begin(T, V, H, U[V[2]], U[V[3]]);
  } else {
    spanFields(R, T, V, H);
    if (R.Args.size() < N)
      R.Args.resize(N);
    Args = R.Args.data();
  }
  for (uint64_t I = 0; I < N; ++I) {
    uint64_t A, B;
    if (!fastVarint(Q, A) || !fastVarint(Q, B) || Q > DataEnd ||
        (A >> 2) >= Known)
      goto Damaged;
    StringUse &Key = U[A >> 2];
    if constexpr (!Fill) {
      Args[I].Key = uint32_t(A >> 2);
      Args[I].Kind = uint8_t(A & 3);
    }
    if ((A & 3) == DftArgInt) {
      int64_t Value = intArg(Key, T, B);
      if constexpr (Fill) {
        S->intArg(F, Key, Value);
      } else {
        Args[I].Int = Value;
        Args[I].Slot = Key.Slot;
      }
    } else if ((A & 3) == DftArgString) {
      if (B >= Known)
        goto Damaged;
      if constexpr (Fill)
        S->stringArg(F, Key, U[B]);
      else
        Args[I].Str = uint32_t(B);
    } else if ((A & 3) == DftArgRaw) {
      if (B > uint64_t(DataEnd - Q))
        goto Damaged;
      if constexpr (!Fill)
        Args[I].Raw = std::string_view(reinterpret_cast<const char *>(Q), B);
      Q += B;
      F.Taken = false;
    } else {
      goto Damaged;
    }
  }
  if constexpr (Fill) {
    LastSpan = P;
    S->end(F);
    if (!F.Taken)
      lastSpan(R);
  }
  P = Q;
  return true;
Damaged:
  T.PrevId = PrevId;
  T.PrevTs = PrevTs;
  T.PrevParent = PrevParent;
  if constexpr (Fill)
    S->Parsed = true;
  return false;
}

// The span the fast decoder took last (at LastSpan, in the block still
// read), decoded again into R: its thread's last values are its own, so
// its ids and time are those, and each integer arg with a slot is its
// slot's value less the deltas of the args after it in the record with the
// same slot.
void CompactReader::lastSpan(Record &R) const {
  const uint8_t *Q = LastSpan + 1; // (read once already: no checks)
  uint64_t V[9] = {};
  for (uint64_t &X : V)
    fastVarint(Q, X);
  const Thread &T = Threads[V[0]];
  spanFields(R, T, V, SpanHead{T.PrevId, T.PrevTs, T.PrevParent});
  uint64_t N = V[8];
  if (R.Args.size() < N)
    R.Args.resize(N);
  uint64_t Delta[64];
  for (uint64_t I = 0; I < N; ++I) {
    Arg &Ar = R.Args[I];
    uint64_t A = 0, B = 0;
    fastVarint(Q, A);
    fastVarint(Q, B);
    Ar.Key = uint32_t(A >> 2);
    Ar.Kind = uint8_t(A & 3);
    if (Ar.Kind == DftArgInt) {
      Ar.Slot = Uses[Ar.Key].Slot;
      Delta[I] = B;
    } else if (Ar.Kind == DftArgString) {
      Ar.Str = uint32_t(B);
    } else {
      Ar.Raw = std::string_view(reinterpret_cast<const char *>(Q), B);
      Q += B;
    }
  }
  uint64_t Cur[DftCompactKeySlots];
  uint64_t Seen = 0; // slots whose Cur is set
  for (uint64_t I = N; I-- > 0;) {
    Arg &Ar = R.Args[I];
    if (Ar.Kind != DftArgInt)
      continue;
    if (!Ar.Slot) {
      Ar.Int = dft_unzigzag(Delta[I]);
      continue;
    }
    unsigned K = Ar.Slot - 1u;
    if (!(Seen >> K & 1)) {
      Cur[K] = T.Prev[K];
      Seen |= uint64_t(1) << K;
    }
    Ar.Int = int64_t(Cur[K]);
    Cur[K] -= uint64_t(dft_unzigzag(Delta[I]));
  }
}

void CompactReader::formatLastSpan(std::string &Out) const {
  lastSpan(Last);
  formatSpan(Last, Out);
}

template <bool Fill> bool CompactReader::read(Record &R, CompactEvent *S) {
  // Spans are nearly every record: the fast decoder takes them, and gives
  // anything else (a block's end, a table entry, a damaged span) to the
  // careful one, which says what is wrong and where.
  for (;;) {
    if (P < End && *P == DftTagSpan && nextSpan<Fill>(R, S))
      return true;
    if constexpr (Fill) {
      S->Taken = false;
      S->Parsed = true;
    }
    Step St = decodeRecord(R);
    if (St != Step::Again)
      return St == Step::Record;
  }
}

// A span's top-level fields (those no args key sets keep the last span's
// values: only those that differ are set again), the args fields of the
// last span cleared, and its line's length but for its args.
inline CompactEvent::Pass CompactEvent::begin(const CompactReader::Thread &T,
                                              const uint64_t *V,
                                              const CompactReader::SpanHead &H,
                                              const Use &Name, const Use &Cat) {
  uint32_t NameI = uint32_t(V[2]), CatI = uint32_t(V[3]);
  uint32_t ThreadI = uint32_t(V[0]);
  uint64_t Dur = V[5], Level = V[6];
  if (Parsed) {
    E.clear();
    setString(E.Ph, "X");
    E.Ph2 = Phase::Complete;
    E.ArgsKind = Field::Other;
    LastThread = LastName = LastCat = UINT32_MAX;
  } else {
    for (unsigned I = 0; I < NumSet; ++I)
      at(Set[I]).K = Field::Missing;
  }
  Thread = ThreadI;
  CatUse = &Cat;
  if (NameI != LastName)
    setString(E.Name, Name.Plain);
  if (CatI != LastCat)
    setString(E.Cat, Cat.Plain);
  if (ThreadI != LastThread) {
    setInt(E.Pid, T.Pid);
    setInt(E.Tid, T.Tid);
  }
  LastName = NameI;
  LastCat = CatI;
  LastThread = ThreadI;
  auto SetTimes = [&](auto Set) {
    Set(E.Id, H.Id);
    Set(E.Ts, H.Ts);
    Set(E.Dur, Dur);
    Set(E.Level, Level);
    Set(E.ParentIdx, H.Parent);
  };
  if (((H.Id | H.Ts | Dur | Level | H.Parent) >> 63) == 0) // all Int
    SetTimes([](Field &F, uint64_t X) { setInt(F, int64_t(X)); });
  else
    SetTimes(setU64);
  constexpr size_t Frame =
      sizeof("{\"id\":,\"name\":,\"cat\":,\"pid\":,\"tid\":,\"ts\":,"
             "\"dur\":,\"ph\":\"X\",\"args\":{\"level\":,\"p_idx\":}}\n") -
      1;
  Pass F;
  F.Bytes = Frame + IdDigits.of(H.Id) + Name.RawSize + Cat.RawSize +
            T.PidTidDigits + TsDigits.of(H.Ts) + digitsU(Dur) +
            (Level < 10 ? 1 : digitsU(Level)) + ParentDigits.of(H.Parent);
  F.Taken = Name.Ok && Cat.Ok; // (the parser rejects a bad string anywhere)
  // (MaxTimeUs, EventCheck.h, is 2^53: itself accepted, as checkEvent
  // says too.)
  F.Suspect = ((H.Ts | Dur) >> 53) != 0 || Level - 1 >= uint64_t(INT64_MAX)
                  ? uint8_t(CompactReader::Again) | CompactReader::NotAnIoLayer
                  : CompactReader::NotAnIoLayer;
  return F;
}

// An integer arg: `,"key":V` in the line, and the field the key names.
inline void CompactEvent::intArg(Pass &F, const Use &Key, int64_t V) {
  F.Bytes += 2 + Key.RawSize + digitsI(V);
  F.Suspect |= Key.Check & (V < 0 ? 0xff : CompactReader::Again);
  if (Key.Offset >= 0) {
    setInt(at(Key.Offset), V);
    Set[F.NumSet++] = Key.Offset;
  } else if (Key.Offset == Use::AsText) {
    F.Taken = false;
  }
}

// A string arg: taken only as the parser would take it (a valid string,
// not a hash the parser reads as hex, not a key it treats specially).
inline void CompactEvent::stringArg(Pass &F, const Use &Key, const Use &V) {
  F.Bytes += 2 + Key.RawSize + V.RawSize;
  F.Suspect |= Key.Check; // (a string is not an unsigned integer)
  if (!V.Ok || Key.Hash || Key.Offset == Use::AsText) {
    F.Taken = false;
  } else if (Key.Offset >= 0) {
    setString(at(Key.Offset), V.Plain);
    Set[F.NumSet++] = Key.Offset;
  }
}

unsigned CompactEvent::DigitRange::measure(uint64_t V) {
  static constexpr auto Pow10 = [] {
    struct {
      uint64_t P[21];
    } T{};
    uint64_t X = 1;
    for (int I = 0; I < 20; ++I, X *= 10)
      T.P[I] = X;
    T.P[20] = 0; // 10^20 wraps: the range of 20 digits ends at 2^64
    return T;
  }();
  Digits = unsigned(digitsU(V));
  Lo = Digits == 1 ? 0 : Pow10.P[Digits - 1];
  Width = Pow10.P[Digits] - Lo;
  return Digits;
}

inline void CompactEvent::end(const Pass &F) {
  Taken = F.Taken;
  Bytes = F.Bytes;
  NumSet = F.NumSet;
  Suspect = F.Suspect;
  Parsed = !F.Taken;
}

bool CompactReader::next(Record &R) { return read<false>(R, nullptr); }

bool CompactReader::nextEvent(Record &R, CompactEvent &S) {
  return read<true>(R, &S);
}

// One record, every byte checked against the end of the data: Again
// after a table entry or a new block (the next record may be a span for
// the fast decoder), Stop at the end or on an error.
CompactReader::Step CompactReader::decodeRecord(Record &R) {
  auto Bad = [&](const char *What) {
    fail("block at byte " + std::to_string(BlockOffset) + ": " + What +
         " at byte " + std::to_string(P - Raw.data()) +
         " of its data: the rest of the file is lost");
    return Step::Stop;
  };
  for (;;) {
    if (P == End) {
      if (AtEnd || !readBlock()) {
        if (!Parts.empty()) { // a last line that never ended
          Joined.swap(Parts);
          Parts.clear();
          R.K = Record::TextRecord;
          R.Text = Joined;
          R.Terminated = false;
          return Step::Record;
        }
        return Step::Stop;
      }
      return Step::Again;
    }
    uint8_t Tag = *P++;
    uint64_t A, B;
    switch (Tag) {
    case DftTagString:
    case DftTagText:
    case DftTagTextPart: {
      if (!dft_get_varint(&P, End, &A) || A > uint64_t(End - P))
        return Bad("bad length");
      std::string_view S(reinterpret_cast<const char *>(P), A);
      P += A;
      if (Tag == DftTagString) {
        defineString(S);
        return Step::Again;
      }
      if (Tag == DftTagTextPart) {
        Parts.append(S);
        continue;
      }
      R.K = Record::TextRecord;
      R.Terminated = true;
      if (!Parts.empty()) {
        Parts.append(S);
        Joined.swap(Parts);
        Parts.clear();
        R.Text = Joined;
      } else {
        R.Text = S;
      }
      return Step::Record;
    }
    case DftTagThread: {
      if (!dft_get_varint(&P, End, &A) || !dft_get_varint(&P, End, &B))
        return Bad("bad thread");
      Thread T;
      T.Pid = dft_unzigzag(A);
      T.Tid = dft_unzigzag(B);
      T.PidTidDigits = unsigned(digitsI(T.Pid) + digitsI(T.Tid));
      Threads.push_back(T);
      ++NumThreads;
      return Step::Again;
    }
    case DftTagSpan: {
      uint64_t V[9];
      for (uint64_t &X : V)
        if (!dft_get_varint(&P, End, &X))
          return Bad("bad span");
      if (V[0] >= Threads.size() || V[2] >= Strings.size() ||
          V[3] >= Strings.size())
        return Bad("span names an undefined thread or string");
      Thread &T = Threads[V[0]];
      uint64_t N = V[8];
      if (N > 64)
        return Bad("too many args");
      spanFields(R, T, V, spanHead(T, V));
      if (R.Args.size() < N)
        R.Args.resize(N);
      for (uint64_t I = 0; I < N; ++I) {
        Arg &Ar = R.Args[I];
        if (!dft_get_varint(&P, End, &A) || (A >> 2) >= Strings.size())
          return Bad("bad arg key");
        Ar.Key = uint32_t(A >> 2);
        Ar.Kind = uint8_t(A & 3);
        if (!dft_get_varint(&P, End, &B))
          return Bad("bad arg value");
        if (Ar.Kind == DftArgInt) {
          Ar.Int = intArg(Uses[Ar.Key], T, B);
          Ar.Slot = Uses[Ar.Key].Slot;
        } else if (Ar.Kind == DftArgString) {
          if (B >= Strings.size())
            return Bad("bad arg string");
          Ar.Str = uint32_t(B);
        } else if (Ar.Kind == DftArgRaw) {
          if (B > uint64_t(End - P))
            return Bad("bad arg length");
          Ar.Raw = std::string_view(reinterpret_cast<const char *>(P), B);
          P += B;
        } else {
          return Bad("unknown arg kind");
        }
      }
      return Step::Record;
    }
    default:
      return Bad("unknown record tag");
    }
  }
}

void CompactReader::formatSpan(const Record &R, std::string &Out) const {
  std::string NameCat = "\"name\":";
  NameCat.append(Strings[R.Name]).append(",\"cat\":");
  NameCat.append(Strings[R.Cat]).push_back(',');
  std::string Args;
  char Num[DFTRACER_JSON_INT_BOUND];
  for (size_t I = 0; I < R.NArgs; ++I) {
    const Arg &A = R.Args[I];
    Args.push_back(',');
    Args.append(Strings[A.Key]).push_back(':');
    if (A.Kind == DftArgInt)
      Args.append(Num, dftracer_put_i64(Num, A.Int) - Num);
    else if (A.Kind == DftArgString)
      Args.append(Strings[A.Str]);
    else
      Args.append(A.Raw);
  }
  char PidTid[64];
  dftracer_span_line L{};
  L.Id = R.Id;
  L.ParentId = R.ParentId;
  L.Ts = R.Ts;
  L.Dur = R.Dur;
  L.Level = unsigned(R.Level);
  L.NameCat = NameCat.data();
  L.NameCatLen = NameCat.size();
  L.PidTid = PidTid;
  L.PidTidLen = size_t(
      dftracer_format_pid_tid(PidTid, int(R.Pid), int(R.Tid)) - PidTid);
  L.Args = Args.data();
  L.ArgsLen = Args.size();
  size_t At = Out.size();
  Out.resize(At + dftracer_span_line_bound(&L));
  char *E = dftracer_format_span(Out.data() + At, &L);
  Out.resize(size_t(E - Out.data()));
}

namespace {

int hexDigit(char C) {
  if (C >= '0' && C <= '9')
    return C - '0';
  if (C >= 'a' && C <= 'f')
    return C - 'a' + 10;
  if (C >= 'A' && C <= 'F')
    return C - 'A' + 10;
  return -1;
}

bool hex4(std::string_view S, size_t At, uint32_t &V) {
  if (At + 4 > S.size())
    return false;
  V = 0;
  for (size_t I = At; I < At + 4; ++I) {
    int D = hexDigit(S[I]);
    if (D < 0)
      return false;
    V = V << 4 | uint32_t(D);
  }
  return true;
}

void putUtf8(std::string &Out, uint32_t Cp) {
  if (Cp < 0x80) {
    Out.push_back(char(Cp));
  } else if (Cp < 0x800) {
    Out.push_back(char(0xc0 | Cp >> 6));
    Out.push_back(char(0x80 | (Cp & 0x3f)));
  } else if (Cp < 0x10000) {
    Out.push_back(char(0xe0 | Cp >> 12));
    Out.push_back(char(0x80 | (Cp >> 6 & 0x3f)));
    Out.push_back(char(0x80 | (Cp & 0x3f)));
  } else {
    Out.push_back(char(0xf0 | Cp >> 18));
    Out.push_back(char(0x80 | (Cp >> 12 & 0x3f)));
    Out.push_back(char(0x80 | (Cp >> 6 & 0x3f)));
    Out.push_back(char(0x80 | (Cp & 0x3f)));
  }
}

} // namespace

bool unescapeJsonString(std::string_view Raw, std::string &Out) {
  Out.clear();
  if (Raw.size() < 2 || Raw.front() != '"' || Raw.back() != '"')
    return false;
  std::string_view S = Raw.substr(1, Raw.size() - 2);
  for (size_t I = 0; I < S.size(); ++I) {
    char C = S[I];
    if (static_cast<unsigned char>(C) < 0x20 || C == '"')
      return false;
    if (C != '\\') {
      Out.push_back(C);
      continue;
    }
    if (++I == S.size())
      return false;
    switch (S[I]) {
    case '"': Out.push_back('"'); break;
    case '\\': Out.push_back('\\'); break;
    case '/': Out.push_back('/'); break;
    case 'b': Out.push_back('\b'); break;
    case 'f': Out.push_back('\f'); break;
    case 'n': Out.push_back('\n'); break;
    case 'r': Out.push_back('\r'); break;
    case 't': Out.push_back('\t'); break;
    case 'u': {
      uint32_t Cp, Lo;
      if (!hex4(S, I + 1, Cp))
        return false;
      I += 4;
      if (Cp >= 0xd800 && Cp < 0xdc00) {
        if (I + 2 >= S.size() || S[I + 1] != '\\' || S[I + 2] != 'u' ||
            !hex4(S, I + 3, Lo) || Lo < 0xdc00 || Lo >= 0xe000)
          return false;
        I += 6;
        Cp = 0x10000 + ((Cp - 0xd800) << 10) + (Lo - 0xdc00);
      } else if (Cp >= 0xdc00 && Cp < 0xe000) {
        return false;
      }
      putUtf8(Out, Cp);
      break;
    }
    default:
      return false;
    }
  }
  return true;
}

} // namespace dftrace
