/*
 * position.h - one seat's view of a game as one JSON object, and back: the
 * `position` of the engine protocol (docs/engine-protocol.md), in the
 * notation of docs/record.md; the protocol's decisions are decision.h's.
 *
 * ax_position_json writes what `seat` may know and nothing more: the board,
 * every track, its own rack, and of the hidden tiles (other racks, the bag,
 * the ROTA stacks) only their counts. It never reads a hidden tile, so even
 * the full game gives the same text as the seat's view. ax_position_read
 * rebuilds a game that plays like ax_view(g, seat): the same legal decisions
 * in the same order, unknown tiles wherever the seat cannot see.
 */
#ifndef AX_POSITION_H
#define AX_POSITION_H

#include "decision.h"
#include "record.h"

/* The position of `seat` (0 .. players-1). */
json_t *ax_position_json(const ax_game *g, int seat);
/* Rebuilds the view a position describes and its seat. Returns AX_REPLAY_OK,
 * or AX_REPLAY_MALFORMED with the reason in err when the position is not one
 * of a game (bad keys, values out of range, tiles the set does not hold). */
int ax_position_read(json_t *obj, ax_game *out, int *seat, char *err, size_t errlen);

#endif
