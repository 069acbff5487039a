/* One file annotated with every rule set under test/rulesets. */
#include <stdio.h>
#include <string.h>
#include <caliper/cali.h>

static int write_record(FILE *f, const char *key, int value)
{
    CALI_MARK_FUNCTION_BEGIN;
    if (f == NULL) { /* annotate */
        CALI_MARK_FUNCTION_END;
        return -1;
    }
    if (strlen(key) == 0) { /* annotate */ CALI_MARK_FUNCTION_END; return -2; }
    { int annotate_ret = (fprintf(f, "%s=%d\n", key, value)); CALI_MARK_FUNCTION_END; return annotate_ret; }
}

static long file_size(FILE *f)
{
    CALI_MARK_FUNCTION_BEGIN;
    long size;
    if (fseek(f, 0, SEEK_END) != 0) { /* annotate */
        CALI_MARK_FUNCTION_END;
        return -1;
    }
    size = ftell(f);
    rewind(f);
    CALI_MARK_FUNCTION_END;
    return size;
}

static void report(const char *what, long n)
{
    CALI_MARK_FUNCTION_BEGIN;
    printf("%s: %ld\n", what, n);
    CALI_MARK_FUNCTION_END;
}

static int twice(int x) { return 2 * x; }

int main(void)
{
    CALI_MARK_FUNCTION_BEGIN;
    FILE *f = tmpfile();
    if (f == NULL) { /* annotate */
        CALI_MARK_FUNCTION_END;
        return 1;
    }
    write_record(f, "answer", twice(21));
    report("size", file_size(f));
    fclose(f);
    CALI_MARK_FUNCTION_END;
    return 0;
}
