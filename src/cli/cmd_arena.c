/*
 * cmd_arena.c - `axio arena`: measures computer players against each other.
 *
 * Duplicate sets: deal d (seed S + d) is played once per seat rotation, so
 * every contestant gets every seat with the same tiles and the luck of the
 * draw cancels out. A contestant's score in a game is its share of first
 * place (a tie for first splits it; partners in team mode win together).
 * The 95% confidence interval treats each deal's set of games as one
 * sample, which is what the duplicate design makes independent. Solo: every
 * contestant plays every seed alone; the result's mean, spread and range
 * are reported, and for two contestants their paired difference.
 * A long run stopped with SIGINT or SIGTERM finishes the deal it is playing
 * and reports the deals played so far; a second signal stops it at once.
 *
 * A contestant may be an external engine (`cmd:COMMAND`, engine_client.c):
 * one process per contestant for the whole run, told of each game with
 * `newgame` and asked with the seat's position. An engine that answers
 * garbage, an illegal decision, too late, or dies forfeits its game: its seat
 * leaves (rules 6, it ranks last) and `greedy` plays the seat's remaining
 * decisions; the engine is started again for the next game.
 *
 * With --jobs N the deals are shared among N worker processes (deal d goes to
 * worker d mod N, each with engines of its own); after each deal a worker
 * writes what the deal added to every tally down a pipe, and this process
 * adds them up. The figures are those of one run of all the deals: every sum
 * is over deals, whichever process played them.
 */
#include "../ai/player.h"
#include "../engine/axio.h"
#include "cli.h"
#include "engine_client.h"
#include "match.h"
#include "options.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const char usage[] =
    "usage: axio arena --variant square|rota|hex --players N --ai A,B[,...] --games G --seed S\n"
    "                  [--movetime MS] [--playouts P] [--mode standard|solo|team] [--record DIR]\n"
    "                  [--share-seeds] [--jobs J]\n"
    "\n"
    "Plays duplicate sets between computer players: each deal (seed S, S+1, ...) is played\n"
    "N times with the seats rotated, so the luck of the draw cancels. Prints per player the\n"
    "win rate with a 95% confidence interval (ties as half wins, over deals), its win rate\n"
    "at each seat, the mean lowest track, and the time per decision. Solo (--players 1):\n"
    "every player plays G seeds alone; prints the mean result, its spread and 95% interval,\n"
    "and for two players the paired difference.\n";

static const char footer[] =
    "An external engine that answers garbage or an illegal decision, dies, or answers later\n"
    "than 110% of its movetime plus 1 s (60 s with movetime 0) forfeits the game: its seat\n"
    "leaves and ranks last. Progress goes to stderr after every deal. SIGINT (Ctrl-C) or\n"
    "SIGTERM ends the run after the deal in progress and reports the deals played (exit 130);\n"
    "a second one stops at once.\n";

#define MAX_CONTESTANTS  AX_MAX_PLAYERS
#define MAX_JOBS         64
#define EXIT_INTERRUPTED 130

/* Set by the first SIGINT/SIGTERM; the run stops between deals. */
static volatile sig_atomic_t stop_requested;

static void request_stop(int signo)
{
    (void)signo;
    stop_requested = 1;
}

