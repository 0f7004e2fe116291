/*
 * json_state.h - the game as protocol JSON, and protocol decisions as
 * engine moves (docs/protocol-state.md).
 *
 * Everything that leaves the server about a game is built here, for one
 * viewer at a time: the public `game` object has no hidden tile and no seed
 * before the end, `you` holds one seat's rack, events and history go
 * through the engine's record views. The other direction turns a client's
 * `place`/`swap`/`preview` message into an ax_move, checking its shape
 * only: legality is the engine's (ax_check).
 */
#ifndef AX_SERVER_JSON_STATE_H
#define AX_SERVER_JSON_STATE_H

#include "../../engine/axio.h"
#include "../store/store.h"

#include <jansson.h>
#include <stddef.h>

typedef struct game game;

/* What a connection asked to get in `you` when its seat is to move. */
enum {
    YOU_HINT = 1,
    YOU_MOVES = 2,
    YOU_POSITION = 4 /* the state carries the engine's position */
};
#define YOU_FLAGS 8 /* the kinds of `you` a broadcast makes's texts for */

/* The public state of a game (protocol `state`.game), as JSON text
 * (malloc'd; NULL out of memory) and as JSON. */
char *state_game_text(const game *gm);
json_t *state_game_json(const game *gm);
/* A seat's presence as the viewers update says it: {"connected","away_ms"}. */
json_t *seat_presence_json(const game *gm, int seat, double now);
/* `you` for a seat (a JSON null for a spectator, seat < 0; for a seat that
 * left, only {"seat","left":true}). */
json_t *state_you_json(game *gm, int seat, unsigned flags);
/* Every event so far, `start` first, as `viewer` may see it. */
json_t *history_json(const game *gm, int viewer);
/* One event as `viewer` may see it. */
json_t *event_json(const game *gm, const ax_event *e, int viewer);
/* The complete record as JSON Lines (malloc'd), for a finished game. */
char *record_text(const game *gm, size_t *len);

/* A game set aside as damaged (lobby_damaged), described without the
 * engine: GET /api/games/{id}, its lobby entry, and its record of stored
 * decisions as JSON Lines (malloc'd; NULL when the store fails). */
json_t *damaged_game_json(const stored_game *sg);
json_t *damaged_entry_json(const stored_game *sg);
char *damaged_record_text(store *db, const stored_game *sg, size_t *len);

/* Reads a `place` (or `preview`) or `swap` message into a move. Returns NULL
 * when the message is well formed; else the protocol error code
 * ("bad_message" or "illegal_move") with the reason in why and, for
 * illegal_move, the engine's error in *ill (when ill is not NULL). */
const char *decision_from_json(const ax_game *g, const json_t *msg, ax_move *m, char *why,
                               size_t whylen, ax_error *ill);
/* A move as the message that would make it (also the stored form). */
json_t *decision_to_json(const ax_game *g, const ax_move *m);
/* The answer to a preview. */
json_t *preview_json(const ax_game *g, const ax_move *m);

#endif
