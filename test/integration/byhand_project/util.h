#ifndef UTIL_H
#define UTIL_H
void fill(int *data, int count, int rank);
#endif
