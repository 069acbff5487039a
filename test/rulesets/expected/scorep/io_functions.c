/* One file annotated with every rule set under test/rulesets. */
#include <stdio.h>
#include <string.h>
#include <scorep/SCOREP_User.h>

static int write_record(FILE *f, const char *key, int value)
{
    SCOREP_USER_FUNC_BEGIN();
    if (f == NULL) { /* annotate */
        SCOREP_USER_FUNC_END();
        return -1;
    }
    if (strlen(key) == 0) { /* annotate */ SCOREP_USER_FUNC_END(); return -2; }
    { int annotate_ret = (fprintf(f, "%s=%d\n", key, value)); SCOREP_USER_FUNC_END(); return annotate_ret; }
}

static long file_size(FILE *f)
{
    SCOREP_USER_FUNC_BEGIN();
    long size;
    if (fseek(f, 0, SEEK_END) != 0) { /* annotate */
        SCOREP_USER_FUNC_END();
        return -1;
    }
    size = ftell(f);
    rewind(f);
    SCOREP_USER_FUNC_END();
    return size;
}

static void report(const char *what, long n)
{
    SCOREP_USER_FUNC_BEGIN();
    printf("%s: %ld\n", what, n);
    SCOREP_USER_FUNC_END();
}

static int twice(int x) { return 2 * x; }

int main(void)
{
    SCOREP_USER_FUNC_BEGIN();
    FILE *f = tmpfile();
    if (f == NULL) { /* annotate */
        SCOREP_USER_FUNC_END();
        return 1;
    }
    write_record(f, "answer", twice(21));
    report("size", file_size(f));
    fclose(f);
    SCOREP_USER_FUNC_END();
    return 0;
}
