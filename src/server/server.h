/*
 * server.h - what the modules of `axio serve` share.
 *
 * One process, one libwebsockets event loop thread that owns every game,
 * connection and database write; computer players think on worker threads
 * (ai_workers.c) and hand their decisions back through the loop.
 *
 *   server.c      the lws context, the protocol callback, signals, timers
 *   http_api.c    HTTP: the /api endpoints and the web client's files
 *   lobby.c       games in memory: create, join, seats and tokens, load
 *                 from the store (replaying decisions), evict
 *   play.c        WebSocket connections: messages in, decisions, per-viewer
 *                 broadcast, computer players' turns
 *   json_state.c  the protocol JSON of a game and of decisions
 *   store.c       SQLite; limits.c rate and connection limits;
 *   secrets.c     random ids, seeds, tokens, SHA-256
 */
#ifndef AX_SERVER_H
#define AX_SERVER_H

#include "../ai/player.h"
#include "../engine/axio.h"
#include "ai_workers.h"
#include "ratelimit.h"
#include "secrets.h"
#include "store.h"

#include <jansson.h>
#include <libwebsockets.h>
#include <stdbool.h>

#define AXIO_VERSION  "0.1.0"
#define MSG_MAX       4096              /* largest client message or request body */
#define MSG_DROP_MAX  (1024 * 1024)     /* a message this large closes the connection */
#define OUTQ_MAX      (8 * 1024 * 1024) /* unsent bytes before a slow reader is dropped */
#define NAME_MAX_LEN  STORE_NAME_MAX
#define LEVEL_MAX_LEN 23

typedef struct {
    int port;
    const char *bind;
    const char *db_path;
    const char *web_dir; /* NULL: no static files */
    limits_config limits;
    int ai_threads;
    bool sync_full;
    bool quiet;
} serve_options;

/* Runs the server until SIGTERM or SIGINT; returns the exit code. */
int server_run(const serve_options *opt);

/* --- games (lobby.c) --- */

enum { GAME_WAITING, GAME_RUNNING, GAME_OVER };
enum { SEAT_HUMAN, SEAT_AI };

typedef struct conn conn;

typedef struct {
    uint8_t kind;
    bool taken; /* a human took it (computer seats always are) */
    char name[NAME_MAX_LEN + 1];
    char level[LEVEL_MAX_LEN + 1];
    char token_hash[65];
    int conns; /* open connections holding this seat */
    ax_player *ai;
} game_seat;

typedef struct game {
    char id[GAME_ID_LEN + 1];
    int status;
    int64_t created;
    ax_game g;
    game_seat seats[AX_MAX_PLAYERS];
    char seed_hash[65];
    ax_event *events; /* every event since the deal, in order */
    int nevents, events_cap;
    uint64_t seq;  /* messages sent on this game's channel */
    conn *viewers; /* connections watching, players and spectators */
    int nviewers, nspectators;
    bool ai_busy;                     /* a worker is deciding for this game */
    struct pending_decision *pending; /* a decision being stored (play.c) */
    ax_rng hint_rng;
    double idle_since; /* when the last viewer left */
    struct game *hash_next, *prev, *next;
} game;

typedef struct {
    int http; /* status */
    const char *code;
    char message[160];
} api_error;

/* Loads every unfinished game from the store; -1 (reason printed) when one
 * cannot be replayed. */
int lobby_resume(void);
void lobby_free(void);
/* A game in memory, or loaded from the store; NULL when unknown. */
game *lobby_find(const char *id);
/* The public list of open and running games. */
json_t *lobby_list_json(void);
int lobby_create(const json_t *body, game **out, int *seat, char token[TOKEN_LEN + 1],
                 api_error *err);
int lobby_join(game *gm, const json_t *body, int *seat, char token[TOKEN_LEN + 1], api_error *err);
/* The seat a token proves, or -1. */
int lobby_seat_of_token(const game *gm, const char *token);
/* Appends a decision's events to the game's log. */
int lobby_log_events(game *gm, const ax_events *events);
const char *lobby_status_name(int status);
/* Frees finished games nobody watches and restarts computer players whose
 * turn was lost to a failed write; called by the housekeeping timer. */
void lobby_housekeeping(double now);
int lobby_count(void);

/* --- play (play.c) --- */

struct conn {
    struct lws *wsi;
    game *gm;
    int seat; /* -1: spectator */
    unsigned flags;
    bool attached, closing;
    bucket rate;
    size_t rx_len, rx_total;
    bool rx_overflow;
    struct outmsg *out_head, *out_tail;
    size_t out_bytes;
    conn *prev, *next;
    char rx[MSG_MAX + 1];
};

/* A new WebSocket connection on /ws/{id}: finds the game, checks the token. */
int play_open(conn *c, struct lws *wsi);
/* Data arrived; returns -1 to close the connection. */
int play_receive(conn *c, const void *in, size_t len);
int play_writeable(conn *c);
void play_close(conn *c);
/* Sends the fresh state to everyone watching (after a join or a
 * connection change). */
void play_broadcast_state(game *gm);
/* Starts a computer player's turn if it is one. */
void play_maybe_ai(game *gm);
/* Collects finished computer decisions (on the loop thread). */
void play_collect_ai(void);
/* Announces the decisions the store has committed (on the loop thread). */
void play_collect_writes(void);

/* --- HTTP (http_api.c) --- */

typedef struct {
    int method;
    bool body_too_large;
    bool close_after; /* close the connection after the answer */
    bool routed;      /* answered already: lws may still deliver the body */
    char path[256];
    size_t body_len;
    unsigned char *resp; /* LWS_PRE bytes, then the body */
    size_t resp_len, resp_sent;
    char body[MSG_MAX + 1];
} http_req;

enum { HTTP_GET = 1, HTTP_POST, HTTP_HEAD, HTTP_OTHER };

/* LWS_CALLBACK_HTTP: routes a request; returns what the callback returns. */
int http_request(http_req *r, struct lws *wsi, const char *uri);
int http_body(http_req *r, struct lws *wsi, const void *in, size_t len);
int http_body_done(http_req *r, struct lws *wsi);
int http_writeable(http_req *r, struct lws *wsi);
void http_done(http_req *r);

/* --- the server (server.c) --- */

typedef struct {
    serve_options opt;
    struct lws_context *ctx;
    store *db;
    ai_pool *ai;
    bool stopping;
} server;

extern server srv;

/* The normalized client address of a connection. */
void client_ip(struct lws *wsi, char *out, int outlen);
/* Logs a line to stderr unless --quiet. */
void server_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
