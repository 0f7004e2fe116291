/* geometry.h - engine-internal helpers of geometry.c. */
#ifndef AX_GEOMETRY_H
#define AX_GEOMETRY_H

#include "axio.h"

/* Marks the play area, the cells off it and the printed fields, on a game
 * ax_game_init has just zeroed (its potentials are left 0). */
void ax_grid_setup(ax_game *g);

#endif
