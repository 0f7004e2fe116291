/*
 * strong.c - the `strong` player: determinized Monte Carlo search, the
 * replies after each candidate searched as a tree.
 *
 * 1. The decision is taken from the seat's own view (rules 1.3): the other
 *    racks, the bag and the stacks are unknown.
 * 2. Candidates: every legal decision is previewed by the engine and valued
 *    by what it does to the seat's tracks (evaluate.c); the best few are
 *    kept, or (a tuning's pool) the learned value's best of a wider few.
 *    A swap offer has its two answers.
 * 3. Rounds: each round deals one random completion of the unknown tiles
 *    (ax_determinize) and plays every surviving candidate in it, followed
 *    by the same seeded greedy-ish playout, so the candidates meet the same
 *    luck and their difference is what they do.
 * 3a. The replies: the next decisions after a candidate (the opponent's
 *    reply, and with two plies the seat's own answer to it) are searched,
 *    not only played out: a tree under each candidate, as in information-
 *    set Monte Carlo tree search (Cowling, Powley & Whitehouse 2012). At a
 *    node the policy's best few decisions in this round's deal are the
 *    choices (the opponent's tiles differ from deal to deal, so a decision
 *    is known by where its symbols land); the one with the best upper
 *    confidence bound for the seat that makes it is taken, counting only
 *    the visits in which it was legal ("availability"). A candidate is
 *    thus judged against the replies that hurt it most, not against the
 *    policy's habits. Measured in docs/ai.md.
 * 4. Horizon: a playout stops after a number of plies and the position
 *    is judged there: by the learned value of value.h (2 players, where
 *    the build has weights) a few plies after the tree, else by the
 *    hand-made estimate of the tracks (ai_estimate) a third to most of a
 *    game on. The far end of a game played by the greedy-ish policy says
 *    more about the policy's luck than about the candidate, and the
 *    shorter playouts are more of them; measured in docs/ai.md.
 * 5. Sequential halving: after the first round has measured the speed, the
 *    field is cut to the candidates the budget can tell apart; the rest of
 *    the budget is cut into phases, and at the end of each the worse half
 *    of the candidates is dropped, so most playouts go to the close calls
 *    among the best.
 * 6. The search ends early when the leader is ahead of every other
 *    candidate by far more than the noise, since more playouts would
 *    rarely change the decision: time saved for a server. Expert's player
 *    turns this off (stop_early), since spending it all won more there.
 * The budget is checked after every playout.
 *
 * Judging (strong_judge) runs the same search around a decision already
 * taken: that decision joins the candidates and is never dropped, rounds
 * are played whole, playouts go to the end, and the reward is the
 * caller's (analysis.c: the chance to finish first), so the played
 * decision and the survivors are measured on the same deals and playouts
 * and their difference is not luck.
 */
#include "strong.h"

#include "evaluate.h"
#include "value.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CANDIDATES     STRONG_MAX_CANDIDATES
#define DEFAULT_CANDIDATES 16
#define SWAP_CANDIDATES    32 /* swap answers searched */
#define DEFAULT_SCALE      4.0
#define CHECK_EVERY        32 /* previews between two clock reads */
#define DEFAULT_TREE_PLIES 2
#define DEFAULT_REPLIES    6
#define DEFAULT_EXPLORE    0.1

/* Plies before the tracks are judged, per variant: by the hand-made
 * estimate about a third of a 2-player game in square, half in hex, most
 * of one in ROTA; by the learned value much earlier, when little more
 * than the tree has been played (docs/ai.md). */
static const int variant_horizon[] = {[AX_SQUARE] = 12, [AX_ROTA] = 16, [AX_HEX] = 20};
static const int learned_horizon[] = {[AX_SQUARE] = 4, [AX_ROTA] = 4, [AX_HEX] = 10};

typedef struct {
    ax_move move;
    float prior;    /* the heuristic value that chose it */
    double sum, sq; /* rewards of its playouts and their squares */
    long n;
    int tree; /* node of the position after it, or -1 */
} candidate;

/* A decision after a candidate, as the same decision is met in every deal
 * where it is legal: its tile's symbols where they land, not its rack index. */
typedef struct {
    uint64_t a, b;
} move_key;

/* A node of the tree under the candidates: the decision that leads to it,
 * made by `mover`, and its rewards for the mover. */
