#include <cstdio>
#include <stdexcept>
#include <string>

// Function-try-blocks are skipped: their handlers run after the body's scope
// has ended, where a guard declared in the body no longer exists.
int parse_count(const std::string &text)
try {
    return std::stoi(text);
} catch (const std::exception &) {
    return -1;
}

struct Config {
    explicit Config(const std::string &text)
    try : count(std::stoi(text)) {
    } catch (const std::invalid_argument &) {
        std::fprintf(stderr, "bad count '%s'\n", text.c_str());
        throw;
    }

    int count;
};

int parse_or_zero(const std::string &text)
{
    int n = parse_count(text);
    return n < 0 ? 0 : n;
}
