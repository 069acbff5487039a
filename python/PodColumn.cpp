//===- PodColumn.cpp - Pages made ready in bulk ---------------------------===//

#include "PodColumn.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>

namespace annotate_traces {
namespace {

size_t pageSize() {
  static const size_t P = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return P;
}

size_t pages(size_t Bytes) {
  size_t P = pageSize();
  return (Bytes + P - 1) / P * P;
}

/// Made ready ahead of the writes: an eighth of what is ready, at least
/// this much (fewer calls), so memory beyond use stays under 1/8 + 64 KiB.
constexpr size_t MinStep = 64 << 10;
/// Reserved when nothing was: grown by doubling after that.
constexpr size_t MinReserve = 1 << 20;

} // namespace

PageBuffer &PageBuffer::operator=(PageBuffer &&O) noexcept {
  if (this != &O) {
    unmap();
    Base = std::exchange(O.Base, nullptr);
    Reserved = std::exchange(O.Reserved, 0);
    Ready = std::exchange(O.Ready, 0);
  }
  return *this;
}

void PageBuffer::unmap() {
  if (Base)
    munmap(Base, Reserved);
  Base = nullptr;
  Reserved = Ready = 0;
}

void PageBuffer::unmap(void *Data, size_t Bytes) {
  if (Data)
    munmap(Data, Bytes);
}

void PageBuffer::reserve(size_t Bytes) {
  Bytes = pages(std::max(Bytes, MinReserve));
  if (Bytes <= Reserved)
    return;
  void *P = Base ? mremap(Base, Reserved, Bytes, MREMAP_MAYMOVE)
                 : mmap(nullptr, Bytes, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (P == MAP_FAILED)
    throw std::bad_alloc();
  Base = static_cast<uint8_t *>(P);
  Reserved = Bytes;
}

uint8_t *PageBuffer::ensure(size_t Bytes) {
  if (Bytes <= Ready)
    return Base;
  if (Bytes > Reserved)
    reserve(std::max(Bytes, 2 * Reserved));
  size_t Target = std::min(
      Reserved, pages(std::max(Bytes, Ready + std::max(MinStep, Ready / 8))));
  // Without MADV_POPULATE_WRITE (a kernel before 5.14) the pages come in
  // one fault at a time, as any memory does.
#ifdef MADV_POPULATE_WRITE
  madvise(Base + Ready, Target - Ready, MADV_POPULATE_WRITE);
#endif
  Ready = Target;
  return Base;
}

std::pair<void *, size_t> PageBuffer::release(size_t Bytes) {
  size_t Keep = pages(Bytes);
  if (Base && Keep < Reserved)
    munmap(Base + Keep, Reserved - Keep);
  if (Base && Keep == 0)
    Base = nullptr;
  std::pair<void *, size_t> R{Base, Keep};
  Base = nullptr;
  Reserved = Ready = 0;
  return R;
}

} // namespace annotate_traces
