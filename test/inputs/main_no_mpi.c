#include <stdio.h>

int main(int argc, char **argv)
{
    FILE *fp = fopen(argc > 1 ? argv[1] : "trace.log", "r");

    if (fp == NULL)
        return 1;
    fclose(fp);
    return 0;
}
