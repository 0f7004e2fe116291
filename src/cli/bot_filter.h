/*
 * bot_filter.h - which challenges `axio bot` accepts: variants, seats,
 * clocks, rated or casual, and how many games at once. A challenge that does
 * not fit is declined with the Bot API's reason (docs/bot-api.md).
 *
 * Clocks are written as people read them on the site: `3+2` is 3 minutes
 * and 2 seconds a decision; each side may be a range (`1-10+0-5`) or `*`;
 * `daily` is any clock of days per decision; `none` a game without a clock.
 */
#ifndef AX_BOT_FILTER_H
#define AX_BOT_FILTER_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#define FILTER_MAX_CLOCKS 16

typedef enum { RATED_BOTH, RATED_YES, RATED_NO } rated_choice;

typedef struct {
    double base_min, base_max; /* seconds */
    double inc_min, inc_max;   /* seconds */
} clock_range;

typedef struct {
    unsigned variants; /* bit 1 << ax_variant */
    unsigned players;  /* bit 1 << count */
    rated_choice rated;
    bool untimed, daily;
    int nranges;
    clock_range ranges[FILTER_MAX_CLOCKS];
    int max_games;
} bot_filter;

/* Everything: every variant, 2 to 4 players, any clock, rated or not, one
 * game at a time. */
void filter_default(bot_filter *f);
/* The options' parsers: false with the reason in err. */
bool filter_variants(bot_filter *f, const char *list, char *err, size_t errlen);
bool filter_players(bot_filter *f, const char *list, char *err, size_t errlen);
bool filter_clocks(bot_filter *f, const char *list, char *err, size_t errlen);
bool filter_rated(bot_filter *f, const char *choice, char *err, size_t errlen);

/* NULL to accept the challenge (the API's C), else the reason to decline it
 * with. `games` is how many games the bot plays or has accepted now. */
const char *filter_judge(const bot_filter *f, json_t *challenge, int games);

/* A challenge's terms in a few words for the log: "hex, 2 players, 3+2, rated". */
void filter_describe(json_t *challenge, char *out, size_t len);

#endif
