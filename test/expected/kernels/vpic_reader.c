/*
 * vpic_reader.c - reads and verifies the file written by vpic_writer
 * (sample kernel for annotate).
 *
 * The reader may run on any number of ranks: the file positions of every
 * dataset are split into one contiguous block per reader rank, and each
 * value is checked against the formula the writer used, taking the
 * timestep's access pattern (stored as an attribute) into account. A
 * missing file, a missing timestep or dataset, or a dataset of the wrong
 * shape or type is an error: the program reports it and exits non-zero.
 *
 * Rank 0 prints per-dataset checksums to stdout and, when REPORT is given,
 * to that file, so that two runs can be compared byte for byte.
 *
 * Usage: vpic_reader FILE [REPORT]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hdf5.h>
#include <mpi.h>
#include <dftracer/dftracer.h>

#define NUM_PROPS 8

#define FAIL(...)                                                              \
    do {                                                                       \
        fprintf(stderr, "vpic_reader: error: " __VA_ARGS__);                   \
        fprintf(stderr, "\n");                                                 \
        MPI_Abort(MPI_COMM_WORLD, 1);                                          \
    } while (0)

typedef struct {
    long long particles; /* per writer rank */
    long long writers;   /* ranks that wrote the file */
    long long timesteps;
    long long id_base;
    double grid_spacing, velocity_scale, dt;
} file_info_t;

static const char *prop_names[NUM_PROPS] = {"x",  "y",  "z",   "ux",
                                            "uy", "uz", "id1", "id2"};

static long long read_int_attr(hid_t loc, const char *name)
{
    DFTRACER_C_FUNCTION_START();
    long long value = -1;
    hid_t attr;
    if (H5Aexists(loc, name) <= 0)
        FAIL("attribute '%s' is missing: not a vpic_writer file?", name);
    attr = H5Aopen(loc, name, H5P_DEFAULT);
    if (attr < 0 || H5Aread(attr, H5T_NATIVE_LLONG, &value) < 0)
        FAIL("cannot read attribute '%s'", name);
    H5Aclose(attr);
    DFTRACER_C_FUNCTION_END();
    return value;
}

static double read_double_attr(hid_t loc, const char *name)
{
    DFTRACER_C_FUNCTION_START();
    double value = 0.0;
    hid_t attr = H5Aopen(loc, name, H5P_DEFAULT);
    if (attr < 0)
        FAIL("attribute '%s' is missing", name);
    else if (H5Aread(attr, H5T_NATIVE_DOUBLE, &value) < 0)
        FAIL("cannot read attribute '%s'", name);
    H5Aclose(attr);
    DFTRACER_C_FUNCTION_END();
    return value;
}

/* Global particle index stored at file position pos under pattern file. */
#define PARTICLE_AT(info, file, pos)                                           \
    ((file) == 'C' ? (pos)                                                     \
                   : ((pos) % (info)->writers) * (info)->particles +           \
                         (pos) / (info)->writers)

/* What the writer stored in property k at file positions start..+count
 * (vpic_writer.c: prop_values and the id arrays). */
static void expected_block(const file_info_t *info, int t, int k, char file,
                           long long start, long long count, void *out)
{
    DFTRACER_C_FUNCTION_START();
    long long i;
    for (i = 0; i < count; i++) {
        long long g = PARTICLE_AT(info, file, start + i);
        float base = (float)(g % 1024) * (float)info->grid_spacing;
        if (k < 3)
            ((float *)out)[i] = base + (float)k + (float)t * (float)info->dt;
        else if (k < 6)
            ((float *)out)[i] =
                (float)info->velocity_scale * (float)((g + k + t) % 64);
        else if (k == 6)
            ((int *)out)[i] = (int)info->id_base + (int)(g % 100000);
        else
            ((int *)out)[i] = (int)((g * 7 + t) % 65536);
    }
    DFTRACER_C_FUNCTION_END();
}

