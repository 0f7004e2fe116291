/*
 * ws.c - WebSocket connections on /ws/{id}: the transport's half of play.
 *
 * A connection's messages are assembled from fragments up to MSG_MAX and
 * rate-limited here (too_large, binary frames and rate_limited are answered
 * here too), then handed whole to the game service (service_message); the
 * service answers through hooks.send, which puts a reference to the shared
 * message on the connection's queue. The queue is written from the
 * writeable callback as long as the socket takes it; a reader that falls
 * OUTQ_MAX bytes or OUTQ_MAX_AGE_S seconds behind is dropped (each socket's
 * kernel buffer is kept small, server.c, so that what it holds is ours to
 * count). The seat token comes from the offered
 * subprotocols (`axio-token.TOKEN`, which proxies do not log) or, for older
 * clients, the URL's ?token=; the session cookie only as its hash.
 *
 * A client must mask every frame (RFC 6455 5.1); libwebsockets 4.1 reads
 * an unmasked one as if it were masked and says nothing of it. So the
 * transport reads the frame headers itself, from the bytes lws receives:
 * lws reads its sockets with recv(), which this file defines (the
 * executable's definition comes before the C library's; it calls
 * recvfrom). On the loop's thread only, the bytes of an upgraded
 * connection's socket pass a small header reader (frame_reader) that skips
 * payloads; an unmasked frame closes its connection with 1002 before lws
 * hands it on. The reading starts at the upgrade: a client that sends
 * frames before the server's handshake answers (which RFC 6455 forbids)
 * may be read out of step and closed.
 */
#include "transport.h"

#include <openssl/crypto.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>

/* --- frame headers --- */

/* The connections whose frames are read, by socket: the loop thread's own
 * (other threads' recv, e.g. libpq's, see an empty table). */
static _Thread_local ws_conn **watched;
static _Thread_local int nwatched;

static void frames_read(frame_reader *f, const unsigned char *p, size_t n)
{
    while (n && !f->unmasked) {
        if (f->payload_left) {
            size_t skip = f->payload_left < n ? (size_t)f->payload_left : n;
            p += skip;
            n -= skip;
            f->payload_left -= skip;
            continue;
        }
        f->head[f->have++] = *p++;
        n--;
        if (f->have < 2)
            continue;
        if (!(f->head[1] & 0x80)) {
            f->unmasked = true;
            return;
        }
        unsigned len7 = f->head[1] & 0x7f;
        unsigned extra = len7 == 126 ? 2 : len7 == 127 ? 8 : 0;
        if (f->have < 2 + extra + 4) /* the length, then the mask */
            continue;
        uint64_t len = len7 < 126 ? len7 : 0;
        for (unsigned i = 0; i < extra; i++)
            len = len << 8 | f->head[2 + i];
        f->payload_left = len;
        f->have = 0;
    }
}

ssize_t recv(int fd, void *buf, size_t len, int flags)
{
    ssize_t n = recvfrom(fd, buf, len, flags, NULL, NULL);
    if (n > 0 && !(flags & MSG_PEEK) && fd >= 0 && fd < nwatched && watched[fd]) {
        ws_conn *c = watched[fd];
        frames_read(&c->frames, buf, (size_t)n);
        if (c->frames.unmasked)
            lws_callback_on_writable(c->wsi); /* closes it, if no message does first */
    }
    return n;
}

static void watch_frames(ws_conn *c)
{
    int fd = lws_get_socket_fd(c->wsi);
    if (fd < 0)
        return;
    if (fd >= nwatched) {
        int cap = fd < 2 * nwatched ? 2 * nwatched : fd + 64;
        ws_conn **grown = realloc(watched, (size_t)cap * sizeof *grown);
        if (!grown)
            return;
        memset(grown + nwatched, 0, (size_t)(cap - nwatched) * sizeof *grown);
        watched = grown;
        nwatched = cap;
    }
    watched[fd] = c;
    c->fd = fd;
    c->fd_watched = true;
}

