/* legacy_tool.c - prints the size of a file, in C90 style.
 *
 * Its target is compiled with -Werror=declaration-after-statement (as the
 * Linux kernel is with -Wdeclaration-after-statement). annotate parses it
 * fine and annotates it, but the annotated main cannot compile: SPEC 2.4
 * puts DFTRACER_C_INIT(...) (a call, i.e. a statement) at the start of main
 * and DFTRACER_C_FUNCTION_START() (a declaration) after it, which this flag
 * turns into an error:
 *
 *   error: ISO C90 forbids mixed declarations and code
 *          [-Werror=declaration-after-statement]
 *
 * `annotate --verify` must catch that with the file's own compile command
 * and restore the original. The other functions are fine: START is their
 * first statement. */
#include <stdio.h>

#include "tree/common.h"
#include "tree/util.h"

static long file_size(const char *path)
{
    FILE *f;
    long size;
    f = fopen(path, "rb");
    if (f == NULL)
        return -1;
    if (fseek(f, 0, SEEK_END) != 0) {
        fclose(f);
        return -1;
    }
    size = ftell(f);
    fclose(f);
    return size;
}

int main(int argc, char **argv)
{
    int i;
    long size;
    int status = 0;
    for (i = 1; i < argc; i++) {
        size = file_size(argv[i]);
        if (size < 0) {
            fprintf(stderr, "%s: cannot read\n", tree_basename(argv[i]));
            status = 1;
            continue;
        }
        printf("%s %ld\n", tree_basename(argv[i]), size);
    }
    return status;
}
