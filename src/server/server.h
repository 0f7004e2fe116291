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
 *                 from the store (replaying decisions), expire, cancel,
 *                 rematch, evict
 *   play.c        WebSocket connections: messages in, decisions (leaving
 *                 too), per-viewer broadcast, computer players' turns
 *   clock.c       game clocks: settings, charging, running out
 *   chat.c        chat messages: checked, stored, then sent to everyone
 *   json_state.c  the protocol JSON of a game and of decisions
 *   store.c       SQLite (store_accounts.c: accounts, sessions, ratings);
 *   ratelimit.c   rate and connection limits;
 *   secrets.c     random ids, seeds, tokens, SHA-256
 *   accounts.c    accounts, sessions, profiles, the leaderboard (HTTP)
 *   auth.c        password hashes on worker threads
 */
#ifndef AX_SERVER_H
#define AX_SERVER_H

#include "../ai/player.h"
#include "../engine/axio.h"
#include "ai_workers.h"
#include "ratelimit.h"
#include "secrets.h"
#include "store/store.h"

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
    const char *web_dir;       /* NULL: no static files */
    const char *public_url;    /* NULL: the addresses listened on */
    const char *trusted_proxy; /* NULL: no proxy's X-Forwarded-For is believed */
    limits_config limits;
    int ai_threads;
    int absent_s;      /* a player to move offline this long may be claimed absent */
    int waiting_ttl_s; /* a waiting game whose creator is offline this long expires */
    int analysis_ms;   /* search time per decision of a post-game analysis */
    bool sync_full;
    bool quiet;
} serve_options;

/* Runs the server until SIGTERM or SIGINT; returns the exit code. */
int server_run(const serve_options *opt);

/* --- games (lobby.c) --- */

enum { GAME_WAITING, GAME_RUNNING, GAME_OVER, GAME_EXPIRED, GAME_CANCELLED };
enum { SEAT_HUMAN, SEAT_AI };

#define LEFT_SEAT_LEVEL "greedy" /* the computer that plays for a player who left */
#define CHAT_KEEP       STORE_CHAT_KEEP
#define CHAT_STORED_MAX 1000 /* messages a game's chat may hold in all */

typedef struct conn conn;

typedef struct {
    uint8_t kind;
    bool taken; /* a human took it (computer seats always are) */
    char name[NAME_MAX_LEN + 1];
    char level[LEVEL_MAX_LEN + 1];
    char token_hash[65];
    int conns;          /* open connections holding this seat */
    double away_since;  /* mono time its last connection closed (or the server started) */
    ax_player *ai;      /* a computer seat's player, or the one playing for a leaver */
    int64_t account_id; /* the account (or rated computer level) it is bound to, or 0 */
    int rating;         /* with an account: its current R in the game's variant */
    bool has_change;    /* rated and over: */
    int rating_change;  /* R after the game minus R before */
} game_seat;

enum { GAME_CLOCK_NONE, GAME_CLOCK_REALTIME, GAME_CLOCK_DAILY };

/* A game's clock (clock.c). left_ms counts down only for the seat in
 * `running`, from `since`; every other seat's value is exact. */
typedef struct {
    int kind;
    int base_s, increment_s, per_move_s;
    int64_t left_ms[AX_MAX_PLAYERS];
    int running; /* the seat whose clock runs, or -1 */
    double since;
} game_clock;

typedef struct {
    int seat;
    char name[NAME_MAX_LEN + 1];
    char *text;
    int64_t at; /* unix milliseconds */
} chat_msg;

/* An address's chat allowance in one game (chat.c). */
typedef struct {
    char ip[48];
    bucket rate;
} chat_addr;

