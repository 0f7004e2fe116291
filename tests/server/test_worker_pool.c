/*
 * test_worker_pool.c - the server's one worker pool: every job taken is
 * run once and finished once, each followed by a notify; a worker waits
 * while `take` has nothing and wakes on a signal; stopping joins the
 * workers after their current job and leaves the jobs not taken to their
 * user; a background pool's workers run at SCHED_IDLE.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "../../src/server/game/job_queue.h"
#include "../../src/server/game/worker_pool.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <time.h>
#include <unistd.h>

typedef struct {
    int id;
    atomic_int runs;
    int finishes;
    int policy; /* the scheduling policy it ran under */
    jq_node node;
} job;

typedef struct {
    job_queue todo, done;
    atomic_int notified;
    bool hold; /* run waits while set */
    atomic_bool holding;
} user;

static void *take(void *u, int worker)
{
    (void)worker;
    jq_node *n = jq_pop(&((user *)u)->todo);
    return n ? JQ_ENTRY(n, job, node) : NULL;
}

static void run(void *u, void *arg, int worker)
{
    (void)worker;
    user *us = u;
    job *j = arg;
    struct sched_param sp;
    pthread_getschedparam(pthread_self(), &j->policy, &sp);
    atomic_fetch_add(&j->runs, 1);
    while (us->hold) {
        atomic_store(&us->holding, true);
        usleep(1000);
    }
}

static void finish(void *u, void *arg, int worker)
{
    (void)worker;
    job *j = arg;
    j->finishes++;
    jq_push(&((user *)u)->done, &j->node);
}

static void notify(void *u) { atomic_fetch_add(&((user *)u)->notified, 1); }

static void wait_for(atomic_int *counter, int n)
{
    for (int i = 0; i < 5000 && atomic_load(counter) < n; i++)
        usleep(1000);
}

static void test_every_job_runs_once(void **state)
{
    (void)state;
    static job jobs[200];
    user u = {0};
    worker_ops ops = {take, run, finish, notify, &u};
    worker_pool *p = worker_pool_start(3, false, &ops, &u);
    assert_non_null(p);
    assert_int_equal(worker_pool_threads(p), 3);
    for (int i = 0; i < 200; i++) {
        jobs[i].id = i;
        worker_pool_lock(p);
        jq_push(&u.todo, &jobs[i].node);
        worker_pool_signal(p);
        worker_pool_unlock(p);
        if (i % 50 == 0)
            usleep(2000); /* the workers wait in between */
    }
    wait_for(&u.notified, 200);
    worker_pool_free(p);
    assert_int_equal(atomic_load(&u.notified), 200);
    assert_int_equal(u.done.count, 200);
    for (int i = 0; i < 200; i++) {
        assert_int_equal(atomic_load(&jobs[i].runs), 1);
        assert_int_equal(jobs[i].finishes, 1);
        assert_int_equal(jobs[i].policy, SCHED_OTHER);
    }
}

static void test_stop_leaves_the_rest(void **state)
{
    (void)state;
    static job jobs[5];
    user u = {.hold = true};
    worker_ops ops = {take, run, finish, notify, &u};
    worker_pool *p = worker_pool_start(1, true, &ops, &u);
    assert_non_null(p);
    worker_pool_lock(p);
    for (int i = 0; i < 5; i++)
        jq_push(&u.todo, &jobs[i].node);
    worker_pool_signal(p);
    worker_pool_unlock(p);
    for (int i = 0; i < 5000 && !atomic_load(&u.holding); i++)
        usleep(1000);
    assert_true(atomic_load(&u.holding)); /* the first job runs and waits */
    u.hold = false;
    worker_pool_stop(p);
    /* the running job finished; at most the ones taken before the stop
     * was seen ran, and the others are still the user's */
    assert_int_equal(u.done.count + u.todo.count, 5);
    assert_true(u.done.count >= 1);
    assert_int_equal(atomic_load(&jobs[0].runs), 1);
    assert_int_equal(jobs[0].policy, SCHED_IDLE);
    assert_int_equal(worker_pool_threads(p), 0);
    worker_pool_lock(p); /* the mutex still works after a stop */
    assert_true(worker_pool_stopping(p));
    worker_pool_unlock(p);
    worker_pool_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_job_runs_once),
        cmocka_unit_test(test_stop_leaves_the_rest),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
