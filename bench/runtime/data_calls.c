/* N 1-byte calls of one kind on a file in ./io: `f` fwrite (buffered),
 * `w` write (the position moves), `p` pwrite at offset 0, from a buffer
 * OFFSET bytes past a 64-byte boundary (default 0: aligned, so the call
 * carries no `mem_align`; 1: it does). Run preloaded under callgrind by
 * instructions.sh: the traced wrapper's instructions per call, which the
 * machine's load does not change.
 *
 *   data_calls f|w|p [N [OFFSET]] */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv) {
  static _Alignas(64) char Buf[128] = {'x'};
  long N = argc > 2 ? atol(argv[2]) : 100000, I;
  char *B = Buf + (argc > 3 ? atoi(argv[3]) % 64 : 0);
  if (argc < 2)
    return 2;
  if (argv[1][0] == 'f') {
    FILE *F = fopen("io/f.bin", "w");
    for (I = 0; F && I < N; ++I)
      fwrite(B, 1, 1, F);
    return F ? fclose(F) : 1;
  }
  int Fd = open(argv[1][0] == 'w' ? "io/w.bin" : "io/p.bin",
                O_WRONLY | O_CREAT | O_TRUNC, 0644);
  for (I = 0; Fd >= 0 && I < N; ++I)
    if ((argv[1][0] == 'w' ? write(Fd, B, 1) : pwrite(Fd, B, 1, 0)) != 1)
      return 1;
  return Fd >= 0 ? close(Fd) : 1;
}
