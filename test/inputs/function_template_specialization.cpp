#include <cstring>

// A name for each element type; the primary template and every explicit
// specialization are written code, each annotated once.
template <typename T>
const char *type_name()
{
    return "opaque";
}

template <>
const char *type_name<double>()
{
    return "double";
}

template <>
const char *type_name<int>() { return "int"; }

bool same_names()
{
    return std::strcmp(type_name<int>(), type_name<double>()) == 0 ||
           std::strcmp(type_name<char>(), type_name<long>()) == 0;
}
