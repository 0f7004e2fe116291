/*
 * train.c - fitting the learned evaluation (train.h).
 *
 * Every position of every game, seen by each seat, becomes a row: its
 * features (as floats, the very inputs inference gets) and that seat's
 * reward at the game's end. The rows are kept in memory (a few hundred
 * megabytes for 20,000 games) and the network is fitted to them by
 * minibatch gradient descent with Adam on the cross-entropy (soft targets:
 * the reward is in [0, 1]), the learning rate falling linearly to zero.
 * Everything random (the first weights, the order of the rows) comes from
 * one generator seeded by the options, and the sums run in one thread in
 * a fixed order, so the same options give the same weights, bit for bit,
 * on the same build. The games may be played by several threads (jobs):
 * each game's rows are kept apart and joined in the games' order, so the
 * number of jobs changes the time, never the weights.
 */
#include "train.h"

#include "evaluate.h"
#include "player.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PLIES 400
#define D         AI_FEATURES
#define H         AI_VALUE_HIDDEN
#define ROW       (D + 2) /* features, reward, the hand-made estimate */
#define BATCH     256
#define RATE      0.003

/* The rows, grown as games are played. */
typedef struct {
    float *rows;
    long n, cap;
} kept;

static int keep(kept *k, const float *x, double y, double hand)
{
    if (k->n == k->cap) {
        long cap = k->cap ? 2 * k->cap : 1 << 9; /* a game has a few hundred */
        float *grown = realloc(k->rows, (size_t)cap * ROW * sizeof *grown);
        if (!grown)
            return -1;
        k->rows = grown;
        k->cap = cap;
    }
    float *r = k->rows + (size_t)k->n++ * ROW;
    memcpy(r, x, D * sizeof *r);
    r[D] = (float)y;
    r[D + 1] = (float)hand;
    return 0;
}

static uint64_t game_seed(uint64_t seed, long k) { return seed + (uint64_t)k; }

/* Plays game k and keeps its rows in *k. */
static int play_game(const ai_train_options *o, ai_scratch *scratch, long index, kept *k)
{
    static const int per_game = MAX_PLIES * AX_MAX_PLAYERS;
    float(*x)[D] = malloc(per_game * sizeof *x);
    float *hand = malloc(per_game * sizeof *hand);
    uint8_t *seat = malloc(per_game);
    ax_player *teacher[AX_MAX_PLAYERS] = {0};
    int n = 0, rc = x && hand && seat ? 0 : -1;
    ax_game g;
    uint64_t seed = game_seed(o->seed, index);
    ax_game_init(&g, o->variant, o->players, AX_STANDARD, seed, NULL);
    ax_rng rng;
    ax_rng_seed(&rng, seed ^ 0x9e3779b97f4a7c15ull);
    for (int s = 0; s < o->players && o->teacher_playouts > 0 && rc == 0; s++) {
        teacher[s] = ax_player_new("strong", seed * AX_MAX_PLAYERS + (uint64_t)s);
        if (!teacher[s]) {
            rc = -1;
            break;
        }
        ax_player_set_movetime(teacher[s], 0);
        ax_player_set_playouts(teacher[s], o->teacher_playouts);
    }
    for (int ply = 0; rc == 0 && ply < MAX_PLIES && g.phase != AX_PHASE_OVER; ply++) {
        for (int s = 0; s < o->players; s++) {
            ai_features(&g, s, x[n]);
            hand[n] = (float)ai_estimate(&g, s, &ai_default_params, 4.0);
            seat[n++] = (uint8_t)s;
        }
        ax_move mv;
        if (teacher[g.to_move])
            ax_player_decide(teacher[g.to_move], &g, g.to_move, &mv);
        else
            ai_policy_move(&g, &ai_default_params, &rng, scratch, &mv);
        ax_apply(&g, &mv, NULL);
    }
    for (int i = 0; i < n && rc == 0; i++)
        rc = keep(k, x[i], ai_outcome(&g, seat[i]), hand[i]);
    for (int s = 0; s < o->players; s++)
        ax_player_free(teacher[s]);
    free(x);
    free(hand);
    free(seat);
    return rc;
}

