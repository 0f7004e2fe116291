/* geometry.h - engine-internal helpers of geometry.c. */
#ifndef AX_GEOMETRY_H
#define AX_GEOMETRY_H

#include "axio.h"

/* Marks the play area, the cells off it and the printed fields. */
void ax_grid_setup(ax_game *g);

#endif
