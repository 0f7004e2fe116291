/*
 * evaluate.c - the value of points, fast placement estimates, the playout
 * policy and the reward of a finished game.
 *
 * Value: only the weakest colour counts in the end, so a point is worth
 * more the lower its track: f(s) = (T/k)(1 - exp(-k s / T)) with T the first
 * threshold, whose slope is 1 at an empty track and falls by e^-k at T.
 * Points past the threshold a unit reaches are lost, as in the engine; a
 * threshold that grants a bonus move adds the worth of that move.
 *
 * Estimates: a domino half on an empty cell scores the runs of equal
 * symbols that start next to it, and the direction towards its partner is
 * empty before the placement, so a placement's points are the sum of two
 * per-cell "potentials" (plus the pyramids it closes in `square`). The
 * engine keeps every empty cell's potentials and the open pairs up to date
 * (ax_game.pot, ax_game.pairs); the playout policy reads them and values
 * every open pair, tile and orientation in a few table look-ups, skipping
 * the pairs that cannot beat the best so far. A ROTA corner scores the
 * matching corners of its circle; the engine gives every frontier cell's
 * circles in one pass (ax_rota_frontier_circles).
 *
 * The policy's choices must not change with its speed (the learned
 * evaluation's check positions are played by it, and `strong` decides the
 * same at a fixed number of playouts): every pair still draws its random
 * word, and every shortcut is exact. Branches that random data would
 * mispredict are written as arithmetic where that is cheap.
 */
#include "evaluate.h"

#include "../engine/rng.h"

#include <assert.h>
#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

const ai_params ai_default_params = {.steepness = 3.0f, .bonus = 3.0f, .noise = 0.5f};

#define MAX_TRACK 36 /* the highest threshold of any mode */

typedef ai_curve value_curve;

/* The gains tables of the last playout decisions, one per track owner: a
 * decision changes one or two of the mover's tracks, so most rows of its
 * next table are the same. Valid for the rules and params in the key. */
typedef struct {
    bool valid;
    ai_params prm;
    uint8_t ncolors, nthresholds, threshold[2];
    bool threshold_bonus[2];
    value_curve curve;
    bool owner_valid[AX_MAX_PLAYERS];
    uint8_t track[AX_MAX_PLAYERS][AX_MAX_COLORS];
    ai_gains gains[AX_MAX_PLAYERS];
    /* ceiling[o][c][p]: the largest gain[c][0..p] of owner o, a bound that
     * needs no assumption about the shape of the curve */
    float ceiling[AX_MAX_PLAYERS][AX_MAX_COLORS][AI_MAX_POINTS + 1];
    /* A row depends only on the lowest track (the unit) and the track, so
     * each is made once: row[low][s], its ceilings in row_ceiling (ROTA);
     * bit s of row_made[low]. A playout comes back to the same tracks
     * again and again. */
    uint64_t row_made[MAX_TRACK + 1];
    float row[MAX_TRACK + 1][MAX_TRACK + 1][AI_MAX_POINTS + 1];
    float row_ceiling[MAX_TRACK + 1][MAX_TRACK + 1][AI_MAX_POINTS + 1];
} gains_cache;

struct ai_scratch {
    float value[AX_GRID_CELLS][AX_MAX_COLORS]; /* of a half there, in a mixed tile's colour */
    float most[AX_GRID_CELLS];                 /* the largest of value[i][] */
    uint8_t most_double[AX_GRID_CELLS];        /* the largest potential in a double's colour */
    struct {
        int16_t i, j;
    } pairs[3 * AX_GRID_CELLS];       /* the open pairs of a decision, in order */
    int most_doubles;                 /* the largest most_double[] */
    bool pyramid_near[AX_GRID_CELLS]; /* square: an empty neighbour may become a pyramid */
    gains_cache gains;
    /* the pair plan's noise steps for the noise in noise_of */
    bool noise_valid;
    float noise_of, noise[32], noise_top;
    ax_move moves[AX_MAX_MOVES];
};

ai_scratch *ai_scratch_new(void) { return calloc(1, sizeof(ai_scratch)); }

void ai_scratch_free(ai_scratch *s) { free(s); }

/* --- the value of points --- */

/* exp(x) for |x| <= 1 by its series: no libm for one constant. */
static double exp_small(double x)
{
    double term = 1, sum = 1;
    for (int k = 1; k < 16; k++) {
        term *= x / k;
        sum += term;
    }
    return sum;
}

static void curve_init(value_curve *v, const ax_game *g, const ai_params *prm)
{
    double top = g->threshold[0], steep = prm->steepness;
    double step = exp_small(-steep / top), slope = 1;
    for (int s = 0; s <= MAX_TRACK; s++) {
        v->slope[s] = (float)slope;
        v->value[s] = (float)(top / steep * (1 - slope));
        slope *= step;
    }
}

/* The threshold above score s, or 0 when the track is full. */
static int next_threshold(const ax_game *g, int s, bool *bonus)
{
    for (int k = 0; k < g->nthresholds; k++)
        if (g->threshold[k] > s) {
            *bonus = g->threshold_bonus[k];
            return g->threshold[k];
        }
    *bonus = false;
    return 0;
}

static int lowest_track(const uint8_t *tracks, int ncolors)
{
    int low = 255;
    for (int c = 0; c < ncolors; c++)
        low = tracks[c] < low ? tracks[c] : low;
    return low;
}

/* The gains of a track at s, unit the value of a point on the lowest. */
static void gains_row(float row[AI_MAX_POINTS + 1], float unit, const value_curve *f,
                      const ax_game *g, int s, const ai_params *prm)
{
    memset(row, 0, sizeof(float) * (AI_MAX_POINTS + 1));
    bool bonus;
    int limit = next_threshold(g, s, &bonus);
    if (limit == 0)
        return;
    int p = 1;
    for (; p <= AI_MAX_POINTS && s + p < limit; p++)
        row[p] = f->value[s + p] - f->value[s];
    /* from the threshold on: one value, made as every entry was before */
    float top = f->value[limit] - f->value[s];
    if (bonus)
        top += prm->bonus * unit;
    for (; p <= AI_MAX_POINTS; p++)
        row[p] = top;
}

