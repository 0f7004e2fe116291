/*
 * bot.c - the loop of `axio bot` and the account's event stream (bot.h).
 *
 * The loop waits on everything at once: the network (libcurl's sockets),
 * the engines' pipes and a pipe the signal handler writes to, with a
 * timeout of the earliest timer (a stream to open again, an engine's
 * deadline). The event stream lists, on every connect, the open challenges
 * and the running games, so after any lost connection or a restart of the
 * site the bot answers what it had not answered and resumes its games; a
 * challenge answered already is not answered twice.
 *
 * Failures the bot cannot get past end it with exit code 1: the token
 * refused (401), an account that is not a bot (403), a site without the
 * Bot API (404), another program with the same token (the site ends a
 * token's older event stream when a newer one opens). Everything else is tried again, after a pause
 * that doubles up to a minute, with jitter, so that the bots of a restarted site do not all come
 * back in the same second.
 */
#include "bot.h"

#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define RETRIES         3
#define CHALLENGE_TTL_S 900.0 /* an answered challenge is remembered this long */
#define PENDING_TTL_S   600.0 /* an accepted one counts as a game until it starts, at most */
#define MAX_BACKOFF_S   60.0
#define HEALTHY_S       30.0
#define TAKEN_OVER_S    120.0 /* the event stream ended by the site twice within: stop */
#define SHUTDOWN_S      2.0   /* for requests under way at the end */
#define MAX_FDS         64

struct challenge {
    struct challenge *next;
    char id[64], game[64], variant[16];
    int players;
    bool pending; /* accepted (or being accepted), its game not started */
    double seen;
};

static volatile sig_atomic_t stop_signal;
static int signal_pipe[2] = {-1, -1};

static void on_signal(int signo)
{
    int saved = errno;
    stop_signal = signo;
    if (write(signal_pipe[1], "s", 1) < 0) {
        /* full: a wake-up is pending anyway */
    }
    errno = saved;
}

static void vlog(const char *fmt, va_list ap)
{
    char stamp[32];
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", &tm);
    char text[2048];
    vsnprintf(text, sizeof text, fmt, ap);
    for (char *p = text; *p; p++) /* one line, whatever a site or an engine said */
        if ((unsigned char)*p < 0x20)
            *p = ' ';
    fprintf(stderr, "%s axio bot: %s\n", stamp, text);
}

void bot_log(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vlog(fmt, ap);
    va_end(ap);
}

void bot_fail(bot *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vlog(fmt, ap);
    va_end(ap);
    b->exit_code = 1;
}

bool bot_refused(bot *b, const http_result *r)
{
    if (r->status == 401) {
        bot_fail(b,
                 "the site refused the token (401 %s): unknown, revoked, or without the "
                 "bot:play scope",
                 r->reason ? r->reason : "unauthorized");
        return true;
    }
    if (r->status == 403 && r->code && strcmp(r->code, "not_a_bot") == 0) {
        bot_fail(b, "the token's account is not a bot: make it one first (docs/bot-api.md)");
        return true;
    }
    return false;
}

/* --- challenges --- */

static challenge *challenge_find(bot *b, const char *id)
{
    for (challenge *c = b->challenges; c; c = c->next)
        if (strcmp(c->id, id) == 0)
            return c;
    return NULL;
}

int bot_challenges_pending(const bot *b)
{
    int n = 0;
    for (const challenge *c = b->challenges; c; c = c->next)
        n += c->pending;
    return n;
}

void bot_challenge_started(bot *b, json_t *g)
{
    const char *id = json_string_value(json_object_get(g, "id"));
    const char *variant = json_string_value(json_object_get(g, "variant"));
    json_t *players = json_object_get(g, "players");
    challenge *match = NULL;
    for (challenge *c = b->challenges; c && id; c = c->next)
        if (c->pending && strcmp(c->game, id) == 0)
            match = c;
    /* A challenge of several seats has its game only once all accepted: the
     * oldest of the same terms is the one that started. */
    for (challenge *c = b->challenges; c && !match && variant; c = c->next)
        if (c->pending && !c->game[0] && strcmp(c->variant, variant) == 0 &&
            (!json_is_integer(players) || json_integer_value(players) == c->players))
            match = c;
    if (match)
        match->pending = false;
}