static void unwatch_frames(ws_conn *c)
{
    if (c->fd_watched && c->fd < nwatched && watched[c->fd] == c)
        watched[c->fd] = NULL;
    c->fd_watched = false;
}

void ws_socket_accepted(int fd)
{
    if (fd >= 0 && fd < nwatched)
        watched[fd] = NULL;
}

/* Closes a connection that broke the protocol (an unmasked frame), from
 * the receive callback: lws sends the close frame. */
static int protocol_error(ws_conn *c)
{
    c->closing = true;
    lws_close_reason(c->wsi, LWS_CLOSE_STATUS_PROTOCOL_ERR,
                     (unsigned char *)"frames must be masked", 21);
    return -1;
}

/* Ends a connection from the writeable callback with a close frame written
 * as it is: lws 4.1 sends none of its own there (a writeable callback that
 * ends a connection leaves its socket for unusable). */
static int close_with(ws_conn *c, int code)
{
    if (c->relayed && code >= 1012 && code <= 1014)
        code += RELAY_CLOSE_SHIFT;
    unsigned char frame[LWS_PRE + 4], *p = frame + LWS_PRE;
    p[0] = 0x88; /* FIN, close */
    p[1] = 2;
    p[2] = (unsigned char)(code >> 8);
    p[3] = (unsigned char)code;
    lws_write(c->wsi, p, 4, LWS_WRITE_HTTP); /* raw: the frame is complete */
    return -1;
}

/* --- the outgoing queue --- */

/* The connections with unsent messages, for ws_check_queues: a fast reader
 * is on it only between a message and its writing. */
static ws_conn *backlog;

static void backlog_add(ws_conn *c)
{
    if (c->backlogged)
        return;
    c->backlogged = true;
    c->back_prev = NULL;
    c->back_next = backlog;
    if (backlog)
        backlog->back_prev = c;
    backlog = c;
}

static void backlog_remove(ws_conn *c)
{
    if (!c->backlogged)
        return;
    c->backlogged = false;
    if (c->back_prev)
        c->back_prev->back_next = c->back_next;
    else
        backlog = c->back_next;
    if (c->back_next)
        c->back_next->back_prev = c->back_prev;
    c->back_prev = c->back_next = NULL;
}

/* No close frame: the socket would not take it. Reset rather than closed,
 * so that the kernel frees what its buffer holds at once instead of trying
 * to deliver it to a reader that does not read for minutes. */
static void drop_slow_reader(ws_conn *c)
{
    struct linger reset = {.l_onoff = 1, .l_linger = 0};
    int fd = lws_get_socket_fd(c->wsi);
    if (fd >= 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &reset, sizeof reset);
    c->closing = true;
    lws_set_timeout(c->wsi, PENDING_TIMEOUT_CLOSE_SEND, LWS_TO_KILL_ASYNC);
}

void ws_check_queues(double now)
{
    for (ws_conn *c = backlog, *next; c; c = next) {
        next = c->back_next;
        if (!c->closing && outq_behind(&c->out, now))
            drop_slow_reader(c);
    }
}

/* Queues a reference to m (the caller keeps its own). A reader too far
 * behind, in bytes or in time, is dropped instead. */
static void queue_msg(ws_conn *c, msg *m)
{
    if (!m || c->closing)
        return;
    if (!outq_push(&c->out, m, mono_now())) {
        drop_slow_reader(c);
        return;
    }
    backlog_add(c);
    lws_callback_on_writable(c->wsi);
}

/* hooks.send */
void ws_send(void *conn, msg *m) { queue_msg(conn, m); }

/* hooks.relay: the game's holder serves this connection from now on. */
void ws_relay(void *conn, const char *address)
{
    ws_conn *c = conn;
    if (!c->relay && !c->closing)
        relay_ws_start(c, address);
}

/* hooks.close: the connection ends once its queue is written. */
void ws_close(void *conn, int code)
{
    ws_conn *c = conn;
    c->close_after = true;
    c->close_code = code;
    lws_callback_on_writable(c->wsi);
}

