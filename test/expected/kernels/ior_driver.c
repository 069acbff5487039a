/*
 * ior_driver.c - IOR-style I/O driver (sample kernel for annotate).
 *
 * A table of backends (POSIX, MPI-IO, HDF5) of function pointers runs one
 * segmented shared-file pattern: rank r owns BLOCK bytes at offset
 * (segment * nprocs + r) * BLOCK, moved in XFER-byte transfers; each
 * repetition writes, reads back shifted by one rank, verifies every word.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <hdf5.h>
#include <mpi.h>
#include <dftracer/dftracer.h>

typedef long long IOR_offset_t;
typedef unsigned long long IOR_size_t;
enum { WRITE, READ };

typedef struct IOR_param_t {
    char api[16];
    char testFileName[1024];
    IOR_offset_t blockSize, transferSize;
    int segmentCount, repetitions, dryRun, verbose;
    int rank, numTasks;
} IOR_param_t;

typedef struct ior_aiori {
    const char *name;
    const char *suffix;
    void *(*create)(char *, IOR_param_t *);
    void *(*open)(char *, IOR_param_t *);
    IOR_offset_t (*xfer)(int, void *, IOR_size_t *, IOR_offset_t, IOR_offset_t,
                         IOR_param_t *);
    void (*close)(void *, IOR_param_t *);
} ior_aiori_t;

/* Every 8-byte word holds its file offset and the writing rank. */
#define PATTERN_WORD(rank, offset)                                             \
    (((IOR_size_t)(rank) << 56) | (IOR_size_t)(offset))

#define ERR(MSG)                                                               \
    do {                                                                       \
        fprintf(stdout, "ior ERROR: %s, errno %d, %s (%s:%d)\n", MSG, errno,   \
                strerror(errno), __FILE__, __LINE__);                          \
        fflush(stdout);                                                        \
        MPI_Abort(MPI_COMM_WORLD, -1);                                         \
    } while (0)

#define MPI_CHECK(MPI_STATUS, MSG)                                             \
    do {                                                                       \
        int mpiStatus = (MPI_STATUS);                                          \
        if (mpiStatus != MPI_SUCCESS) {                                        \
            fprintf(stdout, "ior ERROR: %s, MPI error %d, (%s:%d)\n", MSG,     \
                    mpiStatus, __FILE__, __LINE__);                            \
            fflush(stdout);                                                    \
            MPI_Abort(MPI_COMM_WORLD, -1);                                     \
        }                                                                      \
    } while (0)

#define HDF5_CHECK(HDF5_RETURN, MSG)                                           \
    do {                                                                       \
        if ((HDF5_RETURN) < 0) {                                               \
            fprintf(stdout, "ior ERROR: %s, (%s:%d)\n", MSG, __FILE__, __LINE__); \
            H5Eprint2(H5E_DEFAULT, stdout);                                    \
            MPI_Abort(MPI_COMM_WORLD, -1);                                     \
        }                                                                      \
    } while (0)

/* Backend entry points: declared here, defined below the table users. */
static void *POSIX_Create(char *, IOR_param_t *);
static void *POSIX_Open(char *, IOR_param_t *);
static IOR_offset_t POSIX_Xfer(int, void *, IOR_size_t *, IOR_offset_t,
                               IOR_offset_t, IOR_param_t *);
static void POSIX_Close(void *, IOR_param_t *);
static void *MPIIO_Create(char *, IOR_param_t *);
static void *MPIIO_Open(char *, IOR_param_t *);
static IOR_offset_t MPIIO_Xfer(int, void *, IOR_size_t *, IOR_offset_t,
                               IOR_offset_t, IOR_param_t *);
static void MPIIO_Close(void *, IOR_param_t *);
static void *HDF5_Create(char *, IOR_param_t *);
static void *HDF5_Open(char *, IOR_param_t *);
static IOR_offset_t HDF5_Xfer(int, void *, IOR_size_t *, IOR_offset_t,
                              IOR_offset_t, IOR_param_t *);
static void HDF5_Close(void *, IOR_param_t *);

static ior_aiori_t posix_aiori = {"POSIX", "posix", POSIX_Create, POSIX_Open,
                                  POSIX_Xfer, POSIX_Close};
