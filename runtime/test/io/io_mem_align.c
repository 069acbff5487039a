/* The `mem_align` arg (docs/trace-format.md): every form of data call that
 * takes a buffer, once at each of four offsets into a buffer aligned far
 * beyond any DFTRACER_MEM_ALIGNMENT the tests set: 0, 2, 8 and 1024 bytes.
 * A call whose buffer is not a multiple of the alignment carries the
 * largest power of two dividing its address (a vector call: the smallest
 * over its buffers, the second of which is always aligned); the others
 * carry nothing. Each call has a file of its own, `data/<form>_<offset>_`
 * (the reads, and the fortified ones, __read_chk, __pread_chk and
 * __fread_chk, read the file the write of the same form and offset wrote),
 * which io_mem_align_8.expect and io_mem_align_4096.expect name. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

/* glibc's fortified forms, called by name (a fortified build calls them
 * only where it knows the buffer's size). */
extern ssize_t __read_chk(int, void *, size_t, size_t);
extern ssize_t __pread_chk(int, void *, size_t, off_t, size_t);
extern size_t __fread_chk(void *, size_t, size_t, size_t, FILE *);

enum { Size = 64, Big = 1 << 16 };
static const int Offsets[] = {0, 2, 8, 1024};

static char *Buf; /* Big-aligned, room for the largest offset and an iovec's
                     second buffer */

static void path(char *Out, const char *Form, int Off) {
  snprintf(Out, 64, "data/%s_%d_", Form, Off);
}

/* The call of Form (write, pwrite, writev, pwritev, fwrite, and the reads)
 * on its file with the buffer at Buf + Off; 1 when it moved Size bytes. */
static int call(const char *Form, const char *File, int Off) {
  char Path[64];
  char *P = Buf + Off;
  /* The unaligned buffer second: the smallest over all of them counts. */
  struct iovec Iov[2] = {{Buf + Big / 2, Size / 2}, {P, Size / 2}};
  int Write = !strstr(Form, "read");
  long Got = -1;
  path(Path, File, Off);
  if (Form[0] == 'f') {
    FILE *F = fopen(Path, Write ? "w" : "r");
    if (!F)
      return 0;
    Got = (long)(Write ? fwrite(P, 1, Size, F) : fread(P, 1, Size, F));
    return fclose(F) == 0 && Got == Size;
  }
  if (!strcmp(Form, "__fread_chk")) {
    FILE *F = fopen(Path, "r");
    if (!F)
      return 0;
    Got = (long)__fread_chk(P, Size, 1, Size, F);
    return fclose(F) == 0 && Got == Size;
  }
  {
    int Fd = open(Path, Write ? O_CREAT | O_WRONLY | O_TRUNC : O_RDONLY, 0644);
    if (Fd < 0)
      return 0;
    if (!strcmp(Form, "write"))
      Got = write(Fd, P, Size);
    else if (!strcmp(Form, "read"))
      Got = read(Fd, P, Size);
    else if (!strcmp(Form, "__read_chk"))
      Got = __read_chk(Fd, P, Size, Size);
    else if (!strcmp(Form, "__pread_chk"))
      Got = __pread_chk(Fd, P, Size, 0, Size);
    else if (!strcmp(Form, "pwrite"))
      Got = pwrite(Fd, P, Size, 0);
    else if (!strcmp(Form, "pread"))
      Got = pread(Fd, P, Size, 0);
    else if (!strcmp(Form, "writev"))
      Got = writev(Fd, Iov, 2);
    else if (!strcmp(Form, "readv"))
      Got = readv(Fd, Iov, 2);
    else if (!strcmp(Form, "pwritev"))
      Got = pwritev(Fd, Iov, 2, 0);
    else if (!strcmp(Form, "preadv"))
      Got = preadv(Fd, Iov, 2, 0);
    return close(Fd) == 0 && Got == Size;
  }
}

int main(void) {
  static const char *Writes[] = {"write", "pwrite", "writev", "pwritev",
                                 "fwrite"};
  static const char *Reads[] = {"read", "pread", "readv", "preadv", "fread"};
  static const char *Checked[] = {"__read_chk", "__pread_chk", NULL, NULL,
                                  "__fread_chk"};
  unsigned I, J;
  if (mkdir("data", 0755) != 0 || !(Buf = aligned_alloc(Big, 2 * Big)))
    return 1;
  memset(Buf, 'x', 2 * Big);
  for (I = 0; I < sizeof(Writes) / sizeof(Writes[0]); ++I)
    for (J = 0; J < sizeof(Offsets) / sizeof(Offsets[0]); ++J)
      if (!call(Writes[I], Writes[I], Offsets[J]) ||
          !call(Reads[I], Writes[I], Offsets[J]) ||
          (Checked[I] && !call(Checked[I], Writes[I], Offsets[J]))) {
        fprintf(stderr, "%s/%s at %d failed\n", Writes[I], Reads[I],
                Offsets[J]);
        return 1;
      }
  free(Buf);
  return 0;
}
