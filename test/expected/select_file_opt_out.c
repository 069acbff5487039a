/* annotate: skip-file
 * Generated lookup helpers: never traced. */
#include <string.h>

int lookup(const char *const *table, int n, const char *key)
{
    for (int i = 0; i < n; i++)
        if (strcmp(table[i], key) == 0)
            return i;
    return -1;
}
