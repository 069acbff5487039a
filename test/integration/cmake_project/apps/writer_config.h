/* writer_config.h - found only beside writer.c, through #include "...". */
#ifndef WRITER_CONFIG_H
#define WRITER_CONFIG_H
#define WRITER_BLOCKS 4
#define WRITER_PREFIX "block-"
#endif
