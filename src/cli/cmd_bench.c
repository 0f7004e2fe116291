/*
 * cmd_bench.c - `axio bench`: the engine's random-playout speed.
 *
 * For each variant, plays a fixed number of 2-player games with uniformly
 * random decisions from a fixed seed, several times, on one thread. The ply
 * count and the checksum of the final tracks are reproducible (the same on
 * every run and machine); the speed is the median over the repetitions.
 */
#include "../engine/axio.h"
#include "cli.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const help =
    "usage: axio bench [--variant square|rota|hex] [--players N] [--mode standard|solo|team]\n"
    "                  [--games N] [--repeat R] [--seed S]\n"
    "\n"
    "Plays N random games per variant (default 20000; 2 players, standard), R times (default\n"
    "5), on one core, and prints the plies (decisions), a checksum of the results, and the\n"
    "median speed in plies per second. Without --variant, every variant.\n";

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

int cmd_bench(int argc, char **argv)
{
    static const struct option opts[] = {
        {"variant", required_argument, 0, 'v'}, {"games", required_argument, 0, 'g'},
        {"repeat", required_argument, 0, 'r'},  {"seed", required_argument, 0, 's'},
        {"players", required_argument, 0, 'p'}, {"mode", required_argument, 0, 'm'},
        {"help", no_argument, 0, 'h'},          {0, 0, 0, 0}};
    long games = 20000, repeat = 5, players = 2;
    const char *mode_name = NULL;
    uint64_t seed = 1;
    int only = -1, c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 'v':
            only = ax_variant_parse(optarg);
            if (only < 0)
                return usage_error("bench", "unknown variant '%s'", optarg);
            break;
        case 'g':
            if (!parse_long(optarg, 1, 100000000, &games))
                return usage_error("bench", "--games must be a positive number");
            break;
        case 'r':
            if (!parse_long(optarg, 1, 101, &repeat))
                return usage_error("bench", "--repeat must be 1 to 101");
            break;
        case 's':
            if (!parse_u64(optarg, &seed))
                return usage_error("bench", "--seed must be a number");
            break;
        case 'p':
            if (!parse_long(optarg, 1, 4, &players))
                return usage_error("bench", "--players must be 1 to 4");
            break;
        case 'm': mode_name = optarg; break;
        case 'h': fputs(help, stdout); return 0;
        default: return usage_error("bench", "unknown or incomplete option '%s'", argv[optind - 1]);
        }
    }
    if (optind < argc)
        return usage_error("bench", "unexpected argument '%s'", argv[optind]);
    for (int v = 0; v < 3; v++) {
        if (only >= 0 && v != only)
            continue;
        int variant_unused, mode;
        if (!parse_game_options("bench", ax_variant_name(v), mode_name, players, &variant_unused,
                                &mode))
            return EXIT_USAGE;
        double speeds[101];
        bench_run run = {0, 0, 0};
        for (long r = 0; r < repeat; r++) {
            run = run_playouts(v, (int)players, mode, games, seed);
            speeds[r] = (double)run.plies / (run.seconds > 0 ? run.seconds : 1e-9);
        }
        qsort(speeds, (size_t)repeat, sizeof speeds[0], compare_double);
        printf(
            "%-6s %ldp %-8s random playouts: %ld games, %ld plies, checksum %016llx, median %.0f "
            "plies/s (min %.0f, max %.0f, %ld runs)\n",
            ax_variant_name(v), players, ax_mode_name(mode), games, run.plies,
            (unsigned long long)run.checksum, speeds[repeat / 2], speeds[0], speeds[repeat - 1],
            repeat);
    }
    return 0;
}
