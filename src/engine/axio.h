/*
 * axio.h - the public interface of the AXIO rules engine.
 *
 * The engine plays the three games of docs/rules.md: `square`
 * (AXIO), `rota` (AXIO ROTA) and `hex` (AXIO Hex). A game is one plain struct
 * (ax_game) with no pointers and no heap memory: copying it with memcpy or
 * assignment gives an independent game, which is how the AI searches.
 *
 * Flow: ax_game_init() deals from a seed; the player ax_game.to_move then
 * takes decisions (ax_move: a placement, or the swap yes/no when the phase is
 * AX_PHASE_SWAP) through ax_apply() until ax_game.phase is AX_PHASE_OVER.
 * Between two decisions any seat may leave (AX_MOVE_LEAVE, rules 6); with
 * three or four sides the game goes on and the leaver's seat is still asked
 * for its decisions (a computer plays them). ax_apply() rejects an illegal
 * decision and leaves the game untouched. Each call can report what happened
 * as record events (ax_events), which record.c turns into the JSON lines of
 * docs/record.md.
 *
 * Cells: `square` and `hex` boards live in one padded 17x17 array
 * (AX_GRID_SIDE) so that a direction is a fixed index offset and walking off
 * the play area always meets an AX_OFF cell. `rota` has no board: its cells
 * are (x, y) pairs kept in a small hash table (board_rota.c).
 */
#ifndef AXIO_H
#define AXIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define AX_MAX_PLAYERS  4
#define AX_MAX_COLORS   6
#define AX_MAX_RACK     6
#define AX_MAX_TILES    120
#define AX_GRID_SIDE    17
#define AX_GRID_CELLS   (AX_GRID_SIDE * AX_GRID_SIDE)
#define AX_GRID_WORDS   ((AX_GRID_CELLS + 63) / 64)
#define AX_MAX_PYRAMIDS 20
#define AX_ROTA_STACK   12
#define AX_ROTA_TILES   60
#define AX_ROTA_CELLS   256 /* placed tiles plus their empty neighbours */
#define AX_MAX_MOVES    6144
#define AX_MAX_EVENTS   64

/* The rules this engine plays: docs/rules.md as docs/rules-interpretations.md
 * reads it. A change that could make a stored game replay differently gets
 * a new number, so that games played under the old rules are recognized. */
#define AX_RULES_VERSION "axio-rules/1"

typedef enum { AX_SQUARE, AX_ROTA, AX_HEX, AX_VARIANTS } ax_variant; /* AX_VARIANTS: how many */
typedef enum { AX_STANDARD, AX_SOLO, AX_TEAM } ax_mode;
typedef enum { AX_PHASE_PLACE, AX_PHASE_SWAP, AX_PHASE_OVER } ax_phase;
typedef enum {
    AX_END_NONE,
    AX_END_BLOCKED,
    AX_END_ALL_MAX,
    AX_END_TILES_OUT,
    AX_END_LEFT /* rules 6: too few sides stayed */
} ax_end_reason;
/* Why a seat left (rules 6). */
typedef enum { AX_LEAVE_RESIGN, AX_LEAVE_TIMEOUT, AX_LEAVE_ABSENT } ax_leave_why;

/* Colour ids in the order of rules.md; AX_NO_COLOR is an empty ROTA corner. */
enum { AX_RED, AX_GREEN, AX_BLUE, AX_ORANGE, AX_PURPLE, AX_YELLOW };
#define AX_NO_COLOR (-1)
#define AX_UNSET    (-2) /* an unknown (hidden) tile, or a ROTA cell with no tile */

/* Contents of a `square`/`hex` grid cell: 0..5 is a symbol (tile or field). */
enum {
    AX_EMPTY = 8,
    AX_PYRAMID = 9,
    AX_DEAD = 10, /* a pyramid left it: stays empty for the rest of the game */
    AX_OFF = 11   /* outside the play area */
};

/* A tile. Dominoes use sym[0] and sym[1]; ROTA tiles use all four corners,
 * clockwise from the top-left (NW, NE, SE, SW), AX_NO_COLOR for empty. */
typedef struct {
    int8_t sym[4];
} ax_tile;

typedef enum { AX_MOVE_PLACE, AX_MOVE_SWAP, AX_MOVE_LEAVE } ax_move_kind;

