/* A process that ends without running any code of its own: SIGKILL, as
 * the OOM killer or a lost node would end it (issue 37).
 *
 *   dft_killed DIR kill|wait-kill|exit [WRITES]
 *
 * Writes DIR/data one byte at a time WRITES times (default 30000: enough
 * events that the runtime's writer thread runs), then `kill` sends itself
 * SIGKILL at once, `wait-kill` after 2.5 s (more than the writer's
 * DFTRACER_FLUSH_INTERVAL_MS, 1 s by default, so every write must be in
 * the file); `exit` returns 0. The trace of a killed run has no trace_end
 * record, and both tools must say it is unfinished.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv) {
  char Path[4096];
  int Fd, I, Writes = argc > 3 ? atoi(argv[3]) : 30000;
  if (argc < 3 || (strcmp(argv[2], "kill") && strcmp(argv[2], "wait-kill") &&
                   strcmp(argv[2], "exit"))) {
    fprintf(stderr, "usage: %s DIR kill|wait-kill|exit [WRITES]\n", argv[0]);
    return 2;
  }
  snprintf(Path, sizeof(Path), "%s/data", argv[1]);
  Fd = open(Path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
  if (Fd < 0)
    return 1;
  for (I = 0; I < Writes; ++I)
    if (write(Fd, "x", 1) != 1)
      return 1;
  if (strcmp(argv[2], "wait-kill") == 0) {
    struct timespec Wait = {2, 500000000L};
    while (nanosleep(&Wait, &Wait) != 0)
      ;
  }
  if (strcmp(argv[2], "exit") != 0)
    kill(getpid(), SIGKILL);
  return close(Fd) == 0 ? 0 : 1;
}
