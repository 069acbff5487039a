#include <stddef.h>

/* Hooks a backend may leave empty. */
void backend_init(void)
{
}

void backend_fini(void) { }
