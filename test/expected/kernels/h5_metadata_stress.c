/*
 * h5_metadata_stress.c - hdf5_iotest-style metadata stress
 * (sample kernel for annotate).
 *
 * Rank 0 reads an INI-like configuration and broadcasts it. All ranks then
 * create, in one shared file, STEPS groups each holding DATASETS small 2-D
 * datasets (cycling through contiguous, chunked and compact layouts) with
 * ATTRIBUTES attributes each, and write the datasets collectively, one row
 * block per rank. The file is then reopened read-only and walked with
 * H5Literate: layouts are counted, attributes and data checked, and
 * objects that must not exist are probed with errors silenced. Rank 0
 * writes a summary CSV next to the HDF5 file.
 *
 * Usage: h5_metadata_stress OUTDIR [CONFIG]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hdf5.h>
#include <mpi.h>
#include <dftracer/dftracer.h>

#define FILE_NAME "metadata_stress.h5"
#define CSV_NAME "metadata_stress.csv"
#define NUM_LAYOUTS 3

typedef struct {
    int steps, datasets, attributes;
    int rows, cols; /* per dataset; rows are split between ranks */
    int chunk_rows;
    int collective_metadata;
} config_t;

typedef struct {
    const config_t *cfg;
    int rank, nprocs;
    long long layouts[NUM_LAYOUTS + 1];
    long long objects, attributes, bad_values;
    int step; /* of the group being walked */
} walk_t;

static const char *layout_name(H5D_layout_t layout)
{
    DFTRACER_C_FUNCTION_START();
    switch (layout) {
    case H5D_COMPACT: DFTRACER_C_FUNCTION_END(); return "compact";
    case H5D_CONTIGUOUS: DFTRACER_C_FUNCTION_END(); return "contiguous";
    case H5D_CHUNKED: DFTRACER_C_FUNCTION_END(); return "chunked";
    default:
        DFTRACER_C_FUNCTION_END();
        return "unknown";
    }
}

static int layout_index(H5D_layout_t layout)
{
    DFTRACER_C_FUNCTION_START();
    switch (layout) {
    case H5D_COMPACT:
        DFTRACER_C_FUNCTION_END();
        return 0;
    case H5D_CONTIGUOUS:
        DFTRACER_C_FUNCTION_END();
        return 1;
    case H5D_CHUNKED:
        DFTRACER_C_FUNCTION_END();
        return 2;
    default:
        break;
    }
    DFTRACER_C_FUNCTION_END();
    return NUM_LAYOUTS;
}

/* Parses "key = value" lines; rank 0 only. Returns 0, or -1 on any error. */
static int parse_config(const char *path, config_t *cfg)
{
    DFTRACER_C_FUNCTION_START();
    char line[256], key[64];
    int value, lineno = 0;
    FILE *fp = fopen(path, "r");
    if (!fp) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        return -1;
    }
    while (fgets(line, sizeof(line), fp)) {
        lineno++;
        if (line[0] == '#' || line[0] == ';' || line[0] == '[' ||
            line[0] == '\n')
            continue;
        if (sscanf(line, " %63[a-z_] = %d", key, &value) != 2)
            goto error;
        if (!strcmp(key, "steps")) cfg->steps = value;
        else if (!strcmp(key, "datasets")) cfg->datasets = value;
        else if (!strcmp(key, "attributes")) cfg->attributes = value;
        else if (!strcmp(key, "rows")) cfg->rows = value;
        else if (!strcmp(key, "cols")) cfg->cols = value;
        else if (!strcmp(key, "chunk_rows")) cfg->chunk_rows = value;
        else if (!strcmp(key, "collective_metadata"))
            cfg->collective_metadata = value;
        else
            goto error;
    }
    fclose(fp);
    DFTRACER_C_FUNCTION_END();
    return 0;
error:
    fprintf(stderr, "%s:%d: cannot parse '%s'\n", path, lineno, line);
    fclose(fp);
    DFTRACER_C_FUNCTION_END();
    return -1;
}

#define CELL_VALUE(step, dset, row, col)                                       \
    ((step) * 1000000.0 + (dset) * 10000.0 + (row) * 100.0 + (col))

/* Creates one dataset with its attributes and writes this rank's rows.
 * Returns 0, or -1 after closing whatever was opened. */
