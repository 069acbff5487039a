/*===- launcher.h - MPI launchers are not ranks ---------------------------===*
 *
 * `LD_PRELOAD=libdftracer_preload.so mpirun -np 2 prog` preloads the
 * runtime into mpirun and its proxies as well as into the ranks. A
 * launcher's own I/O is not the application's, and its file would be
 * counted as one more rank. So a process whose executable is a launcher
 * (the basename of /proc/self/exe, or the name it was started as) traces
 * nothing and writes no file: mpiexec, mpirun, orterun, prterun, prun,
 * hydra_pmi_proxy, orted, prted, srun, flux, jsrun, and any `mpiexec.*` or
 * `mpirun.*` (mpiexec.hydra, mpirun.openmpi). DFTRACER_LAUNCHERS (names
 * separated by ':') replaces the list; empty, no process is a launcher.
 *
 *===----------------------------------------------------------------------===*/
#ifndef DFTRACER_RUNTIME_LAUNCHER_H
#define DFTRACER_RUNTIME_LAUNCHER_H

/* True when this process is a launcher. At load; may call getenv. */
int dftracer_is_launcher(void);

/* True when Name (a basename) is in the list List (NULL: the default). */
int dftracer_launcher_name(const char *Name, const char *List);

#endif
