/*
 * match.h - plays one game between computer players, optionally writing its
 * record; shared by selfplay and arena. A seat may also be decided outside
 * the process (an external engine), which may fail.
 */
#ifndef AX_MATCH_H
#define AX_MATCH_H

#include "../ai/player.h"
#include "../engine/axio.h"

#include <stdio.h>

/* Seats that leave at random moments (rules 6), to test records with
 * leaves: before each decision, with chance 1 in `every`, a random seat that
 * still plays leaves for a random reason, and again, so several may leave
 * between two decisions. The leaver's player goes on deciding for its seat. */
typedef struct {
    ax_rng rng;
    int every;
} match_leaves;

/* Plays the game g (fresh from ax_game_init, its initial events in *init)
 * to the end with players[seat]. Writes every record line to `record` when
 * not NULL. `leaves` (may be NULL) makes seats leave. Returns 0, or -1 when
 * writing the record failed. */
int play_match(ax_game *g, const ax_events *init, ax_player *const *players,
               const char *const *names, FILE *record, match_leaves *leaves);

/* Why an outside decider did not give a decision. */
typedef enum {
    MATCH_DECIDED,
    MATCH_BAD_ANSWER, /* no decision: garbage, or an error */
    MATCH_ILLEGAL,    /* a decision the rules forbid */
    MATCH_LATE,       /* too late */
    MATCH_GONE        /* the decider is gone */
} match_verdict;

/* One seat. An outside decider (`ask`, e.g. an external engine) may fail;
 * then its seat leaves the game (rules 6: it ranks last), the reason `why`
 * of the leave being timeout when it was late, absent when it was gone and
 * resign otherwise, and `player` takes its remaining decisions. */
typedef struct {
    ax_player *player; /* decides when there is no `ask`, or after it failed */
    /* Returns MATCH_DECIDED with *out set, or what went wrong with the
     * reason in `reason`. It sees only the seat's view. */
    match_verdict (*ask)(void *ctx, const ax_game *view, int seat, ax_move *out, char *reason,
                         size_t len);
    void *ctx;
    /* set by play_seats: how `ask` failed (MATCH_DECIDED: it did not) */
    match_verdict failed;
    char reason[400];
} match_seat;

/* play_match with seats that may fail. */
int play_seats(ax_game *g, const ax_events *init, match_seat *seats, const char *const *names,
               FILE *record, match_leaves *leaves);

/* What selfplay and arena count of a finished game: the lowest track of a
 * seat's side (its team's in team mode), and the ranking with the number of
 * its entries that share first place. */
int match_lowest_track(const ax_game *g, int seat);
int match_first_place(const ax_game *g, ax_ranking *rank);

#endif
