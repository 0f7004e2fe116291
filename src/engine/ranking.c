/*
 * ranking.c - who wins (rules 1.2).
 *
 * Each seat's tracks are sorted ascending and compared lexicographically:
 * the best lowest track wins, ties go to the next lowest, and seats equal
 * in every track share a place. The colour of a track never matters.
 * Seats that left (rules 6) rank below every seat that stayed, whatever
 * their tracks: a later leaver above an earlier one, team partners together.
 */
#include "engine.h"

static void sort_ascending(uint8_t *v, int n)
{
    for (int a = 1; a < n; a++)
        for (int b = a; b > 0 && v[b - 1] > v[b]; b--) {
            uint8_t t = v[b];
            v[b] = v[b - 1];
            v[b - 1] = t;
        }
}

int ax_compare_tracks(const uint8_t *a, const uint8_t *b, int ncolors)
{
    uint8_t sa[AX_MAX_COLORS], sb[AX_MAX_COLORS];
    for (int c = 0; c < ncolors; c++) {
        sa[c] = a[c];
        sb[c] = b[c];
    }
    sort_ascending(sa, ncolors);
    sort_ascending(sb, ncolors);
    for (int c = 0; c < ncolors; c++)
        if (sa[c] != sb[c])
            return sa[c] < sb[c] ? -1 : 1;
    return 0;
}

static const uint8_t *seat_tracks(const ax_game *g, int seat)
{
    return g->track[ax_track_owner(g, seat)];
}

/* <0 if seat a ranks below seat b, 0 if they share a place, >0 above.
 * SPEC: interpretation 12: a leaver ranks last even after its seat's
 * immediate win; leavers never share a place, team partners do. */
static int compare_seats(const ax_game *g, int a, int b)
{
    int left_a = ax_side_left(g, ax_track_owner(g, a));
    int left_b = ax_side_left(g, ax_track_owner(g, b));
    if (!left_a && !left_b)
        return ax_compare_tracks(seat_tracks(g, a), seat_tracks(g, b), g->ncolors);
    if (!left_a || !left_b)
        return left_a ? -1 : 1;
    return left_a - left_b; /* the later leaver ranks higher; partners tie */
}

void ax_rank(const ax_game *g, ax_ranking *out)
{
    out->n = g->players;
    for (int s = 0; s < g->players; s++)
        out->order[s] = s;
    /* stable insertion sort, best first: equal seats stay in seat order */
    for (int a = 1; a < g->players; a++)
        for (int b = a; b > 0; b--) {
            if (compare_seats(g, out->order[b - 1], out->order[b]) >= 0)
                break;
            int t = out->order[b];
            out->order[b] = out->order[b - 1];
            out->order[b - 1] = t;
        }
    for (int i = 0; i < g->players; i++) {
        bool tied = i > 0 && compare_seats(g, out->order[i - 1], out->order[i]) == 0;
        out->place[i] = tied ? out->place[i - 1] : (i == 0 ? 0 : out->place[i - 1] + 1);
    }
}

long ax_solo_result(const ax_game *g)
{
    uint8_t sorted[AX_MAX_COLORS];
    for (int c = 0; c < g->ncolors; c++)
        sorted[c] = g->track[0][c];
    sort_ascending(sorted, g->ncolors);
    if (g->variant == AX_HEX)
        return sorted[0] * 10000L + sorted[1] * 100L + sorted[2];
    return sorted[0];
}
