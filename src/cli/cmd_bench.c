/*
 * cmd_bench.c - `axio bench`: the engine's random-playout speed and the
 * computer players' decision times.
 *
 * Engine: for each variant, plays a fixed number of 2-player games with
 * uniformly random decisions from a fixed seed, several times, on one
 * thread. The ply count and the checksum of the final tracks are
 * reproducible (the same on every run and machine); the speed is the median
 * over the repetitions.
 *
 * Players: every level decides in the same fixed positions (taken from
 * greedy games of the seed); `strong` searches a fixed number of playouts
 * per decision, so its decisions and playout count are reproducible and
 * only the time varies: the median decision time and the playouts per
 * second. With --movetime, strong also decides on the clock.
 *
 * Tournaments (--only tournament): a Swiss of --entrants players (1000) at
 * 2, 3 and 4 seats plays --rounds rounds (5) with random results from the
 * seed, then the next round's pairing is timed --repeat times; an arena
 * pairing of --waiting players (500) of that field is timed the same way.
 * The tables are reproducible (their checksum is printed); only the time
 * varies.
 */
#include "../ai/player.h"
#include "../engine/axio.h"
#include "../tournament/tournament.h"
#include "cli.h"
#include "options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "usage: axio bench [--variant square|rota|hex] [--players N] [--mode standard|solo|team]\n"
    "                  [--games N] [--repeat R] [--seed S] [--only engine|ai]\n"
    "                  [--positions D] [--playouts P] [--movetime MS]\n"
    "\n"
    "Engine: plays N random games per variant (default 20000; 2 players, standard), R times\n"
    "(default 5), on one core, and prints the plies (decisions), a checksum of the results,\n"
    "and the median speed in plies per second. Without --variant, every variant.\n"
    "Players: each level decides in D fixed positions (default 24) and the median and\n"
    "largest decision times are printed; strong searches P playouts per decision (default\n"
    "1000: reproducible decisions, checksum and playout count) and its playouts per second\n"
    "are printed; with --movetime, strong also decides on a clock of MS per decision.\n"
    "\n"
    "       axio bench --only tournament [--entrants N] [--rounds K] [--waiting W]\n"
    "                  [--repeat R] [--seed S]\n"
    "\n"
    "Tournaments: a Swiss of N players (default 1000) at 2, 3 and 4 seats plays K rounds\n"
    "(default 5) with random results, then the pairing of the next round is timed R times;\n"
    "an arena pairing of W waiting players (default 500) of that field is timed as well.\n"
    "Prints the tables' checksum, the repeated meetings and the median time.\n";

typedef struct {
    long plies;
    uint64_t checksum;
    double seconds;
} bench_run;

static bench_run run_playouts(int variant, int players, int mode, long games, uint64_t seed)
{
    bench_run out = {0, 0, 0};
    ax_game g;
    ax_rng rng;
    ax_rng_seed(&rng, seed ^ 0x5eedULL);
    double start = now_seconds();
    for (long k = 0; k < games; k++) {
        ax_game_init(&g, variant, players, mode, seed + (uint64_t)k, NULL);
        while (g.phase != AX_PHASE_OVER) {
            ax_move m;
            ax_random_move(&g, &rng, &m);
            ax_apply(&g, &m, NULL);
            out.plies++;
        }
        for (int s = 0; s < players; s++)
            for (int c = 0; c < g.ncolors; c++)
                out.checksum = out.checksum * 31 + g.track[s][c];
    }
    out.seconds = now_seconds() - start;
    return out;
}

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void bench_engine(int variant, int players, int mode, long games, long repeat, uint64_t seed)
{
    double speeds[101];
    bench_run run = {0, 0, 0};
    for (long r = 0; r < repeat; r++) {
        run = run_playouts(variant, players, mode, games, seed);
        speeds[r] = (double)run.plies / (run.seconds > 0 ? run.seconds : 1e-9);
    }
    qsort(speeds, (size_t)repeat, sizeof speeds[0], compare_double);
    printf("%-6s %dp %-8s random playouts: %ld games, %ld plies, checksum %016llx, median %.0f "
           "plies/s (min %.0f, max %.0f, %ld runs)\n",
           ax_variant_name(variant), players, ax_mode_name(mode), games, run.plies,
           (unsigned long long)run.checksum, speeds[repeat / 2], speeds[0], speeds[repeat - 1],
           repeat);
}

/* --- players --- */

#define MAX_POSITIONS   1000
#define POSITION_STRIDE 3 /* decisions between two benchmark positions */

