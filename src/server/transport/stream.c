/*
 * stream.c - an HTTP answer that goes on: the Bot API's NDJSON streams
 * (docs/bot-api.md), a bot's events and a game's messages for its seat.
 *
 * A request the game service answers API_STREAM stays open: the headers
 * go out at once (200, application/x-ndjson, chunked, nginx told not to
 * buffer), then each message the service hands this connection
 * (hooks.send) is written as one line, in one HTTP chunk, from a queue
 * bounded like a WebSocket's (OUTQ_MAX bytes, OUTQ_MAX_AGE_S: a reader
 * that far behind is dropped). A stream silent for KEEPALIVE_S gets an
 * empty line, so that a client (and every proxy between) knows it lives.
 * hooks.close ends the answer with the last chunk once the queue is
 * written; the connection then closes. A stream of a game held by another
 * server of the site is that server's, passed on line by line (relay.c):
 * the service has no side of it here.
 */
#include "transport.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KEEPALIVE_S 6.0

struct stream_conn {
    int kind; /* CONN_STREAM: hooks find what a connection is by it */
    struct lws *wsi;
    api_stream s;
    void *handle; /* the service's, until the connection closes */
    queued *outq;
    unsigned out_cap, out_first, out_n;
    size_t out_bytes;
    bool ending; /* hooks.close: the last chunk goes after the queue */
    bool dropped;
    double last_line;                /* mono time of the last line queued */
    struct stream_conn *prev, *next; /* every open stream (keep-alives) */
};

static stream_conn *streams;

/* The answer's headers and the stream's place on the list; NULL if the
 * headers cannot be written. */
static stream_conn *stream_begin(struct lws *wsi)
{
    unsigned char hdr[LWS_PRE + 1024], *start = hdr + LWS_PRE, *p = start,
                                       *end = hdr + sizeof hdr - 1;
    stream_conn *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->kind = CONN_STREAM;
    c->wsi = wsi;
    static const char chunked[] = "chunked", no[] = "no", no_store[] = "no-store";
    if (lws_add_http_common_headers(wsi, 200, "application/x-ndjson", LWS_ILLEGAL_HTTP_CONTENT_LEN,
                                    &p, end) ||
        lws_add_http_header_by_name(wsi, (const unsigned char *)"transfer-encoding:",
                                    (const unsigned char *)chunked, sizeof chunked - 1, &p, end) ||
        lws_add_http_header_by_name(wsi, (const unsigned char *)"x-accel-buffering:",
                                    (const unsigned char *)no, sizeof no - 1, &p, end) ||
        lws_add_http_header_by_token(wsi, WSI_TOKEN_HTTP_CACHE_CONTROL,
                                     (const unsigned char *)no_store, sizeof no_store - 1, &p,
                                     end) ||
        lws_finalize_write_http_header(wsi, start, &p, end)) {
        free(c);
        return NULL;
    }
    lws_set_timeout(wsi, NO_PENDING_TIMEOUT, 0); /* it lasts as long as the game or the bot */
    c->last_line = mono_now();
    c->next = streams;
    if (streams)
        streams->prev = c;
    streams = c;
    return c;
}

stream_conn *stream_start(struct lws *wsi, const api_stream *s, const char *ip)
{
    stream_conn *c = stream_begin(wsi);
    if (!c)
        return NULL;
    c->s = *s;
    c->handle = service_stream_open(srv.svc, s, ip, c);
    if (!c->handle) {
        stream_closed(c);
        return NULL;
    }
    return c;
}

stream_conn *stream_start_relayed(struct lws *wsi) { return stream_begin(wsi); }

static bool queue_grow(stream_conn *c)
{
    unsigned cap = c->out_cap ? 2 * c->out_cap : 8;
    queued *ring = malloc(cap * sizeof *ring);
    if (!ring)
        return false;
    for (unsigned i = 0; i < c->out_n; i++)
        ring[i] = c->outq[(c->out_first + i) % c->out_cap];
    free(c->outq);
    c->outq = ring;
    c->out_cap = cap;
    c->out_first = 0;
    return true;
}

void stream_send(stream_conn *c, msg *m)
{
    if (!m || c->ending || c->dropped)
        return;
    double now = mono_now();
    if (c->out_bytes + m->len > OUTQ_MAX ||
        (c->out_n && now - c->outq[c->out_first].at > OUTQ_MAX_AGE_S) ||
        (c->out_n == c->out_cap && !queue_grow(c))) {
        c->dropped = true; /* a reader this far behind reconnects */
        lws_set_timeout(c->wsi, PENDING_TIMEOUT_CLOSE_SEND, LWS_TO_KILL_ASYNC);
        return;
    }
    c->outq[(c->out_first + c->out_n++) % c->out_cap] = (queued){msg_ref(m), now};
    c->out_bytes += m->len;
    c->last_line = now;
    lws_callback_on_writable(c->wsi);
}

void stream_keepalive(double now)
{
    msg *empty = NULL;
    for (stream_conn *c = streams; c; c = c->next)
        if (now - c->last_line >= KEEPALIVE_S && (empty || (empty = msg_copy("", 0))))
            stream_send(c, empty);
    msg_unref(empty);
}

void stream_end(stream_conn *c)
{
    c->ending = true;
    lws_callback_on_writable(c->wsi);
}

/* One line as one chunk: its length in hex, the text and a newline. */
static int write_line(stream_conn *c, const msg *m)
{
    size_t len = m->len + 1;
    unsigned char *buf = malloc(LWS_PRE + len + 32);
    if (!buf)
        return -1;
    unsigned char *p = buf + LWS_PRE;
    int head = snprintf((char *)p, 20, "%zx\r\n", len);
    memcpy(p + head, m->bytes + MSG_HEADROOM, m->len);
    memcpy(p + head + m->len, "\n\r\n", 3);
    size_t n = (size_t)head + m->len + 3;
    int rc = lws_write(c->wsi, p, n, LWS_WRITE_HTTP) == (int)n ? 0 : -1;
    free(buf);
    return rc;
}

int stream_writeable(stream_conn *c)
{
    if (c->dropped)
        return -1;
    while (c->out_n) {
        msg *m = c->outq[c->out_first].m;
        if (write_line(c, m))
            return -1;
        c->out_first = (c->out_first + 1) % c->out_cap;
        c->out_n--;
        c->out_bytes -= m->len;
        msg_unref(m);
        if (c->out_n && lws_send_pipe_choked(c->wsi)) {
            lws_callback_on_writable(c->wsi);
            return 0;
        }
    }
    if (!c->ending)
        return 0;
    unsigned char last[LWS_PRE + 8];
    memcpy(last + LWS_PRE, "0\r\n\r\n", 5);
    lws_write(c->wsi, last + LWS_PRE, 5, LWS_WRITE_HTTP_FINAL);
    return -1; /* the answer is complete: the connection closes */
}

void stream_closed(stream_conn *c)
{
    if (!c)
        return;
    if (c->prev)
        c->prev->next = c->next;
    else
        streams = c->next;
    if (c->next)
        c->next->prev = c->prev;
    if (c->handle)
        service_stream_close(srv.svc, &c->s, c->handle);
    for (unsigned i = 0; i < c->out_n; i++)
        msg_unref(c->outq[(c->out_first + i) % c->out_cap].m);
    free(c->outq);
    free(c);
}
