//===- EventKeys.h - Which Event field each JSON key fills -------*- C++ -*-===//
//
// The keys Event holds, per context (the line's top level, and "args"),
// the first RuntimeOrder of them in the order the runtime writes them,
// with a perfect hash from a key's length and first 8 bytes to its entry:
// a lookup is one multiplication, one table load and a compare of one or
// two words, whatever the key.
//
// \code
//   int I = ArgKeys.find("fhash", 5);   // 2, its index; -1 for a key not held
//   ArgKeys[I].Offset                   // offsetof(Event, FHash)
//   ArgKeys.startsMember(I, P, End)     // P holds `"fhash":` (one compare)
// \endcode
//
// Both parsers (PlainLineParser, EventParser's DOM path) and the compact
// reader fill Events through these tables, so a key means the same field
// everywhere. Keys the runtime writes that Event does not hold ("flags",
// "mode", "whence", "iovcnt") are listed with NoField: their values are
// validated and dropped, and PlainLineParser still finds them in order.
//
//===----------------------------------------------------------------------===//
#ifndef DFTRACER_READER_EVENTKEYS_H
#define DFTRACER_READER_EVENTKEYS_H

#include "Event.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace dftrace {

/// One key of a context.
struct KeyInfo {
  static constexpr uint16_t NoField = 0xffff;    // validated and dropped
  static constexpr uint16_t ArgsObject = 0xfffe; // the top level's "args"
  static constexpr uint16_t Cfg = 0xfffd; // upstream's settings, in args:
                                          // only the DOM path reads them
  uint64_t Key[2] = {};  // the key's bytes, zero past Len (byte 0 lowest)
  // `"key":` as the runtime writes it (its first 16 bytes), and the mask
  // of its MemberLen bytes.
  uint64_t Member[2] = {}, MemberMask[2] = {};
  uint8_t Len = 0, MemberLen = 0;
  uint16_t Offset = NoField; // offsetof(Event, <its Field>), or the above
};

/// The bytes [0, N) of a word (N <= 8).
constexpr uint64_t lowBytes(size_t N) {
  return N >= 8 ? ~uint64_t(0) : (uint64_t(1) << (8 * N)) - 1;
}

