/*
 * test_analysis.c - the post-game analysis (src/ai/analysis.c): judgements
 * are honest (two games that differ only in tiles the judged seat could not
 * see get the same judgement, both for a single position and for a whole
 * game whose variant record stays consistent), reproducible from the seed,
 * never report a best below the decision played, tell a random decision
 * from a greedy one, reject decisions that do not apply and stop when
 * cancelled. The hint is the judge's best (judged, it is no mistake), and a
 * mistake is a loss clearly above the threshold, flagged alike by two seeds. Games are played by
 * `greedy` with fixed seeds and judged with small fixed playout counts, so every run is the same.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis.h"
#include "player.h"

#define MAX_DECISIONS 512

/* A game as the server keeps it: its start and every decision. */
typedef struct {
    ax_game start, end;
    ax_move moves[MAX_DECISIONS];
    int n;
} played_game;

/* Continues g with greedy players to its end, appending the decisions. */
static void finish_with_greedy(played_game *pg, ax_game *g, uint64_t seed)
{
    ax_player *p = ax_player_new("greedy", seed);
    ax_game view;
    while (g->phase != AX_PHASE_OVER) {
        assert_true(pg->n < MAX_DECISIONS);
        ax_move m;
        ax_view(g, g->to_move, &view);
        ax_player_decide(p, &view, g->to_move, &m);
        assert_int_equal(ax_apply(g, &m, NULL), AX_OK);
        pg->moves[pg->n++] = m;
    }
    ax_player_free(p);
    pg->end = *g;
}

static played_game *greedy_game(int variant, int players, int mode, uint64_t seed)
{
    played_game *pg = calloc(1, sizeof *pg);
    assert_non_null(pg);
    assert_int_equal(ax_game_init(&pg->start, variant, players, mode, seed, NULL), AX_OK);
    ax_game g = pg->start;
    finish_with_greedy(pg, &g, seed);
    return pg;
}

static ai_analysis_options budget_of(long playouts, uint64_t seed)
{
    return (ai_analysis_options){.playouts = playouts, .seed = seed};
}

/* Field by field: a struct copy need not copy padding. */
static void assert_same_move(const ax_move *a, const ax_move *b)
{
    assert_int_equal(a->kind, b->kind);
    assert_int_equal(a->rack_index, b->rack_index);
    assert_int_equal(a->rotation, b->rotation);
    assert_int_equal(a->accept, b->accept);
    assert_int_equal(a->wild, b->wild);
    assert_int_equal(a->cells[0], b->cells[0]);
    assert_int_equal(a->cells[1], b->cells[1]);
    assert_int_equal(a->x, b->x);
    assert_int_equal(a->y, b->y);
}

static void assert_same_judgement(const ai_judgement *a, const ai_judgement *b)
{
    assert_int_equal(a->ply, b->ply);
    assert_int_equal(a->seat, b->seat);
    assert_int_equal(a->kind, b->kind);
    assert_same_move(&a->played, &b->played);
    assert_same_move(&a->best, &b->best);
    assert_int_equal(a->best_is_played, b->best_is_played);
    assert_true(a->value_played == b->value_played);
    assert_true(a->value_best == b->value_best);
    assert_int_equal(a->samples, b->samples);
    assert_int_equal(a->candidates, b->candidates);
}

/* --- the value of a finished game --- */

static void set_tracks(ax_game *g, int owner, int low)
{
    for (int c = 0; c < g->ncolors; c++)
        g->track[owner][c] = (uint8_t)(low + c);
}

static void test_value_is_the_share_of_first_place(void **state)
{
    (void)state;
    ax_game g;
    ax_game_init(&g, AX_HEX, 3, AX_STANDARD, 1, NULL);
    set_tracks(&g, 0, 9);
    set_tracks(&g, 1, 7);
    set_tracks(&g, 2, 9);
    assert_true(ai_decision_value(&g, 0) == 0.5); /* shares first with seat 2 */
    assert_true(ai_decision_value(&g, 2) == 0.5);
    assert_true(ai_decision_value(&g, 1) == 0.0);
    set_tracks(&g, 2, 8);
    assert_true(ai_decision_value(&g, 0) == 1.0);

    ax_game_init(&g, AX_HEX, 4, AX_TEAM, 1, NULL);
    set_tracks(&g, 0, 10);
    set_tracks(&g, 1, 8);
    assert_true(ai_decision_value(&g, 2) == 1.0); /* partners win together */
    assert_true(ai_decision_value(&g, 3) == 0.0);

    ax_game_init(&g, AX_SQUARE, 1, AX_SOLO, 1, NULL);
    set_tracks(&g, 0, 14);
    assert_true(ai_decision_value(&g, 0) == (double)ax_solo_result(&g));
}

