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
 * tn_seat, 2 seats: the cheapest perfect matching, exactly (matching.c).
 * tn_seat, 3 and 4 seats: tables are filled down the ranking (best first), each next seat
 * going to the unseated player of least cost to those already at the table;
 * then, while some swap of two players between two tables lowers the total
 * cost, the first such swap is made. Every swap lowers an integer total, so
 * the search ends; at its end no single swap helps (the tests check this).
 * When no swap helps but a table still holds a repeat, a cycle of three
 * players through three tables is tried (and swaps again after it). Up to
 * 12 players, an exhaustive search then finds the cheapest seating of all.
 */
#include "seating.h"

#include <stdlib.h>
#include <string.h>

#define EXACT_MAX    12       /* players seated by exhaustive search */
#define CYCLE_BUDGET 4000000L /* table triples tried, each up to 4 x 4 x 4 cycles */

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
    c->repeat = INT64_MAX;
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
        if (P * (TN_REPEAT_CAP * R + S * maxgap * maxgap + rmax) < limit || attempt == 3)
            break;
        if (attempt == 0) { /* count groups, not points */
            for (int a = 0; a < m; a++)
                level[a] = groups - 1 - group[a];
            maxgap = groups - 1;
        } else if (attempt == 1) {
            rmax = 0;
        } else {
            R = limit / (P * (TN_REPEAT_CAP + 1)); /* never reached below 10^5 players */
            S = 1;
            break;
        }
    }
    int64_t s64 = (int64_t)S, r64 = (int64_t)R;
    c->repeat = r64;
    for (int a = 0; a < m; a++)
        for (int b = a + 1; b < m; b++) {
            int64_t gap = level[a] - level[b];
            int64_t v = s64 * gap * gap;
            int rep = repeats ? repeats[a * m + b] : 0;
            v += r64 * (rep > TN_REPEAT_CAP ? TN_REPEAT_CAP : rep);
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

/* 2 seats: the cheapest perfect matching, exactly (matching.c) */
static bool seat_pairs(const tn_costs *c, const int *order, int n_tables, int *table_of)
{
    int m = c->m;
    int *mate = malloc(sizeof(int) * (size_t)m);
    if (!mate || !tn_match(c, mate)) {
        free(mate);
        return false;
    }
    for (int a = 0; a < m; a++)
        table_of[a] = -1;
    int t = 0;
    for (int r = 0; r < m; r++) { /* tables numbered by their best player */
        int a = order[r];
        if (table_of[a] >= 0 || mate[a] < 0 || mate[a] == a || table_of[mate[a]] >= 0)
            continue;
        table_of[a] = table_of[mate[a]] = t++;
    }
    free(mate);
    return t == n_tables; /* a perfect matching: always, on a complete graph */
}

/* a table with two players who met before */
static bool has_repeat(const tn_costs *c, const int *seat, int size)
{
    for (int i = 0; i < size; i++)
        for (int j = i + 1; j < size; j++)
            if (c->cost[seat[i] * c->m + seat[j]] >= c->repeat)
                return true;
    return false;
}

static bool may_trade(const int *size, const int *klass, int t, int u, int p, int q)
{
    return size[t] == size[u] || (klass && klass[p] == klass[q]);
}

/* The first cycle p -> u, q -> v, r -> t that lowers the total, p being a
 * player of a table t with a repeat: swaps alone cannot move three players
 * at once, and that is what untangles the last repeats of a late round.
 * At most *budget cycles are tried over the whole search (the cost of a
 * round stays bounded; the count is deterministic, so the tables are too). */
static bool cycle_three(const tn_costs *c, int *seats, int n_tables, const int *size,
                        const int *klass, long *budget)
{
    for (int t = 0; t < n_tables; t++) {
        int *st = &seats[t * TN_MAX_SEATS];
        if (!has_repeat(c, st, size[t]))
            continue;
        for (int i = 0; i < size[t]; i++) {
            int p = st[i];
            int64_t out_p = cost_with(c, st, size[t], p, p);
            for (int u = 0; u < n_tables; u++) {
                if (u == t)
                    continue;
                int *su = &seats[u * TN_MAX_SEATS];
                for (int j = 0; j < size[u]; j++) {
                    int q = su[j];
                    if (!may_trade(size, klass, t, u, p, q))
                        continue;
                    int64_t gain_u =
                        cost_with(c, su, size[u], p, q) - cost_with(c, su, size[u], q, q);
                    for (int v = 0; v < n_tables; v++) {
                        if (v == t || v == u)
                            continue;
                        if (--*budget < 0)
                            return false;
                        int *sv = &seats[v * TN_MAX_SEATS];
                        for (int k = 0; k < size[v]; k++) {
                            int r = sv[k];
                            if (!may_trade(size, klass, u, v, q, r) ||
                                !may_trade(size, klass, v, t, r, p))
                                continue;
                            int64_t delta = gain_u + cost_with(c, sv, size[v], q, r) -
                                            cost_with(c, sv, size[v], r, r) +
                                            cost_with(c, st, size[t], r, p) - out_p;
                            if (delta < 0) {
                                st[i] = r;
                                su[j] = p;
                                sv[k] = q;
                                return true;
                            }
                        }
                    }
                }
            }
        }
    }
    return false;
}

/* Exact search for a few players: every seating (tables of one size being
 * alike when empty), cut when its partial cost reaches the best so far. */
typedef struct {
    const tn_costs *c;
    const int *order, *size, *klass;
    int full, n_tables, m;
    int cur[EXACT_MAX], cnt[EXACT_MAX], best_of[EXACT_MAX];
    int want[EXACT_MAX], n_want; /* the classes of the short seats, sorted */
    int64_t best;
} exact;

static bool classes_fit(const exact *x)
{
    if (!x->klass)
        return true;
    int got[EXACT_MAX], n = 0;
    for (int k = 0; k < x->m; k++)
        if (x->size[x->cur[k]] < x->full)
            got[n++] = x->klass[x->order[k]];
    for (int a = 1; a < n; a++)
        for (int b = a; b > 0 && got[b - 1] > got[b]; b--) {
            int t = got[b];
            got[b] = got[b - 1];
            got[b - 1] = t;
        }
    if (n != x->n_want)
        return false;
    for (int i = 0; i < n; i++)
        if (got[i] != x->want[i])
            return false;
    return true;
}

static void exact_rec(exact *x, int k, int64_t so_far)
{
    if (so_far >= x->best)
        return;
    if (k == x->m) {
        if (classes_fit(x)) {
            x->best = so_far;
            memcpy(x->best_of, x->cur, sizeof x->cur);
        }
        return;
    }
    int a = x->order[k];
    bool tried_empty[TN_MAX_SEATS + 1] = {false};
    for (int t = 0; t < x->n_tables; t++) {
        if (x->cnt[t] == x->size[t])
            continue;
        if (x->cnt[t] == 0) {
            if (tried_empty[x->size[t]])
                continue;
            tried_empty[x->size[t]] = true;
        }
        int64_t add = 0;
        for (int i = 0; i < k; i++)
            if (x->cur[i] == t)
                add += x->c->cost[a * x->m + x->order[i]];
        x->cur[k] = t;
        x->cnt[t]++;
        exact_rec(x, k + 1, so_far + add);
        x->cnt[t]--;
    }
}

/* Improves seats[] to the cheapest seating, if the search finds a cheaper
 * one than the local search did. */
static void seat_exactly(const tn_costs *c, const int *order, int n_tables, const int *size,
                         int full, const int *klass, int *seats)
{
    exact *x = calloc(1, sizeof *x);
    if (!x)
        return; /* the local search's seating stands */
    x->c = c;
    x->order = order;
    x->size = size;
    x->klass = klass;
    x->full = full;
    x->n_tables = n_tables;
    x->m = c->m;
    int64_t now = 0;
    for (int t = 0; t < n_tables; t++)
        for (int i = 0; i < size[t]; i++) {
            int p = seats[t * TN_MAX_SEATS + i];
            now += cost_with(c, &seats[t * TN_MAX_SEATS], i, p, -1);
            if (size[t] < full && klass)
                x->want[x->n_want++] = klass[p];
        }
    for (int a = 1; a < x->n_want; a++)
        for (int b = a; b > 0 && x->want[b - 1] > x->want[b]; b--) {
            int t = x->want[b];
            x->want[b] = x->want[b - 1];
            x->want[b - 1] = t;
        }
    x->best = now;
    x->best_of[0] = -1;
    exact_rec(x, 0, 0);
    if (x->best < now) {
        int n_at[EXACT_MAX] = {0};
        for (int k = 0; k < x->m; k++) {
            int t = x->best_of[k];
            seats[t * TN_MAX_SEATS + n_at[t]++] = order[k];
        }
    }
    free(x);
}

bool tn_seat(const tn_costs *c, const int *order, int n_tables, const int *size, int full,
             const bool *short_pool, const int *klass, int *table_of)
{
    int m = c->m;
    if (n_tables <= 0)
        return true;
    if (full == 2 && m == 2 * n_tables)
        return seat_pairs(c, order, n_tables, table_of);
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
    /* local search: the first improving swap, until none; then a cycle of
     * three players out of a table that holds a repeat, and swaps again */
    long budget = CYCLE_BUDGET;
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
        if (!improved)
            improved = cycle_three(c, seats, n_tables, size, klass, &budget);
    }
    if (m <= EXACT_MAX && n_tables > 1)
        seat_exactly(c, order, n_tables, size, full, klass, seats);
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
