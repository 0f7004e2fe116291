/*
 * bot_games.c - the games of `axio bot` (bot.h): one stream each, and the
 * decisions.
 *
 * A game's stream sends `state` lines; each carries `position`, the bot's
 * seat's view in the engine protocol's form. When the state says the bot's
 * seat is to move in a running game, the engine is asked with that position,
 * once per decision: `ply` (decisions so far) names the decision, so the
 * same state sent again (a reconnect, a `viewers` change) asks nothing more.
 * The engine's checked decision is POSTed; an engine that fails (garbage, an
 * error, an illegal decision, too late, dead twice) resigns the game, and
 * the site refusing the decision does too: the bot cannot do better than
 * its engine.
 *
 * A stream that ends before the game did is opened again after a pause that
 * doubles with each failure (1 s to 60 s, with jitter); the site starts it
 * with the state of now. A decision lost after all its retries is asked for
 * again the same way: the game's stream is opened anew. A game is forgotten
 * once its end was seen.
 */
#include "bot.h"
#include "bot_time.h"
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SEATS     4
#define RETRIES       5 /* a request sent again after a lost connection or a 5xx */
#define MAX_BACKOFF_S 60.0
#define HEALTHY_S     30.0 /* a stream open this long counts as good again */

struct game {
    struct game *next;
    char id[64];
    int seat;
    char names[MAX_SEATS][64];
    http_stream *stream;
    double opened, retry_at;
    int failures;
    bool over;      /* its end was seen (a final state, or gameFinish) */
    bool forget;    /* remove at the next tick */
    int asked_ply;  /* the decision asked for or taken, -1 none */
    bool resigning; /* the resignation was sent */
    bool warned;    /* about a state without a position */
    double decided_ms;
};

game *game_find(bot *b, const char *id)
{
    for (game *g = b->games; g; g = g->next)
        if (strcmp(g->id, id) == 0)
            return g;
    return NULL;
}

int games_playing(const bot *b)
{
    int n = 0;
    for (const game *g = b->games; g; g = g->next)
        n += !g->over;
    return n;
}

static void connect_game(bot *b, game *g)
{
    char path[128];
    snprintf(path, sizeof path, "/api/bot/game/stream/%s", g->id);
    g->opened = now_seconds();
    g->stream = http_stream_open(b->http, path, REQ_GAME, g->id, games_on_line, games_on_end);
    if (!g->stream) {
        g->failures++;
        g->retry_at = now_seconds() + jittered(1 << (g->failures < 6 ? g->failures : 6), 60);
    }
}

void games_start(bot *b, json_t *gj)
{
    const char *id = json_string_value(json_object_get(gj, "id"));
    if (!bot_good_id(id)) {
        bot_log("gameStart without a usable game id: ignored");
        return;
    }
    bot_challenge_started(b, gj);
    game *g = game_find(b, id);
    if (g) {
        if (!g->stream && !g->over)
            g->retry_at = 0; /* connect now */
        return;
    }
    g = calloc(1, sizeof *g);
    if (!g) {
        bot_log("game %s: out of memory", id);
        return;
    }
    snprintf(g->id, sizeof g->id, "%s", id);
    json_t *seat = json_object_get(gj, "seat");
    g->seat = json_is_integer(seat) ? (int)json_integer_value(seat) : -1;
    g->asked_ply = -1;
    g->next = b->games;
    b->games = g;
    char terms[160];
    filter_describe(gj, terms, sizeof terms);
    bot_log("game %s: started (%s), seat %d", id, terms, g->seat);
    connect_game(b, g);
}

static void log_end(game *g, json_t *game);

void games_finish(bot *b, json_t *gj)
{
    const char *id = json_string_value(json_object_get(gj, "id"));
    game *g = id ? game_find(b, id) : NULL;
    if (!g)
        return;
    if (!g->over)
        log_end(g, gj); /* G carries the status and the end, as a final state does */
    g->over = true;
    pool_cancel(b->pool, g->id);
    if (!g->stream)
        g->forget = true;
}

/* "placed [\"red\",\"blue\"] on [3,6] [4,6]" and the like, for the log. */
static void describe_move(json_t *m, char *out, size_t len)
{
    const char *ev = json_string_value(json_object_get(m, "ev"));
    if (ev && strcmp(ev, "swap") == 0) {
        snprintf(out, len, "swap %s",
                 json_is_true(json_object_get(m, "accepted")) ? "accepted" : "declined");
        return;
    }
    char *tile = json_dumps(json_object_get(m, "tile"), JSON_COMPACT);
    json_t *cells = json_object_get(m, "cells");
    char *where =
        json_dumps(cells ? cells : json_object_get(m, "cell"), JSON_COMPACT | JSON_ENCODE_ANY);
    snprintf(out, len, "placed %s on %s", tile ? tile : "?", where ? where : "?");
    free(tile);
    free(where);
}

