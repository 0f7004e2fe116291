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

#include <assert.h>
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
    F_LOW_OTHER2 = 39,
    F_BEST_MINE = 40,  /* + rank: the most one half of that colour scores now */
    F_TOP3_MINE = 46,  /* + rank: the three best cells for that colour, summed */
    F_BEST_OTHER = 52, /* + rank of the opponent's track: the same, for its colours */
    F_RACK_GAIN = 58,  /* the seat's best tile on the best cells, valued (an upper bound) */
    F_THREAT = 59,     /* the opponent's best half on the best cell, valued */
    F_OPEN = 60,       /* cells a tile can still take */
    F_FULL_MINE = 61,  /* the seat's tracks at the top */
    F_FULL_OTHER = 62,
    F_RACK_LOW = 63 /* the best cell for the seat's lowest colour, if a rack tile has it */
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
        static const int sides[4] = {4, 3, 6, 1}; /* (1,0) (-1,0) (0,1) (0,-1) among the eight */
        const ax_rota_board *b = &g->rota;
        for (int f = 0; f < b->nfrontier; f++) {
            int id = b->frontier[f], around[8];
            ax_rota_around(b, id, around);
            unsigned seen = 0; /* bits 6 and 7: no colour (AX_UNSET, AX_NO_COLOR), never counted */
            for (int d = 0; d < 4; d++) {
                int n = around[sides[d]];
                ax_tile t =
                    n >= 0 ? b->placed[n] : (ax_tile){{AX_UNSET, AX_UNSET, AX_UNSET, AX_UNSET}};
                for (int k = 0; k < 4; k++) /* an empty cell's corners are AX_UNSET: none */
                    seen |= 1u << (t.sym[k] & 7);
            }
            for (int c = 0; c < g->ncolors; c++)
                hooks[c] += (seen >> c) & 1;
        }
        return;
    }
    /* a cell is next to a symbol of colour c when a run of c starts there:
     * when its potential (the engine's) in c is not 0 */
    for (int w = 0; w < AX_GRID_WORDS; w++)
        for (uint64_t bits = g->empty[w]; bits; bits &= bits - 1) {
            const uint8_t *pot = g->pot[w * 64 + __builtin_ctzll(bits)];
            uint64_t any;
            memcpy(&any, pot, sizeof any);
            if (!any) /* as on many cells: no colour starts a run there */
                continue;
            for (int c = 0; c < g->ncolors; c++)
                hooks[c] += pot[c] != 0;
        }
}

/* What the board offers each colour now: the points of the best cell for
 * one half (square, hex: an empty cell with an empty neighbour; ROTA: a
 * corner of a frontier cell), the best three cells summed, and the cells
 * a tile can still take. */
typedef struct {
    int best[AX_MAX_COLORS], top3[AX_MAX_COLORS][3];
    int open;
} board_offer;

/* The best three of each colour, kept sorted by a network of max and
 * min, in byte lanes (colour c in lane c): a cell's six colours in a few
 * vector operations, no branch. Potentials are bytes, so are the lanes. */
typedef uint8_t lanes8 __attribute__((vector_size(8)));

static lanes8 max8(lanes8 a, lanes8 b) { return (a & (lanes8)(a > b)) | (b & ~(lanes8)(a > b)); }

static lanes8 min8(lanes8 a, lanes8 b) { return (a & (lanes8)(a < b)) | (b & ~(lanes8)(a < b)); }

typedef struct {
    lanes8 best, top[3];
} offer_lanes;

static void offer_cell(offer_lanes *o, const uint8_t pot[8])
{
    lanes8 p;
    memcpy(&p, pot, sizeof p);
    o->best = max8(o->best, p);
    lanes8 r = min8(o->top[0], p);
    o->top[0] = max8(o->top[0], p);
    lanes8 q = min8(o->top[1], r);
    o->top[1] = max8(o->top[1], r);
    o->top[2] = max8(o->top[2], q);
}

static void board_offers(const ax_game *g, board_offer *o)
{
    memset(o, 0, sizeof *o);
    offer_lanes l;
    memset(&l, 0, sizeof l);
    if (g->variant == AX_ROTA) {
        const ax_rota_board *b = &g->rota;
        int8_t circles[AX_ROTA_CELLS][4][3];
        ax_rota_frontier_circles(b, circles);
        for (int f = 0; f < b->nfrontier; f++) {
            uint8_t count[4][AX_MAX_COLORS], pot[8] = {0};
            ai_rota_counts(circles[f], count);
            for (int k = 0; k < 4; k++)
                for (int c = 0; c < g->ncolors; c++)
                    pot[c] = count[k][c] > pot[c] ? count[k][c] : pot[c];
            offer_cell(&l, pot);
            o->open++;
        }
    } else {
        /* the cells with an empty neighbour: the first or the second cell
         * of an open pair (the engine's) */
        uint64_t open[AX_GRID_WORDS] = {0};
        for (int d = 0; d < g->ndirs / 2; d++) {
            uint64_t second[AX_GRID_WORDS];
            ax_cells_shifted(g->pairs[d], -g->dir_offset[d], second);
            for (int w = 0; w < AX_GRID_WORDS; w++)
                open[w] |= g->pairs[d][w] | second[w];
        }
        for (int w = 0; w < AX_GRID_WORDS; w++)
            for (uint64_t bits = open[w]; bits; bits &= bits - 1) {
                int i = w * 64 + __builtin_ctzll(bits);
#ifndef NDEBUG
                int free_next = 0;
                for (int d = 0; d < g->ndirs; d++)
                    free_next |= g->cell[i + g->dir_offset[d]] == AX_EMPTY;
                assert(g->cell[i] == AX_EMPTY && free_next);
#endif
                o->open++;
                uint64_t any;
                memcpy(&any, g->pot[i], sizeof any);
                if (any) /* all 0: no best cell changes */
                    offer_cell(&l, g->pot[i]);
            }
    }
    for (int c = 0; c < g->ncolors; c++) {
        o->best[c] = l.best[c];
        for (int k = 0; k < 3; k++)
            o->top3[c][k] = l.top[k][c];
    }
}

