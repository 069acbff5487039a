#ifndef A_H
#define A_H
#define A_OFFSET 1
#endif
