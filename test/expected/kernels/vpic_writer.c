/*
 * vpic_writer.c - VPIC-IO style particle writer (sample kernel for annotate).
 *
 * Every MPI rank owns a block of particles with eight properties (x, y, z,
 * ux, uy, uz as float, id1, id2 as int) and writes them for several
 * timesteps into one shared HDF5 file, one group per timestep. The run is
 * described by a KEY=VALUE configuration file. Each timestep uses one of
 * four access patterns, cycled from the PATTERN key:
 *
 *   CC  contiguous memory, contiguous file (rank r owns one file block)
 *   CI  contiguous memory, interleaved file (stride = number of ranks)
 *   IC  interleaved memory (array of structs), contiguous file
 *   II  interleaved memory, interleaved file
 *
 * Transfers are collective, independent, or alternate between the two.
 * Values are a pure function of (timestep, global particle index), so
 * vpic_reader can verify them and two runs produce byte-identical files.
 *
 * Usage: vpic_writer OUTDIR [CONFIG]
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hdf5.h>
#include <mpi.h>
#include <dftracer/dftracer.h>

#define MAX_LINE 256
#define NUM_FLOAT_PROPS 6
#define MAX_PARTICLES (1LL << 24)

#define H5CALL(expr)                                                           \
    do {                                                                       \
        if ((expr) < 0) {                                                      \
            fprintf(stderr, "vpic_writer: %s failed at line %d\n", #expr,     \
                    __LINE__);                                                 \
            return -1;                                                         \
        }                                                                      \
    } while (0)

enum { XFER_COLLECTIVE, XFER_INDEPENDENT, XFER_ALTERNATE };

typedef struct {
    long long particles;      /* NUM_PARTICLES (per rank) */
    int timesteps;            /* TIMESTEPS */
    char pattern[64];         /* PATTERN, e.g. CC,CI,IC,II */
    int xfer;                 /* TRANSFER=collective|independent|alternate */
    hsize_t alignment;        /* ALIGNMENT (bytes, 0 = none) */
    hsize_t align_threshold;  /* ALIGN_THRESHOLD */
    hsize_t meta_block;       /* META_BLOCK_SIZE */
    hsize_t sieve_buf;        /* SIEVE_BUF_SIZE */
    int coll_metadata;        /* COLLECTIVE_METADATA=0|1 */
    double grid_spacing;      /* GRID_SPACING */
    double velocity_scale;    /* VELOCITY_SCALE */
    double time_step;         /* DT */
    int id_base;              /* ID_BASE */
    int write_attributes;     /* WRITE_ATTRIBUTES=0|1 */
    int flush_each_step;      /* FLUSH_EACH_STEP=0|1 */
    int verbose;              /* VERBOSE */
    char output_file[MAX_LINE]; /* OUTPUT_FILE */
    char group_prefix[64];    /* GROUP_PREFIX */
} config_t;

static const char *float_names[NUM_FLOAT_PROPS] = {"x", "y", "z", "ux", "uy", "uz"};

static void config_defaults(config_t *cfg)
{
    DFTRACER_C_FUNCTION_START();
    memset(cfg, 0, sizeof(*cfg));
    cfg->particles = 4096;
    cfg->timesteps = 4;
    strcpy(cfg->pattern, "CC,CI,IC,II");
    cfg->xfer = XFER_ALTERNATE;
    cfg->grid_spacing = 0.25;
    cfg->velocity_scale = 0.5;
    cfg->time_step = 0.125;
    cfg->id_base = 1000;
    cfg->write_attributes = 1;
    strcpy(cfg->output_file, "particles.h5");
    strcpy(cfg->group_prefix, "Timestep_");
    DFTRACER_C_FUNCTION_END();
}

