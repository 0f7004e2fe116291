/*
 * test_player.c - the player library as the server and the commands use it:
 * every level by name, legal decisions in every variant and mode, the time
 * budget kept within 10%, cancellation and a moved deadline from another
 * thread, reproducible decisions from a seed and a playout count, and
 * playouts that stop at the search's horizon.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <pthread.h>
#include <string.h>
#include <time.h>

#include "budget.h"
#include "player.h"
#include "strong.h"

static const struct {
    int variant, players, mode;
} configs[] = {
    {AX_SQUARE, 1, AX_SOLO}, {AX_SQUARE, 2, AX_STANDARD}, {AX_SQUARE, 4, AX_STANDARD},
    {AX_ROTA, 1, AX_SOLO},   {AX_ROTA, 2, AX_STANDARD},   {AX_ROTA, 4, AX_STANDARD},
    {AX_HEX, 1, AX_SOLO},    {AX_HEX, 2, AX_STANDARD},    {AX_HEX, 3, AX_STANDARD},
    {AX_HEX, 4, AX_TEAM},
};
#define NCONFIGS (int)(sizeof configs / sizeof configs[0])

static void test_names(void **state)
{
    (void)state;
    int n = 0;
    for (; ax_player_names[n]; n++) {
        ax_player *p = ax_player_new(ax_player_names[n], 1);
        assert_non_null(p);
        assert_string_equal(ax_player_name(p), ax_player_names[n]);
        ax_player_free(p);
    }
    assert_int_equal(n, 3);
    assert_string_equal(ax_player_names[2], "strong");
    assert_null(ax_player_new("grandmaster", 1));
    ax_player_free(NULL);
}

/* Plays a whole game, strong against greedy, checking every decision. */
static void play_checked_game(int variant, int players, int mode, long playouts)
{
    ax_game g, view;
    ax_game_init(&g, variant, players, mode, 21, NULL);
    ax_player *seat[AX_MAX_PLAYERS];
    for (int s = 0; s < players; s++) {
        seat[s] = ax_player_new(s % 2 ? "greedy" : "strong", (uint64_t)s);
        ax_player_set_movetime(seat[s], 0);
        ax_player_set_playouts(seat[s], playouts);
    }
    while (g.phase != AX_PHASE_OVER) {
        ax_move m;
        ax_view(&g, g.to_move, &view);
        ax_player_decide(seat[g.to_move], &view, g.to_move, &m);
        assert_int_equal(ax_apply(&g, &m, NULL), AX_OK);
    }
    ax_player_stats st;
    ax_player_get_stats(seat[0], &st);
    assert_true(st.decisions > 0);
    for (int s = 0; s < players; s++)
        ax_player_free(seat[s]);
}

static void test_legal_in_every_variant_and_mode(void **state)
{
    (void)state;
    for (int k = 0; k < NCONFIGS; k++)
        play_checked_game(configs[k].variant, configs[k].players, configs[k].mode, 10);
}

/* A position some plies into a greedy game. */
static void position_after(ax_game *g, int variant, int players, int plies)
{
    ax_game_init(g, variant, players, players == 1 ? AX_SOLO : AX_STANDARD, 3, NULL);
    ax_player *p = ax_player_new("greedy", 3);
    for (int i = 0; i < plies && g->phase != AX_PHASE_OVER; i++) {
        ax_move m;
        ax_game view;
        ax_view(g, g->to_move, &view);
        ax_player_decide(p, &view, g->to_move, &m);
        ax_apply(g, &m, NULL);
    }
    ax_player_free(p);
}

static double timed_decision(ax_player *p, const ax_game *g, ax_move *m)
{
    ax_game view;
    ax_view(g, g->to_move, &view);
    double start = ai_seconds();
    ax_player_decide(p, &view, g->to_move, m);
    return ai_seconds() - start;
}

