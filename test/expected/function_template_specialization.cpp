#include <cstring>
#include <dftracer/dftracer.h>

// A name for each element type; the primary template and every explicit
// specialization are written code, each annotated once.
template <typename T>
const char *type_name()
{
    DFTRACER_CPP_FUNCTION();
    return "opaque";
}

template <>
const char *type_name<double>()
{
    DFTRACER_CPP_FUNCTION();
    return "double";
}

template <>
const char *type_name<int>() {
    DFTRACER_CPP_FUNCTION(); return "int"; }

bool same_names()
{
    DFTRACER_CPP_FUNCTION();
    return std::strcmp(type_name<int>(), type_name<double>()) == 0 ||
           std::strcmp(type_name<char>(), type_name<long>()) == 0;
}
