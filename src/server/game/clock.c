/*
 * clock.c - game clocks (docs/online-play.md).
 *
 * A realtime clock gives each seat a base for the whole game and an
 * increment after each of its decisions; a daily clock gives each decision a
 * fixed allowance. Only the clock of the seat to move runs, and only while a
 * person plays that seat: computer seats and seats the computer took over
 * are never charged. The running clock is kept as the time left when it
 * started (`left_ms`) and the monotonic moment it started (`since`), so
 * nothing needs updating while it runs.
 *
 * The server's own timer (clock_tick, four times a second) makes a player
 * whose time is up leave with `timeout`. Twice a second it also hands the
 * running clocks to the store, so that a killed server loses less than a
 * second of anyone's time; after a restart the clock of the seat to move
 * runs on from what was saved: the downtime is charged to no one.
 */
#include "clock.h"
#include "api.h"
#include "game.h"
#include "lobby.h"
#include "owners.h"
#include "play.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SAVE_EVERY_S 0.5

int64_t unix_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int fail(api_error *err, const char *message)
{
    return api_fail(err, 400, "bad_message", message);
}

/* An integer field within [lo, hi]. */
static bool get_range(const json_t *o, const char *key, long lo, long hi, int *out)
{
    const json_t *v = json_object_get(o, key);
    if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi)
        return false;
    *out = (int)json_integer_value(v);
    return true;
}

int clock_parse(const json_t *v, game_clock *out, api_error *err)
{
    memset(out, 0, sizeof *out);
    out->running = -1;
    if (!v || json_is_null(v))
        return 0;
    const char *kind = json_string_value(json_object_get(v, "kind"));
    if (!json_is_object(v) || !kind)
        return fail(err, "clock must be null or {\"kind\":\"realtime\"|\"daily\",...}");
    if (strcmp(kind, "realtime") == 0) {
        out->kind = GAME_CLOCK_REALTIME;
        if (!get_range(v, "base_s", 1, 10800, &out->base_s))
            return fail(err, "clock.base_s must be an integer 1..10800");
        if (!get_range(v, "increment_s", 0, 600, &out->increment_s))
            return fail(err, "clock.increment_s must be an integer 0..600");
        return 0;
    }
    if (strcmp(kind, "daily") == 0) {
        out->kind = GAME_CLOCK_DAILY;
        if (!get_range(v, "per_move_s", 60, 1209600, &out->per_move_s))
            return fail(err, "clock.per_move_s must be an integer 60..1209600");
        return 0;
    }
    return fail(err, "clock.kind must be realtime or daily");
}

json_t *clock_settings_json(const game_clock *c)
{
    if (c->kind == GAME_CLOCK_REALTIME)
        return json_pack("{s:s,s:i,s:i}", "kind", "realtime", "base_s", c->base_s, "increment_s",
                         c->increment_s);
    if (c->kind == GAME_CLOCK_DAILY)
        return json_pack("{s:s,s:i}", "kind", "daily", "per_move_s", c->per_move_s);
    return json_null();
}

bool clock_from_json_text(const char *text, game_clock *out)
{
    api_error err = {0};
    if (!*text) {
        clock_parse(NULL, out, &err);
        return true;
    }
    json_t *v = json_loads(text, 0, NULL);
    int rc = v ? clock_parse(v, out, &err) : -1;
    json_decref(v);
    return rc == 0;
}

static int64_t allowance_ms(const game_clock *c)
{
    return (int64_t)(c->kind == GAME_CLOCK_DAILY ? c->per_move_s : c->base_s) * 1000;
}

void clock_reset(game *gm)
{
    for (int s = 0; s < AX_MAX_PLAYERS; s++)
        gm->clock.left_ms[s] = allowance_ms(&gm->clock);
    gm->clock.running = -1;
}

int64_t clock_left_now(const game *gm, int seat)
{
    const game_clock *c = &gm->clock;
    int64_t left = c->left_ms[seat];
    if (c->running == seat)
        left -= (int64_t)((service_now(gm->svc) - c->since) * 1000.0);
    return left > 0 ? left : 0;
}

/* Whether a person's time is spent on a seat of game g. */
static bool seat_charged(const game *gm, const ax_game *g, int seat)
{
    return gm->seats[seat].kind == SEAT_HUMAN && !g->left[seat];
}

/* The clock c of game gm after a decision of `seat` that led to game g. */
static void advance(game_clock *c, const game *gm, const ax_game *g, int seat, bool decided)
{
    if (c->running >= 0) {
        int64_t left =
            c->left_ms[c->running] - (int64_t)((service_now(gm->svc) - c->since) * 1000.0);
        c->left_ms[c->running] = left > 0 ? left : 0;
    }
    c->running = -1;
    if (decided && c->kind == GAME_CLOCK_REALTIME)
        c->left_ms[seat] += (int64_t)c->increment_s * 1000;
    if (gm->status != GAME_RUNNING || g->phase == AX_PHASE_OVER)
        return;
    int next = g->to_move;
    if (decided && c->kind == GAME_CLOCK_DAILY)
        c->left_ms[next] = allowance_ms(c);
    if (seat_charged(gm, g, next)) {
        c->running = next;
        c->since = service_now(gm->svc);
    }
}

void clock_after_decision(game *gm, int seat, bool decided)
{
    if (gm->clock.kind != GAME_CLOCK_NONE)
        advance(&gm->clock, gm, &gm->g, seat, decided);
}

static void write_left(const int64_t *left, int players, char *out, size_t size)
{
    size_t n = (size_t)snprintf(out, size, "[");
    for (int s = 0; s < players && n < size; s++)
        n += (size_t)snprintf(out + n, size - n, "%s%lld", s ? "," : "", (long long)left[s]);
    if (n < size)
        snprintf(out + n, size - n, "]");
}

void clock_text_after(const game *gm, const ax_game *next, int seat, bool decided, char *out,
                      size_t size)
{
    game_clock c = gm->clock;
    advance(&c, gm, next, seat, decided);
    write_left(c.left_ms, next->players, out, size);
}

void clock_left_text(const game *gm, char *out, size_t size)
{
    int64_t left[AX_MAX_PLAYERS];
    for (int s = 0; s < gm->g.players; s++)
        left[s] = clock_left_now(gm, s);
    write_left(left, gm->g.players, out, size);
}

int64_t clock_deadline(const game *gm)
{
    int seat = gm->clock.running;
    return seat < 0 ? -1 : unix_ms() + clock_left_now(gm, seat);
}

/* Hands a running clock to the store; failures only cost precision. */
static void save_clock(game *gm)
{
    store_write *w = calloc(1, sizeof *w);
    if (!w)
        return;
    w->kind = STORE_CLOCKS;
    memcpy(w->game_id, gm->id, sizeof gm->id);
    clock_left_text(gm, w->clock_left, sizeof w->clock_left);
    owners_submit(gm, w);
}

void clock_tick(service *svc, double now)
{
    if (svc->stopping)
        return; /* the store's writer is gone or going */
    bool save = now - svc->last_clock_save >= SAVE_EVERY_S;
    if (save)
        svc->last_clock_save = now;
    for (game *gm = lobby_first(svc); gm; gm = gm->next) {
        int seat = gm->clock.running;
        if (seat < 0 || gm->status != GAME_RUNNING)
            continue;
        if (clock_left_now(gm, seat) <= 0)
            play_leave(gm, seat, AX_LEAVE_TIMEOUT);
        else if (save)
            save_clock(gm);
    }
}
