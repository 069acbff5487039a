#include <string>
#include <utility>
#include <vector>
#include <dftracer/dftracer.h>

// Record's constructors, assignments and destructor are implicit: the
// compiler writes them, there is no text to annotate.
struct Record {
    std::string name;
    std::vector<double> values;
};

Record rename(const Record &r, const std::string &name)
{
    DFTRACER_CPP_FUNCTION();
    Record copy = r;
    copy.name = name;
    Record moved = std::move(copy);
    moved = r;
    moved.name = name;
    return moved;
}