static int create_dataset(hid_t group, const config_t *cfg, int step, int d,
                          int rank, int nprocs)
{
    DFTRACER_C_FUNCTION_START();
    char name[32];
    hsize_t dims[2] = {(hsize_t)cfg->rows, (hsize_t)cfg->cols};
    hsize_t chunk[2] = {(hsize_t)cfg->chunk_rows, (hsize_t)cfg->cols};
    hsize_t start[2] = {0, 0}, count[2] = {0, (hsize_t)cfg->cols};
    hid_t dcpl = H5I_INVALID_HID, fspace = H5I_INVALID_HID;
    hid_t mspace = H5I_INVALID_HID, dset = H5I_INVALID_HID;
    hid_t aspace = H5I_INVALID_HID, attr = H5I_INVALID_HID;
    hid_t dxpl = H5I_INVALID_HID;
    double *buf = NULL;
    int a, r, c, rows_per_rank = cfg->rows / nprocs;

    snprintf(name, sizeof(name), "dset_%03d", d);
    if ((dcpl = H5Pcreate(H5P_DATASET_CREATE)) < 0)
        goto error;
    if (H5Pset_obj_track_times(dcpl, 0) < 0)
        goto error;
    if (d % NUM_LAYOUTS == 0 && H5Pset_layout(dcpl, H5D_COMPACT) < 0)
        goto error;
    if (d % NUM_LAYOUTS == 2 && H5Pset_chunk(dcpl, 2, chunk) < 0)
        goto error;
    if ((fspace = H5Screate_simple(2, dims, NULL)) < 0)
        goto error;
    if ((dset = H5Dcreate2(group, name, H5T_NATIVE_DOUBLE, fspace, H5P_DEFAULT,
                           dcpl, H5P_DEFAULT)) < 0)
        goto error;

    aspace = H5Screate(H5S_SCALAR);
    for (a = 0; a < cfg->attributes; a++) {
        char aname[32];
        int value = step * 100 + d * 10 + a;
        snprintf(aname, sizeof(aname), "attr_%02d", a);
        if ((attr = H5Acreate2(dset, aname, H5T_NATIVE_INT, aspace, H5P_DEFAULT,
                               H5P_DEFAULT)) < 0 ||
            H5Awrite(attr, H5T_NATIVE_INT, &value) < 0)
            goto error;
        H5Aclose(attr);
        attr = H5I_INVALID_HID;
    }

    /* A compact dataset lives in its object header: every rank must write
     * all of it, with the same values. */
    if (d % NUM_LAYOUTS == 0)
        count[0] = (hsize_t)cfg->rows;
    else {
        start[0] = (hsize_t)(rank * rows_per_rank);
        count[0] = (hsize_t)(rank == nprocs - 1
                                 ? cfg->rows - rank * rows_per_rank
                                 : rows_per_rank);
    }
    buf = malloc(sizeof(double) * count[0] * count[1] + 1);
    for (r = 0; r < (int)count[0]; r++)
        for (c = 0; c < cfg->cols; c++)
            buf[r * cfg->cols + c] = CELL_VALUE(step, d, (int)start[0] + r, c);
    if (H5Sselect_hyperslab(fspace, H5S_SELECT_SET, start, NULL, count, NULL) < 0)
        goto error;
    mspace = H5Screate_simple(2, count, NULL);
    dxpl = H5Pcreate(H5P_DATASET_XFER);
    H5Pset_dxpl_mpio(dxpl, H5FD_MPIO_COLLECTIVE);
    if (H5Dwrite(dset, H5T_NATIVE_DOUBLE, mspace, fspace, dxpl, buf) < 0)
        goto error;

    free(buf);
    H5Pclose(dxpl);
    H5Sclose(aspace);
    H5Sclose(mspace);
    H5Sclose(fspace);
    H5Pclose(dcpl);
    { int annotate_ret = (H5Dclose(dset)); DFTRACER_C_FUNCTION_END(); return annotate_ret; }

error:
    free(buf);
    H5E_BEGIN_TRY {
        H5Pclose(dxpl);
        H5Aclose(attr);
        H5Sclose(aspace);
        H5Sclose(mspace);
        H5Dclose(dset);
        H5Sclose(fspace);
        H5Pclose(dcpl);
    } H5E_END_TRY;
    DFTRACER_C_FUNCTION_END();
    return -1;
}