/* A decision. Placement of a domino: rack tile sym[0] goes on cells[0],
 * sym[1] on cells[1] (grid indices, see ax_cell_index). ROTA: the hand tile
 * (rack_index 0) on cell (x, y), turned `rotation` quarter turns clockwise,
 * `wild` the colour named for its empty corner. Swap: `accept`. Leave
 * (rules 6): `seat` leaves for reason `why` (ax_leave_why); any seat that
 * has not left may leave at any moment between two decisions, not only the
 * seat to move. */
typedef struct {
    uint8_t kind;
    uint8_t rack_index;
    uint8_t rotation;
    uint8_t accept;
    int8_t wild;
    uint8_t seat; /* leave */
    uint8_t why;  /* leave */
    int16_t cells[2];
    int16_t x, y;
} ax_move;

typedef enum { AX_FROM_BAG, AX_FROM_STACK, AX_FROM_SUPPLY } ax_source;
typedef enum {
    AX_EV_DRAW,
    AX_EV_PLACE,
    AX_EV_PYRAMID,
    AX_EV_AXIO,
    AX_EV_SWAP,
    AX_EV_LEAVE,
    AX_EV_END
} ax_event_kind;

/* One record event (record.md). Only the fields of its kind are meaningful. */
typedef struct {
    uint8_t kind;
    uint8_t player;
    uint8_t source;    /* draw */
    uint8_t ntiles;    /* draw: tiles drawn; swap: tiles drawn */
    uint8_t nreturned; /* swap */
    bool accepted;     /* swap */
    bool bonus;        /* place: a bonus move */
    bool bonus_move;   /* axio: a bonus move is granted */
    ax_tile tiles[AX_MAX_RACK];
    ax_tile returned[AX_MAX_RACK];
    ax_tile tile;       /* place: as placed */
    int16_t cells[2];   /* place (grid); pyramid: cells[0] */
    int16_t x, y;       /* place (rota) */
    int16_t moved_from; /* pyramid: the cell it left, or -1 */
    int8_t wild;        /* place (rota) */
    int8_t color;       /* axio */
    uint8_t axio_score; /* axio */
    uint8_t reason;     /* end */
    uint8_t why;        /* leave: ax_leave_why */
    uint8_t points[AX_MAX_COLORS];
    uint8_t score[AX_MAX_COLORS];
} ax_event;

typedef struct {
    int n;
    ax_event ev[AX_MAX_EVENTS];
} ax_events;

/* The ROTA display. Every cell it knows, placed or on the frontier (empty
 * and sharing a side with a placed tile), has an entry, found by its
 * coordinates modulo 64 in cell_at (a display spans at most 60 cells, so no
 * two entries share a place there); the frontier is also kept as a list so
 * a legal cell is found in O(1). placed[AX_ROTA_ENTRIES] is no entry's: an
 * empty tile, what a cell the display does not know reads as. */
#define AX_ROTA_ENTRIES 255 /* entries a display may have: their ids + 1 fit cell_at */
typedef struct {
    int16_t ncells, nfrontier;
    int16_t x[AX_ROTA_CELLS], y[AX_ROTA_CELLS];
    ax_tile placed[AX_ROTA_CELLS];       /* corners as placed; sym[0] == AX_UNSET: empty */
    int16_t frontier[AX_ROTA_CELLS];     /* entry ids of the frontier cells */
    int16_t frontier_pos[AX_ROTA_CELLS]; /* position in frontier[], or -1 */
    uint8_t cell_at[64 * 64];            /* [y mod 64][x mod 64]: entry id + 1, 0 none */
} ax_rota_board;

typedef struct {
    uint64_t s[4];
} ax_rng;

