/*
 * player.h - computer players, usable by name everywhere (selfplay, arena,
 * the server).
 *
 * A player decides from a seat's view (ax_view) only, never from the full
 * game, so it cannot cheat. Each player owns its random generator, seeded by
 * the caller, and keeps no global state: several may run at once on
 * different threads.
 */
#ifndef AX_PLAYER_H
#define AX_PLAYER_H

#include "../engine/axio.h"

typedef struct ax_player ax_player;

/* Names of the built-in players, NULL-terminated. */
extern const char *const ax_player_names[];

/* Creates the player called `name`; NULL if there is none. */
ax_player *ax_player_new(const char *name, uint64_t seed);
void ax_player_free(ax_player *p);
const char *ax_player_name(const ax_player *p);
/* Chooses a legal decision for `seat`, which must be to move in `view`. */
void ax_player_decide(ax_player *p, const ax_game *view, int seat, ax_move *out);

#endif
