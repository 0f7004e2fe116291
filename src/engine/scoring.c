/*
 * scoring.c - score tracks, thresholds and the AXIO (rules 1.1).
 *
 * A unit's raw points per colour are added to the owner's track, capped at
 * the smallest threshold above the current score; reaching it is an AXIO,
 * which may grant a bonus move. Counting the raw points is the boards' work
 * (board_grid.c, board_rota.c); this file only applies them.
 */
#include "engine.h"

#include <string.h>

int ax_track_owner(const ax_game *g, int seat) { return g->mode == AX_TEAM ? seat % 2 : seat; }

int ax_max_score(const ax_game *g) { return g->threshold[g->nthresholds - 1]; }

/* The scalar rule, for a unit that reaches a threshold (an AXIO). */
static void score_with_axio(ax_game *g, uint8_t *track, const uint8_t points[AX_MAX_COLORS],
                            ax_unit_result *res)
{
    int t0 = g->threshold[0], t1 = g->nthresholds > 1 ? g->threshold[1] : 0;
    for (int c = 0; c < g->ncolors; c++) {
        /* the threshold above the track (0: none), the track after the
         * points, capped there */
        int s = track[c], limit = s < t0 ? t0 : s < t1 ? t1 : 0;
        int next = s + points[c];
        bool axio = (limit != 0) & (points[c] != 0) & (next >= limit);
        track[c] = (uint8_t)(!limit ? s : axio ? limit : next);
        if (axio) {
            int k = limit == t0 ? 0 : 1;
            res->axio_color[res->naxio] = (int8_t)c;
            res->axio_score[res->naxio] = (uint8_t)limit;
            res->axio_bonus[res->naxio] = g->threshold_bonus[k];
            res->naxio++;
            res->bonus_moves += g->threshold_bonus[k];
        }
    }
}

void ax_score_axio(ax_game *g, uint8_t *track, uint64_t points, ax_unit_result *res)
{
    memset(res, 0, sizeof *res);
    uint8_t bytes[AX_MAX_COLORS];
    ax_lanes_points(points, bytes);
    score_with_axio(g, track, bytes, res);
}

void ax_score_unit(ax_game *g, int seat, const uint8_t points[AX_MAX_COLORS], ax_unit_result *res)
{
    ax_score_lanes(g, seat, ax_points_lanes(points), res);
}

ax_event *ax_event_add_to(ax_events *out, int kind, int player)
{
    if (out->n >= AX_MAX_EVENTS)
        return NULL;
    ax_event *e = &out->ev[out->n++];
    memset(e, 0, sizeof *e);
    e->kind = (uint8_t)kind;
    e->player = (uint8_t)player;
    e->moved_from = -1;
    e->wild = AX_NO_COLOR;
    return e;
}

void ax_emit_axio(const ax_game *g, int seat, const ax_unit_result *res, ax_events *out)
{
    (void)g;
    for (int i = 0; i < res->naxio; i++) {
        ax_event *e = ax_event_add(out, AX_EV_AXIO, seat);
        if (!e)
            return;
        e->color = res->axio_color[i];
        e->axio_score = res->axio_score[i];
        e->bonus_move = res->axio_bonus[i];
    }
}
