/* A program that knows nothing of the runtime: traced only when
 * libdftracer_preload.so is preloaded. Its I/O events have no enclosing
 * span (level 1). It writes 3 x 4096 bytes with pwrite, reads 8192 back with
 * read, writes and reads 100 bytes of a second file through a stream, and
 * reads /etc/passwd, which the default filter leaves out.
 *
 *   io_unannotated            data/plain.bin, data/stream.txt (data/ is made)
 *   io_unannotated --tmp      /tmp/dft-io-{plain,stream}-<pid>.*, removed */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int main(int argc, char **argv) {
  static char Buf[8192];
  char Path[256] = "data/plain.bin", Stream[256] = "data/stream.txt";
  int Tmp = argc > 1 && strcmp(argv[1], "--tmp") == 0;
  int Fd, I;
  FILE *F;
  if (Tmp) {
    snprintf(Path, sizeof(Path), "/tmp/dft-io-plain-%d.bin", (int)getpid());
    snprintf(Stream, sizeof(Stream), "/tmp/dft-io-stream-%d.txt",
             (int)getpid());
  }
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
  F = fopen(Stream, "w+");
  if (!F || fwrite(Buf, 1, 100, F) != 100 || fseek(F, 0, SEEK_SET) != 0 ||
      fread(Buf, 10, 10, F) != 10 || fclose(F) != 0)
    return 1;
  Fd = open("/etc/passwd", O_RDONLY);
  if (Fd < 0 || read(Fd, Buf, 16) < 0 || close(Fd) != 0)
    return 1;
  if (Tmp && (unlink(Path) != 0 || unlink(Stream) != 0))
    return 1;
  return 0;
}
