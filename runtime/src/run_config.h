/*===- run_config.h - The run's configuration, as records ------------------===*
 *
 * What a tuner needs to tell two runs apart (issue 35, docs/trace-format.md
 * "Run configuration records"):
 *
 *   CONFIG   at the top of every trace file: the executable, argv (at most
 *            64 arguments and 4096 bytes), the working directory, the
 *            environment variables that change I/O behaviour (the list in
 *            docs/runtime.md, plus DFTRACER_CONFIG_ENV) and glibc's version;
 *   VERSION  once per trace file and library (HDF5, MPI): at the top when
 *            the library's version is known by then, else at the end;
 *   MPI_JOB  {rank, size}, once, when the MPI rank becomes known;
 *   trace_end {ts}, the file's last line, on every finish path.
 *
 * Everything is learnt at load or when MPI tells the rank, and kept in
 * static storage as the record's JSON text: writing the records (at the
 * sink's open, which may be in a signal handler, and on the finish paths)
 * formats only the head and copies, without allocating.
 *
 *===----------------------------------------------------------------------===*/
#ifndef DFTRACER_RUNTIME_RUN_CONFIG_H
#define DFTRACER_RUNTIME_RUN_CONFIG_H

/* At load, tracing on: argv, environment, cwd, exe, glibc; HDF5's version
 * when libhdf5 is already loaded. */
void dftracer_run_config_setup(void);

/* The top of a trace file just opened: CONFIG, then a VERSION per library
 * whose version is known. Caller holds the process lock. */
void dftracer_run_config_report_locked(void);

/* The end of a trace file (the finish paths, writer stopped): a VERSION per
 * library known now and not yet written to this file. MayLookUp 0 (at
 * _exit, perhaps in a signal handler): only what is known already, no
 * dlsym and no call into a library. Caller holds the process lock. */
void dftracer_run_config_end_locked(int MayLookUp);

/* The last line of a trace file (the finish paths, after every other
 * record): `trace_end` {ts}. A file without it was not finished (the
 * process was killed, or lost power): the analysis says so rather than
 * take it for a complete process. Allocates nothing (a _exit in a signal
 * handler may write it). Caller holds the process lock. */
void dftracer_run_config_trace_end_locked(void);

/* MPI told the rank (mpi_rank.c, on the thread that asked): the MPI_JOB
 * record after the events that thread finished, and MPI's version. */
void dftracer_run_config_mpi_job(int Rank, int Size, const char *Version);

#endif
