/*
 * relay.c - a connection or a request passed on to the server of the site
 * that holds its game (docs/server.md, "Several servers").
 *
 * On a site of several servers a game is held by one of them; a WebSocket
 * or an API request about it that reaches another is passed on. This
 * server opens a connection of its own to the holder, at the address the
 * game service gave (hooks.relay, API_RELAY), for the same path, with the
 * seat token, and with an X-Axio-Relay header that names this server, the
 * client's address and its session's hash, signed with the site's key
 * (HMAC-SHA256 over those, the method, the path and the time). Then it
 * relays whole messages both ways (a WebSocket), or the answer (a request).
 * The holder checks the signature (relay_client) and serves the client as
 * if it had connected there: its address's limits, its session, its view
 * of the game. A passed-on connection is never passed on again.
 *
 * A relay joins two lws connections: the client's (a ws_conn or an
 * http_req, on the server's protocol) and ours to the holder (`up`, on the
 * relay protocol). Each side holds a reference and the relay is freed when
 * both have let go: the client's side when its connection closes, ours at
 * LWS_CALLBACK_WSI_DESTROY. When the holder closes, the client is closed
 * with the holder's code (1012 for a game that moved: the client
 * reconnects); when the holder cannot be reached, the client is told
 * `moving` and comes back soon, by which time its game is held elsewhere
 * or its lease has run out. A request the holder answers with a stream
 * (the Bot API's game stream) is passed back line by line as the holder
 * writes them, and ends when the holder's ends or goes silent: the client
 * connects again.
 */
#include "transport.h"

#include <openssl/crypto.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define RELAY_SKEW_MS  30000              /* a signature is good this long */
#define RELAY_RX_MAX   (16 * 1024 * 1024) /* the largest message or answer passed back */
#define RELAY_ANSWER_S 30                 /* a request's answer comes within this */
#define RELAY_SILENT_S 20 /* a stream's next line (the holder's keep-alives come every 6 s) */

struct relay {
    int refs;       /* the client's side and ours (`up`) */
    bool ended;     /* the holder's side ended, and the client was told */
    struct lws *up; /* our connection to the holder, NULL once gone */
    bool up_gone;   /* our connection to the holder has gone (let_go_up) */
    ws_conn *ws;    /* a WebSocket passed on: the client's, until it closes */
    http_req *http; /* a request passed on: the client's, until answered */
    struct lws *http_wsi;
    stream_conn *down; /* the holder answered a stream: its lines go here */
    bool established;  /* the holder accepted the WebSocket */
    int close_code;    /* the holder's, when it closed */
    char header[640];  /* "x-axio-relay: ..." without the name */
    char protocol[160];
    char path[1100];
    /* messages to the holder (the client's), oldest first */
    msg **out;
    unsigned out_first, out_n, out_cap;
    /* a message (or an answer) from the holder, being assembled */
    char *rx;
    size_t rx_len, rx_cap;
    bool rx_overflow;
    /* a request's */
    char method[8];
    char bearer[160];
    char *body;
    size_t body_len;
    int status;
    char ctype[128];
    int retry_after_s;
};

/* --- the signature --- */

static long long wall_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The header's value for a request of `method` on `path` for a client. */
static void relay_header(char *out, size_t size, const char *method, const char *path,
                         const char *ip, const char *session_hash)
{
    char text[1400], mac[65];
    long long now = wall_ms();
    const char *session = session_hash[0] ? session_hash : "-";
    snprintf(text, sizeof text, "1 %s %lld %s %s %s %s", service_instance(srv.svc), now, ip,
             session, method, path);
    hmac_sha256_hex(service_site_key(srv.svc), text, mac);
    snprintf(out, size, "1 %s %lld %s %s %s", service_instance(srv.svc), now, ip, session, mac);
}

bool relay_client(struct lws *wsi, const char *method, const char *path, relay_origin *out)
{
    char header[640];
    memset(out, 0, sizeof *out);
    if (lws_hdr_custom_copy(wsi, header, sizeof header, "x-axio-relay:", 13) <= 0)
        return false;
    const char *key = service_site_key(srv.svc);
    char instance[STORE_INSTANCE_LEN + 1], ip[48], session[65], mac[65];
    long long at;
    if (!key[0] ||
        sscanf(header, "1 %16s %lld %47s %64s %64s", instance, &at, ip, session, mac) != 5)
        return false;
    long long now = wall_ms();
    if (at < now - RELAY_SKEW_MS || at > now + RELAY_SKEW_MS)
        return false;
    char text[1400], expected[65];
    snprintf(text, sizeof text, "1 %s %lld %s %s %s %s", instance, at, ip, session, method, path);
    hmac_sha256_hex(key, text, expected);
    if (strlen(mac) != 64 || CRYPTO_memcmp(mac, expected, 64) != 0)
        return false;
    snprintf(out->instance, sizeof out->instance, "%s", instance);
    ip_normalize(ip, out->ip, sizeof out->ip);
    snprintf(out->session_hash, sizeof out->session_hash, "%s",
             strcmp(session, "-") == 0 ? "" : session);
    return true;
}