/* --- honesty: a single position --- */

/* Pointers to every tile `seat` may not see in g. */
static int hidden_tiles(ax_game *g, int seat, ax_tile *out[AX_MAX_TILES])
{
    int n = 0;
    for (int i = 0; i < g->bag_n; i++)
        out[n++] = &g->bag[i];
    for (int s = 0; s < g->players; s++) {
        for (int i = 0; i < g->stack_n[s]; i++)
            out[n++] = &g->stack[s][i];
        for (int i = 0; s != seat && i < g->rack_n[s]; i++)
            out[n++] = &g->rack[s][i];
    }
    return n;
}

/* A copy of g with its hidden tiles moved round by one place; false when
 * that changes nothing. */
static bool redeal_hidden(const ax_game *g, ax_game *out)
{
    *out = *g;
    ax_tile *slot[AX_MAX_TILES];
    int n = hidden_tiles(out, g->to_move, slot);
    if (n < 2)
        return false;
    ax_tile first = *slot[0];
    for (int i = 0; i + 1 < n; i++)
        *slot[i] = *slot[i + 1];
    *slot[n - 1] = first;
    return memcmp(out->bag, g->bag, sizeof g->bag) || memcmp(out->rack, g->rack, sizeof g->rack) ||
           memcmp(out->stack, g->stack, sizeof g->stack);
}

static void test_position_judged_from_the_view(void **state)
{
    (void)state;
    static const struct {
        int variant, players, mode, ply;
    } cases[] = {{AX_HEX, 2, AX_STANDARD, 6},    {AX_SQUARE, 2, AX_STANDARD, 9},
                 {AX_ROTA, 2, AX_STANDARD, 5},   {AX_HEX, 4, AX_TEAM, 7},
                 {AX_SQUARE, 3, AX_STANDARD, 4}, {AX_ROTA, 1, AX_SOLO, 3}};
    ai_analyser *a = ai_analyser_new(), *b = ai_analyser_new();
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        played_game *pg = greedy_game(cases[k].variant, cases[k].players, cases[k].mode, 11);
        assert_true(pg->n > cases[k].ply);
        ax_game before = pg->start, other;
        for (int i = 0; i < cases[k].ply; i++)
            ax_apply(&before, &pg->moves[i], NULL);
        assert_true(redeal_hidden(&before, &other));
        ai_analysis_options opt = budget_of(150, 3);
        ai_judgement ja, jb;
        assert_int_equal(ai_judge_decision(a, &before, &pg->moves[cases[k].ply], &opt, &ja), 0);
        assert_int_equal(ai_judge_decision(b, &other, &pg->moves[cases[k].ply], &opt, &jb), 0);
        assert_same_judgement(&ja, &jb);
        free(pg);
    }
    ai_analyser_free(a);
    ai_analyser_free(b);
}

/* --- honesty: two consistent records --- */

/* The game after the first `ply` decisions of pg, dealt from `start`;
 * false when one of them does not apply there. */
static bool replay_prefix(const played_game *pg, const ax_game *start, int ply, ax_game *out)
{
    *out = *start;
    for (int i = 0; i < ply; i++)
        if (ax_apply(out, &pg->moves[i], NULL) != AX_OK)
            return false;
    return true;
}

static bool views_equal(const ax_game *a, const ax_game *b, int seat)
{
    static ax_game va, vb;
    memset(&va, 0, sizeof va);
    memset(&vb, 0, sizeof vb);
    ax_view(a, seat, &va);
    ax_view(b, seat, &vb);
    return memcmp(&va, &vb, sizeof va) == 0;
}

/* The tiles of a start that are dealt by ply `ply`: the racks, and the
 * top of the bag down to `undrawn`. */
