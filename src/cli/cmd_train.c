/*
 * cmd_train.c - `axio train`: makes the learned evaluation's weights file
 * from a seed (src/ai/train.h), or checks one (--check).
 */
#include "../ai/train.h"
#include "cli.h"
#include "options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "usage: axio train --variant square|rota|hex --players N --seed S --games G\n"
    "                  [--test-games T] [--epochs K] [--teacher-playouts P] [--jobs J]\n"
    "                  [--out FILE]\n"
    "       axio train --check FILE\n"
    "\n"
    "Plays G games of the playout policy against itself (game k from seed S+k),\n"
    "labels every position seen by every seat with that seat's reward at the end,\n"
    "and fits the learned evaluation (a small network over src/ai/value_features.h)\n"
    "in K passes over them. The same options give the same file. The shipped weights are\n"
    "src/ai/weights/<variant>-<players>p.txt; docs/ai.md names their commands.\n";

typedef struct {
    const char *variant, *out, *check;
    long players, games, test_games, epochs, teacher, jobs;
    uint64_t seed;
    bool have_seed;
} train_options;

static int parse_options(int argc, char **argv, train_options *o)
{
    *o = (train_options){.test_games = -1, .epochs = 8, .jobs = 1};
    const cli_option options[] = {
        {"variant", OPT_STRING, &o->variant, .help = "the game"},
        {"players", OPT_LONG, &o->players, .min = 2, .max = 4, .help = "2 to 4 (standard mode)"},
        {"seed", OPT_U64, &o->seed, .given = &o->have_seed, .help = "first game's seed"},
        {"games", OPT_LONG, &o->games, .min = 1, .max = 100000000, .help = "training games"},
        {"test-games", OPT_LONG, &o->test_games, .min = 0, .max = 100000000,
         .help = "held-out games after them, for the report (default G/10)"},
        {"epochs", OPT_LONG, &o->epochs, .min = 1, .max = 100,
         .help = "passes over the training positions (default 8)"},
        {"teacher-playouts", OPT_LONG, &o->teacher, .min = 0, .max = 1000000,
         .help = "the games are played by strong with P playouts a decision\n"
                 "(no clock: reproducible) instead of the playout policy"},
        {"jobs", OPT_LONG, &o->jobs, .min = 1, .max = 64,
         .help = "play the games on J threads (default 1); the file is the same"},
        {"out", OPT_STRING, &o->out,
         .help = "write the weights file there (default: standard output)"},
        {"check", OPT_STRING, &o->check,
         .help = "read FILE as the build would (version, checksum) and value its\n"
                 "stored positions again; exit 1 when anything differs"},
        {0}};
    const cli_command command = {"train", usage, options, 16, false, NULL};
    int rc = cli_parse(&command, argc, argv, NULL);
    if (rc != CLI_GO_ON || o->check)
        return rc;
    if (!o->variant || !o->players || !o->have_seed || !o->games)
        return usage_error("train", "--variant, --players, --seed and --games are required");
    int v = ax_variant_parse(o->variant);
    if (v < 0)
        return usage_error("train", "unknown variant '%s' (square, rota, hex)", o->variant);
    if (ax_config_check(v, (int)o->players, AX_STANDARD) != AX_OK)
        return usage_error("train", "%s cannot be played by %ld players", o->variant, o->players);
    return CLI_GO_ON;
}

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

/* The weights file's text (malloc'd), its first line the command that made
 * it; NULL after saying why. */
static char *weights_text(const train_options *t, const ai_train_options *o,
                          const ai_value_model *m, int *len)
{
    char comment[320], teach[48] = "";
    size_t cap = 1 << 17; /* the file is about 40 kB */
    char *text = malloc(cap);
    if (!text) {
        fprintf(stderr, "axio train: out of memory\n");
        return NULL;
    }
    if (t->teacher)
        snprintf(teach, sizeof teach, " --teacher-playouts %ld", t->teacher);
    snprintf(comment, sizeof comment,
             "made by: axio train --variant %s --players %ld --seed %llu --games %ld "
             "--test-games %ld --epochs %ld%s",
             t->variant, t->players, (unsigned long long)t->seed, t->games, o->test_games,
             t->epochs, teach);
    *len = ai_value_format(m, comment, text, cap);
    if (*len < 0) {
        fprintf(stderr, "axio train: the weights do not fit the buffer\n");
        free(text);
        return NULL;
    }
    return text;
}

int cmd_train(int argc, char **argv)
{
    train_options t;
    int rc = parse_options(argc, argv, &t);
    if (rc != CLI_GO_ON)
        return rc;
    if (t.check)
        return check_file(t.check);
    ai_train_options o = {.variant = ax_variant_parse(t.variant),
                          .players = (int)t.players,
                          .seed = t.seed,
                          .games = t.games,
                          .test_games = t.test_games >= 0 ? t.test_games : t.games / 10,
                          .iterations = (int)t.epochs,
                          .l2 = 1e-6,
                          .teacher_playouts = t.teacher,
                          .jobs = (int)t.jobs,
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
    int len;
    char *text = weights_text(&t, &o, &m, &len);
    if (!text)
        return 1;
    FILE *f = t.out ? fopen(t.out, "w") : stdout;
    bool written = f && fwrite(text, 1, (size_t)len, f) == (size_t)len;
    if (t.out && f && fclose(f) != 0)
        written = false;
    free(text);
    if (!written) {
        fprintf(stderr, "axio train: cannot write %s\n", t.out ? t.out : "standard output");
        return 1;
    }
    return 0;
}
