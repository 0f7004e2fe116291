/*
 * bot_http.c - the Bot API over HTTP with libcurl (bot_http.h).
 *
 * One multi handle holds every transfer: the streams (GETs that last) and
 * the requests (POSTs). libcurl's write callback only collects bytes; after
 * each curl_multi_perform the complete lines of the streams and the finished
 * transfers are handed to the caller, outside libcurl, which does not allow
 * adding or removing transfers from inside its callbacks. A transfer the
 * caller closes while lines are being handed over is only marked, and freed
 * once the handing over is done.
 *
 * A request answered 429 is put back in the queue with the whole client
 * held until its Retry-After has passed (5 s without one), unless the 429
 * says the bot may play no more games now (`bot_games`, `bot_busy`): that
 * is an answer for the caller.
 */
#include "bot_http.h"

#include "cli.h"

#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_LINE       (4 << 20) /* a stream line (a state) longer than this ends it */
#define MAX_BODY       (1 << 20)
#define CONNECT_S      10L
#define REQUEST_S      30L
#define DEFAULT_HOLD_S 5.0
#define MAX_HOLD_S     600.0
#define MAX_EXTRA_FDS  64

typedef struct transfer {
    struct transfer *next;
    bot_http *h;
    CURL *easy;
    struct curl_slist *headers;
    bool stream, running, gone; /* gone: closed or ended, to be freed */
    int kind;
    char key[96];
    char *path;
    char *body; /* a request's JSON */
    http_line_fn on_line;
    http_done_fn on_done;
    char *buf; /* bytes received and not yet handed over */
    size_t len, cap;
    bool overflow;
    double opened, last_byte;
    double retry_after;
    int retries;       /* a request: sent again this often more after a failure */
    int failures;      /* a request's failed attempts */
    double not_before; /* a request waiting to be sent again */
    char errbuf[CURL_ERROR_SIZE];
} transfer;

struct bot_http {
    CURLM *multi;
    char *base, *auth, *agent;
    void *ctx;
    transfer *list;    /* every transfer, running or queued */
    double hold_until; /* no request starts before (429) */
};

struct http_stream {
    transfer t;
};

double jittered(double seconds, double cap)
{
    double s = seconds < cap ? seconds : cap;
    return s * (0.5 + 0.5 * ((double)rand() / RAND_MAX));
}

static void result_fill(http_result *r, long status, const char *error, transfer *t)
{
    *r = (http_result){.status = status, .error = error, .retry_after = t->retry_after};
    if (t->len) {
        json_error_t jerr;
        r->json = json_loadb(t->buf, t->len, 0, &jerr);
        json_t *e = json_object_get(r->json, "error");
        r->code = json_string_value(json_object_get(e, "code"));
        r->reason = json_string_value(json_object_get(e, "reason"));
    }
}

static bool append(transfer *t, const char *data, size_t n)
{
    size_t limit = t->stream ? MAX_LINE : MAX_BODY;
    if (t->len + n > limit)
        return false;
    if (t->len + n > t->cap) {
        size_t cap = t->cap ? t->cap : 4096;
        while (cap < t->len + n)
            cap *= 2;
        char *p = realloc(t->buf, cap);
        if (!p)
            return false;
        t->buf = p;
        t->cap = cap;
    }
    memcpy(t->buf + t->len, data, n);
    t->len += n;
    return true;
}

static long status_of(const transfer *t)
{
    long status = 0;
    curl_easy_getinfo(t->easy, CURLINFO_RESPONSE_CODE, &status);
    return status;
}

static size_t on_write(char *data, size_t size, size_t nmemb, void *arg)
{
    transfer *t = arg;
    size_t n = size * nmemb;
    t->last_byte = now_seconds();
    if (!append(t, data, n)) {
        t->overflow = true;
        return 0; /* ends the transfer: CURLE_WRITE_ERROR */
    }
    return n;
}

