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

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *const help =
    "usage: axio selfplay [--variant square|rota|hex] [--players N] [--mode standard|solo|team]\n"
    "                     [--seed S] [--games G] [--ai NAME[,NAME...]] [--movetime MS]\n"
    "                     [--record DIR] [--show] [--leaves N]\n"
    "\n"
    "Plays G games between built-in players (game k uses seed S+k) and prints a summary:\n"
    "wins per seat and the mean lowest track (solo: the mean result).\n"
    "  --variant   the game (default square)\n"
    "  --players   1 to 4 (default 2)\n"
    "  --mode      default: solo for one player, standard otherwise; team: hex with 4\n"
    "  --seed      first seed (default 1)\n"
    "  --games     number of games (default 1)\n"
    "  --ai        players by seat, repeated when shorter: random, greedy, strong\n"
    "              (default random)\n"
    "  --movetime  milliseconds per decision of a searching player (default 1000)\n"
    "  --record    write one record per game into DIR (created if missing)\n"
    "  --show      print each game's final board, tracks and ranking\n"
    "  --leaves    seats leave at random moments (rules 6), one leave in N decisions on\n"
    "              average, for a random reason; reproducible from the seed\n";

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

int cmd_selfplay(int argc, char **argv)
{
    static const struct option opts[] = {
        {"variant", required_argument, 0, 'v'},  {"players", required_argument, 0, 'p'},
        {"mode", required_argument, 0, 'm'},     {"seed", required_argument, 0, 's'},
        {"games", required_argument, 0, 'g'},    {"ai", required_argument, 0, 'a'},
        {"record", required_argument, 0, 'r'},   {"show", no_argument, 0, 'w'},
        {"movetime", required_argument, 0, 't'}, {"leaves", required_argument, 0, 'l'},
        {"help", no_argument, 0, 'h'},           {0, 0, 0, 0}};
    const char *variant = "square", *mode = NULL, *ai = "random", *dir = NULL;
    long players = 2, games = 1, movetime = AX_DEFAULT_MOVETIME_MS, leave_every = 0;
    uint64_t seed = 1;
    bool show = false;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 'v': variant = optarg; break;
        case 'm': mode = optarg; break;
        case 'a': ai = optarg; break;
        case 'r': dir = optarg; break;
        case 'w': show = true; break;
        case 'p':
            if (!parse_long(optarg, 1, 4, &players))
                return usage_error("selfplay", "--players must be 1 to 4, not '%s'", optarg);
            break;
        case 'g':
            if (!parse_long(optarg, 1, 100000000, &games))
                return usage_error("selfplay", "--games must be a positive number");
            break;
        case 's':
            if (!parse_u64(optarg, &seed))
                return usage_error("selfplay", "--seed must be a number, not '%s'", optarg);
            break;
        case 't':
            if (!parse_long(optarg, 1, 3600000, &movetime))
                return usage_error("selfplay", "--movetime must be 1 to 3600000 ms, not '%s'",
                                   optarg);
            break;
        case 'l':
            if (!parse_long(optarg, 1, 1000000, &leave_every))
                return usage_error("selfplay", "--leaves must be 1 to 1000000 decisions, not '%s'",
                                   optarg);
            break;
        case 'h': fputs(help, stdout); return 0;
        default:
            return usage_error("selfplay", "unknown or incomplete option '%s'", argv[optind - 1]);
        }
    }
    if (optind < argc)
        return usage_error("selfplay", "unexpected argument '%s'", argv[optind]);
    int v, m;
    if (!parse_game_options("selfplay", variant, mode, players, &v, &m))
        return EXIT_USAGE;
    char ai_names[MAX_AI][32];
    int nai = split_ai(ai, ai_names);
    if (nai <= 0)
        return usage_error("selfplay", "--ai takes up to 4 names separated by commas");
    for (int i = 0; i < nai; i++) {
        ax_player *probe = ax_player_new(ai_names[i], 0);
        if (!probe)
            return usage_error("selfplay", "unknown player '%s' (random, greedy, strong)",
                               ai_names[i]);
        ax_player_free(probe);
    }
    if (dir && mkdir(dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "axio selfplay: cannot create %s: %s\n", dir, strerror(errno));
        return 1;
    }

    long wins[AX_MAX_PLAYERS] = {0}, shared[AX_MAX_PLAYERS] = {0}, nleaves = 0, ended_left = 0;
    double lowest_sum[AX_MAX_PLAYERS] = {0}, result_sum = 0;
    ax_game *g = malloc(sizeof *g);
    ax_events *init = malloc(sizeof *init);
    if (!g || !init) {
        free(g);
        free(init);
        fprintf(stderr, "axio selfplay: out of memory\n");
        return 1;
    }
    int rc = 0;
    for (long k = 0; k < games && rc == 0; k++) {
        ax_game_init(g, v, (int)players, m, seed + (uint64_t)k, init);
        ax_player *seats[AX_MAX_PLAYERS];
        const char *names[AX_MAX_PLAYERS];
        for (int s = 0; s < players; s++) {
            seats[s] = ax_player_new(ai_names[s % nai], (seed + (uint64_t)k) * 31 + (uint64_t)s);
            ax_player_set_movetime(seats[s], (int)movetime);
            names[s] = ai_names[s % nai];
        }
        FILE *record = NULL;
        char path[PATH_SIZE], tmp[PATH_SIZE + 8];
        if (dir && open_record(dir, g, path, tmp, &record)) {
            fprintf(stderr, "axio selfplay: cannot write %s: %s\n", tmp, strerror(errno));
            rc = 1;
        }
        match_leaves leaves = {.every = (int)leave_every};
        ax_rng_seed(&leaves.rng, (seed + (uint64_t)k) ^ 0x6c65617665ULL); /* "leave" */
        if (rc == 0 && play_match(g, init, seats, names, record, leave_every ? &leaves : NULL) != 0)
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
        for (int s = 0; s < players; s++)
            ax_player_free(seats[s]);
        if (rc)
            break;
        if (show) {
            printf("game %ld, seed %llu:\n", k + 1, (unsigned long long)g->seed);
            print_picture(g);
        }
        ax_ranking rank;
        ax_rank(g, &rank);
        int first = 0;
        while (first < rank.n && rank.place[first] == 0)
            first++;
        int winners = m == AX_TEAM ? 2 : 1; /* partners win together */
        for (int i = 0; i < first; i++)
            (first == winners ? wins : shared)[rank.order[i]]++;
        for (int s = 0; s < players; s++) {
            const uint8_t *t = g->track[ax_track_owner(g, s)];
            int low = 255;
            for (int col = 0; col < g->ncolors; col++)
                low = t[col] < low ? t[col] : low;
            lowest_sum[s] += low;
        }
        if (m == AX_SOLO)
            result_sum += (double)ax_solo_result(g);
        nleaves += g->nleft;
        ended_left += g->end_reason == AX_END_LEFT;
    }
    free(g);
    free(init);
    if (rc)
        return rc;
    printf("%s %ldp %s, %ld games from seed %llu\n", variant, players, ax_mode_name(m), games,
           (unsigned long long)seed);
    for (int s = 0; s < players; s++)
        printf("seat %d %-8s wins %ld, shared first %ld, mean lowest %.2f\n", s, ai_names[s % nai],
               wins[s], shared[s], lowest_sum[s] / (double)games);
    if (m == AX_SOLO)
        printf("mean result %.2f\n", result_sum / (double)games);
    if (leave_every)
        printf("%ld leaves, %ld games ended because players left\n", nleaves, ended_left);
    return 0;
}
