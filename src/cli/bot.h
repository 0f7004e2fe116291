/*
 * bot.h - `axio bot`, the bridge between an engine and a site's Bot API
 * (docs/bot-api.md): what its parts share.
 *
 * One thread runs one loop (bot.c): it waits on the network (bot_http.c)
 * and on the engines' pipes (bot_engines.c) at once, and everything else
 * happens in callbacks from there. bot.c holds the account's event stream
 * (challenges, games starting and ending); bot_games.c each game: its
 * stream, when the bot must decide, the decision's request; bot_filter.c
 * which challenges to accept; bot_time.c how long to think.
 */
#ifndef AX_BOT_H
#define AX_BOT_H

#include "bot_engines.h"
#include "bot_filter.h"
#include "bot_http.h"

#include <signal.h>

typedef struct {
    const char *url;    /* the site, without a trailing slash */
    const char *engine; /* the engine's shell command */
    const char *token;  /* read from --token-file */
    bot_filter filter;
    int engines;     /* processes at most */
    int movetime_ms; /* a decision's cap; the time of one without a clock */
} bot_options;

/* Runs the bridge until SIGINT or SIGTERM (exit 0) or a failure it cannot
 * get past (a refused token: exit 1). */
int bot_run(const bot_options *o);

/* Request kinds (bot_http.h tags). */
enum { REQ_EVENTS, REQ_GAME, REQ_ACCEPT, REQ_DECLINE, REQ_MOVE, REQ_RESIGN };

typedef struct game game;
typedef struct challenge challenge;

typedef struct {
    const bot_options *o;
    bot_http *http;
    engine_pool *pool;
    http_stream *events;
    double events_opened, events_retry_at;
    int events_failures;
    double events_ended_at; /* when the site last ended the event stream itself, 0 never */
    game *games;
    challenge *challenges; /* answered lately, accepted ones until their game starts */
    int exit_code;         /* set: the loop ends with it */
} bot;

/* One line on stderr: the time, then the message. Never a token. */
void bot_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Ends the bridge with exit code 1 and the reason in the log. */
void bot_fail(bot *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* An id the API made: letters, digits, '-' and '_' (ids go into paths). */
bool bot_good_id(const char *id);
/* Accepted challenges whose game has not started yet. */
int bot_challenges_pending(const bot *b);
/* A game started: forget the accepted challenge it came from. */
void bot_challenge_started(bot *b, json_t *game);
/* The event stream's answer refuses the token (401) or the account (403
 * not_a_bot): ends the bridge. True when it did. Other requests' 401 and
 * 403 are about them (a seat that left, a game not the bot's): a revoked
 * token also closes the event stream, whose new connection is refused. */
bool bot_refused(bot *b, const http_result *r);

/* bot_games.c */
game *game_find(bot *b, const char *id);
/* A game of the event stream (G): known from now on, its stream opened. */
void games_start(bot *b, json_t *g);
/* The event stream says the game ended. */
void games_finish(bot *b, json_t *g);
/* Games running or about to: what --max-games counts. */
int games_playing(const bot *b);
/* Streams to open again, games to forget: called on every turn of the loop;
 * returns the milliseconds until it has something to do (-1: nothing). */
int games_tick(bot *b);
void games_free(bot *b);
/* Callbacks of the streams, requests and engines. */
void games_on_line(void *ctx, int kind, const char *key, const char *line, size_t len);
void games_on_end(void *ctx, int kind, const char *key, const http_result *r);
void games_on_request(void *ctx, int kind, const char *key, const http_result *r);
void games_on_decision(void *ctx, const char *game, int ply, engine_status status, json_t *move,
                       const char *why, double ms);

#endif
