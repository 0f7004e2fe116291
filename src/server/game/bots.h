/*
 * bots.h - bots and the Bot API (bots.c; docs/bot-api.md): personal API
 * tokens, an account made a bot, a request's account proven by a session
 * or a token, the event streams of bots, and a bot's decisions, chat,
 * resignations and claims over HTTP.
 */
#ifndef AX_SERVER_BOTS_H
#define AX_SERVER_BOTS_H

#include "game.h"

/* What a personal token allows (docs/bot-api.md, "Bot accounts and tokens"). */
enum { SCOPE_BOT_PLAY = 1, SCOPE_CHALLENGE_WRITE = 2, SCOPE_GAME_READ = 4 };

/* The account a request acts for: its session's, else its personal token's
 * when the token has `scope`: 0 with it, -1 with err (401; 429 when the
 * token's requests are spent). */
int bots_request_account(service *svc, const api_request *r, unsigned scope, stored_account *me,
                         api_error *err);
/* /api/me/tokens[/ID] and /api/bot/...: API_ANSWERED, API_PENDING (a
 * decision, answered once stored), API_RELAY (a game's request, held
 * elsewhere), API_STREAM, or API_NOT_MINE. */
int bots_route(service *svc, const api_request *r, api_answer *out);
/* The state of the service's event streams; NULL out of memory. */
struct bots *bots_new(void);
/* An event stream the route answered API_STREAM for; NULL out of memory. */
void *bots_events_open(service *svc, const api_stream *s, void *conn);
void bots_events_close(service *svc, void *stream);
/* Once a second: each event stream reads what changed for its bot. */
void bots_tick(service *svc, double now);
/* Frees every event stream (their connections are gone) and the state. */
void bots_free(service *svc);

#endif