static size_t on_header(char *data, size_t size, size_t nmemb, void *arg)
{
    transfer *t = arg;
    size_t n = size * nmemb;
    t->last_byte = now_seconds();
    if (n > 5 && strncmp(data, "HTTP/", 5) == 0) {
        t->retry_after = -1; /* a new answer (after a redirect, or 100 Continue) */
    } else if (n > 12 && strncasecmp(data, "Retry-After:", 12) == 0) {
        char text[64];
        size_t len = n - 12 < sizeof text - 1 ? n - 12 : sizeof text - 1;
        memcpy(text, data + 12, len);
        text[len] = 0;
        char *end;
        double s = strtod(text, &end);
        t->retry_after = end != text && s >= 0 ? (s > MAX_HOLD_S ? MAX_HOLD_S : s) : -1;
    }
    return n;
}

static void add_header(transfer *t, const char *line)
{
    struct curl_slist *l = curl_slist_append(t->headers, line);
    if (l)
        t->headers = l;
}

/* Makes the easy handle of a transfer and adds it to the multi handle. */
static bool start(bot_http *h, transfer *t)
{
    size_t n = strlen(h->base) + strlen(t->path) + 1;
    char *url = malloc(n);
    if (!url)
        return false;
    snprintf(url, n, "%s%s", h->base, t->path);
    t->easy = curl_easy_init();
    if (!t->easy) {
        free(url);
        return false;
    }
    t->len = 0;
    t->overflow = false;
    t->retry_after = -1;
    t->errbuf[0] = 0;
    curl_slist_free_all(t->headers);
    t->headers = NULL;
    add_header(t, h->auth);
    add_header(t, t->stream ? "Accept: application/x-ndjson" : "Accept: application/json");
    CURL *e = t->easy;
    curl_easy_setopt(e, CURLOPT_URL, url);
    curl_easy_setopt(e, CURLOPT_USERAGENT, h->agent);
    curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(e, CURLOPT_TCP_KEEPALIVE, 1L);
    curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT, CONNECT_S);
    curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, on_write);
    curl_easy_setopt(e, CURLOPT_WRITEDATA, t);
    curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(e, CURLOPT_HEADERDATA, t);
    curl_easy_setopt(e, CURLOPT_ERRORBUFFER, t->errbuf);
    curl_easy_setopt(e, CURLOPT_PRIVATE, t);
    if (!t->stream) {
        add_header(t, "Content-Type: application/json");
        curl_easy_setopt(e, CURLOPT_POST, 1L);
        curl_easy_setopt(e, CURLOPT_POSTFIELDS, t->body ? t->body : "");
        curl_easy_setopt(e, CURLOPT_TIMEOUT, REQUEST_S);
    }
    curl_easy_setopt(e, CURLOPT_HTTPHEADER, t->headers);
    free(url); /* libcurl keeps its own copy */
    t->opened = t->last_byte = now_seconds();
    if (curl_multi_add_handle(h->multi, e) != CURLM_OK) {
        curl_easy_cleanup(e);
        t->easy = NULL;
        return false;
    }
    t->running = true;
    return true;
}

static void stop(bot_http *h, transfer *t)
{
    if (t->easy) {
        curl_multi_remove_handle(h->multi, t->easy);
        curl_easy_cleanup(t->easy);
        t->easy = NULL;
    }
    t->running = false;
}

static void transfer_free(transfer *t)
{
    curl_slist_free_all(t->headers);
    free(t->path);
    free(t->body);
    free(t->buf);
    free(t);
}

static transfer *transfer_new(bot_http *h, bool stream, size_t size, const char *path, int kind,
                              const char *key)
{
    transfer *t = calloc(1, size);
    if (!t || !(t->path = strdup(path))) {
        free(t);
        return NULL;
    }
    t->h = h;
    t->stream = stream;
    t->kind = kind;
    snprintf(t->key, sizeof t->key, "%s", key ? key : "");
    t->retry_after = -1;
    t->next = h->list;
    h->list = t;
    return t;
}

