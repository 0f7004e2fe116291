/*
 * seating.h - what swiss.c and arena.c share (private to src/tournament/):
 * the cost of seating two players together, and the search that splits
 * players into tables of given sizes at the least total cost.
 */
#ifndef AXIO_TOURNAMENT_SEATING_H
#define AXIO_TOURNAMENT_SEATING_H

#include "tournament.h"

/* A pairing problem over m players (local indexes 0..m-1). cost[a * m + b]
 * is what seating a and b at one table costs (symmetric, cost[a*m+a] = 0):
 * a repeat weighs more than any sum of score gaps, a score gap more than any
 * sum of rating-order terms (tn_costs_build). */
typedef struct {
    int m;
    int64_t *cost;
} tn_costs;

/* Fills c (allocating c->cost; false if out of memory) for the players
 * who[0..m-1] (indexes into players). repeats[a * m + b]: how often a and b
 * met (0 for never). pairs: the pairs that the tables will hold (bounds the
 * totals so that the three levels never mix). rating_order: add the
 * rating-order term of 2-player Swiss (top half of a score group meets the
 * bottom half). */
/* order[0..m-1]: the local indexes 0..m-1 of the players who[] best first
 * (score, then rating, then the lower id). false: out of memory. */
bool tn_rank_order(const tn_player *players, const int *who, int m, int *order);

bool tn_costs_build(tn_costs *c, const tn_player *players, const int *who, int m,
                    const uint8_t *repeats, int pairs, bool rating_order);
void tn_costs_free(tn_costs *c);

/* Seats m players at tables: size[t] players at table t (sum = m), `full` at a
 * table that is not short. order:
 * the players best first (the greedy start fills tables down this order);
 * short_pool[a]: a belongs at a table smaller than the largest (its turn
 * for a short table); klass[a]: players of one class may trade a full seat
 * for a short one (NULL: none may). Greedy start, then swaps of two players
 * between tables while one lowers the total cost. table_of[a] is written;
 * tables are numbered by their best player in `order`. false: out of memory. */
bool tn_seat(const tn_costs *c, const int *order, int n_tables, const int *size, int full,
             const bool *short_pool, const int *klass, int *table_of);

/* Perfect matching of the m players (m even) of least total cost
 * (Edmonds' blossom algorithm with weights, O(m^3)): mate[a] = partner.
 * false: out of memory. */
bool tn_match(const tn_costs *c, int *mate);

#endif
