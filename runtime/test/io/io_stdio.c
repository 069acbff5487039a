/* Every STDIO call the runtime intercepts, on streams of a file under the
 * data dir (data/, traced) and of one outside it (other/), each phase in an
 * annotated function (io_stdio.expect). Built plain and with -O2
 * -D_FORTIFY_SOURCE=2 -D_FILE_OFFSET_BITS=64 (fopen64, fseeko64, ftello64,
 * __fread_chk: io_stdio_fortify.expect). */
#define _GNU_SOURCE
#include <dftracer/dftracer.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void check(int Ok, const char *What) {
  if (!Ok) {
    fprintf(stderr, "io_stdio: %s failed\n", What);
    exit(1);
  }
}

/* Writes 10 x 100 + 50 bytes. */
static void writeStream(const char *Path) {
  DFTRACER_C_FUNCTION_START();
  static char Buf[1000];
  FILE *F = fopen(Path, "w");
  int I;
  check(F != NULL, "fopen");
  memset(Buf, 's', sizeof(Buf));
  for (I = 0; I < 10; ++I)
    check(fwrite(Buf, 100, 1, F) == 1, "fwrite");
  check((fwrite_unlocked)(Buf, 1, 50, F) == 50, "fwrite_unlocked");
  check(fflush(F) == 0, "fflush");
  check(ftell(F) == 1050, "ftell");
  check(fclose(F) == 0, "fclose");
  DFTRACER_C_FUNCTION_END();
}

static void readStream(const char *Path, size_t Want) {
  DFTRACER_C_FUNCTION_START();
  char Buf[200];
  FILE *F = fopen(Path, "r");
  check(F != NULL, "fopen");
  check(fseek(F, 100, SEEK_SET) == 0, "fseek");
  check(fread(Buf, 1, Want, F) == Want, "fread");
  check(fseeko(F, 0, SEEK_END) == 0 && ftello(F) == 1050, "fseeko+ftello");
  rewind(F);
  check((fread_unlocked)(Buf, 10, 2, F) == 2, "fread_unlocked");
  F = freopen(NULL, "r", F);
  check(F != NULL && fclose(F) == 0, "freopen+fclose");
  DFTRACER_C_FUNCTION_END();
}

static void descriptorStream(const char *Path) {
  DFTRACER_C_FUNCTION_START();
  int Fd = open(Path, O_RDONLY);
  FILE *F = fdopen(Fd, "r");
  char Buf[8];
  check(F != NULL && fread(Buf, 1, 8, F) == 8, "fdopen+fread");
  check(fclose(F) == 0, "fclose");
  DFTRACER_C_FUNCTION_END();
}

int main(int argc, char **argv) {
  size_t Want = (size_t)(argc + 99); /* 100, unknown to the compiler */
  (void)argv;
  DFTRACER_C_INIT(NULL, NULL, NULL);
  DFTRACER_C_FUNCTION_START();
  check(mkdir("data", 0755) == 0 && mkdir("other", 0755) == 0, "mkdir");
  writeStream("data/s.txt");
  readStream("data/s.txt", Want);
  descriptorStream("data/s.txt");
  writeStream("other/s.txt");
  readStream("other/s.txt", Want);
  descriptorStream("other/s.txt");
  DFTRACER_C_FUNCTION_END();
  DFTRACER_C_FINI();
  return 0;
}
