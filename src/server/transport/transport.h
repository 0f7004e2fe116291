/*
 * transport.h - what the transport's files share (server.c, http.c, ws.c,
 * ratelimit.c): the server's state, the per-connection session of lws, and
 * the calls between them. Only this folder includes libwebsockets.h.
 */
#ifndef AX_SERVER_TRANSPORT_H
#define AX_SERVER_TRANSPORT_H

#include "../base/msg.h"
#include "../game/service.h"
#include "ratelimit.h"
#include "server.h"

#include <jansson.h>
#include <libwebsockets.h>
#include <stdbool.h>
#include <stdint.h>

#define MSG_MAX      4096          /* largest client message or request body */
#define MSG_DROP_MAX (1024 * 1024) /* a message this large closes the connection */
/* A slow reader (docs/server.md, Limits): each socket's kernel send buffer
 * is asked for SNDBUF_BYTES (Linux keeps twice that for its bookkeeping)
 * instead of growing to megabytes; a connection whose queue holds more than
 * OUTQ_MAX unsent bytes, or whose oldest unsent message is OUTQ_MAX_AGE_S
 * old, is dropped (the web client reconnects and gets a fresh state). */
#define SNDBUF_BYTES   (64 * 1024)
#define OUTQ_MAX       (256 * 1024)
#define OUTQ_MAX_AGE_S 30.0

_Static_assert(LWS_PRE <= MSG_HEADROOM, "a shared message has room for a frame header");

typedef struct {
    serve_options opt;
    struct lws_context *ctx;
    store *db;
    service *svc;
    int port; /* the port listened on (--port 0: the one the system gave) */
} server;

extern server srv;

/* --- HTTP (http.c) --- */

enum { HTTP_GET = 1, HTTP_POST, HTTP_HEAD, HTTP_DELETE, HTTP_OTHER };

typedef struct relay relay;

/* What a connection the service was handed (its `conn`) is: the first
 * member of ws_conn and stream_conn. */
enum { CONN_WS = 1, CONN_STREAM };

typedef struct stream_conn stream_conn;

typedef struct {
    int method;
    bool pending;        /* the service answers later (a password check) */
    relay *relay;        /* passed on to the game's holder, which answers */
    stream_conn *stream; /* an answer that goes on (stream.c) */
    bool body_too_large;
    bool close_after; /* close the connection after the answer */
    bool routed;      /* answered already: lws may still deliver the body */
    struct lws *wsi;
    char path[256];
    size_t body_len;
    unsigned char *resp; /* LWS_PRE bytes, then the headers' room, then the body */
    size_t resp_len, resp_sent;
    char set_cookie[160];
    int retry_after_s; /* the answer's Retry-After, or 0 */
    char body[MSG_MAX + 1];
} http_req;

/* LWS_CALLBACK_HTTP: routes a request; returns what the callback returns. */
int http_request(http_req *r, struct lws *wsi, const char *uri);
int http_body(http_req *r, struct lws *wsi, const void *in, size_t len);
int http_body_done(http_req *r, struct lws *wsi);
int http_writeable(http_req *r, struct lws *wsi);
void http_done(http_req *r);
/* hooks.answer: a pending request's answer. */
void http_answer(void *request, api_answer *a);
/* The answer a request passed on got from the game's holder. */
void http_relay_answer(http_req *r, struct lws *wsi, int status, const char *ctype,
                       const char *body, size_t len);
/* Whether a request says, as browsers do, that a page of another site made
 * it (Sec-Fetch-Site other than same-origin or none; else an Origin other
 * than this server's). Scripts send neither header and are not refused. */
bool http_foreign_origin(struct lws *wsi);
/* The SHA-256 of the request's session cookie, or "" without one. */
void http_session_hash(struct lws *wsi, char hash[65]);

/* --- WebSocket (ws.c) --- */

/* The headers of a connection's incoming frames, read from the bytes lws
 * receives (ws.c): lws 4.1 takes a client's unmasked frame as a masked
 * one. */
typedef struct {
    unsigned char head[14]; /* the current frame's header so far */
    unsigned have;
    uint64_t payload_left; /* bytes of the current frame's payload to skip */
    bool unmasked;         /* a frame came without its mask: close with 1002 */
} frame_reader;

/* A message waiting in a connection's queue, and since when (mono time). */
typedef struct {
    msg *m;
    double at;
} queued;

