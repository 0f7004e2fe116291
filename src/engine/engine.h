/*
 * engine.h - what the engine's files share with each other and not with
 * users of the engine: the per-variant board operations that turn.c's one
 * turn flow calls, and the scoring of a unit.
 */
#ifndef AX_ENGINE_H
#define AX_ENGINE_H

#include "axio.h"
#include "geometry.h"
#include "rng.h"

#include <string.h>

/* Result of scoring one unit (rules 1.1): colours that reached a threshold. */
typedef struct {
    int naxio;
    int8_t axio_color[AX_MAX_COLORS];
    uint8_t axio_score[AX_MAX_COLORS];
    bool axio_bonus[AX_MAX_COLORS];
    int bonus_moves;
    bool all_max; /* every track of the owner sits at the last threshold */
} ax_unit_result;

/* scoring.c */
void ax_score_unit(ax_game *g, int seat, const uint8_t points[AX_MAX_COLORS], ax_unit_result *res);
/* The same with the points in byte lanes: bits 8c..8c + 7 the points of
 * colour c (kept in a register, not built in memory byte by byte). */
void ax_score_lanes(ax_game *g, int seat, uint64_t points, ax_unit_result *res);
static inline uint64_t ax_points_lanes(const uint8_t points[AX_MAX_COLORS])
{
    uint64_t lanes = 0;
    for (int c = 0; c < AX_MAX_COLORS; c++)
        lanes |= (uint64_t)points[c] << (8 * c);
    return lanes;
}
static inline void ax_lanes_points(uint64_t lanes, uint8_t points[AX_MAX_COLORS])
{
    for (int c = 0; c < AX_MAX_COLORS; c++)
        points[c] = (uint8_t)(lanes >> (8 * c));
}
/* Lane-wise a + b, each lane modulo 256 (no carry into the next). */
static inline uint64_t ax_lanes_add(uint64_t a, uint64_t b)
{
    const uint64_t low7 = 0x7f7f7f7f7f7f7f7fULL;
    return ((a & low7) + (b & low7)) ^ ((a ^ b) & ~low7);
}
/* Appends the `axio` events of a scored unit. */
void ax_emit_axio(const ax_game *g, int seat, const ax_unit_result *res, ax_events *out);
ax_event *ax_event_add_to(ax_events *out, int kind, int player);
/* A new event of `kind` in out, or NULL when out is NULL (nobody records)
 * or full. */
static inline ax_event *ax_event_add(ax_events *out, int kind, int player)
{
    return out ? ax_event_add_to(out, kind, player) : NULL;
}
/* The set bits of x (without the popcnt instruction, which the baseline
 * x86-64 target lacks: the library call would cost more). */
static inline int ax_popcount64(uint64_t x)
{
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}

/* ax_tile_equal, inline. */
static inline bool ax_same_tile(ax_tile a, ax_tile b) { return memcmp(a.sym, b.sym, 4) == 0; }

/* board_grid.c: dominoes on the `square` and `hex` grids */
bool ax_grid_must_touch_field(const ax_game *g);
bool ax_grid_can_place(const ax_game *g);
ax_error ax_grid_check(const ax_game *g, const ax_move *m);
/* Places and scores a checked move (tile, pyramids, their axio events);
 * returns the bonus moves earned; sets *all_max on an immediate win. */
int ax_grid_place(ax_game *g, const ax_move *m, bool *all_max, ax_events *out);
int ax_grid_moves(const ax_game *g, ax_move *moves, int max);
/* The scoring lines of a checked placement (ax_preview_lines). */
int ax_grid_lines(const ax_game *g, const ax_move *m, ax_line lines[AX_MAX_LINES]);
void ax_grid_random_move(const ax_game *g, ax_rng *rng, ax_move *m);
/* The points a half of each colour would score on empty cell `cell`, walked
 * on the board (what ax_game.pot keeps). */
void ax_grid_cell_potential(const ax_game *g, int cell, uint8_t pot[AX_MAX_COLORS]);
/* Set-up: the open pairs made from the empty cells, every potential 0 (a
 * board without symbols). */
void ax_grid_reset_state(ax_game *g);
/* The same without the potentials: for a game just zeroed (ax_game_init). */
void ax_grid_reset_pairs(ax_game *g);
/* Set-up: ax_game.field_near made from the fields and fields_touched. */
void ax_grid_reset_fields(ax_game *g);
/* Whether the open pairs and potentials are those the cells give. */
bool ax_grid_state_consistent(const ax_game *g);

/* board_rota.c: the ROTA display */
void ax_rota_clear(ax_rota_board *b);
/* The same for a board that is all 0 bytes (a game just zeroed): only what
 * is not 0 when empty. */
void ax_rota_start(ax_rota_board *b);
/* The deal's display (rules 3.2) on a board that is all 0 bytes: placed[k]
 * on (0, 0), (1, 0), (0, 1), (1, 1) for k = 0..3, exactly as ax_rota_start
 * and four ax_rota_put would leave it. */
void ax_rota_deal(ax_rota_board *b, const ax_tile placed[4]);
/* Puts a tile (as placed) on a cell; keeps the frontier. */
void ax_rota_put(ax_rota_board *b, int x, int y, ax_tile placed);
bool ax_rota_is_frontier(const ax_rota_board *b, int x, int y);
/* Whether the display's entries, frontier and the cells around each entry
 * are those its hash finds. */
bool ax_rota_board_consistent(const ax_rota_board *b);
ax_error ax_rota_check(const ax_game *g, const ax_move *m);
int ax_rota_place(ax_game *g, const ax_move *m, bool *all_max, ax_events *out);
int ax_rota_moves(const ax_game *g, ax_move *moves, int max);
int ax_rota_lines(const ax_game *g, const ax_move *m, ax_line lines[AX_MAX_LINES]);
void ax_rota_random_move(const ax_game *g, ax_rng *rng, ax_move *m);
/* Raw points of the hand tile turned `rotation` on (x, y) naming `wild`. */
void ax_rota_points(const ax_game *g, ax_tile placed, int x, int y, int wild,
                    uint8_t points[AX_MAX_COLORS], bool *wild_scored);

/* turn.c */
void ax_shuffle(ax_rng *rng, ax_tile *tiles, int n);

#endif
