/* Mixed line endings: most lines end in LF, but read_block was pasted from
 * a file with CRLF endings. What annotate inserts takes the ending of the
 * line it is anchored on (docs/rules.md, section 1): CRLF in read_block, LF
 * elsewhere. */
#include <stdio.h>
#include <dftracer/dftracer.h>
static int read_block(FILE *f, char *buf)
{
    DFTRACER_C_FUNCTION_START();
    if (!f) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        return -1;
    }
    { int annotate_ret = ((int)fread(buf, 1, 16, f)); DFTRACER_C_FUNCTION_END(); return annotate_ret; }
}

static void close_file(FILE *f)
{
    DFTRACER_C_FUNCTION_START();
    if (f)
        fclose(f);
    DFTRACER_C_FUNCTION_END();
}

int main(void)
{
    DFTRACER_C_INIT(NULL, NULL, NULL);
    DFTRACER_C_FUNCTION_START();
    char buf[16];
    int n = read_block(stdin, buf);
    close_file(NULL);
    DFTRACER_C_FUNCTION_END();
    DFTRACER_C_FINI();
    return n < 0;
}