/* --- the relay's life --- */

static void relay_unref(relay *r)
{
    if (--r->refs > 0)
        return;
    for (unsigned i = 0; i < r->out_n; i++)
        msg_unref(r->out[(r->out_first + i) % r->out_cap]);
    free(r->out);
    free(r->rx);
    if (r->body)
        OPENSSL_cleanse(r->body, r->body_len);
    free(r->body);
    OPENSSL_cleanse(r->bearer, sizeof r->bearer);
    OPENSSL_cleanse(r->protocol, sizeof r->protocol);
    free(r);
}

/* Closes our side to the holder (its WSI_DESTROY lets go of it). */
static void close_up(relay *r)
{
    if (r->up)
        lws_set_timeout(r->up, PENDING_TIMEOUT_KILLED_BY_PARENT, LWS_TO_KILL_ASYNC);
}

/* Splits "HOST:PORT" (a host in brackets for IPv6). */
static bool split_address(const char *address, char *host, size_t size, int *port)
{
    const char *colon = strrchr(address, ':');
    if (!colon || colon == address)
        return false;
    size_t n = (size_t)(colon - address);
    const char *h = address;
    if (h[0] == '[' && n >= 2 && h[n - 1] == ']') {
        h++;
        n -= 2;
    }
    if (n >= size)
        return false;
    memcpy(host, h, n);
    host[n] = 0;
    *port = atoi(colon + 1);
    return *port > 0 && *port < 65536;
}

/* Opens our connection to the holder; false when it cannot even start.
 * The caller holds a reference of its own meanwhile: a connection that
 * fails at once may end (WSI_DESTROY) before this returns. */
static bool connect_up(relay *r, const char *address, const char *method)
{
    char host[STORE_ADDRESS_MAX + 1];
    int port;
    if (!srv.ctx || !split_address(address, host, sizeof host, &port))
        return false;
    struct lws_client_connect_info i;
    memset(&i, 0, sizeof i);
    i.context = srv.ctx;
    i.address = host;
    i.port = port;
    i.path = r->path;
    i.host = host;
    i.origin = NULL;
    i.protocol = method ? NULL : r->protocol;
    i.method = method;
    i.local_protocol_name = RELAY_PROTOCOL;
    i.userdata = r;
    i.pwsi = &r->up;
    r->refs++;
    if (lws_client_connect_via_info(&i))
        return true;
    /* a failure after the connection was made came through WSI_DESTROY
     * already, which let go of our side */
    if (!r->up_gone) {
        r->up_gone = true;
        relay_unref(r);
    }
    r->up = NULL;
    return false;
}

/* --- a WebSocket passed on --- */

/* The client is told to come back soon (the holder cannot be reached). */
static void ws_retry(ws_conn *c)
{
    msg *m = msg_printf("{\"type\":\"moving\",\"retry_ms\":300}");
    if (m)
        ws_send(c, m);
    msg_unref(m);
    ws_close(c, CLOSE_RETRY);
}

void relay_ws_start(ws_conn *c, const char *address)
{
    relay *r = calloc(1, sizeof *r);
    if (!r) {
        ws_retry(c);
        return;
    }
    r->refs = 1; /* the client's */
    r->ws = c;
    c->relay = r;
    snprintf(r->path, sizeof r->path, "/ws/%s?seat=%d%s%s", c->game_id, c->seat,
             c->hint ? "&hint=1" : "", c->moves ? "&moves=1" : "");
    if (c->token[0])
        snprintf(r->protocol, sizeof r->protocol, "axio-protocol-1, axio-token.%s", c->token);
    else
        snprintf(r->protocol, sizeof r->protocol, "axio-protocol-1");
    OPENSSL_cleanse(c->token, sizeof c->token);
    char path_only[300];
    snprintf(path_only, sizeof path_only, "/ws/%s", c->game_id);
    relay_header(r->header, sizeof r->header, "GET", path_only, c->ip, c->session_hash);
    r->refs++;
    if (!connect_up(r, address, NULL) && !r->ended) {
        r->ended = true;
        ws_retry(c);
    }
    relay_unref(r);
}

