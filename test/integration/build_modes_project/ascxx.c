/* C++ in a .c file, compiled as C++ (LANGUAGE CXX), with a definition of
 * its own (ASCXX_BIAS); modes.h comes from the precompiled header. */
namespace {
template <typename T> T biased(const T &v) { return v + ASCXX_BIAS; }
} // namespace

int ascxx_value(int x) { return biased(x) * MODES_PCH_FACTOR; }
