#include <stdio.h>

/* Counts the newline-terminated records of a text log. */
long count_records(const char *path)
{
    long n = -1;
    int c;
    FILE *fp = fopen(path, "r");

    if (fp == NULL)
        goto out;
    n = 0;
    while ((c = fgetc(fp)) != EOF)
        if (c == '\n')
            n++;
    fclose(fp);
out: return n;
}
