/*
 * cmd_analyse.c - `axio analyse RECORD --seat S`: how good was each decision
 * of seat S?
 *
 * The record is read and checked like `axio replay` does (record_file.c),
 * its decisions collected, and the game's start dealt again from its seed;
 * src/ai/analysis.c then judges every decision of the seat from its view
 * at the time. Each judgement is printed as soon as it is made: a text line
 * with the decision, the best one found, their values and the loss with its
 * margin (three standard errors; "MISTAKE" when the judge flags it), or with
 * --json one JSON object per line. The text ends with the seat's mean and
 * median loss and its number of mistakes.
 */
#include "../ai/analysis.h"
#include "../ai/player.h"
#include "cli.h"
#include "options.h"
#include "record_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "usage: axio analyse RECORD --seat S [--movetime MS] [--playouts P] [--seed N] [--json]\n"
    "\n"
    "Judges every decision of seat S in a game record (placements, bonus placements, swap\n"
    "answers) from that seat's view at the time: the decision played, the best one the\n"
    "`strong` search finds, and the value of both, measured again in pairs on fresh deals\n"
    "and playouts. The value is the chance to finish first (a first place shared by k sides\n"
    "counts 1/k), or solo the expected solo result. The loss is best minus played, with its\n"
    "standard error; a mistake is a loss above 2% of the scale by more than 3 of them.\n";

/* The decisions of the record, in order. */
typedef struct {
    ax_move *moves;
    int n, cap;
} decision_list;

static int collect_decision(const ax_game *before, const ax_move *m, void *ctx)
{
    (void)before;
    decision_list *list = ctx;
    if (list->n == list->cap) {
        int cap = list->cap ? 2 * list->cap : 256;
        ax_move *grown = realloc(list->moves, (size_t)cap * sizeof *grown);
        if (!grown)
            return 1;
        list->moves = grown;
        list->cap = cap;
    }
    list->moves[list->n++] = *m;
    return 0;
}

/* --- output --- */

typedef struct {
    const ax_game *start; /* for the board's coordinates */
    bool json;
    int seat;
} printer;

static void print_json(const printer *p, const ai_judgement *j)
{
    json_t *line = ai_judgement_json(p->start, j);
    char *text = line ? json_dumps(line, JSON_COMPACT | JSON_REAL_PRECISION(10)) : NULL;
    if (text)
        printf("%s\n", text);
    free(text);
    json_decref(line);
}

static const char *color_or_dash(int color) { return color >= 0 ? ax_color_name(color) : "-"; }

/* A decision in the record's words: "red/blue [3,4] [3,5]", "accept". */
static void decision_text(const ax_game *g, const ax_move *m, ax_tile t, char *out, size_t size)
{
    if (m->kind == AX_MOVE_SWAP) {
        snprintf(out, size, "%s", m->accept ? "accept the swap" : "decline the swap");
        return;
    }
    if (g->variant == AX_ROTA) {
        int n = snprintf(out, size, "%s/%s/%s/%s [%d,%d]", color_or_dash(t.sym[0]),
                         color_or_dash(t.sym[1]), color_or_dash(t.sym[2]), color_or_dash(t.sym[3]),
                         m->x, m->y);
        if (m->wild >= 0 && n > 0 && (size_t)n < size)
            snprintf(out + n, size - (size_t)n, " wild %s", ax_color_name(m->wild));
        return;
    }
    int a0, b0, a1, b1;
    ax_cell_coords(g, m->cells[0], &a0, &b0);
    ax_cell_coords(g, m->cells[1], &a1, &b1);
    snprintf(out, size, "%s/%s [%d,%d] [%d,%d]", ax_color_name(t.sym[0]), ax_color_name(t.sym[1]),
             a0, b0, a1, b1);
}

/* A value as text: a chance in percent, or a solo result. */
static void value_text(const ax_game *g, double v, char *out, size_t size)
{
    if (g->mode == AX_SOLO)
        snprintf(out, size, "%.2f", v);
    else
        snprintf(out, size, "%.1f%%", 100 * v);
}

