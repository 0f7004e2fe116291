/*
 * analysis.c - the judge: what a decision is worth, for the analysis of a
 * finished game and for the hint of a running one (the same judge, so that
 * a player who follows the hints is never told they erred).
 *
 * A decision is judged in two stages from the seat's view at the time.
 * 1. Selection: the `strong` search run around it (strong_judge, flat, to
 *    the end of the game): the played decision and the search's candidates
 *    are each played in the same sampled deals of the hidden tiles,
 *    followed by the same seeded playouts, and valued by the result for the
 *    seat; the best is the highest mean. A hint is this stage alone, with
 *    no decision played.
 * 2. Measurement: the best is the largest of many noisy means, so its own
 *    value is too high on average (the winner's curse), and two near-equal
 *    candidates trade places from one seed to the next. When the best is
 *    not the decision played, the two are measured again on fresh deals,
 *    pair by pair (the same deal and playout seed for both): the loss is
 *    the mean difference, unbiased, with its standard error. Pairs are
 *    added in batches until the loss is clearly above or clearly below the
 *    mistake threshold, or the budget ends.
 * A decision is a mistake only when its loss exceeds the threshold (2% of
 * the scale: two percentage points of the chance to win) by more than
 * AI_MISTAKE_SIGMAS standard errors: what clearly differs, never noise.
 *
 * Each decision gets its own seeds (the caller's seed mixed with the ply),
 * so a judgement depends only on the seat's view, the decision and the
 * budget: two games that differ only in what the seat could not see are
 * judged alike, and a server may judge decisions in any order. A hint and
 * the analysis of its decision, given the same seed, see the same first
 * stage, so the hinted decision is the judge's best there.
 */
#include "analysis.h"

#include "../engine/record.h"

#include "budget.h"
#include "player.h"
#include "strong.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PAIRS_BATCH 64  /* pairs between two looks at the loss */
#define PAIRS_MIN   256 /* before the loss may be called clear */

struct ai_analyser {
    strong_search *search;
    ai_scratch *scratch;    /* the measuring playouts' */
    ax_game game;           /* the position being walked through */
    ax_game view, det, sim; /* measuring: the seat's view, a deal of it, a playout */
};

const char *ai_decision_kind_name(int kind)
{
    switch (kind) {
    case AI_DECISION_BONUS: return "bonus";
    case AI_DECISION_SWAP: return "swap";
    default: return "place";
    }
}

ai_analyser *ai_analyser_new(void)
{
    ai_analyser *a = calloc(1, sizeof *a);
    if (!a)
        return NULL;
    a->search = strong_new();
    a->scratch = ai_scratch_new();
    if (!a->search || !a->scratch) {
        ai_analyser_free(a);
        return NULL;
    }
    return a;
}

void ai_analyser_free(ai_analyser *a)
{
    if (!a)
        return;
    strong_free(a->search);
    ai_scratch_free(a->scratch);
    free(a);
}

/* The side (track owner) of each first-placed seat counts once. */
double ai_decision_value(const ax_game *g, int seat)
{
    if (g->mode == AX_SOLO)
        return (double)ax_solo_result(g);
    ax_ranking rank;
    ax_rank(g, &rank);
    int me = ax_track_owner(g, seat), sides = 0;
    unsigned seen = 0;
    bool first = false;
    for (int i = 0; i < rank.n && rank.place[i] == 0; i++) {
        int owner = ax_track_owner(g, rank.order[i]);
        if (seen & (1u << owner))
            continue;
        seen |= 1u << owner;
        sides++;
        first |= owner == me;
    }
    return first ? 1.0 / sides : 0.0;
}

static int decision_kind(const ax_game *g)
{
    if (g->phase == AX_PHASE_SWAP)
        return AI_DECISION_SWAP;
    return g->in_bonus ? AI_DECISION_BONUS : AI_DECISION_PLACE;
}

/* The tile a placement puts down, as placed. */
static ax_tile placed_tile(const ax_game *g, const ax_move *m)
{
    ax_tile t = {{AX_UNSET, AX_UNSET, AX_UNSET, AX_UNSET}};
    if (m->kind != AX_MOVE_PLACE)
        return t;
    t = g->rack[g->to_move][m->rack_index];
    return g->variant == AX_ROTA ? ax_tile_rotate(t, m->rotation) : t;
}

