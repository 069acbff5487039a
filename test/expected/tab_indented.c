#include <stdio.h>
#include <dftracer/dftracer.h>

/* Counts the lines of a text file; -1 on a read error. */
int count_lines(FILE *fp)
{
	DFTRACER_C_FUNCTION_START();
	int c, n = 0;

	while ((c = fgetc(fp)) != EOF)
		if (c == '\n')
			n++;
	if (ferror(fp)) { /* annotate */
		DFTRACER_C_FUNCTION_END();
		return -1;
	}
	DFTRACER_C_FUNCTION_END();
	return n;
}
