/*
 * clock.h - game clocks (clock.c): settings, charging, running out.
 */
#ifndef AX_SERVER_CLOCK_H
#define AX_SERVER_CLOCK_H

#include "game.h"

/* Reads POST /api/games "clock" (absent or null: none); -1 with err set. */
int clock_parse(const json_t *v, game_clock *out, api_error *err);
/* The settings as JSON (null without a clock). */
json_t *clock_settings_json(const game_clock *c);
/* Settings from their stored JSON; false when unreadable. */
bool clock_from_json_text(const char *text, game_clock *out);
/* Puts every seat's clock at its start (the game starts). */
void clock_reset(game *gm);
/* Milliseconds left of a seat now. */
int64_t clock_left_now(const game *gm, int seat);
/* After a decision of `seat` (or at a start or load): charges the clock
 * that ran, adds the increment or the daily allowance, and starts the
 * clock of the seat to move if a person plays it. decided: a place or
 * swap of `seat` (not a leave). */
void clock_after_decision(game *gm, int seat, bool decided);
/* The clocks as they will be after such a decision led to game `next`,
 * as stored (see clock_left_text). */
void clock_text_after(const game *gm, const ax_game *next, int seat, bool decided, char *out,
                      size_t size);
/* The clocks as stored: a JSON list of milliseconds per seat now. */
void clock_left_text(const game *gm, char *out, size_t size);
/* Unix milliseconds by which the seat to move must decide, or -1. */
int64_t clock_deadline(const game *gm);
/* The timer: runs out clocks, and saves running ones once a second. */
void clock_tick(service *svc, double now);

#endif