static int dealt_tiles(ax_game *start, int undrawn, ax_tile *out[AX_MAX_TILES])
{
    int n = 0;
    for (int s = 0; s < start->players; s++)
        for (int i = 0; i < start->rack_n[s]; i++)
            out[n++] = &start->rack[s][i];
    for (int i = undrawn; i < start->bag_n; i++)
        out[n++] = &start->bag[i];
    return n;
}

/* A start that deals the same game as pg->start up to ply `ply` as `seat`
 * sees it, yet different tiles where the seat cannot look: an opponent
 * holds other tiles, and the bag lies in another order. Found by trying
 * exchanges of a dealt tile with one nobody drew yet, each kept only when
 * the first `ply` decisions still apply and the seat's view at `ply` is
 * unchanged. No swap may come before `ply`: it would shuffle the bag. */
static bool hidden_variant_start(const played_game *pg, int ply, int seat, ax_game *out)
{
    static ax_game target, trial, start, cand;
    replay_prefix(pg, &pg->start, ply, &target);
    start = pg->start;
    int undrawn = target.bag_n, exchanges = 0;
    ax_tile *dealt[AX_MAX_TILES];
    int ndealt = dealt_tiles(&start, undrawn, dealt);
    for (int i = 0; i < ndealt; i++)
        for (int j = 0; j < undrawn; j++) {
            if (ax_tile_equal(*dealt[i], start.bag[j]))
                continue;
            cand = start;
            ax_tile *slot = (ax_tile *)((char *)&cand + ((char *)dealt[i] - (char *)&start));
            ax_tile t = *slot;
            *slot = cand.bag[j];
            cand.bag[j] = t;
            if (!replay_prefix(pg, &cand, ply, &trial) || !views_equal(&trial, &target, seat))
                continue;
            start = cand;
            exchanges++;
            break;
        }
    if (exchanges == 0)
        return false;
    /* the tiles nobody drew yet, in another order */
    ax_tile first = start.bag[0];
    memmove(&start.bag[0], &start.bag[1], (size_t)(undrawn - 1) * sizeof first);
    start.bag[undrawn - 1] = first;
    replay_prefix(pg, &start, ply, &trial);
    if (!views_equal(&trial, &target, seat))
        return false;
    *out = start;
    return true;
}

/* Seat 0's judgements of two records of hex games that agree in all seat 0
 * saw up to its decision at ply `ply`, and differ in what it did not see
 * (then, and later too): the same up to that decision. */
static void test_records_differing_in_hidden_tiles(void **state)
{
    (void)state;
    const int seat = 0, ply = 4; /* seat 0's third decision */
    played_game *a = greedy_game(AX_HEX, 2, AX_STANDARD, 21);
    for (int i = 0; i < ply; i++)
        assert_int_equal(a->moves[i].kind, AX_MOVE_PLACE);
    played_game *b = calloc(1, sizeof *b);
    assert_non_null(b);
    assert_true(hidden_variant_start(a, ply, seat, &b->start));

    /* record b: the same decisions up to seat 0's at `ply`, then its own */
    ax_game g;
    assert_true(replay_prefix(a, &b->start, ply + 1, &g));
    memcpy(b->moves, a->moves, (size_t)(ply + 1) * sizeof a->moves[0]);
    b->n = ply + 1;
    finish_with_greedy(b, &g, 77);
    ax_game at_a, at_b;
    replay_prefix(a, &a->start, ply, &at_a);
    replay_prefix(a, &b->start, ply, &at_b);
    assert_int_equal(at_a.to_move, seat);
    assert_true(memcmp(at_a.rack[1], at_b.rack[1], sizeof at_a.rack[1]) != 0);
    assert_true(memcmp(at_a.bag, at_b.bag, sizeof at_a.bag) != 0);

    ai_analyser *an = ai_analyser_new();
    ai_judgement ja[3], jb[3];
    ai_analysis_options opt = budget_of(150, 9);
    /* room for three judgements: the rest of each game is walked, not judged */
    int na = ai_analyse_game(an, &a->start, a->moves, a->n, seat, &opt, ja, 3);
    int nb = ai_analyse_game(an, &b->start, b->moves, b->n, seat, &opt, jb, 3);
    assert_true(na == 3 && nb == 3);
    assert_int_equal(ja[2].ply, ply);
    for (int i = 0; i <= 2; i++)
        assert_same_judgement(&ja[i], &jb[i]);
    ai_analyser_free(an);
    free(a);
    free(b);
}