typedef struct {
    /* configuration */
    uint8_t variant, mode, players;
    uint8_t ncolors, rack_size, area; /* area: square side, hex radius */
    uint8_t nthresholds, ndirs;
    int16_t dir_offset[6]; /* grid index offset of each direction */
    uint8_t threshold[2];
    bool threshold_bonus[2];
    uint64_t seed;
    ax_rng rng;

    /* turn */
    uint8_t phase, to_move, end_reason;
    uint8_t bonus_pending; /* bonus moves still owed to to_move */
    bool in_bonus;         /* the placement now asked for is a bonus move */
    uint16_t ply;          /* decisions applied so far */
    uint8_t placed_by[AX_MAX_PLAYERS];

    /* rules 6: left[s] is 0 while seat s plays, else its place in the
     * order of leaving (1 = the first to leave); left_why[s] its reason */
    uint8_t nleft;
    uint8_t left[AX_MAX_PLAYERS];
    uint8_t left_why[AX_MAX_PLAYERS];

    /* tracks: one per player, or per team in team mode (index seat % 2) */
    uint8_t track[AX_MAX_PLAYERS][AX_MAX_COLORS];

    /* tiles */
    uint8_t rack_n[AX_MAX_PLAYERS];
    ax_tile rack[AX_MAX_PLAYERS][AX_MAX_RACK];
    uint8_t bag_n; /* square/hex: the bag; rota: the general supply */
    ax_tile bag[AX_MAX_TILES];
    uint8_t stack_n[AX_MAX_PLAYERS];
    ax_tile stack[AX_MAX_PLAYERS][AX_ROTA_STACK];
    uint8_t board_n; /* tiles on the board, in the order placed */
    ax_tile board_tiles[AX_MAX_TILES];

    /* square / hex board (from here to `rota`: ax_game_copy) */
    uint8_t cell[AX_GRID_CELLS];
    uint64_t empty[AX_GRID_WORDS]; /* bit i: cell i is AX_EMPTY */
    uint8_t nfields;
    int16_t field_cell[AX_MAX_COLORS];
    uint8_t field_color[AX_MAX_COLORS];
    uint8_t fields_touched; /* bit i: field i touched by a tile */
    uint8_t pyramids_n, pyramid_oldest;
    int16_t pyramid_cell[AX_MAX_PYRAMIDS]; /* ring, oldest at pyramid_oldest */
    /* Kept by every change of a cell (ax_grid_put), so that no decision
     * searches the board for the open pairs or walks it to score:
     * pairs[d] bit i: cells i and i + dir_offset[d] are both empty, for the
     * forward directions d < ndirs / 2; pair_count[d][w] the bits of
     * pairs[d][w], npairs all of them (each pair once). pot[i][c] of an
     * empty cell i: the points a half of colour c would score on it, the
     * runs of c that start next to it (0 on other cells). */
    uint16_t npairs;
    uint64_t field_near[AX_GRID_WORDS]; /* cells next to a field that no tile touches yet, */
    uint8_t field_near_touched;         /* when fields_touched is this (else made again) */
    uint8_t pair_count[3][AX_GRID_WORDS];
    uint64_t pairs[3][AX_GRID_WORDS];
    uint8_t pot[AX_GRID_CELLS][8]; /* [AX_MAX_COLORS] padded to 8: one load tells it is 0 */

    /* rota display (the last member: ax_game_copy) */
    ax_rota_board rota;
} ax_game;

typedef enum {
    AX_OK = 0,
    AX_ERR_CONFIG,     /* variant, players and mode do not fit together */
    AX_ERR_OVER,       /* the game is over */
    AX_ERR_PHASE,      /* a placement in the swap phase or the reverse */
    AX_ERR_RACK,       /* no tile at that rack index */
    AX_ERR_CELL,       /* a cell outside the play area or not empty */
    AX_ERR_ADJACENT,   /* the two cells are not neighbours */
    AX_ERR_FIRST_TILE, /* breaks the first-tile rule */
    AX_ERR_DISPLAY,    /* rota: no side shared with the display */
    AX_ERR_ROTATION,   /* rota: rotation not 0..3 */
    AX_ERR_WILD,       /* rota: not a colour of the variant */
    AX_ERR_MOVE_KIND,  /* unknown kind of decision */
    AX_ERR_SEAT,       /* leave: no such seat */
    AX_ERR_LEFT        /* leave: the seat has left already */
} ax_error;

/* --- configuration and set-up (turn.c) --- */

/* Parses "square", "rota", "hex"; returns -1 if unknown. */
int ax_variant_parse(const char *name);
const char *ax_variant_name(int variant);
/* Parses "standard", "solo", "team"; returns -1 if unknown. */
int ax_mode_parse(const char *name);
const char *ax_mode_name(int mode);
const char *ax_error_string(ax_error err);
/* A short stable id of the error ("cell", "first_tile", ...), for clients to
 * translate (protocol: an illegal_move's `reason`). */
const char *ax_error_id(ax_error err);
/* "resign", "timeout", "absent" (rules 6); parse returns -1 if unknown. */
const char *ax_leave_why_name(int why);
int ax_leave_why_parse(const char *name);
/* "blocked", "all-max", "tiles-out", "left" (record.md `end`). */
const char *ax_end_reason_name(int reason);
/* Checks that players (1..4) and mode fit the variant (solo: 1 player; team:
 * hex with 4; standard: 2..4). */