/* A whole message of the client's, for the holder. */
void relay_ws_forward(relay *r, const char *text, size_t len)
{
    if (!r->up && r->established)
        return;
    if (r->out_n == r->out_cap) {
        unsigned cap = r->out_cap ? 2 * r->out_cap : 8;
        msg **ring = malloc(cap * sizeof *ring);
        if (!ring)
            return;
        for (unsigned i = 0; i < r->out_n; i++)
            ring[i] = r->out[(r->out_first + i) % r->out_cap];
        free(r->out);
        r->out = ring;
        r->out_cap = cap;
        r->out_first = 0;
    }
    msg *m = msg_copy(text, len);
    if (!m)
        return;
    r->out[(r->out_first + r->out_n++) % r->out_cap] = m;
    if (r->up && r->established)
        lws_callback_on_writable(r->up);
}

void relay_ws_detach(relay *r)
{
    r->ws = NULL;
    close_up(r);
    relay_unref(r);
}

/* --- a request passed on --- */

/* A query piece (name=value, decoded by lws) as it goes on the wire. */
static size_t encode_arg(const char *arg, char *out, size_t size)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)arg; *p && n + 4 < size; p++) {
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
            strchr("-._~=,", *p)) {
            out[n++] = (char)*p;
        } else {
            out[n++] = '%';
            out[n++] = hex[*p >> 4];
            out[n++] = hex[*p & 15];
        }
    }
    out[n] = 0;
    return n;
}

static const char moving_answer[] =
    "{\"error\":{\"code\":\"game_moving\",\"message\":\"the game is moving between the "
    "servers; try again in a moment\"}}";

/* Answers the client's request, and lets go of it. */
static void http_done_relay(relay *r, int status, const char *ctype, const char *body, size_t len)
{
    http_req *h = r->http;
    r->http = NULL;
    if (h) {
        h->relay = NULL;
        h->retry_after_s = r->retry_after_s;
        http_relay_answer(h, r->http_wsi, status, ctype, body, len);
        relay_unref(r);
    }
}

static void http_fail(relay *r)
{
    http_done_relay(r, 503, "application/json", moving_answer, sizeof moving_answer - 1);
}

void relay_http_start(http_req *h, struct lws *wsi, const char *address, const api_request *req)
{
    relay *r = calloc(1, sizeof *r);
    if (!r) {
        http_relay_answer(h, wsi, 503, "application/json", moving_answer, sizeof moving_answer - 1);
        return;
    }
    r->refs = 1;
    r->http = h;
    r->http_wsi = wsi;
    h->relay = r;
    size_t n = (size_t)snprintf(r->path, sizeof r->path, "/api%s", req->path);
    for (int i = 0; i < req->nargs && n + 2 < sizeof r->path; i++) {
        r->path[n++] = i ? '&' : '?';
        n += encode_arg(req->args[i], r->path + n, sizeof r->path - n);
    }
    snprintf(r->method, sizeof r->method, "%s",
             req->method == API_POST     ? "POST"
             : req->method == API_DELETE ? "DELETE"
                                         : "GET");
    if (req->bearer)
        snprintf(r->bearer, sizeof r->bearer, "%s", req->bearer);
    if (req->body_len) {
        r->body = malloc(req->body_len);
        if (r->body) {
            memcpy(r->body, req->body, req->body_len);
            r->body_len = req->body_len;
        }
    }
    char path_only[300];
    snprintf(path_only, sizeof path_only, "/api%s", req->path);
    relay_header(r->header, sizeof r->header, r->method, path_only, req->ip, req->session_hash);
    r->refs++;
    if (!connect_up(r, address, r->method))
        http_fail(r);
    relay_unref(r);
}

void relay_http_abandon(relay *r)
{
    r->http = NULL;
    r->down = NULL;
    close_up(r);
    relay_unref(r);
}

/* --- our connection to the holder --- */

