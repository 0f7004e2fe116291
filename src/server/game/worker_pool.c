/*
 * worker_pool.c - the server's worker threads (see worker_pool.h).
 */
#include "worker_pool.h"

#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>

struct worker_pool {
    pthread_mutex_t lock;
    pthread_cond_t wake;
    worker_ops ops;
    void *user;
    bool stopping, background;
    int nthreads;
    pthread_t *threads;
};

typedef struct {
    worker_pool *pool;
    int index;
} worker_arg;

static void *worker_main(void *arg)
{
    worker_arg *w = arg;
    worker_pool *pool = w->pool;
    int index = w->index;
    free(w);
    if (pool->background) {
        struct sched_param idle = {0};
        pthread_setschedparam(pthread_self(), SCHED_IDLE, &idle);
    }
    pthread_mutex_lock(&pool->lock);
    for (;;) {
        void *job = NULL;
        while (!pool->stopping && !(job = pool->ops.take(pool->user, index)))
            pthread_cond_wait(&pool->wake, &pool->lock);
        if (!job)
            break;
        pthread_mutex_unlock(&pool->lock);
        pool->ops.run(pool->user, job, index);
        pthread_mutex_lock(&pool->lock);
        pool->ops.finish(pool->user, job, index);
        pthread_mutex_unlock(&pool->lock);
        pool->ops.notify(pool->ops.notify_arg);
        pthread_mutex_lock(&pool->lock);
    }
    pthread_mutex_unlock(&pool->lock);
    return NULL;
}

worker_pool *worker_pool_start(int threads, bool background, const worker_ops *ops, void *user)
{
    worker_pool *pool = calloc(1, sizeof *pool);
    if (!pool)
        return NULL;
    pool->threads = calloc((size_t)(threads > 0 ? threads : 1), sizeof *pool->threads);
    if (!pool->threads) {
        free(pool);
        return NULL;
    }
    pthread_mutex_init(&pool->lock, NULL);
    pthread_cond_init(&pool->wake, NULL);
    pool->ops = *ops;
    pool->user = user;
    pool->background = background;
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    for (int i = 0; i < threads; i++) {
        worker_arg *w = malloc(sizeof *w);
        if (!w)
            break;
        *w = (worker_arg){pool, i};
        if (pthread_create(&pool->threads[pool->nthreads], NULL, worker_main, w) != 0) {
            free(w);
            break;
        }
        pool->nthreads++;
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (pool->nthreads == 0) {
        worker_pool_free(pool);
        return NULL;
    }
    return pool;
}

int worker_pool_threads(const worker_pool *pool) { return pool->nthreads; }

void worker_pool_lock(worker_pool *pool) { pthread_mutex_lock(&pool->lock); }

void worker_pool_unlock(worker_pool *pool) { pthread_mutex_unlock(&pool->lock); }

void worker_pool_signal(worker_pool *pool) { pthread_cond_signal(&pool->wake); }

bool worker_pool_stopping(const worker_pool *pool) { return pool->stopping; }

void worker_pool_stop(worker_pool *pool)
{
    pthread_mutex_lock(&pool->lock);
    pool->stopping = true;
    pthread_cond_broadcast(&pool->wake);
    pthread_mutex_unlock(&pool->lock);
    for (int i = 0; i < pool->nthreads; i++)
        pthread_join(pool->threads[i], NULL);
    pool->nthreads = 0;
}

void worker_pool_free(worker_pool *pool)
{
    if (!pool)
        return;
    worker_pool_stop(pool);
    pthread_cond_destroy(&pool->wake);
    pthread_mutex_destroy(&pool->lock);
    free(pool->threads);
    free(pool);
}