static bool cancelled(const ai_train_options *o) { return o->cancel && atomic_load(o->cancel); }

/* The weights as one vector, for Adam. */
#define NPARAM (D + H * D + H)

/* Parameter i of m, to change: m's transposed copy is no longer ready. */
static float *param(ai_value_model *m, int i)
{
    m->ready = false;
    if (i < D)
        return &m->lin[i];
    if (i < D + H * D)
        return &m->hid[(i - D) / D][(i - D) % D];
    return &m->out[i - D - H * D];
}

typedef struct {
    double grad[NPARAM], m1[NPARAM], m2[NPARAM];
    long t;
} adam;

static double clamp_log(double p) { return log(p < 1e-12 ? 1e-12 : p > 1 - 1e-12 ? 1 - 1e-12 : p); }

/* Adds one row's gradient of the cross-entropy; returns its loss. */
static double add_gradient(const ai_value_model *m, const float *r, double *g)
{
    float h[H];
    double p = ai_value_forward(m, r, h), y = r[D], e = p - y;
    for (int i = 0; i < D; i++)
        g[i] += e * r[i];
    for (int j = 0; j < H; j++) {
        g[D + H * D + j] += e * h[j];
        double back = e * m->out[j] * (1.0 - (double)h[j] * h[j]);
        double *gj = g + D + j * D;
        for (int i = 0; i < D; i++)
            gj[i] += back * r[i];
    }
    return -(y * clamp_log(p) + (1 - y) * clamp_log(1 - p));
}

static void adam_step(adam *a, ai_value_model *m, int rows, double rate, double l2)
{
    const double b1 = 0.9, b2 = 0.999;
    a->t++;
    double c1 = 1 - pow(b1, (double)a->t), c2 = 1 - pow(b2, (double)a->t);
    for (int i = 0; i < NPARAM; i++) {
        float *w = param(m, i);
        double g = a->grad[i] / rows + l2 * *w;
        a->m1[i] = b1 * a->m1[i] + (1 - b1) * g;
        a->m2[i] = b2 * a->m2[i] + (1 - b2) * g * g;
        *w -= (float)(rate * (a->m1[i] / c1) / (sqrt(a->m2[i] / c2) + 1e-8));
    }
}

static double uniform(ax_rng *rng, double half)
{
    return ((double)(ax_rng_next(rng) >> 11) / 9007199254740992.0 * 2 - 1) * half;
}

static void first_weights(ai_value_model *m, ax_rng *rng)
{
    m->ready = false;
    for (int j = 0; j < H; j++) {
        for (int i = 0; i < D; i++)
            m->hid[j][i] = (float)uniform(rng, 1.0 / sqrt((double)D));
        m->out[j] = (float)uniform(rng, 0.1);
    }
}

static void evaluate_rows(const ai_value_model *m, const kept *k, ai_train_report *r)
{
    double loss = 0, mse = 0, hand = 0;
    for (long i = 0; i < k->n; i++) {
        const float *row = k->rows + (size_t)i * ROW;
        double p = ai_value_of(m, row), y = row[D];
        loss -= y * clamp_log(p) + (1 - y) * clamp_log(1 - p);
        mse += (p - y) * (p - y);
        hand += (row[D + 1] - y) * (row[D + 1] - y);
    }
    r->test_positions = k->n;
    if (k->n) {
        r->test_loss = loss / (double)k->n;
        r->test_mse = mse / (double)k->n;
        r->hand_test_mse = hand / (double)k->n;
    }
}

