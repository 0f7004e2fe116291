/*
 * service.h - the game service: what `axio serve` is, without its sockets.
 *
 * Games in memory, decisions and their broadcast, clocks, leaving, chat,
 * rematches, hints, analyses, the computer players' scheduling, accounts
 * and ratings. It knows no libwebsockets and no SQL: the transport above it
 * (src/server/transport) hands it plain calls — a viewer opened, a message
 * text, an API request — and it answers through the hooks it was given; it
 * keeps its games through the store below it (src/server/store/store.h). Nothing
 * of it is global: everything hangs off one `service`, which tests create
 * in-process (tests/server/game/test_service.c) with hooks of their own.
 *
 * Threads: every call is made on one thread (the transport's event loop).
 * The service's own worker threads (computer players, password hashing,
 * analyses, the store's writer) never call the transport: they call
 * hooks.wake from their thread, and the loop answers with service_collect,
 * where their results are taken in.
 */
#ifndef AX_SERVER_GAME_SERVICE_H
#define AX_SERVER_GAME_SERVICE_H

#include "../base/msg.h"
#include "../store/store.h"
#include "secrets.h"

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct service service;
typedef struct viewer viewer;

/* A stream a request opened (API_STREAM; docs/bot-api.md): a bot's events,
 * or a game's messages for the bot's seat. */
enum { STREAM_EVENTS = 1, STREAM_GAME };
typedef struct {
    int kind;
    int64_t account_id; /* the bot's, proven by its token */
    char token_id[STORE_TOKEN_ID_MAX + 1];
    char game_id[GAME_ID_LEN + 1]; /* STREAM_GAME */
} api_stream;

/* An answer to an API request. body is malloc'd (the transport frees it). */
typedef struct {
    int status;
    const char *content_type; /* NULL: no body (204) */
    char *body;
    size_t len;
    int session; /* SESSION_KEEP, or SESSION_SET (the cookie gets session_token), SESSION_CLEAR */
    char session_token[TOKEN_LEN + 1];
    char relay_to[STORE_ADDRESS_MAX + 1]; /* API_RELAY: the holder's address */
    int retry_after_s;                    /* 429, 503: Retry-After, or 0 */
    api_stream stream;                    /* API_STREAM: what to open */
} api_answer;

enum { SESSION_KEEP, SESSION_SET, SESSION_CLEAR };

/* WebSocket close codes the service asks for (hooks.close). */
#define CLOSE_POLICY 1008 /* an error was sent */
#define CLOSE_MOVED  1012 /* the game moved to another server: reconnect */
#define CLOSE_RETRY  1013 /* the game is on its way here: reconnect soon */

#define SESSION_TTL_S (30 * 24 * 3600) /* a session lasts 30 days (its cookie too) */

/* What the service asks of the layer above it. */
typedef struct {
    /* Queues a message on a viewer's connection; m is shared: the
     * transport takes a reference (msg_ref) if it keeps it. */
    void (*send)(void *conn, msg *m);
    /* Closes a viewer's connection once what was queued is written, with
     * a WebSocket close code (game.h: CLOSE_*). */
    void (*close)(void *conn, int code);
    /* A request that service_api left pending has its answer (the transport
     * takes over a->body). */
    void (*answer)(void *request, api_answer *a);
    /* From any thread: make the loop call service_collect soon. */
    void (*wake)(void *arg);
    /* Monotonic seconds, as service_tick gets them: clocks, presence,
     * limits. NULL: the system's (mono_now); tests make time pass. */
    double (*now)(void *arg);
    /* Passes a viewer's connection on to the server of the site that holds
     * its game, reached at address ("HOST:PORT"): the transport relays its
     * messages both ways from now on (the service has forgotten it; its
     * service_close still comes). NULL: such a connection is told to come
     * back later instead (moving). */
    void (*relay)(void *conn, const char *address);
    void *arg; /* passed to wake and now */
} service_hooks;

typedef struct {
    int ai_threads;
    int absent_s;        /* a player to move offline this long may be claimed absent */
    int waiting_ttl_s;   /* a waiting game whose creator is offline this long expires */
    long judge_playouts; /* per decision, of hints and analyses (src/ai/analysis.c) */
    bool quiet;          /* log nothing but what an operator must know */
    /* where the site's other servers reach this one ("HOST:PORT"), or NULL */
    const char *address;
    int games_per_hour;        /* games an address may create in an hour (rematches too) */
    int waiting_per_ip;        /* games of an address waiting for players at once */
    int strong_games_per_hour; /* games against strong or expert an address, and an account,
                                  may create in an hour */
    int hints_per_10_min;      /* hints an address, and an account, may ask for */
    int bot_requests_per_10_s; /* Bot API requests of a personal token (0: 60) */
    int analyses_per_hour;     /* analyses an address, and an account, may ask for */
    int signups_per_hour;      /* accounts an address may create in an hour */
    /* the word lists (moderation.c: every .txt file of it), or NULL */
    const char *word_list_dir;
    /* notifications (push.c, docs/notifications.md) */
    const char *push_contact; /* VAPID's subject: a mailto: or https: URI, or NULL */
    bool push_http;           /* endpoints may be http:// (a push service on this machine) */
    int push_delay_s;         /* "your turn" waits this long for a tab to show it (0: 10) */
    /* e-mail digests (mail.c): the SMTP server (smtp://, smtps://) or NULL,
     * the sender's address, and the site's address for the links */
    const char *smtp_url, *mail_from, *public_url;
} service_config;