void ai_gains_init(ai_gains *t, const ax_game *g, int owner, const ai_params *prm)
{
    const uint8_t *track = g->track[owner];
    value_curve f;
    curve_init(&f, g, prm);
    t->unit = f.slope[lowest_track(track, g->ncolors)];
    memset(t->gain, 0, sizeof t->gain);
    for (int c = 0; c < g->ncolors; c++)
        gains_row(t->gain[c], t->unit, &f, g, track[c], prm);
}

/* ai_gains_init through the cache: only the rows whose track moved are
 * made again (all of them when the lowest track, and so the unit, moved). */
static const ai_gains *cached_gains(gains_cache *k, const ax_game *g, int owner,
                                    const ai_params *prm)
{
    /* the noise scales a decision's jitter only: the gains do not depend on it */
    bool same_rules =
        k->valid && k->prm.steepness == prm->steepness && k->prm.bonus == prm->bonus &&
        k->ncolors == g->ncolors && k->nthresholds == g->nthresholds &&
        memcmp(k->threshold, g->threshold, sizeof k->threshold) == 0 &&
        memcmp(k->threshold_bonus, g->threshold_bonus, sizeof k->threshold_bonus) == 0;
    if (!same_rules) {
        /* not the rows: row_made says none is made */
        memset(k, 0, offsetof(gains_cache, row));
        k->valid = true;
        k->prm = *prm;
        k->ncolors = g->ncolors;
        k->nthresholds = g->nthresholds;
        memcpy(k->threshold, g->threshold, sizeof k->threshold);
        memcpy(k->threshold_bonus, g->threshold_bonus, sizeof k->threshold_bonus);
        curve_init(&k->curve, g, prm);
    }
    const uint8_t *track = g->track[owner], *old = k->track[owner];
    ai_gains *t = &k->gains[owner];
    int low = lowest_track(track, g->ncolors);
    bool all = !k->owner_valid[owner] || low != lowest_track(old, g->ncolors);
    if (all) {
        t->unit = k->curve.slope[low];
        memset(t->gain, 0, sizeof t->gain);
    }
    for (int c = 0; c < g->ncolors; c++)
        if (all || track[c] != old[c]) {
            int at = track[c];
            if (at > MAX_TRACK) { /* never past the last threshold: rows of 0 */
                memset(t->gain[c], 0, sizeof t->gain[c]);
                memset(k->ceiling[owner][c], 0, sizeof k->ceiling[owner][c]);
                continue;
            }
            float *row = k->row[low][at], *ceiling = k->row_ceiling[low][at];
            if (!(k->row_made[low] >> at & 1)) {
                gains_row(row, t->unit, &k->curve, g, at, prm);
                ceiling[0] = row[0];
                for (int p = 1; p <= AI_MAX_POINTS; p++)
                    ceiling[p] = row[p] > ceiling[p - 1] ? row[p] : ceiling[p - 1];
                k->row_made[low] |= 1ull << at;
            }
            memcpy(t->gain[c], row, sizeof t->gain[c]);
            if (g->variant == AX_ROTA) /* only the rota policy bounds by ceilings */
                memcpy(k->ceiling[owner][c], ceiling, sizeof k->ceiling[owner][c]);
        }
    memcpy(k->track[owner], track, sizeof k->track[owner]);
    k->owner_valid[owner] = true;
#ifndef NDEBUG
    /* debug builds: the rows kept and copied are those made afresh */
    ai_gains fresh;
    ai_gains_init(&fresh, g, owner, prm);
    assert(fresh.unit == t->unit && memcmp(fresh.gain, t->gain, sizeof fresh.gain) == 0);
    for (int c = 0; c < g->ncolors && g->variant == AX_ROTA; c++) {
        float most = fresh.gain[c][0];
        for (int p = 0; p <= AI_MAX_POINTS; p++) {
            most = fresh.gain[c][p] > most ? fresh.gain[c][p] : most;
            assert(k->ceiling[owner][c][p] == most);
        }
    }
#endif
    return t;
}

float ai_gains_value(const ai_gains *t, const uint8_t points[AX_MAX_COLORS], int ncolors)
{
    float v = 0;
    for (int c = 0; c < ncolors; c++)
        v += t->gain[c][points[c] < AI_MAX_POINTS ? points[c] : AI_MAX_POINTS];
    return v;
}

void ai_curve_init(ai_curve *f, const ax_game *g, const ai_params *prm) { curve_init(f, g, prm); }

float ai_tracks_gain_by(const ai_curve *f, const ax_game *g, const uint8_t *before,
                        const uint8_t *after, const ai_params *prm)
{
    float unit = f->slope[lowest_track(before, g->ncolors)], v = 0;
    for (int c = 0; c < g->ncolors; c++) {
        if (after[c] == before[c])
            continue; /* it would add +0, and no sum here is -0: no change */
        v += f->value[after[c]] - f->value[before[c]];
        for (int k = 0; k < g->nthresholds; k++)
            if (g->threshold_bonus[k] && before[c] < g->threshold[k] && after[c] >= g->threshold[k])
                v += prm->bonus * unit;
    }
    return v;
}

float ai_tracks_gain(const ax_game *g, const uint8_t *before, const uint8_t *after,
                     const ai_params *prm)
{
    value_curve f;
    curve_init(&f, g, prm);
    return ai_tracks_gain_by(&f, g, before, after, prm);
}

/* --- square and hex: potentials of empty cells --- */

static bool is_symbol(uint8_t content) { return content < AX_MAX_COLORS; }

/* The points a half of each colour on empty cell i would score: what the
 * engine keeps (ax_game.pot). */
void ai_cell_potential(const ax_game *g, int i, uint8_t pot[AX_MAX_COLORS])
{
    memcpy(pot, g->pot[i], AX_MAX_COLORS);
}

static float gain_of(const ai_gains *t, int color, int points)
{
    return t->gain[color][points < AI_MAX_POINTS ? points : AI_MAX_POINTS];
}

/* For every empty cell i, by its potentials (the engine's), for the seat
 * to move: value[i][c], what a half of colour c scores there, for the
 * colours of `mixed` (a bit per colour); most[i] the largest of those (a
 * bound on a mixed tile's half there); most_double[i] the largest
 * potential in the colours of `doubles`. */
