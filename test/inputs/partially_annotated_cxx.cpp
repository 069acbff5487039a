#include <string>
#include <dftracer/dftracer.h>

// One method was annotated by hand; the other was added later.
struct Dataset {
    std::string path() const
    {
        DFTRACER_CPP_FUNCTION();
        return group + "/" + name;
    }

    std::size_t depth() const
    {
        std::size_t n = 0;
        for (char c : group)
            n += c == '/';
        return n;
    }

    std::string group;
    std::string name;
};