bool bot_good_id(const char *id)
{
    if (!id || !*id || strlen(id) >= 64)
        return false;
    for (const char *p = id; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
              *p == '-' || *p == '_'))
            return false;
    return true;
}

static void on_answer(void *ctx, int kind, const char *key, const http_result *r)
{
    bot *b = ctx;
    challenge *c = challenge_find(b, key);
    bool ok = r->status == 200 || r->status == 204;
    if (kind == REQ_ACCEPT && c) {
        const char *game = json_string_value(json_object_get(r->json, "game"));
        if (ok && game)
            snprintf(c->game, sizeof c->game, "%s", game);
        if (!ok || (game && game_find(b, game)))
            c->pending = false;
    }
    if (!ok && c && (r->status == 0 || r->status >= 500)) {
        /* not answered: answered again when the event stream lists it again */
        for (challenge **p = &b->challenges; *p; p = &(*p)->next)
            if (*p == c) {
                *p = c->next;
                free(c);
                c = NULL;
                break;
            }
    }
    if (ok) {
        if (kind == REQ_ACCEPT)
            bot_log("challenge %s: accepted%s%s", key, c && c->game[0] ? ", game " : "",
                    c && c->game[0] ? c->game : "");
        return;
    }
    const char *message =
        json_string_value(json_object_get(json_object_get(r->json, "error"), "message"));
    char why[300];
    if (r->status)
        snprintf(why, sizeof why, "HTTP %ld %s%s%s%s%s", r->status, r->code ? r->code : "",
                 r->reason ? " " : "", r->reason ? r->reason : "", message ? ": " : "",
                 message ? message : "");
    else
        snprintf(why, sizeof why, "%s", r->error);
    bot_log("challenge %s: the %s was not taken: %s", key,
            kind == REQ_ACCEPT ? "acceptance" : "decline", why);
}

static void on_challenge(bot *b, json_t *c)
{
    const char *id = json_string_value(json_object_get(c, "id"));
    const char *status = json_string_value(json_object_get(c, "status"));
    if (!bot_good_id(id)) {
        bot_log("a challenge without a usable id: ignored");
        return;
    }
    if ((status && strcmp(status, "open") != 0) || challenge_find(b, id))
        return; /* settled, or answered already (the stream lists it again on connect) */
    challenge *entry = calloc(1, sizeof *entry);
    if (!entry) {
        bot_log("challenge %s: out of memory", id);
        return;
    }
    snprintf(entry->id, sizeof entry->id, "%s", id);
    const char *variant = json_string_value(json_object_get(c, "variant"));
    snprintf(entry->variant, sizeof entry->variant, "%s", variant ? variant : "");
    json_t *players = json_object_get(c, "players");
    entry->players = json_is_integer(players) ? (int)json_integer_value(players) : 2;
    entry->seen = now_seconds();
    entry->next = b->challenges;
    b->challenges = entry;

    int games = games_playing(b) + bot_challenges_pending(b);
    const char *reason = filter_judge(&b->o->filter, c, games);
    char terms[160], path[160];
    filter_describe(c, terms, sizeof terms);
    const char *from = json_string_value(json_object_get(c, "from"));
    if (reason) {
        bot_log("challenge %s from %.40s (%s): declined, %s", id, from ? from : "?", terms, reason);
        snprintf(path, sizeof path, "/api/challenges/%s/decline", id);
        json_t *body = json_pack("{s:s}", "reason", reason);
        http_post(b->http, path, body, RETRIES, REQ_DECLINE, id, on_answer);
        json_decref(body);
        return;
    }
    bot_log("challenge %s from %.40s (%s): accepting", id, from ? from : "?", terms);
    entry->pending = true;
    snprintf(path, sizeof path, "/api/challenges/%s/accept", id);
    http_post(b->http, path, NULL, RETRIES, REQ_ACCEPT, id, on_answer);
}