typedef struct ws_conn {
    int kind; /* CONN_WS */
    struct lws *wsi;
    viewer *v;    /* the game service's side */
    relay *relay; /* passed on to the game's holder: its messages go there */
    /* what a connection passed on is opened with at the holder */
    char game_id[GAME_ID_LEN + 1];
    char token[128];
    bool hint, moves;
    int seat; /* ?seat=, or -1 */
    char ip[48];
    char session_hash[65];
    int fd; /* the socket, while its frames are read (fd_watched) */
    bool fd_watched;
    frame_reader frames;
    bucket rate;
    bool closing, close_after;
    int close_code; /* the service's (hooks.close), or 0: policy */
    bool relayed;   /* opened by another server of the site (relay.c) */
    size_t rx_len, rx_total;
    bool rx_overflow;
    queued *outq; /* a ring of messages to send, oldest at out_first */
    unsigned out_cap, out_first, out_n;
    size_t out_bytes;
    bool backlogged;                       /* on the list of non-empty queues */
    struct ws_conn *back_prev, *back_next; /* that list (ws_check_queues) */
    char rx[MSG_MAX + 1];
} ws_conn;

int ws_open(ws_conn *c, struct lws *wsi);
/* A socket accepted with this descriptor: no connection's frames are read
 * from it until its upgrade (a closed one's number may come back). */
void ws_socket_accepted(int fd);
int ws_receive(ws_conn *c, const void *in, size_t len);
int ws_writeable(ws_conn *c);
void ws_closed(ws_conn *c);
/* The connection's memory is going (LWS_CALLBACK_WSI_DESTROY): nothing may
 * point to it any more, whether or not it was closed as a WebSocket. */
void ws_destroyed(ws_conn *c);
/* Drops the connections whose oldest unsent message is OUTQ_MAX_AGE_S old
 * (the clock timer, four times a second). */
void ws_check_queues(double now);
/* hooks.send, hooks.close and hooks.relay */
void ws_send(void *conn, msg *m);
void ws_close(void *conn, int code);
void ws_relay(void *conn, const char *address);

/* --- streams: the Bot API's NDJSON answers (stream.c) --- */

/* Answers 200 as a stream and opens the service's side of it; NULL (the
 * connection closes) when either fails. */
stream_conn *stream_start(struct lws *wsi, const api_stream *s, const char *ip);
/* Answers 200 as a stream whose lines come from the game's holder (relay.c). */
stream_conn *stream_start_relayed(struct lws *wsi);
void stream_send(stream_conn *c, msg *m);
/* The answer ends once what is queued is written. */
void stream_end(stream_conn *c);
/* An empty line to each stream silent for a while (the clock timer). */
void stream_keepalive(double now);
int stream_writeable(stream_conn *c);
/* The connection closed: the service's side goes, and the stream. */
void stream_closed(stream_conn *c);

/* --- passing on to the game's holder (relay.c) --- */

#define RELAY_PROTOCOL "axio-relay"

/* Who a connection passed on by another server of the site is for, read
 * from its signed X-Axio-Relay header (relay_client). */
typedef struct {
    char instance[STORE_INSTANCE_LEN + 1]; /* the server that passed it on */
    char ip[48];                           /* the client's address */
    char session_hash[65];                 /* its session cookie's hash, or "" */
} relay_origin;

/* Whether a request for `method` `path` was passed on by a server of the
 * site: its header is there, signed with the site's key, and recent. */
bool relay_client(struct lws *wsi, const char *method, const char *path, relay_origin *out);
/* lws 4.1's client reads a close code newer than RFC 6455 (1012 moved,
 * 1013 retry) as a protocol error and reports 1002: between the site's
 * servers those travel as 4012 and 4013 (private use), and the relaying
 * server gives its client the code the holder meant. */
#define RELAY_CLOSE_SHIFT 3000
/* Passes a WebSocket on to the holder at address (HOST:PORT). */
void relay_ws_start(ws_conn *c, const char *address);
/* A whole message of the client's, for the holder. */
void relay_ws_forward(relay *r, const char *text, size_t len);
/* The client's connection closed. */
void relay_ws_detach(relay *r);
/* Passes a request on; its answer comes through http_relay_answer. */
void relay_http_start(http_req *h, struct lws *wsi, const char *address, const api_request *req);
/* The client's connection closed before the answer. */
void relay_http_abandon(relay *r);
/* The relay protocol's callback (our connections to holders). */
int relay_callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
                   size_t len);

/* --- the server (server.c) --- */

/* The addresses a friend can open to reach this server, best first (GET
 * /api/health "urls"): the --public-url; else this computer's network
 * addresses when listening on all of them; else the one it listens on
 * (the loopback URL for a loopback-only server). As printed at start. */
json_t *server_urls_json(void);
/* The normalized client address of a connection. */
void client_ip(struct lws *wsi, char *out, int outlen);
/* Logs a line to stderr unless --quiet. */
void server_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