static ior_aiori_t mpiio_aiori = {"MPIIO", "mpiio", MPIIO_Create, MPIIO_Open,
                                  MPIIO_Xfer, MPIIO_Close};
static ior_aiori_t hdf5_aiori = {"HDF5", "h5", HDF5_Create, HDF5_Open,
                                 HDF5_Xfer, HDF5_Close};
static ior_aiori_t *available_aiori[] = {&posix_aiori, &mpiio_aiori,
                                         &hdf5_aiori, NULL};

typedef struct { hid_t file, dset, space; } hdf5_fd_t;

static void verbose_printf(IOR_param_t *param, int level, const char *fmt, ...)
{
    DFTRACER_C_FUNCTION_START();
    va_list ap;
    if (param->rank != 0 || param->verbose < level) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        return;
    }
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    DFTRACER_C_FUNCTION_END();
}

static void *POSIX_Create(char *testFileName, IOR_param_t *param)
{
    DFTRACER_C_FUNCTION_START();
    int *fd;
    if (param->dryRun) { /* annotate */ DFTRACER_C_FUNCTION_END(); return NULL; }
    fd = malloc(sizeof(int));
    if ((*fd = open(testFileName, O_CREAT | O_RDWR, 0644)) < 0)
        ERR("cannot create file");
    else if (param->rank == 0 && ftruncate(*fd, 0) != 0)
        ERR("cannot truncate file");
    MPI_Barrier(MPI_COMM_WORLD);
    DFTRACER_C_FUNCTION_END();
    return fd;
}

static void *POSIX_Open(char *testFileName, IOR_param_t *param)
{
    DFTRACER_C_FUNCTION_START();
    int *fd;
    if (param->dryRun) { /* annotate */ DFTRACER_C_FUNCTION_END(); return NULL; }
    fd = malloc(sizeof(int));
    if ((*fd = open(testFileName, O_RDONLY)) < 0)
        ERR("cannot open file");
    DFTRACER_C_FUNCTION_END();
    return fd;
}

static IOR_offset_t POSIX_Xfer(int access, void *file, IOR_size_t *buffer,
                               IOR_offset_t length, IOR_offset_t offset,
                               IOR_param_t *param)
{
    DFTRACER_C_FUNCTION_START();
    int fd = *(int *)file;
    ssize_t rc = access == WRITE ? pwrite(fd, buffer, (size_t)length, offset)
                                 : pread(fd, buffer, (size_t)length, offset);
    if (rc != length)
        ERR(access == WRITE ? "short pwrite()" : "short pread()");
    else
        verbose_printf(param, 3, "POSIX %s %lld at %lld\n",
                       access == WRITE ? "write" : "read", length, offset);
    DFTRACER_C_FUNCTION_END();
    return (IOR_offset_t)rc;
}

static void POSIX_Close(void *file, IOR_param_t *param)
{
    DFTRACER_C_FUNCTION_START();
    if (close(*(int *)file) != 0)
        ERR("cannot close file");
    free(file);
    DFTRACER_C_FUNCTION_END();
}

static void *MPIIO_Open(char *testFileName, IOR_param_t *param)
{
    DFTRACER_C_FUNCTION_START();
    MPI_File *fd;
    if (param->dryRun) { /* annotate */ DFTRACER_C_FUNCTION_END(); return NULL; }
    fd = malloc(sizeof(MPI_File));
    MPI_CHECK(MPI_File_open(MPI_COMM_WORLD, testFileName, MPI_MODE_RDONLY,
                            MPI_INFO_NULL, fd),
              "cannot open file");
    DFTRACER_C_FUNCTION_END();
    return fd;
}

static void *MPIIO_Create(char *testFileName, IOR_param_t *param)
{
    DFTRACER_C_FUNCTION_START();
    MPI_File *fd;
    if (param->dryRun) { /* annotate */ DFTRACER_C_FUNCTION_END(); return NULL; }
    fd = malloc(sizeof(MPI_File));
    MPI_CHECK(MPI_File_open(MPI_COMM_WORLD, testFileName,
                            MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, fd),
              "cannot create file");
    MPI_CHECK(MPI_File_set_size(*fd, 0), "cannot truncate file");
    DFTRACER_C_FUNCTION_END();
    return fd;
}

