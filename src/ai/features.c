/*
 * features.c - the learned evaluation's view of a position (value_features.h).
 *
 * Colours are named by the rank of the seat's own track in them (lowest
 * first), so the weights do not depend on which colour is weak, only on
 * how weak it is: the end result counts the lowest tracks first.
 *
 * Read: the tracks, the board, the seat's own rack, the counts of tiles
 * (public), whose turn it is and its bonus moves. Not read: any other rack,
 * the bag, the stacks (tests/ai/test_value.c checks it).
 */
#include "value_features.h"

#include "evaluate.h"

#include <string.h>

enum {
    F_BIAS = 0,
    F_PROGRESS = 1,
    F_MINE = 2,   /* + rank: the seat's track */
    F_OTHER = 8,  /* + rank: the strongest opponent's sorted track */
    F_LEAD = 14,  /* + rank: the difference, times progress */
    F_RACK = 20,  /* + rank: the seat's rack symbols in that colour */
    F_HOOKS = 26, /* + rank: open cells next to that colour on the board */
    F_HAND = 32,  /* the hand-made estimate, centred */
    F_AHEAD = 33, /* the rules' comparison of tracks, times progress */
    F_TO_MOVE = 34,
    F_BONUS = 35,
    F_REST = 36, /* more than 2 sides: the other opponents' mean lowest track */
    F_LOW_LEAD = 37,
    F_LOW_MINE2 = 38,
    F_LOW_OTHER2 = 39
};

/* Colours ordered by the track `t` in them, lowest first (ties by colour). */
static void rank_colours(const uint8_t *t, int ncolors, int order[AX_MAX_COLORS])
{
    for (int c = 0; c < ncolors; c++) {
        int k = c;
        for (; k > 0 && t[order[k - 1]] > t[c]; k--)
            order[k] = order[k - 1];
        order[k] = c;
    }
}

static void sorted_tracks(const uint8_t *t, int ncolors, int out[AX_MAX_COLORS])
{
    int order[AX_MAX_COLORS];
    rank_colours(t, ncolors, order);
    for (int r = 0; r < ncolors; r++)
        out[r] = t[order[r]];
}

/* Per colour, the empty cells (square, hex) or frontier cells (ROTA) next
 * to a symbol of it: where a placement could score it now. */
static void board_hooks(const ax_game *g, int hooks[AX_MAX_COLORS])
{
    memset(hooks, 0, sizeof(int) * AX_MAX_COLORS);
    if (g->variant == AX_ROTA) {
        static const int dx[4] = {1, -1, 0, 0}, dy[4] = {0, 0, 1, -1};
        const ax_rota_board *b = &g->rota;
        for (int f = 0; f < b->nfrontier; f++) {
            int id = b->frontier[f];
            unsigned seen = 0;
            for (int d = 0; d < 4; d++) {
                int n = ax_rota_find(b, b->x[id] + dx[d], b->y[id] + dy[d]);
                if (n < 0 || b->placed[n].sym[0] == AX_UNSET)
                    continue;
                for (int k = 0; k < 4; k++)
                    if (b->placed[n].sym[k] >= 0)
                        seen |= 1u << b->placed[n].sym[k];
            }
            for (int c = 0; c < g->ncolors; c++)
                hooks[c] += (seen >> c) & 1;
        }
        return;
    }
    for (int w = 0; w < AX_GRID_WORDS; w++)
        for (uint64_t bits = g->empty[w]; bits; bits &= bits - 1) {
            int i = w * 64 + __builtin_ctzll(bits);
            unsigned seen = 0;
            for (int d = 0; d < g->ndirs; d++) {
                uint8_t n = g->cell[i + g->dir_offset[d]];
                if (n < AX_MAX_COLORS)
                    seen |= 1u << n;
            }
            for (int c = 0; c < g->ncolors; c++)
                hooks[c] += (seen >> c) & 1;
        }
}

void ai_features(const ax_game *g, int seat, double x[AI_FEATURES])
{
    memset(x, 0, sizeof(double) * AI_FEATURES);
    int k = g->ncolors, me = ax_track_owner(g, seat);
    int owners = g->mode == AX_TEAM ? 2 : g->players;
    double top = g->threshold[0];
    const uint8_t *mine = g->track[me];

    int strongest = -1;
    for (int o = 0; o < owners; o++)
        if (o != me &&
            (strongest < 0 || ax_compare_tracks(g->track[o], g->track[strongest], k) > 0))
            strongest = o;
    int m[AX_MAX_COLORS], t[AX_MAX_COLORS], order[AX_MAX_COLORS];
    sorted_tracks(mine, k, m);
    sorted_tracks(g->track[strongest], k, t);
    rank_colours(mine, k, order);

    int tiles = g->board_n + g->bag_n;
    for (int s = 0; s < g->players; s++)
        tiles += g->rack_n[s] + g->stack_n[s];
    double progress = tiles ? (double)g->board_n / tiles : 0;

    int rack[AX_MAX_COLORS] = {0}, hooks[AX_MAX_COLORS];
    int syms = g->variant == AX_ROTA ? 4 : 2;
    for (int i = 0; i < g->rack_n[seat]; i++)
        for (int s = 0; s < syms; s++)
            if (g->rack[seat][i].sym[s] >= 0 && g->rack[seat][i].sym[s] < k)
                rack[g->rack[seat][i].sym[s]]++;
    board_hooks(g, hooks);

    x[F_BIAS] = 1;
    x[F_PROGRESS] = progress;
    for (int r = 0; r < k; r++) {
        x[F_MINE + r] = m[r] / top;
        x[F_OTHER + r] = t[r] / top;
        x[F_LEAD + r] = (m[r] - t[r]) / top * progress;
        x[F_RACK + r] = rack[order[r]] / 2.0;
        x[F_HOOKS + r] = hooks[order[r]] / 16.0;
    }
    x[F_HAND] = 2 * ai_estimate(g, seat, &ai_default_params, 4.0) - 1;
    int cmp = ax_compare_tracks(mine, g->track[strongest], k);
    x[F_AHEAD] = (cmp > 0) - (cmp < 0);
    x[F_AHEAD] *= progress;
    x[F_TO_MOVE] = g->phase != AX_PHASE_OVER && g->to_move == seat;
    x[F_BONUS] = g->to_move == seat ? g->bonus_pending : 0;
    if (owners > 2) {
        double rest = 0;
        for (int o = 0; o < owners; o++)
            if (o != me && o != strongest) {
                int low[AX_MAX_COLORS];
                sorted_tracks(g->track[o], k, low);
                rest += low[0];
            }
        x[F_REST] = rest / (owners - 2) / top;
    }
    int lead = m[0] - t[0];
    x[F_LOW_LEAD] = (lead > 4 ? 4 : lead < -4 ? -4 : lead) / 4.0;
    x[F_LOW_MINE2] = x[F_MINE] * x[F_MINE];
    x[F_LOW_OTHER2] = x[F_OTHER] * x[F_OTHER];
}
