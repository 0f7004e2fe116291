/*
 * picture.h - a game drawn as text for a terminal: `axio selfplay --show`
 * and the Python package's render().
 */
#ifndef AX_PICTURE_H
#define AX_PICTURE_H

#include "axio.h"

/* Draws the board, the tracks and, once the game is over, the ranking into
 * out (at most `size` bytes with the closing NUL; out may be NULL when size
 * is 0). Returns the length of the whole picture, as snprintf does: a
 * return of `size` or more means it was cut short. */
size_t ax_picture(const ax_game *g, char *out, size_t size);

#endif
