/*
 * player.c - the built-in players, the table that finds them by name, and
 * what every player shares: its seed, its budget, its statistics.
 *
 * `random` takes any legal decision (ax_random_move); `greedy` takes the
 * decision that most improves its own lowest tracks (sorted ascending,
 * compared lexicographically), then the one with the most raw points, and
 * among equals picks at random. Greedy accepts every swap offer: the offer
 * comes only when no rack tile serves its weakest colour. `strong` searches
 * (strong.c).
 */
#include "player.h"

#include "budget.h"
#include "strong.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

typedef void (*decide_fn)(ax_player *p, const ax_game *view, int seat, ax_move *out);

struct ax_player {
    const char *name;
    decide_fn decide;
    ax_rng rng;
    atomic_int movetime_ms;
    atomic_bool cancel;
    long max_playouts;
    ai_budget budget;      /* of the decision under way */
    strong_search *search; /* `strong` only */
    ax_move *moves;        /* `greedy` only: AX_MAX_MOVES */
    ax_player_stats stats;
};

static void decide_random(ax_player *p, const ax_game *view, int seat, ax_move *out)
{
    (void)seat;
    ax_random_move(view, &p->rng, out);
}

static int points_total(const uint8_t *points)
{
    int sum = 0;
    for (int c = 0; c < AX_MAX_COLORS; c++)
        sum += points[c];
    return sum;
}

static void decide_greedy(ax_player *p, const ax_game *view, int seat, ax_move *out)
{
    int n = ax_legal_moves(view, p->moves, AX_MAX_MOVES);
    if (view->phase == AX_PHASE_SWAP) {
        *out = p->moves[0]; /* accept */
        return;
    }
    uint8_t best_score[AX_MAX_COLORS] = {0};
    int best_points = -1, ties = 0;
    (void)seat;
    for (int i = 0; i < n; i++) {
        ax_preview pv;
        ax_preview_move(view, &p->moves[i], &pv);
        int cmp = best_points < 0 ? 1 : ax_compare_tracks(pv.score, best_score, view->ncolors);
        int points = points_total(pv.points);
        if (cmp == 0)
            cmp = points - best_points;
        if (cmp < 0)
            continue;
        if (cmp > 0) {
            memcpy(best_score, pv.score, sizeof best_score);
            best_points = points;
            ties = 0;
        }
        /* reservoir choice among equally good decisions */
        if (ax_rng_below(&p->rng, (uint32_t)++ties) == 0)
            *out = p->moves[i];
    }
}

static void decide_strong(ax_player *p, const ax_game *view, int seat, ax_move *out)
{
    strong_decide(p->search, view, seat, &p->budget, &p->rng, out);
}

/* `strong` judges the tracks at its horizon by the learned evaluation
 * (value.h) where the build has weights for the game; `strong-deep` is the
 * same searching three plies after a candidate instead of two, over more
 * candidates (32, 64 in hex; `strong`: 16, 32 in hex: given 32, its choice
 * came from the prior's 17th to 32nd in a sixth of hex and a fifth of
 * square decisions; in hex the 64 are the learned value's best of the
 * prior's 128), and spending all its time,
 * never stopping once its leader looks clear: the Expert level's player
 * (what its extra time pays for, docs/ai.md "Levels"). `strong-deep-early`
 * is `strong-deep` stopping early once its choice is clear: the Strong
 * level's player in square and hex, where issue 53's engine affords its
 * wider, deeper search in 300 ms (it beat `strong` 0.675 in square there).
 * `strong-whole` is
 * `strong` spending all its time: Expert's player in ROTA, where the deeper
 * tree did not pay and stopping early lost to the Expert before.
 * `strong-hand` is `strong` with the hand-made judgement only, the search
 * before the learned one, and `strong-order` also chooses its candidates
 * by the learned value, from the prior's best 32: for measuring
 * (docs/ai.md), not levels. */
typedef struct {
    const char *name;
    decide_fn decide;
    int learned;                 /* strong: STRONG_LEARNED_* */
    int tree_plies;              /* strong: 0 for the default */
    bool whole_budget;           /* strong: never stops early */
    int candidates[AX_VARIANTS]; /* strong: by variant, 0 for the default */
    int pool[AX_VARIANTS];       /* strong: by variant, 0 for the default (none) */
} builtin_player;