/* The first signal asks for a stop; SA_RESETHAND makes the second one fatal. */
static void catch_stop_signals(void)
{
    struct sigaction sa = {.sa_handler = request_stop, .sa_flags = SA_RESETHAND};
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

#define MAX_ENTRY    1024
#define STARTUP_MS   10000 /* for `hello` and `newgame` */
#define GRACE_MS     1000  /* beyond 110% of the movetime, before a decision is forfeit */
#define NO_BUDGET_MS 60000 /* the limit of a decision with movetime 0 */

/* One --ai entry: a built-in player or an external engine, with settings. */
typedef struct {
    char label[MAX_ENTRY]; /* as written: names the player in the report */
    char player[32];       /* the built-in player; empty for an external engine */
    const char *command;   /* cmd: the shell command, inside `label` */
    long movetime, playouts;
} entry;

typedef struct {
    const char *variant, *mode, *record_dir;
    bool share_seeds; /* external engines get the seeds of the built-in players */
    long players, games, movetime, playouts, jobs;
    uint64_t seed;
    entry entries[MAX_CONTESTANTS];
    int nentries;
    int v, m;
} arena_options;

/* What one contestant did over the run. */
typedef struct {
    double score_sum, score_sq;   /* per deal: mean share of first place */
    double result_sum, result_sq; /* solo: per game */
    double result_min, result_max;
    double lowest_sum;
    long games;
    double seat_share[AX_MAX_PLAYERS]; /* share of first place won at each seat */
    long seat_games[AX_MAX_PLAYERS];
    ax_player_stats time;
    long forfeits[MATCH_GONE + 1]; /* games lost by failing, per match_verdict */
} tally;

/* A contestant that is an external engine: its process lives across games. */
typedef struct {
    const entry *e;
    engine_client *engine; /* NULL until started, and after it failed */
    tally *tally;
    bool newgame_due;
    const uint64_t *seed; /* for `newgame`: NULL unless --share-seeds */
    const char *const *names;
} external;

/* What a run keeps besides its options and tallies. */
typedef struct {
    ax_game *g;
    ax_events *init;
    external ext[MAX_CONTESTANTS];
    long games; /* played so far, for the record file names and messages */
} arena_run;

static const entry *entry_of(const arena_options *o, int contestant)
{
    return &o->entries[contestant % o->nentries];
}

/* "movetime=N" or "playouts=N", `len` characters of `s`. */
static bool parse_setting(const char *s, size_t len, entry *e)
{
    char text[64];
    if (len >= sizeof text)
        return false;
    memcpy(text, s, len);
    text[len] = 0;
    if (strncmp(text, "movetime=", 9) == 0)
        return parse_long(text + 9, 0, 3600000, &e->movetime);
    if (strncmp(text, "playouts=", 9) == 0)
        return parse_long(text + 9, 0, 100000000, &e->playouts);
    return false;
}

/* cmd:[SETTING:]...COMMAND; a setting is taken only where one can stand. */
static int parse_command(entry *e)
{
    const char *p = e->label + 4;
    for (;;) {
        size_t len = strcspn(p, ":");
        bool looks =
            (strncmp(p, "movetime=", 9) == 0 || strncmp(p, "playouts=", 9) == 0) && p[len] == ':';
        if (!looks)
            break;
        if (!parse_setting(p, len, e))
            return usage_error("arena", "bad setting in '%s' (movetime=MS, playouts=N)", e->label);
        p += len + 1;
    }
    if (!p[strspn(p, " \t")])
        return usage_error("arena", "'%s' names no command", e->label);
    e->command = p;
    return 0;
}

/* NAME[:SETTING]... */
static int parse_builtin(entry *e)
{
    const char *p = e->label;
    size_t len = strcspn(p, ":");
    if (len >= sizeof e->player)
        return usage_error("arena", "unknown player '%s' (random, greedy, strong, cmd:COMMAND)",
                           e->label);
    memcpy(e->player, p, len);
    e->player[len] = 0;
    ax_player *probe = ax_player_new(e->player, 0);
    if (!probe)
        return usage_error("arena", "unknown player '%s' (random, greedy, strong, cmd:COMMAND)",
                           e->player);
    ax_player_free(probe);
    for (p += len; *p == ':'; p += len) {
        p++;
        len = strcspn(p, ":");
        if (!parse_setting(p, len, e))
            return usage_error("arena", "bad setting in '%s' (movetime=MS, playouts=N)", e->label);
    }
    return 0;
}

/* Splits --ai at its commas; each entry starts from the run's settings. */
static int parse_entries(const char *list, arena_options *o)
{
    o->nentries = 0;
    for (const char *p = list;; p++) {
        size_t len = strcspn(p, ",");
        if (o->nentries == MAX_CONTESTANTS || len == 0 || len >= MAX_ENTRY)
            return usage_error("arena", "--ai takes 1 to 4 players separated by commas");
        entry *e = &o->entries[o->nentries++];
        *e = (entry){.movetime = o->movetime, .playouts = o->playouts};
        memcpy(e->label, p, len);
        e->label[len] = 0;
        int rc = strncmp(e->label, "cmd:", 4) == 0 ? parse_command(e) : parse_builtin(e);
        if (rc)
            return rc;
        if (e->movetime == 0 && e->playouts == 0)
            return usage_error("arena", "%s: movetime 0 needs playouts (--playouts or playouts=N)",
                               e->label);
        p += len;
        if (!*p)
            return 0;
    }
}

static int parse_options(int argc, char **argv, arena_options *o)
{
    const char *ai = NULL;
    bool have_seed = false, have_games = false;
    *o = (arena_options){.players = 2, .movetime = AX_DEFAULT_MOVETIME_MS, .jobs = 1};
    const cli_option options[] = {
        {"variant", OPT_STRING, .target = &o->variant},
        {"players", OPT_LONG, &o->players, .min = 1, .max = 4},
        {"seed", OPT_U64, &o->seed, .given = &have_seed},
        {"ai", OPT_STRING, &ai,
         .help = "one player per seat, repeated when shorter: random, greedy, strong, or\n"
                 "cmd:COMMAND, an external engine (docs/engine-protocol.md) run by /bin/sh;\n"
                 "settings follow a name: strong:movetime=100:playouts=500,\n"
                 "cmd:movetime=100:COMMAND. A command cannot hold a comma."},
        {"games", OPT_LONG, &o->games, .min = 1, .max = 10000000, .given = &have_games,
         .help = "games in all, rounded up to whole sets of N (solo: seeds per player)"},
        {"movetime", OPT_LONG, &o->movetime, .min = 0, .max = 3600000, .unit = "ms",
         .help = "milliseconds per decision of a searching player (default 1000)"},
        {"playouts", OPT_LONG, &o->playouts, .min = 0, .max = 100000000,
         .help = "fixed playouts per decision instead (then --movetime 0 is allowed)"},
        {"mode", OPT_STRING, &o->mode,
         .help = "default: solo for one player, standard otherwise; team: hex with 4"},
        {"record", OPT_STRING, &o->record_dir,
         .help = "write the full record of every game into DIR (created if missing)"},
        {"share-seeds", OPT_FLAG, &o->share_seeds,
         .help = "tell external engines the seeds built-in players get, so that\n"
                 "cmd:axio engine --player P plays exactly as P; those seeds come from the\n"
                 "deal, so a dishonest engine could work out hidden tiles: trusted engines only"},
        {"jobs", OPT_LONG, &o->jobs, .min = 1, .max = MAX_JOBS,
         .help = "play J deals at a time, in J processes (default 1), each with its own\n"
                 "external engines; the report is the same as one process's. More jobs than\n"
                 "free cores leave a searching player less of its movetime to think"},
        {0}};
    const cli_command command = {"arena", usage, options, 14, false, footer};
    int rc = cli_parse(&command, argc, argv, NULL);
    if (rc != CLI_GO_ON)
        return rc;
    if (!o->variant || !ai || !have_games || !have_seed)
        return usage_error("arena", "--variant, --ai, --games and --seed are required");
    if (!parse_game_options("arena", o->variant, o->mode, o->players, &o->v, &o->m))
        return EXIT_USAGE;
    rc = parse_entries(ai, o);
    if (rc)
        return rc;
    if (o->players > 1 && o->nentries > o->players)
        return usage_error("arena", "--ai names %d players for %ld seats", o->nentries, o->players);
    return CLI_GO_ON;
}

static ax_player *make_player(const entry *e, uint64_t seed)
{
    ax_player *p = ax_player_new(e->player[0] ? e->player : "greedy", seed);
    if (p) {
        ax_player_set_movetime(p, (int)e->movetime);
        ax_player_set_playouts(p, e->playouts);
    }
    return p;
}

static void add_time(tally *t, const ax_player_stats *s)
{
    t->time.decisions += s->decisions;
    t->time.total_seconds += s->total_seconds;
    t->time.playouts += s->playouts;
    if (s->max_seconds > t->time.max_seconds)
        t->time.max_seconds = s->max_seconds;
    if (s->max_cpu_seconds > t->time.max_cpu_seconds)
        t->time.max_cpu_seconds = s->max_cpu_seconds;
    t->time.overruns += s->overruns;
}

/* The time of one answer of an external engine, as measured here; its CPU
 * time and playouts as the engine reported them. */
static void add_engine_time(tally *t, const entry *e, const engine_timing *timing)
{
    ax_player_stats s = {.decisions = 1,
                         .total_seconds = timing->seconds,
                         .max_seconds = timing->seconds,
                         .max_cpu_seconds = timing->cpu_ms > 0 ? timing->cpu_ms / 1000.0 : 0,
                         .playouts = timing->playouts > 0 ? timing->playouts : 0};
    s.overruns = e->movetime > 0 && timing->seconds > 1.1 * (double)e->movetime / 1000.0;
    add_time(t, &s);
}

static match_verdict verdict_of(engine_status s)
{
    switch (s) {
    case ENGINE_OK: return MATCH_DECIDED;
    case ENGINE_BAD_ANSWER: return MATCH_BAD_ANSWER;
    case ENGINE_ILLEGAL: return MATCH_ILLEGAL;
    case ENGINE_LATE: return MATCH_LATE;
    case ENGINE_GONE: return MATCH_GONE;
    }
    return MATCH_GONE;
}

/* The seat's decider for an external engine (match_seat.ask). */
static match_verdict ask_engine(void *ctx, const ax_game *view, int seat, ax_move *out,
                                char *reason, size_t len)
{
    external *x = ctx;
    engine_status st = ENGINE_OK;
    if (!x->engine && !(x->engine = engine_start(x->e->command, STARTUP_MS, reason, len)))
        return MATCH_GONE;
    if (x->newgame_due) {
        x->newgame_due = false;
        st = engine_newgame(x->engine, view, seat, x->names, x->seed, STARTUP_MS, reason, len);
    }
    if (st == ENGINE_OK) {
        long limit = x->e->movetime > 0 ? x->e->movetime * 11 / 10 + GRACE_MS : NO_BUDGET_MS;
        engine_timing timing;
        st = engine_go(x->engine, view, seat, (int)x->e->movetime, x->e->playouts, (int)limit, out,
                       &timing, reason, len);
        if (st != ENGINE_GONE)
            add_engine_time(x->tally, x->e, &timing);
    }
    if (st != ENGINE_OK) { /* start afresh next game; a late engine may still be busy */
        engine_stop(x->engine, st == ENGINE_BAD_ANSWER || st == ENGINE_ILLEGAL);
        x->engine = NULL;
    }
    return verdict_of(st);
}

/* The share of first place of each seat of a finished game. */
static void first_place_shares(const ax_game *g, double share[AX_MAX_PLAYERS])
{
    ax_ranking rank;
    int first = match_first_place(g, &rank);
    double per_owner = g->mode == AX_TEAM ? 2.0 : 1.0; /* partners win together */
    for (int s = 0; s < g->players; s++)
        share[s] = 0;
    for (int i = 0; i < first; i++)
        share[rank.order[i]] = per_owner / first;
}

#define PATH_SIZE 4096

static FILE *open_record(const arena_options *o, const arena_run *run, char path[PATH_SIZE],
                         char tmp[PATH_SIZE + 8])
{
    snprintf(path, PATH_SIZE, "%s/%s-%ldp-%s-%llu-game%ld.jsonl", o->record_dir, o->variant,
             o->players, ax_mode_name(o->m), (unsigned long long)run->g->seed, run->games + 1);
    snprintf(tmp, PATH_SIZE + 8, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f)
        fprintf(stderr, "axio arena: cannot write %s: %s\n", tmp, strerror(errno));
    return f;
}

static int close_record(FILE *f, const char *path, const char *tmp, int rc)
{
    if (fclose(f) != 0 || rc != 0 || rename(tmp, path) != 0) {
        fprintf(stderr, "axio arena: cannot write %s: %s\n", path, strerror(errno));
        remove(tmp);
        return 1;
    }
    return 0;
}

static const char *const verdict_names[] = {"", "bad answer", "illegal decision", "late", "gone"};

/* Counts and reports the forfeits of a game just played. */
static void note_forfeits(const arena_options *o, arena_run *run, const match_seat *seats,
                          const int at[AX_MAX_PLAYERS], tally *tallies)
{
    for (int s = 0; s < o->players; s++) {
        if (!seats[s].ask || seats[s].failed == MATCH_DECIDED)
            continue;
        tallies[at[s]].forfeits[seats[s].failed]++;
        fprintf(stderr, "arena: game %ld (deal %llu), seat %d, %s forfeits (%s): %s\n",
                run->games + 1, (unsigned long long)run->g->seed, s, entry_of(o, at[s])->label,
                verdict_names[seats[s].failed], seats[s].reason);
    }
}

/* Plays one game; seat s holds contestant at[s]. Returns 0, or 1 after
 * saying what failed. */
static int play_one(const arena_options *o, uint64_t deal, const int at[AX_MAX_PLAYERS],
                    uint64_t player_seed, arena_run *run, tally *tallies)
{
    match_seat seats[AX_MAX_PLAYERS] = {0};
    const char *names[AX_MAX_PLAYERS];
    uint64_t seeds[AX_MAX_PLAYERS];
    int rc = 0;
    ax_game_init(run->g, o->v, (int)o->players, o->m, deal, run->init);
    for (int s = 0; s < o->players; s++) {
        const entry *e = entry_of(o, at[s]);
        seeds[s] = player_seed * 8 + (uint64_t)s;
        seats[s].player = make_player(e, seeds[s]); /* for cmd: greedy, should it forfeit */
        names[s] = e->label;
        rc |= !seats[s].player;
        if (e->command) {
            external *x = &run->ext[at[s]];
            *x = (external){.e = e,
                            .engine = x->engine,
                            .tally = &tallies[at[s]],
                            .newgame_due = true,
                            .seed = o->share_seeds ? &seeds[s] : NULL,
                            .names = names};
            seats[s].ask = ask_engine;
            seats[s].ctx = x;
        }
    }
    if (rc)
        fprintf(stderr, "axio arena: out of memory\n");
    FILE *record = NULL;
    char path[PATH_SIZE], tmp[PATH_SIZE + 8];
    if (rc == 0 && o->record_dir && !(record = open_record(o, run, path, tmp)))
        rc = 1;
    if (rc == 0 && play_seats(run->g, run->init, seats, names, record, NULL) != 0) {
        fprintf(stderr, "axio arena: %s\n", record ? "cannot write a record" : "out of memory");
        rc = 1;
    }
    if (record)
        rc |= close_record(record, path, tmp, rc);
    for (int s = 0; s < o->players; s++) {
        if (rc == 0 && !seats[s].ask) {
            ax_player_stats stats;
            ax_player_get_stats(seats[s].player, &stats);
            add_time(&tallies[at[s]], &stats);
        }
        ax_player_free(seats[s].player);
    }
    if (rc == 0)
        note_forfeits(o, run, seats, at, tallies);
    run->games++;
    return rc;
}

/* Square root by Newton's method: the command does not link libm. */
static double root(double x)
{
    if (x <= 0)
        return 0;
    double r = x > 1 ? x : 1;
    for (int i = 0; i < 200 && r * r - x > 1e-12 * x; i++)
        r = 0.5 * (r + x / r);
    return r;
}

/* Half the width of the 95% confidence interval of a mean of n samples;
 * negative when n < 2. */
static double ci_half_width(double sum, double sq, long n)
{
    if (n < 2)
        return -1;
    double mean = sum / (double)n;
    double var = (sq - (double)n * mean * mean) / (double)(n - 1);
    return 1.96 * root(var / (double)n);
}

static double clamp01(double x) { return x < 0 ? 0 : x > 1 ? 1 : x; }

static void print_time(const tally *t, const entry *e)
{
    if (t->time.decisions > 0) {
        printf("  %-8s time per decision: mean %.1f ms, max %.1f ms (max cpu %.1f ms)", e->label,
               1000.0 * t->time.total_seconds / (double)t->time.decisions,
               1000.0 * t->time.max_seconds, 1000.0 * t->time.max_cpu_seconds);
        if (t->time.playouts > 0)
            printf(", %.0f playouts per decision",
                   (double)t->time.playouts / (double)t->time.decisions);
        printf(", over budget+10%%: %ld of %ld decisions\n", t->time.overruns, t->time.decisions);
    }
    if (!e->command)
        return;
    long all = 0;
    for (int v = MATCH_BAD_ANSWER; v <= MATCH_GONE; v++)
        all += t->forfeits[v];
    printf("  %-8s forfeits: %ld of %ld games (bad answer %ld, illegal %ld, late %ld, gone %ld)\n",
           e->label, all, t->games, t->forfeits[MATCH_BAD_ANSWER], t->forfeits[MATCH_ILLEGAL],
           t->forfeits[MATCH_LATE], t->forfeits[MATCH_GONE]);
}

static void print_standard(const arena_options *o, const tally *tallies, long deals, FILE *out,
                           bool brief)
{
    for (int i = 0; i < o->players; i++) {
        const tally *t = &tallies[i];
        double mean = t->score_sum / (double)deals;
        double hw = ci_half_width(t->score_sum, t->score_sq, deals);
        if (brief) {
            fprintf(out, " %s %.3f", entry_of(o, i)->label, mean);
            continue;
        }
        fprintf(out, "player %d %-8s win rate %.3f (95%% CI %.3f..%.3f), mean lowest %.2f\n", i,
                entry_of(o, i)->label, mean, hw < 0 ? mean : clamp01(mean - hw),
                hw < 0 ? mean : clamp01(mean + hw), t->lowest_sum / (double)t->games);
    }
}

/* Each contestant's win rate at each seat: beside the duplicate sets'
 * rate, which cancels the seat, it shows how much the seat itself decides
 * (in ROTA the second player wins most games between equals). */
static void print_by_seat(const arena_options *o, const tally *tallies)
{
    for (int i = 0; i < o->players; i++) {
        const tally *t = &tallies[i];
        printf("player %d %-8s by seat:", i, entry_of(o, i)->label);
        for (int s = 0; s < o->players; s++)
            printf("%s %.3f at seat %d (%ld games)", s ? "," : "",
                   t->seat_games[s] ? t->seat_share[s] / (double)t->seat_games[s] : 0.0, s,
                   t->seat_games[s]);
        printf("\n");
    }
}

/* Plays deal d once per seat rotation; adds each contestant's mean share. */
static int play_deal(const arena_options *o, long d, arena_run *run, tally *tallies)
{
    const ax_game *g = run->g;
    long n = o->players;
    double deal_share[MAX_CONTESTANTS] = {0};
    run->games = d * n; /* the games' numbers are the same in any worker */
    for (int r = 0; r < n; r++) {
        int at[AX_MAX_PLAYERS];
        for (int s = 0; s < n; s++)
            at[s] = (int)((s - r + n) % n); /* contestant i sits at seat i + r */
        uint64_t deal = o->seed + (uint64_t)d;
        if (play_one(o, deal, at, deal * 4 + (uint64_t)r, run, tallies))
            return 1;
        double share[AX_MAX_PLAYERS];
        first_place_shares(g, share);
        for (int s = 0; s < n; s++) {
            tally *t = &tallies[at[s]];
            deal_share[at[s]] += share[s] / (double)n;
            t->lowest_sum += match_lowest_track(g, s);
            t->games++;
            t->seat_share[s] += share[s];
            t->seat_games[s]++;
        }
    }
    for (int i = 0; i < n; i++) {
        tallies[i].score_sum += deal_share[i];
        tallies[i].score_sq += deal_share[i] * deal_share[i];
    }
    return 0;
}

/* Every contestant plays seed k alone; results[i] gets each result. */
static int play_seed(const arena_options *o, long k, arena_run *run, tally *tallies,
                     double *results)
{
    const ax_game *g = run->g;
    run->games = k * o->nentries;
    for (int i = 0; i < o->nentries; i++) {
        const int at[AX_MAX_PLAYERS] = {i};
        uint64_t deal = o->seed + (uint64_t)k;
        if (play_one(o, deal, at, deal * 4 + (uint64_t)i, run, tallies))
            return 1;
        tally *t = &tallies[i];
        double r = results[i] = (double)ax_solo_result(g);
        t->result_sum += r;
        t->result_sq += r * r;
        t->result_min = t->games == 0 || r < t->result_min ? r : t->result_min;
        t->result_max = t->games == 0 || r > t->result_max ? r : t->result_max;
        t->lowest_sum += match_lowest_track(g, 0);
        t->games++;
    }
    return 0;
}

/* What one deal (solo: one seed) added to every contestant's tally: a
 * worker's message to the process that adds them up. */
typedef struct {
    long index;
    double results[MAX_CONTESTANTS]; /* solo */
    tally add[MAX_CONTESTANTS];
} unit_report;

_Static_assert(sizeof(unit_report) <= PIPE_BUF, "a report is written to a pipe in one piece");

/* The run's deals (solo: seeds) and how many have been played. */
typedef struct {
    long units, played;
    double diff_sum, diff_sq; /* solo with two contestants: the paired difference */
} progress;

static int play_unit(const arena_options *o, long k, arena_run *run, unit_report *r)
{
    *r = (unit_report){.index = k};
    return o->m == AX_SOLO ? play_seed(o, k, run, r->add, r->results)
                           : play_deal(o, k, run, r->add);
}

static void add_tally(tally *t, const tally *a)
{
    if (a->games > 0) {
        t->result_min =
            t->games == 0 || a->result_min < t->result_min ? a->result_min : t->result_min;
        t->result_max =
            t->games == 0 || a->result_max > t->result_max ? a->result_max : t->result_max;
    }
    t->score_sum += a->score_sum;
    t->score_sq += a->score_sq;
    t->result_sum += a->result_sum;
    t->result_sq += a->result_sq;
    t->lowest_sum += a->lowest_sum;
    t->games += a->games;
    for (int s = 0; s < AX_MAX_PLAYERS; s++) {
        t->seat_share[s] += a->seat_share[s];
        t->seat_games[s] += a->seat_games[s];
    }
    add_time(t, &a->time);
    for (int v = 0; v <= MATCH_GONE; v++)
        t->forfeits[v] += a->forfeits[v];
}

/* Adds a deal's (solo: a seed's) report to the tallies and says so on stderr. */
static void take_report(const arena_options *o, const unit_report *r, progress *pr, tally *tallies)
{
    for (int i = 0; i < MAX_CONTESTANTS; i++)
        add_tally(&tallies[i], &r->add[i]);
    pr->played++;
    if (o->m != AX_SOLO) {
        fprintf(stderr, "arena: deal %ld/%ld, %ld games, win rates:", pr->played, pr->units,
                pr->played * o->players);
        print_standard(o, tallies, pr->played, stderr, true);
        fputc('\n', stderr);
        return;
    }
    if (o->nentries == 2) {
        double diff = r->results[0] - r->results[1];
        pr->diff_sum += diff;
        pr->diff_sq += diff * diff;
    }
    fprintf(stderr, "arena: seed %ld/%ld, mean results:", pr->played, pr->units);
    for (int i = 0; i < o->nentries; i++)
        fprintf(stderr, " %s %.2f", o->entries[i].label,
                tallies[i].result_sum / (double)pr->played);
    fputc('\n', stderr);
}

static void stop_engines(arena_run *run)
{
    for (int i = 0; i < MAX_CONTESTANTS; i++) {
        engine_stop(run->ext[i].engine, true);
        run->ext[i].engine = NULL;
    }
}

/* Reads len bytes; returns the number read, short only at the end of the pipe. */
static size_t read_fully(int fd, void *buf, size_t len)
{
    size_t got = 0;
    while (got < len) {
        ssize_t n = read(fd, (char *)buf + got, len - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    return got;
}

/* A worker: plays deals job, job + jobs, ... and reports each; never returns. */
static void work(const arena_options *o, arena_run *run, long units, long job, int fd)
{
    int rc = 0;
    for (long k = job; k < units && !stop_requested && rc == 0; k += o->jobs) {
        unit_report r;
        rc = play_unit(o, k, run, &r);
        ssize_t n;
        while (rc == 0 && (n = write(fd, &r, sizeof r)) != (ssize_t)sizeof r)
            if (n >= 0 || errno != EINTR)
                rc = 1; /* the process adding up is gone */
    }
    stop_engines(run);
    _exit(rc);
}

static bool exited_well(pid_t pid)
{
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return false;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* SIGUSR1, not the signal this process got: a worker may have had that one
 * too (a signal to the process group), and a second would stop it at once. */
static void tell_workers_to_stop(const pid_t *pid, const bool *running, long n)
{
    for (long j = 0; j < n; j++)
        if (running[j])
            kill(pid[j], SIGUSR1);
}

/* Plays the deals in o->jobs worker processes and adds up their reports.
 * A stop signal is passed on to the workers, which end the deal they are
 * playing; a worker that fails stops the others. */
static int play_in_workers(const arena_options *o, arena_run *run, progress *pr, tally *tallies)
{
    long jobs = o->jobs < pr->units ? o->jobs : pr->units, started = 0;
    pid_t pid[MAX_JOBS];
    bool running[MAX_JOBS] = {0};
    struct pollfd fds[MAX_JOBS];
    int rc = 0;
    stop_engines(run); /* each worker starts its own */
    /* The workers' stop request, set before fork so that none is without it; unlike the
     * first SIGINT or SIGTERM it may come again. */
    struct sigaction usr1 = {.sa_handler = request_stop};
    sigemptyset(&usr1.sa_mask);
    sigaction(SIGUSR1, &usr1, NULL);
    fflush(NULL);
    for (; started < jobs; started++) {
        int p[2];
        if (pipe(p) != 0) {
            fprintf(stderr, "axio arena: cannot make a pipe: %s\n", strerror(errno));
            rc = 1;
            break;
        }
        /* an external engine a worker starts must not hold the pipe open */
        fcntl(p[0], F_SETFD, FD_CLOEXEC);
        fcntl(p[1], F_SETFD, FD_CLOEXEC);
        pid_t child = fork();
        if (child < 0) {
            fprintf(stderr, "axio arena: cannot start a worker: %s\n", strerror(errno));
            close(p[0]);
            close(p[1]);
            rc = 1;
            break;
        }
        if (child == 0) {
            close(p[0]);
            for (long j = 0; j < started; j++)
                close(fds[j].fd);
            work(o, run, pr->units, started, p[1]);
        }
        close(p[1]);
        pid[started] = child;
        running[started] = true;
        fds[started] = (struct pollfd){.fd = p[0], .events = POLLIN};
    }
    bool told = rc != 0;
    if (told)
        tell_workers_to_stop(pid, running, started);
    for (long left = started; left > 0;) {
        if (stop_requested && !told) {
            tell_workers_to_stop(pid, running, started);
            told = true;
        }
        if (poll(fds, (nfds_t)started, -1) < 0) {
            if (errno == EINTR)
                continue;
            fprintf(stderr, "axio arena: poll: %s\n", strerror(errno));
            rc = 1;
            break;
        }
        for (long j = 0; j < started; j++) {
            if (fds[j].fd < 0 || !fds[j].revents)
                continue;
            unit_report r;
            size_t got = read_fully(fds[j].fd, &r, sizeof r);
            if (got == sizeof r) {
                take_report(o, &r, pr, tallies);
                continue;
            }
            close(fds[j].fd);
            fds[j].fd = -1;
            left--;
            running[j] = false;
            if (exited_well(pid[j]) && got == 0)
                continue;
            fprintf(stderr, "axio arena: worker %ld failed; stopping the others\n", j);
            rc = 1;
            if (!told)
                tell_workers_to_stop(pid, running, started);
            told = true;
        }
    }
    for (long j = 0; j < started; j++) {
        if (!running[j])
            continue;
        kill(pid[j], SIGKILL); /* only after a failure of this process */
        exited_well(pid[j]);
        if (fds[j].fd >= 0)
            close(fds[j].fd);
    }
    return rc;
}

/* Plays every deal (solo: seed) of the run, here or in workers, until the
 * end or a stop signal. */
static int play_units(const arena_options *o, arena_run *run, progress *pr, tally *tallies)
{
    if (o->jobs > 1)
        return play_in_workers(o, run, pr, tallies);
    for (long k = 0; k < pr->units && !stop_requested; k++) {
        unit_report r;
        if (play_unit(o, k, run, &r))
            return 1;
        take_report(o, &r, pr, tallies);
    }
    return 0;
}

/* The run's think time is told only where a player uses it: one whose label
 * sets its own (strong:movetime=333) is told by that label. */
static void print_heading(const arena_options *o, const char *what)
{
    printf("%s %ldp %s: %s from seed %llu", o->variant, o->players, ax_mode_name(o->m), what,
           (unsigned long long)o->seed);
    bool used = false;
    for (int i = 0; i < o->nentries; i++)
        used |= o->entries[i].movetime == o->movetime && o->entries[i].playouts == o->playouts;
    if (used)
        printf(", movetime %ld ms", o->movetime);
    if (used && o->playouts)
        printf(", %ld playouts", o->playouts);
    printf("\n");
}

static int run_standard(const arena_options *o, arena_run *run, tally *tallies)
{
    long n = o->players;
    progress pr = {.units = (o->games + n - 1) / n};
    if (play_units(o, run, &pr, tallies))
        return 1;
    long played = pr.played, deals = pr.units;
    char what[128];
    int len =
        snprintf(what, sizeof what, "%ld games (%ld deals x %ld seatings)", played * n, played, n);
    if (played < deals)
        snprintf(what + len, sizeof what - (size_t)len, ", interrupted after %ld of %ld deals",
                 played, deals);
    print_heading(o, what);
    if (played == 0)
        return EXIT_INTERRUPTED;
    print_standard(o, tallies, played, stdout, false);
    print_by_seat(o, tallies);
    for (int i = 0; i < n; i++)
        print_time(&tallies[i], entry_of(o, i));
    return played < deals ? EXIT_INTERRUPTED : 0;
}

static void print_solo(const arena_options *o, const tally *tallies, long n, double diff_sum,
                       double diff_sq)
{
    for (int i = 0; i < o->nentries; i++) {
        const tally *t = &tallies[i];
        double mean = t->result_sum / (double)n, hw = ci_half_width(t->result_sum, t->result_sq, n);
        double sd = hw > 0 ? hw / 1.96 * root((double)n) : 0;
        printf("player %d %-8s mean result %.2f (95%% CI +-%.2f), sd %.2f, min %.0f, max %.0f, "
               "mean lowest %.2f\n",
               i, o->entries[i].label, mean, hw > 0 ? hw : 0, sd, t->result_min, t->result_max,
               t->lowest_sum / (double)n);
    }
    if (o->nentries == 2) {
        double hw = ci_half_width(diff_sum, diff_sq, n);
        printf("paired difference %s - %s: %.2f (95%% CI +-%.2f)\n", o->entries[0].label,
               o->entries[1].label, diff_sum / (double)n, hw > 0 ? hw : 0);
    }
    for (int i = 0; i < o->nentries; i++)
        print_time(&tallies[i], &o->entries[i]);
}

static int run_solo(const arena_options *o, arena_run *run, tally *tallies)
{
    progress pr = {.units = o->games};
    if (play_units(o, run, &pr, tallies))
        return 1;
    long played = pr.played;
    char what[96];
    int len = snprintf(what, sizeof what, "%ld seeds", played);
    if (played < o->games)
        snprintf(what + len, sizeof what - (size_t)len, ", interrupted after %ld of %ld", played,
                 o->games);
    print_heading(o, what);
    if (played == 0)
        return EXIT_INTERRUPTED;
    print_solo(o, tallies, played, pr.diff_sum, pr.diff_sq);
    return played < o->games ? EXIT_INTERRUPTED : 0;
}

/* Starts the external engines before the first game, so that a command
 * that does not work is a usage error, not a run of forfeits. */
static int start_engines(const arena_options *o, arena_run *run, long contestants)
{
    for (int i = 0; i < contestants; i++) {
        const entry *e = entry_of(o, i);
        if (!e->command)
            continue;
        char err[400];
        run->ext[i].engine = engine_start(e->command, STARTUP_MS, err, sizeof err);
        if (!run->ext[i].engine)
            return usage_error("arena", "%s: %s", e->label, err);
        fprintf(stderr, "arena: player %d %s is the engine '%s'\n", i, e->label,
                engine_name(run->ext[i].engine));
    }
    return 0;
}

int cmd_arena(int argc, char **argv)
{
    arena_options o;
    int rc = parse_options(argc, argv, &o);
    if (rc != CLI_GO_ON)
        return rc;
    if (o.record_dir && mkdir(o.record_dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "axio arena: cannot create %s: %s\n", o.record_dir, strerror(errno));
        return 1;
    }
    arena_run run = {.g = malloc(sizeof *run.g), .init = malloc(sizeof *run.init)};
    tally tallies[MAX_CONTESTANTS] = {0};
    if (!run.g || !run.init) {
        free(run.g);
        free(run.init);
        fprintf(stderr, "axio arena: out of memory\n");
        return 1;
    }
    signal(SIGPIPE, SIG_IGN); /* an engine that went away is a failed write */
    long contestants = o.m == AX_SOLO ? o.nentries : o.players;
    rc = start_engines(&o, &run, contestants);
    if (rc == 0) {
        catch_stop_signals();
        rc = o.m == AX_SOLO ? run_solo(&o, &run, tallies) : run_standard(&o, &run, tallies);
    }
    stop_engines(&run);
    free(run.g);
    free(run.init);
    return rc;
}
