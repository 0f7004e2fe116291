/*
 * axio_capi.h - a small flat C ABI over the engine and the computer players,
 * for callers in other languages (the Python package in python/ loads it with
 * ctypes). Built by CMake as the shared library libaxio.so; only the
 * functions declared here are exported.
 *
 * Nothing here knows a rule: decisions are checked and applied by the engine
 * (src/engine), the legal set comes from the engine (ax_legal_pairs,
 * ax_rota_wild_table, ax_legal_moves), and the computer players are those
 * of src/ai. What this layer adds is a fixed numbering of the decisions (the
 * action space), an observation of one seat as a flat int8 array, and
 * batches of games stepped in one call. docs/python.md describes both
 * encodings with pictures; in short:
 *
 * Actions (one fixed space per variant, player count and mode):
 *   square, hex: action = (slot * D + d) * C + c: the rack tile in `slot`
 *     (0..rack size-1) with its first symbol on window cell c (row-major over
 *     the S x S window of the observation's board) and its second on the
 *     neighbour of c in direction d (D = 4 square: +col, +row, -col, -row;
 *     D = 6 hex: the rules' order [+1,0] [+1,-1] [0,-1] [-1,0] [-1,+1] [0,+1]).
 *     Then, where the rules have a swap (not solo), two more: keep (refill
 *     normally) and swap. A bonus move is an ordinary placement.
 *   rota: action = (slot * 4 + rotation) * 6 + wild: frontier cell number
 *     `slot` (the cells where a tile may go, in reading order: by y, then x),
 *     the hand tile turned `rotation` quarter turns clockwise, and the colour
 *     named for its empty corner (0 none, 1 + colour id).
 *   The legal actions are exactly the decisions ax_legal_moves lists, one
 *   action each: of identical rack tiles only the first slot, of a double
 *   only the first of its two ways round (directions 0..D/2-1), of the wild
 *   colours only those that match (else none).
 *
 * Observations: int8, axio_spec() gives the size and the named sections
 * (board planes, own rack, tracks, whose turn, phase, counts). An
 * observation is written from what the observing seat may know: the board,
 * its own rack, the tracks and the public counts; never another seat's
 * tiles, the bag's or stacks' contents, or the seed.
 *
 * Errors: functions return 0 (AXIO_OK) or a negative AXIO_E_* code; no
 * function changes anything when it fails.
 */
#ifndef AXIO_CAPI_H
#define AXIO_CAPI_H

#include <stddef.h>
#include <stdint.h>

#define AXIO_API __attribute__((visibility("default")))

/* The ABI's version: a change a caller must know about increments it. */
#define AXIO_ABI_VERSION 2

enum {
    AXIO_OK = 0,
    AXIO_E_CONFIG = -1,    /* variant, players and mode do not fit together */
    AXIO_E_RANGE = -2,     /* an action number outside the action space */
    AXIO_E_ILLEGAL = -3,   /* an action that is not legal now */
    AXIO_E_OVER = -4,      /* the game is over */
    AXIO_E_SEAT = -5,      /* no such seat */
    AXIO_E_MEMORY = -6,    /* out of memory */
    AXIO_E_NO_RECORD = -7, /* the game was not dealt from a seed (a view or a redeal) */
    AXIO_E_VIEW = -8       /* a view holds unknown tiles: it is observed, not played on */
};

#define AXIO_MAX_SECTIONS 16

/* One named part of the observation: `size` values from `offset`, shaped
 * shape[0..ndim-1], each between low and high. */
typedef struct {
    char name[16];
    int32_t offset, size, ndim;
    int32_t shape[3];
    int32_t low, high;
} axio_section;

/* The spaces of a variant, player count and mode. */
typedef struct {
    int32_t variant, players, mode;
    int32_t ncolors, rack_size, sides;
    int32_t num_actions;
    int32_t obs_size;
    /* square, hex: the board window (S x S cells), directions D, and where
     * the swap actions start (-1: none); rota: frontier slots and the
     * display window (W x W cells from cell (x0, y0)) */
    int32_t window, ndirs, swap_action;
    int32_t slots, x0, y0;
    int32_t nsections;
    axio_section sections[AXIO_MAX_SECTIONS];
} axio_spec;

/* What an action means (axio_action_describe). */
typedef struct {
    int32_t kind; /* 0 placement, 1 keep, 2 swap */
    int32_t slot; /* rack slot (square, hex) or frontier slot (rota) */
    int32_t dir;  /* square, hex */
    int32_t a0, b0, a1,
        b1; /* square [row, col], hex [q, r] of the two cells; rota [x, y] in a0, b0 */
    int32_t rotation, wild; /* rota: wild is a colour id or -1 */
} axio_action;

