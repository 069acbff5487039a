#include <string>
#include <dftracer/dftracer.h>

namespace h5io {

// Path of one timestep's dataset inside a group.
std::string dataset_path(const std::string &group, int step)
{
    DFTRACER_CPP_FUNCTION();
    return group + "/step" + std::to_string(step);
}

int owner_rank(int chunk, int nranks);

} // namespace h5io

int h5io::owner_rank(int chunk, int nranks)
{
    DFTRACER_CPP_FUNCTION();
    return chunk % nranks;
}