static void print_text(const printer *p, const ai_judgement *j)
{
    char played[96], best[96], vp[32], vb[32];
    decision_text(p->start, &j->played, j->played_tile, played, sizeof played);
    decision_text(p->start, &j->best, j->best_tile, best, sizeof best);
    value_text(p->start, j->value_played, vp, sizeof vp);
    value_text(p->start, j->value_best, vb, sizeof vb);
    const char *what = p->start->mode == AX_SOLO ? "result" : "win";
    if (j->best_is_played) {
        printf("ply %3d  %-5s  %-30s  best: %-30s %s %s\n", j->ply, ai_decision_kind_name(j->kind),
               played, "the same", what, vp);
        return;
    }
    double loss = j->value_best - j->value_played, margin = AI_MISTAKE_SIGMAS * j->loss_se;
    if (p->start->mode != AX_SOLO)
        loss *= 100, margin *= 100;
    int digits = p->start->mode == AX_SOLO ? 2 : 1;
    printf("ply %3d  %-5s  %-30s  best: %-30s %s %s -> %s (-%.*f +- %.*f)%s\n", j->ply,
           ai_decision_kind_name(j->kind), played, best, what, vp, vb, digits, loss, digits, margin,
           j->mistake ? " MISTAKE" : "");
}

static void print_judgement(const ai_judgement *j, void *ctx)
{
    const printer *p = ctx;
    if (p->json)
        print_json(p, j);
    else
        print_text(p, j);
    fflush(stdout);
}

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The seat's mean, median and largest loss. */
static void print_summary(const ax_game *start, int seat, const ai_judgement *j, int n)
{
    if (n == 0) {
        printf("seat %d took no decision\n", seat);
        return;
    }
    double *loss = malloc((size_t)n * sizeof *loss), sum = 0, scale = 1;
    if (!loss)
        return;
    int worst = 0, mistakes = 0;
    for (int i = 0; i < n; i++) {
        mistakes += j[i].mistake;
        loss[i] = j[i].value_best - j[i].value_played;
        sum += loss[i];
        worst = loss[i] > loss[worst] ? i : worst;
    }
    double largest = loss[worst];
    qsort(loss, (size_t)n, sizeof *loss, compare_double);
    double median = n % 2 ? loss[n / 2] : (loss[n / 2 - 1] + loss[n / 2]) / 2;
    const char *unit = "of the solo result";
    if (start->mode != AX_SOLO) {
        scale = 100;
        unit = "percentage points of the chance to win";
    }
    printf("seat %d: %d decisions, loss per decision (%s): mean %.2f, median %.2f, largest "
           "%.2f at ply %d; %d mistake%s\n",
           seat, n, unit, scale * sum / n, scale * median, scale * largest, j[worst].ply, mistakes,
           mistakes == 1 ? "" : "s");
    free(loss);
}

/* --- the command --- */

typedef struct {
    const char *path;
    long seat, movetime, playouts;
    bool movetime_set, json;
    uint64_t seed;
} analyse_args;

_Static_assert(AX_MAX_PLAYERS == 4, "--seat's reason names seats 0 to 3");

