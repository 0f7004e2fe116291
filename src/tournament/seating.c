/*
 * seating.c - the cost of seating two players together, and tables of
 * least total cost by greedy start and local search (swiss.c, arena.c).
 *
 * The cost of a pair has three levels, each weighing more than every sum
 * of the levels below it over a whole round, so that minimising the total
 * minimises them in order:
 *   1. repeats: the times the two met before (capped at 3);
 *   2. the squared gap of their scores (scores divided by the largest
 *      unit they share, so 2-player scores of 24, 12, 0 are gaps 2, 1);
 *   3. 2-player Swiss only: rating order inside a score group, the top
 *      half meeting the bottom half (|rank gap - half the group|), and a
 *      player from a higher group meeting the top of the lower one.
 * If the three levels do not fit in 62 bits (very many players with very
 * spread scores) the score level counts score groups instead of points,
 * then the rating level is left out: the order of levels always holds.
 *
 * tn_seat: tables are filled down the ranking (best first), each next seat
 * going to the unseated player of least cost to those already at the table;
 * then, while some swap of two players between two tables lowers the total
 * cost, the first such swap is made. Every swap lowers an integer total, so
 * the search ends; at its end no single swap helps (the tests check this).
 */
#include "seating.h"

#include <stdlib.h>
#include <string.h>

#define REPEAT_CAP 3