typedef struct {
    move_key key;
    int32_t child, sibling; /* -1: none */
    int32_t parent;         /* -1: a candidate's root */
    int32_t n, avail;       /* visits; visits of the parent where it was legal */
    double sum;
    uint8_t mover;
} tree_node;

#define TREE_MAX_NODES (1 << 20)
#define TREE_MAX_PLIES 4

struct strong_search {
    ax_game root, det, sim;
    ai_scratch *scratch;
    strong_tuning tune;
    ax_move moves[AX_MAX_MOVES];
    candidate cand[STRONG_MAX_POOL]; /* the pool while choosing, then the candidates */
    int ncand;
    int alive[MAX_CANDIDATES]; /* candidate indices still searched, best first */
    int nalive;
    strong_reward_fn reward;
    int pinned;        /* judging: the played decision's candidate index, else -1 */
    bool whole_rounds; /* judging: every round reaches every alive candidate */
    int horizon;       /* of this search's playouts: the tuning's, 0 when judging */
    int tree_plies;    /* of this search: the tuning's, 0 when judging */
    int candidates;    /* of this search: the tuning's for its variant, 16 when judging */
    tree_node *nodes;
    int nnodes, node_cap;
    /* the children by parent and key, open addressing (-1: empty; at
     * most half full): find_child without walking a parent's list, which
     * grows long under a candidate */
    int32_t *child_index;
    int index_cap;            /* a power of two, or 0 */
    ai_value_model models[3]; /* the shipped 2-player weights, by variant */
    bool has_model[3];
    const ai_value_model *value; /* of this search's game, or NULL: the hand-made judgement */
};

strong_search *strong_new(void)
{
    strong_search *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->scratch = ai_scratch_new();
    if (!s->scratch) {
        free(s);
        return NULL;
    }
    s->tune = (strong_tuning){.params = ai_default_params,
                              /* 32 in hex, where the prior's 17th to 32nd are often
                                 what the search wants and 300 ms is time enough to
                                 look at them (docs/ai.md "Levels"); in square and
                                 ROTA 32 were not worth it */
                              .candidates = {[AX_SQUARE] = 16, [AX_ROTA] = 16, [AX_HEX] = 32},
                              .horizon = STRONG_HORIZON_VARIANT,
                              .scale = DEFAULT_SCALE,
                              .tree_plies = DEFAULT_TREE_PLIES,
                              .replies = DEFAULT_REPLIES,
                              .explore = DEFAULT_EXPLORE,
                              .stop_early = true,
                              .learned = STRONG_LEARNED_HORIZON};
    for (int v = 0; v < 3; v++) {
        int found = ai_value_builtin(v, 2, &s->models[v], NULL, 0);
        if (found < 0) { /* a damaged shipped file: tests/ai/test_value.c names it */
            strong_free(s);
            return NULL;
        }
        s->has_model[v] = found == 1;
    }
    return s;
}

strong_tuning *strong_tune(strong_search *s) { return &s->tune; }

void strong_free(strong_search *s)
{
    if (!s)
        return;
    ai_scratch_free(s->scratch);
    free(s->nodes);
    free(s->child_index);
    free(s);
}

/* --- candidates --- */

static int total_points(const uint8_t *points)
{
    int sum = 0;
    for (int c = 0; c < AX_MAX_COLORS; c++)
        sum += points[c];
    return sum;
}

/* The heuristic value of a placement: its effect on the seat's tracks,
 * the raw points breaking ties as greedy does. */
static float placement_prior(const strong_search *s, const ax_move *m)
{
    const ax_game *g = &s->root;
    ax_preview pv;
    ax_preview_move(g, m, &pv);
    const uint8_t *before = g->track[ax_track_owner(g, g->to_move)];
    return ai_tracks_gain(g, before, pv.score, &s->tune.params) +
           0.001f * (float)total_points(pv.points);
}

/* Keeps cand[] sorted by prior, best first, at most `candidates`. */
static void offer_candidate(strong_search *s, const ax_move *m, float prior, int max)
{
    if (s->ncand == max && s->cand[max - 1].prior >= prior)
        return;
    int k = s->ncand < max ? s->ncand++ : max - 1;
    for (; k > 0 && s->cand[k - 1].prior < prior; k--)
        s->cand[k] = s->cand[k - 1];
    s->cand[k] = (candidate){.move = *m, .prior = prior, .tree = -1};
}

