/* The functions of every source, one per source (the trace has a span of
 * each). C linkage: C and C++ sources call them. */
#ifndef MODES_H
#define MODES_H
#ifdef __cplusplus
extern "C" {
#endif
int obj_scale(int x);  /* objlib.c, OBJECT library */
int core_add(int x);   /* core_a.c, unity (C) */
int core_twice(int x); /* core_b.c, unity (C) */
int core_sub(int x);   /* sub/core_sub.c, unity (C), quoted include */
int core_sum(int x);   /* core_cxx.cpp, unity (C++) */
int pch_use(int x);    /* pch_user.c, PCH */
int ascxx_value(int x); /* ascxx.c, LANGUAGE CXX */
int gen_lookup(int i); /* gen.c, generated */
#ifdef __cplusplus
}
#endif
#endif
