/*
 * board_grid.c - dominoes on the `square` and `hex` boards (rules 2.2, 4.2).
 *
 * Legality (two neighbouring empty cells, the first-tile rule), the line
 * scoring of each half, and the pyramids of `square`. A scoring walk stops
 * at the first cell whose content differs from the half's symbol; empty,
 * pyramid, dead and off-area cells never equal a colour, so the walk needs no
 * bounds check.
 */
#include "engine.h"

#include <assert.h>
#include <string.h>

static bool is_symbol(uint8_t content) { return content < AX_MAX_COLORS; }

static bool near_untouched_field(const ax_game *g, int cell)
{
    int ndir = (g)->ndirs;
    for (int f = 0; f < g->nfields; f++) {
        if (g->fields_touched & (1u << f))
            continue;
        for (int d = 0; d < ndir; d++)
            if (cell + g->dir_offset[d] == g->field_cell[f])
                return true;
    }
    return false;
}

/* Cell sets as bitsets over the grid: pairs of neighbouring empty cells are
 * found a word at a time. Bit i of pairs(d) says cells i and i + offset(d)
 * are both empty, for the forward directions d < ndirs / 2. */
typedef struct {
    uint64_t w[AX_GRID_WORDS];
} cellset;

/* Bit i of the result is bit i + shift of `s` (shift may be negative). */
static cellset shifted(const cellset *s, int shift)
{
    cellset out;
    int words = shift / 64, bits = shift % 64;
    if (bits < 0) {
        bits += 64;
        words--;
    }
    for (int i = 0; i < AX_GRID_WORDS; i++) {
        int src = i + words;
        uint64_t lo = src >= 0 && src < AX_GRID_WORDS ? s->w[src] : 0;
        uint64_t hi = src + 1 >= 0 && src + 1 < AX_GRID_WORDS ? s->w[src + 1] : 0;
        out.w[i] = bits ? (lo >> bits) | (hi << (64 - bits)) : lo;
    }
    return out;
}

static void set_cell(cellset *s, int cell) { s->w[cell / 64] |= 1ULL << (cell % 64); }

/* Cells next to a field that no tile touches yet. */
static cellset near_untouched_fields(const ax_game *g)
{
    cellset s = {{0}};
    for (int f = 0; f < g->nfields; f++) {
        if (g->fields_touched & (1u << f))
            continue;
        for (int d = 0; d < g->ndirs; d++)
            set_cell(&s, g->field_cell[f] + g->dir_offset[d]);
    }
    return s;
}

/* Pairs in forward direction d; with `near`, only pairs touching it. */
static cellset empty_pairs(const ax_game *g, int d, const cellset *near)
{
    const cellset *empty = (const cellset *)g->empty;
    cellset partner = shifted(empty, g->dir_offset[d]);
    cellset out;
    if (near) {
        cellset near_partner = shifted(near, g->dir_offset[d]);
        for (int i = 0; i < AX_GRID_WORDS; i++)
            out.w[i] = empty->w[i] & partner.w[i] & (near->w[i] | near_partner.w[i]);
    } else {
        for (int i = 0; i < AX_GRID_WORDS; i++)
            out.w[i] = empty->w[i] & partner.w[i];
    }
    return out;
}

static int count_cells(const cellset *s)
{
    int n = 0;
    for (int i = 0; i < AX_GRID_WORDS; i++)
        n += __builtin_popcountll(s->w[i]);
    return n;
}

static bool pair_touches_field(const ax_game *g, int i, int j)
{
    return near_untouched_field(g, i) || near_untouched_field(g, j);
}

/* The first-tile rule binds when this is the seat's first tile and some
 * placement can touch an untouched field. `near` receives the cells next to
 * untouched fields. */
static bool first_tile_rule(const ax_game *g, cellset *near)
{
    if (g->placed_by[g->to_move] > 0 || g->in_bonus)
        return false;
    *near = near_untouched_fields(g);
    for (int d = 0; d < g->ndirs / 2; d++) {
        cellset p = empty_pairs(g, d, near);
        if (count_cells(&p))
            return true;
    }
    return false;
}

bool ax_grid_must_touch_field(const ax_game *g)
{
    cellset near;
    return first_tile_rule(g, &near);
}