bot_http *http_new(const char *base_url, const char *token, const char *user_agent, void *ctx,
                   char *err, size_t errlen)
{
    if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        snprintf(err, errlen, "libcurl cannot start");
        return NULL;
    }
    bot_http *h = calloc(1, sizeof *h);
    size_t auth_len = strlen(token) + 32;
    if (!h || !(h->multi = curl_multi_init()) || !(h->base = strdup(base_url)) ||
        !(h->agent = strdup(user_agent)) || !(h->auth = malloc(auth_len))) {
        snprintf(err, errlen, "out of memory");
        http_free(h);
        return NULL;
    }
    snprintf(h->auth, auth_len, "Authorization: Bearer %s", token);
    h->ctx = ctx;
    return h;
}

void http_free(bot_http *h)
{
    if (!h)
        return;
    for (transfer *t = h->list, *next; t; t = next) {
        next = t->next;
        stop(h, t);
        transfer_free(t);
    }
    if (h->multi)
        curl_multi_cleanup(h->multi);
    if (h->auth) /* the token: not left behind in freed memory */
        memset(h->auth, 0, strlen(h->auth));
    free(h->auth);
    free(h->base);
    free(h->agent);
    free(h);
    curl_global_cleanup();
}

http_stream *http_stream_open(bot_http *h, const char *path, int kind, const char *key,
                              http_line_fn on_line, http_done_fn on_end)
{
    transfer *t = transfer_new(h, true, sizeof(http_stream), path, kind, key);
    if (!t)
        return NULL;
    t->on_line = on_line;
    t->on_done = on_end;
    if (!start(h, t)) {
        t->gone = true; /* freed by the next http_run */
        return NULL;
    }
    return (http_stream *)t;
}

void http_stream_close(bot_http *h, http_stream *s)
{
    if (!s)
        return;
    transfer *t = &s->t;
    stop(h, t);
    t->gone = true;
}

double http_stream_quiet(const http_stream *s) { return now_seconds() - s->t.last_byte; }

void http_post(bot_http *h, const char *path, json_t *body, int retries, int kind, const char *key,
               http_done_fn on_done)
{
    transfer *t = transfer_new(h, false, sizeof(transfer), path, kind, key);
    if (t && body && !(t->body = json_dumps(body, JSON_COMPACT)))
        t->gone = true;
    if (t) {
        t->on_done = on_done;
        t->retries = retries;
    }
    if (!t || t->gone) { /* out of memory: answered at once, as a failed connection is */
        http_result r = {.status = 0, .error = "out of memory", .retry_after = -1};
        on_done(h->ctx, kind, key, &r);
    }
}

int http_requests_pending(const bot_http *h)
{
    int n = 0;
    for (const transfer *t = h->list; t; t = t->next)
        n += !t->stream && !t->gone;
    return n;
}

/* Hands the complete lines of a stream over; an empty line is a keep-alive. */
static void hand_lines(bot_http *h, transfer *t)
{
    size_t done = 0;
    while (!t->gone && done < t->len) { /* buf is NULL while nothing came */
        char *nl = memchr(t->buf + done, '\n', t->len - done);
        if (!nl)
            break;
        size_t n = (size_t)(nl - (t->buf + done));
        char *line = t->buf + done;
        done += n + 1;
        if (n && line[n - 1] == '\r')
            n--;
        if (n == 0)
            continue;
        line[n] = 0;
        t->on_line(h->ctx, t->kind, t->key, line, n);
    }
    if (t->gone || done == 0)
        return;
    memmove(t->buf, t->buf + done, t->len - done);
    t->len -= done;
}

/* A finished transfer: a request held by 429 goes back to the queue, else
 * the caller learns how it ended. */
