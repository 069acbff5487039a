#include <stdio.h>

int main(void)
{
    for (int i = 0; i < 3; i++)
        printf("post-processing step %d\n", i);
}
