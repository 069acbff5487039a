//===- PlainLineParser.cpp - The runtime's lines, read in one pass --------===//
//
// A recursive-descent reader of RFC 8259's grammar, restricted so that
// every value it accepts is one simdjson reads the same way (rules of
// PlainLineParser.h). Each reader takes the position of its first byte and
// returns the position after the value, or null to hand the line to the
// DOM parser. Reads stay inside [Data, Data + Size).
//
//===----------------------------------------------------------------------===//

#include "PlainLineParser.h"

#include "EventParser.h"

#include <cstdint>
#include <cstring>

namespace dftrace {

namespace {

/// Deeper values than this go to the DOM parser (its own limit is 1024).
constexpr int MaxDepth = 32;

const char *skipBlanks(const char *P, const char *End) {
  while (P < End && (*P == ' ' || *P == '\t' || *P == '\n' || *P == '\r'))
    ++P;
  return P;
}

/// The bytes of W (8 of the line, first byte lowest) that end a plain
/// string: '"', and those that make it not plain ('\\', < 0x20, >= 0x80),
/// as the high bit of each. The lowest marked byte is exact (a marked
/// byte's borrow can only mark bytes above it).
inline uint64_t stringStops(uint64_t W) {
  constexpr uint64_t Ones = 0x0101010101010101ull, Highs = Ones * 0x80;
  uint64_t Quote = W ^ (Ones * '"'), Slash = W ^ (Ones * '\\');
  return (((Quote - Ones) & ~Quote) | ((Slash - Ones) & ~Slash) |
          ((W - Ones * 0x20) & ~W) | W) &
         Highs;
}

/// P at the opening '"'. Only bytes 0x20..0x7f, no '\\': such a string is
/// its own unescaped text and valid UTF-8. Reads up to 7 bytes past End
/// (the caller's padding), never uses them.
const char *readString(const char *P, const char *End, std::string_view &S) {
  const char *Begin = ++P;
  while (P < End) {
    uint64_t W;
    std::memcpy(&W, P, sizeof W); // little-endian: byte 0 lowest
    if (uint64_t Stops = stringStops(W)) {
      const char *Q = P + (__builtin_ctzll(Stops) >> 3);
      if (Q >= End || *Q != '"')
        return nullptr;
      S = std::string_view(Begin, static_cast<size_t>(Q - Begin));
      return Q + 1;
    }
    P += sizeof W;
  }
  return nullptr;
}

/// W's 8 bytes are all ASCII digits.
inline bool eightDigits(uint64_t W) {
  constexpr uint64_t Ones = 0x0101010101010101ull, Nibbles = Ones * 0xf0;
  return ((W & Nibbles) | (((W + Ones * 6) & Nibbles) >> 4)) == Ones * 0x33;
}

/// The number 8 ASCII digits spell (the first byte the most significant),
/// by pairs, then fours, then the whole: three multiplications.
inline uint64_t eightDigitsValue(uint64_t W) {
  W -= 0x3030303030303030ull;
  W = W * 10 + (W >> 8); // each even byte: two digits
  constexpr uint64_t Mask = 0x000000ff000000ffull;
  constexpr uint64_t Mul1 = 100 + (1000000ull << 32);
  constexpr uint64_t Mul2 = 1 + (10000ull << 32);
  return (((W & Mask) * Mul1) + (((W >> 16) & Mask) * Mul2)) >> 32;
}

/// An integer of 1 to 18 digits (always an int64, as simdjson types it).
/// A fraction, an exponent, a leading zero, "-0" or more digits: null.
const char *readInteger(const char *P, const char *End, Field *Out) {
  bool Negative = *P == '-';
  const char *Digits = P + Negative;
  const char *Q = Digits;
  uint64_t V = 0;
  while (End - Q >= 8) { // 16-digit times and hashes: two steps
    uint64_t W;
    std::memcpy(&W, Q, sizeof W);
    if (!eightDigits(W))
      break;
    V = V * 100000000 + eightDigitsValue(W);
    Q += 8;
  }
  while (Q < End && static_cast<unsigned>(*Q - '0') < 10) {
    V = V * 10 + static_cast<unsigned>(*Q - '0');
    ++Q;
  }
  size_t N = static_cast<size_t>(Q - Digits);
  if (N == 0 || N > 18 || (*Digits == '0' && N > 1) || (Negative && V == 0))
    return nullptr;
  if (Q < End && (*Q == '.' || *Q == 'e' || *Q == 'E'))
    return nullptr;
  if (Out) { // EventParser's readField for simdjson's INT64
    int64_t I = Negative ? -static_cast<int64_t>(V) : static_cast<int64_t>(V);
    Out->K = Field::Int;
    Out->I = I;
    Out->U = I >= 0 ? static_cast<uint64_t>(I) : 0;
    Out->D = static_cast<double>(I);
  }
  return Q;
}

const char *readLiteral(const char *P, const char *End, std::string_view L) {
  if (static_cast<size_t>(End - P) < L.size() ||
      std::string_view(P, L.size()) != L)
    return nullptr;
  return P + L.size();
}

/// P at a member's key: the key, and P at its value.
[[gnu::always_inline]] inline const char *readKey(const char *P,
                                                  const char *End,
                                                  std::string_view &Key) {
  if (P >= End || *P != '"' || !(P = readString(P, End, Key)))
    return nullptr;
  P = skipBlanks(P, End);
  if (P >= End || *P != ':')
    return nullptr;
  return skipBlanks(P + 1, End);
}

enum class Next { Member, Closed, Broken };

/// P after a value: past the ',' to the next one, or past Close.
[[gnu::always_inline]] inline Next afterValue(const char *&P, const char *End,
                                             char Close) {
  P = skipBlanks(P, End);
  if (P < End && *P == Close) {
    ++P;
    return Next::Closed;
  }
  if (P < End && *P == ',') {
    P = skipBlanks(P + 1, End);
    return Next::Member;
  }
  return Next::Broken;
}

const char *readValue(const char *P, const char *End, Field *Out, int Depth);

/// P after '{' or '['. Members (or elements) are read and dropped.
const char *skipContainer(const char *P, const char *End, bool Object,
                          int Depth) {
  if (Depth > MaxDepth)
    return nullptr;
  char Close = Object ? '}' : ']';
  P = skipBlanks(P, End);
  if (P < End && *P == Close)
    return P + 1;
  while (true) {
    std::string_view Key;
    if (Object && !(P = readKey(P, End, Key)))
      return nullptr;
    if (!(P = readValue(P, End, nullptr, Depth)))
      return nullptr;
    if (Next N = afterValue(P, End, Close); N != Next::Member)
      return N == Next::Closed ? P : nullptr;
  }
}

/// One value into Out (when not null), as EventParser's readField would.
const char *readValue(const char *P, const char *End, Field *Out, int Depth) {
  if (P >= End)
    return nullptr;
  switch (*P) {
  case '"': {
    std::string_view S;
    if (!(P = readString(P, End, S)))
      return nullptr;
    if (Out) {
      Out->K = Field::String;
      Out->S = S;
    }
    return P;
  }
  case '{':
  case '[':
    P = skipContainer(P + 1, End, *P == '{', Depth + 1);
    break;
  case 't':
    P = readLiteral(P, End, "true");
    break;
  case 'f':
    P = readLiteral(P, End, "false");
    break;
  case 'n':
    P = readLiteral(P, End, "null");
    break;
  default:
    return readInteger(P, End, Out);
  }
  if (P && Out)
    Out->K = Field::Other;
  return P;
}

/// P after the '{' of "args": its keys into E's fields.
const char *readArgs(const char *P, const char *End, Event &E) {
  P = skipBlanks(P, End);
  if (P < End && *P == '}')
    return P + 1;
  while (true) {
    std::string_view Key;
    if (!(P = readKey(P, End, Key)) ||
        Key == "cfg") // upstream dev's settings: the DOM parser reads them
      return nullptr;
    if (!(P = readValue(P, End, eventArgField(E, Key), 1)))
      return nullptr;
    if (Next N = afterValue(P, End, '}'); N != Next::Member)
      return N == Next::Closed ? P : nullptr;
  }
}

} // namespace

bool parsePlainLine(const char *Data, size_t Size, Event &E) {
  const char *End = Data + Size;
  const char *P = skipBlanks(Data, End);
  if (P >= End || *P != '{')
    return false;
  P = skipBlanks(P + 1, End);
  if (P < End && *P == '}') {
    P = skipBlanks(P + 1, End);
    return P == End;
  }
  while (true) {
    std::string_view Key;
    if (!(P = readKey(P, End, Key)))
      return false;
    if (Key == "args") {
      if (P < End && *P == '{') {
        E.ArgsKind = Field::Other;
        P = readArgs(P + 1, End, E);
      } else { // as EventParser: a string, or anything else
        E.ArgsKind = P < End && *P == '"' ? Field::String : Field::Int;
        P = readValue(P, End, nullptr, 0);
      }
    } else {
      P = readValue(P, End, eventTopLevelField(E, Key), 0);
    }
    if (!P)
      return false;
    if (Next N = afterValue(P, End, '}'); N != Next::Member)
      return N == Next::Closed && skipBlanks(P, End) == End;
  }
}

} // namespace dftrace
