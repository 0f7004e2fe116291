/*
 * bot_http.h - the HTTP side of `axio bot`: the Bot API's NDJSON streams and
 * its requests (docs/bot-api.md), all in one libcurl multi handle that one
 * thread drives.
 *
 * Every request carries `Authorization: Bearer` with the token; nothing here
 * ever writes the token anywhere else. Callbacks never run inside libcurl:
 * lines and answers are collected while libcurl works and handed over after
 * it returns, so a callback may open streams and send requests at will.
 *
 * Limits: a 429 answer to a request holds every request (the limits are per
 * token and per address) for its Retry-After and then sends it again,
 * without the caller seeing it, except when it says the bot may not play
 * more games now (`bot_games`, `bot_busy`). Streams end on any error and on 20
 * seconds of silence (the site sends a keep-alive line every 6): the caller
 * decides when to open them again.
 */
#ifndef AX_BOT_HTTP_H
#define AX_BOT_HTTP_H

#include <jansson.h>
#include <poll.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct bot_http bot_http;
typedef struct http_stream http_stream;

#define HTTP_SILENCE_S 20.0 /* a stream without a byte for this long is gone */

/* How a request or a stream ended. */
typedef struct {
    long status;        /* the HTTP status; 0 when no answer came */
    const char *error;  /* with status 0: why (libcurl's words, or the silence) */
    double retry_after; /* seconds of Retry-After, -1 when absent */
    json_t *json;       /* the answer's body when it is JSON, else NULL */
    const char *code;   /* json's error.code, or NULL */
    const char *reason; /* json's error.reason, or NULL */
} http_result;

/* `kind` and `key` are the caller's tags of a request (e.g. what it was for
 * and the game's id): a request may outlive whatever sent it, so it refers to
 * it by name. */
typedef void (*http_done_fn)(void *ctx, int kind, const char *key, const http_result *r);
/* One line of a stream (without its newline; never the empty keep-alive). */
typedef void (*http_line_fn)(void *ctx, int kind, const char *key, const char *line, size_t len);

/* base_url: "https://host[:port][/prefix]" without a trailing slash. */
bot_http *http_new(const char *base_url, const char *token, const char *user_agent, void *ctx,
                   char *err, size_t errlen);
/* Ends every transfer without calling back. */
void http_free(bot_http *h);

/* Opens GET path as a stream. on_line for each line of a 200 answer;
 * on_end once at its end (any status, an error, the silence), after which
 * the stream is gone. */
http_stream *http_stream_open(bot_http *h, const char *path, int kind, const char *key,
                              http_line_fn on_line, http_done_fn on_end);
/* Closes a stream without calling on_end. */
void http_stream_close(bot_http *h, http_stream *s);
/* Seconds since the stream's last byte (or its opening). */
double http_stream_quiet(const http_stream *s);

/* POSTs body (NULL: no body) as JSON; on_done once with the answer. When no
 * answer comes, or a 500, 502, 503 or 504, it is sent again up to `retries`
 * more times, after 0.5, 1, 2... (at most 8) seconds with jitter. */
void http_post(bot_http *h, const char *path, json_t *body, int retries, int kind, const char *key,
               http_done_fn on_done);
/* Requests sent and not yet answered (held ones included). */
int http_requests_pending(const bot_http *h);

/* `seconds`, at most `cap`, times a random factor from 0.5 to 1: the
 * pause before trying again, different for every bot after a site's restart. */
double jittered(double seconds, double cap);

/* Waits at most timeout_ms for the network or for one of the `n` extra
 * descriptors (whose revents it sets), then moves every transfer on and
 * calls back for what happened. */
void http_run(bot_http *h, struct pollfd *extra, unsigned n, int timeout_ms);

#endif
