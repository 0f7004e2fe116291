/*
 * engine_client.c - runs an external engine and talks the engine protocol
 * with it (engine_client.h).
 *
 * The engine is a child process in a process group of its own: a terminal's
 * Ctrl-C reaches the arena, which then ends its engines in order, and a kill
 * reaches every process of a shell pipeline. Both pipes are non-blocking and
 * every wait is a poll() against one deadline, so an engine that stops
 * reading or never answers costs at most its time limit. An answer is one
 * line of at most 1 MiB; bytes after it are kept for the next answer.
 */
#include "engine_client.h"

#include "../engine/decision.h"
#include "../engine/position.h"
#include "../engine/reason.h"
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PROTOCOL   "axio-engine/1"
#define MAX_ANSWER (1 << 20)

struct engine_client {
    pid_t pid;
    int to, from; /* the engine's stdin and stdout */
    char *buf;    /* bytes read and not yet used */
    size_t len, cap;
    char name[128];
};

static int ms_left(double deadline)
{
    double left = (deadline - now_seconds()) * 1000.0;
    return left <= 0 ? 0 : left > 1e9 ? 1000000000 : (int)left + 1;
}

/* Waits for `events` on fd until the deadline: 1 ready, 0 time is up. */
static int wait_for(int fd, short events, double deadline)
{
    for (;;) {
        struct pollfd p = {.fd = fd, .events = events};
        int left = ms_left(deadline);
        int n = poll(&p, 1, left);
        if (n > 0)
            return 1;
        if (n == 0 || (n < 0 && errno != EINTR) || left == 0)
            return 0; /* a signal only interrupts the wait */
    }
}

static engine_status send_text(engine_client *e, const char *text, double deadline, char *err,
                               size_t errlen)
{
    size_t len = strlen(text), done = 0;
    while (done < len) {
        ssize_t n = write(e->to, text + done, len - done);
        if (n > 0) {
            done += (size_t)n;
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && errno == EAGAIN) {
            if (!wait_for(e->to, POLLOUT, deadline))
                return ax_fail(err, errlen, ENGINE_LATE, "the engine stopped reading its input");
            continue;
        }
        return ax_fail(err, errlen, ENGINE_GONE, "the engine closed its input");
    }
    return ENGINE_OK;
}

static engine_status send_message(engine_client *e, json_t *msg, double deadline, char *err,
                                  size_t errlen)
{
    char *text = json_dumps(msg, JSON_COMPACT);
    json_decref(msg);
    if (!text)
        return ax_fail(err, errlen, ENGINE_GONE, "out of memory");
    size_t n = strlen(text);
    char *line = realloc(text, n + 2);
    if (!line) {
        free(text);
        return ax_fail(err, errlen, ENGINE_GONE, "out of memory");
    }
    memcpy(line + n, "\n", 2);
    engine_status s = send_text(e, line, deadline, err, errlen);
    free(line);
    return s;
}

/* Takes one line out of the buffer, reading until the deadline. */
static engine_status read_line(engine_client *e, double deadline, char **line, char *err,
                               size_t errlen)
{
    for (;;) {
        char *nl = e->len ? memchr(e->buf, '\n', e->len) : NULL;
        if (nl) {
            size_t n = (size_t)(nl - e->buf);
            *line = malloc(n + 1);
            if (!*line)
                return ax_fail(err, errlen, ENGINE_GONE, "out of memory");
            memcpy(*line, e->buf, n);
            (*line)[n] = 0;
            if (n > 0 && (*line)[n - 1] == '\r')
                (*line)[n - 1] = 0;
            memmove(e->buf, nl + 1, e->len - n - 1);
            e->len -= n + 1;
            return ENGINE_OK;
        }
        if (e->len >= MAX_ANSWER)
            return ax_fail(err, errlen, ENGINE_BAD_ANSWER, "an answer longer than 1 MiB");
        if (e->cap - e->len < 65536) {
            char *p = realloc(e->buf, e->cap + 65536);
            if (!p)
                return ax_fail(err, errlen, ENGINE_GONE, "out of memory");
            e->buf = p;
            e->cap += 65536;
        }
        ssize_t n = read(e->from, e->buf + e->len, e->cap - e->len);
        if (n > 0) {
            e->len += (size_t)n;
        } else if (n == 0) {
            return ax_fail(err, errlen, ENGINE_GONE, "the engine ended (or closed its output)");
        } else if (errno == EAGAIN) {
            if (!wait_for(e->from, POLLIN, deadline))
                return ax_fail(err, errlen, ENGINE_LATE, "no answer in time");
        } else if (errno != EINTR) {
            return ax_fail(err, errlen, ENGINE_GONE, "cannot read the engine's output: %s",
                           strerror(errno));
        }
    }
}

