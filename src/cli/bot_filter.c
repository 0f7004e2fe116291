/*
 * bot_filter.c - the challenge filters of `axio bot` (bot_filter.h).
 *
 * A challenge is judged in a fixed order, so that its decline names the
 * first term the bot does not play: the variant, the seats, rated or
 * casual, the clock, then the number of games. A realtime clock outside
 * every accepted range is `tooFast` when it is shorter than all of them
 * (comparing base + 40 increments, the length of a game of 40 decisions),
 * `tooSlow` when longer than all, else `timeControl`.
 */
#include "bot_filter.h"

#include "../engine/axio.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DECISIONS_PER_GAME 40.0

void filter_default(bot_filter *f)
{
    *f = (bot_filter){.variants = (1u << AX_SQUARE) | (1u << AX_ROTA) | (1u << AX_HEX),
                      .players = (1u << 2) | (1u << 3) | (1u << 4),
                      .rated = RATED_BOTH,
                      .untimed = true,
                      .daily = true,
                      .nranges = 1,
                      .ranges = {{0, INFINITY, 0, INFINITY}},
                      .max_games = 1};
}

/* Calls item(text, len) for each comma-separated item; false on an empty one. */
static bool each_item(const char *list, bool (*item)(void *, const char *, size_t, char *, size_t),
                      void *arg, char *err, size_t errlen)
{
    const char *p = list;
    for (;;) {
        const char *end = strchr(p, ',');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        if (n == 0) {
            snprintf(err, errlen, "an empty item in '%s'", list);
            return false;
        }
        if (!item(arg, p, n, err, errlen))
            return false;
        if (!end)
            return true;
        p = end + 1;
    }
}

static bool variant_item(void *arg, const char *text, size_t n, char *err, size_t errlen)
{
    char name[16];
    int v = -1;
    if (n < sizeof name) {
        memcpy(name, text, n);
        name[n] = 0;
        v = ax_variant_parse(name);
    }
    if (v < 0) {
        snprintf(err, errlen, "unknown variant '%.*s' (square, rota, hex)", (int)n, text);
        return false;
    }
    *(unsigned *)arg |= 1u << v;
    return true;
}

bool filter_variants(bot_filter *f, const char *list, char *err, size_t errlen)
{
    unsigned set = 0;
    if (!each_item(list, variant_item, &set, err, errlen))
        return false;
    f->variants = set;
    return true;
}

static bool players_item(void *arg, const char *text, size_t n, char *err, size_t errlen)
{
    if (n != 1 || text[0] < '2' || text[0] > '4') {
        snprintf(err, errlen, "players must be 2, 3 or 4, not '%.*s'", (int)n, text);
        return false;
    }
    *(unsigned *)arg |= 1u << (text[0] - '0');
    return true;
}

bool filter_players(bot_filter *f, const char *list, char *err, size_t errlen)
{
    unsigned set = 0;
    if (!each_item(list, players_item, &set, err, errlen))
        return false;
    f->players = set;
    return true;
}

/* "A", "A-B" or "*" of non-negative numbers, times `unit` seconds. */
static bool read_range(const char *text, size_t n, double unit, double *lo, double *hi)
{
    char buf[64];
    if (n == 0 || n >= sizeof buf)
        return false;
    memcpy(buf, text, n);
    buf[n] = 0;
    if (strcmp(buf, "*") == 0) {
        *lo = 0;
        *hi = INFINITY;
        return true;
    }
    char *end;
    errno = 0;
    double a = strtod(buf, &end), b = a;
    if (end == buf || errno || !(a >= 0) || !isfinite(a) || buf[0] == '-' || buf[0] == '+')
        return false;
    if (*end == '-') {
        char *start = end + 1;
        if (*start < '0' || *start > '9')
            return false;
        b = strtod(start, &end);
        if (end == start || errno || !isfinite(b) || b < a)
            return false;
    }
    if (*end)
        return false;
    *lo = a * unit;
    *hi = b * unit;
    return true;
}

static bool clock_item(void *arg, const char *text, size_t n, char *err, size_t errlen)
{
    bot_filter *f = arg;
    if (n == 4 && memcmp(text, "none", 4) == 0) {
        f->untimed = true;
        return true;
    }
    if (n == 5 && memcmp(text, "daily", 5) == 0) {
        f->daily = true;
        return true;
    }
    const char *plus = memchr(text, '+', n);
    clock_range r;
    if (!plus || f->nranges == FILTER_MAX_CLOCKS ||
        !read_range(text, (size_t)(plus - text), 60.0, &r.base_min, &r.base_max) ||
        !read_range(plus + 1, n - (size_t)(plus - text) - 1, 1.0, &r.inc_min, &r.inc_max)) {
        snprintf(err, errlen,
                 "a clock is none, daily or MINUTES+SECONDS with ranges or * (e.g. 1-10+0-5), "
                 "at most %d of them, not '%.*s'",
                 FILTER_MAX_CLOCKS, (int)n, text);
        return false;
    }
    f->ranges[f->nranges++] = r;
    return true;
}

