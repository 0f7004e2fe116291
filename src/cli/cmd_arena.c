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
 */
#include "../ai/player.h"
#include "../engine/axio.h"
#include "cli.h"
#include "match.h"

#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const help =
    "usage: axio arena --variant square|rota|hex --players N --ai A,B[,...] --games G --seed S\n"
    "                  [--movetime MS] [--playouts P] [--mode standard|solo|team]\n"
    "\n"
    "Plays duplicate sets between computer players: each deal (seed S, S+1, ...) is played\n"
    "N times with the seats rotated, so the luck of the draw cancels. Prints per player the\n"
    "win rate with a 95% confidence interval (ties as half wins, over deals), the mean lowest\n"
    "track, and the time per decision. Solo (--players 1): every player plays G seeds alone;\n"
    "prints the mean result, its spread and 95% interval, and for two players the paired\n"
    "difference.\n"
    "  --ai        one player per seat, repeated when shorter: random, greedy, strong\n"
    "  --games     games in all, rounded up to whole sets of N (solo: seeds per player)\n"
    "  --movetime  milliseconds per decision of a searching player (default 1000)\n"
    "  --playouts  fixed playouts per decision instead (then --movetime 0 is allowed)\n"
    "  --mode      default: solo for one player, standard otherwise; team: hex with 4\n"
    "Progress goes to stderr after every deal. SIGINT (Ctrl-C) or SIGTERM ends the run after\n"
    "the deal in progress and reports the deals played (exit 130); a second one stops at once.\n";

#define MAX_CONTESTANTS  AX_MAX_PLAYERS
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

typedef struct {
    const char *variant, *mode;
    long players, games, movetime, playouts;
    uint64_t seed;
    char names[MAX_CONTESTANTS][32];
    int nnames;
    int v, m;
} arena_options;

/* What one contestant did over the run. */
typedef struct {
    double score_sum, score_sq;   /* per deal: mean share of first place */
    double result_sum, result_sq; /* solo: per game */
    double result_min, result_max;
    double lowest_sum;
    long games;
    ax_player_stats time;
} tally;

static int split_names(const char *list, char names[MAX_CONTESTANTS][32])
{
    int n = 0;
    for (const char *p = list; *p;) {
        size_t len = strcspn(p, ",");
        if (n == MAX_CONTESTANTS || len == 0 || len >= 32)
            return -1;
        memcpy(names[n], p, len);
        names[n++][len] = 0;
        p += len + (p[len] == ',');
    }
    return n;
}

static int parse_options(int argc, char **argv, arena_options *o)
{
    static const struct option opts[] = {
        {"variant", required_argument, 0, 'v'},  {"players", required_argument, 0, 'p'},
        {"mode", required_argument, 0, 'm'},     {"seed", required_argument, 0, 's'},
        {"games", required_argument, 0, 'g'},    {"ai", required_argument, 0, 'a'},
        {"movetime", required_argument, 0, 't'}, {"playouts", required_argument, 0, 'n'},
        {"help", no_argument, 0, 'h'},           {0, 0, 0, 0}};
    const char *ai = NULL;
    bool have_seed = false, have_games = false;
    int c;
    *o = (arena_options){.players = 2, .movetime = AX_DEFAULT_MOVETIME_MS};
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 'v': o->variant = optarg; break;
        case 'm': o->mode = optarg; break;
        case 'a': ai = optarg; break;
        case 'p':
            if (!parse_long(optarg, 1, 4, &o->players))
                return usage_error("arena", "--players must be 1 to 4, not '%s'", optarg);
            break;
        case 'g':
            if (!parse_long(optarg, 1, 10000000, &o->games))
                return usage_error("arena", "--games must be a positive number");
            have_games = true;
            break;
        case 's':
            if (!parse_u64(optarg, &o->seed))
                return usage_error("arena", "--seed must be a number, not '%s'", optarg);
            have_seed = true;
            break;
        case 't':
            if (!parse_long(optarg, 0, 3600000, &o->movetime))
                return usage_error("arena", "--movetime must be 0 to 3600000 ms, not '%s'", optarg);
            break;
        case 'n':
            if (!parse_long(optarg, 0, 100000000, &o->playouts))
                return usage_error("arena", "--playouts must be a number, not '%s'", optarg);
            break;
        case 'h': fputs(help, stdout); return -1;
        default: return usage_error("arena", "unknown or incomplete option '%s'", argv[optind - 1]);
        }
    }
    if (optind < argc)
        return usage_error("arena", "unexpected argument '%s'", argv[optind]);
    if (!o->variant || !ai || !have_games || !have_seed)
        return usage_error("arena", "--variant, --ai, --games and --seed are required");
    if (o->movetime == 0 && o->playouts == 0)
        return usage_error("arena", "--movetime 0 needs --playouts");
    if (!parse_game_options("arena", o->variant, o->mode, o->players, &o->v, &o->m))
        return EXIT_USAGE;
    o->nnames = split_names(ai, o->names);
    if (o->nnames <= 0)
        return usage_error("arena", "--ai takes 1 to 4 names separated by commas");
    if (o->players > 1 && o->nnames > o->players)
        return usage_error("arena", "--ai names %d players for %ld seats", o->nnames, o->players);
    for (int i = 0; i < o->nnames; i++) {
        ax_player *probe = ax_player_new(o->names[i], 0);
        if (!probe)
            return usage_error("arena", "unknown player '%s' (random, greedy, strong)",
                               o->names[i]);
        ax_player_free(probe);
    }
    return 0;
}