/* An error of the transport's own (the service never sees the message). */
static void send_error(ws_conn *c, const char *code, const char *message)
{
    msg *m = msg_printf("{\"type\":\"error\",\"code\":\"%s\",\"message\":\"%s\"}", code, message);
    queue_msg(c, m);
    msg_unref(m);
}

/* Sends queued messages while the socket takes them (several per callback
 * saves a trip round the event loop per message). */
int ws_writeable(ws_conn *c)
{
    if (c->frames.unmasked)
        return close_with(c, LWS_CLOSE_STATUS_PROTOCOL_ERR);
    for (msg *m; (m = outq_first(&c->out));) {
        if (lws_write(c->wsi, m->bytes + MSG_HEADROOM, m->len, LWS_WRITE_TEXT) < (int)m->len)
            return -1;
        outq_pop(&c->out);
        if (c->out.n && lws_send_pipe_choked(c->wsi)) {
            lws_callback_on_writable(c->wsi);
            return 0;
        }
    }
    backlog_remove(c);
    if (c->closing || c->close_after)
        return close_with(c, c->close_code ? c->close_code : LWS_CLOSE_STATUS_POLICY_VIOLATION);
    return 0;
}

static void free_queue(ws_conn *c)
{
    backlog_remove(c);
    outq_free(&c->out);
}

/* --- messages in --- */

static void complete_message(ws_conn *c)
{
    if (!msg_bucket_take(&c->rate))
        send_error(c, "rate_limited", "too many messages; slow down");
    else if (c->rx_overflow)
        send_error(c, "too_large", "a message may have at most 4096 bytes");
    else if (lws_frame_is_binary(c->wsi))
        send_error(c, "bad_message", "messages are JSON text, not binary");
    else if (c->relay)
        relay_ws_forward(c->relay, c->rx, c->rx_len);
    else if (c->v)
        service_message(srv.svc, c->v, c->rx, c->rx_len);
    c->rx_len = c->rx_total = 0;
    c->rx_overflow = false;
}

int ws_receive(ws_conn *c, const void *in, size_t len)
{
    if (c->frames.unmasked)
        return protocol_error(c);
    if ((!c->v && !c->relay) || c->closing || c->close_after)
        return 0;
    c->rx_total += len;
    if (c->rx_total > MSG_DROP_MAX)
        return -1;
    if (c->rx_len + len > MSG_MAX)
        c->rx_overflow = true;
    else {
        memcpy(c->rx + c->rx_len, in, len);
        c->rx_len += len;
    }
    if (lws_is_final_fragment(c->wsi) && lws_remaining_packet_payload(c->wsi) == 0)
        complete_message(c);
    return 0;
}

/* --- opening --- */

/* A URL argument: 1 and its value in out, 0 when absent, -1 when present
 * but longer than outlen. */
static int url_arg(struct lws *wsi, const char *name, char *out, size_t outlen)
{
    char frag[4096];
    size_t nlen = strlen(name);
    for (int i = 0; i < 64; i++) {
        int len = lws_hdr_fragment_length(wsi, WSI_TOKEN_HTTP_URI_ARGS, i);
        if (len <= 0 || len >= (int)sizeof frag ||
            lws_hdr_copy_fragment(wsi, frag, sizeof frag, WSI_TOKEN_HTTP_URI_ARGS, i) < 0)
            continue;
        if (strncmp(frag, name, nlen) != 0 || frag[nlen] != '=')
            continue;
        if (strlen(frag + nlen + 1) >= outlen)
            return -1;
        strcpy(out, frag + nlen + 1);
        return 1;
    }
    return 0;
}

static bool url_flag(struct lws *wsi, const char *name)
{
    char v[8];
    return url_arg(wsi, name, v, sizeof v) == 1 && (strcmp(v, "1") == 0 || strcmp(v, "true") == 0);
}