static char *trim(char *s)
{
    DFTRACER_C_FUNCTION_START();
    char *end;
    while (*s == ' ' || *s == '\t')
        s++;
    end = s + strlen(s);
    while (end > s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\n' ||
                       end[-1] == '\r'))
        *--end = '\0';
    DFTRACER_C_FUNCTION_END();
    return s;
}

static int parse_transfer(const char *v)
{
    DFTRACER_C_FUNCTION_START();
    if (strcmp(v, "collective") == 0) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        return XFER_COLLECTIVE;
    }
    else if (strcmp(v, "independent") == 0) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        return XFER_INDEPENDENT;
    }
    else if (strcmp(v, "alternate") == 0) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        return XFER_ALTERNATE;
    }
    DFTRACER_C_FUNCTION_END();
    return -1;
}

/* Reads KEY=VALUE lines; '#' starts a comment. Returns 0 or -1. */
static int read_config(const char *path, config_t *cfg, int rank)
{
    DFTRACER_C_FUNCTION_START();
    char line[MAX_LINE];
    int lineno = 0;
    FILE *fp = fopen(path, "r");
    if (fp == NULL) {
        if (rank == 0)
            fprintf(stderr, "vpic_writer: cannot open config %s\n", path);
        DFTRACER_C_FUNCTION_END();
        return -1;
    }
    while (fgets(line, sizeof(line), fp) != NULL) {
        char *key, *val, *eq;
        lineno++;
        key = trim(line);
        if (*key == '#' || *key == '\0')
            continue;
        eq = strchr(key, '=');
        if (eq == NULL) {
            if (rank == 0)
                fprintf(stderr, "%s:%d: expected KEY=VALUE\n", path, lineno);
            fclose(fp);
            DFTRACER_C_FUNCTION_END();
            return -1;
        }
        *eq = '\0';
        key = trim(key);
        val = trim(eq + 1);
        if (strcmp(key, "NUM_PARTICLES") == 0)
            cfg->particles = atoll(val);
        else if (strcmp(key, "TIMESTEPS") == 0)
            cfg->timesteps = atoi(val);
        else if (strcmp(key, "PATTERN") == 0)
            snprintf(cfg->pattern, sizeof(cfg->pattern), "%s", val);
        else if (strcmp(key, "TRANSFER") == 0)
            cfg->xfer = parse_transfer(val);
        else if (strcmp(key, "ALIGNMENT") == 0)
            cfg->alignment = (hsize_t)atoll(val);
        else if (strcmp(key, "ALIGN_THRESHOLD") == 0)
            cfg->align_threshold = (hsize_t)atoll(val);
        else if (strcmp(key, "META_BLOCK_SIZE") == 0)
            cfg->meta_block = (hsize_t)atoll(val);
        else if (strcmp(key, "SIEVE_BUF_SIZE") == 0)
            cfg->sieve_buf = (hsize_t)atoll(val);
        else if (strcmp(key, "COLLECTIVE_METADATA") == 0)
            cfg->coll_metadata = atoi(val);
        else if (strcmp(key, "GRID_SPACING") == 0)
            cfg->grid_spacing = atof(val);
        else if (strcmp(key, "VELOCITY_SCALE") == 0)
            cfg->velocity_scale = atof(val);
        else if (strcmp(key, "DT") == 0)
            cfg->time_step = atof(val);
        else if (strcmp(key, "ID_BASE") == 0)
            cfg->id_base = atoi(val);
        else if (strcmp(key, "WRITE_ATTRIBUTES") == 0)
            cfg->write_attributes = atoi(val);
        else if (strcmp(key, "FLUSH_EACH_STEP") == 0)
            cfg->flush_each_step = atoi(val);
        else if (strcmp(key, "VERBOSE") == 0)
            cfg->verbose = atoi(val);
        else if (strcmp(key, "OUTPUT_FILE") == 0)
            snprintf(cfg->output_file, sizeof(cfg->output_file), "%s", val);
        else if (strcmp(key, "GROUP_PREFIX") == 0)
            snprintf(cfg->group_prefix, sizeof(cfg->group_prefix), "%s", val);
        else if (rank == 0)
            fprintf(stderr, "%s:%d: ignoring unknown key %s\n", path, lineno, key);
    }
    fclose(fp);
    assert(cfg->particles > 0 &&
           cfg->particles <= MAX_PARTICLES);
    assert(cfg->timesteps > 0
           && cfg->xfer >= 0);
    DFTRACER_C_FUNCTION_END();
    return 0;
}

