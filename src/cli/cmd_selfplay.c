/*
 * cmd_selfplay.c - `axio selfplay`: games between built-in players.
 *
 * Game k uses seed S + k. Each record is written to a temporary file and
 * renamed into place, so DIR never holds half a record. --leaves makes seats
 * leave at random moments (rules 6), drawn from a generator of its own seeded
 * from the game's seed: a run is reproducible, and the players' generators
 * are the same as without leaves.
 */
#include "../engine/axio.h"
#include "../engine/picture.h"
#include "cli.h"
#include "match.h"
#include "options.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char usage[] =
    "usage: axio selfplay [--variant square|rota|hex] [--players N] [--mode standard|solo|team]\n"
    "                     [--seed S] [--games G] [--ai NAME[,NAME...]] [--movetime MS]\n"
    "                     [--record DIR] [--show] [--leaves N]\n"
    "\n"
    "Plays G games between built-in players (game k uses seed S+k) and prints a summary:\n"
    "wins per seat and the mean lowest track (solo: the mean result).\n";

typedef struct {
    const char *variant, *mode, *ai, *dir;
    long players, games, movetime, leave_every;
    uint64_t seed;
    bool show;
} selfplay_options;

static int parse_options(int argc, char **argv, selfplay_options *o)
{
    *o = (selfplay_options){.variant = "square",
                            .ai = "random",
                            .players = 2,
                            .games = 1,
                            .movetime = AX_DEFAULT_MOVETIME_MS,
                            .seed = 1};
    const cli_option options[] = {
        {"variant", OPT_STRING, &o->variant, .help = "the game (default square)"},
        {"players", OPT_LONG, &o->players, .min = 1, .max = 4, .help = "1 to 4 (default 2)"},
        {"mode", OPT_STRING, &o->mode,
         .help = "default: solo for one player, standard otherwise; team: hex with 4"},
        {"seed", OPT_U64, &o->seed, .help = "first seed (default 1)"},
        {"games", OPT_LONG, &o->games, .min = 1, .max = 100000000,
         .help = "number of games (default 1)"},
        {"ai", OPT_STRING, &o->ai,
         .help = "players by seat, repeated when shorter: random, greedy, strong\n"
                 "(default random)"},
        {"movetime", OPT_LONG, &o->movetime, .min = 1, .max = 3600000, .unit = "ms",
         .help = "milliseconds per decision of a searching player (default 1000)"},
        {"record", OPT_STRING, &o->dir,
         .help = "write one record per game into DIR (created if missing)"},
        {"show", OPT_FLAG, &o->show, .help = "print each game's final board, tracks and ranking"},
        {"leaves", OPT_LONG, &o->leave_every, .min = 1, .max = 1000000, .unit = "decisions",
         .help = "seats leave at random moments (rules 6), one leave in N decisions on\n"
                 "average, for a random reason; reproducible from the seed"},
        {0}};
    const cli_command command = {"selfplay", usage, options, 14, false, NULL};
    return cli_parse(&command, argc, argv, NULL);
}

#define MAX_AI 4

static int split_ai(const char *list, char names[MAX_AI][32])
{
    int n = 0;
    const char *p = list;
    while (*p) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (n == MAX_AI || len == 0 || len >= 32)
            return -1;
        memcpy(names[n], p, len);
        names[n][len] = 0;
        n++;
        p += len;
        if (*p == ',')
            p++;
    }
    return n;
}

#define PATH_SIZE 4096

static int open_record(const char *dir, const ax_game *g, char path[PATH_SIZE],
                       char tmp[PATH_SIZE + 8], FILE **out)
{
    snprintf(path, PATH_SIZE, "%s/%s-%dp-%s-%llu.jsonl", dir, ax_variant_name(g->variant),
             g->players, ax_mode_name(g->mode), (unsigned long long)g->seed);
    snprintf(tmp, PATH_SIZE + 8, "%s.tmp", path);
    *out = fopen(tmp, "w");
    return *out ? 0 : -1;
}

/* The game's picture on stdout. */
static void print_picture(const ax_game *g)
{
    size_t len = ax_picture(g, NULL, 0);
    char *text = malloc(len + 1);
    if (text) {
        ax_picture(g, text, len + 1);
        fputs(text, stdout);
    }
    free(text);
}

/* The players of --ai, each one that exists: their number, or -1 after
 * saying what is wrong. */
static int read_players(const char *list, char names[MAX_AI][32])
{
    int n = split_ai(list, names);
    if (n <= 0) {
        usage_error("selfplay", "--ai takes up to 4 names separated by commas");
        return -1;
    }
    for (int i = 0; i < n; i++) {
        ax_player *probe = ax_player_new(names[i], 0);
        if (!probe) {
            usage_error("selfplay", "unknown player '%s' (random, greedy, strong)", names[i]);
            return -1;
        }
        ax_player_free(probe);
    }
    return n;
}