bool ax_grid_can_place(const ax_game *g)
{
    if (g->rack_n[g->to_move] == 0)
        return false;
    for (int d = 0; d < g->ndirs / 2; d++) {
        cellset p = empty_pairs(g, d, NULL);
        if (count_cells(&p))
            return true;
    }
    return false;
}

/* The legal pairs of the seat to move, per forward direction. */
static int legal_pairs(const ax_game *g, cellset pairs[3])
{
    cellset near;
    bool restricted = first_tile_rule(g, &near);
    int n = 0;
    for (int d = 0; d < g->ndirs / 2; d++) {
        pairs[d] = empty_pairs(g, d, restricted ? &near : NULL);
        n += count_cells(&pairs[d]);
    }
    return n;
}

static int direction_between(const ax_game *g, int from, int to)
{
    int ndir = (g)->ndirs;
    for (int d = 0; d < ndir; d++)
        if (from + g->dir_offset[d] == to)
            return d;
    return -1;
}

ax_error ax_grid_check(const ax_game *g, const ax_move *m)
{
    if (m->rack_index >= g->rack_n[g->to_move])
        return AX_ERR_RACK;
    for (int k = 0; k < 2; k++)
        if (m->cells[k] < 0 || m->cells[k] >= AX_GRID_CELLS || g->cell[m->cells[k]] != AX_EMPTY)
            return AX_ERR_CELL;
    if (direction_between(g, m->cells[0], m->cells[1]) < 0)
        return AX_ERR_ADJACENT;
    if (ax_grid_must_touch_field(g) && !pair_touches_field(g, m->cells[0], m->cells[1]))
        return AX_ERR_FIRST_TILE;
    return AX_OK;
}

/* The cells after `cell` in the direction `step` that hold `sym`, up to the
 * first that does not: the points of one line (rules 2.2 step 2). */
static int run_length(const ax_game *g, int cell, int step, int sym)
{
    int n = 0;
    for (int c = cell + step; g->cell[c] == sym; c += step)
        n++;
    return n;
}

/* Points of one half on `cell`, walking every direction but `skip_dir`. */
static void score_half(const ax_game *g, int cell, int skip_dir, uint8_t points[])
{
    int sym = g->cell[cell], ndir = (g)->ndirs;
    for (int d = 0; d < ndir; d++)
        if (d != skip_dir)
            points[sym] = (uint8_t)(points[sym] + run_length(g, cell, g->dir_offset[d], sym));
}

/* The lines a checked placement would score, walked on the board before it:
 * a walk never meets the other half, which lies in the one direction skipped. */
int ax_grid_lines(const ax_game *g, const ax_move *m, ax_line lines[AX_MAX_LINES])
{
    ax_tile tile = g->rack[g->to_move][m->rack_index];
    int dir = direction_between(g, m->cells[0], m->cells[1]), n = 0;
    for (int k = 0; k < 2; k++) {
        int skip = k == 0 ? dir : (dir + g->ndirs / 2) % g->ndirs;
        for (int d = 0; d < g->ndirs; d++) {
            int run = d == skip ? 0 : run_length(g, m->cells[k], g->dir_offset[d], tile.sym[k]);
            if (run == 0 || n == AX_MAX_LINES)
                continue;
            lines[n++] = (ax_line){.color = tile.sym[k],
                                   .points = (uint8_t)run,
                                   .dir = (int8_t)d,
                                   .corner = -1,
                                   .cell = m->cells[k]};
        }
    }
    return n;
}

static bool is_single(const ax_game *g, int cell)
{
    if (g->cell[cell] != AX_EMPTY)
        return false;
    for (int d = 0; d < 4; d++) {
        uint8_t n = g->cell[cell + g->dir_offset[d]];
        if (!(is_symbol(n) || n == AX_PYRAMID || n == AX_OFF))
            return false;
    }
    return true;
}

/* Sets a pyramid on `cell`, moving the oldest one when all are used;
 * returns the cell it left or -1. */
