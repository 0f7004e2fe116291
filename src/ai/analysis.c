/*
 * analysis.c - judges the decisions of one seat of a finished game.
 *
 * A decision is judged by the `strong` search run around it (strong_judge):
 * from the seat's view at the time, the played decision and the search's
 * candidates are each played in the same sampled deals of the hidden tiles,
 * followed by the same seeded playouts, and valued by the result for the
 * seat. Measuring all on the same samples is what makes the loss (best
 * minus played) a property of the decision rather than of the luck of the
 * samples. The best is the highest mean among many noisy means, so a loss
 * is a little too large on average, for good and poor players alike.
 *
 * Each decision gets its own seed (the caller's seed mixed with the ply),
 * so a judgement depends only on the seat's view, the decision and the
 * budget: two games that differ only in what the seat could not see are
 * judged alike, and a server may judge decisions in any order.
 */
#include "analysis.h"

#include "../engine/record.h"

#include "budget.h"
#include "player.h"
#include "strong.h"

#include <stdlib.h>
#include <string.h>

struct ai_analyser {
    strong_search *search;
    ax_game game; /* the position being walked through */
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
    if (!a->search) {
        free(a);
        return NULL;
    }
    return a;
}

void ai_analyser_free(ai_analyser *a)
{
    if (!a)
        return;
    strong_free(a->search);
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

int ai_judge_decision(ai_analyser *a, const ax_game *before, const ax_move *played,
                      const ai_analysis_options *opt, ai_judgement *out)
{
    if (played->kind == AX_MOVE_LEAVE || ax_check(before, played) != AX_OK)
        return -1;
    static const atomic_bool never = false;
    atomic_int movetime;
    int ms = opt->movetime_ms > 0 ? opt->movetime_ms : 0;
    atomic_init(&movetime, ms == 0 && opt->playouts <= 0 ? AX_DEFAULT_MOVETIME_MS : ms);
    ai_budget budget = {.start = ai_seconds(),
                        .movetime_ms = &movetime,
                        .cancel = opt->cancel ? opt->cancel : &never,
                        .max_playouts = opt->playouts > 0 ? opt->playouts : 0};
    ax_rng rng;
    ax_rng_seed(&rng, decision_seed(opt->seed, before->ply));
    strong_value mine, best;
    int seat = before->to_move;
    int candidates = strong_judge(a->search, before, seat, played, ai_decision_value, &budget, &rng,
                                  &mine, &best);
    bool same = best.index == mine.index;
    if (same)
        best.move = *played; /* the search's copy of it may name another rack index */
    *out = (ai_judgement){.ply = before->ply,
                          .seat = seat,
                          .kind = decision_kind(before),
                          .played = *played,
                          .best = best.move,
                          .best_is_played = same,
                          .played_tile = placed_tile(before, played),
                          .best_tile = placed_tile(before, &best.move),
                          .value_played = mine.value,
                          .value_best = best.value,
                          .samples = mine.samples,
                          .candidates = candidates};
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
    return json_pack("{s:i,s:s,s:o,s:o,s:f,s:f,s:I,s:i}", "ply", j->ply, "kind",
                     ai_decision_kind_name(j->kind), "played",
                     decision_json(start, j->seat, &j->played, j->played_tile), "best",
                     decision_json(start, j->seat, &j->best, j->best_tile), "value_played",
                     j->value_played, "value_best", j->value_best, "samples",
                     (json_int_t)j->samples, "candidates", j->candidates);
}