static IOR_offset_t MPIIO_Xfer(int access, void *file, IOR_size_t *buffer,
                               IOR_offset_t length, IOR_offset_t offset,
                               IOR_param_t *param)
{
    DFTRACER_C_FUNCTION_START();
    MPI_File *fd = file;
    if (access == WRITE)
        MPI_CHECK(MPI_File_write_at_all(*fd, offset, buffer, (int)length,
                                        MPI_BYTE, MPI_STATUS_IGNORE),
                  "cannot write to file");
    else
        MPI_CHECK(MPI_File_read_at_all(*fd, offset, buffer, (int)length,
                                       MPI_BYTE, MPI_STATUS_IGNORE),
                  "cannot read from file");
    DFTRACER_C_FUNCTION_END();
    return length;
}

static void MPIIO_Close(void *file, IOR_param_t *param)
{
    DFTRACER_C_FUNCTION_START();
    MPI_CHECK(MPI_File_close((MPI_File *)file), "cannot close file");
    free(file);
    DFTRACER_C_FUNCTION_END();
}

static void *HDF5_Setup(char *testFileName, IOR_param_t *param, int create)
{
    DFTRACER_C_FUNCTION_START();
    hdf5_fd_t *fd = malloc(sizeof(*fd));
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS), fcpl = H5Pcreate(H5P_FILE_CREATE);
    hsize_t dims = (hsize_t)(param->blockSize * param->segmentCount *
                            param->numTasks / sizeof(IOR_size_t));
    H5Pset_fapl_mpio(fapl, MPI_COMM_WORLD, MPI_INFO_NULL);
    H5Pset_obj_track_times(fcpl, 0);
    if (create) {
        hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
        HDF5_CHECK(fd->file = H5Fcreate(testFileName, H5F_ACC_TRUNC, fcpl, fapl),
                   "cannot create file");
        H5Pset_obj_track_times(dcpl, 0);
        fd->space = H5Screate_simple(1, &dims, NULL);
        HDF5_CHECK(fd->dset = H5Dcreate2(fd->file, "dataset", H5T_NATIVE_ULLONG,
                                         fd->space, H5P_DEFAULT, dcpl,
                                         H5P_DEFAULT),
                   "cannot create dataset");
        H5Pclose(dcpl);
    } else {
        HDF5_CHECK(fd->file = H5Fopen(testFileName, H5F_ACC_RDONLY, fapl),
                   "cannot open file");
        HDF5_CHECK(fd->dset = H5Dopen2(fd->file, "dataset", H5P_DEFAULT),
                   "cannot open dataset");
        fd->space = H5Dget_space(fd->dset);
    }
    H5Pclose(fcpl);
    H5Pclose(fapl);
    DFTRACER_C_FUNCTION_END();
    return fd;
}

static void *HDF5_Create(char *testFileName, IOR_param_t *param)
{
    DFTRACER_C_FUNCTION_START();
    if (param->dryRun) { /* annotate */ DFTRACER_C_FUNCTION_END(); return NULL; }
    { void *annotate_ret = (HDF5_Setup(testFileName, param, 1)); DFTRACER_C_FUNCTION_END(); return annotate_ret; }
}

static void *HDF5_Open(char *testFileName, IOR_param_t *param)
{
    DFTRACER_C_FUNCTION_START();
    if (param->dryRun) { /* annotate */ DFTRACER_C_FUNCTION_END(); return NULL; }
    { void *annotate_ret = (HDF5_Setup(testFileName, param, 0)); DFTRACER_C_FUNCTION_END(); return annotate_ret; }
}

