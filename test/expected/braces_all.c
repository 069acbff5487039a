#include <assert.h>
#include <stdio.h>
#include <string.h>
#include <dftracer/dftracer.h>

/* Strips trailing newlines from a config line and returns its kind. */
int classify_line(char *line)
{
    DFTRACER_C_FUNCTION_START();
    size_t n;

    assert(line != NULL &&
           strlen(line) < 4096);
    n = strlen(line);
    while (n > 0 && line[n - 1] == '\n') { /* annotate */ n--; }
    line[n] = '\0';
    if (n == 0) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        return 0;
    }
    else if (line[0] == '#') { /* annotate */
        n = 1;
    }
    else { /* annotate */
        n = 2;
    }
    for (size_t i = 0; i < n; i++) { /* annotate */
        if (line[i] == '=') { /* annotate */
            puts(line);
        }
    }
    DFTRACER_C_FUNCTION_END();
    return (int)n;
}
