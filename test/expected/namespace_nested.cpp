#include <cstddef>
#include <dftracer/dftracer.h>

namespace io {
namespace hdf5 {

std::size_t chunk_bytes(std::size_t elements, std::size_t width)
{
    DFTRACER_CPP_FUNCTION();
    return elements * width;
}

} // namespace hdf5
} // namespace io

namespace io::mpi {

int stripe_of(long offset, long stripe_size) {
    DFTRACER_CPP_FUNCTION(); return static_cast<int>(offset / stripe_size); }

inline namespace v2 {
long aligned(long offset, long alignment)
{
    DFTRACER_CPP_FUNCTION();
    return (offset + alignment - 1) / alignment * alignment;
}
} // namespace v2

} // namespace io::mpi
