/*
 * points.c - the points of a finished table, by place (docs/tournaments.md,
 * "Points").
 *
 * Place points, best first, in whole points:
 *   2 seats  2 0        (a win is worth a win, a loss nothing)
 *   3 seats  3 1 0
 *   4 seats  4 2 1 0
 * The winner always gets as many points as there are seats and the last
 * nothing; 3 seats keep 4 seats' shape (the winner twice what second place
 * has would be 3/1.5/0: halves; 3/1/0 keeps whole points and keeps winning
 * worth more than two second places, as 4/2/1/0 does).
 * The places come from the engine's ranking (ax_rank: rules 1.2, leavers
 * last), never from a scoring of our own. Seats that share a place share
 * the points of the places they cover equally: two tied winners of four
 * seats get (4 + 2) / 2 = 3 each; in TN_UNITS (12 a point) every such share
 * is whole. A no-show (absent) seat scores nothing and ranks below every
 * seat that came: the seats that came take the best places in the engine's
 * order, so a table of four with one no-show pays 4/2/1 to the three.
 */
#include "tournament.h"

#include <string.h>

static const int place_points[TN_MAX_SEATS + 1][TN_MAX_SEATS] = {
    {0, 0, 0, 0}, {0, 0, 0, 0}, {2, 0, 0, 0}, {3, 1, 0, 0}, {4, 2, 1, 0},
};

int tn_place_points(int seats, int place)
{
    if (seats < 2 || seats > TN_MAX_SEATS || place < 0 || place >= seats)
        return 0;
    return place_points[seats][place] * TN_UNITS;
}

bool tn_ranking_valid(int seats, const ax_ranking *ranking)
{
    if (!ranking || seats < 2 || seats > TN_MAX_SEATS || ranking->n != seats)
        return false;
    bool seen[TN_MAX_SEATS] = {false};
    for (int i = 0; i < seats; i++) {
        int s = ranking->order[i];
        if (s < 0 || s >= seats || seen[s])
            return false;
        seen[s] = true;
        /* places never go down the order and never skip back */
        if (ranking->place[i] < 0 || (i > 0 && ranking->place[i] < ranking->place[i - 1]))
            return false;
    }
    return true;
}

void tn_table_points(int seats, const ax_ranking *ranking, const bool *absent, int *points_out)
{
    if (!points_out)
        return;
    int n = seats < 0 ? 0 : (seats > TN_MAX_SEATS ? TN_MAX_SEATS : seats);
    for (int s = 0; s < n; s++)
        points_out[s] = 0;
    if (!tn_ranking_valid(seats, ranking))
        return;
    /* the seats that came, in the engine's order: they take places 0, 1, ... */
    int came[TN_MAX_SEATS], came_place[TN_MAX_SEATS], k = 0;
    for (int i = 0; i < seats; i++) {
        int s = ranking->order[i];
        if (absent && absent[s])
            continue;
        came[k] = s;
        came_place[k] = ranking->place[i];
        k++;
    }
    for (int a = 0; a < k;) {
        int b = a; /* [a, b) share the engine's place */
        int sum = 0;
        while (b < k && came_place[b] == came_place[a]) {
            sum += tn_place_points(seats, b);
            b++;
        }
        for (int i = a; i < b; i++)
            points_out[came[i]] = sum / (b - a); /* whole: TN_UNITS divides by 2, 3, 4 */
        a = b;
    }
}

int tn_bye_points(int seats)
{
    if (seats < 2 || seats > TN_MAX_SEATS)
        return 0;
    int sum = 0;
    for (int p = 0; p < seats; p++)
        sum += tn_place_points(seats, p);
    return sum / seats;
}