typedef struct {
    long positions, playouts, movetime;
} ai_bench;

/* Fixed positions: every third decision of greedy games from the seed. */
static int bench_positions(int variant, int players, int mode, uint64_t seed, ax_game *out,
                           int count)
{
    ax_player *greedy = ax_player_new("greedy", seed);
    ax_game *g = malloc(sizeof *g), *view = malloc(sizeof *view);
    int n = 0;
    for (uint64_t k = 0; greedy && g && view && n < count; k++) {
        ax_game_init(g, variant, players, mode, seed + k, NULL);
        for (long ply = 0; g->phase != AX_PHASE_OVER && n < count; ply++) {
            if (ply % POSITION_STRIDE == 0)
                out[n++] = *g;
            ax_move m;
            ax_view(g, g->to_move, view);
            ax_player_decide(greedy, view, g->to_move, &m);
            ax_apply(g, &m, NULL);
        }
    }
    ax_player_free(greedy);
    free(g);
    free(view);
    return n;
}

static uint64_t hash_move(uint64_t h, const ax_move *m)
{
    const int parts[] = {m->kind,     m->rack_index, m->rotation, m->accept, m->wild,
                         m->cells[0], m->cells[1],   m->x,        m->y};
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
        h = (h ^ (uint64_t)(uint32_t)parts[i]) * 0x100000001b3ULL;
    return h;
}

/* One level decides in every position; prints its times (and search speed). */
static int bench_level(const char *name, const ax_game *pos, int n, const ai_bench *ab,
                       bool on_clock, uint64_t seed, const char *label)
{
    ax_player *p = ax_player_new(name, seed);
    ax_game *view = malloc(sizeof *view);
    double *times = malloc((size_t)n * sizeof *times);
    if (!p || !view || !times) {
        ax_player_free(p);
        free(view);
        free(times);
        fprintf(stderr, "axio bench: out of memory\n");
        return 1;
    }
    ax_player_set_movetime(p, on_clock ? (int)ab->movetime : 0);
    ax_player_set_playouts(p, on_clock ? 0 : ab->playouts);
    uint64_t checksum = 0xcbf29ce484222325ULL;
    for (int i = 0; i < n; i++) {
        ax_move m;
        ax_view(&pos[i], pos[i].to_move, view);
        double start = now_seconds();
        ax_player_decide(p, view, pos[i].to_move, &m);
        times[i] = now_seconds() - start;
        checksum = hash_move(checksum, &m);
    }
    ax_player_stats st;
    ax_player_get_stats(p, &st);
    qsort(times, (size_t)n, sizeof times[0], compare_double);
    printf("%s %-6s %d decisions: median %.3f ms, max %.3f ms", label, name, n, 1000 * times[n / 2],
           1000 * times[n - 1]);
    if (st.playouts > 0)
        printf(", %.0f playouts/decision, %.2f plies/playout, %.0f playouts/s",
               (double)st.playouts / n, (double)st.plies / (double)st.playouts,
               (double)st.playouts / (st.total_seconds > 0 ? st.total_seconds : 1e-9));
    if (on_clock)
        printf(" (movetime %ld ms)\n", ab->movetime);
    else
        printf(", checksum %016llx\n", (unsigned long long)checksum);
    ax_player_free(p);
    free(view);
    free(times);
    return 0;
}

static int bench_players(int variant, int players, int mode, uint64_t seed, const ai_bench *ab)
{
    ax_game *pos = malloc((size_t)ab->positions * sizeof *pos);
    if (!pos) {
        fprintf(stderr, "axio bench: out of memory\n");
        return 1;
    }
    int n = bench_positions(variant, players, mode, seed, pos, (int)ab->positions), rc = 0;
    char label[64];
    snprintf(label, sizeof label, "%-6s %dp %-8s", ax_variant_name(variant), players,
             ax_mode_name(mode));
    for (int k = 0; ax_player_names[k] && rc == 0 && n > 0; k++)
        rc = bench_level(ax_player_names[k], pos, n, ab, false, seed, label);
    if (rc == 0 && n > 0 && ab->movetime > 0)
        rc = bench_level("strong", pos, n, ab, true, seed, label);
    free(pos);
    return rc;
}

/* --- tournaments --- */

typedef struct {
    long entrants, rounds, waiting;
} tn_bench;

