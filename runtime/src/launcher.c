#define _GNU_SOURCE
#include "launcher.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char DefaultList[] =
    "mpiexec:mpirun:orterun:prterun:prun:hydra_pmi_proxy:orted:prted:srun:"
    "flux:jsrun:mpiexec.*:mpirun.*";

/* Name against one entry of Len bytes; a trailing `*` matches any rest. */
static int matches(const char *Name, const char *Entry, size_t Len) {
  if (Len > 0 && Entry[Len - 1] == '*')
    return strncmp(Name, Entry, Len - 1) == 0;
  return strlen(Name) == Len && strncmp(Name, Entry, Len) == 0;
}

int dftracer_launcher_name(const char *Name, const char *List) {
  const char *P;
  if (!Name || !*Name)
    return 0;
  for (P = List ? List : DefaultList; *P;) {
    const char *End = strchr(P, ':');
    size_t Len = End ? (size_t)(End - P) : strlen(P);
    if (Len > 0 && matches(Name, P, Len))
      return 1;
    P += Len;
    if (*P == ':')
      ++P;
  }
  return 0;
}

int dftracer_is_launcher(void) {
  const char *List = getenv("DFTRACER_LAUNCHERS");
  char Exe[4096];
  ssize_t N = readlink("/proc/self/exe", Exe, sizeof(Exe) - 1);
  if (N > 0) {
    const char *Base;
    Exe[N] = '\0';
    Base = strrchr(Exe, '/');
    if (dftracer_launcher_name(Base ? Base + 1 : Exe, List))
      return 1;
  }
  /* mpirun is often a link to mpiexec.hydra: the name it was run as too. */
  return dftracer_launcher_name(program_invocation_short_name, List);
}
