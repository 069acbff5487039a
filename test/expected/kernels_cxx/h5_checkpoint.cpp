// h5_checkpoint.cpp - a C++ checkpoint/restart kernel over parallel HDF5,
// written for annotate's end-to-end tests (issue 7): RAII classes over the
// HDF5 C API (MPI-IO driver, collective transfers), templates over the
// element type, and a restart that asks for a field the checkpoint lacks:
// h5::Dataset's constructor throws, the exception unwinds through
// read_field<T>() (closing its h5::File) and restore_field<T>() catches it.
//
//   mpirun -np N h5_checkpoint OUTDIR [STEPS] [COUNT]
//
// Each step writes density (double), cell_id (long long) and flags (int),
// COUNT elements per rank, to OUTDIR/checkpoint.h5, reads and checks them,
// and restores velocity, never written. Exit 0 when every value matched.

#include <hdf5.h>
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>
#include <dftracer/dftracer.h>

namespace h5 {

// An HDF5 call failed, or the file lacks an object. HDF5's own error stack
// is cleared: the message says what failed.
class Error : public std::runtime_error {
public:
    explicit Error(const std::string &what) : std::runtime_error(what)
    {
        DFTRACER_CPP_FUNCTION();
        H5Eclear2(H5E_DEFAULT);
    }
};

// Returns ID, or throws when an HDF5 call returned a negative value.
inline hid_t check(hid_t id, const char *what)
{
    DFTRACER_CPP_FUNCTION();
    if (id < 0)
        throw Error(std::string("HDF5 call failed: ") + what);
    return id;
}

// A property list, closed when it goes out of scope.
struct PropList {
    explicit PropList(hid_t cls) : id(check(H5Pcreate(cls), "H5Pcreate")) {}
    ~PropList() {
        DFTRACER_CPP_FUNCTION(); H5Pclose(id); }
    PropList(const PropList &) = delete;
    PropList &operator=(const PropList &) = delete;
    const hid_t id;
};

enum class Mode { Create, ReadWrite, ReadOnly };

// A file opened by every rank of COMM through the MPI-IO driver.
struct File {
    File(const std::string &path, Mode mode, MPI_Comm comm)
    {
        DFTRACER_CPP_FUNCTION();
        PropList fapl(H5P_FILE_ACCESS);
        check(H5Pset_fapl_mpio(fapl.id, comm, MPI_INFO_NULL), "H5Pset_fapl_mpio");
        if (mode == Mode::Create)
            id = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl.id);
        else
            id = H5Fopen(path.c_str(),
                         mode == Mode::ReadOnly ? H5F_ACC_RDONLY : H5F_ACC_RDWR, fapl.id);
        check(id, path.c_str());
    }
    ~File() {
        DFTRACER_CPP_FUNCTION(); H5Fclose(id); }
    File(const File &) = delete;
    File &operator=(const File &) = delete;

    bool contains(const std::string &name) const
    {
        DFTRACER_CPP_FUNCTION();
        return H5Lexists(id, name.c_str(), H5P_DEFAULT) > 0;
    }
    hid_t id = H5I_INVALID_HID;
};

// The HDF5 memory type of each element type the kernel stores.
template <typename T> struct Native;
template <> struct Native<double> { static hid_t type() {
    DFTRACER_CPP_FUNCTION(); return H5T_NATIVE_DOUBLE; } };
template <> struct Native<long long> { static hid_t type() {
    DFTRACER_CPP_FUNCTION(); return H5T_NATIVE_LLONG; } };
template <> struct Native<int> { static hid_t type() {
    DFTRACER_CPP_FUNCTION(); return H5T_NATIVE_INT; } };

// One rank's block [offset, offset + count) of a dataset: the dataspaces
// and a collective transfer list, released together.
struct Block {
    Block(hid_t dset, hsize_t offset, hsize_t count) : dxpl(H5P_DATASET_XFER)
    {
        DFTRACER_CPP_FUNCTION();
        memory = check(H5Screate_simple(1, &count, nullptr), "H5Screate_simple");
        file = check(H5Dget_space(dset), "H5Dget_space");
        check(H5Sselect_hyperslab(file, H5S_SELECT_SET, &offset, nullptr, &count, nullptr),
              "H5Sselect_hyperslab");
        check(H5Pset_dxpl_mpio(dxpl.id, H5FD_MPIO_COLLECTIVE), "H5Pset_dxpl_mpio");
    }
    ~Block()
    {
        DFTRACER_CPP_FUNCTION();
        H5Sclose(file);
        H5Sclose(memory);
    }
    hid_t memory = H5I_INVALID_HID;
    hid_t file = H5I_INVALID_HID;
    PropList dxpl;
};