ax_error ax_config_check(int variant, int players, int mode);
/* Deals a new game. `out` (may be NULL) receives the initial draws. */
ax_error ax_game_init(ax_game *g, int variant, int players, int mode, uint64_t seed,
                      ax_events *out);

/* --- decisions (turn.c) --- */

/* Checks a decision without changing the game: a placement or swap of the
 * player to move, or a leave of any seat that still plays. */
ax_error ax_check(const ax_game *g, const ax_move *m);
/* Applies a legal decision; an illegal one returns its error and changes
 * nothing. `out` (may be NULL) receives the events it caused. */
ax_error ax_apply(ax_game *g, const ax_move *m, ax_events *out);
/* Lists the distinct legal decisions (identical rack tiles and the two
 * orientations of a double count once). Returns their number. Neither this
 * nor ax_random_move ever offers a leave: leaving is no move of the game. */
int ax_legal_moves(const ax_game *g, ax_move *moves, int max);
/* A uniformly random legal placement (over cell pair or cell, rack tile and
 * orientation), or the swap decision, without listing all moves. */
void ax_random_move(const ax_game *g, ax_rng *rng, ax_move *m);
/* The same legal placements as ax_legal_moves, in a compact form for callers
 * that need the whole set at every decision without listing it (the action
 * masks of src/capi). Placement phase only.
 * square, hex: bit i of pairs[d] is set when a domino may lie on cells i and
 * i + ax_direction_offset(g, d), for each of the ax_direction_count(g)
 * directions d, so every pair appears once from each end; any rack tile may
 * lie there either way round. Returns the number of pairs (each once). */
int ax_legal_pairs(const ax_game *g, uint64_t pairs[6][AX_GRID_WORDS]);
/* rota: the colours that the legal decisions on frontier cell (x, y) with the
 * hand tile turned `rotation` name for its empty corner. 0 when the turned
 * tile has no empty corner or no colour of that corner's circle matches: then
 * the one legal decision there names none (AX_NO_COLOR). */
int ax_rota_wild_choices(const ax_game *g, int x, int y, int rotation, int8_t colors[3]);
/* The same for every frontier cell and rotation at once, quicker than a
 * call each: sets[f][r] for the cell g->rota.frontier[f], bit c set when
 * colour c is offered (0: the decision names none). */
void ax_rota_wild_table(const ax_game *g, uint8_t (*sets)[4]);
/* The track owner of a seat: the seat, or its team in team mode. */
int ax_track_owner(const ax_game *g, int seat);
/* The last threshold of the mode (the immediate win). */
int ax_max_score(const ax_game *g);
/* rules 6: the sides of the game (one per seat, or the two teams: a side is
 * an ax_track_owner), and whether side `side` has left: 0 while it plays,
 * else the leaving order (ax_game.left) of its first seat that left. */
int ax_sides(const ax_game *g);
int ax_side_left(const ax_game *g, int side);

/* Copies src into dst as far as a game of src's variant uses it (the
 * other variant's board in dst stays as it was): dst then plays exactly as
 * src. The quick copy of a search's scratch games (a whole ax_game is over
 * 12 KB); keep or compare whole games by assignment. */
void ax_game_copy(ax_game *dst, const ax_game *src);

/* Re-checks the game's internal invariants (invariants.c); debug builds
 * assert it after every decision. */
bool ax_game_consistent(const ax_game *g);

/* --- preview (turn.c): what a placement would score --- */
typedef struct {
    ax_error legal;
    uint8_t points[AX_MAX_COLORS]; /* raw points of the tile and its pyramids */
    uint8_t score[AX_MAX_COLORS];  /* the tracks after it */
    int npyramids;
    int16_t pyramid_cell[6];
} ax_preview;
void ax_preview_move(const ax_game *g, const ax_move *m, ax_preview *out);

/* Where a placement's points would come from, for showing them (the guided
 * game): one line per half and direction walked (square, hex: `cell` the
 * half, `dir` the direction, `points` the matching symbols counted beyond
 * it) or per corner whose circle scores (rota: `corner` of the placed tile,
 * `points` the matching corners), each with the colour it scores. Only the
 * lines that count points; the tile's own unit, not its pyramids. Their
 * points add up to the tile's `place` event. Returns their number; 0 for a
 * decision ax_check refuses. */
#define AX_MAX_LINES 12 /* hex: two halves, five directions each */
typedef struct {
    int8_t color;
    uint8_t points;
    int8_t dir;    /* square, hex; else -1 */
    int8_t corner; /* rota; else -1 */
    int16_t cell;  /* square, hex: the half's grid index; else -1 */
} ax_line;
int ax_preview_lines(const ax_game *g, const ax_move *m, ax_line lines[AX_MAX_LINES]);

