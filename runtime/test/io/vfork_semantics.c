/* vfork under the runtime (runtime/src/vfork.c):
 *
 *   dft_vfork shared|copied [exec]
 *
 * The child stores to a variable of the parent's, then _exits (or, with
 * `exec`, closes a descriptor and execs `true`: intercepted calls in the
 * child). With a real vfork (tracing off) the parent, resumed only once
 * the child is gone, sees the store: `shared`. With the fork that stands in
 * for vfork while tracing is on, the store went to the child's copy:
 * `copied`. Exit status 0 when the parent sees what the argument says. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile int Stored;

int main(int argc, char **argv) {
  int Shared, Exec, Status = 0;
  pid_t Pid;
  if (argc < 2 || (strcmp(argv[1], "shared") && strcmp(argv[1], "copied"))) {
    fprintf(stderr, "usage: %s shared|copied [exec]\n", argv[0]);
    return 2;
  }
  Shared = strcmp(argv[1], "shared") == 0;
  Exec = argc > 2 && strcmp(argv[2], "exec") == 0;
  Pid = vfork();
  if (Pid == 0) {
    Stored = 1;
    if (Exec) {
      close(STDIN_FILENO);
      execlp("true", "true", (char *)NULL);
    }
    _exit(Exec ? 127 : 0);
  }
  if (Pid < 0) {
    perror("vfork");
    return 1;
  }
  if (waitpid(Pid, &Status, 0) != Pid || !WIFEXITED(Status) ||
      WEXITSTATUS(Status) != 0) {
    fprintf(stderr, "the child failed (status %d)\n", Status);
    return 1;
  }
  if (Stored != Shared) {
    fprintf(stderr, "the child's store is %s the parent, expected %s\n",
            Stored ? "seen by" : "not seen by", argv[1]);
    return 1;
  }
  return 0;
}