static void all_potentials(const ax_game *g, const ai_gains *gains, unsigned mixed,
                           unsigned doubles, ai_scratch *s)
{
    /* the colours listed once: loops of one length per call, well predicted */
    int mc[AX_MAX_COLORS], nm = 0, dc[AX_MAX_COLORS], nd = 0;
    for (unsigned m = mixed; m; m &= m - 1)
        mc[nm++] = __builtin_ctz(m);
    for (unsigned m = doubles; m; m &= m - 1)
        dc[nd++] = __builtin_ctz(m);
    /* no mixed tile: -inf, so that no bound of one beats anything */
    float zero_most = nm ? 0.0f : -INFINITY;
    int most_doubles = 0;
    for (int w = 0; w < AX_GRID_WORDS; w++)
        for (uint64_t bits = g->empty[w]; bits; bits &= bits - 1) {
            int i = w * 64 + __builtin_ctzll(bits);
            const uint8_t *pot = g->pot[i];
            uint64_t any;
            memcpy(&any, pot, sizeof any);
            if (!any) { /* as on many cells: gain[c][0] is 0 in every colour */
                memset(s->value[i], 0, sizeof s->value[i]);
                s->most[i] = zero_most;
                s->most_double[i] = 0;
                continue;
            }
            float most = -INFINITY;
            for (int k = 0; k < nm; k++) {
                float v = gain_of(gains, mc[k], pot[mc[k]]);
                s->value[i][mc[k]] = v;
                most = v > most ? v : most;
            }
            s->most[i] = most;
            uint8_t top = 0;
            for (int k = 0; k < nd; k++)
                top = pot[dc[k]] > top ? pot[dc[k]] : top;
            s->most_double[i] = top;
            most_doubles = top > most_doubles ? top : most_doubles;
        }
    s->most_doubles = most_doubles;
}

/* What the pyramids closed by covering cells i and j score (`square`):
 * base[] from the symbols already around them, plus near[k] points in the
 * colour that lands on cell k of the pair. */
typedef struct {
    uint8_t base[AX_MAX_COLORS];
    uint8_t near[2];
} pair_pyramids;

/* Whether a content closes a neighbour in, making it single: a symbol, a
 * pyramid or off the area; not empty or dead (the two that differ in bit 1
 * only), tested without a branch. */
_Static_assert(AX_EMPTY == 8 && AX_DEAD == 10 && AX_PYRAMID == 9 && AX_OFF == 11,
               "closes_single(): empty and dead differ from the others");
static bool closes_single(uint8_t content) { return (content & ~2u) != AX_EMPTY; }

/* Returns whether the pair closes any pyramid. */
static bool pyramids_of_pair(const ax_game *g, int i, int j, pair_pyramids *out)
{
    memset(out, 0, sizeof *out);
    bool any = false;
    if (g->variant != AX_SQUARE)
        return false;
    const int pair[2] = {i, j};
    for (int k = 0; k < 2; k++)
#pragma GCC unroll 4
        for (int d = 0; d < 4; d++) {
            int n = pair[k] + g->dir_offset[d];
            /* single once the pair is down: every test made, no branch */
            bool single = (n != pair[1 - k]) & (g->cell[n] == AX_EMPTY);
#pragma GCC unroll 4
            for (int e = 0; e < 4; e++) {
                int m = n + g->dir_offset[e];
                single &= (m == i) | (m == j) | closes_single(g->cell[m]);
            }
            if (!single) /* seldom single */
                continue;
            any = true;
            for (int e = 0; e < 4; e++) {
                int m = n + g->dir_offset[e];
                if (m == i || m == j)
                    out->near[m == j]++;
                else if (is_symbol(g->cell[m]))
                    out->base[g->cell[m]]++;
            }
        }
    return any;
}

/* square: pyramid_near[i] unless no pair on cell i can close a pyramid. A
 * pair closes one on an empty neighbour n of i only when every neighbour
 * of n but the pair closes it; the pair's other cell is no neighbour of n
 * (no two neighbours of a square are neighbours), so i is n's only
 * neighbour that does not close it. */
static void pyramid_hints(const ax_game *g, ai_scratch *s)
{
    for (int w = 0; w < AX_GRID_WORDS; w++)
        for (uint64_t bits = g->empty[w]; bits; bits &= bits - 1)
            s->pyramid_near[w * 64 + __builtin_ctzll(bits)] = false;
    for (int w = 0; w < AX_GRID_WORDS; w++)
        for (uint64_t bits = g->empty[w]; bits; bits &= bits - 1) {
            int n = w * 64 + __builtin_ctzll(bits), open = 0;
#pragma GCC unroll 4
            for (int d = 0; d < 4; d++)
                open += !closes_single(g->cell[n + g->dir_offset[d]]);
            bool near = open <= 1; /* marked without a branch */
#pragma GCC unroll 4
            for (int d = 0; d < 4; d++)
                s->pyramid_near[n + g->dir_offset[d]] |= near;
        }
}

/* Points of colour a on cell i and b on cell j. */
static void pair_points(const uint8_t *pot_i, const uint8_t *pot_j, const pair_pyramids *pyr, int a,
                        int b, uint8_t points[AX_MAX_COLORS])
{
    memcpy(points, pyr->base, AX_MAX_COLORS);
    points[a] = (uint8_t)(points[a] + pot_i[a] + pyr->near[0]);
    points[b] = (uint8_t)(points[b] + pot_j[b] + pyr->near[1]);
}

static void grid_estimate(const ax_game *g, const ax_move *m, uint8_t points[AX_MAX_COLORS])
{
    ax_tile t = g->rack[g->to_move][m->rack_index];
    pair_pyramids pyr;
    pyramids_of_pair(g, m->cells[0], m->cells[1], &pyr);
    pair_points(g->pot[m->cells[0]], g->pot[m->cells[1]], &pyr, t.sym[0], t.sym[1], points);
}

/* --- rota: circles around a frontier cell --- */

/* the three corners that meet corner i (NW, NE, SE, SW) of a cell: which
 * neighbour (3x3 block, row by row, 4 the cell) and which of its corners */
static const struct {
    uint8_t corner, around, its;
} meet[12] = {{0, 0, 2}, {0, 1, 3}, {0, 3, 1}, {1, 1, 2}, {1, 2, 3}, {1, 5, 0},
              {2, 5, 3}, {2, 7, 1}, {2, 8, 0}, {3, 3, 2}, {3, 6, 1}, {3, 7, 0}};

/* count[i][c] from the entries id[9] of the 3x3 block around a cell (-1:
 * none). */