static bool rx_append(relay *r, const void *in, size_t len)
{
    if (r->rx_len + len > RELAY_RX_MAX) {
        r->rx_overflow = true;
        return false;
    }
    if (r->rx_len + len > r->rx_cap) {
        size_t cap = r->rx_cap ? r->rx_cap : 4096;
        while (cap < r->rx_len + len)
            cap *= 2;
        char *grown = realloc(r->rx, cap);
        if (!grown)
            return false;
        r->rx = grown;
        r->rx_cap = cap;
    }
    memcpy(r->rx + r->rx_len, in, len);
    r->rx_len += len;
    return true;
}

static int append_headers(relay *r, unsigned char **p, unsigned char *end)
{
    char line[800];
    int n = snprintf(line, sizeof line, "x-axio-relay: %s\r\n", r->header);
    if (r->bearer[0])
        n += snprintf(line + n, sizeof line - (size_t)n, "authorization: Bearer %s\r\n", r->bearer);
    if (r->body_len)
        n += snprintf(line + n, sizeof line - (size_t)n,
                      "content-type: application/json\r\ncontent-length: %zu\r\n", r->body_len);
    if (n < 0 || (size_t)n >= sizeof line || end - *p < n)
        return -1;
    memcpy(*p, line, (size_t)n);
    *p += n;
    OPENSSL_cleanse(line, sizeof line);
    return 0;
}

/* The holder answers with a stream: so does this server, to the client. */
static int stream_down(relay *r, struct lws *wsi)
{
    r->down = stream_start_relayed(r->http_wsi);
    if (!r->down)
        return -1;
    r->http->stream = r->down;
    r->http->pending = false;
    lws_set_timeout(wsi, PENDING_TIMEOUT_HTTP_CONTENT, RELAY_SILENT_S);
    return 0;
}

/* A piece of the holder's stream: each whole line goes on (its empty
 * keep-alives not: this server's stream has its own). */
static int stream_lines(relay *r, struct lws *wsi, const char *in, size_t len)
{
    lws_set_timeout(wsi, PENDING_TIMEOUT_HTTP_CONTENT, RELAY_SILENT_S);
    if (!rx_append(r, in, len))
        return -1;
    size_t from = 0;
    for (size_t i = 0; i < r->rx_len; i++) {
        if (r->rx[i] != '\n')
            continue;
        if (i > from) {
            msg *m = msg_copy(r->rx + from, i - from);
            if (!m)
                return -1;
            stream_send(r->down, m);
            msg_unref(m);
        }
        from = i + 1;
    }
    memmove(r->rx, r->rx + from, r->rx_len - from);
    r->rx_len -= from;
    return 0;
}

static int write_out(relay *r, struct lws *wsi)
{
    while (r->out_n) {
        msg *m = r->out[r->out_first];
        if (lws_write(wsi, m->bytes + MSG_HEADROOM, m->len, LWS_WRITE_TEXT) < (int)m->len)
            return -1;
        r->out_first = (r->out_first + 1) % r->out_cap;
        r->out_n--;
        msg_unref(m);
        if (r->out_n && lws_send_pipe_choked(wsi)) {
            lws_callback_on_writable(wsi);
            break;
        }
    }
    return 0;
}

/* The holder closed (or could not be reached): the client follows. */
static void up_ended(relay *r, bool reached);

/* Our connection to the holder is going: the relay lets go of it at the
 * first of its last callbacks (lws may deliver more than one of them, and
 * later ones find no relay: its user pointer is cleared). */
static void let_go_up(relay *r, struct lws *wsi, bool reached)
{
    if (r->up_gone)
        return;
    r->up_gone = true;
    r->up = NULL;
    lws_set_wsi_user(wsi, NULL);
    up_ended(r, reached);
    relay_unref(r);
}

static void up_ended(relay *r, bool reached)
{
    if (r->ended)
        return;
    r->ended = true;
    if (r->ws) {
        ws_conn *c = r->ws;
        if (!reached)
            ws_retry(c);
        else
            ws_close(c, r->close_code ? r->close_code : CLOSE_MOVED);
    }
    if (r->down)
        stream_end(r->down);
    else if (r->http)
        http_fail(r);
}

/* The holder's answer to a request began: its status and headers; a
 * stream is passed on as one. */
static int answer_began(relay *r, struct lws *wsi)
{
    r->status = (int)lws_http_client_http_response(wsi);
    if (lws_hdr_copy(wsi, r->ctype, sizeof r->ctype, WSI_TOKEN_HTTP_CONTENT_TYPE) <= 0)
        r->ctype[0] = 0;
    char retry[16];
    if (lws_hdr_copy(wsi, retry, sizeof retry, WSI_TOKEN_HTTP_RETRY_AFTER) > 0)
        r->retry_after_s = atoi(retry);
    lws_set_timeout(wsi, PENDING_TIMEOUT_HTTP_CONTENT, RELAY_ANSWER_S);
    if (r->http && r->status == 200 && strncmp(r->ctype, "application/x-ndjson", 20) == 0)
        return stream_down(r, wsi);
    return 0;
}