static ax_player *make_player(const arena_options *o, int contestant, uint64_t seed)
{
    ax_player *p = ax_player_new(o->names[contestant % o->nnames], seed);
    if (p) {
        ax_player_set_movetime(p, (int)o->movetime);
        ax_player_set_playouts(p, o->playouts);
    }
    return p;
}

static void add_time(tally *t, const ax_player *p)
{
    ax_player_stats s;
    ax_player_get_stats(p, &s);
    t->time.decisions += s.decisions;
    t->time.total_seconds += s.total_seconds;
    t->time.playouts += s.playouts;
    if (s.max_seconds > t->time.max_seconds)
        t->time.max_seconds = s.max_seconds;
    if (s.max_cpu_seconds > t->time.max_cpu_seconds)
        t->time.max_cpu_seconds = s.max_cpu_seconds;
    t->time.overruns += s.overruns;
}

static int lowest_of(const ax_game *g, int seat)
{
    const uint8_t *t = g->track[ax_track_owner(g, seat)];
    int low = 255;
    for (int c = 0; c < g->ncolors; c++)
        low = t[c] < low ? t[c] : low;
    return low;
}

/* The share of first place of each seat of a finished game. */
static void first_place_shares(const ax_game *g, double share[AX_MAX_PLAYERS])
{
    ax_ranking rank;
    ax_rank(g, &rank);
    int first = 0;
    while (first < rank.n && rank.place[first] == 0)
        first++;
    double per_owner = g->mode == AX_TEAM ? 2.0 : 1.0; /* partners win together */
    for (int s = 0; s < g->players; s++)
        share[s] = 0;
    for (int i = 0; i < first; i++)
        share[rank.order[i]] = per_owner / first;
}