static void circle_counts(const ax_game *g, const int id[9], uint8_t count[4][AX_MAX_COLORS])
{
    memset(count, 0, 4 * AX_MAX_COLORS);
    for (int k = 0; k < 12; k++) {
        int n = id[meet[k].around];
        int sym = n >= 0 ? g->rota.placed[n].sym[meet[k].its] : AX_UNSET;
        if (sym >= 0)
            count[meet[k].corner][sym]++;
    }
}

/* count[i][c]: corners of colour c in the circle of corner i of (x, y). */
void ai_rota_circle_counts(const ax_game *g, int x, int y, uint8_t count[4][AX_MAX_COLORS])
{
    int id[9];
    for (int n = 0; n < 9; n++)
        id[n] = n == 4 ? -1 : ax_rota_find(&g->rota, x + n % 3 - 1, y + n / 3 - 1);
    circle_counts(g, id, count);
}

/* The counts of a cell's four circles (ax_rota_frontier_circles) as byte
 * lanes, lane c of lanes[i] the corners of colour c in circle i (lanes 6
 * and 7: AX_UNSET and AX_NO_COLOR, dropped): at most 3 a lane, so the
 * four add up without a carry. */
static void rota_lanes(const int8_t circles[4][3], uint64_t lanes[4])
{
    for (int i = 0; i < 4; i++)
        lanes[i] = (1ull << (8 * (circles[i][0] & 7))) + (1ull << (8 * (circles[i][1] & 7))) +
                   (1ull << (8 * (circles[i][2] & 7)));
}

/* The bytes of a lane word, lane c in out[c]. */
static void lanes_bytes(uint64_t lanes, uint8_t out[8])
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(out, &lanes, 8);
#else
    for (int c = 0; c < 8; c++)
        out[c] = (uint8_t)(lanes >> 8 * c);
#endif
}

/* count[i][c] from the circles of a cell's corners (ax_rota_frontier_circles). */
void ai_rota_counts(const int8_t circles[4][3], uint8_t count[4][AX_MAX_COLORS])
{
    uint64_t lanes[4];
    rota_lanes(circles, lanes);
    for (int i = 0; i < 4; i++) {
        uint8_t n[8];
        lanes_bytes(lanes[i], n);
        memcpy(count[i], n, AX_MAX_COLORS);
    }
}

/* Points of the hand as placed (turned) with the fixed corners only; the
 * empty corner's index, or -1, goes to *empty. */
static void rota_fixed_points(ax_tile placed, const uint8_t count[4][8],
                              uint8_t points[AX_MAX_COLORS], int *empty)
{
    uint8_t sum[8] = {0}; /* sum[7]: the empty corner's, dropped */
    int e = -1;
    for (int i = 0; i < 4; i++) { /* no branch to mispredict */
        int sym = placed.sym[i];
        e = sym < 0 ? i : e;
        sum[sym & 7] = (uint8_t)(sum[sym & 7] + count[i][sym & 7 & (sym < 0 ? 0 : 7)]);
    }
    memcpy(points, sum, AX_MAX_COLORS);
    *empty = e;
}

static void rota_estimate(const ax_game *g, const ax_move *m, uint8_t points[AX_MAX_COLORS])
{
    uint8_t counted[4][AX_MAX_COLORS], count[4][8] = {{0}};
    int empty;
    ai_rota_circle_counts(g, m->x, m->y, counted);
    for (int i = 0; i < 4; i++)
        memcpy(count[i], counted[i], AX_MAX_COLORS);
    rota_fixed_points(ax_tile_rotate(g->rack[g->to_move][0], m->rotation), count, points, &empty);
    if (empty >= 0 && m->wild >= 0)
        points[m->wild] = (uint8_t)(points[m->wild] + count[empty][m->wild]);
}

void ai_estimate_points(const ax_game *g, ai_scratch *s, const ax_move *m,
                        uint8_t points[AX_MAX_COLORS])
{
    (void)s;
    memset(points, 0, AX_MAX_COLORS);
    if (m->kind != AX_MOVE_PLACE)
        return;
    if (g->variant == AX_ROTA)
        rota_estimate(g, m, points);
    else
        grid_estimate(g, m, points);
}

/* --- the playout policy --- */

/* The best placement so far, or the best `want` of them: `value` is what
 * a placement must beat to be kept (the want-th best value once there are
 * that many), so the policy's bounds prune as well for a list as for one. */
typedef struct {
    int want, n;
    float values[AI_MAX_REPLIES];
    ax_move moves[AI_MAX_REPLIES]; /* best first */
} best_list;

typedef struct {
    float value;
    ax_move move;
    best_list *list; /* NULL: keep one, in move */
} best_move;

static void keep_in_list(best_move *best, float value, const ax_move *m)
{
    best_list *l = best->list;
    int k = l->n < l->want ? l->n++ : l->want - 1;
    for (; k > 0 && l->values[k - 1] < value; k--) {
        l->values[k] = l->values[k - 1];
        l->moves[k] = l->moves[k - 1];
    }
    l->values[k] = value;
    l->moves[k] = *m;
    if (l->n == l->want)
        best->value = l->values[l->want - 1];
}

static void consider(best_move *best, float value, const ax_move *m)
{
    if (value > best->value) {
        if (best->list) {
            keep_in_list(best, value, m);
            return;
        }
        best->value = value;
        best->move = *m;
    }
}

static float jitter(ax_rng *rng, float scale)
{
    return scale * (float)(ax_rng_next_inline(rng) >> 40) * (1.0f / 16777216.0f);
}

static void domino(ax_move *m, int rack_index, int first, int second)
{
    memset(m, 0, sizeof *m);
    m->kind = AX_MOVE_PLACE;
    m->rack_index = (uint8_t)rack_index;
    m->wild = AX_NO_COLOR;
    m->cells[0] = (int16_t)first;
    m->cells[1] = (int16_t)second;
}

/* Rack indices of the distinct tiles of the seat to move. */
static int distinct_tiles(const ax_game *g, int index[AX_MAX_RACK])
{
    int seat = g->to_move, n = 0;
    for (int r = 0; r < g->rack_n[seat]; r++) {
        bool seen = false;
        for (int q = 0; q < n; q++)
            seen |= memcmp(g->rack[seat][index[q]].sym, g->rack[seat][r].sym, 4) == 0;
        if (!seen)
            index[n++] = r;
    }
    return n;
}

