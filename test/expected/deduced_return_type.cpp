#include <string>
#include <dftracer/dftracer.h>

// `auto` return types deduced from the body, not spelled.
auto rank_label(int rank)
{
    DFTRACER_CPP_FUNCTION();
    return "rank-" + std::to_string(rank);
}

decltype(auto) first_char(std::string &s) {
    DFTRACER_CPP_FUNCTION(); return (s[0]); }
