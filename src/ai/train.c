/*
 * train.c - fitting the learned evaluation (train.h).
 *
 * The games are played again at every Newton step instead of being kept
 * (a few million positions of 40 doubles would not fit the machine's
 * memory comfortably); a game depends only on its seed, so every step sees
 * the same positions. A step sums the gradient and the Hessian of the
 * cross-entropy (with soft targets: the reward is in [0, 1]) over every
 * position and solves for the change by Cholesky. Games of the teacher
 * (`strong`) cost a thousand times more: they are played once and their
 * positions kept, as floats.
 */
#include "train.h"

#include "evaluate.h"
#include "player.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PLIES 400
#define D         AI_FEATURES

typedef struct {
    double grad[D], hess[D][D];
    double loss, mse, hand_mse;
    long n;
} sums;

typedef struct {
    double x[MAX_PLIES * AX_MAX_PLAYERS][D];
    double hand[MAX_PLIES * AX_MAX_PLAYERS];
    uint8_t seat[MAX_PLIES * AX_MAX_PLAYERS];
    ai_scratch *scratch;
} game_buffer;

static uint64_t game_seed(uint64_t seed, long k) { return seed + (uint64_t)k; }

/* Plays game k into b; returns the positions; *end is the finished game. */
static int play_game(const ai_train_options *o, game_buffer *b, long k, ax_game *end)
{
    ax_game *g = end;
    uint64_t seed = game_seed(o->seed, k);
    ax_game_init(g, o->variant, o->players, AX_STANDARD, seed, NULL);
    ax_rng rng;
    ax_rng_seed(&rng, seed ^ 0x9e3779b97f4a7c15ull);
    ax_player *teacher[AX_MAX_PLAYERS] = {0};
    for (int s = 0; s < o->players && o->teacher_playouts > 0; s++) {
        teacher[s] = ax_player_new("strong", seed * AX_MAX_PLAYERS + (uint64_t)s);
        if (!teacher[s])
            return -1;
        ax_player_set_movetime(teacher[s], 0);
        ax_player_set_playouts(teacher[s], o->teacher_playouts);
    }
    int n = 0;
    for (int ply = 0; ply < MAX_PLIES && g->phase != AX_PHASE_OVER; ply++) {
        for (int s = 0; s < o->players; s++) {
            ai_features(g, s, b->x[n]);
            b->hand[n] = ai_estimate(g, s, &ai_default_params, 4.0);
            b->seat[n++] = (uint8_t)s;
        }
        ax_move mv;
        if (teacher[g->to_move])
            ax_player_decide(teacher[g->to_move], g, g->to_move, &mv);
        else
            ai_policy_move(g, &ai_default_params, &rng, b->scratch, &mv);
        ax_apply(g, &mv, NULL);
    }
    for (int s = 0; s < o->players; s++)
        ax_player_free(teacher[s]);
    return n;
}

/* One position into the sums. */
static void add_position(const ai_value_model *m, const double *x, double y, double hand,
                         bool hessian, sums *t)
{
    double p = ai_value_of(m, x);
    double pc = p < 1e-12 ? 1e-12 : p > 1 - 1e-12 ? 1 - 1e-12 : p;
    t->loss -= y * log(pc) + (1 - y) * log(1 - pc);
    t->mse += (p - y) * (p - y);
    t->hand_mse += (hand - y) * (hand - y);
    t->n++;
    if (!hessian)
        return;
    double r = p - y, w = p * (1 - p);
    for (int a = 0; a < D; a++) {
        t->grad[a] += r * x[a];
        double wa = w * x[a];
        if (wa != 0)
            for (int c = 0; c <= a; c++)
                t->hess[a][c] += wa * x[c];
    }
}

/* The teacher's positions, kept: features as floats, then the reward and
 * the hand-made estimate. */
typedef struct {
    float *rows; /* D + 2 per position */
    long n, cap;
} kept;

static int keep(kept *k, const double *x, double y, double hand)
{
    if (k->n == k->cap) {
        long cap = k->cap ? 2 * k->cap : 4096;
        float *grown = realloc(k->rows, (size_t)cap * (D + 2) * sizeof *grown);
        if (!grown)
            return -1;
        k->rows = grown;
        k->cap = cap;
    }
    float *r = k->rows + (size_t)k->n++ * (D + 2);
    for (int a = 0; a < D; a++)
        r[a] = (float)x[a];
    r[D] = (float)y;
    r[D + 1] = (float)hand;
    return 0;
}

/* Adds game k's positions to *t, or (teacher) to *store when not NULL. */
static int add_game(const ai_train_options *o, const ai_value_model *m, game_buffer *b, long k,
                    bool hessian, sums *t, kept *store)
{
    ax_game end;
    int n = play_game(o, b, k, &end);
    for (int i = 0; i < n; i++) {
        double y = ai_outcome(&end, b->seat[i]);
        if (store) {
            if (keep(store, b->x[i], y, b->hand[i]) != 0)
                return -1;
        } else {
            add_position(m, b->x[i], y, b->hand[i], hessian, t);
        }
    }
    return n < 0 ? -1 : 0;
}