/* The learned evaluation's choice: the hand-made prior's best (the pool),
 * each valued by ai_value of the seat's view after it, the best
 * `candidates` of them kept. A pool no larger stays in the prior's order. */
static void order_by_value(strong_search *s, int seat)
{
    if (s->ncand <= s->candidates)
        return;
    for (int i = 0; i < s->ncand; i++) {
        ax_game_copy(&s->sim, &s->root);
        if (ax_apply(&s->sim, &s->cand[i].move, NULL) == AX_OK)
            s->cand[i].prior = (float)ai_value(s->value, &s->sim, seat);
    }
    for (int a = 1; a < s->ncand; a++)
        for (int b = a; b > 0 && s->cand[b - 1].prior < s->cand[b].prior; b--) {
            candidate t = s->cand[b];
            s->cand[b] = s->cand[b - 1];
            s->cand[b - 1] = t;
        }
    if (s->ncand > s->candidates)
        s->ncand = s->candidates;
}

static void select_candidates(strong_search *s, int nmoves, ai_budget *b)
{
    s->ncand = 0;
    if (s->root.phase == AX_PHASE_SWAP) {
        for (int i = 0; i < nmoves && i < SWAP_CANDIDATES; i++)
            s->cand[s->ncand++] = (candidate){.move = s->moves[i], .prior = (float)-i, .tree = -1};
        return;
    }
    int pool = s->tune.pool[s->root.variant];
    bool order = s->value && s->pinned < 0 && pool > s->candidates;
    int max = order ? (pool < STRONG_MAX_POOL ? pool : STRONG_MAX_POOL) : s->candidates;
    for (int i = 0; i < nmoves; i++) {
        if (i % CHECK_EVERY == CHECK_EVERY - 1 && ai_budget_over(b))
            break;
        offer_candidate(s, &s->moves[i], placement_prior(s, &s->moves[i]), max);
    }
    if (order)
        order_by_value(s, s->root.to_move);
}

/* --- the search --- */

static double mean_reward(const candidate *c) { return c->n ? c->sum / (double)c->n : -1.0; }

/* Orders alive[] by mean reward, best first; ties keep the prior's order. */
static void sort_alive(strong_search *s)
{
    for (int a = 1; a < s->nalive; a++)
        for (int b = a; b > 0; b--) {
            const candidate *prev = &s->cand[s->alive[b - 1]], *cur = &s->cand[s->alive[b]];
            double dp = mean_reward(prev), dc = mean_reward(cur);
            if (dp > dc || (dp == dc && s->alive[b - 1] < s->alive[b]))
                break;
            int t = s->alive[b];
            s->alive[b] = s->alive[b - 1];
            s->alive[b - 1] = t;
        }
}

#define MIN_PLAYOUTS_TO_STOP   32 /* per candidate, before stopping early */
#define MIN_PLAYOUTS_PER_PHASE 24 /* per candidate and halving phase */
#define STOP_SIGMAS            4

static double reward_variance(const candidate *c)
{
    double mean = c->sum / (double)c->n, var = c->sq / (double)c->n - mean * mean;
    return var > 0 ? var : 0;
}

/* Whether the best alive candidate leads every other by more than
 * STOP_SIGMAS standard errors (or nothing tells them apart at all). */
static bool clearly_decided(const strong_search *s)
{
    const candidate *lead = &s->cand[s->alive[0]];
    for (int a = 1; a < s->nalive; a++)
        if (mean_reward(&s->cand[s->alive[a]]) > mean_reward(lead))
            lead = &s->cand[s->alive[a]];
    if (lead->n < MIN_PLAYOUTS_TO_STOP)
        return false;
    for (int a = 0; a < s->nalive; a++) {
        const candidate *c = &s->cand[s->alive[a]];
        if (c == lead)
            continue;
        if (c->n < MIN_PLAYOUTS_TO_STOP)
            return false;
        double diff = mean_reward(lead) - mean_reward(c);
        double var = reward_variance(lead) / (double)lead->n + reward_variance(c) / (double)c->n;
        bool identical = diff == 0 && var == 0;
        if (!identical && (diff <= 0 || diff * diff <= STOP_SIGMAS * STOP_SIGMAS * var))
            return false;
    }
    return true;
}