static int put_pyramid(ax_game *g, int cell)
{
    int moved_from = -1;
    if (g->pyramids_n < AX_MAX_PYRAMIDS) {
        g->pyramid_cell[g->pyramids_n++] = (int16_t)cell;
    } else {
        moved_from = g->pyramid_cell[g->pyramid_oldest];
        ax_grid_put(g, moved_from, AX_DEAD); /* SPEC: docs/rules-interpretations.md 1 */
        g->pyramid_cell[g->pyramid_oldest] = (int16_t)cell;
        g->pyramid_oldest = (uint8_t)((g->pyramid_oldest + 1) % AX_MAX_PYRAMIDS);
    }
    ax_grid_put(g, cell, AX_PYRAMID);
    return moved_from;
}

/* New single cells next to the placed pair, in row-major order. */
static int new_singles(const ax_game *g, const int16_t placed[2], int16_t singles[6])
{
    int n = 0;
    for (int k = 0; k < 2; k++)
        for (int d = 0; d < 4; d++) {
            int c = placed[k] + g->dir_offset[d];
            if (!is_single(g, c))
                continue;
            bool seen = false;
            for (int s = 0; s < n; s++)
                seen |= singles[s] == c;
            if (!seen)
                singles[n++] = (int16_t)c;
        }
    for (int a = 1; a < n; a++) /* insertion sort: index order is row-major */
        for (int b = a; b > 0 && singles[b - 1] > singles[b]; b--) {
            int16_t t = singles[b];
            singles[b] = singles[b - 1];
            singles[b - 1] = t;
        }
    return n;
}

/* Scores the pyramids the placement made; returns bonus moves earned.
 * SPEC: the singles are found once, before any pyramid moves (interpretation 1). */
static int place_pyramids(ax_game *g, int seat, const int16_t placed[2], bool *all_max,
                          ax_events *out)
{
    int16_t singles[6];
    int n = new_singles(g, placed, singles), bonus = 0;
    for (int s = 0; s < n && !*all_max; s++) {
        if (g->cell[singles[s]] != AX_EMPTY) /* defensive: a set cell stays set */
            continue;
        int moved_from = put_pyramid(g, singles[s]);
        uint8_t points[AX_MAX_COLORS] = {0};
        for (int d = 0; d < 4; d++) {
            uint8_t n_content = g->cell[singles[s] + g->dir_offset[d]];
            if (is_symbol(n_content))
                points[n_content]++;
        }
        ax_unit_result res;
        ax_score_unit(g, seat, points, &res);
        ax_event *e = ax_event_add(out, AX_EV_PYRAMID, seat);
        if (e) {
            e->cells[0] = singles[s];
            e->moved_from = (int16_t)moved_from;
            memcpy(e->points, points, sizeof points);
            memcpy(e->score, g->track[ax_track_owner(g, seat)], AX_MAX_COLORS);
        }
        ax_emit_axio(g, seat, &res, out);
        bonus += res.bonus_moves;
        *all_max = res.all_max;
    }
    return bonus;
}

void ax_grid_put(ax_game *g, int cell, int content)
{
    g->cell[cell] = (uint8_t)content;
    uint64_t bit = 1ULL << (cell % 64);
    if (content == AX_EMPTY)
        g->empty[cell / 64] |= bit;
    else
        g->empty[cell / 64] &= ~bit;
    if (!is_symbol((uint8_t)content))
        return;
    for (int f = 0; f < g->nfields; f++)
        if (direction_between(g, cell, g->field_cell[f]) >= 0)
            g->fields_touched |= (uint8_t)(1u << f);
}