static void add_kept(const ai_value_model *m, const kept *k, bool hessian, sums *t)
{
    double x[D];
    for (long i = 0; i < k->n; i++) {
        const float *r = k->rows + (size_t)i * (D + 2);
        for (int a = 0; a < D; a++)
            x[a] = r[a];
        add_position(m, x, r[D], r[D + 1], hessian, t);
    }
}

/* Solves H d = g by Cholesky (H symmetric positive definite, lower half
 * filled); returns -1 when it is not. */
static int solve(double h[D][D], const double *g, double *d)
{
    double l[D][D] = {{0}};
    for (int i = 0; i < D; i++)
        for (int j = 0; j <= i; j++) {
            double s = h[i][j];
            for (int k = 0; k < j; k++)
                s -= l[i][k] * l[j][k];
            if (i == j) {
                if (s <= 0)
                    return -1;
                l[i][i] = sqrt(s);
            } else {
                l[i][j] = s / l[j][j];
            }
        }
    double y[D];
    for (int i = 0; i < D; i++) {
        double s = g[i];
        for (int k = 0; k < i; k++)
            s -= l[i][k] * y[k];
        y[i] = s / l[i][i];
    }
    for (int i = D - 1; i >= 0; i--) {
        double s = y[i];
        for (int k = i + 1; k < D; k++)
            s -= l[k][i] * d[k];
        d[i] = s / l[i][i];
    }
    return 0;
}

static bool cancelled(const ai_train_options *o) { return o->cancel && atomic_load(o->cancel); }

int ai_train(const ai_train_options *o, ai_value_model *m, ai_train_report *r)
{
    game_buffer *b = calloc(1, sizeof *b);
    sums *t = calloc(1, sizeof *t);
    kept train = {0}, test = {0};
    if (!b || !t || !(b->scratch = ai_scratch_new())) {
        if (b)
            ai_scratch_free(b->scratch);
        free(b);
        free(t);
        return -1;
    }
    *m = (ai_value_model){.variant = o->variant, .players = o->players};
    *r = (ai_train_report){0};
    int rc = 0;
    bool teach = o->teacher_playouts > 0;
    for (long k = 0; teach && k < o->games + o->test_games && rc == 0; k++) {
        rc = add_game(o, m, b, k, false, t, k < o->games ? &train : &test);
        if (cancelled(o))
            rc = -1;
    }
    for (int step = 0; step < o->iterations && rc == 0; step++) {
        memset(t, 0, sizeof *t);
        if (teach)
            add_kept(m, &train, true, t);
        for (long k = 0; !teach && k < o->games && rc == 0; k++) {
            rc = add_game(o, m, b, k, true, t, NULL);
            if (cancelled(o))
                rc = -1;
        }
        if (rc)
            break;
        for (int a = 0; a < D; a++) {
            t->grad[a] += o->l2 * (double)t->n * m->w[a];
            t->hess[a][a] += o->l2 * (double)t->n;
        }
        double d[D];
        if (solve(t->hess, t->grad, d) != 0) {
            rc = -1;
            break;
        }
        for (int a = 0; a < D; a++)
            m->w[a] -= d[a];
        r->loss = t->loss / (double)t->n;
        r->positions = t->n;
        if (o->progress)
            o->progress(o->ctx, step + 1, r->loss);
    }
    if (rc == 0) {
        memset(t, 0, sizeof *t);
        if (teach)
            add_kept(m, &test, false, t);
        for (long k = 0; !teach && k < o->test_games; k++)
            add_game(o, m, b, o->games + k, false, t, NULL);
        r->test_positions = t->n;
        if (t->n) {
            r->test_loss = t->loss / (double)t->n;
            r->test_mse = t->mse / (double)t->n;
            r->hand_test_mse = t->hand_mse / (double)t->n;
        }
        /* the checks: positions of the held-out games' seeds, valued by the
           weights as the file will hold them (printed with %.17g: exact) */
        for (int i = 0; i < AI_VALUE_CHECKS; i++) {
            ai_value_check *c = &m->checks[i];
            c->seed = game_seed(o->seed, o->games + o->test_games + i);
            c->ply = 3 + 5 * i;
            c->seat = i % o->players;
            ax_game g;
            ai_value_check_position(o->variant, o->players, c->seed, c->ply, &g);
            c->value = ai_value(m, &g, c->seat);
        }
        m->nchecks = AI_VALUE_CHECKS;
    }
    ai_scratch_free(b->scratch);
    free(b);
    free(t);
    free(train.rows);
    free(test.rows);
    return rc;
}
