/* No include: modes.h, MODES_PCH_FACTOR and modes_pch_twice come from the
 * precompiled header. */
int pch_use(int x) { return modes_pch_twice(x) * MODES_PCH_FACTOR; }
