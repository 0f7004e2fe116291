/*
 * match.c - the loop of a game between computer players: each seat decides
 * from its own view, the engine applies, the record gets every event.
 * Optionally seats leave at random moments between decisions.
 */
#include "match.h"

#include "../engine/record.h"

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

int play_match(ax_game *g, const ax_events *init, ax_player *const *players,
               const char *const *names, FILE *record, match_leaves *leaves)
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
        int seat = g->to_move;
        ax_move m;
        ax_view(g, seat, view);
        ax_player_decide(players[seat], view, seat, &m);
        if (ax_apply(g, &m, events) != AX_OK) {
            fprintf(stderr, "axio: player %s chose an illegal decision\n",
                    ax_player_name(players[seat]));
            abort(); /* a bug in a player, never bad input */
        }
        if (record && write_events(record, g, events)) {
            rc = -1;
            break;
        }
    }
    free(events);
    free(view);
    return rc;
}
