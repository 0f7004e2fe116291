/*
 * geometry.c - cells, directions and play areas of the two board games.
 *
 * Both boards sit in one padded AX_GRID_SIDE x AX_GRID_SIDE array. `square`
 * [row, col] lives at ((row + 2), (col + 2)); `hex` axial [q, r] at
 * ((r + 8), (q + 8)). A direction is then one index offset, and the first
 * half of a variant's directions are the "forward" ones: with their
 * opposites (d + n/2) they give every neighbour pair exactly once.
 */
#include "engine.h"

#include <assert.h>
#include <string.h>

static const int square_dirs[4] = {1, AX_GRID_SIDE, -1, -AX_GRID_SIDE};
/* rules.md 4.1 order: [+1,0] [+1,-1] [0,-1] [-1,0] [-1,+1] [0,+1] */
static const int hex_dirs[6] = {1,  1 - AX_GRID_SIDE, -AX_GRID_SIDE,
                                -1, AX_GRID_SIDE - 1, AX_GRID_SIDE};

int ax_direction_count(const ax_game *g) { return g->ndirs; }

int ax_direction_offset(const ax_game *g, int dir) { return g->dir_offset[dir]; }

static int hex_distance(int q, int r)
{
    int s = q + r;
    int aq = q < 0 ? -q : q, ar = r < 0 ? -r : r, as = s < 0 ? -s : s;
    int m = aq > ar ? aq : ar;
    return m > as ? m : as;
}

int ax_cell_index(const ax_game *g, int a, int b)
{
    if (g->variant == AX_SQUARE) {
        if (a < 0 || a > 12 || b < 0 || b > 12)
            return -1;
        return (a + 2) * AX_GRID_SIDE + (b + 2);
    }
    if (g->variant == AX_HEX) {
        if (a < -7 || a > 7 || b < -7 || b > 7 || hex_distance(a, b) > 7)
            return -1;
        return (b + 8) * AX_GRID_SIDE + (a + 8);
    }
    return -1;
}

void ax_cell_coords(const ax_game *g, int cell, int *a, int *b)
{
    int row = cell / AX_GRID_SIDE, col = cell % AX_GRID_SIDE;
    if (g->variant == AX_SQUARE) {
        *a = row - 2;
        *b = col - 2;
    } else {
        *a = col - 8;
        *b = row - 8;
    }
}

/* Marks the cells of row `row` (padded grid) from column `from` to `to` as
 * empty play area. */
static void open_row(ax_game *g, int row, int from, int to)
{
    int first = row * AX_GRID_SIDE + from, last = row * AX_GRID_SIDE + to;
    /* 4 to 16 cells (hex rows from area + 1, square's at least 9): two
     * overlapping stores of 4 or 8, where a memset call cost more */
    const uint64_t empty8 = AX_EMPTY * 0x0101010101010101ULL;
    const uint32_t empty4 = (uint32_t)empty8;
    assert(last - first + 1 >= 4 && last - first + 1 <= 16);
    if (last - first + 1 >= 8) {
        memcpy(g->cell + first, &empty8, 8);
        memcpy(g->cell + last - 7, &empty8, 8);
    } else {
        memcpy(g->cell + first, &empty4, 4);
        memcpy(g->cell + last - 3, &empty4, 4);
    }
    for (int w = first / 64; w <= last / 64; w++) { /* a row spans one or two words */
        int lo = w * 64 > first ? 0 : first % 64, hi = (w + 1) * 64 <= last ? 63 : last % 64;
        g->empty[w] |= (~0ULL >> (63 - hi)) & (~0ULL << lo);
    }
}

/* The play area: square, the centred area x area block of the 13x13
 * board; hex, the cells within `area` of the centre (q, r and q + r all
 * within it). */
static void open_area(ax_game *g)
{
    int area = g->area;
    if (g->variant == AX_SQUARE) {
        int margin = (13 - area) / 2;
        for (int row = margin; row <= 12 - margin; row++)
            open_row(g, row + 2, margin + 2, 12 - margin + 2);
        return;
    }
    for (int r = -area; r <= area; r++) {
        int from = r < 0 ? -area - r : -area, to = r > 0 ? area - r : area;
        open_row(g, r + 8, from + 8, to + 8);
    }
}

/* rules.md 2.1 and 4.1 [assumption: which colour sits where]. */
static const int8_t square_fields[5][3] = {
    {2, 6, AX_RED}, {6, 10, AX_GREEN}, {10, 6, AX_BLUE}, {6, 2, AX_ORANGE}, {6, 6, AX_PURPLE}};
static const int8_t hex_fields[6][3] = {{5, 0, AX_RED},     {5, -5, AX_GREEN},  {0, -5, AX_BLUE},
                                        {-5, 0, AX_ORANGE}, {-5, 5, AX_YELLOW}, {0, 5, AX_PURPLE}};

/* The cells next to the fields of each board (any play area): what
 * ax_grid_reset_fields makes before any tile, written out (the set-up's
 * debug check compares). */
_Static_assert(AX_GRID_SIDE == 17 && AX_GRID_WORDS == 5, "the tables below are of this grid");
static const uint64_t square_field_near[AX_GRID_WORDS] = {
    0x0800000000000000ULL, 0x8800000020002800ULL, 0x00000022202aa808ULL, 0x0000002000280008ULL,
    0x0000000000000000ULL};
static const uint64_t hex_field_near[AX_GRID_WORDS] = {0x94018c0000000000ULL, 0x0c00000000031802ULL,
                                                       0x0000006018501430ULL, 0x0063005280318000ULL,
                                                       0x0000000000000000ULL};

void ax_grid_setup(ax_game *g)
{
    g->ndirs = g->variant == AX_HEX ? 6 : 4;
    for (int d = 0; d < g->ndirs; d++)
        g->dir_offset[d] = (int16_t)(g->variant == AX_HEX ? hex_dirs[d] : square_dirs[d]);
    memset(g->cell, AX_OFF, sizeof g->cell);
    memset(g->empty, 0, sizeof g->empty);
    open_area(g);
    /* the fields set straight on the cells, then the open pairs made once
     * and the potentials of the fields' neighbours set (what ax_grid_put
     * would keep, field by field) */
    const int8_t(*fields)[3] = g->variant == AX_SQUARE ? square_fields : hex_fields;
    g->nfields = g->variant == AX_SQUARE ? 5 : 6;
    for (int f = 0; f < g->nfields; f++) {
        int cell = ax_cell_index(g, fields[f][0], fields[f][1]);
        g->field_cell[f] = (int16_t)cell;
        g->field_color[f] = (uint8_t)fields[f][2];
        g->cell[cell] = (uint8_t)fields[f][2];
        g->empty[cell / 64] &= ~(1ULL << (cell % 64));
    }
    ax_grid_reset_pairs(g);
    /* ax_game_init zeroed the potentials; no two fields share a line
     * without a cell between them, so each field gives each empty neighbour
     * one point of its colour */
    for (int f = 0; f < g->nfields; f++)
        for (int d = 0; d < g->ndirs; d++) {
            int next = g->field_cell[f] + g->dir_offset[d];
            g->pot[next][g->field_color[f]] += g->cell[next] == AX_EMPTY;
        }
    g->fields_touched = 0;
    memcpy(g->field_near, g->variant == AX_SQUARE ? square_field_near : hex_field_near,
           sizeof g->field_near);
    g->field_near_touched = 0;
    assert(ax_grid_state_consistent(g)); /* the pairs, potentials and field_near */
}