/* What the games added up to. */
typedef struct {
    long wins[AX_MAX_PLAYERS], shared[AX_MAX_PLAYERS], nleaves, ended_left;
    double lowest_sum[AX_MAX_PLAYERS], result_sum;
} summary;

static void count_game(summary *sum, const ax_game *g)
{
    ax_ranking rank;
    int first = match_first_place(g, &rank);
    int winners = g->mode == AX_TEAM ? 2 : 1; /* partners win together */
    for (int i = 0; i < first; i++)
        (first == winners ? sum->wins : sum->shared)[rank.order[i]]++;
    for (int s = 0; s < g->players; s++)
        sum->lowest_sum[s] += match_lowest_track(g, s);
    if (g->mode == AX_SOLO)
        sum->result_sum += (double)ax_solo_result(g);
    sum->nleaves += g->nleft;
    sum->ended_left += g->end_reason == AX_END_LEFT;
}

/* Plays game k into g, its record into o->dir: 0, or 1 after saying why. */
static int play_game(const selfplay_options *o, int v, int m, long k, char names[MAX_AI][32],
                     int nai, ax_game *g, ax_events *init)
{
    uint64_t seed = o->seed + (uint64_t)k;
    ax_game_init(g, v, (int)o->players, m, seed, init);
    ax_player *seats[AX_MAX_PLAYERS];
    const char *seat_names[AX_MAX_PLAYERS];
    for (int s = 0; s < o->players; s++) {
        seats[s] = ax_player_new(names[s % nai], seed * 31 + (uint64_t)s);
        ax_player_set_movetime(seats[s], (int)o->movetime);
        seat_names[s] = names[s % nai];
    }
    int rc = 0;
    FILE *record = NULL;
    char path[PATH_SIZE], tmp[PATH_SIZE + 8];
    if (o->dir && open_record(o->dir, g, path, tmp, &record)) {
        fprintf(stderr, "axio selfplay: cannot write %s: %s\n", tmp, strerror(errno));
        rc = 1;
    }
    match_leaves leaves = {.every = (int)o->leave_every};
    ax_rng_seed(&leaves.rng, seed ^ 0x6c65617665ULL); /* "leave" */
    if (rc == 0 &&
        play_match(g, init, seats, seat_names, record, o->leave_every ? &leaves : NULL) != 0)
        rc = 1;
    if (record) {
        if (fclose(record) != 0)
            rc = 1;
        if (rc == 0 && rename(tmp, path) != 0)
            rc = 1;
        if (rc) {
            fprintf(stderr, "axio selfplay: cannot write %s: %s\n", path, strerror(errno));
            remove(tmp);
        }
    }
    for (int s = 0; s < o->players; s++)
        ax_player_free(seats[s]);
    return rc;
}

static void print_summary(const selfplay_options *o, int m, char names[MAX_AI][32], int nai,
                          const summary *sum)
{
    printf("%s %ldp %s, %ld games from seed %llu\n", o->variant, o->players, ax_mode_name(m),
           o->games, (unsigned long long)o->seed);
    for (int s = 0; s < o->players; s++)
        printf("seat %d %-8s wins %ld, shared first %ld, mean lowest %.2f\n", s, names[s % nai],
               sum->wins[s], sum->shared[s], sum->lowest_sum[s] / (double)o->games);
    if (m == AX_SOLO)
        printf("mean result %.2f\n", sum->result_sum / (double)o->games);
    if (o->leave_every)
        printf("%ld leaves, %ld games ended because players left\n", sum->nleaves, sum->ended_left);
}

int cmd_selfplay(int argc, char **argv)
{
    selfplay_options o;
    int rc = parse_options(argc, argv, &o), v, m;
    if (rc != CLI_GO_ON)
        return rc;
    if (!parse_game_options("selfplay", o.variant, o.mode, o.players, &v, &m))
        return EXIT_USAGE;
    char names[MAX_AI][32];
    int nai = read_players(o.ai, names);
    if (nai < 0)
        return EXIT_USAGE;
    if (o.dir && mkdir(o.dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "axio selfplay: cannot create %s: %s\n", o.dir, strerror(errno));
        return 1;
    }
    summary sum = {0};
    ax_game *g = malloc(sizeof *g);
    ax_events *init = malloc(sizeof *init);
    rc = g && init ? 0 : 1;
    if (rc)
        fprintf(stderr, "axio selfplay: out of memory\n");
    for (long k = 0; k < o.games && rc == 0; k++) {
        rc = play_game(&o, v, m, k, names, nai, g, init);
        if (rc == 0 && o.show) {
            printf("game %ld, seed %llu:\n", k + 1, (unsigned long long)g->seed);
            print_picture(g);
        }
        if (rc == 0)
            count_game(&sum, g);
    }
    free(g);
    free(init);
    if (rc == 0)
        print_summary(&o, m, names, nai, &sum);
    return rc;
}
