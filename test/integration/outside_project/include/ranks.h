#ifndef RANKS_H
#define RANKS_H
int ranks_square(int x);
#endif
