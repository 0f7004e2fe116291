/*
 * cmd_engine.c - `axio engine`: a built-in player behind the engine protocol
 * (docs/engine-protocol.md), so that any program can ask it for decisions:
 * `axio arena --ai cmd:...` does, and so may a program written elsewhere.
 *
 * One JSON object per line on stdin, one answer per line on stdout (`quit`
 * excepted), flushed at once. Every `go` carries the whole position of the
 * asking seat, so the engine rebuilds that seat's view from it
 * (ax_position_read) and keeps nothing between decisions but its player,
 * whose generator `newgame` may reseed. A line that is no request of the
 * protocol gets an `error` answer and changes nothing; end of input ends the
 * engine as `quit` does.
 */
#include "../ai/player.h"
#include "../engine/decision.h"
#include "../engine/position.h"
#include "cli.h"
#include "options.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PROTOCOL     "axio-engine/1"
#define MAX_LINE     (1 << 20)
#define MAX_MOVETIME 3600000
#define MAX_PLAYOUTS 100000000L

static const char usage[] =
    "usage: axio engine [--player NAME] [--movetime MS] [--playouts P] [--seed S]\n"
    "\n"
    "Speaks the engine protocol axio-engine/1 on stdin and stdout (docs/engine-protocol.md):\n"
    "one JSON object per line. A `go` request carries the position of one seat, as that\n"
    "seat sees it; the answer is the player's decision in the record's notation.\n";

typedef struct {
    const char *player;
    long movetime, playouts;
    uint64_t seed;
} engine_options;

static int parse_options(int argc, char **argv, engine_options *o)
{
    *o = (engine_options){.player = "strong", .movetime = AX_DEFAULT_MOVETIME_MS, .seed = 1};
    const cli_option options[] = {
        {"player", OPT_STRING, &o->player, .help = "random, greedy or strong (default strong)"},
        {"movetime", OPT_LONG, &o->movetime, .min = 0, .max = MAX_MOVETIME, .unit = "ms",
         .help = "milliseconds per decision unless `go` says otherwise (default 1000)"},
        {"playouts", OPT_LONG, &o->playouts, .min = 0, .max = MAX_PLAYOUTS,
         .help = "fixed playouts per decision of `strong` unless `go` says otherwise"},
        {"seed", OPT_U64, &o->seed,
         .help = "seed of the player's random choices, again at each `newgame` that gives\n"
                 "none (default 1)"},
        {0}};
    const cli_command command = {
        "engine",
        usage,
        options,
        14,
        false,
        "Example: axio arena --variant hex --ai 'strong,cmd:axio engine --player greedy' ...\n"};
    int rc = cli_parse(&command, argc, argv, NULL);
    if (rc != CLI_GO_ON)
        return rc;
    ax_player *probe = ax_player_new(o->player, 0);
    if (!probe)
        return usage_error("engine", "unknown player '%s' (random, greedy, strong)", o->player);
    ax_player_free(probe);
    return CLI_GO_ON;
}

/* Writes one answer line and flushes it; false when the reader is gone. */
static bool answer(json_t *msg)
{
    char *text = json_dumps(msg, JSON_COMPACT | JSON_REAL_PRECISION(6));
    json_decref(msg);
    bool ok = text && printf("%s\n", text) >= 0 && fflush(stdout) == 0;
    free(text);
    return ok;
}

static bool answer_error(const char *message)
{
    return answer(json_pack("{s:s,s:s}", "type", "error", "message", message));
}

/* Reads one line of at most MAX_LINE bytes into *buf (grown as needed).
 * Returns its length, -1 at the end of input, -2 when it was longer (the
 * rest of it is skipped). */
static long read_line(char **buf, size_t *cap)
{
    size_t len = 0;
    bool too_long = false;
    int ch;
    while ((ch = getchar()) != EOF && ch != '\n') {
        if (len >= MAX_LINE) {
            too_long = true;
            continue;
        }
        if (len + 1 >= *cap) {
            size_t bigger = *cap ? *cap * 2 : 4096;
            char *p = realloc(*buf, bigger);
            if (!p)
                return -1;
            *buf = p;
            *cap = bigger;
        }
        (*buf)[len++] = (char)ch;
    }
    if (ch == EOF && len == 0 && !too_long)
        return -1;
    if (too_long)
        return -2;
    if (len > 0 && (*buf)[len - 1] == '\r')
        len--;
    (*buf)[len] = 0;
    return (long)len;
}

static double thread_cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

typedef struct {
    engine_options opt;
    ax_player *player;
    ax_game *view;
    ax_move *moves;
} engine;

static bool on_hello(engine *e, json_t *msg)
{
    const char *protocol = json_string_value(json_object_get(msg, "protocol"));
    if (!protocol || strcmp(protocol, PROTOCOL) != 0)
        return answer_error("hello: this engine speaks \"protocol\": \"" PROTOCOL "\"");
    char name[64];
    snprintf(name, sizeof name, "axio %s", e->opt.player);
    return answer(json_pack("{s:s,s:s,s:s}", "type", "ready", "protocol", PROTOCOL, "name", name));
}

/* A seed as the record writes it (a string of digits) or a number. */
static bool read_seed(json_t *v, uint64_t *seed)
{
    if (json_is_integer(v) && json_integer_value(v) >= 0) {
        *seed = (uint64_t)json_integer_value(v);
        return true;
    }
    return json_is_string(v) && parse_u64(json_string_value(v), seed);
}