static void test_movetime_is_kept(void **state)
{
    (void)state;
    const int movetime = 300;
    /* strong judges by the learned evaluation; the hand-made judgement,
       the learned ordering of the candidates and the deeper tree must fit
       the same budget too */
    static const char *const names[] = {"strong",      "strong-hand",       "strong-order",
                                        "strong-deep", "strong-deep-early", "strong-whole"};
    for (int v = 0; v < 3; v++)
        for (int plies = 0; plies <= 12; plies += 12)
            for (int k = 0; k < 6; k++) {
                ax_game g;
                position_after(&g, v, 2, plies);
                ax_player *p = ax_player_new(names[k], 5);
                ax_player_set_movetime(p, movetime);
                ax_move m;
                double spent = timed_decision(p, &g, &m);
                ax_player_stats stats;
                ax_player_get_stats(p, &stats);
                ax_player_free(p);
                assert_int_equal(ax_check(&g, &m), AX_OK);
                /* the budget is kept in the deciding thread's CPU time: a loaded
                 * machine (sanitizers, parallel tests) stretches only the wall
                 * clock, which the arena's overrun count reports instead */
                assert_true(stats.max_cpu_seconds <= 1.1 * movetime / 1000.0);
                /* it does use its time in the opening, where the candidates are
                 * close; it may stop early, clearly decided, and a faster playout
                 * gets there sooner (square's first decision: 150 to 280 ms since
                 * strong's second round, after 12 plies ~100 ms); Expert's players
                 * never stop early */
                if (plies == 0)
                    assert_true(spent >= 0.25 * movetime / 1000.0);
                if (strcmp(names[k], "strong-deep") == 0 || strcmp(names[k], "strong-whole") == 0)
                    assert_true(spent >= 0.8 * movetime / 1000.0);
            }
    /* Expert's deeper tree with more opponents: three plies are then
       opponents' replies only */
    for (int v = 0; v < 3; v++)
        for (int players = 3; players <= 4; players++) {
            ax_game g;
            position_after(&g, v, players, 0);
            ax_player *p = ax_player_new("strong-deep", 5);
            ax_player_set_movetime(p, movetime);
            ax_move m;
            timed_decision(p, &g, &m);
            ax_player_stats stats;
            ax_player_get_stats(p, &stats);
            ax_player_free(p);
            assert_int_equal(ax_check(&g, &m), AX_OK);
            assert_true(stats.max_cpu_seconds <= 1.1 * movetime / 1000.0);
        }
}

typedef struct {
    ax_player *p;
    const ax_game *g;
    ax_move move;
    double spent;
} decision_job;

