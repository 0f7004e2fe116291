/* board_text.h - the board as text for a terminal. */
#ifndef AX_BOARD_TEXT_H
#define AX_BOARD_TEXT_H

#include "../engine/axio.h"

#include <stdio.h>

/* Prints the board, the tracks and, once over, the ranking. */
void print_game(FILE *out, const ax_game *g);

#endif
