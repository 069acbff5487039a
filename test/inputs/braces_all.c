#include <assert.h>
#include <stdio.h>
#include <string.h>

/* Strips trailing newlines from a config line and returns its kind. */
int classify_line(char *line)
{
    size_t n;

    assert(line != NULL &&
           strlen(line) < 4096);
    n = strlen(line);
    while (n > 0 && line[n - 1] == '\n') n--;
    line[n] = '\0';
    if (n == 0)
        return 0;
    else if (line[0] == '#')
        n = 1;
    else
        n = 2;
    for (size_t i = 0; i < n; i++)
        if (line[i] == '=')
            puts(line);
    return (int)n;
}