bool filter_clocks(bot_filter *f, const char *list, char *err, size_t errlen)
{
    bot_filter g = *f;
    g.untimed = g.daily = false;
    g.nranges = 0;
    if (!each_item(list, clock_item, &g, err, errlen))
        return false;
    *f = g;
    return true;
}

bool filter_rated(bot_filter *f, const char *choice, char *err, size_t errlen)
{
    if (strcmp(choice, "yes") == 0)
        f->rated = RATED_YES;
    else if (strcmp(choice, "no") == 0)
        f->rated = RATED_NO;
    else if (strcmp(choice, "both") == 0)
        f->rated = RATED_BOTH;
    else {
        snprintf(err, errlen, "rated must be yes, no or both, not '%s'", choice);
        return false;
    }
    return true;
}

static double number(json_t *v) { return json_is_number(v) ? json_number_value(v) : -1; }

static const char *judge_clock(const bot_filter *f, json_t *clock)
{
    if (!json_is_object(clock))
        return f->untimed ? NULL : "timeControl";
    const char *kind = json_string_value(json_object_get(clock, "kind"));
    if (kind && strcmp(kind, "daily") == 0)
        return f->daily ? NULL : "timeControl";
    double base = number(json_object_get(clock, "base_s"));
    double inc = number(json_object_get(clock, "increment_s"));
    if (!kind || strcmp(kind, "realtime") != 0 || base < 0 || inc < 0)
        return "timeControl"; /* a clock this bot does not know */
    double length = base + DECISIONS_PER_GAME * inc, shortest = INFINITY, longest = 0;
    for (int i = 0; i < f->nranges; i++) {
        const clock_range *r = &f->ranges[i];
        if (base >= r->base_min && base <= r->base_max && inc >= r->inc_min && inc <= r->inc_max)
            return NULL;
        double lo = r->base_min + DECISIONS_PER_GAME * r->inc_min;
        double hi = r->base_max + DECISIONS_PER_GAME * r->inc_max;
        shortest = lo < shortest ? lo : shortest;
        longest = hi > longest ? hi : longest;
    }
    if (f->nranges && length < shortest)
        return "tooFast";
    if (f->nranges && length > longest)
        return "tooSlow";
    return "timeControl";
}

const char *filter_judge(const bot_filter *f, json_t *c, int games)
{
    const char *variant = json_string_value(json_object_get(c, "variant"));
    int v = variant ? ax_variant_parse(variant) : -1;
    if (v < 0 || !(f->variants & (1u << v)))
        return "variant";
    json_t *jp = json_object_get(c, "players");
    long players = jp ? (json_is_integer(jp) ? (long)json_integer_value(jp) : -1) : 2;
    if (players < 2 || players > 4 || !(f->players & (1u << players)))
        return "generic";
    bool rated = json_is_true(json_object_get(c, "rated"));
    if (rated && f->rated == RATED_NO)
        return "rated";
    if (!rated && f->rated == RATED_YES)
        return "casual";
    const char *clock = judge_clock(f, json_object_get(c, "clock"));
    if (clock)
        return clock;
    if (games >= f->max_games)
        return "later";
    return NULL;
}

static void clock_text(json_t *clock, char *out, size_t len)
{
    const char *kind = json_string_value(json_object_get(clock, "kind"));
    if (!json_is_object(clock)) {
        snprintf(out, len, "no clock");
    } else if (kind && strcmp(kind, "daily") == 0) {
        double s = number(json_object_get(clock, "per_move_s"));
        if (s >= 86400 && fmod(s, 86400) == 0)
            snprintf(out, len, "%g day%s a decision", s / 86400, s == 86400 ? "" : "s");
        else
            snprintf(out, len, "%g h a decision", s / 3600);
    } else {
        double base = number(json_object_get(clock, "base_s"));
        double inc = number(json_object_get(clock, "increment_s"));
        snprintf(out, len, "%g+%g", base / 60, inc);
    }
}

void filter_describe(json_t *c, char *out, size_t len)
{
    const char *variant = json_string_value(json_object_get(c, "variant"));
    const char *mode = json_string_value(json_object_get(c, "mode"));
    json_t *jp = json_object_get(c, "players");
    char clock[64];
    clock_text(json_object_get(c, "clock"), clock, sizeof clock);
    snprintf(out, len, "%.16s, %lld players%s%.16s, %s, %s", variant ? variant : "?",
             jp ? (long long)json_integer_value(jp) : 2LL,
             mode && strcmp(mode, "standard") != 0 ? ", " : "",
             mode && strcmp(mode, "standard") != 0 ? mode : "", clock,
             json_is_true(json_object_get(c, "rated")) ? "rated" : "casual");
}
