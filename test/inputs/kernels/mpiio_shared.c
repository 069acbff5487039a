/*
 * mpiio_shared.c - MPI-IO shared-file collective write and read-back
 * (sample kernel for annotate).
 *
 * All ranks write one shared file in three regions:
 *   header      written by rank 0 alone (independent MPI_File_write_at);
 *   strided     SEGMENTS rounds where each rank writes BLOCK doubles per
 *               round, interleaved by rank through a vector file view
 *               (collective MPI_File_write_all);
 *   contiguous  one block per rank at an explicit offset
 *               (collective MPI_File_write_at_all).
 * The file is then closed, reopened read-only, and every rank reads the
 * data of its neighbour (rank + 1, as IOR's -C does, to defeat the page
 * cache) with the matching collective reads and checks every value.
 * Both opens pass the same MPI-IO hints, as a tuned code sets them:
 * collective buffering on for writes and reads, a 4 MiB collective buffer
 * and a 1 MiB striping unit.
 *
 * Usage: mpiio_shared OUTDIR [BLOCK [SEGMENTS]]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#define HEADER_BYTES 64
#define FILE_NAME "shared.dat"

#define MPI_CHECK(call, what)                                                  \
    do {                                                                       \
        int mpi_rc_ = (call);                                                  \
        if (mpi_rc_ != MPI_SUCCESS) {                                          \
            char msg_[MPI_MAX_ERROR_STRING];                                   \
            int len_ = 0;                                                      \
            MPI_Error_string(mpi_rc_, msg_, &len_);                            \
            fprintf(stderr, "mpiio_shared: %s: %s\n", what, msg_);            \
            MPI_Abort(MPI_COMM_WORLD, 1);                                      \
        }                                                                      \
    } while (0)

typedef struct {
    int rank, nprocs;
    int block;    /* doubles per rank and segment */
    int segments; /* rounds of the strided region */
    MPI_Info hints; /* passed to both MPI_File_open calls */
    char path[1024];
} job_t;

/* The value that rank r stores at element i of segment s (s = -1 for the
 * contiguous region). Integers below 2^53 are exact in a double. */
#define VALUE_OF(r, s, i)                                                      \
    ((double)(r) * 1.0e6 + (double)((s) + 1) * 1.0e3 + (double)(i))

static void fill(double *buf, const job_t *job, int r, int s)
{
    int i;
    for (i = 0; i < job->block; i++)
        buf[i] = VALUE_OF(r, s, i);
}

static int check(const double *buf, const job_t *job, int r, int s)
{
    int i, bad = 0;
    for (i = 0; i < job->block; i++)
        if (buf[i] != VALUE_OF(r, s, i)) {
            if (bad == 0)
                fprintf(stderr,
                        "mpiio_shared: rank %d: segment %d element %d of rank "
                        "%d is %.1f, expected %.1f\n",
                        job->rank, s, i, r, buf[i], VALUE_OF(r, s, i));
            bad++;
        }
    return bad;
}

static MPI_Offset strided_base(void)
{
    return HEADER_BYTES;
}

static MPI_Offset contiguous_base(const job_t *job)
{
    return strided_base() + (MPI_Offset)job->nprocs * job->segments *
                                job->block * (MPI_Offset)sizeof(double);
}

/* File type: one block of this rank in every round of nprocs blocks. */
static MPI_Datatype make_filetype(const job_t *job)
{
    MPI_Datatype vec, resized;
    MPI_Type_vector(job->segments, job->block, job->block * job->nprocs,
                    MPI_DOUBLE, &vec);
    MPI_Type_create_resized(vec, 0,
                            (MPI_Aint)job->segments * job->block *
                                job->nprocs * (MPI_Aint)sizeof(double),
                            &resized);
    MPI_Type_free(&vec);
    MPI_Type_commit(&resized);
    return resized;
}

static void write_header(MPI_File fh, const job_t *job)
{
    char header[HEADER_BYTES];
    if (job->rank != 0)
        return;
    memset(header, 0, sizeof(header));
    snprintf(header, sizeof(header), "MPIIO-SHARED v1 ranks=%d block=%d seg=%d\n",
             job->nprocs, job->block, job->segments);
    MPI_CHECK(MPI_File_write_at(fh, 0, header, HEADER_BYTES, MPI_CHAR,
                                MPI_STATUS_IGNORE),
              "header write");
}

