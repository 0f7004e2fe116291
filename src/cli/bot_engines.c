/*
 * bot_engines.c - a pool of engine processes for `axio bot` (bot_engines.h).
 *
 * Each engine is a small state machine driven by the bridge's loop: its
 * pipes are non-blocking, its output is read whenever the loop wakes (a
 * pipe's end shows as a hang-up, which is no readable event to every
 * poller), what it is sent waits in a buffer until the pipe takes it, and
 * every wait has a deadline. Jobs keep the order they came in; an engine
 * that played a game before gets that game's next job when it is free, so
 * an engine that keeps something between the decisions of a game can.
 */
#include "bot_engines.h"

#include "../engine/position.h"
#include "cli.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define PROTOCOL     "axio-engine/1"
#define MAX_ANSWER   (1 << 20)
#define STARTUP_MS   10000 /* `hello` and `newgame` */
#define GRACE_MS     1000  /* beyond 110% of the movetime, before an answer is late */
#define MIN_MOVETIME 10
#define MAX_NAMES    AX_MAX_PLAYERS
#define MAX_TRIES    2 /* a job is given to at most this many engines that die */

typedef struct job {
    struct job *next;
    char game[96];
    int seat, ply, tries;
    char names[MAX_NAMES][64];
    json_t *position;
    ax_game *view;
    int movetime;
    bool clocked;
    double queued;
} job;

typedef enum { E_OFF, E_HELLO, E_IDLE, E_NEWGAME, E_GO } engine_state;

typedef struct {
    engine_state state;
    pid_t pid;
    int to, from;
    char *in;
    size_t inlen, incap;
    char *out;
    size_t outlen, outoff;
    double deadline, sent;
    char game[96]; /* the game of its last `newgame` */
    job *job;
    bool abandoned; /* the job's answer is thrown away */
    int movetime;   /* of the running `go` */
} engine;

struct engine_pool {
    char *command;
    int size;
    engine *engines;
    job *queue;
    pool_done_fn done;
    void *ctx;
    char name[128];
    double restart_at; /* no engine starts before (after failed starts) */
    int failed_starts;
};

static void job_free(job *j)
{
    if (!j)
        return;
    json_decref(j->position);
    free(j->view);
    free(j);
}

static void kill_engine(engine *e)
{
    if (e->state == E_OFF || e->pid <= 0)
        return;
    close(e->to);
    close(e->from);
    kill(-e->pid, SIGKILL); /* the shell and whatever it started */
    kill(e->pid, SIGKILL);
    while (waitpid(e->pid, NULL, 0) < 0 && errno == EINTR)
        ;
    e->pid = 0;
    e->state = E_OFF;
    e->inlen = e->outlen = e->outoff = 0;
    e->game[0] = 0;
}

/* Hands a job's outcome over and frees it. */
static void settle(engine_pool *p, job *j, engine_status status, json_t *move, double ms,
                   const char *fmt, ...) __attribute__((format(printf, 6, 7)));
static void settle(engine_pool *p, job *j, engine_status status, json_t *move, double ms,
                   const char *fmt, ...)
{
    char why[600] = "";
    if (fmt) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, sizeof why, fmt, ap);
        va_end(ap);
    }
    p->done(p->ctx, j->game, j->ply, status, move, why, ms);
    job_free(j);
}

static void requeue_front(engine_pool *p, job *j)
{
    j->next = p->queue;
    p->queue = j;
}

/* An engine did not start: the next start waits (1, 2, 4... 30 s), and the
 * first job waiting fails when this was its second engine. */
static void start_failed(engine_pool *p, const char *why)
{
    p->failed_starts++;
    double wait = p->failed_starts >= 5 ? 30.0 : (double)(1 << (p->failed_starts - 1));
    p->restart_at = now_seconds() + wait;
    fprintf(stderr, "axio bot: the engine did not start: %s\n", why);
    if (p->queue && ++p->queue->tries >= MAX_TRIES) {
        job *head = p->queue;
        p->queue = head->next;
        settle(p, head, ENGINE_GONE, NULL, 0, "the engine did not start: %s", why);
    }
}

