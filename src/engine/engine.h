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
/* A unit whose points (in byte lanes) take a track of `track` to a
 * threshold (an AXIO), by the scalar rule; res all made here. */
void ax_score_axio(ax_game *g, uint8_t *track, uint64_t points, ax_unit_result *res);
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

/* ax_score_unit with the points in byte lanes: bits 8c..8c + 7 the points
 * of colour c (kept in a register, not built in memory byte by byte); inline
 * in the boards' placements, the scalar rule (ax_score_axio) out of line.
 * Byte-lane arithmetic on the six colours (SWAR): every lane holds a value
 * below 128, so bit 7 of a lane is free to carry a comparison. */
#define AX_LANES_1 0x0101010101010101ULL
#define AX_LANES_H 0x8080808080808080ULL

/* Bit 7 of each lane: a >= b (lanes below 128). */
static inline uint64_t ax_lanes_ge(uint64_t a, uint64_t b)
{
    return ((a | AX_LANES_H) - b) & AX_LANES_H;
}

/* The points, each at most 63: a track never needs more to reach its last
 * threshold (36), so the sum with the track stays below 128. */
static inline uint64_t ax_capped_points(uint64_t p)
{
    uint64_t big = p & 0xc0c0c0c0c0c0c0c0ULL;
    big = ((big >> 6) | (big >> 7)) & AX_LANES_1;
    return (p & 0x3f3f3f3f3f3f3f3fULL) | big * 0x3f;
}

static inline uint64_t ax_load_track(const uint8_t *track)
{
    uint32_t low;
    uint16_t high;
    memcpy(&low, track, 4);
    memcpy(&high, track + 4, 2);
    return low | (uint64_t)high << 32;
}

/* Every colour at once: the threshold above each track (t0, else t1, else
 * none), the tracks plus the points; only when one reaches its threshold
 * does the scalar rule run. res: naxio, bonus_moves and all_max, and the
 * AXIOs' fields up to naxio. */
static inline void ax_score_lanes(ax_game *g, int seat, uint64_t points, ax_unit_result *res)
{
    uint8_t *track = g->track[g->mode == AX_TEAM ? seat % 2 : seat]; /* ax_track_owner */
    uint64_t t0 = g->threshold[0], t1 = g->nthresholds > 1 ? g->threshold[1] : 0;
    uint64_t lane = ((1ULL << (8 * g->ncolors)) - 1) & AX_LANES_H; /* bit 7 of each colour */
    uint64_t t = ax_load_track(track), p = ax_capped_points(points);
    uint64_t below0 = ~ax_lanes_ge(t, t0 * AX_LANES_1) & lane;
    uint64_t below1 = ~ax_lanes_ge(t, t1 * AX_LANES_1) & lane & ~below0;
    uint64_t limit = (below0 >> 7) * t0 | (below1 >> 7) * t1, limited = below0 | below1;
    uint64_t next = t + p, scored = (p + 0x7f * AX_LANES_1) & AX_LANES_H; /* p != 0 */
    if (ax_lanes_ge(next, limit) & limited & scored) {
        ax_score_axio(g, track, points, res);
        t = ax_load_track(track);
    } else { /* below every threshold: the tracks with limits gain the points */
        uint64_t keep = (limited >> 7) * 0xff;
        t = (next & keep) | (t & ~keep);
        uint32_t low = (uint32_t)t;
        uint16_t high = (uint16_t)(t >> 32);
        memcpy(track, &low, 4);
        memcpy(track + 4, &high, 2);
        res->naxio = 0;
        res->bonus_moves = 0;
    }
    uint64_t off_max = t ^ ((uint64_t)g->threshold[g->nthresholds - 1] * AX_LANES_1);
    res->all_max = ((off_max + 0x7f * AX_LANES_1) & lane) == 0;
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
/* Whether the seat to move has a tile and an open pair to put it on
 * (inline: asked after every turn). */
static inline bool ax_grid_can_place(const ax_game *g)
{
    return g->rack_n[g->to_move] > 0 && g->npairs > 0;
}
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