static int phases_for(int n)
{
    int phases = 0;
    while ((1 << phases) < n)
        phases++;
    return phases > 0 ? phases : 1;
}

/* --- the tree under the candidates --- */

static move_key key_of(const ax_game *g, const ax_move *m)
{
    if (m->kind != AX_MOVE_PLACE)
        return (move_key){.a = 1 + (uint64_t)m->kind * 2 + (m->accept != 0)};
    ax_tile t = g->rack[g->to_move][m->rack_index];
    if (g->variant == AX_ROTA) {
        ax_tile r = ax_tile_rotate(t, m->rotation);
        uint64_t corners = 0;
        for (int i = 0; i < 4; i++)
            corners = corners << 8 | (uint8_t)r.sym[i];
        return (move_key){.a = (uint64_t)(uint16_t)m->x << 48 | (uint64_t)(uint16_t)m->y << 32 |
                               (uint64_t)(uint8_t)m->wild << 24 | 0x10,
                          .b = corners};
    }
    int c0 = m->cells[0], c1 = m->cells[1], s0 = (uint8_t)t.sym[0], s1 = (uint8_t)t.sym[1];
    if (c0 > c1) {
        int c = c0, sy = s0;
        c0 = c1, s0 = s1, c1 = c, s1 = sy;
    }
    return (move_key){
        .a = 0x20, .b = (uint64_t)c0 << 40 | (uint64_t)s0 << 32 | (uint64_t)c1 << 8 | (uint64_t)s1};
}

static bool key_equal(move_key x, move_key y) { return x.a == y.a && x.b == y.b; }

static unsigned child_slot(const strong_search *s, int parent, move_key key)
{
    uint64_t h = key.a * 0x9e3779b97f4a7c15ull ^ key.b * 0xc2b2ae3d27d4eb4full ^
                 (uint64_t)(uint32_t)parent * 0x165667b19e3779f9ull;
    h ^= h >> 29;
    return (unsigned)(h * 0xbf58476d1ce4e5b9ull >> 32) & (unsigned)(s->index_cap - 1);
}

static void index_put(strong_search *s, int node)
{
    unsigned at = child_slot(s, s->nodes[node].parent, s->nodes[node].key);
    while (s->child_index[at] >= 0)
        at = (at + 1) & (unsigned)(s->index_cap - 1);
    s->child_index[at] = node;
}

/* Room in the index for one more child: false when there is no memory
 * (then the tree stops growing, as when it is full). */
static bool index_room(strong_search *s)
{
    if (2 * (s->nnodes + 1) <= s->index_cap)
        return true;
    int cap = s->index_cap ? 2 * s->index_cap : 8192;
    int32_t *grown = malloc((size_t)cap * sizeof *grown);
    if (!grown)
        return false;
    free(s->child_index);
    s->child_index = grown;
    s->index_cap = cap;
    memset(grown, 0xff, (size_t)cap * sizeof *grown); /* all -1 */
    for (int n = 0; n < s->nnodes; n++)
        if (s->nodes[n].parent >= 0)
            index_put(s, n);
    return true;
}

static void index_clear(strong_search *s)
{
    if (s->child_index)
        memset(s->child_index, 0xff, (size_t)s->index_cap * sizeof *s->child_index);
}

/* A new node, or -1 when the tree is full. */
static int new_node(strong_search *s, move_key key, int mover, int parent)
{
    if (s->nnodes == s->node_cap) {
        if (s->node_cap >= TREE_MAX_NODES)
            return -1;
        int cap = s->node_cap ? 2 * s->node_cap : 4096;
        tree_node *grown = realloc(s->nodes, (size_t)cap * sizeof *grown);
        if (!grown)
            return -1;
        s->nodes = grown;
        s->node_cap = cap;
    }
    if (parent >= 0 && !index_room(s))
        return -1;
    s->nodes[s->nnodes] = (tree_node){
        .key = key, .child = -1, .sibling = -1, .parent = parent, .mover = (uint8_t)mover};
    if (parent >= 0)
        index_put(s, s->nnodes);
    return s->nnodes++;
}

