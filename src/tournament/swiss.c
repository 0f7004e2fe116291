/*
 * swiss.c - the next round of a Swiss tournament (docs/tournaments.md,
 * "Pairing").
 *
 * Who sits out: tables hold `seats` players, or `seats - 1` (short tables,
 * never fewer than 2): the fewest byes that let the rest sit at such
 * tables, then as few short tables as possible. So 2 seats: one bye when
 * the count is odd; 3 seats: n % 3 == 1 gives two tables of 2, n % 3 == 2
 * one; 4 seats: n % 4 == 3 one table of 3, == 2 two, == 1 three (five
 * players: one table of 4 and a bye). Byes and short tables go to the
 * players with the fewest byes and short tables so far (tn_player.byes:
 * the caller counts both), lowest ranked first: nobody gets a second before
 * every player still in had one. A single bye whose seating repeats a
 * meeting passes to the next lowest ranked of the same bye count, if that
 * repeats less (at most BYE_TRIES players, and bounded work).
 *
 * Who meets whom: every pair of players has a cost (seating.c): repeats
 * first, then the squared gap of their scores, then (2 seats) the rating
 * order inside a score group. 2 seats: the perfect matching of least total
 * cost, exactly (Edmonds' blossom algorithm, matching.c). 3 and 4 seats:
 * tables filled down the ranking, each seat going to the closest player
 * who has not met those already seated, then swaps of two players between
 * tables while a swap lowers the total, cycles of three players out of a
 * table that still holds a repeat, and up to 12 players an exhaustive
 * search (seating.c); players may trade a full seat for a short one only
 * with a player of the same bye count.
 */
#include "seating.h"

#include <stdlib.h>
#include <string.h>

#define BYE_TRIES 64         /* players tried for a single bye, at most */
#define BYE_WORK  (1L << 22) /* ... and tries x players^2 at most */

bool tn_swiss_layout(int players, int seats, int *byes, int *tables, int *short_tables)
{
    if (players < 0 || seats < 2 || seats > TN_MAX_SEATS)
        return false;
    for (int b = 0; b <= players; b++) {
        int k = players - b;
        int t = (k + seats - 1) / seats;
        int sh = t * seats - k;
        if (sh == 0 || (seats > 2 && sh <= t)) {
            *byes = b;
            *tables = t;
            *short_tables = sh;
            return true;
        }
    }
    return false; /* not reached: b = players always fits */
}

/* fewest byes first, then the lowest ranked */
static bool bye_before(const tn_player *x, const tn_player *y)
{
    if (x->byes != y->byes)
        return x->byes < y->byes;
    if (x->score != y->score)
        return x->score < y->score;
    if (x->rating != y->rating)
        return x->rating < y->rating;
    return x->id > y->id;
}

/* Seats who[0..k-1] (in fairness order: the first n_short * (seats - 1)
 * start at the short tables) at n_tables tables; table_of[a] for who[a].
 * *repeats: the repeated meetings it makes (each capped as in the costs).
 * false: out of memory. */
static bool seat_round(const tn_player *players, int n, const uint16_t *met, int seats,
                       const int *who, int k, int n_tables, int n_short, int *table_of,
                       int *repeats)
{
    int *size = malloc(sizeof(int) * (size_t)(n_tables > 0 ? n_tables : 1));
    bool *short_pool = calloc((size_t)(k > 0 ? k : 1), sizeof(bool));
    int *klass = malloc(sizeof(int) * (size_t)(k > 0 ? k : 1));
    int *order = malloc(sizeof(int) * (size_t)(k > 0 ? k : 1));
    uint8_t *rep = calloc((size_t)k * (size_t)k + 1, 1);
    tn_costs c = {0, NULL, 0};
    bool ok = false;
    if (!size || !short_pool || !klass || !order || !rep)
        goto done;
    int pairs = 0;
    for (int t = 0; t < n_tables; t++) {
        size[t] = t < n_tables - n_short ? seats : seats - 1;
        pairs += size[t] * (size[t] - 1) / 2;
    }
    for (int a = 0; a < k; a++) {
        short_pool[a] = a < n_short * (seats - 1);
        klass[a] = players[who[a]].byes;
        for (int b = 0; b < k; b++) {
            int v = met ? met[(size_t)who[a] * (size_t)n + (size_t)who[b]] : 0;
            rep[a * k + b] = (uint8_t)(v > 255 ? 255 : v);
        }
    }
    if (!tn_rank_order(players, who, k, order) ||
        !tn_costs_build(&c, players, who, k, rep, pairs, seats == 2) ||
        !tn_seat(&c, order, n_tables, size, seats, short_pool, klass, table_of))
        goto done;
    *repeats = 0;
    for (int a = 0; a < k; a++)
        for (int b = a + 1; b < k; b++)
            if (table_of[a] == table_of[b])
                *repeats += rep[a * k + b] > TN_REPEAT_CAP ? TN_REPEAT_CAP : rep[a * k + b];
    ok = true;
done:
    tn_costs_free(&c);
    free(size), free(short_pool), free(klass), free(order), free(rep);
    return ok;
}

