#include <ostream>
#include <dftracer/dftracer.h>

// A friend defined inside the class is a free function written there.
class Offset {
public:
    explicit Offset(long v) : value_(v) {
        DFTRACER_CPP_FUNCTION();}

    friend bool operator==(const Offset &a, const Offset &b)
    {
        DFTRACER_CPP_FUNCTION();
        return a.value_ == b.value_;
    }

    friend std::ostream &print(std::ostream &os, const Offset &o) {
        DFTRACER_CPP_FUNCTION(); return os << o.value_; }

private:
    long value_;
};

std::ostream &print(std::ostream &os, const Offset &o);

// A hidden friend of a class template: written once, whatever the template
// is instantiated with.
template <typename T>
struct Tagged {
    T value;

    friend bool operator<(const Tagged &a, const Tagged &b)
    {
        DFTRACER_CPP_FUNCTION();
        return a.value < b.value;
    }
};

bool ordered(long a, long b, double c, double d)
{
    DFTRACER_CPP_FUNCTION();
    return Tagged<long>{a} < Tagged<long>{b} && Tagged<double>{c} < Tagged<double>{d};
}