static int find_child(const strong_search *s, int node, move_key key)
{
    int found = -1;
    if (s->index_cap)
        for (unsigned at = child_slot(s, node, key); s->child_index[at] >= 0;
             at = (at + 1) & (unsigned)(s->index_cap - 1)) {
            const tree_node *c = &s->nodes[s->child_index[at]];
            if (c->parent == node && key_equal(c->key, key)) {
                found = s->child_index[at];
                break;
            }
        }
#ifndef NDEBUG
    /* debug builds: the index finds what the parent's list holds */
    int listed = -1;
    for (int c = s->nodes[node].child; c >= 0 && listed < 0; c = s->nodes[c].sibling)
        if (key_equal(s->nodes[c].key, key))
            listed = c;
    assert(found == listed);
#endif
    return found;
}

static double upper_bound(const tree_node *c, double explore)
{
    return c->sum / c->n + explore * sqrt(log((double)c->avail) / c->n);
}

/* One step down from `node` in s->sim: the policy's best few decisions are
 * the ones searched here; the first never tried is tried, else the one
 * with the best upper bound for the seat to move (when the tree is full,
 * only the tried ones). Applies it and returns its node, or -1 (nothing
 * applied) when there is none. *grown says whether the node is new. */
static int descend(strong_search *s, int node, ax_rng *rng, bool *grown)
{
    ax_move moves[AI_MAX_REPLIES];
    ai_params exact = s->tune.params;
    exact.noise = 0;
    int n = ai_policy_moves(&s->sim, &exact, rng, s->scratch, s->tune.replies, moves);
    int best = -1, fresh = -1;
    move_key fresh_key = {0};
    double best_ub = -1e30;
    int seen[AI_MAX_REPLIES], nseen = 0;
    for (int i = 0; i < n; i++) {
        move_key key = key_of(&s->sim, &moves[i]);
        int c = find_child(s, node, key);
        if (c < 0) {
            if (fresh < 0)
                fresh = i, fresh_key = key;
            continue;
        }
        bool twice = false;
        for (int k = 0; k < nseen; k++)
            twice |= seen[k] == c;
        if (twice)
            continue;
        seen[nseen++] = c;
        tree_node *child = &s->nodes[c];
        child->avail++;
        double ub = upper_bound(child, s->tune.explore);
        if (ub > best_ub)
            best_ub = ub, best = c;
    }
    *grown = false;
    int pick = best;
    const ax_move *m = NULL;
    int added = fresh >= 0 ? new_node(s, fresh_key, s->sim.to_move, node) : -1;
    if (added >= 0) {
        pick = added;
        tree_node *child = &s->nodes[pick];
        child->sibling = s->nodes[node].child;
        s->nodes[node].child = pick;
        child->avail = 1;
        m = &moves[fresh];
        *grown = true;
    } else {
        if (pick < 0)
            return -1;
        for (int i = 0; i < n && !m; i++)
            if (key_equal(key_of(&s->sim, &moves[i]), s->nodes[pick].key))
                m = &moves[i];
    }
    if (ax_apply(&s->sim, m, NULL) != AX_OK)
        return -1; /* cannot happen: the policy's moves are checked */
    return pick;
}

static double reward_of(strong_search *s, int seat)
{
    if (s->horizon > 0 && s->value && (s->tune.learned & STRONG_LEARNED_HORIZON))
        return ai_value(s->value, &s->sim, seat);
    if (s->horizon > 0)
        return ai_estimate(&s->sim, seat, &s->tune.params, s->tune.scale);
    return s->reward(&s->sim, seat);
}

/* One playout of candidate c in the determinization s->det: down the tree
 * under it, then the policy. */
static double play_candidate(strong_search *s, candidate *c, int seat, uint64_t seed, ai_budget *b)
{
    ax_rng rng;
    ax_game_copy(&s->sim, &s->det);
    if (ax_apply(&s->sim, &c->move, NULL) != AX_OK)
        return 0; /* cannot happen: the candidate is legal in the view */
    ax_rng_seed(&rng, seed);
    int path[TREE_MAX_PLIES], depth = 0;
    if (s->tree_plies > 0 && c->tree < 0)
        c->tree = new_node(s, (move_key){0}, seat, -1);
    for (int node = c->tree; node >= 0 && depth < s->tree_plies && s->sim.phase != AX_PHASE_OVER;) {
        bool grown;
        node = descend(s, node, &rng, &grown);
        if (node < 0)
            break;
        path[depth++] = node;
        if (grown)
            break;
    }
    b->plies += depth;
    if (s->horizon > 0)
        b->plies += ai_playout_plies(&s->sim, &s->tune.params, &rng, s->scratch,
                                     s->horizon > depth ? s->horizon - depth : 0);
    else
        b->plies += ai_playout(&s->sim, &s->tune.params, &rng, s->scratch);
    double mine = reward_of(s, seat);
    if (c->tree >= 0)
        s->nodes[c->tree].n++;
    for (int d = 0; d < depth; d++) {
        tree_node *t = &s->nodes[path[d]];
        t->n++;
        t->sum += t->mover == seat ? mine : reward_of(s, t->mover);
    }
    return mine;
}

