/*
 * decision.h - a decision (ax_move) as JSON, in the two notations axio writes
 * one in, and a stored game's decisions replayed.
 *
 * The message names the rack tile by its index. It is what a client sends
 * (docs/protocol.md) and what the server stores, one text per decision, and
 * replays a game from:
 *   {"type":"place","rack_index":i,"cells":[[a,b],[c,d]]}           square, hex
 *   {"type":"place","rack_index":0,"cell":[x,y],"rotation":r,"wild":"red"|null}   rota
 *   {"type":"swap","accept":true|false}
 *   {"type":"leave","seat":s,"why":"resign"|"timeout"|"absent"}      stored only
 * The event names the tile by its colours: a record's `place`, `swap` and
 * `leave` lines (docs/record.md), and the decisions of the engine protocol
 * (docs/engine-protocol.md), which are such events without their results.
 *
 * Every reader returns AX_REPLAY_OK, AX_REPLAY_MALFORMED (not the notation's
 * shape) or AX_REPLAY_INCONSISTENT (the rules forbid what it says), with the
 * reason in its buffer (reason.h).
 */
#ifndef AX_DECISION_H
#define AX_DECISION_H

#include "axio.h"
#include "record.h"

#include <jansson.h>

/* --- the message --- */

/* Reads a message into a move of g's seat to move (a leave: of the seat it
 * names), checking its shape only; legality is ax_check's. A shape the
 * rules cannot mean (a rotation of 7, an unknown wild colour, a rack index
 * beyond any rack, a ROTA cell far off the display) is AX_REPLAY_INCONSISTENT
 * with the engine's error in *illegal (when not NULL). */
int ax_decision_from_message(const ax_game *g, const json_t *msg, ax_move *m, char *why,
                             size_t whylen, ax_error *illegal);
/* A move as the message that makes it. */
json_t *ax_decision_message(const ax_game *g, const ax_move *m);

/* --- the event --- */

/* Reads a `place` or `swap` event into a move of g's seat to move, or a
 * `leave` event into an AX_MOVE_LEAVE of the seat it names; legality is
 * ax_check's. *reversed tells that the rack tile lies the other way round
 * than the event writes it. */
int ax_decision_from_event(const ax_game *g, json_t *obj, ax_move *m, bool *reversed, char *err,
                           size_t errlen);
/* A decision of the seat to move as the record's event without its results:
 * {"ev":"place","player":0,"tile":[...],"cells":[[a,b],[c,d]]} (rota: "cell"
 * and "wild") or {"ev":"swap","player":0,"accepted":true}. */
json_t *ax_decision_json(const ax_game *g, const ax_move *m);
/* Reads such a decision for the seat to move of `g` (a view will do: all a
 * decision needs is public or that seat's) and checks it against the rules:
 * AX_REPLAY_MALFORMED when it is not a place or swap of that seat. */
int ax_decision_read(const ax_game *g, json_t *obj, ax_move *m, char *err, size_t errlen);

/* --- a stored game --- */

/* Called after each decision ax_replay_decisions applied: its index, the
 * move, and the events it made. 0 goes on; anything else stops the replay. */
typedef int (*ax_decision_fn)(void *arg, int index, const ax_move *m, const ax_events *events);

/* Applies a stored game's decisions, message texts oldest first, to g, the
 * game as dealt from its seed (ax_game_init). Returns AX_REPLAY_OK; or
 * AX_REPLAY_MALFORMED ("decision I is not JSON: ...") or
 * AX_REPLAY_INCONSISTENT ("decision I is rejected by the engine: ...") with
 * the reason in err; or AX_REPLAY_STOPPED when on_decision (may be NULL)
 * stopped it, err untouched. g then holds the game before the decision that
 * failed. */
int ax_replay_decisions(ax_game *g, char *const *decisions, int n, ax_decision_fn on_decision,
                        void *arg, char *err, size_t errlen);

#endif
