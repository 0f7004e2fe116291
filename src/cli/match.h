/*
 * match.h - plays one game between computer players, optionally writing its
 * record; shared by selfplay and arena.
 */
#ifndef AX_MATCH_H
#define AX_MATCH_H

#include "../ai/player.h"
#include "../engine/axio.h"

#include <stdio.h>

/* Plays the game g (fresh from ax_game_init, its initial events in *init)
 * to the end with players[seat]. Writes every record line to `record` when
 * not NULL. Returns 0, or -1 when writing the record failed. */
int play_match(ax_game *g, const ax_events *init, ax_player *const *players,
               const char *const *names, FILE *record);

#endif
