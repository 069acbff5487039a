/* A forked child traces into its own file, never into its parent's (one
 * file per process; interleaved lines would break the parent's file and,
 * with gzip, its stream). The child's file starts afresh: the spans open at
 * the fork were the parent's, so the child's inChild is at level 1, and it
 * names again (FH) the file whose descriptor it inherited before writing to
 * it (fork_child.counts.json, io/fork_child.expect). */
#include <dftracer/dftracer.h>

#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static void inChild(int Fd) {
  DFTRACER_C_FUNCTION_START();
  if (write(Fd, "child\n", 6) != 6)
    exit(1);
  DFTRACER_C_FUNCTION_END();
}

static void inParent(int Fd) {
  DFTRACER_C_FUNCTION_START();
  if (write(Fd, "parent\n", 7) != 7)
    exit(1);
  DFTRACER_C_FUNCTION_END();
}

int main(void) {
  int Status = 1, Fd;
  pid_t Child;
  DFTRACER_C_INIT(NULL, NULL, NULL);
  DFTRACER_C_FUNCTION_START();
  if (mkdir("data", 0755) != 0 ||
      (Fd = open("data/f.txt", O_CREAT | O_WRONLY | O_APPEND, 0644)) < 0)
    return 1;
  inParent(Fd);
  Child = fork();
  if (Child == 0) {
    inChild(Fd);
    exit(0); /* runs the atexit flush in the child */
  }
  if (Child < 0 || waitpid(Child, &Status, 0) != Child)
    return 1;
  inParent(Fd);
  close(Fd);
  DFTRACER_C_FUNCTION_END();
  DFTRACER_C_FINI();
  return WIFEXITED(Status) && WEXITSTATUS(Status) == 0 ? 0 : 1;
}
