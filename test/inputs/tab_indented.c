#include <stdio.h>

/* Counts the lines of a text file; -1 on a read error. */
int count_lines(FILE *fp)
{
	int c, n = 0;

	while ((c = fgetc(fp)) != EOF)
		if (c == '\n')
			n++;
	if (ferror(fp))
		return -1;
	return n;
}