/* The engine failed: it is killed, and its job fails, or is tried again
 * when the engine only died (ENGINE_GONE) and it was its first try. */
static void engine_failed(engine_pool *p, engine *e, engine_status status, const char *why)
{
    job *j = e->job;
    bool abandoned = e->abandoned;
    e->job = NULL;
    e->abandoned = false;
    engine_state was = e->state;
    kill_engine(e);
    if (was == E_HELLO) {
        start_failed(p, why);
        return;
    }
    if (!j || abandoned) {
        if (was != E_IDLE || status != ENGINE_GONE)
            fprintf(stderr, "axio bot: engine stopped: %s\n", why);
        job_free(j);
        return;
    }
    if (status == ENGINE_GONE && ++j->tries < MAX_TRIES) {
        fprintf(stderr, "axio bot: the engine died deciding in game %s (%s): asking a new one\n",
                j->game, why);
        requeue_front(p, j);
        return;
    }
    settle(p, j, status, NULL, (now_seconds() - e->sent) * 1000.0, "%s", why);
}

/* Writes what the pipe takes of the engine's pending output. */
static bool flush_out(engine *e)
{
    while (e->outoff < e->outlen) {
        ssize_t n = write(e->to, e->out + e->outoff, e->outlen - e->outoff);
        if (n > 0) {
            e->outoff += (size_t)n;
        } else if (n < 0 && errno == EINTR) {
            continue;
        } else if (n < 0 && errno == EAGAIN) {
            return true;
        } else {
            return false;
        }
    }
    e->outoff = e->outlen = 0;
    return true;
}

static bool send_json(engine *e, json_t *msg)
{
    char *text = json_dumps(msg, JSON_COMPACT);
    json_decref(msg);
    if (!text)
        return false;
    size_t n = strlen(text);
    if (e->outlen + n + 1 > SIZE_MAX / 2) {
        free(text);
        return false;
    }
    char *out = realloc(e->out, e->outlen + n + 1);
    if (!out) {
        free(text);
        return false;
    }
    e->out = out;
    memcpy(e->out + e->outlen, text, n);
    e->out[e->outlen + n] = '\n';
    e->outlen += n + 1;
    free(text);
    return flush_out(e);
}

/* Starts an engine and sends `hello`. false: it could not be started
 * (state E_OFF) or does not take its input (E_HELLO, to be killed). */
static bool spawn(engine_pool *p, engine *e, char *err, size_t errlen)
{
    pid_t pid = engine_spawn(p->command, &e->to, &e->from, err, errlen);
    if (pid < 0)
        return false;
    e->pid = pid;
    e->state = E_HELLO;
    e->inlen = e->outlen = e->outoff = 0;
    e->game[0] = 0;
    e->deadline = now_seconds() + STARTUP_MS / 1000.0;
    if (!send_json(e, json_pack("{s:s,s:s}", "type", "hello", "protocol", PROTOCOL))) {
        snprintf(err, errlen, "the engine does not read its input");
        return false;
    }
    return true;
}

/* Gives a job to an idle engine: `newgame` first when it changes games. */
static void begin(engine_pool *p, engine *e, job *j)
{
    e->job = j;
    e->abandoned = false;
    if (strcmp(e->game, j->game) != 0) {
        json_t *names = json_array();
        for (int s = 0; s < j->view->players; s++)
            json_array_append_new(names, json_string(j->names[s]));
        json_t *msg =
            json_pack("{s:s,s:s,s:i,s:s,s:i,s:o}", "type", "newgame", "variant",
                      ax_variant_name(j->view->variant), "players", j->view->players, "mode",
                      ax_mode_name(j->view->mode), "seat", j->seat, "names", names);
        e->state = E_NEWGAME;
        e->deadline = now_seconds() + STARTUP_MS / 1000.0;
        snprintf(e->game, sizeof e->game, "%s", j->game);
        if (!send_json(e, msg))
            engine_failed(p, e, ENGINE_GONE, "the engine closed its input");
        return;
    }
    int movetime = j->movetime;
    if (j->clocked) /* the time it waited for an engine was the clock's */
        movetime -= (int)((now_seconds() - j->queued) * 1000.0);
    if (movetime < MIN_MOVETIME)
        movetime = MIN_MOVETIME;
    e->movetime = movetime;
    e->state = E_GO;
    e->sent = now_seconds();
    e->deadline = e->sent + (movetime * 1.1 + GRACE_MS) / 1000.0;
    json_t *msg =
        json_pack("{s:s,s:i,s:O}", "type", "go", "movetime", movetime, "position", j->position);
    if (!send_json(e, msg))
        engine_failed(p, e, ENGINE_GONE, "the engine closed its input");
}