/* Sends a request and reads its answer, which must be of type `want`. An
 * `error` answer is reported with the engine's message. */
static engine_status exchange(engine_client *e, json_t *request, const char *want, int limit_ms,
                              json_t **answer, char *err, size_t errlen)
{
    double deadline = now_seconds() + limit_ms / 1000.0;
    char *line = NULL;
    engine_status s = send_message(e, request, deadline, err, errlen);
    if (s == ENGINE_OK)
        s = read_line(e, deadline, &line, err, errlen);
    if (s != ENGINE_OK)
        return s;
    json_error_t jerr;
    json_t *msg = json_loads(line, JSON_REJECT_DUPLICATES, &jerr);
    const char *type = json_string_value(json_object_get(msg, "type"));
    if (!msg || !type) {
        s = ax_fail(err, errlen, ENGINE_BAD_ANSWER, "not an answer of the protocol: %.200s", line);
    } else if (strcmp(type, want) != 0) {
        const char *message = json_string_value(json_object_get(msg, "message"));
        s = strcmp(type, "error") == 0
                ? ax_fail(err, errlen, ENGINE_BAD_ANSWER, "the engine answered an error: %.200s",
                          message ? message : "(no message)")
                : ax_fail(err, errlen, ENGINE_BAD_ANSWER, "\"%s\" where \"%s\" was due", type,
                          want);
    }
    free(line);
    if (s != ENGINE_OK) {
        json_decref(msg);
        return s;
    }
    *answer = msg;
    return ENGINE_OK;
}

/* The child: its own process group, the pipes as stdin and stdout, the
 * signal dispositions of a fresh program, no other descriptor of ours (an
 * engine that outlives `axio bot` must not hold its connections to the site
 * open), then the shell. */
static void run_child(const char *command, int in, int out)
{
    setpgid(0, 0);
    signal(SIGPIPE, SIG_DFL);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    if (dup2(in, 0) < 0 || dup2(out, 1) < 0)
        _exit(127);
    close_range(3, ~0U, 0);
    execl("/bin/sh", "sh", "-c", command, (char *)NULL);
    _exit(127);
}

pid_t engine_spawn(const char *command, int *to, int *from, char *err, size_t errlen)
{
    int in[2], out[2];
    if (pipe2(in, O_CLOEXEC) != 0) {
        snprintf(err, errlen, "cannot start the engine: %s", strerror(errno));
        return -1;
    }
    if (pipe2(out, O_CLOEXEC) != 0) {
        snprintf(err, errlen, "cannot start the engine: %s", strerror(errno));
        close(in[0]);
        close(in[1]);
        return -1;
    }
    fflush(NULL); /* the child must not write the parent's buffered output again */
    pid_t pid = fork();
    if (pid == 0)
        run_child(command, in[0], out[1]);
    close(in[0]);
    close(out[1]);
    if (pid < 0) {
        snprintf(err, errlen, "cannot start the engine: %s", strerror(errno));
        close(in[1]);
        close(out[0]);
        return -1;
    }
    setpgid(pid, pid); /* also here: either may run first */
    fcntl(in[1], F_SETFL, fcntl(in[1], F_GETFL) | O_NONBLOCK);
    fcntl(out[0], F_SETFL, fcntl(out[0], F_GETFL) | O_NONBLOCK);
    *to = in[1];
    *from = out[0];
    return pid;
}

static engine_client *spawn(const char *command, char *err, size_t errlen)
{
    engine_client *e = calloc(1, sizeof *e);
    if (!e) {
        snprintf(err, errlen, "cannot start the engine: out of memory");
        return NULL;
    }
    e->pid = engine_spawn(command, &e->to, &e->from, err, errlen);
    if (e->pid < 0) {
        free(e);
        return NULL;
    }
    return e;
}

engine_client *engine_start(const char *command, int limit_ms, char *err, size_t errlen)
{
    engine_client *e = spawn(command, err, errlen);
    if (!e)
        return NULL;
    json_t *ready;
    if (exchange(e, json_pack("{s:s,s:s}", "type", "hello", "protocol", PROTOCOL), "ready",
                 limit_ms, &ready, err, errlen) != ENGINE_OK) {
        engine_stop(e, false);
        return NULL;
    }
    const char *protocol = json_string_value(json_object_get(ready, "protocol"));
    const char *name = json_string_value(json_object_get(ready, "name"));
    if (protocol && strcmp(protocol, PROTOCOL) != 0) {
        snprintf(err, errlen, "the engine speaks %.60s, not " PROTOCOL, protocol);
        json_decref(ready);
        engine_stop(e, false);
        return NULL;
    }
    snprintf(e->name, sizeof e->name, "%s", name ? name : "(no name)");
    json_decref(ready);
    return e;
}

