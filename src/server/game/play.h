/*
 * play.h - a game's viewers (play.c): messages in, decisions (leaving too)
 * through one path, per-viewer broadcast, computer turns.
 */
#ifndef AX_SERVER_PLAY_H
#define AX_SERVER_PLAY_H

#include "game.h"

/* A connection watching a game, as the service sees it: which game, which
 * seat (or none), who (address, session). The transport holds the socket
 * (`conn`) and sends what the service hands it. */
struct viewer {
    uint64_t id; /* unique while the service runs: hints find their asker by it */
    service *svc;
    void *conn; /* the transport's, for the hooks */
    game *gm;   /* NULL: an error was sent, the connection closes */
    int seat;   /* -1: spectator */
    unsigned flags;
    bool attached, closed;
    bool ends_with_game;   /* a bot's game stream: closed once the game ended */
    api_error *reply;      /* a bot's request (play_act): an error comes here, nothing is sent */
    char ip[48];           /* the client's address (limits per address) */
    char session_hash[65]; /* SHA-256 of the session cookie it came with, or "" */
    char relayed_by[STORE_INSTANCE_LEN + 1]; /* the server that passed it on, or "" */
    int64_t account_id;                      /* its session's account when it opened, or 0 */
    bucket chat_rate;                        /* chat messages (chat.c) */
    int64_t *blocked; /* the accounts its account blocks (moderation.c), malloc'd */
    int nblocked;
    viewer *prev, *next; /* the game's viewers */
};

/* Sends pending viewers updates (a spectator or a seat came or went) of
 * games whose last one is old enough; called by the clock timer. */
void play_flush_viewers(service *svc, double now);

/* Sends the fresh state to everyone watching (after a join or a
 * connection change). */
void play_broadcast_state(game *gm);
/* Starts a computer player's turn if it is one. */
void play_maybe_ai(game *gm);
/* Collects finished computer decisions (on the loop thread). */
void play_collect_ai(service *svc);
/* Announces the decisions the store has committed (on the loop thread). */
void play_collect_writes(service *svc);
/* Makes `seat` leave (rules 6) through the one decision path; when another
 * decision is being stored, the leave waits for it. */
void play_leave(game *gm, int seat, int why);
/* The checks every decision passes (a seated player who has not left, to
 * move in a running game, nothing being stored); sends the error when one
 * fails. */
bool play_may_act(viewer *c);
/* Sends a message (JSON text) to everyone watching a game. */
void play_broadcast_text(game *gm, const char *text);
/* Queues a message (JSON, released) for one connection. */
void play_send_json(viewer *c, json_t *msg);
void play_send_error(viewer *c, const char *code, const char *message);
/* A bot's game stream (service_stream_open): a viewer of the bot's seat
 * whose states carry the engine's position, closed once the game ends. */
viewer *play_open_stream(service *svc, const api_stream *s, const char *ip, void *conn);
/* A message of a seat's player made without a connection (a bot's request,
 * bots.c), handled as the seat's WebSocket message would be: 0, or -1 with
 * the error that connection would have been sent (its HTTP status). */
int play_act(game *gm, int seat, int64_t account_id, const char *ip, const json_t *message,
             api_error *err);
/* After play_act: the decision it handed to the store for `seat` answers
 * the transport's `request` once stored (hooks.answer: 200, or 500/503 when
 * it was not). False when play_act stored nothing of the seat's (a leave
 * waiting its turn): answer at once. */
bool play_answer_when_stored(game *gm, int seat, void *request);
/* A request's connection closed before its decision was stored. */
void play_abandon(service *svc, void *request);
/* play_may_act's checks for a seat without a connection: 0, or -1 with
 * the error. */
int play_check_act(game *gm, int seat, api_error *err);
/* A viewer's text message (service_message). */
void play_message(viewer *c, const char *text, size_t len);

#endif