/* Plays one round: one deal of the unknown tiles, every alive candidate
 * played in it, as far as the budget allows (judging: to the end). */
static void play_round(strong_search *s, int seat, ai_budget *b, ax_rng *rng)
{
    uint64_t deal = ax_rng_next(rng), seed = ax_rng_next(rng);
    ax_determinize(&s->root, deal, &s->det);
    for (int a = 0; a < s->nalive && (s->whole_rounds || !ai_budget_over(b)); a++) {
        candidate *c = &s->cand[s->alive[a]];
        double reward = play_candidate(s, c, seat, seed, b);
        c->sum += reward;
        c->sq += reward * reward;
        c->n++;
        b->playouts++;
    }
}

/* The most candidates (by prior) that the rest of the budget can tell
 * apart: each must get MIN_PLAYOUTS_PER_PHASE in every halving phase. */
static int affordable_candidates(int n, double playouts_left)
{
    while (n > 2 && playouts_left < (double)MIN_PLAYOUTS_PER_PHASE * n * phases_for(n))
        n--;
    return n;
}

/* Judging: puts the played decision back among the alive candidates when
 * a cut left it out. */
static void keep_pinned(strong_search *s)
{
    if (s->pinned < 0)
        return;
    for (int a = 0; a < s->nalive; a++)
        if (s->alive[a] == s->pinned)
            return;
    s->alive[s->nalive++] = s->pinned;
}

/* Judging stops early only when more playouts cannot change any value:
 * every alive candidate had the same reward in every playout so far (a
 * game already decided). */
static bool values_certain(const strong_search *s)
{
    const candidate *first = &s->cand[s->alive[0]];
    if (first->n < MIN_PLAYOUTS_TO_STOP)
        return false;
    for (int a = 0; a < s->nalive; a++) {
        const candidate *c = &s->cand[s->alive[a]];
        if (c->sum != first->sum || reward_variance(c) != 0)
            return false;
    }
    return true;
}

/* Plays rounds until the budget ends; halves the field at each phase end.
 * The first round measures the speed, and the field is cut to what the
 * budget can afford. */
static void run_rounds(strong_search *s, int seat, ai_budget *b, ax_rng *rng)
{
    s->nalive = s->ncand;
    for (int i = 0; i < s->ncand; i++)
        s->alive[i] = i;
    double start = ai_seconds();
    long before = b->playouts;
    play_round(s, seat, b, rng);
    double spent = ai_seconds() - start, rate = (double)(b->playouts - before) / (spent + 1e-6);
    s->nalive = affordable_candidates(s->nalive, ai_budget_playouts_left(b, rate));
    keep_pinned(s);
    int phases = phases_for(s->nalive), phase = 0;
    double from = ai_seconds();
    long playouts_from = b->playouts;
    while (!ai_budget_over(b)) {
        play_round(s, seat, b, rng);
        if (s->whole_rounds ? values_certain(s) : s->tune.stop_early && clearly_decided(s))
            break;
        if (s->nalive > 1 &&
            ai_budget_progress(b, from, playouts_from) >= (double)(phase + 1) / phases) {
            sort_alive(s);
            s->nalive = (s->nalive + 1) / 2;
            keep_pinned(s);
            phase++;
        }
    }
    sort_alive(s);
}