static int create_file(const char *path, const config_t *cfg, int rank,
                       int nprocs)
{
    DFTRACER_C_FUNCTION_START();
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS), fcpl = H5Pcreate(H5P_FILE_CREATE);
    hid_t gcpl = H5Pcreate(H5P_GROUP_CREATE), file, group;
    int s, d, ret_value = 0;

    H5Pset_fapl_mpio(fapl, MPI_COMM_WORLD, MPI_INFO_NULL);
    H5Pset_all_coll_metadata_ops(fapl, cfg->collective_metadata != 0);
    H5Pset_coll_metadata_write(fapl, cfg->collective_metadata != 0);
    H5Pset_obj_track_times(fcpl, 0);
    H5Pset_obj_track_times(gcpl, 0);
    file = H5Fcreate(path, H5F_ACC_TRUNC, fcpl, fapl);
    if (file < 0) {
        ret_value = -1;
        goto done;
    }
    for (s = 0; s < cfg->steps && ret_value == 0; s++) {
        char name[32];
        snprintf(name, sizeof(name), "step_%04d", s);
        group = H5Gcreate2(file, name, H5P_DEFAULT, gcpl, H5P_DEFAULT);
        if (group < 0) {
            ret_value = -1;
            break;
        }
        for (d = 0; d < cfg->datasets && ret_value == 0; d++)
            ret_value = create_dataset(group, cfg, s, d, rank, nprocs);
        H5Gclose(group);
    }
    if (H5Fclose(file) < 0)
        ret_value = -1;
done:
    H5Pclose(gcpl);
    H5Pclose(fcpl);
    H5Pclose(fapl);
    DFTRACER_C_FUNCTION_END();
    return ret_value;
}

/* H5Literate callback for the datasets of one step group. */
static herr_t visit_dataset(hid_t group, const char *name,
                            const H5L_info_t *info, void *op_data)
{
    DFTRACER_C_FUNCTION_START();
    walk_t *walk = op_data;
    int step, d, a, r, c, value;
    hid_t dset = H5Dopen2(group, name, H5P_DEFAULT), dcpl;
    double *buf;
    (void)info;
    if (dset < 0) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        return -1;
    }
    if (sscanf(name, "dset_%d", &d) != 1) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        return -1;
    }
    step = walk->step;
    dcpl = H5Dget_create_plist(dset);
    walk->layouts[layout_index(H5Pget_layout(dcpl))]++;
    H5Pclose(dcpl);
    for (a = 0; a < walk->cfg->attributes; a++) {
        char aname[32];
        hid_t attr;
        snprintf(aname, sizeof(aname), "attr_%02d", a);
        attr = H5Aopen(dset, aname, H5P_DEFAULT);
        if (attr < 0 || H5Aread(attr, H5T_NATIVE_INT, &value) < 0 ||
            value != step * 100 + d * 10 + a)
            walk->bad_values++;
        H5Aclose(attr);
        walk->attributes++;
    }
    buf = malloc(sizeof(double) * walk->cfg->rows * walk->cfg->cols);
    H5Dread(dset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf);
    for (r = 0; r < walk->cfg->rows; r++)
        for (c = 0; c < walk->cfg->cols; c++)
            if (buf[r * walk->cfg->cols + c] != CELL_VALUE(step, d, r, c))
                walk->bad_values++;
    free(buf);
    walk->objects++;
    { herr_t annotate_ret = (H5Dclose(dset)); DFTRACER_C_FUNCTION_END(); return annotate_ret; }
}

/* H5Literate callback for the root group: one step group per link. */
static herr_t visit_step(hid_t file, const char *name, const H5L_info_t *info,
                         void *op_data)
{
    DFTRACER_C_FUNCTION_START();
    walk_t *walk = op_data;
    hsize_t idx = 0;
    hid_t group, missing;
    herr_t status;
    (void)info;
    if (sscanf(name, "step_%d", &walk->step) != 1 ||
        (group = H5Gopen2(file, name, H5P_DEFAULT)) < 0) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        return -1;
    }
    status = H5Literate(group, H5_INDEX_NAME, H5_ITER_INC, &idx, visit_dataset,
                        walk);
    H5E_BEGIN_TRY {
        missing = H5Dopen2(group, "dset_missing", H5P_DEFAULT);
    } H5E_END_TRY;
    if (missing >= 0) {
        H5Dclose(missing);
        walk->bad_values++;
    }
    walk->objects++;
    H5Gclose(group);
    DFTRACER_C_FUNCTION_END();
    return status;
}