/* A game's state as anyone may see it. */
typedef struct {
    int32_t phase; /* 0 placement, 1 swap decision, 2 over */
    int32_t to_move;
    int32_t in_bonus;
    int32_t ply;          /* decisions so far */
    int32_t end_reason;   /* docs/record.md: 0 none, 1 blocked, 2 all-max, 3 tiles-out, 4 left */
    int32_t nlegal;       /* legal actions now */
    int32_t tracks[4][6]; /* per seat: its tracks (its team's in team mode) */
    int32_t place[4];     /* at the end, per seat: 0 first, equal places tie */
    float reward[4];      /* at the end, per seat: the ranking reward (docs/python.md) */
    int64_t solo_result;  /* at the end of a solo game (rules 1.2), else -1 */
    uint64_t seed;        /* 0 for a view */
} axio_status;

AXIO_API int axio_abi_version(void);
/* Fills *out for the variant ("square", "rota", "hex"), players (1..4) and
 * mode ("standard", "solo", "team"; NULL: solo for 1 player, else standard). */
AXIO_API int axio_spec_get(const char *variant, int players, const char *mode, axio_spec *out);

/* --- one game --- */
typedef struct axio_game axio_game;
AXIO_API int axio_game_new(const axio_spec *spec, uint64_t seed, axio_game **out);
AXIO_API void axio_game_free(axio_game *g);
AXIO_API axio_game *axio_game_clone(const axio_game *g);
/* The game as `seat` may see it (every tile it cannot see unknown), or as a
 * spectator for seat -1: a game of its own, to observe, without a record. */
AXIO_API int axio_game_view(const axio_game *g, int seat, axio_game **out);
/* The same public game and the same knowledge of `seat`, with every tile it
 * cannot see dealt anew at random from `seed` (ax_determinize). */
AXIO_API int axio_game_redeal(const axio_game *g, int seat, uint64_t seed, axio_game **out);
AXIO_API void axio_game_status(const axio_game *g, axio_status *out);
/* The spaces of the game's configuration. */
AXIO_API void axio_game_spec(const axio_game *g, axio_spec *out);
/* The seat to move, or -1 once the game is over (a cheap axio_game_status). */
AXIO_API int axio_game_to_move(const axio_game *g);
/* Seat `seat`'s observation (spec->obs_size values) and action mask
 * (spec->num_actions values, all 0 unless the seat is to move); either
 * pointer may be NULL. */
AXIO_API int axio_game_observe(const axio_game *g, int seat, int8_t *obs, int8_t *mask);
/* Applies the action of the seat to move. */
AXIO_API int axio_game_step(axio_game *g, int32_t action);
/* axio_game_step, then the seat to move (0..players-1), or AXIO_GAME_OVER
 * once the game is over; a negative AXIO_E_* when the action was refused. */
#define AXIO_GAME_OVER 4
AXIO_API int axio_game_play(axio_game *g, int32_t action);
/* The engine's own listing (ax_legal_moves), each decision as its action:
 * for checking the mask. Returns the count (at most max are written). */
AXIO_API int axio_game_legal_actions(const axio_game *g, int32_t *out, int max);
/* Why an action is not legal now, as text ("" when it is). */
AXIO_API int axio_game_explain(const axio_game *g, int32_t action, char *buf, size_t size);
AXIO_API int axio_action_describe(const axio_spec *spec, int32_t action, axio_action *out);
/* The record (docs/record.md, axio-record/1) of the game so far, complete
 * with its `end` line once the game is over: malloc'd text, axio_free() it;
 * NULL when there is none (*err says why). names: one per seat or NULL. */
AXIO_API char *axio_game_record(const axio_game *g, const char *const *names, int *err);
/* The board, tracks and (at the end) ranking as text, as everyone sees them. */
AXIO_API char *axio_game_render(const axio_game *g);
/* Every tile of the game, hidden ones included (for tests and analysis,
 * never part of an observation): rack tiles of each seat, then the bag,
 * then each seat's stack, 4 int8 per tile (-1 empty corner, -2 unknown).
 * Returns the number of tiles written (at most max). */
AXIO_API int axio_game_tiles(const axio_game *g, int8_t *out, int max);
AXIO_API void axio_free(void *p);

/* --- saving and loading (state.c) --- */
/* The game as text (axio-state/1, docs/python.md): a game dealt from a seed
 * as its setup, seed and decisions (loads in any build with the same rules
 * and action numbering); a view or a redeal as the engine's state (loads in
 * a build with the same engine layout only). malloc'd, axio_free() it. */
AXIO_API char *axio_game_save(const axio_game *g, int *err);
/* Loads a saved game; every decision is checked again. On failure *err_text
 * (errlen bytes) says why. */