/* Plays one game; seat s holds contestant at[s]. Returns 0 or 1. */
static int play_one(const arena_options *o, uint64_t deal, const int at[AX_MAX_PLAYERS],
                    uint64_t player_seed, ax_game *g, ax_events *init, tally *tallies)
{
    ax_player *seats[AX_MAX_PLAYERS] = {0};
    const char *names[AX_MAX_PLAYERS];
    int rc = 0;
    ax_game_init(g, o->v, (int)o->players, o->m, deal, init);
    for (int s = 0; s < o->players; s++) {
        seats[s] = make_player(o, at[s], player_seed * 8 + (uint64_t)s);
        names[s] = o->names[at[s] % o->nnames];
        rc |= !seats[s];
    }
    if (rc == 0 && play_match(g, init, seats, names, NULL, NULL) != 0)
        rc = 1;
    for (int s = 0; s < o->players; s++) {
        if (rc == 0)
            add_time(&tallies[at[s]], seats[s]);
        ax_player_free(seats[s]);
    }
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

static void print_time(const tally *t, const char *name)
{
    if (t->time.decisions == 0)
        return;
    printf("  %-8s time per decision: mean %.1f ms, max %.1f ms (max cpu %.1f ms)", name,
           1000.0 * t->time.total_seconds / (double)t->time.decisions, 1000.0 * t->time.max_seconds,
           1000.0 * t->time.max_cpu_seconds);
    if (t->time.playouts > 0)
        printf(", %.0f playouts per decision",
               (double)t->time.playouts / (double)t->time.decisions);
    printf(", over budget+10%%: %ld of %ld decisions\n", t->time.overruns, t->time.decisions);
}

static void print_standard(const arena_options *o, const tally *tallies, long deals, FILE *out,
                           bool brief)
{
    for (int i = 0; i < o->players; i++) {
        const tally *t = &tallies[i];
        double mean = t->score_sum / (double)deals;
        double hw = ci_half_width(t->score_sum, t->score_sq, deals);
        if (brief) {
            fprintf(out, " %s %.3f", o->names[i % o->nnames], mean);
            continue;
        }
        fprintf(out, "player %d %-8s win rate %.3f (95%% CI %.3f..%.3f), mean lowest %.2f\n", i,
                o->names[i % o->nnames], mean, hw < 0 ? mean : clamp01(mean - hw),
                hw < 0 ? mean : clamp01(mean + hw), t->lowest_sum / (double)t->games);
    }
}

/* Plays deal d once per seat rotation; adds each contestant's mean share. */
static int play_deal(const arena_options *o, long d, ax_game *g, ax_events *init, tally *tallies)
{
    long n = o->players;
    double deal_share[MAX_CONTESTANTS] = {0};
    for (int r = 0; r < n; r++) {
        int at[AX_MAX_PLAYERS];
        for (int s = 0; s < n; s++)
            at[s] = (int)((s - r + n) % n); /* contestant i sits at seat i + r */
        uint64_t deal = o->seed + (uint64_t)d;
        if (play_one(o, deal, at, deal * 4 + (uint64_t)r, g, init, tallies))
            return 1;
        double share[AX_MAX_PLAYERS];
        first_place_shares(g, share);
        for (int s = 0; s < n; s++) {
            deal_share[at[s]] += share[s] / (double)n;
            tallies[at[s]].lowest_sum += lowest_of(g, s);
            tallies[at[s]].games++;
        }
    }
    for (int i = 0; i < n; i++) {
        tallies[i].score_sum += deal_share[i];
        tallies[i].score_sq += deal_share[i] * deal_share[i];
    }
    return 0;
}

static void print_heading(const arena_options *o, const char *what)
{
    printf("%s %ldp %s: %s from seed %llu, movetime %ld ms", o->variant, o->players,
           ax_mode_name(o->m), what, (unsigned long long)o->seed, o->movetime);
    if (o->playouts)
        printf(", %ld playouts", o->playouts);
    printf("\n");
}

static int run_standard(const arena_options *o, ax_game *g, ax_events *init)
{
    long n = o->players, deals = (o->games + n - 1) / n, played = 0;
    tally tallies[MAX_CONTESTANTS] = {0};
    for (; played < deals && !stop_requested; played++) {
        if (play_deal(o, played, g, init, tallies)) {
            fprintf(stderr, "axio arena: out of memory\n");
            return 1;
        }
        fprintf(stderr, "arena: deal %ld/%ld, %ld games, win rates:", played + 1, deals,
                (played + 1) * n);
        print_standard(o, tallies, played + 1, stderr, true);
        fputc('\n', stderr);
    }
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
    for (int i = 0; i < n; i++)
        print_time(&tallies[i], o->names[i % o->nnames]);
    return played < deals ? EXIT_INTERRUPTED : 0;
}

/* Every contestant plays seed k alone; results[i] gets each result. */
static int play_seed(const arena_options *o, long k, ax_game *g, ax_events *init, tally *tallies,
                     double *results)
{
    for (int i = 0; i < o->nnames; i++) {
        const int at[AX_MAX_PLAYERS] = {i};
        uint64_t deal = o->seed + (uint64_t)k;
        if (play_one(o, deal, at, deal * 4 + (uint64_t)i, g, init, tallies))
            return 1;
        tally *t = &tallies[i];
        double r = results[i] = (double)ax_solo_result(g);
        t->result_sum += r;
        t->result_sq += r * r;
        t->result_min = t->games == 0 || r < t->result_min ? r : t->result_min;
        t->result_max = t->games == 0 || r > t->result_max ? r : t->result_max;
        t->lowest_sum += lowest_of(g, 0);
        t->games++;
    }
    return 0;
}

static void print_solo(const arena_options *o, const tally *tallies, long n, double diff_sum,
                       double diff_sq)
{
    for (int i = 0; i < o->nnames; i++) {
        const tally *t = &tallies[i];
        double mean = t->result_sum / (double)n, hw = ci_half_width(t->result_sum, t->result_sq, n);
        double sd = hw > 0 ? hw / 1.96 * root((double)n) : 0;
        printf("player %d %-8s mean result %.2f (95%% CI +-%.2f), sd %.2f, min %.0f, max %.0f, "
               "mean lowest %.2f\n",
               i, o->names[i], mean, hw > 0 ? hw : 0, sd, t->result_min, t->result_max,
               t->lowest_sum / (double)n);
    }
    if (o->nnames == 2) {
        double hw = ci_half_width(diff_sum, diff_sq, n);
        printf("paired difference %s - %s: %.2f (95%% CI +-%.2f)\n", o->names[0], o->names[1],
               diff_sum / (double)n, hw > 0 ? hw : 0);
    }
    for (int i = 0; i < o->nnames; i++)
        print_time(&tallies[i], o->names[i]);
}

static int run_solo(const arena_options *o, ax_game *g, ax_events *init)
{
    tally tallies[MAX_CONTESTANTS] = {0};
    double diff_sum = 0, diff_sq = 0;
    long played = 0;
    for (; played < o->games && !stop_requested; played++) {
        double results[MAX_CONTESTANTS];
        if (play_seed(o, played, g, init, tallies, results)) {
            fprintf(stderr, "axio arena: out of memory\n");
            return 1;
        }
        if (o->nnames == 2) {
            diff_sum += results[0] - results[1];
            diff_sq += (results[0] - results[1]) * (results[0] - results[1]);
        }
        fprintf(stderr, "arena: seed %ld/%ld, mean results:", played + 1, o->games);
        for (int i = 0; i < o->nnames; i++)
            fprintf(stderr, " %s %.2f", o->names[i], tallies[i].result_sum / (double)(played + 1));
        fputc('\n', stderr);
    }
    char what[96];
    int len = snprintf(what, sizeof what, "%ld seeds", played);
    if (played < o->games)
        snprintf(what + len, sizeof what - (size_t)len, ", interrupted after %ld of %ld", played,
                 o->games);
    print_heading(o, what);
    if (played == 0)
        return EXIT_INTERRUPTED;
    print_solo(o, tallies, played, diff_sum, diff_sq);
    return played < o->games ? EXIT_INTERRUPTED : 0;
}

int cmd_arena(int argc, char **argv)
{
    arena_options o;
    int rc = parse_options(argc, argv, &o);
    if (rc)
        return rc < 0 ? 0 : rc;
    ax_game *g = malloc(sizeof *g);
    ax_events *init = malloc(sizeof *init);
    if (!g || !init) {
        free(g);
        free(init);
        fprintf(stderr, "axio arena: out of memory\n");
        return 1;
    }
    catch_stop_signals();
    rc = o.m == AX_SOLO ? run_solo(&o, g, init) : run_standard(&o, g, init);
    free(g);
    free(init);
    return rc;
}