static IOR_offset_t HDF5_Xfer(int access, void *file, IOR_size_t *buffer,
                              IOR_offset_t length, IOR_offset_t offset,
                              IOR_param_t *param)
{
    DFTRACER_C_FUNCTION_START();
    hdf5_fd_t *fd = file;
    hsize_t start = (hsize_t)offset / 8, count = (hsize_t)length / 8;
    hid_t mem = H5Screate_simple(1, &count, NULL);
    hid_t dxpl = H5Pcreate(H5P_DATASET_XFER);
    H5Pset_dxpl_mpio(dxpl, H5FD_MPIO_COLLECTIVE);
    H5Sselect_hyperslab(fd->space, H5S_SELECT_SET, &start, NULL, &count, NULL);
    HDF5_CHECK(access == WRITE ? H5Dwrite(fd->dset, H5T_NATIVE_ULLONG, mem,
                                          fd->space, dxpl, buffer)
                               : H5Dread(fd->dset, H5T_NATIVE_ULLONG, mem,
                                         fd->space, dxpl, buffer),
               "cannot transfer dataset elements");
    H5Pclose(dxpl);
    H5Sclose(mem);
    DFTRACER_C_FUNCTION_END();
    return length;
}

static void HDF5_Close(void *file, IOR_param_t *param)
{
    DFTRACER_C_FUNCTION_START();
    hdf5_fd_t *fd = file;
    H5Sclose(fd->space);
    H5Dclose(fd->dset);
    HDF5_CHECK(H5Fclose(fd->file), "cannot close file");
    free(fd);
    DFTRACER_C_FUNCTION_END();
}

static const ior_aiori_t *aiori_select(const char *api)
{
    DFTRACER_C_FUNCTION_START();
    int i;
    for (i = 0; available_aiori[i] != NULL; i++)
        if (strcasecmp(api, available_aiori[i]->name) == 0) { /* annotate */
            DFTRACER_C_FUNCTION_END();
            return available_aiori[i];
        }
    DFTRACER_C_FUNCTION_END();
    return NULL;
}

/* The transfer routine of the backend called name, or NULL. */
static IOR_offset_t (*select_xfer(const char *name))(
    int, void *, IOR_size_t *, IOR_offset_t, IOR_offset_t, IOR_param_t *)
{
    DFTRACER_C_FUNCTION_START();
    if (name == NULL) { /* annotate */ DFTRACER_C_FUNCTION_END(); return NULL; }
    { __typeof__(IOR_offset_t (*)(int, void *, IOR_size_t *, IOR_offset_t, IOR_offset_t, IOR_param_t *)) annotate_ret = (aiori_select(name)->xfer); DFTRACER_C_FUNCTION_END(); return annotate_ret; }
}

/* Start of a rank's block in a segment (hot, tiny: the guard skips it). */
static IOR_offset_t segment_base(const IOR_param_t *param, IOR_offset_t seg,
                                 int owner)
{ return (seg * param->numTasks + owner) * param->blockSize; }

static IOR_offset_t transfer_all(const ior_aiori_t *backend, void *fd,
                                 int access, IOR_param_t *param)
{
    DFTRACER_C_FUNCTION_START();
    IOR_offset_t (*xfer)(int, void *, IOR_size_t *, IOR_offset_t, IOR_offset_t,
                         IOR_param_t *) = select_xfer(backend->name);
    IOR_size_t *buf = malloc((size_t)param->transferSize);
    IOR_offset_t errors = 0, done = 0, seg, off, w;
    IOR_offset_t words = param->transferSize / sizeof(IOR_size_t);
    int owner = access == READ ? (param->rank + 1) % param->numTasks
                               : param->rank;
    for (seg = 0; seg < param->segmentCount; seg++) {
        IOR_offset_t base = segment_base(param, seg, owner);
        for (off = 0; off < param->blockSize; off += param->transferSize) {
            for (w = 0; w < words && access == WRITE; w++)
                buf[w] = PATTERN_WORD(owner, base + off + w * 8);
            done += xfer(access, fd, buf, param->transferSize, base + off, param);
            for (w = 0; w < words && access == READ; w++)
                if (buf[w] != PATTERN_WORD(owner, base + off + w * 8))
                    errors++;
        }
    }
    free(buf);
    DFTRACER_C_FUNCTION_END();
    return access == READ ? errors : done;
}

