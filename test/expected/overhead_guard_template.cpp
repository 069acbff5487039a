#include <vector>
#include <dftracer/dftracer.h>

// The overhead guard judges the written template. Constructing a
// std::vector<T> is never a leaf, whatever T is, even though in the template
// the construction is not resolved yet: all three functions are traced.
template <typename T>
std::vector<T> filled(int n, T value) {
    DFTRACER_CPP_FUNCTION(); return std::vector<T>(n, value); }

std::vector<int> zeros(int n) {
    DFTRACER_CPP_FUNCTION(); return std::vector<int>(n, 0); }

std::vector<double> halves(int n) {
    DFTRACER_CPP_FUNCTION(); return filled(n, 0.5); }
