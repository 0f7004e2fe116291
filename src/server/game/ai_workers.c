/*
 * ai_workers.c - the computer players' and hints' jobs in lanes, on a
 * worker pool (see ai_workers.h).
 *
 * Under the pool's mutex: the lanes, a ring of FIFO queues (job_queue.h),
 * one per lane key that has jobs waiting, which the workers take from in
 * turn; and `done`, which the event loop drains. Players keep no global
 * state, so workers can run different games' players at once; one game
 * never has two jobs in flight (the loop's ai_busy flag).
 */
#include "ai_workers.h"

#include "worker_pool.h"

#include <stdbool.h>
#include <stdlib.h>

typedef struct lane {
    uint64_t key;
    job_queue jobs;
    uint64_t served;   /* when a job of it was last taken (the pool's count), 0: never */
    struct lane *next; /* the ring */
} lane;

struct ai_pool {
    worker_pool *workers;
    lane *turn;     /* where the ring is looked at from; NULL when nothing waits */
    uint64_t taken; /* jobs taken so far */
    int queued, running;
    ai_job **busy; /* per worker, the job it decides now, or NULL */
    job_queue done;
    int nthreads;
    void (*notify)(void *);
    void *notify_arg;
};

static ai_job *pop_job(job_queue *q)
{
    jq_node *node = jq_pop(q);
    return node ? JQ_ENTRY(node, ai_job, node) : NULL;
}

static void free_job(ai_job *job)
{
    if (job->kind == AI_JOB_HINT) /* a hint's judge is its own */
        ai_analyser_free(job->judge);
    free(job);
}

static void free_queue(job_queue *q)
{
    ai_job *job;
    while ((job = pop_job(q)))
        free_job(job);
}

/* The next job (under the lock): the oldest of the lane served longest
 * ago. A lane is forgotten when it has nothing queued, so an address that
 * asks now and then (a person playing) goes before those that keep the
 * workers busy. */
static ai_job *take_next(ai_pool *pool)
{
    lane *l = pool->turn;
    if (!l)
        return NULL;
    for (lane *k = l->next; k != pool->turn; k = k->next)
        if (k->served < l->served)
            l = k;
    pool->turn = l;
    ai_job *job = pop_job(&l->jobs);
    l->served = ++pool->taken;
    pool->queued--;
    if (jq_empty(&l->jobs)) { /* the lane goes: unlink it from the ring */
        lane *prev = l;
        while (prev->next != l)
            prev = prev->next;
        if (prev == l) {
            pool->turn = NULL;
        } else {
            prev->next = l->next;
            pool->turn = l->next;
        }
        free(l);
    } else {
        pool->turn = l->next;
    }
    return job;
}

int ai_think_ms(int movetime_ms, int queued, int workers)
{
    if (workers < 1)
        workers = 1;
    long share = (long)AI_REPLY_TARGET_MS * workers / (workers + (queued > 0 ? queued : 0));
    if (share < AI_MIN_THINK_MS)
        share = AI_MIN_THINK_MS;
    return movetime_ms > 0 && movetime_ms < share ? movetime_ms : (int)share;
}

/* A job waits behind the running ones: each of them gets no more than the
 * share it would get now (a search told so mid-way returns its best so
 * far), so that a reply stays within about the target however the queue
 * grew after it started (under the lock). */
static void hurry_running(ai_pool *pool)
{
    for (int i = 0; i < pool->nthreads; i++) {
        ai_job *job = pool->busy[i];
        if (!job || job->fixed || job->kind != AI_JOB_DECIDE)
            continue;
        int share = ai_think_ms(job->movetime_ms, pool->queued, pool->nthreads);
        if (share < job->think_ms) {
            job->think_ms = share;
            ax_player_set_movetime(job->player, share);
        }
    }
}

