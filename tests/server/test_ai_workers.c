/*
 * test_ai_workers.c - the computer players' worker pool under load: the think
 * time a job gets shrinks with the queue behind it (a fair share of the reply
 * target, never below the floor, never above the job's own movetime), jobs
 * come back in the order they were queued, and a queue of searching players
 * is served with shortened searches while the last one, alone, gets its
 * full time; lanes (one per address) take turns.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "../../src/server/game/ai_workers.h"

static void test_think_time_is_a_fair_share(void **state)
{
    (void)state;
    assert_int_equal(AI_REPLY_TARGET_MS, 1250);      /* the numbers below follow from it */
    assert_int_equal(ai_think_ms(1000, 0, 2), 1000); /* idle: the full time */
    assert_int_equal(ai_think_ms(1000, 1, 2), 833);  /* 1250*2/3 */
    assert_int_equal(ai_think_ms(1000, 2, 2), 625);
    assert_int_equal(ai_think_ms(1000, 48, 2), 50); /* fifty games on two workers */
    assert_int_equal(ai_think_ms(1000, 100000, 2), AI_MIN_THINK_MS);
    assert_int_equal(ai_think_ms(100, 0, 2), 100); /* never above the job's own */
    assert_int_equal(ai_think_ms(1000, 5, 1), 208);
    assert_int_equal(ai_think_ms(1000, 3, 0), 312); /* no workers counts as one */
    assert_int_equal(ai_think_ms(1000, -3, 2), 1000);
}

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t done_cond = PTHREAD_COND_INITIALIZER;
static int finished;

static void notify(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&lock);
    finished++;
    pthread_cond_signal(&done_cond);
    pthread_mutex_unlock(&lock);
}

static void test_a_queue_is_served_with_shorter_searches(void **state)
{
    (void)state;
    enum { JOBS = 8 };
    finished = 0;
    ai_pool *pool = ai_pool_start(1, false, notify, NULL);
    assert_non_null(pool);
    ax_game g;
    ax_events ev;
    ax_game_init(&g, AX_SQUARE, 2, AX_STANDARD, 7, &ev);
    ax_player *players[JOBS];
    for (int i = 0; i < JOBS; i++) {
        players[i] = ax_player_new("strong", (uint64_t)i + 1);
        assert_non_null(players[i]);
        ai_job *job = calloc(1, sizeof *job);
        assert_non_null(job);
        job->kind = AI_JOB_DECIDE;
        job->ply = (uint16_t)i; /* marks the order */
        job->seat = g.to_move;
        job->player = players[i];
        job->movetime_ms = 1000;
        ax_view(&g, g.to_move, &job->view);
        ai_pool_submit(pool, job);
    }
    pthread_mutex_lock(&lock);
    while (finished < JOBS)
        pthread_cond_wait(&done_cond, &lock);
    pthread_mutex_unlock(&lock);
    job_queue done = ai_pool_take_done(pool);
    assert_int_equal(done.count, JOBS);
    ai_job *job;
    int n = 0, shortened = 0;
    while ((job = ai_pool_next_done(&done))) {
        assert_int_equal(job->ply, n); /* first come, first served */
        assert_true(job->think_ms >= AI_MIN_THINK_MS && job->think_ms <= 1000);
        /* the job behind which i jobs waited got 1250 / (1 + i) */
        shortened += job->think_ms < 1000;
        if (n == JOBS - 1)
            assert_int_equal(job->think_ms, 1000); /* alone at last */
        if (n == 1)
            assert_int_equal(job->think_ms, ai_think_ms(1000, JOBS - 2, 1));
        n++;
        free(job);
    }
    assert_int_equal(n, JOBS);
    assert_true(shortened >= JOBS - 2);
    ai_pool_stop(pool);
    for (int i = 0; i < JOBS; i++)
        ax_player_free(players[i]);
}

static void test_stopping_frees_queued_hints(void **state)
{
    (void)state;
    ai_pool *pool = ai_pool_start(1, false, notify, NULL);
    assert_non_null(pool);
    ax_game g;
    ax_events ev;
    ax_game_init(&g, AX_HEX, 2, AX_STANDARD, 9, &ev);
    for (int i = 0; i < 4; i++) {
        ai_job *job = calloc(1, sizeof *job);
        assert_non_null(job);
        job->kind = AI_JOB_HINT; /* the pool frees a hint's own judge */
        job->seat = g.to_move;
        job->judge = ai_analyser_new();
        assert_non_null(job->judge);
        job->playouts = 2000;
        job->seed = 3;
        job->fixed = true;
        ax_view(&g, g.to_move, &job->view);
        ai_pool_submit(pool, job);
    }
    ai_pool_stop(pool); /* LeakSanitizer checks the rest */
}