static void on_challenge_gone(bot *b, json_t *c, const char *how)
{
    const char *id = json_string_value(json_object_get(c, "id"));
    challenge *entry = id ? challenge_find(b, id) : NULL;
    if (entry)
        entry->pending = false;
    const char *reason = json_string_value(json_object_get(c, "reason"));
    const char *by = json_string_value(json_object_get(c, "declined_by"));
    bot_log("challenge %.64s: %s%s%.40s%s%s", id ? id : "?", how, by ? " by " : "", by ? by : "",
            reason ? ", " : "", reason ? reason : "");
}

static void forget_challenges(bot *b)
{
    double now = now_seconds();
    for (challenge **p = &b->challenges; *p;) {
        challenge *c = *p;
        if (c->pending && now - c->seen > PENDING_TTL_S)
            c->pending = false;
        if (!c->pending && now - c->seen > CHALLENGE_TTL_S) {
            *p = c->next;
            free(c);
        } else {
            p = &c->next;
        }
    }
}

/* --- the event stream --- */

static void on_event(void *ctx, int kind, const char *key, const char *line, size_t len)
{
    (void)kind;
    (void)key;
    bot *b = ctx;
    json_error_t jerr;
    json_t *msg = json_loadb(line, len, 0, &jerr);
    const char *type = json_string_value(json_object_get(msg, "type"));
    if (!type)
        bot_log("event stream: a line that is not an event: %.80s", line);
    else if (strcmp(type, "challenge") == 0)
        on_challenge(b, json_object_get(msg, "challenge"));
    else if (strcmp(type, "challengeCanceled") == 0)
        on_challenge_gone(b, json_object_get(msg, "challenge"), "cancelled");
    else if (strcmp(type, "challengeDeclined") == 0)
        on_challenge_gone(b, json_object_get(msg, "challenge"), "declined");
    else if (strcmp(type, "gameStart") == 0)
        games_start(b, json_object_get(msg, "game"));
    else if (strcmp(type, "gameFinish") == 0)
        games_finish(b, json_object_get(msg, "game"));
    json_decref(msg);
}

static void connect_events(bot *b);

static void on_events_end(void *ctx, int kind, const char *key, const http_result *r)
{
    (void)kind;
    (void)key;
    bot *b = ctx;
    b->events = NULL;
    if (bot_refused(b, r))
        return;
    if (r->status == 404) {
        bot_fail(b, "the site has no Bot API (404 on /api/bot/stream/event): is --url right?");
        return;
    }
    double now = now_seconds();
    if (r->status == 200) {
        /* The site ended the stream itself: a newer event stream of this
         * token took over (or the token was revoked: the next connect is
         * refused). Once may be a stale connection of our own; twice soon
         * is another program with this token, and the newer one keeps it. */
        if (b->events_ended_at > 0 && now - b->events_ended_at < TAKEN_OVER_S) {
            bot_fail(b,
                     "the site ended the event stream twice in %.0f s: another program "
                     "plays with this token (a token has one event stream; the newer keeps it)",
                     now - b->events_ended_at);
            return;
        }
        b->events_ended_at = now;
    }
    if (now - b->events_opened > HEALTHY_S)
        b->events_failures = 0;
    b->events_failures++;
    int n = b->events_failures;
    double wait = jittered(1 << (n < 7 ? n - 1 : 6), MAX_BACKOFF_S);
    if (r->status == 429 && r->retry_after > wait)
        wait = r->retry_after;
    b->events_retry_at = now + wait;
    char why[300];
    if (r->status == 200)
        snprintf(why, sizeof why, "ended by the site: another connection with this token?");
    else if (r->status)
        snprintf(why, sizeof why, "HTTP %ld%s%s", r->status, r->code ? " " : "",
                 r->code ? r->code : "");
    else
        snprintf(why, sizeof why, "%s", r->error);
    bot_log("event stream lost (%s): again in %.1f s", why, wait);
}