static void answer_decision(engine_pool *p, engine *e, json_t *msg)
{
    job *j = e->job;
    bool abandoned = e->abandoned;
    double ms = (now_seconds() - e->sent) * 1000.0;
    e->job = NULL;
    e->abandoned = false;
    e->state = E_IDLE;
    if (abandoned) {
        job_free(j);
        return;
    }
    json_t *move = json_object_get(msg, "move");
    char why[256];
    ax_move m;
    int rc = json_is_object(move) ? ax_decision_read(j->view, move, &m, why, sizeof why)
                                  : AX_REPLAY_MALFORMED;
    if (!json_is_object(move))
        snprintf(why, sizeof why, "a decision needs \"move\": {...}");
    if (rc != AX_REPLAY_OK) {
        char *text = move ? json_dumps(move, JSON_COMPACT) : NULL;
        char reason[600];
        snprintf(reason, sizeof reason, "%s: %.200s", why, text ? text : "(none)");
        free(text);
        e->job = j;
        e->state = E_GO;
        engine_failed(p, e, rc == AX_REPLAY_INCONSISTENT ? ENGINE_ILLEGAL : ENGINE_BAD_ANSWER,
                      reason);
        return;
    }
    json_t *decision = ax_decision_json(j->view, &m);
    settle(p, j, ENGINE_OK, decision, ms, NULL);
    json_decref(decision);
}

/* One line of the engine's output. */
static void on_line(engine_pool *p, engine *e, const char *line)
{
    static const char *const wanted[] = {
        [E_HELLO] = "ready", [E_NEWGAME] = "ok", [E_GO] = "decision"};
    if (e->state != E_HELLO && e->state != E_NEWGAME && e->state != E_GO) {
        engine_failed(p, e, ENGINE_BAD_ANSWER, "an answer to no request");
        return;
    }
    json_error_t jerr;
    json_t *msg = json_loads(line, JSON_REJECT_DUPLICATES, &jerr);
    const char *type = json_string_value(json_object_get(msg, "type"));
    char why[400];
    if (!type) {
        snprintf(why, sizeof why, "not an answer of the protocol: %.200s", line);
    } else if (strcmp(type, wanted[e->state]) != 0) {
        const char *message = json_string_value(json_object_get(msg, "message"));
        if (strcmp(type, "error") == 0)
            snprintf(why, sizeof why, "the engine answered an error: %.200s",
                     message ? message : "(no message)");
        else
            snprintf(why, sizeof why, "\"%.40s\" where \"%s\" was due", type, wanted[e->state]);
    } else {
        why[0] = 0;
    }
    if (why[0]) {
        json_decref(msg);
        engine_failed(p, e, ENGINE_BAD_ANSWER, why);
        return;
    }
    if (e->state == E_HELLO) {
        const char *protocol = json_string_value(json_object_get(msg, "protocol"));
        const char *name = json_string_value(json_object_get(msg, "name"));
        if (protocol && strcmp(protocol, PROTOCOL) != 0) {
            snprintf(why, sizeof why, "the engine speaks %.60s, not " PROTOCOL, protocol);
            json_decref(msg);
            engine_failed(p, e, ENGINE_BAD_ANSWER, why);
            return;
        }
        snprintf(p->name, sizeof p->name, "%s", name ? name : "(no name)");
        p->failed_starts = 0;
        e->state = E_IDLE;
    } else if (e->state == E_NEWGAME) {
        e->state = E_IDLE;
        job *j = e->job;
        e->job = NULL;
        if (e->abandoned) {
            e->abandoned = false;
            job_free(j);
        } else {
            begin(p, e, j); /* now the `go` */
        }
    } else {
        answer_decision(p, e, msg);
    }
    json_decref(msg);
}

