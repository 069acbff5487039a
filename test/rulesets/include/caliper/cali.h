/* A minimal stand-in for Caliper's <caliper/cali.h>, with the same names and
 * forms as upstream's C annotation API (cali.h, cali_macros.h), so that the
 * caliper rule set's golden outputs compile without Caliper installed. */
#ifndef ANNOTATE_TEST_CALI_H
#define ANNOTATE_TEST_CALI_H

void cali_begin_region(const char *name);
void cali_end_region(const char *name);

#define CALI_MARK_FUNCTION_BEGIN cali_begin_region(__func__)
#define CALI_MARK_FUNCTION_END cali_end_region(__func__)
#define CALI_MARK_BEGIN(name) cali_begin_region(name)
#define CALI_MARK_END(name) cali_end_region(name)

#endif