/* The value of colour a on cell i and b on cell j: two look-ups unless
 * the halves share a colour or the pair closes pyramids. */
static float pair_value(const ax_game *g, const ai_scratch *s, const ai_gains *gains, int i, int j,
                        int a, int b, const pair_pyramids *pyr, bool pyramids)
{
    if (pyramids) {
        uint8_t points[AX_MAX_COLORS];
        pair_points(g->pot[i], g->pot[j], pyr, a, b, points);
        return ai_gains_value(gains, points, g->ncolors);
    }
    if (a != b)
        return s->value[i][a] + s->value[j][b];
    return gain_of(gains, a, g->pot[i][a] + g->pot[j][a]);
}

/* The placements of the distinct rack tiles on a pair, in the order the
 * noise bits are spent: tile by tile, a mixed tile as is, then turned. */
typedef struct {
    uint8_t a, b;  /* colours on the pair's first and second cell */
    uint8_t rack;  /* rack index */
    bool turned;   /* a goes on the second cell */
    uint8_t shift; /* of its 5 noise bits */
} orientation;

typedef struct {
    orientation all[2 * AX_MAX_RACK];
    uint8_t mixed_at[2 * AX_MAX_RACK], double_at[AX_MAX_RACK]; /* indices into all[] */
    int nall, nmixed, ndoubles;
    unsigned mixed, doubles; /* colours of the mixed tiles, of the doubles */
    const float *noise;      /* [32]: the scratch's, made again when the noise changes */
    float noise_top;
    /* double_top[p]: the most a double can score with p points, over the
     * doubles' colours (gain[c][] never falls as p grows) */
    float double_top[AI_MAX_POINTS + 1];
} pair_plan;

static void plan_pairs(const ax_game *g, float noise, ai_scratch *s, pair_plan *p)
{
    int tiles[AX_MAX_RACK], ntiles = distinct_tiles(g, tiles);
    p->nall = p->nmixed = p->ndoubles = 0;
    p->mixed = p->doubles = 0;
    for (int t = 0; t < ntiles; t++) {
        ax_tile tile = g->rack[g->to_move][tiles[t]];
        int a = tile.sym[0], b = tile.sym[1];
        for (int flip = 0; flip < (a == b ? 1 : 2); flip++) {
            orientation o = {.a = (uint8_t)(flip ? b : a),
                             .b = (uint8_t)(flip ? a : b),
                             .rack = (uint8_t)tiles[t],
                             .turned = flip,
                             .shift = (uint8_t)(5 * p->nall)};
            if (a == b)
                p->double_at[p->ndoubles++] = (uint8_t)p->nall;
            else
                p->mixed_at[p->nmixed++] = (uint8_t)p->nall;
            p->all[p->nall++] = o;
        }
        if (a != b)
            p->mixed |= 1u << a | 1u << b;
        else
            p->doubles |= 1u << a;
    }

    if (!s->noise_valid || memcmp(&s->noise_of, &noise, sizeof noise) != 0) {
        float step = noise / 32.0f;
        s->noise_top = -1e30f;
        for (int k = 0; k < 32; k++) {
            s->noise[k] = step * (float)k;
            s->noise_top = s->noise[k] > s->noise_top ? s->noise[k] : s->noise_top;
        }
        s->noise_of = noise;
        s->noise_valid = true;
    }
    p->noise = s->noise;
    p->noise_top = s->noise_top;
}

static void offer_domino(best_move *best, float v, const orientation *o, int i, int j)
{
    if (v > best->value) {
        if (best->list) {
            ax_move m;
            domino(&m, o->rack, o->turned ? j : i, o->turned ? i : j);
            keep_in_list(best, v, &m);
            return;
        }
        best->value = v;
        domino(&best->move, o->rack, o->turned ? j : i, o->turned ? i : j);
    }
}

/* The one-best form of grid_pair_moves: offered in turn, the placements
 * would leave the first largest of their values as the best if it beats
 * the best so far, so only that one is offered, found without a branch
 * (the order of random values is what mispredicts). */
static void grid_pair_best(const ax_game *g, const ai_scratch *s, const ai_gains *gains,
                           const pair_plan *p, uint64_t bits, int i, int j,
                           const pair_pyramids *pyr, bool pyramids, bool mixed, bool doubles,
                           best_move *best)
{
    float top = best->value;
    int at = -1;
    if (pyramids || (mixed && doubles)) {
        for (int k = 0; k < p->nall; k++) {
            const orientation *o = &p->all[k];
            float v = pair_value(g, s, gains, i, j, o->a, o->b, pyr, pyramids);
            v = v + p->noise[bits >> o->shift & 31];
            at = v > top ? k : at;
            top = v > top ? v : top;
        }
    } else if (mixed) {
        const float *vi = s->value[i], *vj = s->value[j];
        for (int k = 0; k < p->nmixed; k++) {
            const orientation *o = &p->all[p->mixed_at[k]];
            float v = vi[o->a] + vj[o->b];
            v = v + p->noise[bits >> o->shift & 31];
            at = v > top ? p->mixed_at[k] : at;
            top = v > top ? v : top;
        }
    } else {
        for (int k = 0; k < p->ndoubles; k++) {
            const orientation *o = &p->all[p->double_at[k]];
            float v = gain_of(gains, o->a, g->pot[i][o->a] + g->pot[j][o->a]);
            v = v + p->noise[bits >> o->shift & 31];
            at = v > top ? p->double_at[k] : at;
            top = v > top ? v : top;
        }
    }
    if (at >= 0)
        offer_domino(best, top, &p->all[at], i, j);
}

/* Values the placements on the pair (i, j), noise from `bits`: all of
 * them with pyramids, else the mixed tiles' when `mixed`, the doubles' when
 * `doubles`, in the order of p->all (the others cannot beat the best). */