static void *decide_in_thread(void *arg)
{
    decision_job *job = arg;
    job->spent = timed_decision(job->p, job->g, &job->move);
    return NULL;
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static void test_cancel_from_another_thread(void **state)
{
    (void)state;
    ax_game g;
    position_after(&g, AX_HEX, 2, 4);
    decision_job job = {.p = ax_player_new("strong", 8), .g = &g};
    ax_player_set_movetime(job.p, 60000);
    pthread_t thread;
    assert_int_equal(pthread_create(&thread, NULL, decide_in_thread, &job), 0);
    sleep_ms(100);
    ax_player_cancel(job.p);
    pthread_join(thread, NULL);
    assert_true(job.spent < 2.0);
    assert_int_equal(ax_check(&g, &job.move), AX_OK);

    /* the request was used up: the next decision thinks again */
    ax_player_set_movetime(job.p, 100);
    ax_move m;
    assert_true(timed_decision(job.p, &g, &m) >= 0.05);

    /* a request before the decision makes it return at once */
    ax_player_set_movetime(job.p, 60000);
    ax_player_cancel(job.p);
    assert_true(timed_decision(job.p, &g, &m) < 1.0);
    assert_int_equal(ax_check(&g, &m), AX_OK);
    ax_player_free(job.p);
}

static void test_deadline_moves_while_thinking(void **state)
{
    (void)state;
    ax_game g;
    position_after(&g, AX_SQUARE, 2, 6);
    decision_job job = {.p = ax_player_new("strong", 9), .g = &g};
    ax_player_set_movetime(job.p, 60000);
    pthread_t thread;
    assert_int_equal(pthread_create(&thread, NULL, decide_in_thread, &job), 0);
    sleep_ms(100);
    ax_player_set_movetime(job.p, 200); /* already past: stop */
    pthread_join(thread, NULL);
    assert_true(job.spent < 2.0);
    assert_int_equal(ax_check(&g, &job.move), AX_OK);
    ax_player_free(job.p);
}

static void test_reproducible_with_playouts(void **state)
{
    (void)state;
    for (int v = 0; v < 3; v++) {
        ax_game g;
        position_after(&g, v, 2, 5);
        ax_move m[2];
        long playouts[2];
        for (int k = 0; k < 2; k++) {
            ax_player *p = ax_player_new("strong", 42);
            ax_player_set_movetime(p, 0);
            ax_player_set_playouts(p, 200);
            timed_decision(p, &g, &m[k]);
            ax_player_stats st;
            ax_player_get_stats(p, &st);
            playouts[k] = st.last_playouts;
            assert_true(playouts[k] > 0 && playouts[k] <= 200);
            ax_player_free(p);
        }
        assert_memory_equal(&m[0], &m[1], sizeof m[0]);
        assert_int_equal(playouts[0], playouts[1]);
    }
}

/* Plies per playout of one strong decision with the given horizon, judged
 * by the learned value or by the hand-made estimate. */
static double plies_per_playout(const ax_game *g, int horizon, bool learned)
{
    strong_search *s = strong_new();
    assert_non_null(s);
    strong_tune(s)->horizon = horizon;
    strong_tune(s)->learned = learned ? STRONG_LEARNED_HORIZON : 0;
    atomic_int movetime;
    atomic_bool cancel;
    atomic_init(&movetime, 0);
    atomic_init(&cancel, false);
    ai_budget b = {
        .start = ai_seconds(), .movetime_ms = &movetime, .cancel = &cancel, .max_playouts = 200};
    ax_rng rng;
    ax_rng_seed(&rng, 3);
    ax_move m;
    strong_decide(s, g, g->to_move, &b, &rng, &m);
    assert_int_equal(ax_check(g, &m), AX_OK);
    strong_free(s);
    assert_true(b.playouts > 0);
    return (double)b.plies / (double)b.playouts;
}

static void test_playouts_stop_at_the_horizon(void **state)
{
    (void)state;
    for (int v = 0; v < 3; v++) {
        ax_game g;
        position_after(&g, v, 2, 5);
        /* the hand-made estimate judges a third to most of a game on (12 to
           20 plies), the learned value 4 to 10 plies on */
        double hand = plies_per_playout(&g, STRONG_HORIZON_VARIANT, false);
        double own = plies_per_playout(&g, STRONG_HORIZON_VARIANT, true);
        double two = plies_per_playout(&g, 2, true), eight = plies_per_playout(&g, 8, false);
        double whole = plies_per_playout(&g, 0, true);
        assert_true(two <= 2.0 && eight <= 8.0);
        assert_true(hand > eight && hand < whole);
        assert_true(own > two && own <= 10.0);
        assert_true(whole > 12.0); /* 5 decisions into a 2-player game: far from its end */
        position_after(&g, v, 1, 5);
        /* solo: to the end, for the result, whatever the horizon */
        two = plies_per_playout(&g, 2, true);
        assert_true(two > 2.0 && two == plies_per_playout(&g, 0, true));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_legal_in_every_variant_and_mode),
        cmocka_unit_test(test_movetime_is_kept),
        cmocka_unit_test(test_cancel_from_another_thread),
        cmocka_unit_test(test_deadline_moves_while_thinking),
        cmocka_unit_test(test_reproducible_with_playouts),
        cmocka_unit_test(test_playouts_stop_at_the_horizon),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
