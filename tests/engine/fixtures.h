/* fixtures.h - concrete positions for engine tests, built by hand. */
#ifndef AX_FIXTURES_H
#define AX_FIXTURES_H

#include "axio.h"

#include <jansson.h>

/* A dealt game (seed 1) whose board a test then sets by hand. */
void fixture_game(ax_game *g, int variant, int players, int mode);
/* Puts a tile symbol on square [row, col] or hex [q, r]; `color` may also be
 * AX_PYRAMID. Marks fields a symbol touches as touched. */
void fixture_put(ax_game *g, int a, int b, int color);
/* Replaces `seat`'s rack with dominoes given as colour pairs. */
void fixture_rack(ax_game *g, int seat, int n, const int pairs[][2]);
/* A placement of rack tile `rack_index`: sym[0] on (a0, b0), sym[1] on (a1, b1). */
ax_move fixture_domino(const ax_game *g, int rack_index, int a0, int b0, int a1, int b1);
/* Marks every player as having placed a tile (the first-tile rule is over). */
void fixture_after_first_round(ax_game *g);
/* A JSON value as compact text (malloc'd); releases the value. */
char *fixture_dump(json_t *value);

#endif