/* CLI_GO_ON when the arguments are good, else the exit code. */
static int parse_args(int argc, char **argv, analyse_args *a)
{
    *a = (analyse_args){.seat = -1, .movetime = AX_DEFAULT_MOVETIME_MS, .seed = 1};
    const cli_option options[] = {
        {"seat", OPT_LONG, &a->seat, .min = 0, .max = AX_MAX_PLAYERS - 1,
         .must = "must be a seat number 0 to 3", .help = "the seat to judge, 0 for the first"},
        {"movetime", OPT_LONG, &a->movetime, .min = 1, .max = 3600000, .unit = "ms",
         .given = &a->movetime_set,
         .help = "milliseconds per decision (default 1000; with --playouts: no limit)"},
        {"playouts", OPT_LONG, &a->playouts, .min = 1, .max = 100000000,
         .help = "playouts per decision (per stage); without --movetime the analysis is then\n"
                 "reproducible from the seed"},
        {"seed", OPT_U64, &a->seed, .help = "of the sampling (default 1)"},
        {"json", OPT_FLAG, &a->json,
         .help = "one line per decision: {\"ply\",\"kind\",\"played\",\"best\",\"value_played\",\n"
                 "\"value_best\",\"loss_se\",\"mistake\",\"samples\",\"candidates\"}; played and\n"
                 "best as the record writes a decision"},
        {0}};
    const cli_command command = {
        "analyse",
        usage,
        options,
        14,
        false,
        "Exit codes: 0 done, 1 failure, 2 bad usage or a record that `axio replay` rejects.\n"};
    int first, rc = cli_parse(&command, argc, argv, &first);
    if (rc != CLI_GO_ON)
        return rc;
    if (first == argc)
        return usage_error("analyse", "needs a record file");
    if (first + 1 < argc)
        return usage_error("analyse", "takes one record file, not also '%s'", argv[first + 1]);
    a->path = argv[first];
    if (a->seat < 0)
        return usage_error("analyse", "needs --seat S, the seat whose decisions to judge");
    if (a->playouts && !a->movetime_set)
        a->movetime = 0;
    return CLI_GO_ON;
}

static int analyse(const analyse_args *a, const ax_game *start, const decision_list *list)
{
    ai_analyser *an = ai_analyser_new();
    ai_judgement *out = malloc((size_t)(list->n ? list->n : 1) * sizeof *out);
    if (!an || !out) {
        ai_analyser_free(an);
        free(out);
        fprintf(stderr, "axio analyse: out of memory\n");
        return 1;
    }
    printer p = {.start = start, .json = a->json, .seat = (int)a->seat};
    ai_analysis_options opt = {.movetime_ms = (int)a->movetime,
                               .playouts = a->playouts,
                               .seed = a->seed,
                               .on_judgement = print_judgement,
                               .ctx = &p};
    if (!a->json)
        printf("%s: seat %d of %s %dp %s; %s\n", a->path, p.seat, ax_variant_name(start->variant),
               start->players, ax_mode_name(start->mode),
               start->mode == AX_SOLO ? "value: the expected solo result"
                                      : "value: the chance to finish first");
    int n = ai_analyse_game(an, start, list->moves, list->n, p.seat, &opt, out, list->n);
    int rc = 0;
    if (n < 0) {
        fprintf(stderr, "axio analyse: %s: the decisions do not replay\n", a->path);
        rc = 1; /* the record was checked: a bug, not bad input */
    } else if (!a->json) {
        print_summary(start, p.seat, out, n);
    }
    ai_analyser_free(an);
    free(out);
    return rc;
}

int cmd_analyse(int argc, char **argv)
{
    analyse_args a;
    int rc = parse_args(argc, argv, &a);
    if (rc != CLI_GO_ON)
        return rc;
    ax_replay *r = malloc(sizeof *r);
    ax_game *start = malloc(sizeof *start);
    decision_list list = {0};
    if (!r || !start) {
        free(r);
        free(start);
        fprintf(stderr, "axio analyse: out of memory\n");
        return 1;
    }
    char err[1024];
    int lines;
    int code = read_record_file(a.path, r, collect_decision, &list, &lines, err, sizeof err);
    if (code != AX_REPLAY_OK) {
        fprintf(stderr, "axio analyse: %s\n", err);
        rc = EXIT_USAGE;
    } else if (a.seat >= r->game.players) {
        rc = usage_error("analyse", "--seat %ld: the game has seats 0 to %d", a.seat,
                         r->game.players - 1);
    } else {
        ax_game_init(start, r->game.variant, r->game.players, r->game.mode, r->game.seed, NULL);
        rc = analyse(&a, start, &list);
    }
    free(list.moves);
    free(start);
    free(r);
    return rc;
}