int ax_grid_place(ax_game *g, const ax_move *m, bool *all_max, ax_events *out)
{
    int seat = g->to_move;
    ax_tile tile = g->rack[seat][m->rack_index];
    /* Identical tiles are interchangeable: always take the first copy, so
     * the rack's order does not depend on which copy a player named. */
    int index = 0;
    while (!ax_tile_equal(g->rack[seat][index], tile))
        index++;
    memmove(&g->rack[seat][index], &g->rack[seat][index + 1],
            (size_t)(g->rack_n[seat] - index - 1) * sizeof(ax_tile));
    g->rack_n[seat]--;
    g->board_tiles[g->board_n++] = tile;

    const int16_t placed[2] = {m->cells[0], m->cells[1]};
    ax_grid_put(g, placed[0], tile.sym[0]);
    ax_grid_put(g, placed[1], tile.sym[1]);

    int dir = direction_between(g, placed[0], placed[1]);
    int back = (dir + (g)->ndirs / 2) % (g)->ndirs;
    uint8_t points[AX_MAX_COLORS] = {0};
    score_half(g, placed[0], dir, points);
    score_half(g, placed[1], back, points);

    ax_unit_result res;
    ax_score_unit(g, seat, points, &res);
    ax_event *e = ax_event_add(out, AX_EV_PLACE, seat);
    if (e) {
        e->tile = tile;
        e->cells[0] = placed[0];
        e->cells[1] = placed[1];
        e->bonus = g->in_bonus;
        memcpy(e->points, points, sizeof points);
        memcpy(e->score, g->track[ax_track_owner(g, seat)], AX_MAX_COLORS);
    }
    ax_emit_axio(g, seat, &res, out);
    int bonus = res.bonus_moves;
    *all_max = res.all_max;
    if (g->variant == AX_SQUARE && !*all_max)
        bonus += place_pyramids(g, seat, placed, all_max, out);
    return bonus;
}

static void domino_move(ax_move *m, int rack_index, int first, int second)
{
    memset(m, 0, sizeof *m);
    m->kind = AX_MOVE_PLACE;
    m->rack_index = (uint8_t)rack_index;
    m->wild = AX_NO_COLOR;
    m->cells[0] = (int16_t)first;
    m->cells[1] = (int16_t)second;
}

int ax_grid_moves(const ax_game *g, ax_move *moves, int max)
{
    int n = 0, seat = g->to_move;
    cellset pairs[3];
    legal_pairs(g, pairs);
    for (int d = 0; d < g->ndirs / 2; d++)
        for (int w = 0; w < AX_GRID_WORDS; w++)
            for (uint64_t bits = pairs[d].w[w]; bits; bits &= bits - 1) {
                int i = w * 64 + __builtin_ctzll(bits), j = i + g->dir_offset[d];
                for (int r = 0; r < g->rack_n[seat]; r++) {
                    ax_tile t = g->rack[seat][r];
                    bool duplicate = false;
                    for (int q = 0; q < r; q++)
                        duplicate |= ax_tile_equal(g->rack[seat][q], t);
                    if (duplicate)
                        continue;
                    for (int flip = 0; flip < (t.sym[0] == t.sym[1] ? 1 : 2); flip++) {
                        if (n >= max)
                            return n;
                        domino_move(&moves[n++], r, flip ? j : i, flip ? i : j);
                    }
                }
            }
    return n;
}

int ax_legal_pairs(const ax_game *g, uint64_t pairs[6][AX_GRID_WORDS])
{
    assert(g->variant != AX_ROTA && g->phase == AX_PHASE_PLACE);
    cellset forward[3];
    int n = legal_pairs(g, forward), half = g->ndirs / 2;
    for (int d = 0; d < half; d++) {
        /* the pair (i, i + offset) seen from its other end: bit j is bit j - offset */
        cellset back = shifted(&forward[d], -g->dir_offset[d]);
        memcpy(pairs[d], forward[d].w, sizeof forward[d].w);
        memcpy(pairs[d + half], back.w, sizeof back.w);
    }
    return n;
}

void ax_grid_random_move(const ax_game *g, ax_rng *rng, ax_move *m)
{
    cellset pairs[3];
    int count = legal_pairs(g, pairs);
    assert(count > 0 && g->rack_n[g->to_move] > 0);
    int pick = (int)ax_rng_below(rng, (uint32_t)count);
    int rack_index = (int)ax_rng_below(rng, g->rack_n[g->to_move]);
    int flip = (int)ax_rng_below(rng, 2);
    for (int d = 0; d < g->ndirs / 2; d++)
        for (int w = 0; w < AX_GRID_WORDS; w++) {
            int in_word = __builtin_popcountll(pairs[d].w[w]);
            if (pick >= in_word) {
                pick -= in_word;
                continue;
            }
            uint64_t bits = pairs[d].w[w];
            while (pick-- > 0)
                bits &= bits - 1;
            int i = w * 64 + __builtin_ctzll(bits), j = i + g->dir_offset[d];
            domino_move(m, rack_index, flip ? j : i, flip ? i : j);
            return;
        }
}
