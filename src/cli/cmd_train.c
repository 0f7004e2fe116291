/*
 * cmd_train.c - `axio train`: makes the learned evaluation's weights file
 * from a seed (src/ai/train.h), or checks one (--check).
 */
#include "../ai/train.h"
#include "cli.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const help =
    "usage: axio train --variant square|rota|hex --players N --seed S --games G\n"
    "                  [--test-games T] [--epochs K] [--teacher-playouts P] [--out FILE]\n"
    "       axio train --check FILE\n"
    "\n"
    "Plays G games of the playout policy against itself (game k from seed S+k),\n"
    "labels every position seen by every seat with that seat's reward at the end,\n"
    "and fits the learned evaluation (a small network over src/ai/value_features.h)\n"
    "in K passes over them. The same options give the same file. The shipped weights are\n"
    "src/ai/weights/<variant>-<players>p.txt; docs/ai.md names their commands.\n"
    "  --variant     the game\n"
    "  --players     2 to 4 (standard mode)\n"
    "  --seed        first game's seed\n"
    "  --games       training games\n"
    "  --test-games  held-out games after them, for the report (default G/10)\n"
    "  --epochs      passes over the training positions (default 8)\n"
    "  --teacher-playouts  the games are played by strong with P playouts a decision\n"
    "                (no clock: reproducible) instead of the playout policy\n"
    "  --out         write the weights file there (default: standard output)\n"
    "  --check       read FILE as the build would (version, checksum) and value its\n"
    "                stored positions again; exit 1 when anything differs\n";

static void progress(void *ctx, int step, double loss)
{
    (void)ctx;
    fprintf(stderr, "epoch %d: cross-entropy %.6f\n", step, loss);
}

static char *read_all(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n - 1, f);
        if (n < cap - 1)
            break;
        char *grown = realloc(buf, cap *= 2);
        if (!grown)
            free(buf);
        buf = grown;
    }
    fclose(f);
    if (buf)
        buf[n] = 0;
    return buf;
}

static int check_file(const char *path)
{
    char *text = read_all(path);
    if (!text) {
        fprintf(stderr, "axio train: cannot read %s\n", path);
        return 1;
    }
    ai_value_model m;
    char err[256];
    int rc = ai_value_parse(text, &m, err, sizeof err);
    free(text);
    if (rc != 0) {
        fprintf(stderr, "axio train: %s: %s\n", path, err);
        return 1;
    }
    int bad = 0;
    for (int i = 0; i < m.nchecks; i++) {
        ax_game g;
        const ai_value_check *c = &m.checks[i];
        ai_value_check_position(m.variant, m.players, c->seed, c->ply, &g);
        double v = ai_value(&m, &g, c->seat);
        if (v != c->value) {
            fprintf(stderr,
                    "axio train: %s: check %d (seed %llu, ply %d, seat %d): %.17g, file %.17g\n",
                    path, i, (unsigned long long)c->seed, c->ply, c->seat, v, c->value);
            bad++;
        }
    }
    if (bad)
        return 1;
    printf("%s: %s, %d players, version %d, checksum ok, %d positions valued as stored\n", path,
           ax_variant_name(m.variant), m.players, AI_VALUE_VERSION, m.nchecks);
    return 0;
}