/* --- what every judgement promises --- */

static void test_whole_game_judgements(void **state)
{
    (void)state;
    static const struct {
        int variant, players, mode, seat;
    } cases[] = {
        {AX_HEX, 2, AX_STANDARD, 1}, {AX_ROTA, 2, AX_STANDARD, 0}, {AX_SQUARE, 1, AX_SOLO, 0}};
    ai_analyser *an = ai_analyser_new();
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        played_game *pg = greedy_game(cases[k].variant, cases[k].players, cases[k].mode, 5);
        ai_judgement *j = calloc(MAX_DECISIONS, sizeof *j),
                     *again = calloc(MAX_DECISIONS, sizeof *j);
        ai_analysis_options opt = budget_of(80, 4);
        int seat = cases[k].seat;
        int n = ai_analyse_game(an, &pg->start, pg->moves, pg->n, seat, &opt, j, MAX_DECISIONS);
        ax_game g = pg->start;
        int expected = 0, next = 0;
        for (int i = 0; i < pg->n; i++) {
            if (g.to_move == seat && pg->moves[i].kind != AX_MOVE_LEAVE) {
                expected++;
                assert_true(next < n);
                const ai_judgement *jj = &j[next++];
                assert_int_equal(jj->ply, g.ply);
                assert_int_equal(jj->seat, seat);
                assert_int_equal(jj->kind, g.phase == AX_PHASE_SWAP ? AI_DECISION_SWAP
                                           : g.in_bonus             ? AI_DECISION_BONUS
                                                                    : AI_DECISION_PLACE);
                assert_same_move(&jj->played, &pg->moves[i]);
                assert_int_equal(ax_check(&g, &jj->best), AX_OK);
                assert_true(jj->value_best >= jj->value_played);
                assert_true(jj->value_played >= 0);
                if (g.mode != AX_SOLO)
                    assert_true(jj->value_best <= 1);
                assert_true(jj->samples > 0);
                assert_true(jj->candidates >= 1);
                if (jj->best_is_played)
                    assert_true(jj->value_best == jj->value_played);
            }
            ax_apply(&g, &pg->moves[i], NULL);
        }
        assert_int_equal(n, expected);
        if (cases[k].mode == AX_SOLO)
            assert_true(j[0].value_played > 1); /* a solo result, not a share */
        /* the same seed judges alike */
        assert_int_equal(
            ai_analyse_game(an, &pg->start, pg->moves, pg->n, seat, &opt, again, MAX_DECISIONS), n);
        for (int i = 0; i < n; i++)
            assert_same_judgement(&j[i], &again[i]);
        free(j);
        free(again);
        free(pg);
    }
    ai_analyser_free(an);
}

/* Over the positions of a game, a random decision loses much more than
 * greedy's. */
static void test_random_decisions_lose_more(void **state)
{
    (void)state;
    played_game *pg = greedy_game(AX_HEX, 2, AX_STANDARD, 31);
    ai_analyser *an = ai_analyser_new();
    ax_player *greedy = ax_player_new("greedy", 1), *random = ax_player_new("random", 1);
    ai_analysis_options opt = budget_of(400, 2);
    double loss_greedy = 0, loss_random = 0;
    ax_game g = pg->start, view;
    int judged = 0;
    for (int i = 0; i < pg->n && judged < 10; i++) {
        if (g.phase == AX_PHASE_PLACE && i % 2 == 0) {
            ax_move mg, mr;
            ai_judgement jg, jr;
            ax_view(&g, g.to_move, &view);
            ax_player_decide(greedy, &view, g.to_move, &mg);
            ax_player_decide(random, &view, g.to_move, &mr);
            assert_int_equal(ai_judge_decision(an, &g, &mg, &opt, &jg), 0);
            assert_int_equal(ai_judge_decision(an, &g, &mr, &opt, &jr), 0);
            loss_greedy += jg.value_best - jg.value_played;
            loss_random += jr.value_best - jr.value_played;
            judged++;
        }
        ax_apply(&g, &pg->moves[i], NULL);
    }
    assert_int_equal(judged, 10);
    assert_true(loss_random > 2 * loss_greedy);
    assert_true(loss_random / judged > 0.05);
    ax_player_free(greedy);
    ax_player_free(random);
    ai_analyser_free(an);
    free(pg);
}

