/* util.h - buffered output and logging (src/util). Declarations only. */
#ifndef TREE_UTIL_H
#define TREE_UTIL_H

#include <stddef.h>
#include <stdio.h>

#ifndef TREE_BUFFER_CAPACITY
#define TREE_BUFFER_CAPACITY 4096
#endif

struct tree_buffer {
    char data[TREE_BUFFER_CAPACITY];
    size_t used;
    FILE *sink;
    long flushes;
};

void buffer_init(struct tree_buffer *b, FILE *sink);
int buffer_append(struct tree_buffer *b, const void *data, size_t n);
int buffer_flush(struct tree_buffer *b);
size_t buffer_capacity(void);
#if TREE_BUFFER_CAPACITY < 64
void buffer_dump(const struct tree_buffer *b);
#endif

void log_set_verbose(int verbose);
void log_message(const char *fmt, ...);
int log_open(const char *path);
void log_close(void);

#endif