/* A seed per decision: splitmix64 of the caller's seed and the ply. */
static uint64_t decision_seed(uint64_t seed, int ply)
{
    uint64_t z = seed + 0x9e3779b97f4a7c15ULL * (uint64_t)(ply + 1);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

double ai_mistake_threshold(const ax_game *g)
{
    if (g->mode != AX_SOLO)
        return AI_MISTAKE_SHARE; /* of the chance to win */
    /* the solo result: the lowest track (hex: L1*10000 + L2*100 + L3) */
    return AI_MISTAKE_SHARE * ax_max_score(g) * (g->variant == AX_HEX ? 10000.0 : 1.0);
}

/* A budget for one stage of a judgement: the options' time (or, with
 * neither time nor playouts, the default time) and playouts. */
static ai_budget stage_budget(const ai_analysis_options *opt, atomic_int *movetime)
{
    static const atomic_bool never = false;
    int ms = opt->movetime_ms > 0 ? opt->movetime_ms : 0;
    atomic_init(movetime, ms == 0 && opt->playouts <= 0 ? AX_DEFAULT_MOVETIME_MS : ms);
    return (ai_budget){.start = ai_seconds(),
                       .movetime_ms = movetime,
                       .cancel = opt->cancel ? opt->cancel : &never,
                       .max_playouts = opt->playouts > 0 ? opt->playouts : 0};
}

/* Stage 1: the judge's best, among the candidates and `played` (NULL: none). */
static int select_best(ai_analyser *a, const ax_game *before, const ax_move *played,
                       const ai_analysis_options *opt, strong_value *mine, strong_value *best)
{
    atomic_int movetime;
    ai_budget budget = stage_budget(opt, &movetime);
    ax_rng rng;
    ax_rng_seed(&rng, decision_seed(opt->seed, before->ply));
    return strong_judge(a->search, before, before->to_move, played, ai_decision_value, &budget,
                        &rng, mine, best);
}

/* Whether two decisions of the seat to move do the same thing: the same
 * tile as placed on the same cells, or the same swap answer. */
static bool same_decision(const ax_game *g, const ax_move *x, const ax_move *y)
{
    if (x->kind != y->kind)
        return false;
    if (x->kind == AX_MOVE_SWAP)
        return !x->accept == !y->accept;
    ax_tile tx = placed_tile(g, x), ty = placed_tile(g, y);
    if (g->variant == AX_ROTA)
        return x->x == y->x && x->y == y->y && x->wild == y->wild && ax_tile_equal(tx, ty);
    bool same = tx.sym[0] == ty.sym[0] && tx.sym[1] == ty.sym[1] && x->cells[0] == y->cells[0] &&
                x->cells[1] == y->cells[1];
    bool turned = tx.sym[0] == ty.sym[1] && tx.sym[1] == ty.sym[0] && x->cells[0] == y->cells[1] &&
                  x->cells[1] == y->cells[0];
    return same || turned;
}

typedef struct {
    long n;
    double played, best; /* sums of the rewards */
    double d, d2;        /* sums of best minus played, and of its square */
} pairs;

static double pairs_se(const pairs *p)
{
    double mean = p->d / (double)p->n, var = p->d2 / (double)p->n - mean * mean;
    return var > 0 ? sqrt(var / (double)p->n) : 0;
}

/* One playout of `m` in the deal a->det from the playout seed; its value. */
static double measure(ai_analyser *a, const ax_move *m, int seat, uint64_t seed)
{
    ax_rng rng;
    ax_rng_seed(&rng, seed);
    a->sim = a->det;
    if (ax_apply(&a->sim, m, NULL) != AX_OK)
        return 0; /* cannot happen: m is legal in the view, so in every deal of it */
    ai_playout(&a->sim, &strong_tune(a->search)->params, &rng, a->scratch);
    return ai_decision_value(&a->sim, seat);
}

/* Stage 2: `played` and `best` on fresh deals, pair by pair, until the loss
 * is clearly on one side of the threshold or the budget ends (as many
 * playouts as the first stage had at most). */
static void measure_pairs(ai_analyser *a, const ax_game *before, const ax_move *played,
                          const ax_move *best, const ai_analysis_options *opt, pairs *p)
{
    int seat = before->to_move;
    double threshold = ai_mistake_threshold(before);
    atomic_int movetime;
    ai_budget budget = stage_budget(opt, &movetime);
    long max = opt->playouts > 0 ? opt->playouts / 2 : 0;
    if (opt->playouts > 0 && max < PAIRS_BATCH)
        max = PAIRS_BATCH;
    ax_rng rng;
    ax_rng_seed(&rng, decision_seed(~opt->seed, before->ply));
    ax_view(before, seat, &a->view);
    memset(p, 0, sizeof *p);
    for (;;) {
        for (int k = 0; k < PAIRS_BATCH && (max == 0 || p->n < max); k++) {
            uint64_t deal = ax_rng_next(&rng), seed = ax_rng_next(&rng);
            ax_determinize(&a->view, deal, &a->det);
            double mine = measure(a, played, seat, seed), other = measure(a, best, seat, seed);
            p->n++;
            p->played += mine;
            p->best += other;
            p->d += other - mine;
            p->d2 += (other - mine) * (other - mine);
        }
        if ((max > 0 && p->n >= max) || ai_budget_over(&budget))
            return;
        if (p->n >= PAIRS_MIN) {
            double loss = p->d / (double)p->n, margin = AI_MISTAKE_SIGMAS * pairs_se(p);
            if (loss - margin > threshold || loss + margin < threshold)
                return;
        }
    }
}

int ai_judge_decision(ai_analyser *a, const ax_game *before, const ax_move *played,
                      const ai_analysis_options *opt, ai_judgement *out)
{
    if (played->kind == AX_MOVE_LEAVE || ax_check(before, played) != AX_OK)
        return -1;
    strong_value mine, best;
    int candidates = select_best(a, before, played, opt, &mine, &best);
    ai_judgement j = {.ply = before->ply,
                      .seat = before->to_move,
                      .kind = decision_kind(before),
                      .played = *played,
                      .best = best.move,
                      .value_played = mine.value,
                      .value_best = mine.value,
                      .samples = mine.samples,
                      .candidates = candidates};
    j.best_is_played = best.index == mine.index || same_decision(before, &best.move, played);
    if (!j.best_is_played && !(opt->cancel && atomic_load(opt->cancel))) {
        pairs p;
        measure_pairs(a, before, played, &best.move, opt, &p);
        double loss = p.d / (double)p.n;
        j.samples = p.n;
        j.loss_se = pairs_se(&p);
        if (loss <= 0) {
            /* measured afresh, the judge's choice is no better */
            j.best_is_played = true;
            j.value_played = j.value_best = p.played / (double)p.n;
        } else {
            j.value_played = p.played / (double)p.n;
            j.value_best = p.best / (double)p.n;
            j.mistake = loss - AI_MISTAKE_SIGMAS * j.loss_se > ai_mistake_threshold(before);
        }
    }
    if (j.best_is_played)
        j.best = *played; /* the search's copy of it may name another rack index */
    j.played_tile = placed_tile(before, played);
    j.best_tile = placed_tile(before, &j.best);
    *out = j;
    return 0;
}

int ai_judge_best(ai_analyser *a, const ax_game *before, const ai_analysis_options *opt,
                  ax_move *out)
{
    if (before->phase == AX_PHASE_OVER)
        return -1;
    strong_value mine, best;
    select_best(a, before, NULL, opt, &mine, &best);
    *out = best.move;
    return 0;
}

static bool cancelled(const ai_analysis_options *opt)
{
    return opt->cancel && atomic_load(opt->cancel);
}

/* Whether every decision applies in turn from start. */
static bool decisions_apply(ax_game *g, const ax_game *start, const ax_move *moves, int nmoves)
{
    *g = *start;
    for (int i = 0; i < nmoves; i++)
        if (ax_apply(g, &moves[i], NULL) != AX_OK)
            return false;
    return true;
}

int ai_analyse_game(ai_analyser *a, const ax_game *start, const ax_move *moves, int nmoves,
                    int seat, const ai_analysis_options *opt, ai_judgement *out, int max)
{
    if (!decisions_apply(&a->game, start, moves, nmoves))
        return AI_ANALYSIS_ILLEGAL;
    a->game = *start;
    int judged = 0;
    for (int i = 0; i < nmoves; i++) {
        const ax_move *m = &moves[i];
        bool mine = m->kind != AX_MOVE_LEAVE && a->game.to_move == seat && !a->game.left[seat];
        if (mine && judged < max) {
            if (cancelled(opt))
                return AI_ANALYSIS_CANCELLED;
            ai_judge_decision(a, &a->game, m, opt, &out[judged]);
            if (cancelled(opt))
                return AI_ANALYSIS_CANCELLED; /* that judgement was cut short */
            if (opt->on_judgement)
                opt->on_judgement(&out[judged], opt->ctx);
            judged++;
        }
        ax_apply(&a->game, m, NULL);
    }
    return judged;
}

/* A decision as the record writes it: {"ev":"place"|"swap","player",...}. */
static json_t *decision_json(const ax_game *g, int seat, const ax_move *m, ax_tile tile)
{
    if (m->kind == AX_MOVE_SWAP)
        return json_pack("{s:s,s:i,s:b}", "ev", "swap", "player", seat, "accepted", m->accept);
    if (g->variant == AX_ROTA)
        return json_pack("{s:s,s:i,s:o,s:[ii],s:o}", "ev", "place", "player", seat, "tile",
                         ax_tile_json(g, tile), "cell", m->x, m->y, "wild",
                         m->wild >= 0 ? json_string(ax_color_name(m->wild)) : json_null());
    return json_pack("{s:s,s:i,s:o,s:[oo]}", "ev", "place", "player", seat, "tile",
                     ax_tile_json(g, tile), "cells", ax_cell_json(g, m->cells[0]),
                     ax_cell_json(g, m->cells[1]));
}

json_t *ai_judgement_json(const ax_game *start, const ai_judgement *j)
{
    return json_pack("{s:i,s:s,s:o,s:o,s:f,s:f,s:f,s:b,s:I,s:i}", "ply", j->ply, "kind",
                     ai_decision_kind_name(j->kind), "played",
                     decision_json(start, j->seat, &j->played, j->played_tile), "best",
                     decision_json(start, j->seat, &j->best, j->best_tile), "value_played",
                     j->value_played, "value_best", j->value_best, "loss_se", j->loss_se, "mistake",
                     j->mistake, "samples", (json_int_t)j->samples, "candidates", j->candidates);
}