// A one-dimensional dataset.
class Dataset {
public:
    // Creates NAME with TOTAL elements (no timestamps: runs write equal bytes).
    Dataset(const File &file, const std::string &name, hid_t type, hsize_t total)
    {
        DFTRACER_CPP_FUNCTION();
        PropList dcpl(H5P_DATASET_CREATE);
        check(H5Pset_obj_track_times(dcpl.id, 0), "H5Pset_obj_track_times");
        hid_t space = check(H5Screate_simple(1, &total, nullptr), "H5Screate_simple");
        id_ = H5Dcreate2(file.id, name.c_str(), type, space, H5P_DEFAULT,
                         dcpl.id, H5P_DEFAULT);
        H5Sclose(space);
        check(id_, name.c_str());
    }

    // Opens NAME; throws h5::Error when the file has no such dataset.
    Dataset(const File &file, const std::string &name)
    {
        DFTRACER_CPP_FUNCTION();
        if (!file.contains(name))
            throw Error("no dataset '" + name + "' in the checkpoint");
        id_ = check(H5Dopen2(file.id, name.c_str(), H5P_DEFAULT), name.c_str());
    }

    ~Dataset() {
        DFTRACER_CPP_FUNCTION(); H5Dclose(id_); }
    Dataset(const Dataset &) = delete;
    Dataset &operator=(const Dataset &) = delete;
    template <typename T>
    void write(hsize_t offset, const std::vector<T> &values)
    {
        DFTRACER_CPP_FUNCTION();
        Block block(id_, offset, values.size());
        check(H5Dwrite(id_, Native<T>::type(), block.memory, block.file,
                       block.dxpl.id, values.data()),
              "H5Dwrite");
    }

    template <typename T>
    std::vector<T> read(hsize_t offset, hsize_t count) const
    {
        DFTRACER_CPP_FUNCTION();
        std::vector<T> values(count);
        Block block(id_, offset, count);
        check(H5Dread(id_, Native<T>::type(), block.memory, block.file,
                      block.dxpl.id, values.data()),
              "H5Dread");
        return values;
    }

private:
    hid_t id_ = H5I_INVALID_HID;
};

} // namespace h5

struct Layout {
    hsize_t offset; // this rank's first element
    hsize_t count;  // elements per rank
    hsize_t total;  // elements of a field
};

// What element I of field FIELD holds at STEP (not annotated: constexpr,
// and called once per element).
template <typename T>
constexpr T expected_value(int step, hsize_t i, int field)
{
    return static_cast<T>(static_cast<long long>(i) * (field + 3) + step * 1000) /
           static_cast<T>(field + 1);
}

template <typename T>
void write_field(const h5::File &file, const std::string &name, int step, int field,
                 const Layout &layout)
{
    DFTRACER_CPP_FUNCTION();
    std::vector<T> values(layout.count);
    for (hsize_t i = 0; i < layout.count; ++i)
        values[i] = expected_value<T>(step, layout.offset + i, field);
    h5::Dataset dset(file, name, h5::Native<T>::type(), layout.total);
    dset.write(layout.offset, values);
}

// Reads this rank's block of NAME. Opens the file itself: when Dataset's
// constructor throws, the file is closed while the exception passes.
template <typename T>
std::vector<T> read_field(const std::string &path, const std::string &name,
                          const Layout &layout)
{
    DFTRACER_CPP_FUNCTION();
    h5::File file(path, h5::Mode::ReadOnly, MPI_COMM_WORLD);
    h5::Dataset dset(file, name);
    return dset.read<T>(layout.offset, layout.count);
}

template <typename T>
std::vector<T> fallback_values(const Layout &layout, T value)
{
    DFTRACER_CPP_FUNCTION();
    std::vector<T> values(layout.count, value);
    return values;
}