typedef struct game {
    char id[GAME_ID_LEN + 1];
    int status;
    int64_t created, ended; /* unix seconds */
    int creator;            /* the seat of the player who created it */
    bool rated;             /* ratings change when it ends */
    bool guided;            /* a guided first game: dealt from its variant's fixed seed */
    char rematch[GAME_ID_LEN + 1], rematch_of[GAME_ID_LEN + 1];
    double viewers_sent; /* mono time of the last viewers update */
    bool viewers_dirty;  /* one is due (play_flush_viewers) */
    ax_game g;
    game_seat seats[AX_MAX_PLAYERS];
    game_clock clock;
    uint8_t leave_queued[AX_MAX_PLAYERS]; /* 1 + why of a leave waiting for a store write */
    chat_msg chat[CHAT_KEEP];             /* a ring, the oldest at chat_first */
    int nchat, chat_first, chat_next;     /* chat_next: the number of the next message */
    int chat_writes;                      /* chat messages being stored */
    chat_addr *chat_addrs;                /* per address (chat.c), made on first chat */
    int nchat_addrs;
    char seed_hash[65];
    ax_event *events; /* every event since the deal, in order */
    int nevents, events_cap;
    uint64_t seq;  /* messages sent on this game's channel */
    conn *viewers; /* connections watching, players and spectators */
    int nviewers, nspectators;
    bool ai_busy;    /* a worker is deciding for this game */
    bool ai_hurried; /* the last computer decision got less than its time: the server is busy */
    int hints_busy;  /* hint jobs in flight (hint.c); the game stays in memory */
    bool hint_asked[AX_MAX_PLAYERS];  /* a seat's hint is being searched */
    struct pending_decision *pending; /* a decision being stored (play.c) */
    ax_rng hint_rng;
    double idle_since; /* when the last viewer left */
    struct game *hash_next, *prev, *next;
} game;

typedef struct {
    int http; /* status */
    const char *code;
    char message[160];
    const char *reason; /* a machine-readable detail of the code (a refused name's), or NULL */
} api_error;

/* Loads every unfinished game from the store; one that can no longer be
 * replayed is set aside (status damaged, a line on stderr). -1 (reason
 * printed) when the store fails. */
int lobby_resume(void);
void lobby_free(void);
/* A game in memory, or loaded from the store; NULL when unknown or damaged
 * (one found damaged now is set aside). */
game *lobby_find(const char *id);
/* A game set aside as damaged: 0 with its stored form (game and seats, no
 * decisions) in out, to release with stored_game_free; -1 for any other id. */
int lobby_damaged(const char *id, stored_game *out);
/* The public list of open and running games. */
json_t *lobby_list_json(void);
/* Creates or joins a game; `account` (NULL for a guest) is the session's:
 * the seat is bound to it and takes its name. */
int lobby_create(const json_t *body, const stored_account *account, game **out, int *seat,
                 char token[TOKEN_LEN + 1], api_error *err);
int lobby_join(game *gm, const json_t *body, const stored_account *account, int *seat,
               char token[TOKEN_LEN + 1], api_error *err);
/* An account was deleted: its seats in memory take the neutral name. */
void lobby_account_deleted(int64_t account_id);
/* A rated game ended: every seat in memory bound to the account shows its
 * new rating in the variant. */
void lobby_rating_changed(int64_t account_id, int variant, int rating);
/* The seat a token proves, or -1. */
int lobby_seat_of_token(const game *gm, const char *token);
/* Appends a decision's events to the game's log. */
int lobby_log_events(game *gm, const ax_events *events);
const char *lobby_status_name(int status);
/* Frees finished games nobody watches, expires waiting games whose creator
 * is gone, and restarts computer players whose turn was lost to a failed
 * write; called by the housekeeping timer. */
void lobby_housekeeping(double now);
int lobby_count(void);
/* Whether a game is waiting or running. */
bool lobby_is_open(const game *gm);
/* GET /api/games?status=over: the newest finished games. */
json_t *lobby_finished_json(void);
/* GET /api/games?ids=...: the lobby entries of these games, any status. */
json_t *lobby_entries_json(const char *ids);
/* DELETE /api/games/{id}: the creator cancels a waiting game. */
int lobby_cancel(game *gm, const char *token, api_error *err);
/* The follow-up game of a finished one, created on first ask; `seat` of the
 * old game takes its seat there. In a rated game a seat bound to a person's
 * account needs that account's session (session_account, 0 for none). */
int lobby_rematch(game *gm, int seat, int64_t session_account, game **out, int *new_seat,
                  char token[TOKEN_LEN + 1], api_error *err);
/* Whether a seat may be played only with its account's session: a rated
 * game's seat bound to a person's account. */
bool lobby_seat_needs_session(const game *gm, int seat);
/* Adds a seat's "account", "rating" and "rating_change" to its JSON. */
void lobby_seat_account_json(json_t *o, const game_seat *s);
/* Gives a seat whose player left a computer player. */
void lobby_seat_left(game *gm, int seat);
/* Every game in memory, for the timers. */
game *lobby_first(void);

/* --- play (play.c) --- */