/* --- the judge behind hints and the analysis --- */

/* The hint (ai_judge_best) is the judge's best: judged with the same options,
 * the hinted decision is the best there, loses nothing and is no mistake;
 * the hint from the seat's view is the hint from the whole game. */
static void test_the_hint_is_the_judges_best(void **state)
{
    (void)state;
    static const int variants[] = {AX_SQUARE, AX_ROTA, AX_HEX};
    ai_analyser *an = ai_analyser_new();
    for (int k = 0; k < 3; k++) {
        played_game *pg = greedy_game(variants[k], 2, AX_STANDARD, 11);
        ax_game g = pg->start, view;
        int judged = 0;
        for (int i = 0; i < pg->n && judged < 4; i++) {
            if (i % 5 == 2) {
                ai_analysis_options opt = budget_of(300, 77 + (uint64_t)i);
                ax_move hint, from_view;
                ai_judgement j;
                assert_int_equal(ai_judge_best(an, &g, &opt, &hint), 0);
                ax_view(&g, g.to_move, &view);
                assert_int_equal(ai_judge_best(an, &view, &opt, &from_view), 0);
                assert_same_move(&hint, &from_view);
                assert_int_equal(ai_judge_decision(an, &g, &hint, &opt, &j), 0);
                assert_true(j.best_is_played);
                assert_false(j.mistake);
                assert_true(j.value_best == j.value_played);
                assert_true(j.loss_se == 0);
                judged++;
            }
            ax_apply(&g, &pg->moves[i], NULL);
        }
        assert_int_equal(judged, 4);
        ai_analysis_options small = budget_of(50, 1);
        ax_move none;
        assert_int_equal(ai_judge_best(an, &pg->end, &small, &none), -1);
        free(pg);
    }
    ai_analyser_free(an);
}

/* A mistake is a loss clearly above the threshold (AI_MISTAKE_SIGMAS standard
 * errors); random decisions make some, and judged again with other seeds the
 * flags mostly agree (the judge's own noise rarely decides one). */
static void test_mistakes_are_clear(void **state)
{
    (void)state;
    played_game *pg = greedy_game(AX_SQUARE, 2, AX_STANDARD, 41);
    ai_analyser *an = ai_analyser_new();
    ax_player *random = ax_player_new("random", 5);
    ax_game g = pg->start, view;
    assert_true(ai_mistake_threshold(&g) == 0.02);
    int judged = 0, mistakes = 0, agree = 0;
    for (int i = 0; i < pg->n && judged < 8; i++) {
        if (g.phase == AX_PHASE_PLACE && g.to_move == 0) {
            ax_move m;
            ai_judgement a, b;
            ax_view(&g, 0, &view);
            ax_player_decide(random, &view, 0, &m);
            ai_analysis_options one = budget_of(800, 1), two = budget_of(800, 2);
            assert_int_equal(ai_judge_decision(an, &g, &m, &one, &a), 0);
            assert_int_equal(ai_judge_decision(an, &g, &m, &two, &b), 0);
            for (const ai_judgement *j = &a; j; j = j == &a ? &b : NULL) {
                double loss = j->value_best - j->value_played;
                assert_true(loss >= 0 && j->loss_se >= 0);
                assert_int_equal(j->mistake, loss - AI_MISTAKE_SIGMAS * j->loss_se > 0.02);
                if (j->best_is_played)
                    assert_false(j->mistake);
            }
            mistakes += a.mistake;
            agree += a.mistake == b.mistake;
            judged++;
        }
        ax_apply(&g, &pg->moves[i], NULL);
    }
    assert_int_equal(judged, 8);
    assert_true(mistakes >= 2); /* random play errs */
    assert_true(agree >= 6);
    ax_player_free(random);
    ai_analyser_free(an);
    free(pg);
}

/* --- bad input and cancelling --- */

