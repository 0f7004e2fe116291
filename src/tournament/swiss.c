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
 * every player still in had one.
 *
 * Who meets whom: every pair of players has a cost (seating.c): repeats
 * first, then the squared gap of their scores, then (2 seats) the rating
 * order inside a score group. 2 seats: the perfect matching of least total
 * cost, exactly (Edmonds' blossom algorithm, matching.c). 3 and 4 seats:
 * tables filled down the ranking, each seat going to the closest player
 * who has not met those already seated, then swaps of two players between
 * tables while a swap lowers the total; players may trade a full seat for
 * a short one only with a player of the same bye count.
 */
#include "seating.h"

#include <stdlib.h>
#include <string.h>

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

int tn_swiss_pair(const tn_player *players, int n, const uint16_t *met, int seats, int *table_out)
{
    if (!players || !table_out || n < 1 || n > TN_MAX_PLAYERS || seats < 2 || seats > TN_MAX_SEATS)
        return -1;
    for (int i = 0; i < n; i++)
        if (players[i].id != i || players[i].byes < 0)
            return -1;
    int *elig = malloc(sizeof(int) * (size_t)n);
    if (!elig)
        return -1;
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
    int k = m - byes; /* seated: elig[byes..m-1] */
    int *who = elig + byes;
    int *size = malloc(sizeof(int) * (size_t)(n_tables > 0 ? n_tables : 1));
    bool *short_pool = calloc((size_t)(k > 0 ? k : 1), sizeof(bool));
    int *klass = malloc(sizeof(int) * (size_t)(k > 0 ? k : 1));
    int *order = malloc(sizeof(int) * (size_t)(k > 0 ? k : 1));
    int *table_of = malloc(sizeof(int) * (size_t)(k > 0 ? k : 1));
    uint8_t *rep = calloc((size_t)k * (size_t)k + 1, 1);
    int result = -1;
    tn_costs c = {0, NULL};
    if (!size || !short_pool || !klass || !order || !table_of || !rep)
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
        !tn_costs_build(&c, players, who, k, rep, pairs, seats == 2))
        goto done;
    if (!tn_seat(&c, order, n_tables, size, seats, short_pool, klass, table_of))
        goto done;
    for (int a = 0; a < k; a++)
        table_out[who[a]] = table_of[a];
    for (int i = 0; i < n; i++)
        if (players[i].withdrawn)
            table_out[i] = -1;
    for (int b = 0; b < byes; b++)
        table_out[elig[b]] = -1;
    result = n_tables;
done:
    tn_costs_free(&c);
    free(elig), free(size), free(short_pool), free(klass), free(order), free(table_of), free(rep);
    return result;
}