static void grid_pair_moves(const ax_game *g, const ai_scratch *s, const ai_gains *gains,
                            const pair_plan *p, uint64_t bits, int i, int j,
                            const pair_pyramids *pyr, bool pyramids, bool mixed, bool doubles,
                            best_move *best)
{
    if (!best->list) {
        grid_pair_best(g, s, gains, p, bits, i, j, pyr, pyramids, mixed, doubles, best);
        return;
    }
    float beat = best->value; /* read again after every offer */
    if (pyramids || (mixed && doubles)) {
        for (int k = 0; k < p->nall; k++) {
            const orientation *o = &p->all[k];
            float v = pair_value(g, s, gains, i, j, o->a, o->b, pyr, pyramids);
            float most = v + p->noise_top; /* its own noise added can only be less */
            if (most > beat) {
                offer_domino(best, v + p->noise[bits >> o->shift & 31], o, i, j);
                beat = best->value;
            }
        }
        return;
    }
    const float *vi = s->value[i], *vj = s->value[j];
    if (mixed)
        for (int k = 0; k < p->nmixed; k++) {
            const orientation *o = &p->all[p->mixed_at[k]];
            float v = vi[o->a] + vj[o->b];
            float most = v + p->noise_top;
            if (most > beat) {
                offer_domino(best, v + p->noise[bits >> o->shift & 31], o, i, j);
                beat = best->value;
            }
        }
    else
        for (int k = 0; k < p->ndoubles; k++) {
            const orientation *o = &p->all[p->double_at[k]];
            float v = gain_of(gains, o->a, g->pot[i][o->a] + g->pot[j][o->a]);
            float most = v + p->noise_top;
            if (most > beat) {
                offer_domino(best, v + p->noise[bits >> o->shift & 31], o, i, j);
                beat = best->value;
            }
        }
}

#if FLT_EVAL_METHOD != 0
#error "the pair bound below needs float arithmetic rounded to float"
#endif

/* The scan of the listed pairs, one random word each; `square` is a
 * constant in each copy, so the others carry no pyramid test. The bounds
 * of pairs with no mixed tile or no double are -inf: no test of the plan
 * per pair. */
static inline __attribute__((always_inline)) void
scan_pairs(const ax_game *g, const ai_gains *gains, const pair_plan *p, const ai_scratch *s,
           int npairs, ax_rng *rng, best_move *best, bool square)
{
    ax_rng r = *rng;          /* a copy the compiler may keep in registers */
    float beat = best->value; /* read again after every offer */
    for (int k = 0; k < npairs; k++) {
        int i = s->pairs[k].i, j = s->pairs[k].j;
        uint64_t word = ax_rng_next_inline(&r);
        pair_pyramids pyr;
        bool pyramids =
            square && (s->pyramid_near[i] | s->pyramid_near[j]) && pyramids_of_pair(g, i, j, &pyr);
        /* bounds: floating-point addition is monotonic */
        float bound = s->most[i] + s->most[j];
        bound = bound + p->noise_top;
        int q = s->most_double[i] + s->most_double[j];
        float top = p->double_top[q < AI_MAX_POINTS ? q : AI_MAX_POINTS];
        top = top + p->noise_top;
        bool mixed = bound > beat, doubles = top > beat;
        if (pyramids | mixed | doubles) {
            grid_pair_moves(g, s, gains, p, word, i, j, &pyr, pyramids, mixed, doubles, best);
            beat = best->value;
        }
    }
    *rng = r;
}

/* Every placement on every empty pair, one random word per pair (5 bits of
 * noise per placement). A pair is skipped when even its best mixed tile
 * with the most noise cannot beat the best so far: floating-point addition
 * is monotonic, so most[i] + most[j] + noise_top bounds every mixed value,
 * and the choice stays the one of valuing them all. */
static void grid_policy(const ax_game *g, const ai_gains *gains, float noise, ax_rng *rng,
                        ai_scratch *s, best_move *best)
{
    pair_plan p;
    plan_pairs(g, noise, s, &p);
    all_potentials(g, gains, p.mixed, p.doubles, s);
    int qmax = 2 * s->most_doubles < AI_MAX_POINTS ? 2 * s->most_doubles : AI_MAX_POINTS;
    p.double_top[0] = -INFINITY;                   /* no double: most_double[] is 0 */
    for (int q = 0; q <= qmax && p.doubles; q++) { /* as far as two cells' potentials reach */
        float top = -1e30f;
        for (unsigned m = p.doubles; m; m &= m - 1)
            top = gains->gain[__builtin_ctz(m)][q] > top ? gains->gain[__builtin_ctz(m)][q] : top;
        p.double_top[q] = top;
        assert(q == 0 || top >= p.double_top[q - 1]);
    }
    bool square = g->variant == AX_SQUARE;
    if (square)
        pyramid_hints(g, s);
    /* the open pairs (the engine's) in the order of their first cell, then
     * of their direction; listed first, without a branch per direction */
    int half = g->ndirs / 2, npairs = 0;
    int16_t off[3] = {g->dir_offset[0], g->dir_offset[1], half > 2 ? g->dir_offset[2] : 0};
    for (int w = 0; w < AX_GRID_WORDS; w++) {
        uint64_t p0 = g->pairs[0][w], p1 = g->pairs[1][w], p2 = half > 2 ? g->pairs[2][w] : 0;
        for (uint64_t bits = p0 | p1 | p2; bits; bits &= bits - 1) {
            int b = __builtin_ctzll(bits), i = w * 64 + b;
            s->pairs[npairs].i = (int16_t)i, s->pairs[npairs].j = (int16_t)(i + off[0]);
            npairs += (int)(p0 >> b & 1);
            s->pairs[npairs].i = (int16_t)i, s->pairs[npairs].j = (int16_t)(i + off[1]);
            npairs += (int)(p1 >> b & 1);
            s->pairs[npairs].i = (int16_t)i, s->pairs[npairs].j = (int16_t)(i + off[2]);
            npairs += (int)(p2 >> b & 1);
        }
    }
    if (square)
        scan_pairs(g, gains, &p, s, npairs, rng, best, true);
    else
        scan_pairs(g, gains, &p, s, npairs, rng, best, false);
}

static void rota_move(ax_move *m, int x, int y, int rotation, int wild)
{
    memset(m, 0, sizeof *m);
    m->kind = AX_MOVE_PLACE;
    m->x = (int16_t)x;
    m->y = (int16_t)y;
    m->rotation = (uint8_t)rotation;
    m->wild = (int8_t)wild;
}

/* The most a placement on a cell with these circles can be worth: no
 * colour scores more than all its matching corners, and floating-point
 * addition is monotonic, so the sum of the ceilings bounds the sum of the
 * gains. */