/// A context's keys; N of them, 2^Bits slots.
template <size_t N, unsigned Bits> class KeyTable {
  static_assert(N < 255 && Bits <= 10, "indices are uint8_t");

public:
  struct Spec {
    const char *Name;
    uint16_t Offset;
  };
  /// Keys of 1 to 16 bytes; the first InOrder of them are the ones the
  /// runtime writes, in its order.
  constexpr KeyTable(const Spec (&Specs)[N], size_t InOrder)
      : RuntimeOrder(InOrder) {
    for (size_t I = 0; I < N; ++I) {
      KeyInfo &K = Keys[I];
      size_t Len = 0;
      while (Specs[I].Name[Len])
        ++Len;
      char Member[24] = {};
      Member[0] = '"';
      for (size_t C = 0; C < Len; ++C) {
        K.Key[C / 8] |= uint64_t(uint8_t(Specs[I].Name[C])) << (8 * (C % 8));
        Member[C + 1] = Specs[I].Name[C];
      }
      Member[Len + 1] = '"';
      Member[Len + 2] = ':';
      for (size_t C = 0; C < Len + 3 && C < 16; ++C)
        K.Member[C / 8] |= uint64_t(uint8_t(Member[C])) << (8 * (C % 8));
      K.MemberMask[0] = lowBytes(Len + 3);
      K.MemberMask[1] = Len + 3 > 8 ? lowBytes(Len + 3 - 8) : 0;
      K.Len = static_cast<uint8_t>(Len);
      K.MemberLen = static_cast<uint8_t>(Len + 3);
      K.Offset = Specs[I].Offset;
    }
    // The first odd multiplier of a fixed sequence under which no two
    // keys share a slot (perfect(), asserted below for both tables).
    for (uint64_t Try = 1; Try < 4096 && !Perfect; ++Try) {
      Mul = 0x9e3779b97f4a7c15ull * (2 * Try + 1);
      for (uint8_t &S : Slots)
        S = Empty;
      Perfect = true;
      for (size_t I = 0; I < N && Perfect; ++I) {
        uint8_t &S = Slots[slot(Keys[I].Key[0], Keys[I].Len)];
        Perfect = S == Empty;
        S = static_cast<uint8_t>(I);
      }
    }
  }

  /// The index of the key Data[0, Len), -1 when it is not one of these.
  /// Data[0, 16) must be readable (a line's padding).
  [[gnu::always_inline]] int find(const char *Data, size_t Len) const {
    if (Len - 1 >= 16) // 0, or longer than any key
      return -1;
    uint64_t A, B;
    std::memcpy(&A, Data, 8);
    A &= lowBytes(Len);
    uint8_t I = Slots[slot(A, Len)];
    if (I == Empty || Keys[I].Len != Len || Keys[I].Key[0] != A)
      return -1;
    if (Len > 8) {
      std::memcpy(&B, Data + 8, 8);
      if (Keys[I].Key[1] != (B & lowBytes(Len - 8)))
        return -1;
    }
    return I;
  }
  /// The same for any view (no bytes readable past its end).
  int find(std::string_view Key) const {
    char Copy[16] = {};
    if (Key.size() > sizeof Copy)
      return -1;
    std::memcpy(Copy, Key.data(), Key.size());
    return find(Copy, Key.size());
  }
  /// [P, End) starts with entry I's `"key":` and a byte after it (P[0, 16)
  /// readable).
  [[gnu::always_inline]] bool startsMember(int I, const char *P,
                                           const char *End) const {
    return End - P > Keys[I].MemberLen && startsMemberUnchecked(I, P);
  }
  /// The same for P[0, 16) whatever End (the caller checks that the
  /// member's value starts before it). False for keys over 13 bytes.
  [[gnu::always_inline]] bool startsMemberUnchecked(int I,
                                                    const char *P) const {
    const KeyInfo &K = Keys[I];
    if (K.MemberLen > 16)
      return false;
    uint64_t A, B;
    std::memcpy(&A, P, 8);
    if ((A & K.MemberMask[0]) != K.Member[0])
      return false;
    if (K.MemberLen <= 8)
      return true;
    std::memcpy(&B, P + 8, 8);
    return (B & K.MemberMask[1]) == K.Member[1];
  }
  constexpr const KeyInfo &operator[](int I) const { return Keys[I]; }
  /// The field of E that entry I fills, null for NoField and the markers.
  static Field *field(Event &E, const KeyInfo &K) {
    return K.Offset < KeyInfo::Cfg
               ? reinterpret_cast<Field *>(reinterpret_cast<char *>(&E) +
                                           K.Offset)
               : nullptr;
  }
  /// Field of E for Key, or null (any view).
  Field *field(Event &E, std::string_view Key) const {
    int I = find(Key);
    return I < 0 ? nullptr : field(E, Keys[I]);
  }
  constexpr bool perfect() const { return Perfect; }
  /// Entries [0, RuntimeOrder) are the runtime's keys, in its order.
  const size_t RuntimeOrder;

private:
  static constexpr uint8_t Empty = 0xff;
  constexpr size_t slot(uint64_t A, size_t Len) const {
    return static_cast<size_t>(((A ^ Len) * Mul) >> (64 - Bits));
  }
  KeyInfo Keys[N] = {};
  uint8_t Slots[size_t(1) << Bits] = {};
  uint64_t Mul = 0;
  bool Perfect = false;
};

