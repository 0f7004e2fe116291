/*
 * board_grid.c - dominoes on the `square` and `hex` boards (rules 2.2, 4.2).
 *
 * Legality (two neighbouring empty cells, the first-tile rule), the line
 * scoring of each half, and the pyramids of `square`. A scoring walk stops
 * at the first cell whose content differs from the half's symbol; empty,
 * pyramid, dead and off-area cells never equal a colour, so the walk needs no
 * bounds check.
 *
 * Nothing a decision needs is searched for: every change of a cell goes
 * through ax_grid_put, which keeps the open pairs (bit sets per forward
 * direction, with their counts) and the potentials (what a half of each
 * colour would score on each empty cell) up to date. A symbol put on a cell
 * changes only the potentials of the two empty cells that end the runs
 * through it on each line, so a placement is scored by two look-ups and
 * costs a few short walks. A random placement is the pick-th open pair,
 * found by the counts, without a list.
 */
#include "engine.h"

#include <assert.h>
#include <string.h>

static bool is_symbol(uint8_t content) { return content < AX_MAX_COLORS; }

static bool in_set(const uint64_t *set, int cell)
{
    return (set[(unsigned)cell / 64] >> ((unsigned)cell % 64)) & 1;
}

/* Cell sets as bitsets over the grid: pairs of neighbouring empty cells are
 * found a word at a time. Bit i of pairs(d) says cells i and i + offset(d)
 * are both empty, for the forward directions d < ndirs / 2. */
typedef struct {
    uint64_t w[AX_GRID_WORDS];
} cellset;

/* The forward directions of each board as constants (geometry.c), so that
 * the work of a taken cell, and the shifts of a first tile's pairs, unroll. */
static const int square_axes[2] = {1, AX_GRID_SIDE};
static const int hex_axes[3] = {1, 1 - AX_GRID_SIDE, -AX_GRID_SIDE};

/* ax_cells_shifted's work, inline in the engine's own loops. */
static inline __attribute__((always_inline)) void shift_cells(const uint64_t *s, int shift,
                                                              uint64_t *out)
{
    int words = shift / 64, bits = shift % 64;
    if (bits < 0) {
        bits += 64;
        words--;
    }
    for (int i = 0; i < AX_GRID_WORDS; i++) {
        int src = i + words;
        uint64_t lo = src >= 0 && src < AX_GRID_WORDS ? s[src] : 0;
        uint64_t hi = src + 1 >= 0 && src + 1 < AX_GRID_WORDS ? s[src + 1] : 0;
        out[i] = bits ? (lo >> bits) | (hi << (64 - bits)) : lo;
    }
}

void ax_cells_shifted(const uint64_t s[AX_GRID_WORDS], int shift, uint64_t out[AX_GRID_WORDS])
{
    shift_cells(s, shift, out);
}

/* Bit i of the result is bit i + shift of `s` (shift may be negative). */
static cellset shifted(const cellset *s, int shift)
{
    cellset out;
    shift_cells(s->w, shift, out.w);
    return out;
}

static void set_cell(cellset *s, int cell) { s->w[cell / 64] |= 1ULL << (cell % 64); }

/* The cells next to a field that no tile touches yet, made from the
 * fields and fields_touched. */
static cellset fields_near(const ax_game *g)
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

void ax_grid_reset_fields(ax_game *g)
{
    cellset s = fields_near(g);
    memcpy(g->field_near, s.w, sizeof s.w);
    g->field_near_touched = g->fields_touched;
}

/* The same, as kept in ax_game.field_near unless fields_touched was set
 * since (by hand). */
static cellset near_untouched_fields(const ax_game *g)
{
    if (g->field_near_touched != g->fields_touched)
        return fields_near(g);
    cellset s;
    memcpy(s.w, g->field_near, sizeof s.w);
    return s;
}

static bool near_untouched_field(const ax_game *g, int cell)
{
    if (g->field_near_touched != g->fields_touched) {
        cellset s = fields_near(g);
        return in_set(s.w, cell);
    }
    return in_set(g->field_near, cell);
}

