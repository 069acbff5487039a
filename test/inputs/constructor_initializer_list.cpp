#include <cstddef>
#include <vector>

// One rank's share of a dataset, filled when it is built.
class RankSlab {
public:
    RankSlab(std::size_t count, int rank)
        : values_(count), rank_(rank)
    {
        for (std::size_t i = 0; i < values_.size(); ++i)
            values_[i] = rank_ * 1000.0 + static_cast<double>(i);
    }

    explicit RankSlab(int rank) : RankSlab(16, rank) {}

    RankSlab(const RankSlab &other) : values_(other.values_), rank_(other.rank_) { }

    std::vector<double> values_;
    int rank_;
};

struct Counters {
    Counters();
    long calls;
    long bytes;
};

Counters::Counters()
    : calls(0),
      bytes(0)
{
}
