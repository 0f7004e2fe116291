/*
 * player.h - computer players, usable by name everywhere (selfplay, arena,
 * the server).
 *
 * A player decides from a seat's view (ax_view) only, never from the full
 * game, so it cannot cheat. Each player owns its random generator, seeded by
 * the caller, and keeps no global state: several may run at once on
 * different threads.
 *
 * Threads: ax_player_decide() runs on one thread at a time for a given
 * player. ax_player_cancel() and ax_player_set_movetime() may be called
 * from any other thread at any moment, also while that player decides.
 *
 * Levels: `random` (any legal decision), `greedy` (the best immediate
 * effect on its own lowest tracks), `strong` (a search: see strong.c).
 */
#ifndef AX_PLAYER_H
#define AX_PLAYER_H

#include "../engine/axio.h"

#define AX_DEFAULT_MOVETIME_MS 1000

typedef struct ax_player ax_player;

/* Names of the built-in players, NULL-terminated. */
extern const char *const ax_player_names[];

/* Creates the player called `name`; NULL if there is none (or no memory). */
ax_player *ax_player_new(const char *name, uint64_t seed);
void ax_player_free(ax_player *p);
const char *ax_player_name(const ax_player *p);
/* Chooses a legal decision for `seat`, which must be to move in `view`.
 * A searching player returns within its movetime (see below). */
void ax_player_decide(ax_player *p, const ax_game *view, int seat, ax_move *out);

/* The time budget of one decision in milliseconds (default 1000); 0 means
 * no time limit, only the playout limit (without one, the default applies). A change during a
 * decision moves that decision's deadline (counted from its start). */
void ax_player_set_movetime(ax_player *p, int ms);
/* A fixed number of playouts per decision (0: none, the default). With a
 * movetime of 0 the decisions then depend only on the seed and the view:
 * reproducible. Not thread-safe: set it between decisions. */
void ax_player_set_playouts(ax_player *p, long playouts);
/* Makes the running decision, or the next one if none runs, return as soon
 * as possible with the best legal decision found so far. The request is
 * used up when that decision returns. */
void ax_player_cancel(ax_player *p);

/* What the player did so far (read between decisions). */
typedef struct {
    long decisions;
    double total_seconds, max_seconds; /* wall-clock time inside ax_player_decide */
    double max_cpu_seconds;            /* the deciding thread's CPU time, largest */
    long overruns;      /* decisions that took more than 110% of the movetime (wall clock) */
    long playouts;      /* searched playouts, all decisions */
    long last_playouts; /* of the last decision */
    long plies;         /* decisions inside the searched playouts, all decisions */
} ax_player_stats;
void ax_player_get_stats(const ax_player *p, ax_player_stats *out);

#endif