/* Reads what the engine wrote and handles each complete line. */
static void read_engine(engine_pool *p, engine *e)
{
    for (;;) {
        if (e->state == E_OFF)
            return;
        char *nl = e->inlen ? memchr(e->in, '\n', e->inlen) : NULL;
        if (nl) {
            size_t n = (size_t)(nl - e->in);
            *nl = 0;
            if (n && e->in[n - 1] == '\r')
                e->in[n - 1] = 0;
            char *line = strdup(e->in);
            memmove(e->in, nl + 1, e->inlen - n - 1);
            e->inlen -= n + 1;
            if (!line) {
                engine_failed(p, e, ENGINE_GONE, "out of memory");
                return;
            }
            if (line[0])
                on_line(p, e, line);
            free(line);
            continue;
        }
        if (e->inlen >= MAX_ANSWER) {
            engine_failed(p, e, ENGINE_BAD_ANSWER, "an answer longer than 1 MiB");
            return;
        }
        if (e->incap - e->inlen < 65536) {
            char *in = realloc(e->in, e->incap + 65536);
            if (!in) {
                engine_failed(p, e, ENGINE_GONE, "out of memory");
                return;
            }
            e->in = in;
            e->incap += 65536;
        }
        ssize_t n = read(e->from, e->in + e->inlen, e->incap - e->inlen);
        if (n > 0) {
            e->inlen += (size_t)n;
        } else if (n == 0) {
            engine_failed(p, e, ENGINE_GONE, "the engine ended (or closed its output)");
            return;
        } else if (errno == EAGAIN) {
            return;
        } else if (errno != EINTR) {
            engine_failed(p, e, ENGINE_GONE, "cannot read the engine's output");
            return;
        }
    }
}

static job *take_job_for(engine_pool *p, const engine *e)
{
    job **best = NULL;
    for (job **q = &p->queue; *q; q = &(*q)->next)
        if (strcmp((*q)->game, e->game) == 0) {
            best = q;
            break;
        }
    if (!best)
        best = &p->queue;
    job *j = *best;
    *best = j->next;
    j->next = NULL;
    return j;
}

static void dispatch(engine_pool *p)
{
    while (p->queue) {
        engine *idle = NULL, *off = NULL;
        bool starting = false;
        for (int i = 0; i < p->size; i++) {
            engine *e = &p->engines[i];
            if (e->state == E_IDLE && (!idle || strcmp(e->game, p->queue->game) == 0))
                idle = e;
            if (e->state == E_HELLO)
                starting = true;
            if (e->state == E_OFF && !off)
                off = e;
        }
        if (idle) {
            begin(p, idle, take_job_for(p, idle));
            continue;
        }
        if (!off || starting || now_seconds() < p->restart_at)
            return; /* one start at a time: a broken engine is not started 8 times at once */
        char err[256];
        if (!spawn(p, off, err, sizeof err)) {
            if (off->state == E_HELLO)
                engine_failed(p, off, ENGINE_GONE, err);
            else
                start_failed(p, err);
        }
        return;
    }
}

void pool_service(engine_pool *p)
{
    double now = now_seconds();
    for (int i = 0; i < p->size; i++) {
        engine *e = &p->engines[i];
        if (e->state == E_OFF)
            continue;
        if (e->outlen && !flush_out(e)) {
            engine_failed(p, e, ENGINE_GONE, "the engine closed its input");
            continue;
        }
        read_engine(p, e);
        if (e->state == E_OFF || e->state == E_IDLE || now_seconds() < e->deadline)
            continue;
        char why[160];
        if (e->state == E_GO)
            snprintf(why, sizeof why, "no decision within %.1f s (movetime %d ms)", now - e->sent,
                     e->movetime);
        else
            snprintf(why, sizeof why, "no answer to `%s` within %d s",
                     e->state == E_HELLO ? "hello" : "newgame", STARTUP_MS / 1000);
        engine_failed(p, e, ENGINE_LATE, why);
    }
    dispatch(p);
}