static void *take(void *user, int worker)
{
    ai_pool *pool = user;
    ai_job *job = take_next(pool);
    if (!job)
        return NULL;
    job->think_ms = job->fixed ? 0 : ai_think_ms(job->movetime_ms, pool->queued, pool->nthreads);
    pool->running++;
    pool->busy[worker] = job;
    if (!job->fixed && job->kind == AI_JOB_DECIDE)
        ax_player_set_movetime(job->player, job->think_ms);
    return job;
}

static void run(void *user, void *arg, int worker)
{
    (void)user, (void)worker;
    ai_job *job = arg;
    if (atomic_load(&job->cancel)) {
        /* its asker left: back unsearched */
    } else if (job->kind == AI_JOB_HINT) {
        ai_analysis_options opt = {
            .playouts = job->playouts, .seed = job->seed, .cancel = &job->cancel};
        ai_judge_best(job->judge, &job->view, &opt, &job->move);
    } else {
        ax_player_decide(job->player, &job->view, job->seat, &job->move);
    }
}

static void finish(void *user, void *arg, int worker)
{
    ai_pool *pool = user;
    ai_job *job = arg;
    pool->busy[worker] = NULL;
    pool->running--;
    jq_push(&pool->done, &job->node);
}

ai_pool *ai_pool_start(int threads, bool background, void (*notify)(void *), void *arg)
{
    ai_pool *pool = calloc(1, sizeof *pool);
    if (!pool)
        return NULL;
    pool->busy = calloc((size_t)(threads > 0 ? threads : 1), sizeof *pool->busy);
    pool->notify = notify;
    pool->notify_arg = arg;
    pool->nthreads = threads; /* read by the workers before start returns */
    worker_ops ops = {take, run, finish, notify, arg};
    if (pool->busy)
        pool->workers = worker_pool_start(threads, background, &ops, pool);
    if (!pool->workers) {
        free(pool->busy);
        free(pool);
        return NULL;
    }
    worker_pool_lock(pool->workers);
    pool->nthreads = worker_pool_threads(pool->workers);
    worker_pool_unlock(pool->workers);
    return pool;
}

void ai_pool_submit(ai_pool *pool, ai_job *job)
{
    worker_pool_lock(pool->workers);
    lane *l = pool->turn;
    if (l) {
        while (l->key != job->lane && l->next != pool->turn)
            l = l->next;
        if (l->key != job->lane)
            l = NULL;
    }
    if (!l && (l = calloc(1, sizeof *l))) {
        /* a new lane comes last in the turn: before the one whose turn it is */
        l->key = job->lane;
        if (!pool->turn) {
            l->next = l;
            pool->turn = l;
        } else {
            lane *last = pool->turn;
            while (last->next != pool->turn)
                last = last->next;
            last->next = l;
            l->next = pool->turn;
        }
    }
    if (!l) { /* out of memory: it comes back unsearched */
        atomic_store(&job->cancel, true);
        jq_push(&pool->done, &job->node);
        worker_pool_unlock(pool->workers);
        pool->notify(pool->notify_arg);
        return;
    }
    jq_push(&l->jobs, &job->node);
    pool->queued++;
    hurry_running(pool);
    worker_pool_signal(pool->workers);
    worker_pool_unlock(pool->workers);
}

int ai_pool_queued(ai_pool *pool)
{
    worker_pool_lock(pool->workers);
    int n = pool->queued;
    worker_pool_unlock(pool->workers);
    return n;
}

int ai_pool_busy(ai_pool *pool)
{
    worker_pool_lock(pool->workers);
    int n = pool->queued + pool->running;
    worker_pool_unlock(pool->workers);
    return n;
}

job_queue ai_pool_take_done(ai_pool *pool)
{
    worker_pool_lock(pool->workers);
    job_queue done = jq_take_all(&pool->done);
    worker_pool_unlock(pool->workers);
    return done;
}

ai_job *ai_pool_next_done(job_queue *done) { return pop_job(done); }

void ai_pool_stop(ai_pool *pool)
{
    if (!pool)
        return;
    worker_pool_free(pool->workers);
    ai_job *job;
    while ((job = take_next(pool)))
        free_job(job);
    free_queue(&pool->done);
    free(pool->busy);
    free(pool);
}