AXIO_API int axio_game_load(const char *text, axio_game **out, char *err_text, size_t errlen);
/* The game a record (axio-record/1, JSON Lines, complete or cut after any
 * line) describes, as it stands after its last line, every line checked by
 * the engine's replay. A record without its seed (a player's view) has no
 * game: AXIO_E_NO_RECORD. */
AXIO_API int axio_game_from_record(const char *text, axio_game **out, char *err_text,
                                   size_t errlen);

/* --- a batch of games stepped together (batch.c) --- */
typedef struct axio_batch axio_batch;
enum { AXIO_REWARD_RANKING = 0, AXIO_REWARD_TRACKS = 1 };
enum { AXIO_AUTORESET_NEXT_STEP = 0, AXIO_AUTORESET_SAME_STEP = 1 };
/* Where a batch writes: the caller's buffers, bound once. */
typedef struct {
    int8_t *obs;         /* n x obs_size: row i the view of the seat to move in game i */
    int8_t *mask;        /* n x num_actions */
    int8_t *seat;        /* n: the seat whose view row i is */
    float *reward;       /* n: the reward of the seat that acted in game i */
    float *seat_rewards; /* n x players (x ncolors for tracks): every seat's */
    uint8_t *terminated; /* n */
    int8_t *final_obs;   /* same-step: n x obs_size, the final view of a game that ended */
    int8_t *final_seat;  /* same-step: n, whose view that is */
} axio_batch_out;
/* n games; reward AXIO_REWARD_*: ranking (at the end) or tracks (each seat's
 * track gains per step; rewards[i] is then the sum of the actor's gains);
 * autoreset AXIO_AUTORESET_* (batch.c tells both). */
AXIO_API int axio_batch_new(const axio_spec *spec, int n, int reward, int autoreset,
                            axio_batch **out);
AXIO_API axio_batch *axio_batch_clone(const axio_batch *b);
/* What the batch was made with. */
AXIO_API void axio_batch_info(const axio_batch *b, axio_spec *spec, int *n, int *reward,
                              int *autoreset);
AXIO_API void axio_batch_free(axio_batch *b);
/* Binds the buffers and writes every row from the games as they stand. */
AXIO_API int axio_batch_bind(axio_batch *b, const axio_batch_out *out);
/* Deals games anew: with use_seed game i from seed + i (and the batch's
 * generator from seed), else from the next unused seeds; `which` (n flags,
 * NULL: all) picks the games. Later games take the next unused seeds. */
AXIO_API int axio_batch_reset(axio_batch *b, uint64_t seed, int use_seed, const uint8_t *which);
/* Applies actions[i] in game i (ignored for a game that ended in the last
 * step in next-step mode: it is dealt anew) and writes the bound buffers.
 * When an action is not legal nothing changes: returns AXIO_E_RANGE or
 * AXIO_E_ILLEGAL with *bad the first such game. */
AXIO_API int axio_batch_step(axio_batch *b, const int32_t *actions, int32_t *bad);
/* A uniformly random legal action for each game, from the batch's own
 * generator (seeded by reset); 0 for a game about to be dealt anew. */
AXIO_API void axio_batch_random_actions(axio_batch *b, int32_t *out);
/* A copy of game i (for its record, its status, a view). */
AXIO_API axio_game *axio_batch_game(const axio_batch *b, int i);
/* The batch as text (axio-batch-state/1: its games as axio_game_save writes
 * them, seeds, generator, pending resets) and back. */
AXIO_API char *axio_batch_save(const axio_batch *b, int *err);
AXIO_API int axio_batch_load(const char *text, axio_batch **out, char *err_text, size_t errlen);

/* --- computer players (src/ai) --- */
typedef struct axio_player axio_player;
/* `name`: a level of the server (src/ai/levels.c: random, greedy,
 * strong, expert), which plays its player for the game's variant with its
 * think time, or a player of src/ai by its own name (strong-deep, ...).
 * movetime_ms 0: the level's think time (a player's own default otherwise);
 * playouts > 0: a fixed number of playouts per decision (with movetime 0
 * reproducible from the seed). */
AXIO_API int axio_player_new(const char *name, uint64_t seed, int movetime_ms, long playouts,
                             axio_player **out);
AXIO_API void axio_player_free(axio_player *p);
/* The player's decision for the seat to move, from that seat's view only. */
AXIO_API int axio_player_decide(axio_player *p, const axio_game *g, int32_t *action);
/* The level `name`: its player in `variant` and its think time (ms, 0: none). */
AXIO_API int axio_level(const char *name, int variant, const char **player, int *think_ms);
/* The level names, weakest first, as "random, greedy, ...". */
AXIO_API int axio_level_names(char *out, size_t size);
/* 1 if `name` is a level or a player. */
AXIO_API int axio_player_exists(const char *name);

#endif