/* Lanes: the queued jobs are served one lane (address) after another, first
 * come first served within a lane; a cancelled job comes back unsearched. */
static void test_lanes_take_turns(void **state)
{
    (void)state;
    finished = 0;
    ai_pool *pool = ai_pool_start(1, false, notify, NULL);
    assert_non_null(pool);
    ax_game g;
    ax_events ev;
    ax_game_init(&g, AX_SQUARE, 2, AX_STANDARD, 11, &ev);
    /* the first keeps the worker busy while the others are queued */
    const struct {
        uint64_t lane;
        const char *player;
        int movetime;
    } jobs[] = {{9, "strong", 400}, {1, "random", 0}, {1, "random", 0}, {1, "random", 0},
                {2, "random", 0},   {3, "random", 0}, {3, "random", 0}};
    enum { N = sizeof jobs / sizeof jobs[0] };
    ax_player *players[N];
    for (int i = 0; i < N; i++) {
        players[i] = ax_player_new(jobs[i].player, (uint64_t)i + 1);
        ai_job *job = calloc(1, sizeof *job);
        assert_non_null(job);
        job->kind = AI_JOB_DECIDE;
        job->lane = jobs[i].lane;
        job->ply = (uint16_t)i;
        job->seat = g.to_move;
        job->player = players[i];
        job->movetime_ms = jobs[i].movetime;
        ax_view(&g, g.to_move, &job->view);
        if (i == 3)
            atomic_store(&job->cancel, true);
        ai_pool_submit(pool, job);
    }
    pthread_mutex_lock(&lock);
    while (finished < N)
        pthread_cond_wait(&done_cond, &lock);
    pthread_mutex_unlock(&lock);
    job_queue done = ai_pool_take_done(pool);
    const int order[N] = {0, 1, 4, 5, 2, 6, 3}; /* lanes 1, 2, 3 in turn, then 1 and 3 */
    for (int k = 0; k < N; k++) {
        ai_job *job = ai_pool_next_done(&done);
        assert_non_null(job);
        assert_int_equal(job->ply, order[k]);
        free(job);
    }
    ai_pool_stop(pool);
    for (int i = 0; i < N; i++)
        ax_player_free(players[i]);
}

/* A job queued behind a long think hurries it to the share it would get
 * now: the running search returns early, its think_ms says so. */
static void test_a_long_think_is_hurried(void **state)
{
    (void)state;
    finished = 0;
    ai_pool *pool = ai_pool_start(1, false, notify, NULL);
    assert_non_null(pool);
    ax_game g;
    ax_events ev;
    ax_game_init(&g, AX_HEX, 2, AX_STANDARD, 5, &ev);
    ax_player *players[2];
    for (int i = 0; i < 2; i++) {
        players[i] = ax_player_new("strong", (uint64_t)i + 7);
        ai_job *job = calloc(1, sizeof *job);
        assert_non_null(job);
        job->kind = AI_JOB_DECIDE;
        job->lane = (uint64_t)i;
        job->ply = (uint16_t)i;
        job->seat = g.to_move;
        job->player = players[i];
        job->movetime_ms = 1000; /* alone: its whole second */
        ax_view(&g, g.to_move, &job->view);
        ai_pool_submit(pool, job);
        if (i == 0)
            while (ai_pool_queued(pool) > 0) /* the worker took it */
                usleep(1000);
    }
    pthread_mutex_lock(&lock);
    while (finished < 2)
        pthread_cond_wait(&done_cond, &lock);
    pthread_mutex_unlock(&lock);
    job_queue done = ai_pool_take_done(pool);
    ai_job *first = ai_pool_next_done(&done), *second = ai_pool_next_done(&done);
    assert_int_equal(first->ply, 0);
    assert_int_equal(first->think_ms, ai_think_ms(1000, 1, 1)); /* 625, not 1000 */
    assert_int_equal(second->think_ms, 1000);
    free(first);
    free(second);
    ai_pool_stop(pool);
    for (int i = 0; i < 2; i++)
        ax_player_free(players[i]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_think_time_is_a_fair_share),
        cmocka_unit_test(test_a_queue_is_served_with_shorter_searches),
        cmocka_unit_test(test_stopping_frees_queued_hints),
        cmocka_unit_test(test_lanes_take_turns),
        cmocka_unit_test(test_a_long_think_is_hurried),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
