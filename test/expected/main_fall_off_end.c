#include <stdio.h>
#include <dftracer/dftracer.h>

int main(void)
{
    DFTRACER_C_INIT(NULL, NULL, NULL);
    DFTRACER_C_FUNCTION_START();
    for (int i = 0; i < 3; i++)
        printf("post-processing step %d\n", i);
    DFTRACER_C_FUNCTION_END();
    DFTRACER_C_FINI();
}