static void read_pattern(hid_t group, int t, char *mem, char *file)
{
    DFTRACER_C_FUNCTION_START();
    char pat[3] = {0, 0, 0};
    hid_t attr, str;
    H5E_BEGIN_TRY {
        attr = H5Aopen(group, "pattern", H5P_DEFAULT);
    } H5E_END_TRY;
    if (attr < 0)
        FAIL("timestep %d has no 'pattern' attribute", t);
    str = H5Tcopy(H5T_C_S1);
    H5Tset_size(str, 3);
    if (H5Aread(attr, str, pat) < 0 || (pat[1] != 'C' && pat[1] != 'I'))
        FAIL("timestep %d has a bad 'pattern' attribute", t);
    H5Tclose(str);
    H5Aclose(attr);
    *mem = pat[0];
    *file = pat[1];
    DFTRACER_C_FUNCTION_END();
}

/* Verifies one dataset; returns the number of wrong values and adds the
 * bit patterns of the local values to *sum. */
static long long verify_dataset(hid_t group, const file_info_t *info, int t,
                                int k, int rank, int nprocs, uint64_t *sum)
{
    DFTRACER_C_FUNCTION_START();
    char mem, file;
    hsize_t dims[2], total = (hsize_t)(info->particles * info->writers);
    hsize_t start, count;
    hid_t dset, space, memspace, type;
    long long i, bad = 0;
    void *buf, *want;
    int ndims;

    read_pattern(group, t, &mem, &file);
    dset = H5Dopen2(group, prop_names[k], H5P_DEFAULT);
    if (dset < 0)
        FAIL("timestep %d: dataset '%s' is missing", t, prop_names[k]);
    space = H5Dget_space(dset);
    ndims = H5Sget_simple_extent_ndims(space);
    if (ndims != 1)
        FAIL("timestep %d: '%s' has %d dimensions, expected 1", t,
             prop_names[k], ndims);
    H5Sget_simple_extent_dims(space, dims, NULL);
    if (dims[0] != total)
        FAIL("timestep %d: '%s' has %llu elements, expected %llu", t,
             prop_names[k], (unsigned long long)dims[0],
             (unsigned long long)total);
    type = H5Dget_type(dset);
    if (H5Tget_class(type) != (k < 6 ? H5T_FLOAT : H5T_INTEGER) ||
        H5Tget_size(type) != 4)
        FAIL("timestep %d: '%s' has the wrong element type", t, prop_names[k]);
    H5Tclose(type);

    count = total / (hsize_t)nprocs;
    start = (hsize_t)rank * count;
    if (rank == nprocs - 1)
        count = total - start;
    H5Sselect_hyperslab(space, H5S_SELECT_SET, &start, NULL, &count, NULL);
    memspace = H5Screate_simple(1, &count, NULL);
    buf = malloc(4 * (count > 0 ? count : 1));
    want = malloc(4 * (count > 0 ? count : 1));
    if (H5Dread(dset, k < 6 ? H5T_NATIVE_FLOAT : H5T_NATIVE_INT, memspace,
                space, H5P_DEFAULT, buf) < 0)
        FAIL("timestep %d: cannot read '%s'", t, prop_names[k]);

    expected_block(info, t, k, file, (long long)start, (long long)count, want);
    for (i = 0; i < (long long)count; i++) {
        uint32_t bits;
        if (k < 6 ? ((float *)buf)[i] != ((float *)want)[i]
                  : ((int *)buf)[i] != ((int *)want)[i])
            bad++;
        memcpy(&bits, (char *)buf + 4 * i, 4);
        *sum += bits;
    }
    free(want);
    free(buf);
    H5Sclose(memspace);
    H5Sclose(space);
    H5Dclose(dset);
    DFTRACER_C_FUNCTION_END();
    return bad;
}