/* random places, some shared, scored by tn_table_points */
static void play_table(const int *who, int k, ax_rng *rng, tn_player *p)
{
    int draw[TN_MAX_SEATS], dense[TN_MAX_SEATS];
    for (int i = 0; i < k; i++)
        draw[i] = (int)ax_rng_below(rng, (uint32_t)(k + 1));
    for (int i = 0; i < k; i++) {
        dense[i] = 0;
        for (int j = 0; j < k; j++)
            dense[i] += draw[j] > draw[i]; /* higher draw, better */
    }
    ax_ranking r = {.n = k};
    int pos = 0;
    for (int v = 0; v < k; v++)
        for (int i = 0; i < k; i++)
            if (dense[i] == v) {
                r.order[pos] = i;
                r.place[pos] = v;
                pos++;
            }
    int pts[TN_MAX_SEATS];
    tn_table_points(k, &r, NULL, pts);
    for (int i = 0; i < k; i++)
        p[who[i]].score += pts[i];
}

static uint64_t hash_tables(const int *table, int n)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (int i = 0; i < n; i++)
        h = (h ^ (uint64_t)(uint32_t)table[i]) * 0x100000001b3ULL;
    return h;
}

static int bench_tournament_seats(int seats, const tn_bench *tb, long repeat, uint64_t seed)
{
    int n = (int)tb->entrants;
    tn_player *p = calloc((size_t)n, sizeof *p);
    uint16_t *met = calloc((size_t)n * (size_t)n, sizeof *met);
    int *table = malloc(sizeof(int) * (size_t)n), *last = malloc(sizeof(int) * (size_t)n * 4);
    int *members = malloc(sizeof(int) * (size_t)n * TN_MAX_SEATS), *count = NULL;
    double *times = malloc(sizeof(double) * (size_t)repeat);
    count = malloc(sizeof(int) * (size_t)n);
    int rc = 1;
    if (!p || !met || !table || !last || !members || !count || !times) {
        fprintf(stderr, "axio bench: out of memory\n");
        goto done;
    }
    ax_rng rng;
    ax_rng_seed(&rng, seed ^ 0x70a7ULL);
    for (int i = 0; i < n; i++) {
        p[i] = (tn_player){i, 1000 + (int)ax_rng_below(&rng, 1200), 0, 0, false};
        for (int l = 0; l < TN_MAX_SEATS; l++)
            last[i * TN_MAX_SEATS + l] = -1;
    }
    long repeats = 0;
    for (long round = 0; round <= tb->rounds; round++) {
        /* the last round is the one timed */
        for (long r = 0; r < (round == tb->rounds ? repeat : 1); r++) {
            double start = now_seconds();
            int nt = tn_swiss_pair(p, n, met, seats, table);
            double took = now_seconds() - start;
            if (nt < 0) {
                fprintf(stderr, "axio bench: tn_swiss_pair refused %d players\n", n);
                goto done;
            }
            if (round == tb->rounds)
                times[r] = took;
        }
        int nt = 0;
        for (int i = 0; i < n; i++) {
            if (table[i] >= 0 && table[i] + 1 > nt)
                nt = table[i] + 1;
        }
        for (int t = 0; t < nt; t++)
            count[t] = 0;
        for (int i = 0; i < n; i++)
            if (table[i] >= 0)
                members[table[i] * TN_MAX_SEATS + count[table[i]]++] = i;
            else
                p[i].byes++, p[i].score += tn_bye_points(seats);
        repeats = 0;
        for (int t = 0; t < nt; t++) {
            int *w = &members[t * TN_MAX_SEATS], k = count[t];
            for (int i = 0; i < k; i++) {
                int l = 0;
                for (int j = 0; j < k; j++) {
                    if (i == j)
                        continue;
                    repeats += met[(size_t)w[i] * (size_t)n + (size_t)w[j]] > 0;
                    met[(size_t)w[i] * (size_t)n + (size_t)w[j]]++;
                    last[w[i] * TN_MAX_SEATS + l++] = w[j];
                }
                while (l < TN_MAX_SEATS)
                    last[w[i] * TN_MAX_SEATS + l++] = -1;
                if (k < seats)
                    p[w[i]].byes++;
            }
            play_table(w, k, &rng, p);
        }
        if (round == tb->rounds) {
            qsort(times, (size_t)repeat, sizeof times[0], compare_double);
            printf("swiss  %d seats %d players, round %ld: %d tables, %ld repeated meetings, "
                   "checksum %016llx, median %.2f ms (min %.2f, max %.2f, %ld runs)\n",
                   seats, n, tb->rounds + 1, nt, repeats / 2,
                   (unsigned long long)hash_tables(table, n), 1000 * times[repeat / 2],
                   1000 * times[0], 1000 * times[repeat - 1], repeat);
        }
    }
    /* the arena: every other player of the field waits, in id order */
    int w = (int)(tb->waiting < n ? tb->waiting : n);
    int *waiting = malloc(sizeof(int) * (size_t)(w > 0 ? w : 1));
    if (!waiting) {
        fprintf(stderr, "axio bench: out of memory\n");
        goto done;
    }
    for (int k = 0; k < w; k++)
        waiting[k] = (int)(((long)k * n) / w);
    int nt = 0;
    for (long r = 0; r < repeat; r++) {
        double start = now_seconds();
        nt = tn_arena_pair(p, n, last, waiting, w, seats, table);
        times[r] = now_seconds() - start;
    }
    qsort(times, (size_t)repeat, sizeof times[0], compare_double);
    printf("arena  %d seats %d waiting of %d: %d tables, checksum %016llx, median %.2f ms (min "
           "%.2f, max %.2f, %ld runs)\n",
           seats, w, n, nt, (unsigned long long)hash_tables(table, w), 1000 * times[repeat / 2],
           1000 * times[0], 1000 * times[repeat - 1], repeat);
    free(waiting);
    rc = nt < 0;
done:
    free(p), free(met), free(table), free(last), free(members), free(count), free(times);
    return rc;
}