static int write_phase(const job_t *job)
{
    MPI_File fh;
    MPI_Datatype ftype = make_filetype(job);
    double *buf = malloc(sizeof(double) * (size_t)job->block * job->segments);
    MPI_Offset disp;
    int s;

    MPI_CHECK(MPI_File_open(MPI_COMM_WORLD, job->path,
                            MPI_MODE_CREATE | MPI_MODE_WRONLY, job->hints, &fh),
              "open for writing");
    MPI_CHECK(MPI_File_set_size(fh, 0), "truncate");
    write_header(fh, job);

    for (s = 0; s < job->segments; s++)
        fill(buf + (size_t)s * job->block, job, job->rank, s);
    disp = strided_base() + (MPI_Offset)job->rank * job->block * sizeof(double);
    MPI_CHECK(MPI_File_set_view(fh, disp, MPI_DOUBLE, ftype, "native",
                                MPI_INFO_NULL),
              "set strided view");
    MPI_CHECK(MPI_File_write_all(fh, buf, job->block * job->segments,
                                 MPI_DOUBLE, MPI_STATUS_IGNORE),
              "strided write");

    MPI_CHECK(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native",
                                MPI_INFO_NULL),
              "reset view");
    fill(buf, job, job->rank, -1);
    MPI_CHECK(MPI_File_write_at_all(fh,
                                    contiguous_base(job) +
                                        (MPI_Offset)job->rank * job->block *
                                            (MPI_Offset)sizeof(double),
                                    buf, job->block, MPI_DOUBLE,
                                    MPI_STATUS_IGNORE),
              "contiguous write");
    MPI_CHECK(MPI_File_sync(fh), "sync");
    MPI_File_close(&fh);
    MPI_Type_free(&ftype);
    free(buf);
    return 0;
}

static int read_phase(const job_t *job)
{
    MPI_File fh;
    MPI_Offset size, expected = contiguous_base(job) +
                                (MPI_Offset)job->nprocs * job->block *
                                    (MPI_Offset)sizeof(double);
    int peer = (job->rank + 1) % job->nprocs, bad = 0, s;
    double *buf = malloc(sizeof(double) * (size_t)job->block * job->segments);
    job_t as_peer = *job;
    MPI_Datatype ftype;

    MPI_CHECK(MPI_File_open(MPI_COMM_WORLD, job->path, MPI_MODE_RDONLY,
                            job->hints, &fh),
              "open for reading");
    MPI_CHECK(MPI_File_get_size(fh, &size), "get size");
    if (size != expected) {
        fprintf(stderr, "mpiio_shared: file is %lld bytes, expected %lld\n",
                (long long)size, (long long)expected);
        MPI_File_close(&fh);
        free(buf);
        return 1;
    }

    as_peer.rank = peer;
    ftype = make_filetype(&as_peer);
    MPI_CHECK(MPI_File_set_view(fh,
                                strided_base() + (MPI_Offset)peer * job->block *
                                                     (MPI_Offset)sizeof(double),
                                MPI_DOUBLE, ftype, "native", MPI_INFO_NULL),
              "set strided view");
    MPI_CHECK(MPI_File_read_all(fh, buf, job->block * job->segments,
                                MPI_DOUBLE, MPI_STATUS_IGNORE),
              "strided read");
    for (s = 0; s < job->segments; s++)
        bad += check(buf + (size_t)s * job->block, job, peer, s);

    MPI_CHECK(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native",
                                MPI_INFO_NULL),
              "reset view");
    MPI_CHECK(MPI_File_read_at_all(fh,
                                   contiguous_base(job) +
                                       (MPI_Offset)peer * job->block *
                                           (MPI_Offset)sizeof(double),
                                   buf, job->block, MPI_DOUBLE,
                                   MPI_STATUS_IGNORE),
              "contiguous read");
    bad += check(buf, job, peer, -1);

    MPI_File_close(&fh);
    MPI_Type_free(&ftype);
    free(buf);
    return bad;
}

static int parse_positive(const char *s, const char *what)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (*end != '\0' || v <= 0 || v > (1 << 20)) {
        fprintf(stderr, "mpiio_shared: bad %s '%s'\n", what, s);
        return -1;
    }
    return (int)v;
}

int main(int argc, char **argv)
{
    job_t job;
    int bad, total_bad = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &job.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &job.nprocs);
    if (argc < 2 || argc > 4) {
        if (job.rank == 0)
            fprintf(stderr, "usage: %s OUTDIR [BLOCK [SEGMENTS]]\n", argv[0]);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    job.block = argc > 2 ? parse_positive(argv[2], "block") : 4096;
    job.segments = argc > 3 ? parse_positive(argv[3], "segments") : 8;
    if (job.block < 0 || job.segments < 0)
        MPI_Abort(MPI_COMM_WORLD, 2);
    snprintf(job.path, sizeof(job.path), "%s/%s", argv[1], FILE_NAME);
    MPI_Info_create(&job.hints);
    MPI_Info_set(job.hints, "romio_cb_write", "enable");
    MPI_Info_set(job.hints, "romio_cb_read", "enable");
    MPI_Info_set(job.hints, "cb_buffer_size", "4194304");
    MPI_Info_set(job.hints, "striping_unit", "1048576");

    write_phase(&job);
    MPI_Barrier(MPI_COMM_WORLD);
    bad = read_phase(&job);

    MPI_Allreduce(&bad, &total_bad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (job.rank == 0)
        printf("mpiio_shared: %d ranks, %d segments of %d doubles: %s\n",
               job.nprocs, job.segments, job.block,
               total_bad == 0 ? "verified" : "MISMATCH");
    MPI_Info_free(&job.hints);
    MPI_Finalize();
    return total_bad == 0 ? 0 : 1;
}
