#define _GNU_SOURCE /* MAP_ANONYMOUS */
#include "pages.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

enum { PageBytes = 4096 };

size_t dftracer_pages_round(size_t Bytes) {
  return (Bytes + PageBytes - 1) & ~(size_t)(PageBytes - 1);
}

#if defined(__SANITIZE_THREAD__)
#define DFT_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define DFT_TSAN 1
#endif
#endif

/* System calls, not the libc functions: the POSIX layer intercepts mmap,
 * and the runtime's memory is not the program's I/O. Under
 * ThreadSanitizer, whose own mmap and munmap come first in the symbol
 * lookup, the functions: it must see pages go and come back, or it takes
 * accesses by the thread that gets them next for races with the last
 * owner's. */
static void *mapPages(size_t Bytes) {
#ifdef DFT_TSAN
  void *Ret = mmap(NULL, Bytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return Ret == MAP_FAILED ? NULL : Ret;
#else
  long Ret = syscall(SYS_mmap, NULL, Bytes, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return Ret == -1 ? NULL : (void *)Ret;
#endif
}

static void unmapPages(void *Pages, size_t Bytes) {
#ifdef DFT_TSAN
  munmap(Pages, Bytes);
#else
  syscall(SYS_munmap, Pages, Bytes);
#endif
}

void *dftracer_pages_alloc(size_t Bytes) {
  int Saved = errno;
  void *Pages;
  if (Bytes == 0 || Bytes > SIZE_MAX / 2)
    return NULL;
  Pages = mapPages(dftracer_pages_round(Bytes));
  errno = Saved;
  return Pages;
}

void dftracer_pages_free(void *Pages, size_t Bytes) {
  int Saved = errno;
  if (Pages)
    unmapPages(Pages, dftracer_pages_round(Bytes));
  errno = Saved;
}

char *dftracer_text_copy(struct dftracer_text_store *Store, const char *Text,
                         size_t Len) {
  enum { Block = 64 << 10 };
  char *Copy;
  if (Len + 1 > Store->Left) {
    size_t Want = Len + 1 > Block ? Len + 1 : Block;
    char *Pages = (char *)dftracer_pages_alloc(Want);
    if (!Pages)
      return NULL;
    Store->Next = Pages;
    Store->Left = dftracer_pages_round(Want);
  }
  Copy = Store->Next;
  memcpy(Copy, Text, Len);
  Copy[Len] = '\0';
  Store->Next += Len + 1;
  Store->Left -= Len + 1;
  return Copy;
}