/* Property k of the n particles from global index g0 at timestep t, into
 * out[i * stride]. Positions and velocities are exact in float. */
static void prop_values(const config_t *cfg, int t, long long g0, long long n,
                        int k, float *out, int stride)
{
    DFTRACER_C_FUNCTION_START();
    long long i;
    for (i = 0; i < n; i++) {
        long long g = g0 + i;
        float base = (float)(g % 1024) * (float)cfg->grid_spacing;
        out[i * stride] =
            k < 3 ? base + (float)k + (float)t * (float)cfg->time_step
                  : (float)cfg->velocity_scale * (float)((g + k + t) % 64);
    }
    DFTRACER_C_FUNCTION_END();
}

/* 'C' or 'I' for memory (which = 0) or file (which = 1) at timestep t. */
static char pattern_at(const config_t *cfg, int t, int which)
{
    DFTRACER_C_FUNCTION_START();
    size_t n = (strlen(cfg->pattern) + 1) / 3;
    const char *p = cfg->pattern + 3 * ((size_t)t % n);
    assert(p[which] == 'C' ||
           p[which] == 'I');
    DFTRACER_C_FUNCTION_END();
    return p[which];
}

static hid_t create_file(const char *path, const config_t *cfg)
{
    DFTRACER_C_FUNCTION_START();
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    hid_t fcpl = H5Pcreate(H5P_FILE_CREATE);
    hid_t fid;
    H5Pset_fapl_mpio(fapl, MPI_COMM_WORLD, MPI_INFO_NULL);
    if (cfg->alignment > 0)
        H5Pset_alignment(fapl, cfg->align_threshold, cfg->alignment);
    if (cfg->meta_block > 0)
        H5Pset_meta_block_size(fapl, cfg->meta_block);
    if (cfg->sieve_buf > 0)
        H5Pset_sieve_buf_size(fapl, (size_t)cfg->sieve_buf);
    if (cfg->coll_metadata) {
        H5Pset_all_coll_metadata_ops(fapl, 1);
        H5Pset_coll_metadata_write(fapl, 1);
    }
    H5Pset_obj_track_times(fcpl, 0);
    fid = H5Fcreate(path, H5F_ACC_TRUNC, fcpl, fapl);
    H5Pclose(fcpl);
    H5Pclose(fapl);
    DFTRACER_C_FUNCTION_END();
    return fid;
}