const char *engine_name(const engine_client *e) { return e->name; }

engine_status engine_newgame(engine_client *e, const ax_game *view, int seat,
                             const char *const *names, const uint64_t *seed, int limit_ms,
                             char *err, size_t errlen)
{
    json_t *jnames = json_array();
    for (int s = 0; s < view->players; s++)
        json_array_append_new(jnames, json_string(names && names[s] ? names[s] : ""));
    json_t *msg = json_pack("{s:s,s:s,s:i,s:s,s:i,s:o}", "type", "newgame", "variant",
                            ax_variant_name(view->variant), "players", view->players, "mode",
                            ax_mode_name(view->mode), "seat", seat, "names", jnames);
    if (seed) {
        char text[24];
        snprintf(text, sizeof text, "%llu", (unsigned long long)*seed);
        json_object_set_new(msg, "seed", json_string(text));
    }
    json_t *ok;
    engine_status s = exchange(e, msg, "ok", limit_ms, &ok, err, errlen);
    if (s == ENGINE_OK)
        json_decref(ok);
    return s;
}

static double number_or(json_t *v, double otherwise)
{
    return json_is_number(v) ? json_number_value(v) : otherwise;
}

engine_status engine_go(engine_client *e, const ax_game *view, int seat, int movetime_ms,
                        long playouts, int limit_ms, ax_move *out, engine_timing *timing, char *err,
                        size_t errlen)
{
    json_t *msg = json_pack("{s:s,s:i,s:I,s:o}", "type", "go", "movetime", movetime_ms, "playouts",
                            (json_int_t)playouts, "position", ax_position_json(view, seat));
    double start = now_seconds();
    json_t *answer;
    engine_status s = exchange(e, msg, "decision", limit_ms, &answer, err, errlen);
    timing->seconds = now_seconds() - start;
    timing->cpu_ms = -1;
    timing->playouts = -1;
    if (s != ENGINE_OK)
        return s;
    json_t *info = json_object_get(answer, "info");
    timing->cpu_ms = number_or(json_object_get(info, "cpu_ms"), -1);
    timing->playouts = (long)number_or(json_object_get(info, "playouts"), -1);
    char why[256];
    json_t *move = json_object_get(answer, "move");
    int rc = json_is_object(move) ? ax_decision_read(view, move, out, why, sizeof why)
                                  : AX_REPLAY_MALFORMED;
    if (!json_is_object(move))
        snprintf(why, sizeof why, "a decision needs \"move\": {...}");
    if (rc != AX_REPLAY_OK) {
        char *text = move ? json_dumps(move, JSON_COMPACT) : NULL;
        s = ax_fail(err, errlen, rc == AX_REPLAY_INCONSISTENT ? ENGINE_ILLEGAL : ENGINE_BAD_ANSWER,
                    "%s: %.200s", why, text ? text : "(none)");
        free(text);
    }
    json_decref(answer);
    return s;
}

/* Waits up to `ms` for the engine's shell to end, leaving it unreaped so
 * that its process group cannot be taken by a new process before the kill. */
static void wait_for_exit(pid_t pid, int ms)
{
    for (int waited = 0; waited < ms; waited += 10) {
        siginfo_t info = {0};
        if (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT) != 0 && errno != EINTR)
            return;
        if (info.si_pid == pid)
            return;
        nanosleep(&(struct timespec){.tv_nsec = 10 * 1000 * 1000}, NULL);
    }
}

void engine_stop(engine_client *e, bool gently)
{
    if (!e)
        return;
    if (gently && e->pid > 0)
        send_text(e, "{\"type\":\"quit\"}\n", now_seconds() + 0.2, (char[80]){0}, 80);
    close(e->to); /* end of input: a well-behaved engine ends too */
    close(e->from);
    if (e->pid > 0) {
        if (gently)
            wait_for_exit(e->pid, 1000);
        kill(-e->pid, SIGKILL); /* the shell and whatever it started */
        kill(e->pid, SIGKILL);
        while (waitpid(e->pid, NULL, 0) < 0 && errno == EINTR)
            ;
    }
    free(e->buf);
    free(e);
}
