/* One file annotated with every rule set under test/rulesets. */
#include <stdio.h>
#include <string.h>

static int write_record(FILE *f, const char *key, int value)
{
    if (f == NULL)
        return -1;
    if (strlen(key) == 0) return -2;
    return fprintf(f, "%s=%d\n", key, value);
}

static long file_size(FILE *f)
{
    long size;
    if (fseek(f, 0, SEEK_END) != 0)
        return -1;
    size = ftell(f);
    rewind(f);
    return size;
}

static void report(const char *what, long n)
{
    printf("%s: %ld\n", what, n);
}

static int twice(int x) { return 2 * x; }

int main(void)
{
    FILE *f = tmpfile();
    if (f == NULL)
        return 1;
    write_record(f, "answer", twice(21));
    report("size", file_size(f));
    fclose(f);
    return 0;
}