/* A piece of the holder's WebSocket message: a whole one goes to the client. */
static int message_piece(relay *r, struct lws *wsi, const void *in, size_t len)
{
    if (!r->rx_overflow)
        rx_append(r, in, len);
    if (lws_is_final_fragment(wsi) && lws_remaining_packet_payload(wsi) == 0) {
        if (r->ws && !r->rx_overflow) {
            msg *m = msg_copy(r->rx ? r->rx : "", r->rx_len);
            if (m)
                ws_send(r->ws, m);
            msg_unref(m);
        }
        r->rx_len = 0;
        r->rx_overflow = false;
    }
    return 0;
}

/* The code of the holder's close frame, as the holder meant it. */
static int holder_close_code(const unsigned char *frame)
{
    int code = (frame[0] << 8) | frame[1];
    if (code >= 1012 + RELAY_CLOSE_SHIFT && code <= 1014 + RELAY_CLOSE_SHIFT)
        code -= RELAY_CLOSE_SHIFT;
    return code;
}

int relay_callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
                   size_t len)
{
    relay *r = user;
    switch (reason) {
    case LWS_CALLBACK_CLIENT_APPEND_HANDSHAKE_HEADER:
        if (!r || append_headers(r, (unsigned char **)in, (unsigned char *)in + len))
            return -1;
        if (r->body_len) {
            lws_client_http_body_pending(wsi, 1);
            lws_callback_on_writable(wsi);
        }
        return 0;
    case LWS_CALLBACK_CLIENT_HTTP_WRITEABLE:
        if (!r || !r->body_len)
            return 0;
        if (lws_write(wsi, (unsigned char *)r->body, r->body_len, LWS_WRITE_HTTP_FINAL) !=
            (int)r->body_len)
            return -1;
        lws_client_http_body_pending(wsi, 0);
        lws_set_timeout(wsi, PENDING_TIMEOUT_HTTP_CONTENT, RELAY_ANSWER_S);
        return 0;
    case LWS_CALLBACK_ESTABLISHED_CLIENT_HTTP: return r ? answer_began(r, wsi) : 0;
    case LWS_CALLBACK_RECEIVE_CLIENT_HTTP: {
        char buffer[4096 + LWS_PRE], *px = buffer + LWS_PRE;
        int lenx = sizeof buffer - LWS_PRE;
        return lws_http_client_read(wsi, &px, &lenx) < 0 ? -1 : 0;
    }
    case LWS_CALLBACK_RECEIVE_CLIENT_HTTP_READ:
        if (r && r->down)
            return stream_lines(r, wsi, in, len);
        if (r && !rx_append(r, in, len))
            return -1;
        return 0;
    case LWS_CALLBACK_COMPLETED_CLIENT_HTTP:
        if (r && r->http && !r->down && !r->rx_overflow) {
            r->ended = true;
            if (!r->status) /* no answer read: the holder went away mid-request */
                http_fail(r);
            else
                http_done_relay(r, r->status, r->ctype[0] ? r->ctype : NULL, r->rx ? r->rx : "",
                                r->rx_len);
        }
        if (r)
            let_go_up(r, wsi, true);
        return -1; /* one request a connection */
    case LWS_CALLBACK_CLIENT_ESTABLISHED:
        if (r) {
            r->established = true;
            if (r->out_n)
                lws_callback_on_writable(wsi);
        }
        return 0;
    case LWS_CALLBACK_CLIENT_WRITEABLE: return r ? write_out(r, wsi) : -1;
    case LWS_CALLBACK_CLIENT_RECEIVE: return r ? message_piece(r, wsi, in, len) : -1;
    case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
        if (r && len >= 2)
            r->close_code = holder_close_code(in);
        return 0;
    case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
        if (r)
            let_go_up(r, wsi, false);
        return 0;
    case LWS_CALLBACK_CLIENT_CLOSED:
    case LWS_CALLBACK_CLOSED_CLIENT_HTTP:
    case LWS_CALLBACK_WSI_DESTROY:
        if (r)
            let_go_up(r, wsi, r->established);
        return 0;
    default: break;
    }
    return 0;
}
