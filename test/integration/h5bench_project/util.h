#ifndef H5BENCH_LIKE_UTIL_H
#define H5BENCH_LIKE_UTIL_H

/* One line around rand(), as h5bench's: called for every element. */
int uniform_random_number(void);

/* Fills Count ints, one uniform_random_number() each. */
void fill_buffer(int *Data, long Count);

#endif
