/*
 * many_files.c - many_files: each rank writes 1000 objects of 4 KiB, one
 * file each (FIXED: the 1000 objects in one file per rank, one write).
 * 1000, not 200: the finding is a share of the I/O time, and 20 ms of
 * it let one stalled write on a busy machine take the share under the
 * rule's 0.2 (one CI run in about a dozen found nothing); 100 ms do not.
 */
#include "scenario.h"

#define OBJECTS 1000
#define OBJECT 4096

static void write_objects(const char *buf)
{
    DFTRACER_C_FUNCTION_START();
    char path[4096], name[64];
    if (scenario_fixed) {
        int fd;
        scenario_path(path, sizeof(path), "objects", scenario_rank);
        fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
        if (fd < 0)
            scenario_fail(path);
        if (write(fd, buf, OBJECTS * OBJECT) != OBJECTS * OBJECT)
            scenario_fail("write");
        close(fd);
    } else {
        int i;
        for (i = 0; i < OBJECTS; i++) {
            int fd;
            snprintf(name, sizeof(name), "object-%03d", i);
            scenario_path(path, sizeof(path), name, scenario_rank);
            fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
            if (fd < 0)
                scenario_fail(path);
            if (write(fd, buf + i * OBJECT, OBJECT) != OBJECT)
                scenario_fail("write");
            close(fd);
        }
    }
    (void)name;
    DFTRACER_C_FUNCTION_END();
}

int main(int argc, char **argv)
{
    char *buf;
    scenario_start(&argc, &argv);
    DFTRACER_C_INIT(NULL, NULL, NULL);
    DFTRACER_C_FUNCTION_START();
    buf = scenario_buffer(OBJECTS * OBJECT);
    write_objects(buf);
    free(buf);
    DFTRACER_C_FUNCTION_END();
    DFTRACER_C_FINI();
    MPI_Finalize();
    return 0;
}