static const builtin_player builtin[] = {
    {"random", decide_random, 0, 0, false, {0}, {0}},
    {"greedy", decide_greedy, 0, 0, false, {0}, {0}},
    {"strong", decide_strong, STRONG_LEARNED_HORIZON, 0, false, {0}, {0}},
    {"strong-deep",
     decide_strong,
     STRONG_LEARNED_HORIZON,
     3,
     true,
     {[AX_SQUARE] = 32, [AX_ROTA] = 32, [AX_HEX] = 64},
     {[AX_HEX] = 128}},
    {"strong-deep-early",
     decide_strong,
     STRONG_LEARNED_HORIZON,
     3,
     false,
     {[AX_SQUARE] = 32, [AX_ROTA] = 32, [AX_HEX] = 64},
     {[AX_HEX] = 128}},
    {"strong-whole", decide_strong, STRONG_LEARNED_HORIZON, 0, true, {0}, {0}},
    {"strong-hand", decide_strong, 0, 0, false, {0}, {0}},
    {"strong-order", decide_strong, STRONG_LEARNED_HORIZON, 0, false, {0}, {32, 32, 32}}};

const char *const ax_player_names[] = {"random", "greedy", "strong", NULL};

static bool alloc_level_memory(ax_player *p, const builtin_player *level)
{
    if (p->decide == decide_greedy)
        return (p->moves = malloc(AX_MAX_MOVES * sizeof *p->moves)) != NULL;
    if (p->decide == decide_strong) {
        if (!(p->search = strong_new()))
            return false;
        strong_tuning *tune = strong_tune(p->search);
        tune->learned = level->learned;
        if (level->tree_plies)
            tune->tree_plies = level->tree_plies;
        tune->stop_early = !level->whole_budget;
        for (int v = 0; v < AX_VARIANTS; v++) {
            if (level->candidates[v])
                tune->candidates[v] = level->candidates[v];
            tune->pool[v] = level->pool[v];
        }
    }
    return true;
}

ax_player *ax_player_new(const char *name, uint64_t seed)
{
    for (size_t i = 0; i < sizeof builtin / sizeof builtin[0]; i++) {
        if (strcmp(name, builtin[i].name) != 0)
            continue;
        ax_player *p = calloc(1, sizeof *p);
        if (!p)
            return NULL;
        p->name = builtin[i].name;
        p->decide = builtin[i].decide;
        ax_rng_seed(&p->rng, seed);
        atomic_init(&p->movetime_ms, AX_DEFAULT_MOVETIME_MS);
        atomic_init(&p->cancel, false);
        if (!alloc_level_memory(p, &builtin[i])) {
            ax_player_free(p);
            return NULL;
        }
        return p;
    }
    return NULL;
}

void ax_player_free(ax_player *p)
{
    if (!p)
        return;
    strong_free(p->search);
    free(p->moves);
    free(p);
}

const char *ax_player_name(const ax_player *p) { return p->name; }

void ax_player_set_movetime(ax_player *p, int ms)
{
    atomic_store(&p->movetime_ms, ms > 0 ? ms : 0);
}

void ax_player_set_playouts(ax_player *p, long playouts)
{
    p->max_playouts = playouts > 0 ? playouts : 0;
}

void ax_player_cancel(ax_player *p) { atomic_store(&p->cancel, true); }

void ax_player_get_stats(const ax_player *p, ax_player_stats *out) { *out = p->stats; }

void ax_player_decide(ax_player *p, const ax_game *view, int seat, ax_move *out)
{
    double start = ai_seconds(), cpu_start = ai_thread_seconds();
    p->budget = (ai_budget){.start = start,
                            .movetime_ms = &p->movetime_ms,
                            .cancel = &p->cancel,
                            .max_playouts = p->max_playouts};
    if (p->max_playouts == 0 && atomic_load(&p->movetime_ms) == 0)
        atomic_store(&p->movetime_ms, AX_DEFAULT_MOVETIME_MS); /* never search forever */
    p->decide(p, view, seat, out);
    atomic_store(&p->cancel, false);
    double spent = ai_seconds() - start, cpu = ai_thread_seconds() - cpu_start;
    int movetime = atomic_load(&p->movetime_ms);
    p->stats.decisions++;
    p->stats.overruns += movetime > 0 && spent > 1.1 * movetime / 1000.0;
    p->stats.max_cpu_seconds = cpu > p->stats.max_cpu_seconds ? cpu : p->stats.max_cpu_seconds;
    p->stats.total_seconds += spent;
    p->stats.max_seconds = spent > p->stats.max_seconds ? spent : p->stats.max_seconds;
    p->stats.last_playouts = p->budget.playouts;
    p->stats.playouts += p->budget.playouts;
    p->stats.plies += p->budget.plies;
}
