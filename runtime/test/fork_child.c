/* A forked child must not write into its parent's trace (SPEC: one file
 * per process; the child would interleave lines and, with gzip, corrupt
 * the stream). The child traces nothing; the parent's file stays valid and
 * holds only the parent's spans (fork_child.counts.json). */
#include <dftracer/dftracer.h>

#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static void inChild(void) {
  DFTRACER_C_FUNCTION_START();
  DFTRACER_C_FUNCTION_END();
}

static void inParent(void) {
  DFTRACER_C_FUNCTION_START();
  DFTRACER_C_FUNCTION_END();
}

int main(void) {
  int Status = 1;
  pid_t Child;
  DFTRACER_C_INIT(NULL, NULL, NULL);
  DFTRACER_C_FUNCTION_START();
  inParent();
  Child = fork();
  if (Child == 0) {
    inChild();
    exit(0); /* runs the atexit flush in the child */
  }
  if (Child < 0 || waitpid(Child, &Status, 0) != Child)
    return 1;
  inParent();
  DFTRACER_C_FUNCTION_END();
  DFTRACER_C_FINI();
  return WIFEXITED(Status) && WEXITSTATUS(Status) == 0 ? 0 : 1;
}
