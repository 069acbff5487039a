/* modes_core's precompiled header: its sources use CORE_OFFSET and
 * core_clamp() without including this file. */
#define CORE_OFFSET 10
static inline int core_clamp(int x) { return x < 0 ? 0 : x; }