static int fit(const ai_train_options *o, ai_value_model *m, const kept *train, ai_train_report *r)
{
    adam *a = calloc(1, sizeof *a);
    long *order = malloc((size_t)(train->n ? train->n : 1) * sizeof *order);
    if (!a || !order) {
        free(a);
        free(order);
        return -1;
    }
    ax_rng rng;
    ax_rng_seed(&rng, o->seed ^ 0x5851f42d4c957f2dull);
    first_weights(m, &rng);
    for (long i = 0; i < train->n; i++)
        order[i] = i;
    long batches = (train->n + BATCH - 1) / BATCH, total = batches * o->iterations, done = 0;
    int rc = 0;
    for (int epoch = 0; epoch < o->iterations && rc == 0; epoch++) {
        for (long i = train->n - 1; i > 0; i--) {
            long j = (long)(ax_rng_next(&rng) % (uint64_t)(i + 1)), t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        double loss = 0;
        for (long b = 0; b < batches && rc == 0; b++, done++) {
            long from = b * BATCH, to = from + BATCH < train->n ? from + BATCH : train->n;
            memset(a->grad, 0, sizeof a->grad);
            for (long i = from; i < to; i++)
                loss += add_gradient(m, train->rows + (size_t)order[i] * ROW, a->grad);
            adam_step(a, m, (int)(to - from), RATE * (1 - (double)done / (double)total), o->l2);
            if (b % 1024 == 1023 && cancelled(o))
                rc = -1;
        }
        r->loss = loss / (double)(train->n ? train->n : 1);
        if (o->progress && rc == 0)
            o->progress(o->ctx, epoch + 1, r->loss);
    }
    free(a);
    free(order);
    return rc;
}

/* Games are played a block at a time by the jobs, each game into its own
 * rows, and the block joined in order: the memory of one block beyond the
 * rows kept. */
#define BLOCK_GAMES 256

typedef struct {
    const ai_train_options *o;
    long from, to;
    kept *games; /* games[k - from]: the rows of game k */
    atomic_long next;
    atomic_bool failed;
} block;

static void *play_block(void *arg)
{
    block *b = arg;
    ai_scratch *scratch = ai_scratch_new();
    if (!scratch) {
        atomic_store(&b->failed, true);
        return NULL;
    }
    for (long k; !atomic_load(&b->failed) && (k = atomic_fetch_add(&b->next, 1)) < b->to;)
        if (play_game(b->o, scratch, k, &b->games[k - b->from]) != 0 || cancelled(b->o))
            atomic_store(&b->failed, true);
    ai_scratch_free(scratch);
    return NULL;
}

static int append(kept *to, const kept *from)
{
    for (long i = 0; i < from->n; i++) {
        const float *r = from->rows + (size_t)i * ROW;
        if (keep(to, r, r[D], r[D + 1]) != 0)
            return -1;
    }
    return 0;
}

/* Plays every game, training and held out, on o->jobs threads. */
static int play_games(const ai_train_options *o, kept *train, kept *test)
{
    int jobs = o->jobs > 1 ? o->jobs : 1;
    long all = o->games + o->test_games;
    kept *games = calloc(BLOCK_GAMES, sizeof *games);
    pthread_t *threads = calloc((size_t)jobs, sizeof *threads);
    int rc = games && threads ? 0 : -1;
    for (long from = 0; from < all && rc == 0; from += BLOCK_GAMES) {
        block b = {.o = o,
                   .from = from,
                   .to = from + BLOCK_GAMES < all ? from + BLOCK_GAMES : all,
                   .games = games};
        atomic_init(&b.next, from);
        atomic_init(&b.failed, false);
        int started = 0;
        for (; started < jobs - 1; started++)
            if (pthread_create(&threads[started], NULL, play_block, &b) != 0)
                break;
        play_block(&b);
        for (int t = 0; t < started; t++)
            pthread_join(threads[t], NULL);
        rc = atomic_load(&b.failed) ? -1 : 0;
        for (long k = b.from; k < b.to; k++) {
            kept *g = &games[k - b.from];
            if (rc == 0)
                rc = append(k < o->games ? train : test, g);
            free(g->rows);
            *g = (kept){0};
        }
    }
    free(games);
    free(threads);
    return rc;
}

int ai_train(const ai_train_options *o, ai_value_model *m, ai_train_report *r)
{
    kept train = {0}, test = {0};
    *m = (ai_value_model){.variant = o->variant, .players = o->players};
    *r = (ai_train_report){0};
    int rc = play_games(o, &train, &test);
    r->positions = train.n;
    if (rc == 0)
        rc = fit(o, m, &train, r);
    if (rc == 0) {
        evaluate_rows(m, &test, r);
        /* the checks: positions of the seeds after the held-out games,
           valued by the weights as the file holds them (floats written
           exactly, the value with %.17g) */
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
    free(train.rows);
    free(test.rows);
    return rc;
}
