/*
 * arena.c - tables from the players waiting in an arena (docs/tournaments.md,
 * "Pairing").
 *
 * Who plays now: as many full tables as the waiting players fill. When the
 * count does not divide, those who began waiting last keep waiting (waiting[]
 * is in the order players began to wait), so nobody waits twice in a row
 * while later arrivals play.
 * Who meets whom: the same costs and search as Swiss (seating.c), with
 * "met in their last game" in place of "met before": players of close
 * scores meet, and two who just played together meet again only if every
 * other seating of the waiting players repeats more.
 */
#include "seating.h"

#include <stdlib.h>

static bool last_met(const int *last_opponents, int n, int i, int j)
{
    if (!last_opponents)
        return false;
    for (int k = 0; k < TN_MAX_SEATS; k++) {
        int o = last_opponents[(size_t)i * TN_MAX_SEATS + k];
        if (o == j && o >= 0 && o < n)
            return true;
    }
    return false;
}

int tn_arena_pair(const tn_player *players, int n, const int *last_opponents, const int *waiting,
                  int n_waiting, int seats, int *table_out)
{
    if (!players || n < 1 || n_waiting < 0 || n_waiting > TN_MAX_PLAYERS ||
        (n_waiting > 0 && (!waiting || !table_out)) || seats < 2 || seats > TN_MAX_SEATS)
        return -1;
    bool *seen = calloc((size_t)n, sizeof(bool));
    int *who = malloc(sizeof(int) * (size_t)(n_waiting > 0 ? n_waiting : 1));
    int *pos = malloc(sizeof(int) * (size_t)(n_waiting > 0 ? n_waiting : 1));
    int result = -1;
    int *size = NULL, *order = NULL, *table_of = NULL;
    uint8_t *rep = NULL;
    tn_costs c = {0, NULL};
    if (!seen || !who || !pos)
        goto done;
    for (int i = 0; i < n; i++)
        if (players[i].id != i)
            goto done;
    int m = 0;
    for (int k = 0; k < n_waiting; k++) {
        int p = waiting[k];
        if (p < 0 || p >= n || seen[p])
            goto done; /* an unknown player, or one waiting twice */
        seen[p] = true;
        if (players[p].withdrawn)
            continue;
        pos[m] = k;
        who[m++] = p;
    }
    int n_tables = m / seats, k = n_tables * seats; /* who[0..k-1] play */
    size = malloc(sizeof(int) * (size_t)(n_tables > 0 ? n_tables : 1));
    order = malloc(sizeof(int) * (size_t)(k > 0 ? k : 1));
    table_of = malloc(sizeof(int) * (size_t)(k > 0 ? k : 1));
    rep = calloc((size_t)k * (size_t)k + 1, 1);
    if (!size || !order || !table_of || !rep)
        goto done;
    for (int t = 0; t < n_tables; t++)
        size[t] = seats;
    for (int a = 0; a < k; a++)
        for (int b = 0; b < k; b++)
            rep[a * k + b] = last_met(last_opponents, n, who[a], who[b]) ||
                             last_met(last_opponents, n, who[b], who[a]);
    if (!tn_rank_order(players, who, k, order) ||
        !tn_costs_build(&c, players, who, k, rep, n_tables * seats * (seats - 1) / 2, false) ||
        !tn_seat(&c, order, n_tables, size, seats, NULL, NULL, table_of))
        goto done;
    for (int j = 0; j < n_waiting; j++)
        table_out[j] = -1;
    for (int a = 0; a < k; a++)
        table_out[pos[a]] = table_of[a];
    result = n_tables;
done:
    tn_costs_free(&c);
    free(seen), free(who), free(pos), free(size), free(order), free(table_of), free(rep);
    return result;
}