static void connect_events(bot *b)
{
    b->events_opened = now_seconds();
    b->events =
        http_stream_open(b->http, "/api/bot/stream/event", REQ_EVENTS, "", on_event, on_events_end);
    if (!b->events)
        b->events_retry_at = now_seconds() + 1.0;
}

/* --- the loop --- */

static int earliest(int a, int b) { return a < 0 ? b : b < 0 ? a : a < b ? a : b; }

static bool catch_signals(void)
{
    if (pipe2(signal_pipe, O_CLOEXEC | O_NONBLOCK) != 0)
        return false;
    struct sigaction sa = {.sa_handler = on_signal};
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN); /* an engine that died: its pipe's write fails instead */
    return true;
}

/* A header value: printable ASCII only. */
static void user_agent(const char *engine, char *out, size_t len)
{
    snprintf(out, len, "axio-bot (axio-engine/1; engine %.80s)", engine);
    for (char *p = out; *p; p++)
        if (*p < 0x20 || *p > 0x7e)
            *p = '?';
}

int bot_run(const bot_options *o)
{
    bot b = {.o = o, .exit_code = -1};
    srand((unsigned)time(NULL) ^ (unsigned)getpid());
    if (!catch_signals()) {
        fprintf(stderr, "axio bot: cannot catch signals\n");
        return 1;
    }
    char err[400];
    b.pool = pool_new(o->engine, o->engines, 10000, games_on_decision, &b, err, sizeof err);
    if (!b.pool)
        return usage_error("bot", "the engine does not start: %s", err);
    bot_log("engine ready: %s (at most %d at once)", pool_engine_name(b.pool), o->engines);
    char agent[160];
    user_agent(pool_engine_name(b.pool), agent, sizeof agent);
    b.http = http_new(o->url, o->token, agent, &b, err, sizeof err);
    if (!b.http) {
        pool_free(b.pool);
        fprintf(stderr, "axio bot: %s\n", err);
        return 1;
    }
    bot_log("connecting to %s", o->url);
    connect_events(&b);
    while (!stop_signal && b.exit_code < 0) {
        struct pollfd fds[MAX_FDS];
        fds[0] = (struct pollfd){.fd = signal_pipe[0], .events = POLLIN};
        unsigned n = 1 + pool_fds(b.pool, fds + 1, MAX_FDS - 1);
        int timeout = 1000;
        timeout = earliest(timeout, games_tick(&b));
        timeout = earliest(timeout, pool_next_ms(b.pool));
        if (!b.events) {
            double wait = (b.events_retry_at - now_seconds()) * 1000.0;
            timeout = earliest(timeout, wait <= 0 ? 0 : (int)wait + 1);
        }
        http_run(b.http, fds, n, timeout);
        pool_service(b.pool);
        if (!b.events && b.exit_code < 0 && now_seconds() >= b.events_retry_at)
            connect_events(&b);
        forget_challenges(&b);
    }
    if (stop_signal)
        bot_log("stopping (%s)", stop_signal == SIGINT ? "SIGINT" : "SIGTERM");
    http_stream_close(b.http, b.events);
    games_free(&b);
    double until = now_seconds() + SHUTDOWN_S;
    while (http_requests_pending(b.http) && now_seconds() < until)
        http_run(b.http, NULL, 0, 50);
    http_free(b.http);
    pool_free(b.pool);
    while (b.challenges) {
        challenge *c = b.challenges;
        b.challenges = c->next;
        free(c);
    }
    close(signal_pipe[0]);
    close(signal_pipe[1]);
    return b.exit_code < 0 ? 0 : b.exit_code;
}
