//===- Archive.h - Aggregates to bytes and back -----------------*- C++ -*-===//
//
// MPI mode sends each rank's partial aggregate to rank 0 as bytes. Every
// aggregate type has one `visit(Archive &, T &)` listing its members; the
// same function writes (Writer) and reads (Reader):
//
// \code
//   template <class A> void visit(A &Ar, OpStat &S) {
//     Ar(S.Ops, S.TimeUs, S.Bytes);
//   }
// \endcode
//
// Integers are LEB128 varints (signed ones zig-zag encoded), strings and
// containers carry their length first. Fixed arrays and pairs are the same
// walk over their parts either way, so they are visit()s too.
//
//===----------------------------------------------------------------------===//
#ifndef DFTRACER_ANALYZE_ARCHIVE_H
#define DFTRACER_ANALYZE_ARCHIVE_H

#include <cstddef>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace dftanalyze {

template <class A, class T, size_t N> void visit(A &Ar, T (&V)[N]) {
  for (T &E : V)
    Ar(E);
}
template <class A, class K, class V> void visit(A &Ar, std::pair<K, V> &P) {
  Ar(P.first, P.second);
}

class Writer {
public:
  static constexpr bool Reading = false;
  std::string Bytes;

  template <class... Ts> void operator()(Ts &...Values) { (item(Values), ...); }

  void raw(uint64_t V) {
    while (V >= 0x80) {
      Bytes.push_back(static_cast<char>((V & 0x7f) | 0x80));
      V >>= 7;
    }
    Bytes.push_back(static_cast<char>(V));
  }

private:
  template <class T> void item(T &V) {
    if constexpr (std::is_enum_v<T>) {
      raw(static_cast<uint64_t>(V));
    } else if constexpr (std::is_same_v<T, bool>) {
      raw(V ? 1 : 0);
    } else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
      int64_t S = V;
      raw((static_cast<uint64_t>(S) << 1) ^ static_cast<uint64_t>(S >> 63));
    } else if constexpr (std::is_integral_v<T>) {
      raw(V);
    } else {
      visit(*this, V);
    }
  }
  void item(std::string &S) {
    raw(S.size());
    Bytes.append(S);
  }
  template <class T> void item(std::vector<T> &V) {
    raw(V.size());
    for (T &E : V)
      item(E);
  }
  template <class K, class V> void item(std::map<K, V> &M) {
    raw(M.size());
    for (auto &[Key, Value] : M) {
      K Copy = Key;
      item(Copy);
      item(Value);
    }
  }
};

class Reader {
public:
  static constexpr bool Reading = true;
  Reader(const char *Data, size_t Size) : P(Data), End(Data + Size) {}

  template <class... Ts> void operator()(Ts &...Values) { (item(Values), ...); }

  uint64_t raw() {
    uint64_t V = 0;
    for (int Shift = 0; Shift < 64; Shift += 7) {
      if (P == End)
        throw std::runtime_error("aggregate bytes end early");
      uint8_t B = static_cast<uint8_t>(*P++);
      V |= static_cast<uint64_t>(B & 0x7f) << Shift;
      if (!(B & 0x80))
        return V;
    }
    throw std::runtime_error("bad varint in aggregate bytes");
  }
  bool atEnd() const { return P == End; }

private:
  template <class T> void item(T &V) {
    if constexpr (std::is_enum_v<T>) {
      V = static_cast<T>(raw());
    } else if constexpr (std::is_same_v<T, bool>) {
      V = raw() != 0;
    } else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
      uint64_t U = raw();
      V = static_cast<T>(static_cast<int64_t>((U >> 1) ^ (~(U & 1) + 1)));
    } else if constexpr (std::is_integral_v<T>) {
      V = static_cast<T>(raw());
    } else {
      visit(*this, V);
    }
  }
  void item(std::string &S) {
    uint64_t N = raw();
    if (static_cast<uint64_t>(End - P) < N)
      throw std::runtime_error("aggregate bytes end early");
    S.assign(P, N);
    P += N;
  }
  template <class T> void item(std::vector<T> &V) {
    V.resize(raw());
    for (T &E : V)
      item(E);
  }
  template <class K, class V> void item(std::map<K, V> &M) {
    M.clear();
    uint64_t N = raw();
    for (uint64_t I = 0; I < N; ++I) {
      K Key{};
      item(Key);
      item(M[Key]);
    }
  }

  const char *P;
  const char *End;
};

} // namespace dftanalyze

#endif