static bool parse_variant(const char *text, void *target)
{
    int v = ax_variant_parse(text);
    if (v < 0)
        return false;
    *(int *)target = v;
    return true;
}

typedef struct {
    long games, repeat, players;
    ai_bench ab;
    tn_bench tb;
    const char *mode;
    uint64_t seed;
    int variant, only; /* -1: every variant, and both benchmarks */
} bench_options;

static int parse_options(int argc, char **argv, bench_options *o)
{
    static const char *const benchmarks[] = {"engine", "ai", "tournament", NULL};
    *o = (bench_options){.games = 20000,
                         .repeat = 5,
                         .players = 2,
                         .ab = {.positions = 24, .playouts = 1000},
                         .tb = {.entrants = 1000, .rounds = 5, .waiting = 500},
                         .seed = 1,
                         .variant = -1,
                         .only = -1};
    const cli_option options[] = {
        {"variant", OPT_PARSE, &o->variant, .parse = parse_variant,
         .must = "must be square, rota or hex"},
        {"games", OPT_LONG, &o->games, .min = 1, .max = 100000000},
        {"repeat", OPT_LONG, &o->repeat, .min = 1, .max = 101},
        {"seed", OPT_U64, .target = &o->seed},
        {"players", OPT_LONG, &o->players, .min = 1, .max = 4},
        {"mode", OPT_STRING, .target = &o->mode},
        {"only", OPT_CHOICE, &o->only, .choices = benchmarks},
        {"positions", OPT_LONG, &o->ab.positions, .min = 1, .max = MAX_POSITIONS},
        {"playouts", OPT_LONG, &o->ab.playouts, .min = 1, .max = 100000000},
        {"movetime", OPT_LONG, &o->ab.movetime, .min = 1, .max = 3600000, .unit = "ms"},
        {"entrants", OPT_LONG, &o->tb.entrants, .min = 2, .max = TN_MAX_PLAYERS},
        {"rounds", OPT_LONG, &o->tb.rounds, .min = 0, .max = 100},
        {"waiting", OPT_LONG, &o->tb.waiting, .min = 2, .max = TN_MAX_PLAYERS},
        {0}};
    const cli_command command = {"bench", usage, options, 0, false, NULL};
    return cli_parse(&command, argc, argv, NULL);
}

int cmd_bench(int argc, char **argv)
{
    bench_options o;
    int rc = parse_options(argc, argv, &o);
    if (rc != CLI_GO_ON)
        return rc;
    if (o.only == 2) {
        for (int seats = 2; seats <= TN_MAX_SEATS; seats++)
            if (bench_tournament_seats(seats, &o.tb, o.repeat, o.seed))
                return 1;
        return 0;
    }
    for (int v = 0; v < 3; v++) {
        if (o.variant >= 0 && v != o.variant)
            continue;
        int variant_unused, mode;
        if (!parse_game_options("bench", ax_variant_name(v), o.mode, o.players, &variant_unused,
                                &mode))
            return EXIT_USAGE;
        if (o.only != 1)
            bench_engine(v, (int)o.players, mode, o.games, o.repeat, o.seed);
        if (o.only != 0 && bench_players(v, (int)o.players, mode, o.seed, &o.ab))
            return 1;
    }
    return 0;
}
