// Defaulted and deleted functions have no body of their own: skipped.
#include <dftracer/dftracer.h>
class Stream {
public:
    Stream() = default;
    Stream(const Stream &) = delete;
    Stream &operator=(const Stream &) = delete;
    ~Stream();

    int fd = -1;
};

Stream::~Stream() = default;

void seek(Stream &, double) = delete;

void seek(Stream &s, long offset)
{
    DFTRACER_CPP_FUNCTION();
    s.fd = static_cast<int>(offset);
}
