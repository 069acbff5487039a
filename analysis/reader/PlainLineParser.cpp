//===- PlainLineParser.cpp - The runtime's lines, read in one pass --------===//
//
// A recursive-descent reader of RFC 8259's grammar, restricted so that
// every value it accepts is one simdjson reads the same way (rules of
// PlainLineParser.h). Each reader takes the position of its first byte and
// returns the position after the value, or null to hand the line to the
// DOM parser. What is used stays inside [Data, Data + Size); words are
// loaded up to PlainLinePadding bytes past it.
//
// Two roads through an object, with the same result:
//  1. readInOrder: the runtime's keys in the order it writes them
//     (EventKeys.h), each one word compare with a constant, its value
//     read inline (integers of up to 16 digits 8 at a time, strings 8
//     bytes a step), no blanks. About 1,000 instructions for a 177-byte
//     line.
//  2. the loop (readTopMembers, readArgMembers): any key in any order,
//     with blanks, looked up in the key tables' perfect hash. Road 1 hands
//     over to it at the first member it cannot take, with the members
//     before it read.
//
//===----------------------------------------------------------------------===//

#include "PlainLineParser.h"

#include "EventKeys.h"

#include <cstdint>
#include <cstring>

namespace dftrace {

namespace {

/// Deeper values than this go to the DOM parser (its own limit is 1024).
constexpr int MaxDepth = 32;

/// Past JSON's blanks. The first test, a byte above ' ', ends it for
/// every byte of the runtime's lines.
inline const char *skipBlanks(const char *P, const char *End) {
  while (P < End && static_cast<unsigned char>(*P) <= ' ' &&
         (*P == ' ' || *P == '\t' || *P == '\n' || *P == '\r'))
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
[[gnu::always_inline]] inline const char *
readString(const char *P, const char *End, std::string_view &S) {
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

/// A string value into Out (when not null), as EventParser's readField.
[[gnu::always_inline]] inline const char *
readStringInto(const char *P, const char *End, Field *Out) {
  std::string_view S;
  if (!(P = readString(P, End, S)))
    return nullptr;
  if (Out) {
    Out->K = Field::String;
    Out->S = S;
  }
  return P;
}

/// 8 bytes of the line at P (byte 0 lowest).
inline uint64_t load8(const char *P) {
  uint64_t W;
  std::memcpy(&W, P, sizeof W);
  return W;
}

constexpr uint64_t Ones = 0x0101010101010101ull;

/// D's bytes that are not digits, as their high bits, where D is 8 bytes
/// of the line less '0' from each (leadingDigits says why it is exact).
inline uint64_t nonDigits(uint64_t D) {
  return (D | (D + Ones * 0x76)) & (Ones * 0x80);
}

/// How many of D's bytes, from the lowest, are digits, where D is 8 bytes
/// of the line less '0' from each: a byte above 9 marks its high bit
/// through the add, one that wrapped below 0 has it set already. A borrow
/// or carry only crosses from a marked byte into the ones above it, so the
/// lowest marked byte is exact.
inline unsigned leadingDigits(uint64_t D) {
  uint64_t Marked = nonDigits(D);
  return Marked ? static_cast<unsigned>(__builtin_ctzll(Marked)) >> 3 : 8;
}

/// The number the lowest N (1..8) digit values of D spell (the lowest
/// byte the most significant): shifted up so that zeros lead, then by
/// pairs, fours and the whole, three multiplications.
inline uint64_t digitsValue(uint64_t D, unsigned N) {
  D <<= 8 * (8 - N);
  D = D * 10 + (D >> 8); // each even byte: two digits
  constexpr uint64_t Mask = 0x000000ff000000ffull;
  constexpr uint64_t Mul1 = 100 + (1000000ull << 32);
  constexpr uint64_t Mul2 = 1 + (10000ull << 32);
  return (((D & Mask) * Mul1) + (((D >> 16) & Mask) * Mul2)) >> 32;
}

/// An integer, as simdjson types it: an int64 of up to 18 digits (read 8
/// digits a step) or of 19 and 20 up to 2^63 - 1, a uint64 above that up
/// to 2^64 - 1. A fraction, an exponent, a leading zero, "-0", a negative
/// integer of 19 digits or more, a larger one, or digits up to End (no
/// object closes after them): null.
[[gnu::noinline]] const char *readInteger(const char *P, const char *End,
                                          Field *Out) {
  static constexpr uint64_t Scale[9] = {1,      10,      100,      1000,
                                        10000,  100000,  1000000,  10000000,
                                        100000000};
  bool Negative = *P == '-';
  const char *Digits = P + Negative;
  const char *Q = Digits;
  uint64_t V = 0;
  for (int Word = 0;; ++Word) {
    if (Q >= End || Word == 3) // 24 digits read, or the line ended
      return nullptr;
    uint64_t D = load8(Q) - Ones * '0';
    unsigned N = leadingDigits(D);
    if (N)
      V = V * Scale[N] + digitsValue(D, N);
    Q += N;
    if (N < 8)
      break;
  }
  size_t N = static_cast<size_t>(Q - Digits);
  if (Q >= End || N == 0 || N > 20 || (*Digits == '0' && N > 1) ||
      (Negative && (V == 0 || N > 18)) || *Q == '.' || *Q == 'e' || *Q == 'E')
    return nullptr;
  if (N > 18) { // upstream v1's hhash: an unsigned 64-bit integer, or null
    V = 0;
    for (const char *C = Digits; C < Q; ++C)
      if (__builtin_mul_overflow(V, 10, &V) ||
          __builtin_add_overflow(V, static_cast<unsigned>(*C - '0'), &V))
        return nullptr; // past 2^64 - 1: the DOM parser's
    if (V > uint64_t(INT64_MAX)) {
      if (Out) { // EventParser's readField for simdjson's UINT64
        Out->K = Field::UInt;
        Out->U = V;
        Out->I = INT64_MAX;
        Out->D = static_cast<double>(V);
      }
      return Q;
    }
  }
  if (Out) { // EventParser's readField for simdjson's INT64
    int64_t I = Negative ? -static_cast<int64_t>(V) : static_cast<int64_t>(V);
    Out->K = Field::Int;
    Out->I = I;
    Out->U = I >= 0 ? static_cast<uint64_t>(I) : 0;
    Out->D = static_cast<double>(I);
  }
  return Q;
}

/// C may follow a number in JSON, other than ',' and '}' (out of line, so
/// that those two stay two compares).
[[gnu::noinline]] bool endsNumber(char C) {
  return C == ']' || C == ' ' || C == '\t' || C == '\r' || C == '\n';
}

/// readInteger for what the runtime writes, inline: P at a digit, up to
/// 16 of them (times and hashes have 16) in at most two words and a byte.
/// A sign, more digits: readInteger.
[[gnu::always_inline]] inline const char *
readDigits(const char *P, const char *End, Field *Out) {
  uint64_t D = load8(P) - Ones * '0';
  uint64_t Marked = nonDigits(D);
  uint64_t V;
  const char *Q;
  if (Marked) { // 1 to 7 digits
    unsigned N = static_cast<unsigned>(__builtin_ctzll(Marked)) >> 3;
    // One digit (a level, an fd, a return of 0) is its byte; each key
    // has its own copy of this code, so the branch is a key's habit.
    V = N == 1 ? (D & 0xff) : digitsValue(D, N);
    Q = P + N;
  } else {
    if (End - P <= 16) // past 8 digits near the end
      return readInteger(P, End, Out);
    uint64_t D2 = load8(P + 8) - Ones * '0';
    uint64_t Marked2 = nonDigits(D2);
    unsigned N = 8;
    if (Marked2)
      N = static_cast<unsigned>(__builtin_ctzll(Marked2)) >> 3;
    else if (static_cast<unsigned>(P[16] - '0') < 10) // 17 digits or more
      return readInteger(P, End, Out);
    V = digitsValue(D, 8);
    if (N) {
      static constexpr uint64_t Scale[9] = {1,      10,      100,
                                            1000,   10000,   100000,
                                            1000000, 10000000, 100000000};
      V = V * Scale[N] + digitsValue(D2, N);
    }
    Q = P + 8 + N;
  }
  // After an integer, valid JSON has a blank, ',', '}' or ']'; '.', 'e'
  // and 'E' would make it a double. So anything else leaves the line to
  // the DOM parser, and the runtime's ',' and '}' cost one test each.
  if (Q >= End || (*P == '0' && Q - P > 1))
    return nullptr;
  if (*Q != ',' && *Q != '}' && !endsNumber(*Q))
    return nullptr;
  if (Out) { // EventParser's readField for simdjson's INT64
    Out->K = Field::Int;
    Out->I = static_cast<int64_t>(V);
    Out->U = V;
    Out->D = static_cast<double>(static_cast<int64_t>(V));
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
  if (P < End && *P == ',') { // the runtime's lines: no blanks before
    P = skipBlanks(P + 1, End);
    return Next::Member;
  }
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
  case '"':
    return readStringInto(P, End, Out);
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

/// P at a member's key, or blanks before it (where readInOrder stopped):
/// the index of the key in Keys (-1 for one it does not hold), P at its
/// value; false when it is not `"key" :`.
template <class Table>
[[gnu::always_inline]] inline bool readMemberKey(const Table &Keys,
                                                 const char *&P,
                                                 const char *End, int &I) {
  std::string_view Key;
  if (!(P = readKey(skipBlanks(P, End), End, Key)))
    return false;
  I = Keys.find(Key.data(), Key.size()); // in the line: 16 bytes readable
  return true;
}

/// A member's value into Out (when not null): strings and integers here,
/// the rest by readValue.
[[gnu::always_inline]] inline const char *
readMemberValue(const char *P, const char *End, Field *Out, int Depth) {
  if (P >= End)
    return nullptr;
  if (static_cast<unsigned>(*P - '0') < 10) // most of the runtime's values
    return readDigits(P, End, Out);
  if (*P == '"')
    return readStringInto(P, End, Out);
  return readValue(P, End, Out, Depth);
}

/// What the runtime's own members came to (readInOrder).
enum class Chain { Closed, Rest, Broken };

/// Members of an object as the runtime writes them: keys First..Last of
/// Keys, in that order, each there or not, no blanks. Each key costs a
/// compare of one or two words with a constant (the loop unrolls). P at
/// the first member's key: Closed with P past the object's '}', Rest with
/// P at the first member it could not take (another key, another order,
/// blanks: the general loop reads on from there), Broken for a value that
/// is not in the subset (the general loop would not take it either).
template <class Table, int First, int Last>
[[gnu::always_inline]] inline Chain readInOrder(const Table &Keys,
                                                const char *&P,
                                                const char *End, Event &E,
                                                int Depth) {
#pragma GCC unroll 16
  for (int I = First; I <= Last; ++I) {
    // No test of End here: a key that matched bytes past it leaves its
    // value's first byte past it too, which readMemberValue refuses (and
    // such a line, cut inside a key, is not JSON).
    if (!Keys.startsMemberUnchecked(I, P))
      continue;
    const char *Q = readMemberValue(P + Keys[I].MemberLen, End,
                                    Table::field(E, Keys[I]), Depth);
    if (!Q)
      return Chain::Broken;
    if (Q < End && *Q == ',') {
      P = Q + 1;
      continue;
    }
    if (Q < End && *Q == '}') {
      P = Q + 1;
      return Chain::Closed;
    }
    return Chain::Rest;
  }
  return Chain::Rest;
}

/// P at the key of a member of "args" (the members before it read): the
/// rest of args into E's fields, P past its '}'.
[[gnu::noinline]] const char *readArgMembers(const char *P, const char *End,
                                            Event &E) {
  while (true) {
    int I;
    if (!readMemberKey(ArgKeys, P, End, I))
      return nullptr;
    Field *Out = nullptr;
    if (I >= 0) {
      if (ArgKeys[I].Offset == KeyInfo::Cfg) // upstream dev's settings:
        return nullptr;                      // the DOM parser reads them
      Out = ArgKeys.field(E, ArgKeys[I]);
    }
    if (!(P = readMemberValue(P, End, Out, 1)))
      return nullptr;
    if (Next N = afterValue(P, End, '}'); N != Next::Member)
      return N == Next::Closed ? P : nullptr;
  }
}

/// P after the '{' of "args": its keys into E's fields, P past its '}'.
const char *readArgs(const char *P, const char *End, Event &E) {
  P = skipBlanks(P, End);
  if (P < End && *P == '}')
    return P + 1;
  // A metadata line's pair has its own chain: the span's chain below
  // missed it twice before the loop took it, ~315 instructions more a
  // line, and a small file has seven such lines (issue 41).
  constexpr int Name = keyspecs::ArgsMetadata;
  static_assert(ArgKeys[Name].Offset == offsetof(Event, ArgName) &&
                ArgKeys[Name + 1].Offset == offsetof(Event, ArgValue));
  if (ArgKeys.startsMemberUnchecked(Name, P)) {
    switch (readInOrder<decltype(ArgKeys), Name, Name + 1>(ArgKeys, P, End,
                                                           E, 1)) {
    case Chain::Closed:
      return P;
    case Chain::Broken:
      return nullptr;
    case Chain::Rest:
      return readArgMembers(P, End, E);
    }
  }
  // Twice: a writer that puts "level" and "p_idx" last (upstream's order,
  // dftracer_trace_gen access) stops the first chain at "level"; the
  // second takes them from there, where the loop cost ~170 instructions a
  // member (issue 41). Each member is read as the loop would read it.
  for (int Round = 0; Round < 2; ++Round) {
    switch (readInOrder<decltype(ArgKeys), 0, ArgKeys.RuntimeOrder - 1>(
        ArgKeys, P, End, E, 1)) {
    case Chain::Closed:
      return P;
    case Chain::Broken:
      return nullptr;
    case Chain::Rest:
      break;
    }
  }
  return readArgMembers(P, End, E);
}

/// P at the key of a top-level member (the members before it read): the
/// rest of the line; whether it is accepted.
[[gnu::noinline]] bool readTopMembers(const char *P, const char *End, Event &E) {
  while (true) {
    int I;
    if (!readMemberKey(TopLevelKeys, P, End, I))
      return false;
    if (I >= 0 && TopLevelKeys[I].Offset == KeyInfo::ArgsObject) {
      if (P < End && *P == '{') {
        E.ArgsKind = Field::Other;
        P = readArgs(P + 1, End, E);
      } else { // as EventParser: a string, or anything else
        E.ArgsKind = P < End && *P == '"' ? Field::String : Field::Int;
        P = readValue(P, End, nullptr, 0);
      }
    } else {
      P = readMemberValue(
          P, End, I >= 0 ? TopLevelKeys.field(E, TopLevelKeys[I]) : nullptr,
          0);
    }
    if (!P)
      return false;
    if (Next N = afterValue(P, End, '}'); N != Next::Member)
      return N == Next::Closed && skipBlanks(P, End) == End;
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
  // The runtime's lines: "id" to "ph" in its order, then "args" last.
  constexpr int Args = TopLevelKeys.RuntimeOrder - 1;
  static_assert(TopLevelKeys[Args].Offset == KeyInfo::ArgsObject);
  switch (readInOrder<decltype(TopLevelKeys), 0, Args - 1>(TopLevelKeys, P,
                                                            End, E, 0)) {
  case Chain::Closed:
    return skipBlanks(P, End) == End;
  case Chain::Broken:
    return false;
  case Chain::Rest:
    break;
  }
  if (TopLevelKeys.startsMember(Args, P, End) &&
      P[TopLevelKeys[Args].MemberLen] == '{') {
    const char *Q = readArgs(P + TopLevelKeys[Args].MemberLen + 1, End, E);
    if (!Q)
      return false; // the loop would read args the same way
    if (Q + 1 == End && *Q == '}') {
      E.ArgsKind = Field::Other;
      return true;
    }
  }
  return readTopMembers(P, End, E);
}

} // namespace dftrace