static int count_cells(const cellset *s)
{
    int n = 0;
    for (int i = 0; i < AX_GRID_WORDS; i++)
        n += ax_popcount64(s->w[i]);
    return n;
}

static bool pair_touches_field(const ax_game *g, int i, int j)
{
    return near_untouched_field(g, i) || near_untouched_field(g, j);
}

/* The open pairs of forward direction d; with `near`, only those touching it. */
static cellset open_pairs(const ax_game *g, int d, const cellset *near)
{
    cellset out;
    memcpy(out.w, g->pairs[d], sizeof out.w);
    if (near) {
        cellset near_partner = shifted(near, g->dir_offset[d]);
        for (int i = 0; i < AX_GRID_WORDS; i++)
            out.w[i] &= near->w[i] | near_partner.w[i];
    }
    return out;
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
        cellset p = open_pairs(g, d, near);
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

/* The legal pairs of the seat to move, per forward direction. */
static int legal_pairs(const ax_game *g, cellset pairs[3])
{
    int n = 0;
    if (g->placed_by[g->to_move] == 0 && !g->in_bonus) { /* a first tile: next to a field */
        cellset near = near_untouched_fields(g);
        for (int d = 0; d < g->ndirs / 2; d++) {
            pairs[d] = open_pairs(g, d, &near);
            n += count_cells(&pairs[d]);
        }
    }
    if (n == 0) { /* no first tile, or none can touch a field: any open pair */
        memcpy(pairs, g->pairs, (size_t)(g->ndirs / 2) * sizeof pairs[0]);
        n = g->npairs;
    }
    return n;
}

/* Whether cells a and b of the grid are neighbours. */
static bool neighbours(const ax_game *g, int a, int b)
{
    int diff = b - a; /* every test made: the direction is as random as the game */
    bool side = (diff == 1) | (diff == -1) | (diff == AX_GRID_SIDE) | (diff == -AX_GRID_SIDE);
    bool hex_diagonal = (diff == AX_GRID_SIDE - 1) | (diff == 1 - AX_GRID_SIDE);
    return side | (hex_diagonal & (g->variant == AX_HEX));
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
    if (!neighbours(g, m->cells[0], m->cells[1]))
        return AX_ERR_ADJACENT;
    bool first = g->placed_by[g->to_move] == 0 && !g->in_bonus;
    if (first && !pair_touches_field(g, m->cells[0], m->cells[1]) && ax_grid_must_touch_field(g))
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

/* Whether a cell's content leaves an empty neighbour open (not single):
 * empty or dead, the two contents that differ in bit 1 only. */
_Static_assert(AX_EMPTY == 8 && AX_DEAD == 10 && AX_PYRAMID == 9 && AX_OFF == 11,
               "open(): empty and dead differ from the others");
static bool open_content(uint8_t c) { return (c & ~2u) == AX_EMPTY; }

/* square: an empty cell all of whose neighbours are tiles, fields,
 * pyramids or off the area. */
static bool is_single(const ax_game *g, int cell)
{
    const uint8_t *c = g->cell + cell; /* every test made: no branch to mispredict */
    return (c[0] == AX_EMPTY) & !open_content(c[1]) & !open_content(c[-1]) &
           !open_content(c[AX_GRID_SIDE]) & !open_content(c[-AX_GRID_SIDE]);
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

/* The cells next to a pair whose first cell (in index order) is cell 0,
 * in row-major order: of a pair in a row, then of a pair in a column, as
 * bits of a window of cells that starts a row above the first cell (bit k:
 * cell first - AX_GRID_SIDE + k); debug builds test them one by one. */
#ifndef NDEBUG
static const int8_t around_pair[2][6] = {
    {-AX_GRID_SIDE, 1 - AX_GRID_SIDE, -1, 2, AX_GRID_SIDE, AX_GRID_SIDE + 1},
    {-AX_GRID_SIDE, -1, 1, AX_GRID_SIDE - 1, AX_GRID_SIDE + 1, 2 * AX_GRID_SIDE}};
#endif
#define AROUND_BIT(offset) (1ULL << ((offset) + AX_GRID_SIDE))
static const uint64_t around_pair_bits[2] = {
    AROUND_BIT(-AX_GRID_SIDE) | AROUND_BIT(1 - AX_GRID_SIDE) | AROUND_BIT(-1) | AROUND_BIT(2) |
        AROUND_BIT(AX_GRID_SIDE) | AROUND_BIT(AX_GRID_SIDE + 1),
    AROUND_BIT(-AX_GRID_SIDE) | AROUND_BIT(-1) | AROUND_BIT(1) | AROUND_BIT(AX_GRID_SIDE - 1) |
        AROUND_BIT(AX_GRID_SIDE + 1) | AROUND_BIT(2 * AX_GRID_SIDE)};
#undef AROUND_BIT

/* Bits from..from + 63 of a cell set; from + 63 must lie in its last word
 * but one or before (the cells next to the square play area do). */
static inline uint64_t cells_from(const uint64_t *s, int from)
{
    unsigned w = (unsigned)from / 64, shift = (unsigned)from % 64;
    assert(from >= 0 && w + 1 < AX_GRID_WORDS);
    return (s[w] >> shift) | ((s[w + 1] << 1) << (63 - shift));
}

/* New single cells next to the placed pair, in row-major order. A single
 * is empty with no open neighbour (empty or dead): an empty cell in no open
 * pair, from either end, is one unless a neighbour is dead (seldom), which
 * is_single tells; the six cells around the pair are tested at once as bits
 * of the empty cells and the open pairs (no branch, a few words read). */
static int new_singles(const ax_game *g, const int16_t placed[2], int16_t singles[6])
{
    int first = placed[0] < placed[1] ? placed[0] : placed[1];
    int diff = placed[1] - placed[0], from = first - AX_GRID_SIDE;
    uint64_t paired = cells_from(g->pairs[0], from) | cells_from(g->pairs[0], from - 1) |
                      cells_from(g->pairs[1], from) | cells_from(g->pairs[1], from - AX_GRID_SIDE);
    uint64_t found = cells_from(g->empty, from) & ~paired & around_pair_bits[diff * diff != 1];
    int n = 0;
    for (; found; found &= found - 1) { /* seldom any */
        int cell = from + __builtin_ctzll(found);
        singles[n] = (int16_t)cell;
        n += is_single(g, cell);
    }
#ifndef NDEBUG
    const int8_t *around = around_pair[diff * diff != 1];
    int k = 0;
    for (int a = 0; a < 6; a++)
        if (is_single(g, first + around[a]))
            assert(k < n && singles[k++] == first + around[a]);
    assert(k == n);
#endif
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

/* --- the state kept by ax_grid_put --- */

static void count_pairs(ax_game *g)
{
    g->npairs = 0;
    for (int d = 0; d < g->ndirs / 2; d++)
        for (int w = 0; w < AX_GRID_WORDS; w++) {
            g->pair_count[d][w] = (uint8_t)ax_popcount64(g->pairs[d][w]);
            g->npairs = (uint16_t)(g->npairs + g->pair_count[d][w]);
        }
}

/* The open pairs made again from the empty cells. */
static void make_pairs(ax_game *g)
{
    const cellset *empty = (const cellset *)g->empty;
    memset(g->pairs, 0, sizeof g->pairs);
    for (int d = 0; d < g->ndirs / 2; d++) {
        cellset partner = shifted(empty, g->dir_offset[d]);
        for (int w = 0; w < AX_GRID_WORDS; w++)
            g->pairs[d][w] = empty->w[w] & partner.w[w];
    }
    count_pairs(g);
}

void ax_grid_cell_potential(const ax_game *g, int cell, uint8_t pot[AX_MAX_COLORS])
{
    memset(pot, 0, AX_MAX_COLORS);
    for (int d = 0; d < g->ndirs; d++) {
        uint8_t sym = g->cell[cell + g->dir_offset[d]];
        if (is_symbol(sym))
            pot[sym] = (uint8_t)(pot[sym] + run_length(g, cell, g->dir_offset[d], sym));
    }
}

/* Every potential made again from the board. */
static void make_potentials(ax_game *g)
{
    memset(g->pot, 0, sizeof g->pot);
    for (int w = 0; w < AX_GRID_WORDS; w++)
        for (uint64_t bits = g->empty[w]; bits; bits &= bits - 1) {
            int i = w * 64 + __builtin_ctzll(bits);
            ax_grid_cell_potential(g, i, g->pot[i]);
        }
}

/* Clears bit i of the pairs of direction d, which is set when `open`
 * (npairs is the caller's). */
static inline void close_pair(ax_game *g, int d, unsigned i, unsigned open)
{
    g->pairs[d][i / 64] &= ~(1ULL << (i % 64));
    g->pair_count[d][i / 64] = (uint8_t)(g->pair_count[d][i / 64] - open);
}

/* Empty cell `cell` is taken: the pairs it starts and ends close, in each
 * of the `naxes` forward directions `axes` (a pair was open when its other
 * cell is empty). Then, when a symbol now lies there: on each line through
 * it, the run of `sym` it joins grows by the cell and the run beyond it, and
 * the two cells that end that run, when empty, gain those points. */
static inline __attribute__((always_inline)) void take_cell_on(ax_game *g, int cell, int sym,
                                                               int naxes, const int *axes)
{
    unsigned ahead_open[3], behind_open[3], closed = 0; /* read before any write */
#pragma GCC unroll 3
    for (int d = 0; d < naxes; d++) {
        ahead_open[d] = g->cell[cell + axes[d]] == AX_EMPTY;
        behind_open[d] = g->cell[cell - axes[d]] == AX_EMPTY;
        closed += ahead_open[d] + behind_open[d];
    }
#pragma GCC unroll 3
    for (int d = 0; d < naxes; d++) {
        close_pair(g, d, (unsigned)cell, ahead_open[d]);
        close_pair(g, d, (unsigned)(cell - axes[d]), behind_open[d]);
    }
    g->npairs = (uint16_t)(g->npairs - closed);
    if (!is_symbol((uint8_t)sym))
        return;
#pragma GCC unroll 3
    for (int d = 0; d < naxes; d++) {
        int step = axes[d];
        int ahead = run_length(g, cell, step, sym), behind = run_length(g, cell, -step, sym);
        int front = cell + (ahead + 1) * step, back = cell - (behind + 1) * step;
        /* no branch: a cell that is not empty gains 0 (its potential stays 0) */
        g->pot[front][sym] =
            (uint8_t)(g->pot[front][sym] + (1 + behind) * (g->cell[front] == AX_EMPTY));
        g->pot[back][sym] =
            (uint8_t)(g->pot[back][sym] + (1 + ahead) * (g->cell[back] == AX_EMPTY));
    }
}

/* A symbol on `cell` touches the fields next to it. */
static void touch_fields(ax_game *g, int cell)
{
    if (g->field_near_touched != g->fields_touched)
        ax_grid_reset_fields(g);
    if (!in_set(g->field_near, cell))
        return;
    unsigned touched = g->fields_touched;
    for (int f = 0; f < g->nfields; f++)
        touched |= (unsigned)neighbours(g, cell, g->field_cell[f]) << f;
    /* the cells next to the fields now touched leave the set (no two fields
     * of a board share a neighbour): not made again from every field */
    for (unsigned fresh = touched & ~(unsigned)g->fields_touched; fresh; fresh &= fresh - 1) {
        int f = __builtin_ctz(fresh);
        for (int d = 0; d < g->ndirs; d++) {
            unsigned c = (unsigned)(g->field_cell[f] + g->dir_offset[d]);
            g->field_near[c / 64] &= ~(1ULL << (c % 64));
        }
    }
    g->fields_touched = (uint8_t)touched;
    g->field_near_touched = (uint8_t)touched;
#ifndef NDEBUG
    cellset near = fields_near(g);
    assert(memcmp(near.w, g->field_near, sizeof near.w) == 0);
#endif
}

/* An empty cell taken by `content` (a symbol, a pyramid): every change a
 * decision makes, and the quick path of ax_grid_put. */
static void take_cell(ax_game *g, int cell, int content)
{
    unsigned c = (unsigned)cell;
    g->cell[c] = (uint8_t)content;
    g->empty[c / 64] &= ~(1ULL << (c % 64));
    memset(g->pot[c], 0, sizeof g->pot[c]);
    if (g->variant == AX_HEX)
        take_cell_on(g, cell, content, 3, hex_axes);
    else
        take_cell_on(g, cell, content, 2, square_axes);
    if (is_symbol((uint8_t)content) &&
        (g->field_near_touched != g->fields_touched || in_set(g->field_near, cell)))
        touch_fields(g, cell);
}

void ax_grid_put(ax_game *g, int cell, int content)
{
    uint8_t was = g->cell[cell];
    if (was == AX_EMPTY && content != AX_EMPTY) {
        take_cell(g, cell, content);
        return;
    }
    g->cell[cell] = (uint8_t)content;
    uint64_t bit = 1ULL << (cell % 64);
    if (content == AX_EMPTY)
        g->empty[cell / 64] |= bit;
    else
        g->empty[cell / 64] &= ~bit;
    if (was != content && (content == AX_EMPTY || is_symbol(was) || is_symbol((uint8_t)content))) {
        /* a position built by hand: a cell emptied or a symbol changed */
        make_pairs(g);
        make_potentials(g);
    }
    if (is_symbol((uint8_t)content))
        touch_fields(g, cell);
}

void ax_grid_reset_pairs(ax_game *g) { make_pairs(g); }

void ax_grid_reset_state(ax_game *g)
{
    make_pairs(g);
    memset(g->pot, 0, sizeof g->pot);
}

bool ax_grid_state_consistent(const ax_game *g)
{
    /* the state made again from the cells, compared */
    const cellset *empty = (const cellset *)g->empty;
    int total = 0;
    for (int d = 0; d < 3; d++)
        for (int w = 0; w < AX_GRID_WORDS; w++) {
            uint64_t want = 0;
            if (d < g->ndirs / 2) {
                cellset partner = shifted(empty, g->dir_offset[d]);
                want = empty->w[w] & partner.w[w];
            }
            if (g->pairs[d][w] != want || g->pair_count[d][w] != ax_popcount64(want))
                return false;
            total += g->pair_count[d][w];
        }
    cellset near = fields_near(g);
    if (total != g->npairs || (g->field_near_touched == g->fields_touched &&
                               memcmp(near.w, g->field_near, sizeof near.w) != 0))
        return false;
    for (int i = 0; i < AX_GRID_CELLS; i++) {
        uint8_t pot[8] = {0};
        if (g->cell[i] == AX_EMPTY)
            ax_grid_cell_potential(g, i, pot);
        if (memcmp(pot, g->pot[i], sizeof pot) != 0)
            return false;
    }
    return true;
}

int ax_grid_place(ax_game *g, const ax_move *m, bool *all_max, ax_events *out)
{
    int seat = g->to_move;
    ax_tile tile = g->rack[seat][m->rack_index];
    /* Identical tiles are interchangeable: always take the first copy, so
     * the rack's order does not depend on which copy a player named. */
    int index = AX_MAX_RACK, n = g->rack_n[seat];
    for (int r = n - 1; r >= 0; r--) /* the first copy, no branch */
        index = ax_same_tile(g->rack[seat][r], tile) ? r : index;
    for (int r = 0; r + 1 < AX_MAX_RACK; r++) { /* the ones after it move up */
        uint32_t here, next, move = 0u - (uint32_t)((r >= index) & (r + 1 < n));
        memcpy(&here, g->rack[seat][r].sym, 4);
        memcpy(&next, g->rack[seat][r + 1].sym, 4);
        here = (here & ~move) | (next & move);
        memcpy(g->rack[seat][r].sym, &here, 4);
    }
    g->rack_n[seat]--;
    g->board_tiles[g->board_n++] = tile;

    /* Each half scores the runs next to its cell but towards its partner,
     * which is empty before the placement: its potential (rules 2.2 step 2). */
    const int16_t placed[2] = {m->cells[0], m->cells[1]};
    uint64_t points = 0; /* in byte lanes (ax_score_lanes) */
    for (int k = 0; k < 2; k++)
        if (is_symbol((uint8_t)tile.sym[k]))
            points =
                ax_lanes_add(points, (uint64_t)g->pot[placed[k]][tile.sym[k]] << (8 * tile.sym[k]));
    take_cell(g, placed[0], tile.sym[0]);
    take_cell(g, placed[1], tile.sym[1]);

    ax_unit_result res;
    ax_score_lanes(g, seat, points, &res);
    ax_event *e = ax_event_add(out, AX_EV_PLACE, seat);
    if (e) {
        e->tile = tile;
        e->cells[0] = placed[0];
        e->cells[1] = placed[1];
        e->bonus = g->in_bonus;
        ax_lanes_points(points, e->points);
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
    /* both cells in one store: ax_grid_place reads them as one word, which
     * two half-word stores still in flight would stall (no forwarding) */
    const int16_t cells[2] = {(int16_t)first, (int16_t)second};
    memcpy(m->cells, cells, sizeof cells);
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

/* The pick-th of `count` pairs in `pairs` (per-word counts `counts`), in
 * the order of directions, then cells, as a domino of rack tile
 * `rack_index`, turned when `flip`. */
/* The k-th (from 0) set bit of x, which has more than k: the byte that
 * holds it by the bytes' running counts, then the bit within that byte;
 * no branch to mispredict. */
static int select_bit(uint64_t x, int k)
{
    const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
    uint64_t s = x - ((x >> 1) & 0x5555555555555555ULL);
    s = (s & 0x3333333333333333ULL) + ((s >> 2) & 0x3333333333333333ULL);
    s = (s + (s >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
    uint64_t upto = s * ones; /* byte b: the set bits of bytes 0..b (at most 64) */
    /* bytes whose running count is at most k: k + 128 - count keeps bit 7 */
    uint64_t before = (((uint64_t)k * ones | highs) - upto) & highs;
    int byte = (int)(((before >> 7) * ones) >> 56);
    int r = k - (int)(((upto << 8) >> (8 * byte)) & 0xff); /* among the bits of that byte */
    unsigned b = (unsigned)(x >> (8 * byte)) & 0xff;
    /* then the nibble that holds it, by the low nibble's count (a nibble's
     * count is nibble v of nibble_count), and its place in that nibble:
     * bits 2r, 2r + 1 of nibble_select[v] say where v's r-th set bit is */
    static const uint8_t nibble_select[16] = {0x00, 0x00, 0x01, 0x04, 0x02, 0x08, 0x09, 0x24,
                                              0x03, 0x0c, 0x0d, 0x34, 0x0e, 0x38, 0x39, 0xe4};
    const uint64_t nibble_count = 0x4332322132212110ULL;
    int low = (int)((nibble_count >> (4 * (b & 15))) & 15), high = r >= low;
    unsigned in_high = 0u - (unsigned)high; /* arithmetic: no branch */
    unsigned nibble = ((b >> 4) & in_high) | (b & 15 & ~in_high);
    r -= low & (int)in_high;
    return 8 * byte + 4 * high + ((nibble_select[nibble] >> (2 * r)) & 3);
}

/* Adds the counts of `words` words to *end, counting in *at the words that
 * end at or before `pick` and keeping in *before where the last of them
 * ends. */
static inline __attribute__((always_inline)) void
find_word(const uint8_t *count, int words, int pick, int *at, int *before, int *end)
{
#pragma GCC unroll 15
    for (int k = 0; k < words; k++) {
        *end += count[k];
        int past = pick >= *end;
        *at += past;
        *before = past ? *end : *before;
    }
}

/* The pick-th of `count` pairs in `pairs` (per-word counts `counts`), in
 * the order of directions, then cells, as a domino of rack tile
 * `rack_index`, turned when `flip`. */
static void pick_pair(const ax_game *g, const uint64_t (*pairs)[AX_GRID_WORDS],
                      const uint8_t (*counts)[AX_GRID_WORDS], int pick, int rack_index, int flip,
                      ax_move *m)
{
    /* the word holding it: the words before it end at or before `pick`
     * (every word counted, no branch to mispredict) */
    const uint8_t *count = counts[0]; /* the words of every direction, in order */
    int at = 0, before = 0, end = 0;
    if (g->ndirs == 6) /* the loops unrolled, their ends known */
        find_word(count, 3 * AX_GRID_WORDS, pick, &at, &before, &end);
    else
        find_word(count, 2 * AX_GRID_WORDS, pick, &at, &before, &end);
    int d = at / AX_GRID_WORDS, w = at % AX_GRID_WORDS;
    int i = w * 64 + select_bit(pairs[d][w], pick - before), j = i + g->dir_offset[d];
    int swap = (i ^ j) & -flip; /* flip: j first, no branch */
    domino_move(m, rack_index, i ^ swap, j ^ swap);
}

/* The open pairs next to an untouched field, per forward direction (of
 * `naxes`, the offsets `axes`, constants so that the shifts unroll), with
 * their counts per word; returns how many. */
static inline __attribute__((always_inline)) int near_field_pairs(const ax_game *g, int naxes,
                                                                  const int *axes, cellset pairs[3],
                                                                  uint8_t counts[3][AX_GRID_WORDS])
{
    cellset near = near_untouched_fields(g), partner;
    int n = 0;
    for (int d = 0; d < naxes; d++) {
        shift_cells(near.w, axes[d], partner.w);
        for (int w = 0; w < AX_GRID_WORDS; w++) {
            pairs[d].w[w] = g->pairs[d][w] & (near.w[w] | partner.w[w]);
            counts[d][w] = (uint8_t)ax_popcount64(pairs[d].w[w]);
            n += counts[d][w];
        }
    }
    return n;
}

/* A first tile's random placement: among the pairs next to an untouched
 * field, when there are any (legal_pairs, counted once). */
static void first_tile_random_move(const ax_game *g, ax_rng *rng, ax_move *m)
{
    cellset restricted[3];
    uint8_t counts[3][AX_GRID_WORDS];
    int count = g->variant == AX_HEX ? near_field_pairs(g, 3, hex_axes, restricted, counts)
                                     : near_field_pairs(g, 2, square_axes, restricted, counts);
    const uint64_t(*pairs)[AX_GRID_WORDS] = (const uint64_t(*)[AX_GRID_WORDS])restricted;
    const uint8_t(*pair_counts)[AX_GRID_WORDS] = (const uint8_t(*)[AX_GRID_WORDS])counts;
    if (count == 0) { /* none can touch a field: any open pair */
        pairs = g->pairs;
        pair_counts = g->pair_count;
        count = g->npairs;
    }
#ifndef NDEBUG
    cellset want[3];
    assert(legal_pairs(g, want) == count);
    for (int d = 0; d < g->ndirs / 2; d++)
        assert(memcmp(want[d].w, pairs[d], sizeof want[d].w) == 0);
#endif
    assert(count > 0 && g->rack_n[g->to_move] > 0);
    int pick = (int)ax_rng_below_inline(rng, (uint32_t)count);
    int rack_index = (int)ax_rng_below_inline(rng, g->rack_n[g->to_move]);
    int flip = (int)ax_rng_below_inline(rng, 2);
    pick_pair(g, pairs, pair_counts, pick, rack_index, flip, m);
}

void ax_grid_random_move(const ax_game *g, ax_rng *rng, ax_move *m)
{
    if (g->placed_by[g->to_move] == 0 && !g->in_bonus) {
        first_tile_random_move(g, rng, m);
        return;
    }
    assert(g->npairs > 0 && g->rack_n[g->to_move] > 0);
    int pick = (int)ax_rng_below_inline(rng, g->npairs);
    int rack_index = (int)ax_rng_below_inline(rng, g->rack_n[g->to_move]);
    int flip = (int)ax_rng_below_inline(rng, 2);
    pick_pair(g, g->pairs, g->pair_count, pick, rack_index, flip, m);
}