engine_pool *pool_new(const char *command, int size, int limit_ms, pool_done_fn done, void *ctx,
                      char *err, size_t errlen)
{
    engine_pool *p = calloc(1, sizeof *p);
    if (!p || !(p->command = strdup(command)) ||
        !(p->engines = calloc((size_t)size, sizeof *p->engines))) {
        snprintf(err, errlen, "out of memory");
        pool_free(p);
        return NULL;
    }
    p->size = size;
    p->done = done;
    p->ctx = ctx;
    engine *e = &p->engines[0];
    if (!spawn(p, e, err, errlen)) {
        kill_engine(e);
        pool_free(p);
        return NULL;
    }
    e->deadline = now_seconds() + limit_ms / 1000.0;
    while (e->state == E_HELLO) {
        struct pollfd fd = {.fd = e->from, .events = POLLIN};
        int left = (int)((e->deadline - now_seconds()) * 1000.0) + 1;
        if (left <= 0) {
            snprintf(err, errlen, "no answer to `hello` within %d s", limit_ms / 1000);
            kill_engine(e);
            pool_free(p);
            return NULL;
        }
        poll(&fd, 1, left);
        for (;;) { /* read_engine, but a failure is reported here */
            char *nl = e->inlen ? memchr(e->in, '\n', e->inlen) : NULL;
            if (nl)
                break;
            if (e->incap - e->inlen < 4096) {
                char *in = realloc(e->in, e->incap + 65536);
                if (!in)
                    break;
                e->in = in;
                e->incap += 65536;
            }
            ssize_t n = read(e->from, e->in + e->inlen, e->incap - e->inlen);
            if (n > 0) {
                e->inlen += (size_t)n;
                continue;
            }
            if (n == 0) {
                snprintf(err, errlen, "the engine ended before answering `hello`");
                kill_engine(e);
                pool_free(p);
                return NULL;
            }
            break;
        }
        char *nl = e->inlen ? memchr(e->in, '\n', e->inlen) : NULL;
        if (!nl)
            continue;
        *nl = 0;
        json_error_t jerr;
        json_t *msg = json_loads(e->in, 0, &jerr);
        const char *type = json_string_value(json_object_get(msg, "type"));
        const char *protocol = json_string_value(json_object_get(msg, "protocol"));
        const char *name = json_string_value(json_object_get(msg, "name"));
        if (!type || strcmp(type, "ready") != 0 || (protocol && strcmp(protocol, PROTOCOL))) {
            snprintf(err, errlen, "the engine did not answer `hello` with `ready` (%.200s)", e->in);
            json_decref(msg);
            kill_engine(e);
            pool_free(p);
            return NULL;
        }
        snprintf(p->name, sizeof p->name, "%s", name ? name : "(no name)");
        json_decref(msg);
        size_t n = (size_t)(nl - e->in);
        memmove(e->in, nl + 1, e->inlen - n - 1);
        e->inlen -= n + 1;
        e->state = E_IDLE;
    }
    return p;
}

