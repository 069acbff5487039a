/* The functions of langmix, one per source, callable from C and C++. */
#ifndef MIX_H
#define MIX_H
#ifdef __cplusplus
extern "C" {
#endif
int shape_area(int w, int h);           /* shapes.c, C++ (OBJECT library) */
double stats_mean(const int *v, int n); /* stats.c, C++ */
int plain_sum(const int *v, int n);     /* plain.c, C */
int table_lookup(int i);                /* table.c, generated, C */
int scaled_parts(double scale);         /* narrow.cpp, C++ */
#ifdef __cplusplus
}
#endif
#endif