static float rota_cell_ceiling(const float (*ceiling)[AI_MAX_POINTS + 1], uint64_t total,
                               int ncolors)
{
    float v = 0;
    for (int c = 0; c < ncolors; c++)
        v += ceiling[c][total >> 8 * c & 0xff]; /* at most 12: no clamp */
    return v;
}

/* The random words the placements on a cell would spend: one each, for
 * every turn and every colour its empty corner's circle shows. */
static void rota_skip_cell(const int empty[4], const uint64_t lanes[4], uint64_t colours,
                           ax_rng *rng)
{
    int n = 4;
    for (int r = 0; r < 4; r++) {
        uint64_t x = empty[r] >= 0 ? lanes[empty[r]] & colours : 0;
        n += __builtin_popcountll((x | x >> 1) & 0x0101010101010101ull); /* lanes of 1 to 3 */
    }
    for (int k = 0; k < n; k++)
        ax_rng_next_inline(rng);
}

/* Every placement on every frontier cell, one random word each. A cell
 * whose ceiling with the most noise cannot beat the best so far only
 * spends its random words, so the choice stays that of valuing it. */
static void rota_policy(const ax_game *g, const ai_gains *gains,
                        const float (*ceiling)[AI_MAX_POINTS + 1], float noise, ax_rng *rng,
                        best_move *best)
{
    ax_tile turned[4];
    int empty_corner[4];
    for (int r = 0; r < 4; r++) {
        turned[r] = ax_tile_rotate(g->rack[g->to_move][0], r);
        empty_corner[r] = -1;
        for (int i = 0; i < 4; i++)
            if (turned[r].sym[i] < 0)
                empty_corner[r] = i;
    }
    /* the hand's colours, ascending, each with its printed corner: turned r,
     * it lies on corner (corner + r) mod 4 */
    ax_tile hand = g->rack[g->to_move][0];
    int ncs = 0, cs[4], corner_of[4];
    for (int c = 0; c < g->ncolors; c++)
        for (int i = 0; i < 4; i++)
            if (hand.sym[i] == c)
                cs[ncs] = c, corner_of[ncs++] = i;
    float low = noise * 0.0f * (1.0f / 16777216.0f);
    float high = noise * (float)((1ull << 24) - 1) * (1.0f / 16777216.0f);
    float noise_top = high > low ? high : low;
    int8_t circles[AX_ROTA_CELLS][4][3];
    ax_rota_frontier_circles(&g->rota, circles);
    uint64_t colours = (1ull << 8 * g->ncolors) - 1; /* the lanes of the variant's colours */
    ax_rng r_ = *rng;                                /* a copy the compiler may keep in registers */
    for (int f = 0; f < g->rota.nfrontier; f++) {
        int id = g->rota.frontier[f], x = g->rota.x[id], y = g->rota.y[id];
        uint64_t lanes[4];
        rota_lanes(circles[f], lanes);
        float bound =
            rota_cell_ceiling(ceiling, lanes[0] + lanes[1] + lanes[2] + lanes[3], g->ncolors);
        bound = bound + noise_top;
        if (!(bound > best->value)) {
            rota_skip_cell(empty_corner, lanes, colours, &r_);
            continue;
        }
        uint8_t count[4][8];
        for (int i = 0; i < 4; i++)
            lanes_bytes(lanes[i], count[i]);
        for (int r = 0; r < 4; r++) {
            /* the gains of the hand's colours, ascending: ai_gains_value
             * of its points without the colours it lacks, whose gain[c][0]
             * is 0 (the same float) */
            float v = 0;
            for (int k = 0; k < ncs; k++)
                v += gains->gain[cs[k]][count[(corner_of[k] + r) & 3][cs[k]]];
            v = v + jitter(&r_, noise);
            if (v > best->value) {
                ax_move m;
                rota_move(&m, x, y, r, AX_NO_COLOR);
                consider(best, v, &m);
            }
            int empty = empty_corner[r];
            for (int w = 0; empty >= 0 && w < g->ncolors; w++) {
                if (!count[empty][w])
                    continue;
                uint8_t points[AX_MAX_COLORS];
                int unused;
                rota_fixed_points(turned[r], count, points, &unused);
                points[w] = (uint8_t)(points[w] + count[empty][w]);
                float vw = ai_gains_value(gains, points, g->ncolors) + jitter(&r_, noise);
                if (vw > best->value) {
                    ax_move m;
                    rota_move(&m, x, y, r, w);
                    consider(best, vw, &m);
                }
            }
        }
    }
    *rng = r_;
}

/* Every legal move through the engine's list: for the first-tile rule. */
static void listed_policy(const ax_game *g, const ai_gains *gains, float noise, ax_rng *rng,
                          ai_scratch *s, best_move *best)
{
    int n = ax_legal_moves(g, s->moves, AX_MAX_MOVES), last[2] = {-1, -1};
    pair_pyramids pyr; /* of the pair `last` in that order: a pair's moves are listed together */
    for (int k = 0; k < n; k++) {
        const ax_move *m = &s->moves[k];
        uint8_t points[AX_MAX_COLORS];
        if (g->variant == AX_ROTA || m->kind != AX_MOVE_PLACE) {
            ai_estimate_points(g, s, m, points);
        } else {
            int i = m->cells[0], j = m->cells[1];
            if (!((i == last[0] && j == last[1]) || (i == last[1] && j == last[0]))) {
                pyramids_of_pair(g, i, j, &pyr);
                last[0] = i, last[1] = j;
            }
            pair_pyramids here = pyr; /* as ai_estimate_points makes it for (i, j) */
            if (i != last[0]) {
                here.near[0] = pyr.near[1];
                here.near[1] = pyr.near[0];
            }
            ax_tile t = g->rack[g->to_move][m->rack_index];
            pair_points(g->pot[i], g->pot[j], &here, t.sym[0], t.sym[1], points);
        }
        consider(best, ai_gains_value(gains, points, g->ncolors) + jitter(rng, noise), m);
    }
}

static void swap_move(ax_move *m, bool accept)
{
    memset(m, 0, sizeof *m);
    m->kind = AX_MOVE_SWAP;
    m->accept = accept;
    m->wild = AX_NO_COLOR;
}

/* The policy's scan of the placements of the seat to move into best (none
 * for a first tile: the engine's list covers its rule); returns the gains
 * it valued them with. */