static int64_t gcd64(int64_t a, int64_t b)
{
    while (b) {
        int64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

typedef struct {
    const tn_player *players;
    const int *who;
} rank_ctx;

/* idx: local indexes, sorted by score desc, rating desc, id asc (a
 * bottom-up merge sort: stable, deterministic, no context-free comparator) */
static void sort_by_rank(const tn_player *pl, const int *who, int *idx, int m, int *tmp)
{
    for (int w = 1; w < m; w *= 2) {
        for (int lo = 0; lo < m; lo += 2 * w) {
            int mid = lo + w < m ? lo + w : m, hi = lo + 2 * w < m ? lo + 2 * w : m;
            int a = lo, b = mid, k = lo;
            while (a < mid || b < hi) {
                bool take_a;
                if (a >= mid)
                    take_a = false;
                else if (b >= hi)
                    take_a = true;
                else {
                    const tn_player *x = &pl[who[idx[a]]], *y = &pl[who[idx[b]]];
                    if (x->score != y->score)
                        take_a = x->score > y->score;
                    else if (x->rating != y->rating)
                        take_a = x->rating > y->rating;
                    else
                        take_a = x->id <= y->id;
                }
                tmp[k++] = take_a ? idx[a++] : idx[b++];
            }
        }
        memcpy(idx, tmp, sizeof(int) * (size_t)m);
    }
}

bool tn_rank_order(const tn_player *players, const int *who, int m, int *order)
{
    int *tmp = malloc(sizeof(int) * (size_t)(m > 0 ? m : 1));
    if (!tmp)
        return false;
    for (int a = 0; a < m; a++)
        order[a] = a;
    sort_by_rank(players, who, order, m, tmp);
    free(tmp);
    return true;
}

bool tn_costs_build(tn_costs *c, const tn_player *players, const int *who, int m,
                    const uint8_t *repeats, int pairs, bool rating_order)
{
    c->m = m;
    c->cost = NULL;
    if (m <= 0)
        return true;
    c->cost = calloc((size_t)m * (size_t)m, sizeof(int64_t));
    int *idx = malloc(sizeof(int) * (size_t)m), *tmp = malloc(sizeof(int) * (size_t)m);
    int *group = malloc(sizeof(int) * (size_t)m), *grank = malloc(sizeof(int) * (size_t)m);
    int *gsize = malloc(sizeof(int) * (size_t)m);
    int64_t *level = malloc(sizeof(int64_t) * (size_t)m);
    if (!c->cost || !idx || !tmp || !group || !grank || !gsize || !level) {
        free(c->cost);
        c->cost = NULL;
        free(idx), free(tmp), free(group), free(grank), free(gsize), free(level);
        return false;
    }
    for (int a = 0; a < m; a++)
        idx[a] = a;
    sort_by_rank(players, who, idx, m, tmp);
    /* score groups (0 = best) and each player's rank inside its group */
    int groups = 0;
    for (int k = 0; k < m; k++) {
        if (k > 0 && players[who[idx[k]]].score != players[who[idx[k - 1]]].score)
            groups++;
        group[idx[k]] = groups;
        gsize[groups] = (k > 0 && group[idx[k - 1]] == groups) ? gsize[groups] + 1 : 1;
        grank[idx[k]] = gsize[groups] - 1;
    }
    groups++;
    int lo = players[who[idx[m - 1]]].score;
    int64_t unit = 0;
    for (int a = 0; a < m; a++)
        unit = gcd64(unit, (int64_t)players[who[a]].score - lo);
    if (unit == 0)
        unit = 1;
    for (int a = 0; a < m; a++)
        level[a] = ((int64_t)players[who[a]].score - lo) / unit;
    long double P = pairs > 0 ? pairs : 1, limit = 4.0e18L;
    int64_t rmax = rating_order ? m : 0;
    int64_t maxgap = level[idx[0]];
    long double S, R;
    for (int attempt = 0;; attempt++) {
        S = P * (long double)rmax + 1;
        R = P * (S * (long double)maxgap * (long double)maxgap + rmax) + 1;
        if (P * (REPEAT_CAP * R + S * maxgap * maxgap + rmax) < limit || attempt == 3)
            break;
        if (attempt == 0) { /* count groups, not points */
            for (int a = 0; a < m; a++)
                level[a] = groups - 1 - group[a];
            maxgap = groups - 1;
        } else if (attempt == 1) {
            rmax = 0;
        } else {
            R = limit / (P * (REPEAT_CAP + 1)); /* never reached below 10^5 players */
            S = 1;
            break;
        }
    }
    int64_t s64 = (int64_t)S, r64 = (int64_t)R;
    for (int a = 0; a < m; a++)
        for (int b = a + 1; b < m; b++) {
            int64_t gap = level[a] - level[b];
            int64_t v = s64 * gap * gap;
            int rep = repeats ? repeats[a * m + b] : 0;
            v += r64 * (rep > REPEAT_CAP ? REPEAT_CAP : rep);
            if (rmax) {
                if (group[a] == group[b]) {
                    int half = gsize[group[a]] / 2;
                    int d = abs(grank[a] - grank[b]);
                    v += abs(d - half);
                } else {
                    v += group[a] > group[b] ? grank[a] : grank[b];
                }
            }
            c->cost[a * m + b] = c->cost[b * m + a] = v;
        }
    free(idx), free(tmp), free(group), free(grank), free(gsize), free(level);
    return true;
}

void tn_costs_free(tn_costs *c)
{
    free(c->cost);
    c->cost = NULL;
}

/* cost of player p with the players of table t other than `skip` */
static int64_t cost_with(const tn_costs *c, const int *seat, int size, int p, int skip)
{
    int64_t v = 0;
    for (int i = 0; i < size; i++)
        if (seat[i] != skip)
            v += c->cost[p * c->m + seat[i]];
    return v;
}

bool tn_seat(const tn_costs *c, const int *order, int n_tables, const int *size, int full,
             const bool *short_pool, const int *klass, int *table_of)
{
    int m = c->m;
    if (n_tables <= 0)
        return true;
    int *seats = malloc(sizeof(int) * (size_t)n_tables * TN_MAX_SEATS);
    bool *placed = calloc((size_t)m + 1, sizeof(bool));
    int *first = malloc(sizeof(int) * (size_t)n_tables), *rank = malloc(sizeof(int) * (size_t)m);
    int *renum = malloc(sizeof(int) * (size_t)n_tables);
    if (!seats || !placed || !first || !rank || !renum) {
        free(seats), free(placed), free(first), free(rank), free(renum);
        return false;
    }
    for (int k = 0; k < m; k++)
        rank[order[k]] = k;
    /* greedy start: each table takes the best unseated player of its pool,
     * then the unseated players of least cost to those already seated */
    for (int t = 0; t < n_tables; t++) {
        bool want_short = size[t] < full;
        int n_at = 0;
        for (int k = 0; k < m && n_at == 0; k++) {
            int a = order[k];
            if (!placed[a] && (!short_pool || short_pool[a] == want_short)) {
                seats[t * TN_MAX_SEATS + n_at++] = a;
                placed[a] = true;
            }
        }
        while (n_at < size[t]) {
            int best = -1;
            int64_t best_cost = 0;
            for (int k = 0; k < m; k++) {
                int a = order[k];
                if (placed[a] || (short_pool && short_pool[a] != want_short))
                    continue;
                int64_t v = cost_with(c, &seats[t * TN_MAX_SEATS], n_at, a, -1);
                if (best < 0 || v < best_cost) {
                    best = a;
                    best_cost = v;
                }
            }
            if (best < 0) /* the pools do not fill the tables: a caller's bug */
                break;
            seats[t * TN_MAX_SEATS + n_at++] = best;
            placed[best] = true;
        }
    }
    /* local search: the first improving swap, until none */
    bool improved = true;
    while (improved) {
        improved = false;
        for (int t = 0; t < n_tables; t++)
            for (int u = t + 1; u < n_tables; u++) {
                int *st = &seats[t * TN_MAX_SEATS], *su = &seats[u * TN_MAX_SEATS];
                bool same = size[t] == size[u];
                for (int i = 0; i < size[t]; i++)
                    for (int j = 0; j < size[u]; j++) {
                        int p = st[i], q = su[j];
                        if (!same && (!klass || klass[p] != klass[q]))
                            continue;
                        int64_t before =
                            cost_with(c, st, size[t], p, p) + cost_with(c, su, size[u], q, q);
                        int64_t after =
                            cost_with(c, st, size[t], q, p) + cost_with(c, su, size[u], p, q);
                        if (after < before) {
                            st[i] = q;
                            su[j] = p;
                            improved = true;
                        }
                    }
            }
    }
    /* number the tables by their best player */
    for (int t = 0; t < n_tables; t++) {
        first[t] = m;
        for (int i = 0; i < size[t]; i++)
            if (rank[seats[t * TN_MAX_SEATS + i]] < first[t])
                first[t] = rank[seats[t * TN_MAX_SEATS + i]];
    }
    for (int t = 0; t < n_tables; t++) {
        renum[t] = 0;
        for (int u = 0; u < n_tables; u++)
            if (first[u] < first[t])
                renum[t]++;
    }
    for (int t = 0; t < n_tables; t++)
        for (int i = 0; i < size[t]; i++)
            table_of[seats[t * TN_MAX_SEATS + i]] = renum[t];
    free(seats), free(placed), free(first), free(rank), free(renum);
    return true;
}
