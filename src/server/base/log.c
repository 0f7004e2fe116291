/*
 * log.c - the server's log lines (see log.h).
 */
#include "log.h"

#include <stdio.h>

void log_line(const char *fmt, va_list ap)
{
    fprintf(stderr, "axio serve: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
}