static bool on_newgame(engine *e, json_t *msg)
{
    uint64_t seed = e->opt.seed;
    json_t *v = json_object_get(msg, "seed");
    if (v && !read_seed(v, &seed))
        return answer_error("newgame: \"seed\" must be a string of digits");
    ax_player *p = ax_player_new(e->opt.player, seed);
    if (!p)
        return answer_error("newgame: out of memory");
    ax_player_free(e->player);
    e->player = p;
    return answer(json_pack("{s:s}", "type", "ok"));
}

/* The time settings of one `go`: its own, else the command line's. */
static bool read_limits(engine *e, json_t *msg, char *err, size_t errlen)
{
    json_t *movetime = json_object_get(msg, "movetime"),
           *playouts = json_object_get(msg, "playouts");
    long mt = e->opt.movetime, po = e->opt.playouts;
    if (movetime) {
        if (!json_is_integer(movetime) || json_integer_value(movetime) < 0 ||
            json_integer_value(movetime) > MAX_MOVETIME) {
            snprintf(err, errlen, "go: \"movetime\" must be 0 to %d ms", MAX_MOVETIME);
            return false;
        }
        mt = (long)json_integer_value(movetime);
    }
    if (playouts) {
        if (!json_is_integer(playouts) || json_integer_value(playouts) < 0 ||
            json_integer_value(playouts) > MAX_PLAYOUTS) {
            snprintf(err, errlen, "go: \"playouts\" must be 0 to %ld", MAX_PLAYOUTS);
            return false;
        }
        po = (long)json_integer_value(playouts);
    }
    ax_player_set_movetime(e->player, (int)mt);
    ax_player_set_playouts(e->player, po);
    return true;
}

/* Rebuilds the view; the seat must be the one to move and have a decision. */
static bool read_position(engine *e, json_t *msg, char *err, size_t errlen)
{
    char why[256];
    int seat;
    if (ax_position_read(json_object_get(msg, "position"), e->view, &seat, why, sizeof why)) {
        snprintf(err, errlen, "go: \"position\": %s", why);
        return false;
    }
    if (seat != e->view->to_move) {
        snprintf(err, errlen, "go: seat %d is not to move (seat %d is)", seat, e->view->to_move);
        return false;
    }
    if (ax_legal_moves(e->view, e->moves, AX_MAX_MOVES) == 0 ||
        (e->view->variant == AX_ROTA && e->view->rack_n[seat] == 0)) {
        snprintf(err, errlen, "go: seat %d has no legal decision in this position", seat);
        return false;
    }
    return true;
}

static bool on_go(engine *e, json_t *msg)
{
    double start = now_seconds(), cpu_start = thread_cpu_seconds();
    char err[400];
    if (!read_limits(e, msg, err, sizeof err) || !read_position(e, msg, err, sizeof err))
        return answer_error(err);
    ax_move m;
    ax_player_decide(e->player, e->view, e->view->to_move, &m);
    if (ax_check(e->view, &m) != AX_OK) /* a player's bug: say so rather than send it */
        return answer_error("go: the player chose an illegal decision");
    ax_player_stats stats;
    ax_player_get_stats(e->player, &stats);
    json_t *info = json_pack("{s:f,s:f,s:I}", "ms", 1000.0 * (now_seconds() - start), "cpu_ms",
                             1000.0 * (thread_cpu_seconds() - cpu_start), "playouts",
                             (json_int_t)stats.last_playouts);
    return answer(json_pack("{s:s,s:o,s:o}", "type", "decision", "move",
                            ax_decision_json(e->view, &m), "info", info));
}

/* Answers one request line; returns 1 to go on, 0 after quit, -1 when the
 * answer could not be written. */
static int handle_line(engine *e, const char *line)
{
    json_error_t jerr;
    json_t *msg = json_loads(line, JSON_REJECT_DUPLICATES, &jerr);
    const char *type = json_string_value(json_object_get(msg, "type"));
    bool ok;
    if (!msg) {
        char text[300];
        snprintf(text, sizeof text, "not JSON: %s", jerr.text);
        ok = answer_error(text);
    } else if (!type) {
        ok = answer_error("a request is a JSON object with a \"type\"");
    } else if (strcmp(type, "quit") == 0) {
        json_decref(msg);
        return 0;
    } else if (strcmp(type, "hello") == 0) {
        ok = on_hello(e, msg);
    } else if (strcmp(type, "newgame") == 0) {
        ok = on_newgame(e, msg);
    } else if (strcmp(type, "go") == 0) {
        ok = on_go(e, msg);
    } else {
        ok = answer_error("unknown request type (hello, newgame, go, quit)");
    }
    json_decref(msg);
    return ok ? 1 : -1;
}

static bool blank(const char *s) { return s[strspn(s, " \t\r")] == 0; }

int cmd_engine(int argc, char **argv)
{
    engine e = {0};
    int rc = parse_options(argc, argv, &e.opt);
    if (rc != CLI_GO_ON)
        return rc;
    signal(SIGPIPE, SIG_IGN); /* a reader that went away is a failed write, not a death */
    e.player = ax_player_new(e.opt.player, e.opt.seed);
    e.view = malloc(sizeof *e.view);
    e.moves = malloc(AX_MAX_MOVES * sizeof *e.moves);
    char *line = NULL;
    size_t cap = 0;
    rc = e.player && e.view && e.moves ? 1 : -1;
    if (rc < 0)
        fprintf(stderr, "axio engine: out of memory\n");
    while (rc == 1) {
        long len = read_line(&line, &cap);
        if (len == -1)
            break;
        if (len == -2)
            rc = answer_error("line longer than 1 MiB") ? 1 : -1;
        else if (!blank(line))
            rc = handle_line(&e, line);
    }
    free(line);
    free(e.moves);
    free(e.view);
    ax_player_free(e.player);
    return rc < 0 ? 1 : 0;
}
