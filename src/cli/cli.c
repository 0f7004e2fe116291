/*
 * cli.c - helpers shared by the subcommands: strict number parsing and the
 * one-line usage error.
 */
#include "cli.h"

#include "../engine/axio.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "axio %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, " (see axio %s --help)\n", cmd);
    return EXIT_USAGE;
}

bool parse_long(const char *s, long min, long max, long *out)
{
    if (!s || !*s)
        return false;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || *end || v < min || v > max)
        return false;
    *out = v;
    return true;
}

bool parse_u64(const char *s, uint64_t *out)
{
    if (!s || *s < '0' || *s > '9')
        return false;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end)
        return false;
    *out = (uint64_t)v;
    return true;
}

bool parse_game_options(const char *cmd, const char *variant, const char *mode, long players,
                        int *v, int *m)
{
    *v = ax_variant_parse(variant);
    if (*v < 0) {
        usage_error(cmd, "unknown variant '%s' (square, rota, hex)", variant);
        return false;
    }
    *m = mode ? ax_mode_parse(mode) : players == 1 ? AX_SOLO : AX_STANDARD;
    if (*m < 0) {
        usage_error(cmd, "unknown mode '%s' (standard, solo, team)", mode);
        return false;
    }
    if (ax_config_check(*v, (int)players, *m) != AX_OK) {
        usage_error(cmd, "%s with %ld players cannot be played in mode %s", variant, players,
                    ax_mode_name(*m));
        return false;
    }
    return true;
}

double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}
