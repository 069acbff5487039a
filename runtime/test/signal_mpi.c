/* MPI ranks ended by SIGTERM through mpiexec keep their traces
 * (runtime/src/signals.c): a batch system ending a job, or mpiexec ending
 * the ranks, sends SIGTERM to mpiexec, which forwards it to the ranks.
 *
 *   dft_signal_mpi MPIEXEC
 *     Runs `MPIEXEC -n 2 <itself> rank` and waits until both ranks are
 *     ready (data/ready<r>; at most WaitSeconds), sends mpiexec SIGTERM and
 *     waits for it. Exit 0 unless a step failed.
 *   dft_signal_mpi rank
 *     MPI_Init; rank r writes data/rank<r> Writes times, waits for the
 *     other rank (MPI_Barrier), links data/ready<r> and waits in pause()
 *     for the signal (the SIG_DFL of an MPI program that installs none).
 */
#define _GNU_SOURCE
#include <mpi.h>

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { Writes = 10, WaitSeconds = 60 };

static int rankMode(int argc, char **argv) {
  char Path[32];
  int Rank, Fd, I, Ok;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  snprintf(Path, sizeof(Path), "data/rank%d", Rank);
  Fd = open(Path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
  for (I = 0, Ok = Fd >= 0; Ok && I < Writes; ++I)
    Ok = write(Fd, "x", 1) == 1;
  if (!Ok || close(Fd) != 0)
    return 1;
  MPI_Barrier(MPI_COMM_WORLD);
  /* symlink is not intercepted: once the parent sees it, the rank is
   * past every traced call (a signal inside the runtime's recording of one
   * would skip the finishing). */
  snprintf(Path, sizeof(Path), "data/ready%d", Rank);
  if (symlink("rank", Path) != 0)
    return 1;
  for (;;)
    pause();
}

static int launcherMode(const char *Mpiexec, const char *Self) {
  struct timespec Tick = {0, 10 * 1000 * 1000};
  time_t Deadline;
  struct stat St;
  int Status;
  pid_t Child;
  if (mkdir("data", 0755) != 0)
    return 1;
  Child = fork();
  if (Child < 0)
    return 1;
  if (Child == 0) {
    execl(Mpiexec, Mpiexec, "-n", "2", Self, "rank", (char *)NULL);
    _exit(127);
  }
  Deadline = time(NULL) + WaitSeconds;
  while (lstat("data/ready0", &St) != 0 || lstat("data/ready1", &St) != 0) {
    if (time(NULL) > Deadline || waitpid(Child, &Status, WNOHANG) != 0) {
      fprintf(stderr, "the ranks did not get ready\n");
      kill(Child, SIGKILL);
      return 1;
    }
    nanosleep(&Tick, NULL);
  }
  if (kill(Child, SIGTERM) != 0 || waitpid(Child, &Status, 0) != Child)
    return 1;
  return 0;
}

int main(int argc, char **argv) {
  if (argc == 2 && strcmp(argv[1], "rank") == 0)
    return rankMode(argc, argv);
  if (argc == 2) {
    char Self[4096];
    ssize_t Len = readlink("/proc/self/exe", Self, sizeof(Self) - 1);
    if (Len <= 0)
      return 1;
    Self[Len] = 0; /* mpiexec's /proc/self/exe would be mpiexec */
    return launcherMode(argv[1], Self);
  }
  fprintf(stderr, "usage: %s MPIEXEC | rank\n", argv[0]);
  return 2;
}
