/*
 * scenario.h - what every diagnosis scenario shares: MPI start and end,
 * and the path of a file in the output directory (argv[1]).
 *
 * Each scenario NAME.c shows one I/O problem; built with -DFIXED, or run
 * with `--fixed` after OUTDIR, it is the twin with that problem fixed, so
 * one binary runs both sides (dftracer-tune --try-args '--fixed';
 * analysis/test/tune/scenario_pairs.cmake). test/scenarios/CMakeLists.txt
 * lists them (ranks, the finding kind and the function it must name) and
 * runs each pair; docs/diagnosis.md ("Checked by") has the table of
 * scenarios and what each twin changes.
 */
#ifndef SCENARIO_H
#define SCENARIO_H

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <mpi.h>
#include <dftracer/dftracer.h>

static int scenario_rank, scenario_size;
static const char *scenario_dir;
#ifdef FIXED
static const int scenario_fixed_at_build = 1;
#else
static const int scenario_fixed_at_build = 0;
#endif
static int scenario_fixed; /* -DFIXED, or --fixed after OUTDIR */

static void scenario_start(int *argc, char ***argv)
{
    MPI_Init(argc, argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &scenario_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &scenario_size);
    if (*argc != 2 && !(*argc == 3 && strcmp((*argv)[2], "--fixed") == 0)) {
        if (scenario_rank == 0)
            fprintf(stderr, "usage: %s OUTDIR [--fixed]\n", (*argv)[0]);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    scenario_dir = (*argv)[1];
    scenario_fixed = scenario_fixed_at_build || *argc == 3;
}

/* OUTDIR/NAME.RANK (rank < 0: OUTDIR/NAME). */
static __attribute__((unused)) void scenario_path(char *buf, size_t size, const char *name, int rank)
{
    if (rank < 0)
        snprintf(buf, size, "%s/%s", scenario_dir, name);
    else
        snprintf(buf, size, "%s/%s.%d", scenario_dir, name, rank);
}

static void scenario_fail(const char *what)
{
    perror(what);
    MPI_Abort(MPI_COMM_WORLD, 1);
}

static __attribute__((unused)) void *scenario_buffer(size_t bytes)
{
    char *p = malloc(bytes);
    if (!p)
        scenario_fail("malloc");
    memset(p, 'a' + scenario_rank % 26, bytes);
    return p;
}

#endif
