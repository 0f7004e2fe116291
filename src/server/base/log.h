/*
 * log.h - the server's log lines: "axio serve: WHAT" on stderr, one line
 * each, for every layer (service_log, server_log decide whether to say it).
 */
#ifndef AX_SERVER_BASE_LOG_H
#define AX_SERVER_BASE_LOG_H

#include <stdarg.h>

void log_line(const char *fmt, va_list ap);

#endif