static void resign(bot *b, game *g, const char *why)
{
    pool_cancel(b->pool, g->id);
    if (g->resigning || g->over)
        return;
    g->resigning = true;
    bot_log("game %s: resigning: %s", g->id, why);
    char path[128];
    snprintf(path, sizeof path, "/api/bot/game/%s/resign", g->id);
    http_post(b->http, path, NULL, RETRIES, REQ_RESIGN, g->id, games_on_request);
}

static void log_end(game *g, json_t *game)
{
    json_t *end = json_object_get(game, "end");
    json_t *ranking = json_object_get(end, "ranking");
    const char *reason = json_string_value(json_object_get(end, "reason"));
    const char *status = json_string_value(json_object_get(game, "status"));
    char *rank = ranking ? json_dumps(ranking, JSON_COMPACT) : NULL;
    bot_log("game %s: %s%s%s%s%s (the bot was seat %d)", g->id, status ? status : "over",
            reason ? ": " : "", reason ? reason : "", rank ? ", ranking " : "", rank ? rank : "",
            g->seat);
    free(rank);
}

static void on_state(bot *b, game *g, json_t *msg)
{
    json_t *game = json_object_get(msg, "game");
    json_t *you = json_object_get(msg, "you");
    const char *status = json_string_value(json_object_get(game, "status"));
    json_t *seat = json_object_get(you, "seat");
    if (json_is_integer(seat))
        g->seat = (int)json_integer_value(seat);
    json_t *seats = json_object_get(game, "seats");
    for (int s = 0; s < MAX_SEATS; s++) {
        const char *name = json_string_value(json_object_get(json_array_get(seats, s), "name"));
        snprintf(g->names[s], sizeof g->names[s], "%s", name ? name : "");
    }
    if (!status || strcmp(status, "waiting") == 0)
        return;
    if (strcmp(status, "running") != 0) {
        if (!g->over)
            log_end(g, game);
        g->over = true;
        pool_cancel(b->pool, g->id);
        return;
    }
    json_t *to_move = json_object_get(game, "to_move");
    if (g->resigning || !json_is_object(you) || json_is_true(json_object_get(you, "left")) ||
        !json_is_integer(to_move) || json_integer_value(to_move) != g->seat)
        return; /* not the bot's decision */
    json_t *position = json_object_get(msg, "position");
    json_t *ply = json_object_get(position, "ply");
    if (!json_is_object(position) || !json_is_integer(ply)) {
        if (!g->warned)
            bot_log("game %s: a state without \"position\": the site does not serve bots", g->id);
        g->warned = true;
        return;
    }
    if (json_integer_value(ply) == g->asked_ply)
        return; /* asked already */
    g->asked_ply = (int)json_integer_value(ply);
    bool clocked;
    int movetime = time_movetime(game, g->seat, position, b->o->movetime_ms, &clocked);
    const char *names[MAX_SEATS] = {g->names[0], g->names[1], g->names[2], g->names[3]};
    pool_job job = {.game = g->id,
                    .seat = g->seat,
                    .names = names,
                    .position = position,
                    .movetime_ms = movetime,
                    .clocked = clocked};
    char err[300];
    if (!pool_submit(b->pool, &job, err, sizeof err)) {
        char why[400];
        snprintf(why, sizeof why, "the site's position cannot be read: %s", err);
        resign(b, g, why);
    }
}

void games_on_line(void *ctx, int kind, const char *key, const char *line, size_t len)
{
    (void)kind;
    bot *b = ctx;
    game *g = game_find(b, key);
    if (!g)
        return;
    json_error_t jerr;
    json_t *msg = json_loadb(line, len, 0, &jerr);
    const char *type = json_string_value(json_object_get(msg, "type"));
    if (!type) {
        bot_log("game %s: a line that is not a message: %.80s", g->id, line);
    } else if (strcmp(type, "state") == 0) {
        on_state(b, g, msg);
    } else if (strcmp(type, "error") == 0) {
        const char *code = json_string_value(json_object_get(msg, "code"));
        const char *message = json_string_value(json_object_get(msg, "message"));
        bot_log("game %s: error %s: %s", g->id, code ? code : "?", message ? message : "");
    } else if (strcmp(type, "chat") == 0) {
        const char *from = json_string_value(json_object_get(json_object_get(msg, "from"), "name"));
        const char *text = json_string_value(json_object_get(msg, "text"));
        bot_log("game %s: chat from %.40s: %.200s", g->id, from ? from : "?", text ? text : "");
    }
    json_decref(msg);
}