int cmd_train(int argc, char **argv)
{
    static const struct option opts[] = {{"variant", required_argument, 0, 'v'},
                                         {"players", required_argument, 0, 'p'},
                                         {"seed", required_argument, 0, 's'},
                                         {"games", required_argument, 0, 'g'},
                                         {"test-games", required_argument, 0, 't'},
                                         {"epochs", required_argument, 0, 'k'},
                                         {"out", required_argument, 0, 'o'},
                                         {"check", required_argument, 0, 'c'},
                                         {"teacher-playouts", required_argument, 0, 'T'},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    const char *variant = NULL, *out = NULL, *check = NULL;
    long players = 0, games = 0, test_games = -1, steps = 8, teacher = 0;
    uint64_t seed = 0;
    bool have_seed = false;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 'v': variant = optarg; break;
        case 'o': out = optarg; break;
        case 'c': check = optarg; break;
        case 'p':
            if (!parse_long(optarg, 2, 4, &players))
                return usage_error("train", "--players must be 2 to 4, not '%s'", optarg);
            break;
        case 'g':
            if (!parse_long(optarg, 1, 100000000, &games))
                return usage_error("train", "--games must be a positive number");
            break;
        case 't':
            if (!parse_long(optarg, 0, 100000000, &test_games))
                return usage_error("train", "--test-games must be a number");
            break;
        case 'k':
            if (!parse_long(optarg, 1, 100, &steps))
                return usage_error("train", "--epochs must be 1 to 100");
            break;
        case 'T':
            if (!parse_long(optarg, 0, 1000000, &teacher))
                return usage_error("train", "--teacher-playouts must be 0 to 1000000");
            break;
        case 's':
            if (!parse_u64(optarg, &seed))
                return usage_error("train", "--seed must be a number");
            have_seed = true;
            break;
        case 'h': fputs(help, stdout); return 0;
        default: return usage_error("train", "unknown or incomplete option '%s'", argv[optind - 1]);
        }
    }
    if (optind < argc)
        return usage_error("train", "unexpected argument '%s'", argv[optind]);
    if (check)
        return check_file(check);
    if (!variant || !players || !have_seed || !games)
        return usage_error("train", "--variant, --players, --seed and --games are required");
    int v = ax_variant_parse(variant);
    if (v < 0)
        return usage_error("train", "unknown variant '%s' (square, rota, hex)", variant);
    if (ax_config_check(v, (int)players, AX_STANDARD) != AX_OK)
        return usage_error("train", "%s cannot be played by %ld players", variant, players);

    ai_train_options o = {.variant = v,
                          .players = (int)players,
                          .seed = seed,
                          .games = games,
                          .test_games = test_games >= 0 ? test_games : games / 10,
                          .iterations = (int)steps,
                          .l2 = 1e-6,
                          .teacher_playouts = teacher,
                          .progress = progress};
    ai_value_model m;
    ai_train_report r;
    double start = now_seconds();
    if (ai_train(&o, &m, &r) != 0) {
        fprintf(stderr, "axio train: the fit failed (out of memory)\n");
        return 1;
    }
    fprintf(stderr,
            "%ld positions; held out: %ld positions, cross-entropy %.6f, squared error %.6f "
            "(hand-made estimate %.6f); %.1f s\n",
            r.positions, r.test_positions, r.test_loss, r.test_mse, r.hand_test_mse,
            now_seconds() - start);
    char comment[320], teach[48] = "";
    size_t cap = 1 << 17; /* the file is about 40 kB */
    char *text = malloc(cap);
    if (!text) {
        fprintf(stderr, "axio train: out of memory\n");
        return 1;
    }
    if (teacher)
        snprintf(teach, sizeof teach, " --teacher-playouts %ld", teacher);
    snprintf(comment, sizeof comment,
             "made by: axio train --variant %s --players %ld --seed %llu --games %ld "
             "--test-games %ld --epochs %ld%s",
             variant, players, (unsigned long long)seed, games, o.test_games, steps, teach);
    int len = ai_value_format(&m, comment, text, cap);
    if (len < 0) {
        fprintf(stderr, "axio train: the weights do not fit the buffer\n");
        free(text);
        return 1;
    }
    FILE *f = out ? fopen(out, "w") : stdout;
    bool written = f && fwrite(text, 1, (size_t)len, f) == (size_t)len;
    if (out && f && fclose(f) != 0)
        written = false;
    free(text);
    if (!written) {
        fprintf(stderr, "axio train: cannot write %s\n", out ? out : "standard output");
        return 1;
    }
    return 0;
}
