/*
 * push.h - notifications by Web Push (push.c; issue 52,
 * docs/notifications.md): the site's VAPID keys, an account's
 * subscriptions and preferences (the HTTP API), what is sent when, and
 * the thread that sends it.
 */
#ifndef AX_SERVER_PUSH_H
#define AX_SERVER_PUSH_H

#include "game.h"
#include "push_texts.h"

typedef struct push_state push_state;

/* At most this many subscriptions per account: the newest stay. */
#define PUSH_MAX_SUBSCRIPTIONS 5

/* The push state of a service (NULL out of memory). */
push_state *push_new(void);
/* Reads (or, on a site's first start, makes and keeps) the site's VAPID
 * key pair and starts the sending thread; -1 (reason printed) on failure. */
int push_start(service *svc);
/* Stops the sending thread (what waits is dropped: it was never promised). */
void push_stop(service *svc);
void push_free(service *svc);
/* Takes in what the sending thread finished (on the loop thread): endpoints
 * that answered 404 or 410 are forgotten. */
void push_collect(service *svc);
/* About once a second: "your turn" notices that are due, clocks at 80%. */
void push_tick(service *svc, double now);

/* The /api paths of notifications: API_ANSWERED or API_NOT_MINE. */
int push_route(service *svc, const api_request *r, api_answer *out);

/* Events: the seat to move of a running game may want to hear of it (after
 * a decision, or at the start); a game ended; a challenge waits for an
 * account. */
void push_turn(game *gm);
/* A running game loaded from the store (the server started again, or took
 * it from another): a "your turn" that waited for its delay in the memory
 * of the server before was lost with it, so one whose turn began at unix
 * second `turn_began`, lately enough, is waited for again. One already sent
 * may be sent twice; the browser shows the newer in place of the other
 * (the same tag). */
void push_turn_resumed(game *gm, int64_t turn_began);
void push_game_over(game *gm);
void push_challenge(service *svc, int64_t to_account, const char *from_name, const char *variant);
/* An event's table game was made (events.c): each person seated may hear
 * "a tournament game waiting" after the "your turn" delay, if no tab of
 * theirs watches the game then. */
void push_event_game(game *gm, const char *event_name);

/* An account's preferences: the language of its texts, and per kind
 * (push_texts.h: PUSH_*) whether it wants a push and an e-mail. */
void push_prefs(service *svc, int64_t account_id, char lang[8], bool push[PUSH_KINDS],
                bool email[PUSH_KINDS]);
/* Hands an e-mail (an RFC 5322 message, malloc'd: taken over) for `to`
 * to the sending thread, which sends it through --smtp (retried as a
 * push). 0, or -1 without --smtp or with too much waiting. */
int push_enqueue_mail(service *svc, int64_t account_id, const char *to, char *message);

/* "AXIO", "AXIO ROTA", "AXIO Hex". */
const char *push_variant_title(int variant);

/* Notices of a kind (push_texts.h: PUSH_*) handed to the sending thread
 * since the start, one per subscription: for the logs and the tests. */
long push_queued(const service *svc, int kind);

#endif
