/*
 * value_features.h - what the learned evaluation (value.h) knows of a position:
 * a fixed-length vector made from one seat's own view only (its tracks,
 * the others' tracks, the board, its own tiles and public counts), never
 * from another rack, the bag's order or a ROTA stack.
 */
#ifndef AX_AI_VALUE_FEATURES_H
#define AX_AI_VALUE_FEATURES_H

#include "../engine/axio.h"

#define AI_FEATURES   64
#define AI_FEAT_RANKS 6 /* colour ranks: the seat's tracks sorted, lowest first */

/* Fills x[AI_FEATURES] for `seat` of g. g may be a full game (a search's
 * sampled deal) or the seat's view: only what the seat may see is read. */
void ai_features(const ax_game *g, int seat, float x[AI_FEATURES]);

#endif
