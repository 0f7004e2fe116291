/*
 * match.h - plays one game between computer players, optionally writing its
 * record; shared by selfplay and arena.
 */
#ifndef AX_MATCH_H
#define AX_MATCH_H

#include "../ai/player.h"
#include "../engine/axio.h"

#include <stdio.h>

/* Seats that leave at random moments (rules 6), to test records with
 * leaves: before each decision, with chance 1 in `every`, a random seat that
 * still plays leaves for a random reason, and again, so several may leave
 * between two decisions. The leaver's player goes on deciding for its seat. */
typedef struct {
    ax_rng rng;
    int every;
} match_leaves;

/* Plays the game g (fresh from ax_game_init, its initial events in *init)
 * to the end with players[seat]. Writes every record line to `record` when
 * not NULL. `leaves` (may be NULL) makes seats leave. Returns 0, or -1 when
 * writing the record failed. */
int play_match(ax_game *g, const ax_events *init, ax_player *const *players,
               const char *const *names, FILE *record, match_leaves *leaves);

#endif