// Restart: NAME's values, or FALLBACK when the checkpoint lacks NAME.
template <typename T>
std::vector<T> restore_field(const std::string &path, const std::string &name,
                             const Layout &layout, T fallback, int *missing)
{
    DFTRACER_CPP_FUNCTION();
    try {
        return read_field<T>(path, name, layout);
    } catch (const h5::Error &e) {
        ++*missing;
        if (layout.offset == 0)
            std::printf("restart: %s, using %g\n", e.what(), static_cast<double>(fallback));
        return fallback_values(layout, fallback);
    }
}

// Values that differ from what write_field stored; rank 0 prints a checksum.
template <typename T>
long verify_field(const std::vector<T> &values, const std::string &name, int step,
                  int field, const Layout &layout)
{
    DFTRACER_CPP_FUNCTION();
    long wrong = 0;
    double sum = 0.0;
    for (hsize_t i = 0; i < layout.count; ++i) {
        if (values[i] != expected_value<T>(step, layout.offset + i, field))
            ++wrong;
        sum += static_cast<double>(values[i]);
    }
    double total = 0.0;
    MPI_Reduce(&sum, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (layout.offset == 0)
        std::printf("%-12s checksum %.6e\n", name.c_str(), total);
    return wrong;
}

// Writes one step's fields, reads them back, and restarts from them.
long checkpoint_step(const std::string &path, int step, const Layout &layout,
                     int *missing)
{
    DFTRACER_CPP_FUNCTION();
    const std::string suffix = "_" + std::to_string(step);
    {
        h5::File file(path, step == 0 ? h5::Mode::Create : h5::Mode::ReadWrite,
                      MPI_COMM_WORLD);
        write_field<double>(file, "density" + suffix, step, 0, layout);
        write_field<long long>(file, "cell_id" + suffix, step, 1, layout);
        write_field<int>(file, "flags" + suffix, step, 2, layout);
    }
    long wrong = 0;
    wrong += verify_field(read_field<double>(path, "density" + suffix, layout),
                          "density" + suffix, step, 0, layout);
    wrong += verify_field(read_field<long long>(path, "cell_id" + suffix, layout),
                          "cell_id" + suffix, step, 1, layout);
    wrong += verify_field(read_field<int>(path, "flags" + suffix, layout),
                          "flags" + suffix, step, 2, layout);
    std::vector<double> velocity =
        restore_field<double>(path, "velocity" + suffix, layout, 0.5, missing);
    for (double v : velocity)
        wrong += v != 0.5;
    return wrong;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    DFTRACER_C_INIT(NULL, NULL, NULL);
    DFTRACER_C_FUNCTION_START();
    DFTRACER_C_METADATA(annotate_meta_0, "app", "h5_checkpoint");
    int rank = 0, size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc < 2) {
        if (rank == 0)
            std::fprintf(stderr, "usage: %s OUTDIR [STEPS] [COUNT]\n", argv[0]);
        MPI_Finalize();
        DFTRACER_C_FUNCTION_END();
        DFTRACER_C_FINI();
        return 2;
    }
    const std::string path = std::string(argv[1]) + "/checkpoint.h5";
    const int steps = argc > 2 ? std::atoi(argv[2]) : 3;
    const hsize_t count = argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 1024;
    const Layout layout = {static_cast<hsize_t>(rank) * count, count,
                           static_cast<hsize_t>(size) * count};
    if (rank == 0)
        std::printf("h5_checkpoint: %d ranks, %d steps, %llu elements per rank\n",
                    size, steps, static_cast<unsigned long long>(count));

    long wrong = 0;
    int missing = 0;
    try {
        for (int step = 0; step < steps; ++step)
            wrong += checkpoint_step(path, step, layout, &missing);
    } catch (const h5::Error &e) {
        std::fprintf(stderr, "rank %d: %s\n", rank, e.what());
        DFTRACER_C_FUNCTION_END();
        DFTRACER_C_FINI();
        MPI_Abort(MPI_COMM_WORLD, 1);
    }

    long wrong_total = 0;
    MPI_Allreduce(&wrong, &wrong_total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        std::printf("%s: %ld wrong values, %d fields restored from defaults\n",
                    wrong_total == 0 ? "verified" : "FAILED", wrong_total, missing);
    DFTRACER_C_FUNCTION_END();
    DFTRACER_C_FINI();
    MPI_Finalize();
    return wrong_total == 0 ? 0 : 1;
}
