/* Spans ended out of order. Ending a span first ends the spans opened after
 * it that are still open, so the trace always nests; their handles stay
 * valid until their own END or cleanup, which must then do nothing. Looped
 * so that a record recycled too early would corrupt later spans
 * (out_of_order.counts.json). */
#include <dftracer/dftracer.h>

enum { Rounds = 1000 };

static void leftOpen(void) {
  DFTRACER_C_FUNCTION_START();
  DFTRACER_C_REGION_START(never_ended);
  DFTRACER_C_REGION_UPDATE_INT(never_ended, "while_open", 1);
  DFTRACER_C_FUNCTION_END();
}

static void crossed(void) {
  DFTRACER_C_FUNCTION_START();
  DFTRACER_C_REGION_START(a);
  {
    DFTRACER_C_REGION_START(r);
    DFTRACER_C_REGION_END(a);                        /* also ends r */
    DFTRACER_C_REGION_UPDATE_INT(r, "after_end", 1); /* ignored */
    {
      DFTRACER_C_REGION_START(b); /* must not reuse r's record */
      leftOpen();
      DFTRACER_C_REGION_END(b);
    }
    DFTRACER_C_REGION_END(r); /* already ended: nothing */
  }
  DFTRACER_C_FUNCTION_END();
}

int main(void) {
  int I;
  DFTRACER_C_INIT(NULL, NULL, NULL);
  DFTRACER_C_FUNCTION_START();
  for (I = 0; I < Rounds; ++I)
    crossed();
  DFTRACER_C_FUNCTION_END();
  DFTRACER_C_FINI();
  return 0;
}
