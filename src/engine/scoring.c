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

/* Byte-lane arithmetic on the six colours (SWAR): every lane holds a
 * value below 128, so bit 7 of a lane is free to carry a comparison. The
 * lanes live in registers: a word loaded from bytes just stored one by
 * one would wait for the stores (no store forwarding). */
#define LANES_1 0x0101010101010101ULL
#define LANES_H 0x8080808080808080ULL

/* Bit 7 of each lane: a >= b (lanes below 128). */
static inline uint64_t lanes_ge(uint64_t a, uint64_t b) { return ((a | LANES_H) - b) & LANES_H; }

/* The points, each at most 63: a track never needs more to reach its last
 * threshold (36), so the sum with the track stays below 128. */
static inline uint64_t capped_points(uint64_t p)
{
    uint64_t big = p & 0xc0c0c0c0c0c0c0c0ULL;
    big = ((big >> 6) | (big >> 7)) & LANES_1;
    return (p & 0x3f3f3f3f3f3f3f3fULL) | big * 0x3f;
}

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

static inline uint64_t load_track(const uint8_t *track)
{
    uint32_t low;
    uint16_t high;
    memcpy(&low, track, 4);
    memcpy(&high, track + 4, 2);
    return low | (uint64_t)high << 32;
}

static inline void store_track(uint8_t *track, uint64_t t)
{
    uint32_t low = (uint32_t)t;
    uint16_t high = (uint16_t)(t >> 32);
    memcpy(track, &low, 4);
    memcpy(track + 4, &high, 2);
}

/* Every colour at once, in byte lanes: the threshold above each track
 * (t0, else t1, else none), the tracks plus the points; only when one
 * reaches its threshold does the scalar rule run. */
void ax_score_lanes(ax_game *g, int seat, uint64_t points, ax_unit_result *res)
{
    uint8_t *track = g->track[ax_track_owner(g, seat)];
    memset(res, 0, sizeof *res);
    uint64_t t0 = g->threshold[0], t1 = g->nthresholds > 1 ? g->threshold[1] : 0;
    uint64_t lane = ((1ULL << (8 * g->ncolors)) - 1) & LANES_H; /* bit 7 of each colour */
    uint64_t t = load_track(track), p = capped_points(points);
    uint64_t below0 = ~lanes_ge(t, t0 * LANES_1) & lane;
    uint64_t below1 = ~lanes_ge(t, t1 * LANES_1) & lane & ~below0;
    uint64_t limit = (below0 >> 7) * t0 | (below1 >> 7) * t1, limited = below0 | below1;
    uint64_t next = t + p, scored = (p + 0x7f * LANES_1) & LANES_H; /* p != 0 */
    if (lanes_ge(next, limit) & limited & scored) {
        uint8_t bytes[AX_MAX_COLORS];
        ax_lanes_points(points, bytes);
        score_with_axio(g, track, bytes, res);
        t = load_track(track);
    } else { /* below every threshold: the tracks with limits gain the points */
        uint64_t keep = (limited >> 7) * 0xff;
        t = (next & keep) | (t & ~keep);
        store_track(track, t);
    }
    uint64_t off_max = t ^ ((uint64_t)ax_max_score(g) * LANES_1);
    res->all_max = ((off_max + 0x7f * LANES_1) & lane) == 0;
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