struct conn {
    uint64_t id; /* unique while the server runs: hints find their asker by it */
    struct lws *wsi;
    game *gm;
    int seat; /* -1: spectator */
    unsigned flags;
    bool attached, closing;
    char ip[48];           /* the client's address (limits per address) */
    char session_hash[65]; /* SHA-256 of the session cookie it came with, or "" */
    bucket rate;
    bucket chat_rate; /* chat messages (chat.c) */
    size_t rx_len, rx_total;
    bool rx_overflow;
    struct msg **outq; /* a ring of messages to send, oldest at out_first */
    unsigned out_cap, out_first, out_n;
    size_t out_bytes;
    conn *prev, *next; /* the game's viewers */
    char rx[MSG_MAX + 1];
};

/* A new WebSocket connection on /ws/{id}: finds the game, checks the token. */
int play_open(conn *c, struct lws *wsi);
/* Data arrived; returns -1 to close the connection. */
int play_receive(conn *c, const void *in, size_t len);
int play_writeable(conn *c);
void play_close(conn *c);
/* Sends pending viewers updates (a spectator or a seat came or went) of
 * games whose last one is old enough; called by the clock timer. */
void play_flush_viewers(double now);

/* Sends the fresh state to everyone watching (after a join or a
 * connection change). */
void play_broadcast_state(game *gm);
/* Starts a computer player's turn if it is one. */
void play_maybe_ai(game *gm);
/* Collects finished computer decisions (on the loop thread). */
void play_collect_ai(void);
/* Announces the decisions the store has committed (on the loop thread). */
void play_collect_writes(void);
/* Makes `seat` leave (rules 6) through the one decision path; when another
 * decision is being stored, the leave waits for it. */
void play_leave(game *gm, int seat, int why);
/* The checks every decision passes (a seated player who has not left, to
 * move in a running game, nothing being stored); sends the error when one
 * fails. */
bool play_may_act(conn *c);
/* Sends a message (JSON text) to everyone watching a game. */
void play_broadcast_text(game *gm, const char *text);
/* Queues a message (JSON, released) for one connection. */
void play_send_json(conn *c, json_t *msg);
void play_send_error(conn *c, const char *code, const char *message);

/* --- hints (hint.c) --- */

#define HINT_MOVETIME_MS 1000 /* the search behind a hint, at most */

/* {"type":"hint"} from the seat to move: searched on a worker from that
 * seat's view. */
void hint_handle(conn *c);
/* A hint job is back (on the loop thread): answers its asker if the
 * position is still the one it was asked for; frees the job's player. */
void hint_finished(game *gm, ai_job *job);

/* --- post-game analysis (analysis_jobs.c) --- */

/* Starts the analysing thread, movetime_ms per decision; notify(arg) after
 * each finished analysis. */
int analysis_start(int movetime_ms, void (*notify)(void *), void *arg);
/* Cancels what runs and frees every request. */
void analysis_stop(void);
/* GET /api/games/{id}/analysis?seat=S: 0 with *text (the result, malloc'd:
 * 200) or *progress ({"status":"working","judged","total"}: 202), or -1
 * with err. */
int analysis_request(game *gm, int seat, char **text, json_t **progress, api_error *err);
/* Stores finished analyses (on the loop thread). */
void analysis_collect(void);
/* A stored analysis came back from the writer. */
void analysis_written(store_write *w);

/* --- clocks (clock.c) --- */

/* Reads POST /api/games "clock" (absent or null: none); -1 with err set. */
int clock_parse(const json_t *v, game_clock *out, api_error *err);
/* The settings as JSON (null without a clock). */
json_t *clock_settings_json(const game_clock *c);
/* Settings from their stored JSON; false when unreadable. */
bool clock_from_json_text(const char *text, game_clock *out);
/* Puts every seat's clock at its start (the game starts). */
void clock_reset(game *gm);
/* Milliseconds left of a seat now. */
int64_t clock_left_now(const game *gm, int seat);
/* After a decision of `seat` (or at a start or load): charges the clock
 * that ran, adds the increment or the daily allowance, and starts the
 * clock of the seat to move if a person plays it. decided: a place or
 * swap of `seat` (not a leave). */
void clock_after_decision(game *gm, int seat, bool decided);
/* The clocks as they will be after such a decision led to game `next`,
 * as stored (see clock_left_text). */
void clock_text_after(const game *gm, const ax_game *next, int seat, bool decided, char *out,
                      size_t size);
/* The clocks as stored: a JSON list of milliseconds per seat now. */
void clock_left_text(const game *gm, char *out, size_t size);
/* Unix milliseconds by which the seat to move must decide, or -1. */
int64_t clock_deadline(const game *gm);
/* The timer: runs out clocks, and saves running ones once a second. */
void clock_tick(void);

/* --- chat (chat.c) --- */

