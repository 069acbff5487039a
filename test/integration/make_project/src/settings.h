/* settings.h - found only beside main.c, through #include "settings.h". */
#ifndef SETTINGS_H
#define SETTINGS_H
#define RECORD_SIZE 48
#endif