void strong_decide(strong_search *s, const ax_game *game, int seat, ai_budget *b, ax_rng *rng,
                   ax_move *out)
{
    s->reward = ai_outcome;
    bool two = game->players == 2 && game->mode == AX_STANDARD;
    s->value = two && s->has_model[game->variant] ? &s->models[game->variant] : NULL;
    bool learned = s->value && (s->tune.learned & STRONG_LEARNED_HORIZON);
    s->horizon = s->tune.horizon != STRONG_HORIZON_VARIANT ? s->tune.horizon
                 : learned                                 ? learned_horizon[game->variant]
                                                           : variant_horizon[game->variant];
    if (game->mode == AX_SOLO)
        s->horizon = 0; /* the result is known only at the end */
    s->tree_plies = s->tune.tree_plies < TREE_MAX_PLIES ? s->tune.tree_plies : TREE_MAX_PLIES;
    if (game->mode == AX_SOLO)
        s->tree_plies = 0; /* no opponent's replies to search */
    s->candidates = s->tune.candidates[game->variant];
    s->nnodes = 0;
    index_clear(s);
    s->pinned = -1;
    s->whole_rounds = false;
    ax_view(game, seat, &s->root);
    int n = ax_legal_moves(&s->root, s->moves, AX_MAX_MOVES);
    *out = s->moves[0];
    if (n <= 1)
        return;
    select_candidates(s, n, b);
    if (s->ncand == 0)
        return;
    *out = s->cand[0].move;
    if (s->ncand == 1)
        return;
    run_rounds(s, seat, b, rng);
    *out = s->cand[s->alive[0]].move;
    /* a server keeps a search per computer seat: no tree between decisions */
    free(s->nodes);
    s->nodes = NULL;
    s->nnodes = s->node_cap = 0;
    free(s->child_index);
    s->child_index = NULL;
    s->index_cap = 0;
}

/* --- judging a decision taken --- */

/* Whether two decisions of the seat to move in g do the same thing: the
 * same tile on the same cells (any copy of it, either way round for a
 * domino), or the same swap answer. */
static bool same_decision(const ax_game *g, const ax_move *a, const ax_move *b)
{
    if (a->kind != b->kind)
        return false;
    if (a->kind == AX_MOVE_SWAP)
        return !a->accept == !b->accept;
    ax_tile ta = g->rack[g->to_move][a->rack_index], tb = g->rack[g->to_move][b->rack_index];
    if (g->variant == AX_ROTA)
        return a->x == b->x && a->y == b->y && a->wild == b->wild &&
               ax_tile_equal(ax_tile_rotate(ta, a->rotation), ax_tile_rotate(tb, b->rotation));
    bool same = ta.sym[0] == tb.sym[0] && ta.sym[1] == tb.sym[1] && a->cells[0] == b->cells[0] &&
                a->cells[1] == b->cells[1];
    bool turned = ta.sym[0] == tb.sym[1] && ta.sym[1] == tb.sym[0] && a->cells[0] == b->cells[1] &&
                  a->cells[1] == b->cells[0];
    return same || turned;
}

/* Makes the played decision a candidate (in place of the last one when
 * the list is full) and returns its index. */
static int add_played(strong_search *s, const ax_move *played)
{
    for (int i = 0; i < s->ncand; i++)
        if (same_decision(&s->root, &s->cand[i].move, played))
            return i;
    int k = s->ncand < MAX_CANDIDATES ? s->ncand++ : MAX_CANDIDATES - 1;
    s->cand[k] = (candidate){.move = *played, .prior = -1e30f, .tree = -1};
    return k;
}

static strong_value value_of(const strong_search *s, const candidate *c)
{
    return (strong_value){
        .move = c->move, .value = mean_reward(c), .samples = c->n, .index = (int)(c - s->cand)};
}

int strong_judge(strong_search *s, const ax_game *game, int seat, const ax_move *played,
                 strong_reward_fn reward, ai_budget *b, ax_rng *rng, strong_value *played_out,
                 strong_value *best_out)
{
    s->reward = reward;
    s->horizon = 0;
    s->tree_plies = 0;
    s->candidates = DEFAULT_CANDIDATES;
    s->whole_rounds = true;
    s->value = NULL; /* the judge plays to the end: it needs no estimate */
    s->pinned = -1;
    ax_view(game, seat, &s->root);
    int n = ax_legal_moves(&s->root, s->moves, AX_MAX_MOVES);
    select_candidates(s, n, b);
    s->pinned = played ? add_played(s, played) : -1;
    run_rounds(s, seat, b, rng);
    const candidate *best = &s->cand[s->alive[0]];
    const candidate *mine = played ? &s->cand[s->pinned] : best;
    if (mean_reward(mine) >= mean_reward(best))
        best = mine;
    *played_out = value_of(s, mine);
    *best_out = value_of(s, best);
    return s->ncand;
}
