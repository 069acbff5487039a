#include <ostream>

// A friend defined inside the class is a free function written there.
class Offset {
public:
    explicit Offset(long v) : value_(v) {}

    friend bool operator==(const Offset &a, const Offset &b)
    {
        return a.value_ == b.value_;
    }

    friend std::ostream &print(std::ostream &os, const Offset &o) { return os << o.value_; }

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
        return a.value < b.value;
    }
};

bool ordered(long a, long b, double c, double d)
{
    return Tagged<long>{a} < Tagged<long>{b} && Tagged<double>{c} < Tagged<double>{d};
}
