/* CRLF line endings, as a file written on Windows has: every line annotate
 * inserts ends in CRLF too (docs/rules.md, section 1), never a bare LF. The
 * last line has no line ending: what goes before it follows the file. */
#include <stdio.h>
#include <stdlib.h>
#include <dftracer/dftracer.h>

static void log_line(const char *s);

static int checked(int fd)
{ // START goes after this comment, before its line ending
    DFTRACER_C_FUNCTION_START();
    if (fd < 0) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        return -1;
    }
    printf("fd %d\n", fd);
    DFTRACER_C_FUNCTION_END();
    return fd;
}

static int first(const char *s)
{
    DFTRACER_C_FUNCTION_START();
    if (!s) { /* annotate */ DFTRACER_C_FUNCTION_END(); return 0; }
    DFTRACER_C_FUNCTION_END();
    return s[0];
}

int main(int argc, char **argv)
{
    DFTRACER_C_INIT(NULL, NULL, NULL);
    DFTRACER_C_FUNCTION_START();
    if (argc > 1)
        log_line(argv[1]);
    int rc = checked(argc) + first(argv[0]);
    if (rc < 0) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        DFTRACER_C_FINI();
        exit(1);
    }
    DFTRACER_C_FUNCTION_END();
    DFTRACER_C_FINI();
    return 0;
}

static void log_line(const char *s)
{
    DFTRACER_C_FUNCTION_START();
    fputs(s, stderr);
    DFTRACER_C_FUNCTION_END();
}