namespace keyspecs {

using Top = KeyTable<10, 5>;
using Args = KeyTable<35, 8>;

#define DFT_AT(Member) static_cast<uint16_t>(offsetof(Event, Member))

// The runtime's order (event_format.c), then upstream dev's "type".
inline constexpr Top::Spec TopSpecs[] = {
    {"id", DFT_AT(Id)},   {"name", DFT_AT(Name)}, {"cat", DFT_AT(Cat)},
    {"pid", DFT_AT(Pid)}, {"tid", DFT_AT(Tid)},   {"ts", DFT_AT(Ts)},
    {"dur", DFT_AT(Dur)}, {"ph", DFT_AT(Ph)},     {"args", KeyInfo::ArgsObject},
    {"type", DFT_AT(Type)}, // upstream dev's layer
};

// The runtime's args of a span, in the order it writes them, each only
// when the call has it (io_core.c: pwrite64 fhash fd count offset ret;
// fwrite fhash fd size count ret; writev fhash fd iovcnt offset append
// ret; MPI-IO fhash count bytes offset ret; lseek fd offset whence ret;
// open flags mode ret; mem_align after ret when the buffer is not a
// multiple of the process's CM mem_alignment).
inline constexpr size_t ArgsInOrder = 15;
// A metadata line's args, {"name":..., "value":...}: entries
// ArgsMetadata and ArgsMetadata + 1, in the runtime's order.
inline constexpr int ArgsMetadata = 15;
inline constexpr Args::Spec ArgSpecs[] = {
    {"level", DFT_AT(Level)},
    {"p_idx", DFT_AT(ParentIdx)},
    {"fhash", DFT_AT(FHash)},
    {"fd", DFT_AT(Fd)},
    {"size", DFT_AT(Size)},
    {"count", DFT_AT(Count)},
    {"iovcnt", KeyInfo::NoField},
    {"bytes", DFT_AT(Bytes)},
    {"offset", DFT_AT(Offset)},
    {"append", DFT_AT(Append)},
    {"whence", KeyInfo::NoField},
    {"flags", KeyInfo::NoField},
    {"mode", KeyInfo::NoField},
    {"ret", DFT_AT(Ret)},
    {"mem_align", DFT_AT(MemAlign)}, // only a misaligned buffer's call
    // Any order:
    {"name", DFT_AT(ArgName)}, // metadata: {"name":..., "value":...}
    {"value", DFT_AT(ArgValue)},
    {"length", DFT_AT(Length)},
    // HDF5 and MPI_File_set_view (issue 22).
    {"dhash", DFT_AT(DHash)},
    {"xfer", DFT_AT(Xfer)},
    {"io_mode", DFT_AT(IoMode)},
    {"selection", DFT_AT(Selection)},
    {"etype_size", DFT_AT(EtypeSize)},
    {"filetype_size", DFT_AT(FiletypeSize)},
    {"filetype_extent", DFT_AT(FiletypeExtent)},
    {"contiguous", DFT_AT(Contiguous)},
    // Upstream: aggregated records, "end", the host hash.
    {"dft_cnt", DFT_AT(Cnt)},
    {"dur", DFT_AT(ArgDur)},
    {"dur_sum", DFT_AT(DurSum)},
    {"ret_sum", DFT_AT(RetSum)},
    {"size_sum", DFT_AT(SizeSum)},
    {"bytes_sum", DFT_AT(BytesSum)},
    {"num_events", DFT_AT(NumEvents)},
    {"cfg", KeyInfo::Cfg},
    {"hhash", KeyInfo::NoField},
};

#undef DFT_AT

} // namespace keyspecs

/// The top level's keys: "id", "name", ... "args" (ArgsObject), "type".
/// Constants, so a parser's compare with a key it expects folds.
inline constexpr keyspecs::Top TopLevelKeys(keyspecs::TopSpecs, 9);
/// The keys of "args" Event holds, and the runtime's others.
inline constexpr keyspecs::Args ArgKeys(keyspecs::ArgSpecs,
                                         keyspecs::ArgsInOrder);
static_assert(TopLevelKeys.perfect(), "no multiplier separates the keys");
static_assert(ArgKeys.perfect(), "no multiplier separates the keys");

} // namespace dftrace

#endif
