#include <string>

// `auto` return types deduced from the body, not spelled.
auto rank_label(int rank)
{
    return "rank-" + std::to_string(rank);
}

decltype(auto) first_char(std::string &s) { return (s[0]); }
