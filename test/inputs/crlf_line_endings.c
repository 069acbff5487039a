/* CRLF line endings, as a file written on Windows has: every line annotate
 * inserts ends in CRLF too (docs/rules.md, section 1), never a bare LF. The
 * last line has no line ending: what goes before it follows the file. */
#include <stdio.h>
#include <stdlib.h>

static void log_line(const char *s);

static int checked(int fd)
{ // START goes after this comment, before its line ending
    if (fd < 0)
        return -1;
    printf("fd %d\n", fd);
    return fd;
}

static int first(const char *s)
{
    if (!s) return 0;
    return s[0];
}

int main(int argc, char **argv)
{
    if (argc > 1)
        log_line(argv[1]);
    int rc = checked(argc) + first(argv[0]);
    if (rc < 0)
        exit(1);
    return 0;
}

static void log_line(const char *s)
{
    fputs(s, stderr);
}