#include <string.h>
#include <dftracer/dftracer.h>

/* IOR-style option keys mapped to option codes; 0 for an unknown key. */
int option_code(const char *key)
{
    DFTRACER_C_FUNCTION_START();
    if (strcmp(key, "api") == 0) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        return 1;
    }
    else if (strcmp(key, "refNum") == 0) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        return 2;
    }
    else if (strcmp(key, "blockSize") == 0) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        return 3;
    }
    else if (strcmp(key, "checkRead") == 0) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        return 4;
    }
    else if (strcmp(key, "checkWrite") == 0) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        return 5;
    }
    else if (strcmp(key, "collective") == 0) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        return 6;
    }
    else if (strcmp(key, "dataPacketType") == 0) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        return 7;
    }
    else if (strcmp(key, "deadlineForStonewalling") == 0) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        return 8;
    }
    else if (strcmp(key, "fsync") == 0) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        return 9;
    }
    else if (strcmp(key, "fsyncPerWrite") == 0) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        return 10;
    }
    else if (strcmp(key, "filePerProc") == 0) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        return 11;
    }
    else if (strcmp(key, "hintsFileName") == 0) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        return 12;
    }
    else if (strcmp(key, "interTestDelay") == 0) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        return 13;
    }
    else if (strcmp(key, "intraTestBarriers") == 0) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        return 14;
    }
    else if (strcmp(key, "keepFile") == 0) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        return 15;
    }
    else if (strcmp(key, "keepFileWithError") == 0) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        return 16;
    }
    else if (strcmp(key, "memoryPerNode") == 0) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        return 17;
    }
    else if (strcmp(key, "multiFile") == 0) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        return 18;
    }
    else if (strcmp(key, "numTasks") == 0) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        return 19;
    }
    else if (strcmp(key, "outlierThreshold") == 0) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        return 20;
    }
    else if (strcmp(key, "quitOnError") == 0) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        return 21;
    }
    else if (strcmp(key, "randomOffset") == 0) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        return 22;
    }
    else if (strcmp(key, "readFile") == 0) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        return 23;
    }
    else if (strcmp(key, "repetitions") == 0) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        return 24;
    }
    else if (strcmp(key, "reorderTasks") == 0) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        return 25;
    }
    else if (strcmp(key, "segmentCount") == 0) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        return 26;
    }
    else if (strcmp(key, "showHelp") == 0) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        return 27;
    }
    else if (strcmp(key, "showHints") == 0) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        return 28;
    }
    else if (strcmp(key, "singleXferAttempt") == 0) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        return 29;
    }
    else if (strcmp(key, "storeFileOffset") == 0) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        return 30;
    }
    else if (strcmp(key, "testFile") == 0) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        return 31;
    }
    else if (strcmp(key, "transferSize") == 0) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        return 32;
    }
    else if (strcmp(key, "uniqueDir") == 0) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        return 33;
    }
    else if (strcmp(key, "useExistingTestFile") == 0) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        return 34;
    }
    else if (strcmp(key, "verbose") == 0) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        return 35;
    }
    else if (strcmp(key, "writeFile") == 0) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        return 36;
    }
    else { /* annotate */
        DFTRACER_C_FUNCTION_END();
        return 0;
    }
}