static int run_backend(const ior_aiori_t *backend, IOR_param_t *param)
{
    DFTRACER_C_FUNCTION_START();
    char fileName[1100];
    IOR_offset_t bytes, errors, total = 0;
    int rep;
    snprintf(fileName, sizeof(fileName), "%s.%s", param->testFileName,
             backend->suffix);
    for (rep = 0; rep < param->repetitions; rep++) {
        void *fd = backend->create(fileName, param);
        if (fd == NULL) {
            verbose_printf(param, 0, "%-5s rep %d: dry run, no I/O\n",
                           backend->name, rep);
            continue;
        }
        bytes = transfer_all(backend, fd, WRITE, param);
        backend->close(fd, param);
        MPI_Barrier(MPI_COMM_WORLD);
        fd = backend->open(fileName, param);
        errors = transfer_all(backend, fd, READ, param);
        backend->close(fd, param);
        MPI_CHECK(MPI_Allreduce(&errors, &total, 1, MPI_LONG_LONG, MPI_SUM,
                                MPI_COMM_WORLD), "cannot reduce errors");
        verbose_printf(param, 0, "%-5s rep %d: %lld bytes per rank, %lld wrong "
                       "words\n", backend->name, rep, bytes, total);
        if (total != 0) { /* annotate */
            DFTRACER_C_FUNCTION_END();
            return 1;
        }
    }
    DFTRACER_C_FUNCTION_END();
    return 0;
}

static void usage()
{
    DFTRACER_C_FUNCTION_START();
    fprintf(stderr, "usage: ior_driver [-a POSIX|MPIIO|HDF5|ALL] [-b BLOCK] "
                    "[-t XFER] [-s SEGMENTS] [-i REPS] [-o PATH] [-n] [-v]\n");
    DFTRACER_C_FUNCTION_END();
}

static int ior_main(int argc, char **argv)
{
    DFTRACER_C_FUNCTION_START();
    IOR_param_t param = {"ALL", "testFile", 0, 0, 0, 0, 0, 0, 0, 0};
    int c, i, failed = 0;
    param.blockSize = 65536, param.transferSize = 16384;
    param.segmentCount = param.repetitions = 2;

    MPI_CHECK(MPI_Init(&argc, &argv), "cannot initialize MPI");
    MPI_Comm_rank(MPI_COMM_WORLD, &param.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &param.numTasks);

    while ((c = getopt(argc, argv, "a:b:t:s:i:o:nv")) != -1) {
        switch (c) {
        case 'a': strncpy(param.api, optarg, sizeof(param.api) - 1); break;
        case 'b': param.blockSize = atoll(optarg); break;
        case 't': param.transferSize = atoll(optarg); break;
        case 's': param.segmentCount = atoi(optarg); break;
        case 'i': param.repetitions = atoi(optarg); break;
        case 'o': strncpy(param.testFileName, optarg, 1000); break;
        case 'n': param.dryRun = 1; break;
        case 'v': param.verbose++; break;
        default:
            if (param.rank == 0)
                usage();
            MPI_Finalize();
            DFTRACER_C_FUNCTION_END();
            return 2;
        }
    }
    if (param.transferSize <= 0 || param.transferSize % 8 != 0 ||
        param.blockSize % param.transferSize != 0)
        ERR("block size must be a multiple of the transfer size (itself of 8)");

    if (strcasecmp(param.api, "ALL") != 0 && aiori_select(param.api) == NULL)
        ERR("unknown backend: use POSIX, MPIIO, HDF5 or ALL");
    for (i = 0; available_aiori[i] != NULL; i++) {
        if (strcasecmp(param.api, "ALL") != 0 &&
            aiori_select(param.api) != available_aiori[i])
            continue;
        failed |= run_backend(available_aiori[i], &param);
    }
    MPI_CHECK(MPI_Finalize(), "cannot finalize MPI");
    DFTRACER_C_FUNCTION_END();
    return failed;
}

int main(int argc, char **argv)
{
    DFTRACER_C_INIT(NULL, NULL, NULL);
    DFTRACER_C_FUNCTION_START();
    DFTRACER_C_METADATA(annotate_meta_0, "app", "ior_driver");
    { int annotate_ret = (ior_main(argc, argv)); DFTRACER_C_FUNCTION_END(); DFTRACER_C_FINI(); return annotate_ret; }
}
