/*===- pages.h - Memory for the event path, straight from the kernel ------===*
 *
 * A signal handler may trace (open, write and close are async-signal-safe,
 * so a correct program may call them in one) while the code it interrupted
 * holds malloc's lock: glibc's arena lock is not recursive, so a malloc on
 * the event path would deadlock that thread or corrupt its heap. Everything
 * START, END and an I/O event may need to allocate (a thread's state on its
 * first event, span records, event buffers, path names) comes from here
 * instead: whole pages mapped with the mmap system call, which is safe
 * anywhere, returned with munmap. They never pass through malloc, so
 * valgrind's leak check does not see them either.
 *
 *===----------------------------------------------------------------------===*/
#ifndef DFTRACER_RUNTIME_PAGES_H
#define DFTRACER_RUNTIME_PAGES_H

#include <stddef.h>

/* Bytes rounded up to whole pages of 4 KiB (mappings are at least that
 * large on every system: the kernel rounds up to its own page size). */
size_t dftracer_pages_round(size_t Bytes);

/* dftracer_pages_round(Bytes) zeroed bytes, or NULL when memory is
 * exhausted. errno is left alone. */
void *dftracer_pages_alloc(size_t Bytes);

/* Return what dftracer_pages_alloc(Bytes) gave; NULL is ignored. */
void dftracer_pages_free(void *Pages, size_t Bytes);

/* Lasting copies of short texts (path names, span names), packed into
 * blocks of pages that are never freed. Start zeroed; the caller
 * serialises its calls (the process lock). */
struct dftracer_text_store {
  char *Next;
  size_t Left;
};

/* A NUL-terminated copy of Len bytes of Text, or NULL when memory is
 * exhausted. The rest of a block too small for it is given up. */
char *dftracer_text_copy(struct dftracer_text_store *Store, const char *Text,
                         size_t Len);

#endif