static void test_decisions_that_do_not_apply(void **state)
{
    (void)state;
    played_game *pg = greedy_game(AX_SQUARE, 2, AX_STANDARD, 3);
    ai_analyser *an = ai_analyser_new();
    ai_judgement j[MAX_DECISIONS];
    ai_analysis_options opt = budget_of(50, 1);
    ax_move swapped = pg->moves[3];
    pg->moves[3] = pg->moves[1]; /* seat 1's move again: its cells are taken */
    assert_int_equal(ai_analyse_game(an, &pg->start, pg->moves, pg->n, 0, &opt, j, MAX_DECISIONS),
                     AI_ANALYSIS_ILLEGAL);
    pg->moves[3] = swapped;
    ax_move leave = {.kind = AX_MOVE_LEAVE, .seat = 0, .wild = AX_NO_COLOR};
    ai_judgement one;
    assert_int_equal(ai_judge_decision(an, &pg->start, &leave, &opt, &one), -1);
    ax_game after = pg->start;
    ax_apply(&after, &pg->moves[0], NULL);
    assert_int_equal(ai_judge_decision(an, &after, &pg->moves[0], &opt, &one),
                     -1); /* cells taken */
    assert_int_equal(ai_judge_decision(an, &pg->end, &pg->moves[0], &opt, &one), -1);
    ai_analyser_free(an);
    free(pg);
}

typedef struct {
    atomic_bool *cancel;
    int calls;
} cancel_ctx;

static void cancel_after_first(const ai_judgement *j, void *ctx)
{
    (void)j;
    cancel_ctx *c = ctx;
    c->calls++;
    atomic_store(c->cancel, true);
}

static double seconds_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void *cancel_soon(void *arg)
{
    struct timespec pause = {.tv_nsec = 200 * 1000 * 1000};
    nanosleep(&pause, NULL);
    atomic_store((atomic_bool *)arg, true);
    return NULL;
}

static void test_cancel_stops_the_analysis(void **state)
{
    (void)state;
    played_game *pg = greedy_game(AX_HEX, 2, AX_STANDARD, 8);
    ai_analyser *an = ai_analyser_new();
    ai_judgement j[MAX_DECISIONS];
    atomic_bool cancel;
    atomic_init(&cancel, false);
    cancel_ctx ctx = {.cancel = &cancel};
    ai_analysis_options opt = {.playouts = 100,
                               .seed = 1,
                               .cancel = &cancel,
                               .on_judgement = cancel_after_first,
                               .ctx = &ctx};
    /* cancelled by the caller after the first judgement */
    assert_int_equal(ai_analyse_game(an, &pg->start, pg->moves, pg->n, 0, &opt, j, MAX_DECISIONS),
                     AI_ANALYSIS_CANCELLED);
    assert_int_equal(ctx.calls, 1);

    /* cancelled before it starts: nothing is judged */
    ctx.calls = 0;
    assert_int_equal(ai_analyse_game(an, &pg->start, pg->moves, pg->n, 0, &opt, j, MAX_DECISIONS),
                     AI_ANALYSIS_CANCELLED);
    assert_int_equal(ctx.calls, 0);

    /* cancelled from another thread in the middle of an hour-long judgement */
    atomic_store(&cancel, false);
    opt = (ai_analysis_options){.movetime_ms = 3600000, .seed = 1, .cancel = &cancel};
    pthread_t canceller;
    double start = seconds_now();
    assert_int_equal(pthread_create(&canceller, NULL, cancel_soon, &cancel), 0);
    assert_int_equal(ai_analyse_game(an, &pg->start, pg->moves, pg->n, 0, &opt, j, MAX_DECISIONS),
                     AI_ANALYSIS_CANCELLED);
    pthread_join(canceller, NULL);
    assert_true(seconds_now() - start < 30);
    ai_analyser_free(an);
    free(pg);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_value_is_the_share_of_first_place),
        cmocka_unit_test(test_position_judged_from_the_view),
        cmocka_unit_test(test_records_differing_in_hidden_tiles),
        cmocka_unit_test(test_whole_game_judgements),
        cmocka_unit_test(test_random_decisions_lose_more),
        cmocka_unit_test(test_the_hint_is_the_judges_best),
        cmocka_unit_test(test_mistakes_are_clear),
        cmocka_unit_test(test_decisions_that_do_not_apply),
        cmocka_unit_test(test_cancel_stops_the_analysis),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