static const ai_gains *scan_placements(const ax_game *g, const ai_params *prm, ax_rng *rng,
                                       ai_scratch *s, best_move *best)
{
    int owner = ax_track_owner(g, g->to_move);
    const ai_gains *gains = cached_gains(&s->gains, g, owner, prm);
    float noise = prm->noise * gains->unit;
    bool first_tile = g->placed_by[g->to_move] == 0 && !g->in_bonus;
    if (g->variant == AX_ROTA)
        rota_policy(g, gains, s->gains.ceiling[owner], noise, rng, best);
    else if (!first_tile)
        grid_policy(g, gains, noise, rng, s, best);
    return gains;
}

void ai_policy_move(const ax_game *g, const ai_params *prm, ax_rng *rng, ai_scratch *s,
                    ax_move *out)
{
    if (g->phase == AX_PHASE_SWAP) {
        swap_move(out, true); /* offered only when no tile serves the weakest colour */
        return;
    }
    best_move best = {.value = -1e30f};
    const ai_gains *gains = scan_placements(g, prm, rng, s, &best);
    if (best.value > -1e30f && ax_check(g, &best.move) == AX_OK) {
        *out = best.move;
        return;
    }
    best.value = -1e30f;
    listed_policy(g, gains, prm->noise * gains->unit, rng, s, &best);
    *out = best.move;
}

/* The legal ones of the list, best first. */
static int checked_moves(const ax_game *g, const best_list *l, ax_move *out)
{
    int n = 0;
    for (int i = 0; i < l->n; i++)
        if (ax_check(g, &l->moves[i]) == AX_OK)
            out[n++] = l->moves[i];
    return n;
}

int ai_policy_moves(const ax_game *g, const ai_params *prm, ax_rng *rng, ai_scratch *s, int want,
                    ax_move *out)
{
    want = want < 1 ? 1 : want > AI_MAX_REPLIES ? AI_MAX_REPLIES : want;
    if (g->phase == AX_PHASE_SWAP) {
        swap_move(&out[0], true);
        if (want == 1)
            return 1;
        swap_move(&out[1], false);
        return 2;
    }
    if (want == 1) {
        ai_policy_move(g, prm, rng, s, out);
        return 1;
    }
    best_list list = {.want = want};
    best_move best = {.value = -1e30f, .list = &list};
    const ai_gains *gains = scan_placements(g, prm, rng, s, &best);
    int n = checked_moves(g, &list, out);
    if (n > 0)
        return n;
    list.n = 0;
    best.value = -1e30f;
    listed_policy(g, gains, prm->noise * gains->unit, rng, s, &best);
    return checked_moves(g, &list, out);
}

int ai_playout(ax_game *g, const ai_params *prm, ax_rng *rng, ai_scratch *s)
{
    return ai_playout_plies(g, prm, rng, s, -1);
}

int ai_playout_plies(ax_game *g, const ai_params *prm, ax_rng *rng, ai_scratch *s, int max_plies)
{
    int n = 0;
    while (g->phase != AX_PHASE_OVER && n != max_plies) {
        ax_move m;
        ai_policy_move(g, prm, rng, s, &m);
        if (ax_apply(g, &m, NULL) != AX_OK) {
            ax_random_move(g, rng, &m); /* never expected; keeps the playout going */
            ax_apply(g, &m, NULL);
        }
        n++;
    }
    return n;
}

/* --- the reward --- */

/* The margin of a lowest track over the best other, in [0, 1]. */
static double margin_shade(const ax_game *g, const uint8_t *mine, int best_other)
{
    double margin = (lowest_track(mine, g->ncolors) - best_other) / (2.0 * g->threshold[0]);
    return 0.5 + (margin > 0.5 ? 0.5 : margin < -0.5 ? -0.5 : margin);
}

static double solo_reward(const ax_game *g)
{
    double top = ax_max_score(g);
    double result = (double)ax_solo_result(g);
    if (g->variant == AX_HEX)
        return result / (top * 10000 + top * 100 + top);
    return result / top;
}

/* The track value of one owner: a point counts more the lower its track,
 * as in the playout policy's gains. */
static double tracks_value(const value_curve *f, const uint8_t *track, int ncolors)
{
    double v = 0;
    for (int c = 0; c < ncolors; c++)
        v += f->value[track[c]];
    return v;
}

double ai_estimate(const ax_game *g, int seat, const ai_params *prm, double scale)
{
    if (g->phase == AX_PHASE_OVER || g->mode == AX_SOLO)
        return ai_outcome(g, seat);
    value_curve f;
    curve_init(&f, g, prm);
    return ai_estimate_by(&f, g, seat, scale);
}

double ai_estimate_by(const ai_curve *f, const ax_game *g, int seat, double scale)
{
    if (g->phase == AX_PHASE_OVER || g->mode == AX_SOLO)
        return ai_outcome(g, seat);
    int me = ax_track_owner(g, seat), owners = g->mode == AX_TEAM ? 2 : g->players;
    double mine = tracks_value(f, g->track[me], g->ncolors), ahead = 0;
    int best_other = 0;
    for (int o = 0; o < owners; o++) {
        if (o == me)
            continue;
        double d = mine - tracks_value(f, g->track[o], g->ncolors);
        ahead += 1.0 / (1.0 + exp(-d / scale));
        int low = lowest_track(g->track[o], g->ncolors);
        best_other = low > best_other ? low : best_other;
    }
    return 0.9 * ahead / (owners - 1) + 0.1 * margin_shade(g, g->track[me], best_other);
}

double ai_outcome(const ax_game *g, int seat)
{
    if (g->mode == AX_SOLO)
        return solo_reward(g);
    int me = ax_track_owner(g, seat), owners = g->mode == AX_TEAM ? 2 : g->players;
    const uint8_t *mine = g->track[me];
    double beaten = 0;
    int best_other = 0;
    for (int o = 0; o < owners; o++) {
        if (o == me)
            continue;
        int cmp = ax_compare_tracks(mine, g->track[o], g->ncolors);
        beaten += cmp > 0 ? 1.0 : cmp == 0 ? 0.5 : 0.0;
        int low = lowest_track(g->track[o], g->ncolors);
        best_other = low > best_other ? low : best_other;
    }
    return 0.9 * beaten / (owners - 1) + 0.1 * margin_shade(g, mine, best_other);
}