/* A service over an open store. NULL (reason in err) when memory runs out. */
service *service_new(const service_config *cfg, const service_hooks *hooks, store *db, char *err,
                     size_t errlen);
/* Starts the worker threads, makes every computer level a player, resumes
 * every unfinished game; -1 (reason printed) when that fails. */
int service_start(service *svc);
/* Stops the worker threads (before the transport goes: they wake it). */
void service_stop(service *svc);
/* This server's instance id (16 hex digits, new at each start): it names
 * the server among the site's (/api/health, the logs). */
const char *service_instance(const service *svc);
/* The site's secret key (64 hex digits, the same on every server of a
 * site): it proves that a request passed on between its servers comes from
 * one of them (HMAC: transport/relay.c), and keys the hashes of addresses
 * the store keeps. */
const char *service_site_key(const service *svc);
/* What the server's workers have to do, for GET /api/health:
 * {"computers":N,"hints":N,"analyses":N} (jobs waiting or being worked on,
 * analyses not finished). */
json_t *service_queues_json(service *svc);
/* Whether an address is one of the site's other servers' (their passed-on
 * connections are counted for the client they carry, not for them). */
bool service_peer_host(const service *svc, const char *ip);
/* Frees everything; every viewer must be closed first. */
void service_free(service *svc);

/* Takes in the worker threads' results (after hooks.wake). */
void service_collect(service *svc);
/* Four times a second: clocks, the viewers updates that are due. */
void service_tick(service *svc, double now);
/* Every few seconds: expires and evicts games, forgets old login failures. */
void service_housekeeping(service *svc, double now);
/* Monotonic seconds: hooks.now's, or the system's. */
double service_now(const service *svc);
/* Logs a line to stderr unless quiet. */
void service_log(const service *svc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* --- viewers: WebSocket connections to a game (play.c) --- */

typedef struct {
    const char *game_id;
    const char *token;        /* a seat token, or NULL for a spectator */
    bool token_too_long;      /* one was given that cannot be a token */
    const char *session_hash; /* SHA-256 of the session cookie, or "" */
    const char *ip;
    bool hint, moves; /* `you.hint`, `you.moves` asked for */
    int seat;         /* without a token: the seat of the session's account wanted, or -1 */
    void *conn;       /* the transport's connection, for the hooks */
    /* the instance id of the server of the site that passed this
     * connection on (its client is connected there), or NULL */
    const char *relayed_by;
} viewer_args;

/* A connection opened on /ws/{id}: its first state and history are sent,
 * or an error after which hooks.close comes. NULL only out of memory. */
viewer *service_open(service *svc, const viewer_args *a);
/* One whole text message of the viewer. */
void service_message(service *svc, viewer *v, const char *text, size_t len);
/* The connection is gone: the viewer is freed. */
void service_close(service *svc, viewer *v);

/* --- the HTTP API (api.c) --- */

enum { API_GET = 1, API_POST, API_DELETE, API_OTHER };

typedef struct {
    int method;
    const char *path;        /* after "/api": "/games", "/login", ... (URL-decoded) */
    const char *const *args; /* the query's "name=value" pieces, URL-decoded */
    int nargs;
    const char *body; /* NUL-terminated; body_len bytes */
    size_t body_len;
    const char *session_hash; /* SHA-256 of the session cookie, or "" */
    const char *bearer;       /* the token of "Authorization: Bearer", or NULL */
    const char *ip;
    void *request; /* the transport's request, for hooks.answer */
    bool relayed;  /* passed on by another server of the site: not passed on again */
} api_request;

/* What service_api, and each route of the API, did with a request. */
enum {
    API_ANSWERED, /* the answer is in *out */
    API_PENDING,  /* it waits for a password worker or a bot's decision to be stored:
                   * hooks.answer brings the answer */
    API_RELAY,    /* its game is held by another server of the site, reached at
                   * out->relay_to: the transport passes the request on */
    API_NOT_MINE, /* a path that is not the API's (or not the route's) */
    API_STREAM    /* a stream: the transport answers 200 application/x-ndjson and opens
                   * out->stream with service_stream_open */
};
/* Answers a request (API_*). */
int service_api(service *svc, const api_request *r, api_answer *out);
/* A pending request's connection closed: its answer is not wanted. */
void service_api_abandon(service *svc, void *request);
/* Opens the stream a request was answered API_STREAM for, on the
 * transport's connection `conn` (the client at ip): each message hooks.send
 * hands it is a line (an empty one: a keep-alive), hooks.close ends the
 * stream. Returns the stream, for service_stream_close; NULL out of memory
 * (the transport closes the connection). */
void *service_stream_open(service *svc, const api_stream *s, const char *ip, void *conn);
/* The stream's connection closed: the stream is freed. */
void service_stream_close(service *svc, const api_stream *s, void *stream);

#endif
