/*
 * player.c - the built-in players and the table that finds them by name.
 *
 * `random` takes any legal decision (ax_random_move); `greedy` takes the
 * decision that most improves its own lowest tracks (sorted ascending,
 * compared lexicographically), then the one with the most raw points, and
 * among equals picks at random. Greedy accepts every swap offer: the offer
 * comes only when no rack tile serves its weakest colour.
 */
#include "player.h"

#include <stdlib.h>
#include <string.h>

typedef void (*decide_fn)(ax_player *p, const ax_game *view, int seat, ax_move *out);

struct ax_player {
    const char *name;
    decide_fn decide;
    ax_rng rng;
    ax_move moves[AX_MAX_MOVES];
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

static const struct {
    const char *name;
    decide_fn decide;
} builtin[] = {{"random", decide_random}, {"greedy", decide_greedy}};

const char *const ax_player_names[] = {"random", "greedy", NULL};

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
        return p;
    }
    return NULL;
}

void ax_player_free(ax_player *p) { free(p); }

const char *ax_player_name(const ax_player *p) { return p->name; }

void ax_player_decide(ax_player *p, const ax_game *view, int seat, ax_move *out)
{
    p->decide(p, view, seat, out);
}
