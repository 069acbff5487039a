//===- PodColumn.h - A column in pages made ready in bulk ------*- C++ -*-===//
//
// events() writes about 100 bytes of columns per span, all of it memory the
// process never had: 1 GB for 10 M spans. Taken a page at a time, by the
// first write to each, that is one page fault per 4 KiB; on this project's
// virtual machine a fault costs ~13 us (a trap to the hypervisor), 3.4 s
// per GB, which made the faults two thirds of events()' time. Asked for in
// bulk (madvise MADV_POPULATE_WRITE, Linux 5.14) the same pages cost 0.2 s
// per GB (docs/performance.md, "Python module").
//
// So a column is an anonymous mapping: its address space reserved up front
// (MAP_NORESERVE: no memory until written), made ready ahead of the writes
// in steps of an eighth of what it holds, grown in place or moved by
// mremap (page tables move, no bytes are copied) when the reservation is
// exceeded. released() hands the mapping to numpy, which unmaps it.
// Elements are trivially copyable; new elements are zero the first time
// the column reaches them and unspecified after clear().
//
// \code
//   PodColumn<int64_t> Ts;
//   Ts.reserve(EstimatedRows);   // address space only
//   Ts.push_back(42);
//   auto [Data, Bytes] = Ts.release(); // munmap(Data, Bytes) when done
// \endcode
//
//===----------------------------------------------------------------------===//
#ifndef ANNOTATE_TRACES_PODCOLUMN_H
#define ANNOTATE_TRACES_PODCOLUMN_H

#include <cstddef>
#include <cstdint>
#include <new>
#include <type_traits>
#include <utility>

namespace annotate_traces {

/// Bytes in an anonymous mapping, ready (written to once) up to ready().
class PageBuffer {
public:
  PageBuffer() = default;
  PageBuffer(const PageBuffer &) = delete;
  PageBuffer &operator=(const PageBuffer &) = delete;
  PageBuffer(PageBuffer &&O) noexcept { *this = std::move(O); }
  PageBuffer &operator=(PageBuffer &&O) noexcept;
  ~PageBuffer() { unmap(); }

  /// Address space for Bytes (no memory is used until written).
  void reserve(size_t Bytes);
  /// Makes the first Bytes ready, and some beyond; returns the base.
  uint8_t *ensure(size_t Bytes);
  uint8_t *data() const { return Base; }
  size_t ready() const { return Ready; }
  /// Unmaps what lies beyond the page holding byte Bytes - 1, then gives
  /// up the mapping: its base and length (0, 0 when nothing was mapped).
  std::pair<void *, size_t> release(size_t Bytes);
  /// munmap for release()'s result.
  static void unmap(void *Data, size_t Bytes);

private:
  void unmap();

  uint8_t *Base = nullptr;
  size_t Reserved = 0; // mapped
  size_t Ready = 0;    // made ready
};

template <class T> class PodColumn {
  static_assert(std::is_trivially_copyable_v<T>);

public:
  PodColumn() = default;
  PodColumn(PodColumn &&O) noexcept { *this = std::move(O); }
  PodColumn &operator=(PodColumn &&O) noexcept {
    Buf = std::move(O.Buf);
    Data = std::exchange(O.Data, nullptr);
    Size = std::exchange(O.Size, 0);
    Cap = std::exchange(O.Cap, 0);
    return *this;
  }
  void reserve(size_t N) { Buf.reserve(N * sizeof(T)); }
  void push_back(T V) {
    if (__builtin_expect(Size == Cap, 0))
      grow(Size + 1);
    Data[Size++] = V;
  }
  /// New elements: zero the first time, unspecified after clear().
  void resize(size_t N) {
    if (N > Cap)
      grow(N);
    Size = N;
  }
  void assign(size_t N, T V) {
    resize(N);
    for (size_t I = 0; I < N; ++I)
      Data[I] = V;
  }
  void clear() { Size = 0; } // the pages stay ready for the next use
  size_t size() const { return Size; }
  bool empty() const { return Size == 0; }
  T *data() { return Data; }
  const T *data() const { return Data; }
  T &operator[](size_t I) { return Data[I]; }
  const T &operator[](size_t I) const { return Data[I]; }
  T *begin() { return Data; }
  T *end() { return Data + Size; }
  const T *begin() const { return Data; }
  const T *end() const { return Data + Size; }
  void append(const T *From, size_t N) {
    size_t At = Size;
    resize(Size + N);
    for (size_t I = 0; I < N; ++I)
      Data[At + I] = From[I];
  }
  /// The mapping, for numpy (PageBuffer::release); the column is empty.
  std::pair<void *, size_t> release() {
    auto R = Buf.release(Size * sizeof(T));
    Data = nullptr;
    Size = Cap = 0;
    return R;
  }

private:
  void grow(size_t N) {
    Data = reinterpret_cast<T *>(Buf.ensure(N * sizeof(T)));
    Cap = Buf.ready() / sizeof(T);
  }

  PageBuffer Buf;
  T *Data = nullptr;
  size_t Size = 0, Cap = 0;
};

} // namespace annotate_traces

#endif