/* The value to track owner `owner` of `points` more in colour c (and
 * `more` in colour d, d may be -1), by the curve f of g and the default
 * params. */
static double gain_of(const ai_curve *f, const ax_game *g, int owner, int c, int points, int d,
                      int more)
{
    uint8_t after[AX_MAX_COLORS];
    const uint8_t *before = g->track[owner];
    memcpy(after, before, sizeof after);
    int top = g->threshold[g->nthresholds - 1];
    int a = after[c] + points;
    after[c] = (uint8_t)(a > top ? top : a);
    if (d >= 0) {
        int b = after[d] + more;
        after[d] = (uint8_t)(b > top ? top : b);
    }
    return ai_tracks_gain_by(f, g, before, after, &ai_default_params);
}

void ai_features(const ax_game *g, int seat, float x[AI_FEATURES])
{
    memset(x, 0, sizeof(float) * AI_FEATURES);
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
    ai_curve curve; /* of the default params, for every value below */
    ai_curve_init(&curve, g, &ai_default_params);
    x[F_HAND] = 2 * ai_estimate_by(&curve, g, seat, 4.0) - 1;
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
    board_offer offer;
    board_offers(g, &offer);
    int other_order[AX_MAX_COLORS];
    rank_colours(g->track[strongest], k, other_order);
    int total_cells = g->variant == AX_ROTA ? 64 : 128;
    for (int r = 0; r < k; r++) {
        x[F_BEST_MINE + r] = offer.best[order[r]] / 6.0;
        const int *t3 = offer.top3[order[r]];
        x[F_TOP3_MINE + r] = (t3[0] + t3[1] + t3[2]) / 15.0;
        x[F_BEST_OTHER + r] = offer.best[other_order[r]] / 6.0;
    }
    double rack_gain = 0, threat = 0;
    int rack_low = 0;
    for (int i = 0; i < g->rack_n[seat]; i++) {
        const ax_tile *tl = &g->rack[seat][i];
        int a = tl->sym[0], b = g->variant == AX_ROTA ? -1 : tl->sym[1];
        if (a < 0 || a >= k)
            continue;
        if (b >= k)
            b = -1;
        double v = b < 0    ? gain_of(&curve, g, me, a, offer.best[a], -1, 0)
                   : a == b ? gain_of(&curve, g, me, a, offer.top3[a][0] + offer.top3[a][1], -1, 0)
                            : gain_of(&curve, g, me, a, offer.best[a], b, offer.best[b]);
        rack_gain = v > rack_gain ? v : rack_gain;
        if (a == order[0] || b == order[0])
            rack_low = offer.best[order[0]];
    }
    if (g->variant == AX_ROTA) { /* a hand of four corners: its colours on their best corners */
        for (int i = 0; i < g->rack_n[seat]; i++)
            for (int q = 0; q < 4; q++) {
                int a = g->rack[seat][i].sym[q];
                if (a < 0 || a >= k)
                    continue;
                double v = gain_of(&curve, g, me, a, offer.best[a], -1, 0);
                rack_gain = v > rack_gain ? v : rack_gain;
                if (a == order[0])
                    rack_low = offer.best[order[0]];
            }
    }
    for (int c = 0; c < k; c++) {
        double v = gain_of(&curve, g, strongest, c, offer.best[c], -1, 0);
        threat = v > threat ? v : threat;
    }
    int full_mine = 0, full_other = 0;
    for (int c = 0; c < k; c++) {
        full_mine += mine[c] >= top;
        full_other += g->track[strongest][c] >= top;
    }
    x[F_RACK_GAIN] = rack_gain / 6.0;
    x[F_THREAT] = threat / 6.0;
    x[F_OPEN] = (double)offer.open / total_cells;
    x[F_FULL_MINE] = (double)full_mine / k;
    x[F_FULL_OTHER] = (double)full_other / k;
    x[F_RACK_LOW] = rack_low / 6.0;

    int lead = m[0] - t[0];
    x[F_LOW_LEAD] = (lead > 4 ? 4 : lead < -4 ? -4 : lead) / 4.0;
    x[F_LOW_MINE2] = x[F_MINE] * x[F_MINE];
    x[F_LOW_OTHER2] = x[F_OTHER] * x[F_OTHER];
}
