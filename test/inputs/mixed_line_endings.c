/* Mixed line endings: most lines end in LF, but read_block was pasted from
 * a file with CRLF endings. What annotate inserts takes the ending of the
 * line it is anchored on (docs/rules.md, section 1): CRLF in read_block, LF
 * elsewhere. */
#include <stdio.h>
static int read_block(FILE *f, char *buf)
{
    if (!f)
        return -1;
    return (int)fread(buf, 1, 16, f);
}

static void close_file(FILE *f)
{
    if (f)
        fclose(f);
}

int main(void)
{
    char buf[16];
    int n = read_block(stdin, buf);
    close_file(NULL);
    return n < 0;
}
