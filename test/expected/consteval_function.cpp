// consteval functions only run at compile time: skipped.
#include <dftracer/dftracer.h>
consteval int header_bytes(int fields)
{
    return 16 + 8 * fields;
}

int record_bytes(int payload)
{
    DFTRACER_CPP_FUNCTION();
    return header_bytes(3) + payload;
}