static int write_attr(hid_t loc, const char *name, hid_t type,
                      const void *value)
{
    DFTRACER_C_FUNCTION_START();
    hid_t space = H5Screate(H5S_SCALAR);
    hid_t attr = H5Acreate2(loc, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
    herr_t status = H5Awrite(attr, type, value);
    H5Aclose(attr);
    H5Sclose(space);
    DFTRACER_C_FUNCTION_END();
    return status < 0 ? -1 : 0;
}

static int write_int_attr(hid_t loc, const char *name, long long value)
{
    DFTRACER_C_FUNCTION_START();
    { int annotate_ret = (write_attr(loc, name, H5T_NATIVE_LLONG, &value)); DFTRACER_C_FUNCTION_END(); return annotate_ret; }
}

static int write_dataset(hid_t group, const char *name, hid_t type,
                         hid_t memspace, hid_t filespace, hid_t dxpl,
                         const void *buf)
{
    DFTRACER_C_FUNCTION_START();
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    hid_t dset;
    H5CALL(H5Pset_obj_track_times(dcpl, 0));
    H5CALL(H5Pset_fill_time(dcpl, H5D_FILL_TIME_NEVER));
    dset = H5Dcreate2(group, name, type, filespace, H5P_DEFAULT, dcpl,
                      H5P_DEFAULT);
    H5Pclose(dcpl);
    H5CALL(dset);
    H5CALL(H5Dwrite(dset, type, memspace, filespace, dxpl, buf));
    { int annotate_ret = (H5Dclose(dset)); DFTRACER_C_FUNCTION_END(); return annotate_ret; }
}

static int write_timestep(hid_t fid, const config_t *cfg, int t, int rank,
                          int nprocs, float *aos, float *soa, int *ids)
{
    DFTRACER_C_FUNCTION_START();
    char name[MAX_LINE];
    long long n = cfg->particles, i;
    hsize_t total = (hsize_t)(n * nprocs), count = (hsize_t)n;
    hsize_t fstart, fstride, mcount = (hsize_t)(n * NUM_FLOAT_PROPS);
    char mem = pattern_at(cfg, t, 0), file = pattern_at(cfg, t, 1);
    int collective = cfg->xfer == XFER_COLLECTIVE ||
                     (cfg->xfer == XFER_ALTERNATE && t % 2 == 0);
    hid_t group, filespace, memspace, idspace, dxpl;
    int k, rc = 0;

    for (k = 0; k < NUM_FLOAT_PROPS; k++) {
        prop_values(cfg, t, (long long)rank * n, n, k, aos + k, NUM_FLOAT_PROPS);
        prop_values(cfg, t, (long long)rank * n, n, k, soa + k * n, 1);
    }
    for (i = 0; i < n; i++) {
        long long g = (long long)rank * n + i;
        ids[i] = cfg->id_base + (int)(g % 100000);
        ids[n + i] = (int)((g * 7 + t) % 65536);
    }

    snprintf(name, sizeof(name), "%s%d", cfg->group_prefix, t);
    group = H5Gcreate2(fid, name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (group < 0) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        return -1;
    }
    if (cfg->write_attributes) {
        char pat[3] = {mem, file, '\0'};
        hid_t str = H5Tcopy(H5T_C_S1);
        H5Tset_size(str, 3);
        rc |= write_attr(group, "pattern", str, pat);
        H5Tclose(str);
        rc |= write_int_attr(group, "collective", collective);
    }

    filespace = H5Screate_simple(1, &total, NULL);
    fstart = file == 'C' ? (hsize_t)(rank * n) : (hsize_t)rank;
    fstride = file == 'C' ? 1 : (hsize_t)nprocs;
    H5Sselect_hyperslab(filespace, H5S_SELECT_SET, &fstart, &fstride, &count,
                        NULL);
    memspace = H5Screate_simple(1, mem == 'C' ? &count : &mcount, NULL);
    idspace = H5Screate_simple(1, &count, NULL);
    dxpl = H5Pcreate(H5P_DATASET_XFER);
    H5Pset_dxpl_mpio(dxpl, collective ? H5FD_MPIO_COLLECTIVE
                                      : H5FD_MPIO_INDEPENDENT);

    for (k = 0; k < NUM_FLOAT_PROPS && rc == 0; k++) {
        const float *buf = soa + k * n;
        if (mem == 'I') {
            hsize_t mstart = (hsize_t)k, mstride = NUM_FLOAT_PROPS;
            H5Sselect_hyperslab(memspace, H5S_SELECT_SET, &mstart, &mstride,
                                &count, NULL);
            buf = aos;
        }
        rc = write_dataset(group, float_names[k], H5T_NATIVE_FLOAT, memspace,
                           filespace, dxpl, buf);
    }
    if (rc == 0)
        rc = write_dataset(group, "id1", H5T_NATIVE_INT, idspace, filespace,
                           dxpl, ids);
    if (rc == 0)
        rc = write_dataset(group, "id2", H5T_NATIVE_INT, idspace, filespace,
                           dxpl, ids + n);
    if (rc == 0 && cfg->flush_each_step)
        rc = H5Fflush(fid, H5F_SCOPE_GLOBAL) < 0 ? -1 : 0;

    H5Pclose(dxpl);
    H5Sclose(idspace);
    H5Sclose(memspace);
    H5Sclose(filespace);
    H5Gclose(group);
    if (rank == 0 && cfg->verbose)
        printf("  step %d: pattern %c%c, %s\n", t, mem, file,
               collective ? "collective" : "independent");
    DFTRACER_C_FUNCTION_END();
    return rc;
}

int main(int argc, char **argv)
{
    config_t cfg;
    char path[2 * MAX_LINE];
    int rank, nprocs, t, rc = 0, global_rc = 0;
    float *aos, *soa;
    int *ids;
    hid_t fid;

    MPI_Init(&argc, &argv);
    DFTRACER_C_INIT(NULL, NULL, NULL);
    DFTRACER_C_FUNCTION_START();
    DFTRACER_C_METADATA(annotate_meta_0, "app", "vpic_writer");
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);

    if (argc < 2 || argc > 3) {
        if (rank == 0)
            fprintf(stderr, "usage: %s OUTDIR [CONFIG]\n", argv[0]);
        MPI_Finalize();
        DFTRACER_C_FUNCTION_END();
        DFTRACER_C_FINI();
        return 2;
    }
    config_defaults(&cfg);
    if (argc == 3 && read_config(argv[2], &cfg, rank) != 0) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        DFTRACER_C_FINI();
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    snprintf(path, sizeof(path), "%s/%s", argv[1], cfg.output_file);

    aos = malloc(sizeof(float) * (size_t)cfg.particles * NUM_FLOAT_PROPS);
    soa = malloc(sizeof(float) * (size_t)cfg.particles * NUM_FLOAT_PROPS);
    ids = malloc(sizeof(int) * (size_t)cfg.particles * 2);
    assert(aos != NULL && soa != NULL &&
           ids != NULL);

    fid = create_file(path, &cfg);
    if (fid < 0) {
        fprintf(stderr, "vpic_writer: rank %d cannot create %s\n", rank, path);
        DFTRACER_C_FUNCTION_END();
        DFTRACER_C_FINI();
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    rc |= write_int_attr(fid, "particles_per_rank", cfg.particles);
    rc |= write_int_attr(fid, "nprocs", nprocs);
    rc |= write_int_attr(fid, "timesteps", cfg.timesteps);
    rc |= write_int_attr(fid, "id_base", cfg.id_base);
    rc |= write_attr(fid, "grid_spacing", H5T_NATIVE_DOUBLE, &cfg.grid_spacing);
    rc |= write_attr(fid, "velocity_scale", H5T_NATIVE_DOUBLE,
                     &cfg.velocity_scale);
    rc |= write_attr(fid, "dt", H5T_NATIVE_DOUBLE, &cfg.time_step);
    for (t = 0; t < cfg.timesteps && rc == 0; t++)
        rc = write_timestep(fid, &cfg, t, rank, nprocs, aos, soa, ids);
    if (H5Fclose(fid) < 0)
        rc = -1;

    MPI_Allreduce(&rc, &global_rc, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (rank == 0)
        printf("vpic_writer: %s %lld particles x %d ranks x %d timesteps "
               "(pattern %s) to %s\n",
               global_rc == 0 ? "wrote" : "FAILED writing", cfg.particles,
               nprocs, cfg.timesteps, cfg.pattern, cfg.output_file);
    free(ids);
    free(soa);
    free(aos);
    DFTRACER_C_FUNCTION_END();
    DFTRACER_C_FINI();
    MPI_Finalize();
    return global_rc == 0 ? 0 : 1;
}