/* --- ranking and results (ranking.c) --- */

/* Orders seats best first. place[i] is the place (0 = first) of the i-th
 * seat in order[]. Seats that stayed come first, ordered by their tracks
 * (rules 1.2; equal tracks share a place); then the seats that left, a later
 * leaver above an earlier one (rules 6; team partners share the place). */
typedef struct {
    int n;
    int order[AX_MAX_PLAYERS];
    int place[AX_MAX_PLAYERS];
} ax_ranking;
void ax_rank(const ax_game *g, ax_ranking *out);
/* Compares two track sets by the rule of 1.2 (sorted ascending,
 * lexicographic): <0 if a is worse, 0 equal, >0 better. */
int ax_compare_tracks(const uint8_t *a, const uint8_t *b, int ncolors);
/* The solo result of rules 1.2 (square/rota: lowest track; hex: L1L2L3). */
long ax_solo_result(const ax_game *g);

/* --- hidden information (view.c) --- */

/* The game as `seat` may see it (rules 1.3): the bag, other racks, every
 * ROTA stack and the seed are replaced by unknown tiles (sym all AX_UNSET) of the
 * same count. seat -1 is a spectator. */
void ax_view(const ax_game *g, int seat, ax_game *view);
/* Fills the unknown tiles of a view with a random assignment of the tiles
 * `seat` has not seen, giving a complete game consistent with the view. */
void ax_determinize(const ax_game *view, uint64_t seed, ax_game *out);

/* --- geometry (geometry.c) --- */

/* Grid index of square [row, col] or hex [q, r]; -1 if off the board. */
int ax_cell_index(const ax_game *g, int a, int b);
/* Coordinates of a grid index (inverse of ax_cell_index). */
void ax_cell_coords(const ax_game *g, int cell, int *a, int *b);
int ax_direction_count(const ax_game *g);
int ax_direction_offset(const ax_game *g, int dir);
/* A set of grid cells (bit i: cell i, as ax_game.empty and ax_legal_pairs
 * hold them) shifted: bit i of out is bit i + shift of s, 0 where that lies
 * outside the grid's words; shift may be negative. With shift the offset of
 * direction d, the pairs (i, i + offset) become their second cells. */
void ax_cells_shifted(const uint64_t s[AX_GRID_WORDS], int shift, uint64_t out[AX_GRID_WORDS]);
/* Sets a grid cell's content (a colour, AX_EMPTY, AX_PYRAMID, AX_DEAD) and
 * marks the fields a symbol touches: for building positions by hand. */
void ax_grid_put(ax_game *g, int cell, int content);
/* ROTA: the display entry of cell (x, y), or -1 when the display does not
 * know it; an entry whose placed.sym[0] is AX_UNSET is an empty frontier
 * cell. */
int ax_rota_find(const ax_rota_board *b, int x, int y);
/* The entries of the eight cells around display entry `id` (placed or
 * frontier), row by row: (-1,-1) (0,-1) (1,-1) (-1,0) (1,0) (-1,1) (0,1)
 * (1,1); -1 where the display knows none. */
void ax_rota_around(const ax_rota_board *b, int id, int around[8]);
/* The circles of the corners of every frontier cell, in the frontier's
 * order: circles[f][i] holds the other three corners of the circle of
 * corner i (NW, NE, SE, SW) of cell frontier[f], negative where no colour
 * (in the order ax_rota_wild_choices offers colours). One pass over the
 * frontier, for a player's playout policy. */
void ax_rota_frontier_circles(const ax_rota_board *b, int8_t (*circles)[4][3]);

/* --- tiles (tiles.c) --- */

const char *ax_color_name(int color);
/* Parses a colour id; returns -1 if unknown or not in the variant. */
int ax_color_parse(const char *name, int ncolors);
/* Writes the variant's full tile set; returns its size. */
int ax_tile_set(int variant, ax_tile *out);
bool ax_tile_equal(ax_tile a, ax_tile b);
/* A ROTA tile turned r quarter turns clockwise. */
ax_tile ax_tile_rotate(ax_tile t, int r);

/* --- randomness (rng.c) --- */
void ax_rng_seed(ax_rng *r, uint64_t seed);
uint64_t ax_rng_next(ax_rng *r);
/* Uniform in [0, n), n > 0, without bias. */
uint32_t ax_rng_below(ax_rng *r, uint32_t n);

#endif
