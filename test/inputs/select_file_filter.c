/* A file filter (--exclude-file, or "files" in the rule set) keeps a whole
 * file out; paths are relative to --root. */
#include <stdio.h>

int vendor_helper(FILE *f)
{
    return fflush(f);
}
