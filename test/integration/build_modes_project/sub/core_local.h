/* Found by sub/core_sub.c's quoted include, in its own directory. */
#define CORE_SUB_STEP 7