void chat_handle(conn *c, const json_t *msg);
/* The last messages, for a connecting client. */
json_t *chat_history_json(const game *gm);
/* Takes over the chat a stored game was loaded with. */
void chat_load(game *gm, stored_game *sg);
void chat_free(game *gm);
/* A written chat message is durable: send it to everyone. */
void chat_written(store_write *w);

/* Unix milliseconds. */
int64_t unix_ms(void);

/* --- HTTP (http_api.c) --- */

struct account_job;

typedef struct {
    int method;
    struct account_job *job; /* a password being checked for this request (accounts.c) */
    char set_cookie[160];    /* a Set-Cookie header for the answer, or "" */
    bool body_too_large;
    bool close_after; /* close the connection after the answer */
    bool routed;      /* answered already: lws may still deliver the body */
    char path[256];
    size_t body_len;
    unsigned char *resp; /* LWS_PRE bytes, then the body */
    size_t resp_len, resp_sent;
    char body[MSG_MAX + 1];
} http_req;

enum { HTTP_GET = 1, HTTP_POST, HTTP_HEAD, HTTP_DELETE, HTTP_OTHER };

/* Whether a request says, as browsers do, that a page of another site made
 * it (Sec-Fetch-Site other than same-origin or none; else an Origin other
 * than this server's). Scripts send neither header and are not refused. */
bool http_foreign_origin(struct lws *wsi);

/* LWS_CALLBACK_HTTP: routes a request; returns what the callback returns. */
int http_request(http_req *r, struct lws *wsi, const char *uri);
int http_body(http_req *r, struct lws *wsi, const void *in, size_t len);
int http_body_done(http_req *r, struct lws *wsi);
int http_writeable(http_req *r, struct lws *wsi);
void http_done(http_req *r);
/* Answers (for accounts.c): JSON, an error, or no body (e.g. 204). */
int http_reply_json(http_req *r, struct lws *wsi, int status, json_t *body);
int http_reply_error(http_req *r, struct lws *wsi, int status, const char *code,
                     const char *message);
/* An api_error as the answer (with its reason when it has one). */
int http_reply_api_error(http_req *r, struct lws *wsi, const api_error *err);
int http_reply_empty(http_req *r, struct lws *wsi, int status);

/* --- accounts (accounts.c) --- */

/* Starts the password workers and makes sure every computer level is a
 * player; -1 (reason printed) on failure. */
int accounts_start(void);
/* Stops the workers (before the context goes), then frees what is left. */
void accounts_stop_workers(void);
void accounts_free(void);
/* Collects finished password jobs (on the loop thread). */
void accounts_collect(void);
/* The /api paths of accounts, sessions, players and the leaderboard:
 * answers and returns what the callback returns, or -2 for another path. */
int accounts_route(http_req *r, struct lws *wsi, const char *path);
/* A writeable HTTP connection whose request waits for a password job:
 * answers it once the job is done. */
int accounts_answer(http_req *r, struct lws *wsi);
/* The request's connection closed: its job, if any, is dropped. */
void accounts_orphan(http_req *r);
/* The account of the request's session cookie: true with *out. */
bool accounts_session(struct lws *wsi, stored_account *out);
/* The SHA-256 of the request's session cookie (no lookup): false without one. */
bool accounts_session_hash(struct lws *wsi, char hash[65]);
/* The account of a session by its hash, if the session is still valid. */
bool accounts_session_by_hash(const char *hash, stored_account *out);
/* Forgets old login failures and expired sessions. */
void accounts_housekeeping(double now);
/* {"rating","deviation","games"} */
json_t *rating_json(rt_rating r, int games);

/* --- the server (server.c) --- */

typedef struct {
    serve_options opt;
    struct lws_context *ctx;
    store *db;
    ai_pool *ai;
    int port; /* the port listened on (--port 0: the one the system gave) */
    bool stopping;
} server;

extern server srv;

/* The addresses a friend can open to reach this server, best first (GET
 * /api/health "urls"): the --public-url; else this computer's network
 * addresses when listening on all of them; else the one it listens on
 * (the loopback URL for a loopback-only server). As printed at start. */
json_t *server_urls_json(void);
/* The normalized client address of a connection. */
void client_ip(struct lws *wsi, char *out, int outlen);
/* The JSON library's error text made safe to send: its text can end in
 * half a UTF-8 character (the input's bytes), which no JSON string may. */
void json_error_text(const json_error_t *e, char *out, size_t size);
/* Logs a line to stderr unless --quiet. */
void server_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
