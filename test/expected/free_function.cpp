#include <cstdio>
#include <string>
#include <vector>
#include <dftracer/dftracer.h>

// Sums one block of samples; an empty block sums to zero.
double block_sum(const std::vector<double> &samples)
{
    DFTRACER_CPP_FUNCTION();
    if (samples.empty())
        return 0.0;
    double sum = 0.0;
    for (double s : samples)
        sum += s;
    return sum;
}

void log_line(const std::string &text)
{
    DFTRACER_CPP_FUNCTION();
    std::printf("%s\n", text.c_str());
}

int block_count(int bytes, int block) {
    DFTRACER_CPP_FUNCTION(); return (bytes + block - 1) / block; }

static void flush_stdout() {
    DFTRACER_CPP_FUNCTION(); std::fflush(stdout); }

void report(const std::vector<double> &samples, int block)
{
    DFTRACER_CPP_FUNCTION();
    log_line("sum " + std::to_string(block_sum(samples)));
    log_line("blocks " + std::to_string(block_count(
        static_cast<int>(samples.size() * sizeof(double)), block)));
    flush_stdout();
}