int tn_swiss_pair(const tn_player *players, int n, const uint16_t *met, int seats, int *table_out)
{
    if (!players || !table_out || n < 1 || n > TN_MAX_PLAYERS || seats < 2 || seats > TN_MAX_SEATS)
        return -1;
    for (int i = 0; i < n; i++)
        if (players[i].id != i || players[i].byes < 0)
            return -1;
    int *elig = malloc(sizeof(int) * (size_t)n), *who = malloc(sizeof(int) * (size_t)n);
    int *table_of = malloc(sizeof(int) * (size_t)n), *best = malloc(sizeof(int) * (size_t)n);
    int result = -1;
    if (!elig || !who || !table_of || !best)
        goto done;
    int m = 0;
    for (int i = 0; i < n; i++)
        if (!players[i].withdrawn)
            elig[m++] = i;
    int byes, n_tables, n_short;
    tn_swiss_layout(m, seats, &byes, &n_tables, &n_short);
    /* fairness order for byes and short tables (insertion sort: stable) */
    for (int a = 1; a < m; a++)
        for (int b = a; b > 0 && bye_before(&players[elig[b]], &players[elig[b - 1]]); b--) {
            int t = elig[b];
            elig[b] = elig[b - 1];
            elig[b - 1] = t;
        }
    /* The byes go to elig[0..byes-1]. With one bye (2 seats, odd count),
     * if that seating repeats a meeting, the next players of the same bye
     * count (next lowest ranked) are tried in turn for the bye, and the
     * first that repeats least is kept: as in the chess Swiss, the bye goes
     * to the lowest ranked player whose bye lets the others meet new
     * opponents. */
    int k = m - byes, tries = 1, best_repeats = -1, best_bye = 0;
    long limit = BYE_WORK / ((long)k * k + 1); /* bounded work: 1000 players try 4 */
    if (limit > BYE_TRIES)
        limit = BYE_TRIES;
    if (byes == 1)
        while (tries < m && tries < limit && players[elig[tries]].byes == players[elig[0]].byes)
            tries++;
    for (int cand = 0; cand < tries && best_repeats != 0; cand++) {
        /* who: everyone but the byes, in fairness order */
        int w = 0;
        for (int a = 0; a < m; a++) {
            bool bye = byes == 1 ? a == cand : a < byes;
            if (!bye)
                who[w++] = elig[a];
        }
        int repeats;
        if (!seat_round(players, n, met, seats, who, k, n_tables, n_short, table_of, &repeats))
            goto done;
        if (best_repeats < 0 || repeats < best_repeats) {
            best_repeats = repeats;
            best_bye = cand;
            for (int a = 0; a < k; a++)
                best[who[a]] = table_of[a];
        }
    }
    for (int i = 0; i < n; i++)
        table_out[i] = -1;
    for (int a = 0; a < m; a++) {
        bool bye = byes == 1 ? a == best_bye : a < byes;
        if (!bye)
            table_out[elig[a]] = best[elig[a]];
    }
    result = n_tables;
done:
    free(elig), free(who), free(table_of), free(best);
    return result;
}