void games_on_end(void *ctx, int kind, const char *key, const http_result *r)
{
    (void)kind;
    bot *b = ctx;
    game *g = game_find(b, key);
    if (!g)
        return;
    g->stream = NULL;
    if (g->over) {
        g->forget = true;
        return;
    }
    if (r->status == 401 || r->status == 403 || r->status == 404) {
        /* the token's own failures end the event stream, which ends the bot */
        bot_log("game %s: the site refuses its stream (HTTP %ld %s): forgotten", g->id, r->status,
                r->code ? r->code : "");
        g->forget = true;
        pool_cancel(b->pool, g->id);
        return;
    }
    if (now_seconds() - g->opened > HEALTHY_S)
        g->failures = 0;
    g->failures++;
    double wait = jittered(1 << (g->failures < 7 ? g->failures - 1 : 6), MAX_BACKOFF_S);
    if (r->status == 429 && r->retry_after > wait)
        wait = r->retry_after;
    g->retry_at = now_seconds() + wait;
    char why[300];
    if (r->status)
        snprintf(why, sizeof why, "HTTP %ld%s%s", r->status, r->code ? " " : "",
                 r->code ? r->code : "");
    else
        snprintf(why, sizeof why, "%s", r->error);
    bot_log("game %s: stream lost (%s): again in %.1f s", g->id, why, wait);
}

void games_on_decision(void *ctx, const char *id, int ply, engine_status status, json_t *move,
                       const char *why, double ms)
{
    bot *b = ctx;
    game *g = game_find(b, id);
    if (!g || g->over || ply != g->asked_ply)
        return; /* the game moved on without it */
    if (status != ENGINE_OK) {
        static const char *const kinds[] = {[ENGINE_BAD_ANSWER] = "a bad answer",
                                            [ENGINE_ILLEGAL] = "an illegal decision",
                                            [ENGINE_LATE] = "too late",
                                            [ENGINE_GONE] = "the engine is gone"};
        char text[800];
        snprintf(text, sizeof text, "engine failure, %s: %s", kinds[status], why);
        resign(b, g, text);
        return;
    }
    char path[128], what[200];
    snprintf(path, sizeof path, "/api/bot/game/%s/move", g->id);
    /* the ply makes a decision sent again (its answer lost) harmless: the site
     * takes it only while that decision is due */
    json_t *body = json_pack("{s:O,s:i}", "move", move, "ply", ply);
    describe_move(move, what, sizeof what);
    bot_log("game %s: decision %d: %s (%.0f ms)", g->id, ply, what, ms);
    g->decided_ms = ms;
    http_post(b->http, path, body, RETRIES, REQ_MOVE, g->id, games_on_request);
    json_decref(body);
}

void games_on_request(void *ctx, int kind, const char *key, const http_result *r)
{
    bot *b = ctx;
    game *g = game_find(b, key);
    const char *what = kind == REQ_MOVE ? "decision" : "resignation";
    if (r->status == 200)
        return; /* its events come on the stream */
    const char *message =
        json_string_value(json_object_get(json_object_get(r->json, "error"), "message"));
    char why[400];
    if (r->status)
        snprintf(why, sizeof why, "HTTP %ld %s%s%s", r->status, r->code ? r->code : "",
                 message ? ": " : "", message ? message : "");
    else
        snprintf(why, sizeof why, "%s", r->error);
    bot_log("game %s: the %s was not taken: %s", key, what, why);
    if (!g)
        return;
    if (kind == REQ_MOVE && r->status == 400)
        resign(b, g, "the site refused the engine's decision");
    if (kind == REQ_MOVE && (r->status == 0 || r->status >= 500) && !g->over) {
        /* Lost after every retry: the stream opened again starts with the state
         * of now, which asks the engine again if the decision is still due (and
         * asks nothing if the site had taken it after all). Waiting for the next
         * state instead could lose on time: none comes while the bot is to move. */
        g->asked_ply = -1;
        http_stream_close(b->http, g->stream);
        g->stream = NULL;
        g->failures++;
        g->retry_at = now_seconds() + jittered(1 << (g->failures < 7 ? g->failures - 1 : 6), 8.0);
        bot_log("game %s: the decision is asked for again once the game's stream is open again",
                key);
    }
    if (r->status == 404)
        g->forget = true;
}

static void forget(bot *b, game *g)
{
    for (game **p = &b->games; *p; p = &(*p)->next)
        if (*p == g) {
            *p = g->next;
            break;
        }
    pool_cancel(b->pool, g->id);
    http_stream_close(b->http, g->stream);
    free(g);
}

int games_tick(bot *b)
{
    double now = now_seconds(), next = -1;
    for (game *g = b->games, *after; g; g = after) {
        after = g->next;
        if (g->forget) {
            forget(b, g);
            continue;
        }
        if (g->stream || g->over)
            continue;
        if (now >= g->retry_at)
            connect_game(b, g);
        else if (next < 0 || g->retry_at < next)
            next = g->retry_at;
    }
    return next < 0 ? -1 : (int)((next - now) * 1000.0) + 1;
}

void games_free(bot *b)
{
    while (b->games)
        forget(b, b->games);
}
