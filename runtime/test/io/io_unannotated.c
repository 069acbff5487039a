/* A program that knows nothing of the runtime: traced only when
 * libdftracer_preload.so is preloaded. Its I/O events have no enclosing
 * span (level 1). It writes 3 x 4096 bytes with pwrite, reads 8192 back with
 * read, copies 100 bytes through a stream, and reads /etc/passwd, which the
 * default filter leaves out.
 *
 *   io_unannotated            data/plain.bin (data/ is created)
 *   io_unannotated --tmp      /tmp/dft-io-plain-<pid>.bin, removed after */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int main(int argc, char **argv) {
  static char Buf[8192];
  char Path[256] = "data/plain.bin";
  int Tmp = argc > 1 && strcmp(argv[1], "--tmp") == 0;
  int Fd, I;
  FILE *F;
  if (Tmp)
    snprintf(Path, sizeof(Path), "/tmp/dft-io-plain-%d.bin", (int)getpid());
  else if (mkdir("data", 0755) != 0)
    return 1;
  Fd = open(Path, O_CREAT | O_RDWR | O_TRUNC, 0644);
  if (Fd < 0)
    return 1;
  memset(Buf, 'p', sizeof(Buf));
  for (I = 0; I < 3; ++I)
    if (pwrite(Fd, Buf, 4096, (off_t)I * 4096) != 4096)
      return 1;
  if (lseek(Fd, 0, SEEK_SET) != 0 || read(Fd, Buf, 8192) != 8192 ||
      fsync(Fd) != 0 || close(Fd) != 0)
    return 1;
  F = fopen(Path, "r+");
  if (!F || fwrite(Buf, 1, 100, F) != 100 || fseek(F, 0, SEEK_SET) != 0 ||
      fread(Buf, 10, 10, F) != 10 || fclose(F) != 0)
    return 1;
  Fd = open("/etc/passwd", O_RDONLY);
  if (Fd < 0 || read(Fd, Buf, 16) < 0 || close(Fd) != 0)
    return 1;
  if (Tmp && unlink(Path) != 0)
    return 1;
  return 0;
}
