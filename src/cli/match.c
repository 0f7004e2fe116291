/*
 * match.c - the loop of a game between computer players: each seat decides
 * from its own view, the engine applies, the record gets every event.
 * Optionally seats leave at random moments between decisions. A seat decided
 * outside the process (an external engine) that fails leaves the game.
 */
#include "match.h"

#include "../engine/record.h"

#include <stdio.h>
#include <stdlib.h>

static int write_line(FILE *out, json_t *obj)
{
    int rc = 0;
    char *text = json_dumps(obj, JSON_COMPACT);
    if (!text || fprintf(out, "%s\n", text) < 0)
        rc = -1;
    free(text);
    json_decref(obj);
    return rc;
}

static int write_events(FILE *out, const ax_game *g, const ax_events *events)
{
    for (int i = 0; i < events->n; i++)
        if (write_line(out, ax_record_event(g, &events->ev[i], AX_VIEWER_ALL)))
            return -1;
    return 0;
}

/* Lets one random seat that still plays leave, for a random reason. */
static void random_leave(ax_game *g, ax_rng *rng, ax_events *events)
{
    int staying[AX_MAX_PLAYERS], n = 0;
    for (int s = 0; s < g->players; s++)
        if (!g->left[s])
            staying[n++] = s;
    ax_move m = {.kind = AX_MOVE_LEAVE, .wild = AX_NO_COLOR};
    m.seat = (uint8_t)staying[ax_rng_below(rng, (uint32_t)n)];
    m.why = (uint8_t)ax_rng_below(rng, 3);
    if (ax_apply(g, &m, events) != AX_OK)
        abort(); /* a seat that still plays may always leave */
}

/* The leave reason of a failed outside decider (match.h). */
static int leave_why_of(match_verdict v)
{
    return v == MATCH_LATE ? AX_LEAVE_TIMEOUT : v == MATCH_GONE ? AX_LEAVE_ABSENT : AX_LEAVE_RESIGN;
}

/* Asks the seat's decider and applies its decision to g. An outside decider
 * that fails, or whose decision the rules refuse, forfeits: its seat leaves
 * (unless it has left already) and its player decides from then on. */
static void take_decision(ax_game *g, ax_game *view, match_seat *s, int seat, ax_events *events)
{
    ax_move m;
    ax_view(g, seat, view);
    if (s->ask && s->failed == MATCH_DECIDED) {
        match_verdict v = s->ask(s->ctx, view, seat, &m, s->reason, sizeof s->reason);
        ax_error err = v == MATCH_DECIDED ? ax_apply(g, &m, events) : AX_OK;
        if (v == MATCH_DECIDED && err == AX_OK)
            return;
        if (v == MATCH_DECIDED) { /* the decider checks its answers; this is a second guard */
            v = MATCH_ILLEGAL;
            snprintf(s->reason, sizeof s->reason, "%s", ax_error_string(err));
        }
        s->failed = v;
        ax_move leave = {.kind = AX_MOVE_LEAVE, .wild = AX_NO_COLOR, .seat = (uint8_t)seat};
        leave.why = (uint8_t)leave_why_of(v);
        if (ax_apply(g, &leave, events) != AX_OK)
            events->n = 0; /* it had left already: its player just takes over */
        return;
    }
    ax_player_decide(s->player, view, seat, &m);
    if (ax_apply(g, &m, events) != AX_OK) {
        fprintf(stderr, "axio: player %s chose an illegal decision\n", ax_player_name(s->player));
        abort(); /* a bug in a player, never bad input */
    }
}

int play_seats(ax_game *g, const ax_events *init, match_seat *seats, const char *const *names,
               FILE *record, match_leaves *leaves)
{
    if (record && (write_line(record, ax_record_start(g, names, AX_VIEWER_ALL)) ||
                   write_events(record, g, init)))
        return -1;
    ax_events *events = malloc(sizeof *events);
    ax_game *view = malloc(sizeof *view);
    if (!events || !view) {
        free(events);
        free(view);
        return -1;
    }
    int rc = 0;
    while (g->phase != AX_PHASE_OVER) {
        if (leaves && ax_rng_below(&leaves->rng, (uint32_t)leaves->every) == 0) {
            random_leave(g, &leaves->rng, events);
            if (record && write_events(record, g, events)) {
                rc = -1;
                break;
            }
            continue; /* perhaps another leave, or the game is over */
        }
        take_decision(g, view, &seats[g->to_move], g->to_move, events);
        if (record && write_events(record, g, events)) {
            rc = -1;
            break;
        }
    }
    free(events);
    free(view);
    return rc;
}

int play_match(ax_game *g, const ax_events *init, ax_player *const *players,
               const char *const *names, FILE *record, match_leaves *leaves)
{
    match_seat seats[AX_MAX_PLAYERS] = {0};
    for (int s = 0; s < g->players; s++)
        seats[s].player = players[s];
    return play_seats(g, init, seats, names, record, leaves);
}

int match_lowest_track(const ax_game *g, int seat)
{
    const uint8_t *t = g->track[ax_track_owner(g, seat)];
    int low = 255;
    for (int c = 0; c < g->ncolors; c++)
        low = t[c] < low ? t[c] : low;
    return low;
}

int match_first_place(const ax_game *g, ax_ranking *rank)
{
    ax_rank(g, rank);
    int first = 0;
    while (first < rank->n && rank->place[first] == 0)
        first++;
    return first;
}
