/*
 * bot_time.h - how long `axio bot` lets its engine think: the movetime of a
 * decision from the game's clock, so that the bot spends its time evenly and
 * never loses on time by its own doing.
 *
 * Without a clock the movetime is the cap (--movetime). A daily clock gives
 * each decision its own time: the cap, within what is left of it. A
 * realtime clock: the time left less a reserve (for the network and an
 * engine's overrun: a quarter of what is left, at most 1 s), shared over the
 * decisions the seat may still have to take, plus three quarters of the
 * increment; never more than the time left less the reserve, nor the cap,
 * and at least 10 ms.
 */
#ifndef AX_BOT_TIME_H
#define AX_BOT_TIME_H

#include <jansson.h>
#include <stdbool.h>

/* game: a state's `game` (its `clock` and `clocks`); position: the seat's
 * position (what is left to play). *clocked: a clock runs for this
 * decision (then time spent waiting is the clock's). */
int time_movetime(json_t *game, int seat, json_t *position, int cap_ms, bool *clocked);

/* Decisions the seat may still have to take (at least 4): ROTA its stack and
 * hand; square and hex the tiles not yet placed or, when fewer, the dominoes
 * the empty cells can still hold and a quarter more (swaps, bonus moves),
 * shared among the seats still playing. */
int time_decisions_left(json_t *position, int seat);

#endif
