/*
 * capi.h - what the files of the C ABI share and do not export: the spaces
 * of a configuration with their lookup tables (spec.c), the legal set of a
 * decision and the action numbering (actions.c), the observation writer
 * (observation.c), and one game in play with its history (game.c), which
 * the batches (batch.c) hold many of.
 */
#ifndef AXIO_CAPI_INTERNAL_H
#define AXIO_CAPI_INTERNAL_H

#include "../engine/axio.h"
#include "../engine/reason.h"
#include "../engine/record.h"
#include "axio_capi.h"

#include <stdbool.h>

#define CAPI_MAX_WINDOW 15  /* square 13, hex 2 * 7 + 1 */
#define CAPI_MAX_SLOTS  120 /* rota: frontier cells, see spec.c */
#define CAPI_PHASES     4   /* place, bonus place, swap, over */

/* A configuration's spaces and the tables that map the board window onto
 * the engine's grid (square, hex). */
typedef struct {
    axio_spec spec;
    int half;                                           /* ndirs / 2 */
    int ncells;                                         /* window * window */
    int16_t cell_of[CAPI_MAX_WINDOW * CAPI_MAX_WINDOW]; /* grid index or -1 */
    int16_t row_start[CAPI_MAX_WINDOW];  /* grid index of each window row's column 0 */
    int16_t window_of[AX_GRID_CELLS];    /* window cell of a grid index, or -1 */
    int16_t field_window[AX_MAX_COLORS]; /* window cell of each printed field */
    int16_t plane_at[16];                /* board plane offset of a cell content */
    int16_t off_cell;                    /* a grid cell off the play area */
    int16_t obs_cell[CAPI_MAX_WINDOW * CAPI_MAX_WINDOW]; /* cell_of, off_cell for -1 */
    int max_score;                                       /* the last threshold */
} capi_space;

/* The legal decisions of the seat to move, as the engine gives them. */
typedef struct {
    /* a check reads phase, slot_dirs and one word of pairs: two cache lines */
    uint8_t phase; /* AX_PHASE_* */
    /* square, hex: directions open to each rack slot: 0, half or ndirs */
    uint8_t slot_dirs[AX_MAX_RACK];
    int32_t count; /* legal actions */
    /* square, hex */
    uint64_t pairs[6][AX_GRID_WORDS];
    int32_t dir_count[6]; /* set bits per direction */
    /* rota: the frontier in reading order (also for the observation) */
    int16_t nslots;
    int16_t slot_x[CAPI_MAX_SLOTS], slot_y[CAPI_MAX_SLOTS];
    uint8_t slot_frontier[CAPI_MAX_SLOTS]; /* its index in the engine's frontier list */
    uint8_t wilds[CAPI_MAX_SLOTS][4];      /* per rotation: bit 0 none, bit 1 + c colour c */
    bool wildless;                         /* the hand tile has no empty corner: all wilds[] 1 */
} capi_legal;

/* One game in play: the engine's game, its legal set and every decision
 * since the deal (to rebuild the record). */
typedef struct {
    /* first what a batch's check of an action reads, in one cache line */
    bool from_seed; /* dealt by ax_game_init from g.seed: the record can be rebuilt */
    bool is_view;   /* hidden tiles unknown: observed, never played on */
    int ndecisions, capacity;
    ax_move *decisions;
    capi_legal legal;
    ax_game g;
} capi_play;

/* What a batch row shows, so that the next step writes less: the board
 * section only where cells changed (square, hex; rota's display is written
 * whole); the mask's open directions whole, but its closed ones only where
 * they were open before. Writing only the mask's bytes that changed costs
 * more than copying the slots' blocks: a placement flips pairs in every
 * direction, and a 2-player row shows the other rack every step (doubles
 * and repeats open and close other directions); tried in 2026-12 at 1.1 M
 * against 1.5 M hex steps a second (docs/measurements/python.md). */
typedef struct {
    bool board_valid;       /* the row's board section shows cell[] and fields */
    uint8_t fields_touched; /* ax_game.fields_touched */
    /* ax_game.cell of each window row's run of grid cells, row after row */
    uint8_t cell[CAPI_MAX_WINDOW * CAPI_MAX_WINDOW];
    bool mask_known;                /* zero_from holds (square, hex) */
    uint8_t zero_from[AX_MAX_RACK]; /* per slot: the directions from here on are all 0 */
} capi_shown;

struct axio_game {
    capi_space space;
    capi_play play;
};

/* Set bits of a word: the instruction where the build has it (-mpopcnt,
 * CMakeLists.txt), else without a library call. */
static inline int capi_popcount(uint64_t x)
{
#ifdef __POPCNT__
    return __builtin_popcountll(x);
#else
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
#endif
}

/* spec.c */
int capi_space_init(capi_space *s, int variant, int players, int mode);

/* actions.c */
void capi_legal_build(const capi_space *s, const ax_game *g, capi_legal *out);
bool capi_legal_contains(const capi_space *s, const capi_legal *l, int32_t action);
void capi_legal_mask(const capi_space *s, const capi_legal *l, int8_t *mask);
/* capi_legal_mask into a batch row that shows `shown`; and a row's mask all 0. */
void capi_legal_mask_row(const capi_space *s, const capi_legal *l, int8_t *mask, capi_shown *shown);
void capi_mask_row_clear(const capi_space *s, int8_t *mask, capi_shown *shown);
int32_t capi_legal_sample(const capi_space *s, const capi_legal *l, ax_rng *rng);
/* The move an action names (false: no such move can be named, e.g. a
 * frontier slot that does not exist now). Not checked for legality. */
bool capi_action_decode(const capi_space *s, const ax_game *g, const capi_legal *l, int32_t action,
                        ax_move *m);
/* The action of a legal engine decision (of the same decision when the
 * engine's move names it another way: another copy of an identical tile, a
 * double the other way round, an unmatched wild colour); -1 if none. */
int32_t capi_action_encode(const capi_space *s, const ax_game *g, const capi_legal *l,
                           const ax_move *m);

/* observation.c: seat's observation, from what it may know only */
void capi_observe(const capi_space *s, const ax_game *g, const capi_legal *l, int seat,
                  int8_t *obs);
/* capi_observe into a row that shows `shown`: the board only where it changed. */
void capi_observe_row(const capi_space *s, const ax_game *g, const capi_legal *l, int seat,
                      int8_t *obs, capi_shown *shown);

/* game.c */
int capi_play_start(const capi_space *s, capi_play *p, uint64_t seed);
/* Room for one more decision in the history. */
int capi_play_reserve(capi_play *p);
/* Applies a legal action (the caller checked it). */
int capi_play_apply(const capi_space *s, capi_play *p, int32_t action);
int capi_play_copy(const capi_play *src, capi_play *dst, bool with_history);
void capi_play_free(capi_play *p);
/* Per seat at the end: place and ranking reward (docs/python.md). */
void capi_results(const ax_game *g, int32_t place[4], float reward[4]);

/* state.c: a game's saved state (axio-state/1) and back */
json_t *capi_state_json(const capi_space *s, const capi_play *p);
int capi_state_load(json_t *obj, capi_space *s, capi_play *p, char *err, size_t errlen);

#endif