static void finish(bot_http *h, transfer *t, CURLcode code, const char *why)
{
    long status = code == CURLE_OK ? status_of(t) : 0;
    if (t->stream && t->overflow)
        why = "a line longer than 4 MiB";
    stop(h, t);
    char text[CURL_ERROR_SIZE + 64];
    if (status == 0 && !why)
        snprintf(text, sizeof text, "%s", t->errbuf[0] ? t->errbuf : curl_easy_strerror(code));
    else
        snprintf(text, sizeof text, "%s", why ? why : "");
    http_result r;
    if (t->stream && status == 200)
        t->len = 0; /* what is left of a stream is a partial line */
    result_fill(&r, status, status ? NULL : text, t);
    bool busy =
        r.reason && (strcmp(r.reason, "bot_games") == 0 || strcmp(r.reason, "bot_busy") == 0);
    if (!t->stream && status == 429 && !busy) {
        double wait = t->retry_after >= 0 ? t->retry_after : DEFAULT_HOLD_S;
        if (h->hold_until < now_seconds() + wait)
            h->hold_until = now_seconds() + wait;
        json_decref(r.json);
        return; /* queued again: started once the hold is over */
    }
    bool transient =
        status == 0 || status == 500 || status == 502 || status == 503 || status == 504;
    if (!t->stream && transient && t->failures < t->retries) {
        t->failures++;
        t->not_before = now_seconds() + jittered(0.5 * (1 << (t->failures - 1)), 8.0);
        json_decref(r.json);
        return; /* sent again after a pause */
    }
    t->gone = true;
    t->on_done(h->ctx, t->kind, t->key, &r);
    json_decref(r.json);
}

void http_run(bot_http *h, struct pollfd *extra, unsigned n, int timeout_ms)
{
    double now = now_seconds();
    for (transfer *t = h->list; t; t = t->next) {
        if (!t->running && !t->gone && t->not_before > now) {
            int wait_ms = (int)((t->not_before - now) * 1000) + 1;
            timeout_ms = wait_ms < timeout_ms ? wait_ms : timeout_ms;
        }
        if (!t->running && !t->gone && t->not_before <= now && now >= h->hold_until &&
            !start(h, t)) {
            http_result r = {.status = 0, .error = "cannot start a transfer", .retry_after = -1};
            t->gone = true;
            t->on_done(h->ctx, t->kind, t->key, &r);
        }
    }
    if (h->hold_until > now) {
        int hold_ms = (int)((h->hold_until - now) * 1000) + 1;
        if (hold_ms < timeout_ms)
            timeout_ms = hold_ms;
    }
    struct curl_waitfd fds[MAX_EXTRA_FDS];
    if (n > MAX_EXTRA_FDS)
        n = MAX_EXTRA_FDS;
    for (unsigned i = 0; i < n; i++)
        fds[i] = (struct curl_waitfd){
            .fd = extra[i].fd,
            .events = (short)(((extra[i].events & POLLIN) ? CURL_WAIT_POLLIN : 0) |
                              ((extra[i].events & POLLOUT) ? CURL_WAIT_POLLOUT : 0))};
    curl_multi_poll(h->multi, fds, n, timeout_ms < 0 ? 0 : timeout_ms, NULL);
    for (unsigned i = 0; i < n; i++)
        extra[i].revents = (short)(((fds[i].revents & CURL_WAIT_POLLIN) ? POLLIN : 0) |
                                   ((fds[i].revents & CURL_WAIT_POLLOUT) ? POLLOUT : 0) |
                                   ((fds[i].revents & CURL_WAIT_POLLPRI) ? POLLPRI : 0));
    int running;
    curl_multi_perform(h->multi, &running);

    for (transfer *t = h->list; t; t = t->next)
        if (t->stream && t->running && !t->gone && status_of(t) == 200)
            hand_lines(h, t);
    CURLMsg *msg;
    int left;
    while ((msg = curl_multi_info_read(h->multi, &left)))
        if (msg->msg == CURLMSG_DONE) {
            transfer *t;
            curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, (char **)&t);
            CURLcode code = msg->data.result;
            if (t->gone || !t->running)
                continue;
            if (t->stream && code == CURLE_OK && status_of(t) == 200) {
                hand_lines(h, t); /* the last lines, then the end */
                if (t->gone)
                    continue;
            }
            finish(h, t, code, NULL);
        }
    now = now_seconds();
    for (transfer *t = h->list; t; t = t->next)
        if (t->stream && t->running && !t->gone && now - t->last_byte > HTTP_SILENCE_S)
            finish(h, t, CURLE_OPERATION_TIMEDOUT, "no byte for 20 s");

    for (transfer **p = &h->list; *p;) {
        transfer *t = *p;
        if (t->gone) {
            stop(h, t);
            *p = t->next;
            transfer_free(t);
        } else {
            p = &t->next;
        }
    }
}