static hid_t open_file(const char *path)
{
    DFTRACER_C_FUNCTION_START();
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS), fid;
    H5Pset_fapl_mpio(fapl, MPI_COMM_WORLD, MPI_INFO_NULL);
    H5E_BEGIN_TRY {
        fid = H5Fopen(path, H5F_ACC_RDONLY, fapl);
    } H5E_END_TRY;
    H5Pclose(fapl);
    DFTRACER_C_FUNCTION_END();
    return fid;
}

int main(int argc, char **argv)
{
    int rank, nprocs, t, k;
    long long bad = 0, total_bad = 0;
    file_info_t info;
    FILE *report = NULL;
    hid_t fid;

    MPI_Init(&argc, &argv);
    DFTRACER_C_INIT(NULL, NULL, NULL);
    DFTRACER_C_FUNCTION_START();
    DFTRACER_C_METADATA(annotate_meta_0, "app", "vpic_reader");
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    if (argc < 2 || argc > 3) {
        if (rank == 0)
            fprintf(stderr, "usage: %s FILE [REPORT]\n", argv[0]);
        MPI_Finalize();
        DFTRACER_C_FUNCTION_END();
        DFTRACER_C_FINI();
        return 2;
    }

    fid = open_file(argv[1]);
    if (fid < 0) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        DFTRACER_C_FINI();
        FAIL("cannot open '%s' as an HDF5 file", argv[1]);
    }
    info.particles = read_int_attr(fid, "particles_per_rank");
    info.writers = read_int_attr(fid, "nprocs");
    info.timesteps = read_int_attr(fid, "timesteps");
    info.id_base = read_int_attr(fid, "id_base");
    info.grid_spacing = read_double_attr(fid, "grid_spacing");
    info.velocity_scale = read_double_attr(fid, "velocity_scale");
    info.dt = read_double_attr(fid, "dt");
    if (info.particles <= 0 || info.writers <= 0 || info.timesteps <= 0) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        DFTRACER_C_FINI();
        FAIL("'%s' describes an empty run", argv[1]);
    }

    if (rank == 0 && argc == 3 && (report = fopen(argv[2], "w")) == NULL) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        DFTRACER_C_FINI();
        FAIL("cannot create report '%s'", argv[2]);
    }

    for (t = 0; t < info.timesteps; t++) {
        char name[64];
        hid_t group;
        snprintf(name, sizeof(name), "Timestep_%d", t);
        group = H5Gopen2(fid, name, H5P_DEFAULT);
        if (group < 0) { /* annotate */
            DFTRACER_C_FUNCTION_END();
            DFTRACER_C_FINI();
            FAIL("'%s' has no group %s", argv[1], name);
        }
        for (k = 0; k < NUM_PROPS; k++) {
            uint64_t sum = 0, total_sum = 0;
            bad += verify_dataset(group, &info, t, k, rank, nprocs, &sum);
            MPI_Reduce(&sum, &total_sum, 1, MPI_UINT64_T, MPI_SUM, 0,
                       MPI_COMM_WORLD);
            if (rank == 0) {
                printf("%s/%-3s checksum %016llx\n", name, prop_names[k],
                       (unsigned long long)total_sum);
                if (report != NULL)
                    fprintf(report, "%s/%s %016llx\n", name, prop_names[k],
                            (unsigned long long)total_sum);
            }
        }
        H5Gclose(group);
    }
    H5Fclose(fid);

    MPI_Allreduce(&bad, &total_bad, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) {
        printf("vpic_reader: %lld timesteps x %d datasets x %lld particles, "
               "%lld mismatches\n",
               info.timesteps, NUM_PROPS, info.particles * info.writers,
               total_bad);
        if (report != NULL)
            fclose(report);
    }
    DFTRACER_C_FUNCTION_END();
    DFTRACER_C_FINI();
    MPI_Finalize();
    if (total_bad != 0) {
        if (rank == 0)
            fprintf(stderr, "vpic_reader: verification FAILED\n");
        return 1;
    }
    return 0;
}