static int write_summary(const char *path, const walk_t *walk)
{
    DFTRACER_C_FUNCTION_START();
    FILE *csv;
    int i;
    if (walk->rank != 0) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        return 0;
    }
    if ((csv = fopen(path, "w")) == NULL) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        return -1;
    }
    fprintf(csv, "steps,datasets,attributes,objects,attributes_read,bad\n");
    fprintf(csv, "%d,%d,%d,%lld,%lld,%lld\n", walk->cfg->steps,
            walk->cfg->datasets, walk->cfg->attributes, walk->objects,
            walk->attributes, walk->bad_values);
    for (i = 0; i < NUM_LAYOUTS; i++)
        fprintf(csv, "layout,%s,%lld\n", layout_name((H5D_layout_t)i),
                walk->layouts[i]);
    { int annotate_ret = (fclose(csv)); DFTRACER_C_FUNCTION_END(); return annotate_ret; }
}

int main(int argc, char **argv)
{
    config_t cfg = {3, 12, 6, 16, 8, 4, 1};
    walk_t walk;
    char path[1024], csv_path[1024];
    int rank, nprocs, created, bad;
    hsize_t idx = 0;
    hid_t fapl, file;

    MPI_Init(&argc, &argv);
    DFTRACER_C_INIT(NULL, NULL, NULL);
    DFTRACER_C_FUNCTION_START();
    DFTRACER_C_METADATA(annotate_meta_0, "app", "h5_metadata_stress");
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    if (rank == 0) {
        if (argc < 2 || argc > 3) {
            fprintf(stderr, "usage: %s OUTDIR [CONFIG]\n", argv[0]);
            DFTRACER_C_FUNCTION_END();
            DFTRACER_C_FINI();
            return 2;
        }
        if (argc == 3 && parse_config(argv[2], &cfg) != 0) {
            fprintf(stderr, "h5_metadata_stress: can't load '%s'\n", argv[2]);
            DFTRACER_C_FUNCTION_END();
            DFTRACER_C_FINI();
            return 1;
        }
        printf("h5_metadata_stress: %d steps x %d datasets x %d attributes, "
               "%dx%d doubles\n", cfg.steps, cfg.datasets, cfg.attributes,
               cfg.rows, cfg.cols);
    }
    MPI_Bcast(&cfg, sizeof(cfg), MPI_BYTE, 0, MPI_COMM_WORLD);
    snprintf(path, sizeof(path), "%s/%s", argv[1], FILE_NAME);
    snprintf(csv_path, sizeof(csv_path), "%s/%s", argv[1], CSV_NAME);

    created = create_file(path, &cfg, rank, nprocs);
    MPI_Allreduce(MPI_IN_PLACE, &created, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (created != 0) {
        if (rank == 0)
            fprintf(stderr, "h5_metadata_stress: cannot create %s\n", path);
        DFTRACER_C_FUNCTION_END();
        DFTRACER_C_FINI();
        MPI_Abort(MPI_COMM_WORLD, 1);
    }

    memset(&walk, 0, sizeof(walk));
    walk.cfg = &cfg;
    walk.rank = rank;
    walk.nprocs = nprocs;
    fapl = H5Pcreate(H5P_FILE_ACCESS);
    H5Pset_fapl_mpio(fapl, MPI_COMM_WORLD, MPI_INFO_NULL);
    file = H5Fopen(path, H5F_ACC_RDONLY, fapl);
    H5Pclose(fapl);
    if (file < 0 || H5Literate(file, H5_INDEX_NAME, H5_ITER_INC, &idx,
                               visit_step, &walk) < 0)
        walk.bad_values++;
    if (file >= 0)
        H5Fclose(file);

    if (write_summary(csv_path, &walk) != 0)
        walk.bad_values++;
    bad = (int)walk.bad_values;
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("h5_metadata_stress: %lld objects, %lld attributes checked, "
               "%s\n", walk.objects, walk.attributes,
               bad == 0 ? "no errors" : "ERRORS");
    DFTRACER_C_FUNCTION_END();
    DFTRACER_C_FINI();
    MPI_Finalize();
    return bad == 0 ? 0 : 1;
}