void pool_free(engine_pool *p)
{
    if (!p)
        return;
    for (int i = 0; p->engines && i < p->size; i++) { /* `quit`, then end of input */
        engine *e = &p->engines[i];
        if (e->state == E_OFF)
            continue;
        e->outlen = e->outoff = 0;
        send_json(e, json_pack("{s:s}", "type", "quit"));
        close(e->to);
        e->to = -1;
    }
    double until = now_seconds() + 1.0;
    for (int i = 0; p->engines && i < p->size; i++) {
        engine *e = &p->engines[i];
        if (e->state != E_OFF && e->pid > 0) {
            while (now_seconds() < until) { /* it may end by itself: unreaped until killed */
                siginfo_t info = {0};
                if (waitid(P_PID, (id_t)e->pid, &info, WEXITED | WNOHANG | WNOWAIT) != 0 ||
                    info.si_pid == e->pid)
                    break;
                usleep(10000);
            }
            close(e->from);
            kill(-e->pid, SIGKILL);
            kill(e->pid, SIGKILL);
            while (waitpid(e->pid, NULL, 0) < 0 && errno == EINTR)
                ;
        }
        job_free(e->job);
        free(e->in);
        free(e->out);
    }
    for (job *j = p->queue, *next; j; j = next) {
        next = j->next;
        job_free(j);
    }
    free(p->engines);
    free(p->command);
    free(p);
}

const char *pool_engine_name(const engine_pool *p) { return p->name; }

void pool_cancel(engine_pool *p, const char *game)
{
    for (job **q = &p->queue; *q;) {
        if (strcmp((*q)->game, game) == 0) {
            job *j = *q;
            *q = j->next;
            job_free(j);
        } else {
            q = &(*q)->next;
        }
    }
    for (int i = 0; i < p->size; i++)
        if (p->engines[i].job && strcmp(p->engines[i].job->game, game) == 0)
            p->engines[i].abandoned = true;
}

bool pool_submit(engine_pool *p, const pool_job *pj, char *err, size_t errlen)
{
    job *j = calloc(1, sizeof *j);
    ax_game *view = malloc(sizeof *view);
    int seat;
    if (!j || !view) {
        snprintf(err, errlen, "out of memory");
        free(j);
        free(view);
        return false;
    }
    if (ax_position_read(pj->position, view, &seat, err, errlen) != AX_REPLAY_OK) {
        free(j);
        free(view);
        return false;
    }
    if (seat != pj->seat || view->to_move != seat) {
        snprintf(err, errlen, "the position is seat %d's with seat %d to move, not seat %d's turn",
                 seat, view->to_move, pj->seat);
        free(j);
        free(view);
        return false;
    }
    pool_cancel(p, pj->game);
    snprintf(j->game, sizeof j->game, "%s", pj->game);
    j->seat = seat;
    j->ply = view->ply;
    for (int s = 0; s < view->players && s < MAX_NAMES; s++)
        snprintf(j->names[s], sizeof j->names[s], "%s",
                 pj->names && pj->names[s] ? pj->names[s] : "");
    j->position = json_incref(pj->position);
    j->view = view;
    j->movetime = pj->movetime_ms;
    j->clocked = pj->clocked;
    j->queued = now_seconds();
    job **q = &p->queue;
    while (*q)
        q = &(*q)->next;
    *q = j;
    return true;
}

int pool_jobs(const engine_pool *p)
{
    int n = 0;
    for (const job *j = p->queue; j; j = j->next)
        n++;
    for (int i = 0; i < p->size; i++)
        n += p->engines[i].job && !p->engines[i].abandoned;
    return n;
}

unsigned pool_fds(const engine_pool *p, struct pollfd *fds, unsigned max)
{
    unsigned n = 0;
    for (int i = 0; i < p->size && n < max; i++) {
        const engine *e = &p->engines[i];
        if (e->state == E_OFF)
            continue;
        fds[n++] = (struct pollfd){.fd = e->from, .events = POLLIN};
        if (e->outlen > e->outoff && n < max)
            fds[n++] = (struct pollfd){.fd = e->to, .events = POLLOUT};
    }
    return n;
}

int pool_next_ms(const engine_pool *p)
{
    double next = -1, now = now_seconds();
    for (int i = 0; i < p->size; i++) {
        const engine *e = &p->engines[i];
        if (e->state != E_OFF && e->state != E_IDLE && (next < 0 || e->deadline < next))
            next = e->deadline;
    }
    if (p->queue && p->restart_at > now && (next < 0 || p->restart_at < next))
        next = p->restart_at;
    if (next < 0)
        return -1;
    return next <= now ? 0 : (int)((next - now) * 1000.0) + 1;
}