/* The seat token of the Sec-WebSocket-Protocol header: the web client
 * offers "axio-protocol-1, axio-token.TOKEN" (a header, which proxies do
 * not log, unlike the URL's ?token=). 1 with the token, 0 without one, -1
 * when one is there but too long. */
static int protocol_token(struct lws *wsi, char *out, size_t outlen)
{
    char header[512];
    if (lws_hdr_copy(wsi, header, sizeof header, WSI_TOKEN_PROTOCOL) <= 0)
        return lws_hdr_total_length(wsi, WSI_TOKEN_PROTOCOL) > 0 ? -1 : 0;
    static const char prefix[] = "axio-token.";
    for (char *p = header; *p;) {
        p += strspn(p, " \t,");
        size_t n = strcspn(p, " \t,");
        if (n > sizeof prefix - 1 && strncmp(p, prefix, sizeof prefix - 1) == 0) {
            n -= sizeof prefix - 1;
            if (n >= outlen)
                return -1;
            memcpy(out, p + sizeof prefix - 1, n);
            out[n] = 0;
            return 1;
        }
        p += n;
    }
    return 0;
}

int ws_open(ws_conn *c, struct lws *wsi)
{
    c->kind = CONN_WS;
    c->wsi = wsi;
    msg_bucket_init(&c->rate);
    char uri[256] = "", token[128];
    lws_hdr_copy(wsi, uri, sizeof uri, WSI_TOKEN_GET_URI);
    /* passed on by another server of the site: the client's own address
     * and session, as that server saw them */
    relay_origin from;
    bool relayed = relay_client(wsi, "GET", uri, &from);
    c->relayed = relayed;
    if (relayed) {
        snprintf(c->ip, sizeof c->ip, "%s", from.ip);
        snprintf(c->session_hash, sizeof c->session_hash, "%s", from.session_hash);
    } else {
        client_ip(wsi, c->ip, sizeof c->ip);
        http_session_hash(wsi, c->session_hash);
    }
    int has_token = protocol_token(wsi, token, sizeof token);
    if (has_token == 0)
        has_token = url_arg(wsi, "token", token, sizeof token);
    const char *game_id = strncmp(uri, "/ws/", 4) == 0 ? uri + 4 : "";
    size_t id_len = strlen(game_id) <= GAME_ID_LEN ? strlen(game_id) : 0;
    memcpy(c->game_id, game_id, id_len);
    c->game_id[id_len] = '\0';
    /* kept for a relay (hooks.relay during service_open), wiped after */
    snprintf(c->token, sizeof c->token, "%s", has_token > 0 ? token : "");
    c->hint = url_flag(wsi, "hint");
    c->moves = url_flag(wsi, "moves");
    char seat[8];
    c->seat =
        url_arg(wsi, "seat", seat, sizeof seat) == 1 && seat[0] >= '0' && seat[0] <= '3' && !seat[1]
            ? seat[0] - '0'
            : -1;
    viewer_args a = {
        .game_id = game_id,
        .token = has_token > 0 ? token : NULL,
        .token_too_long = has_token < 0,
        .session_hash = c->session_hash,
        .ip = c->ip,
        .hint = c->hint,
        .moves = c->moves,
        .seat = c->seat,
        .conn = c,
        .relayed_by = relayed ? from.instance : NULL,
    };
    c->v = service_open(srv.svc, &a);
    OPENSSL_cleanse(token, sizeof token);
    OPENSSL_cleanse(c->token, sizeof c->token);
    if (!c->v)
        return -1;
    watch_frames(c);
    return 0;
}

void ws_destroyed(ws_conn *c)
{
    unwatch_frames(c);
    backlog_remove(c);
}

void ws_closed(ws_conn *c)
{
    unwatch_frames(c);
    if (c->relay)
        relay_ws_detach(c->relay);
    c->relay = NULL;
    free_queue(c);
    if (c->v && srv.svc)
        service_close(srv.svc, c->v);
    c->v = NULL;
}
