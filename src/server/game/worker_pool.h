/*
 * worker_pool.h - threads that take work off the event loop: the one pool
 * every worker of the server is (the computer players and hints,
 * ai_workers.c; password hashes, auth.c; post-game analyses,
 * analysis_jobs.c).
 *
 * The pool owns the threads, one mutex and the condition they wait on; its
 * user owns the jobs and the order they are taken in. A worker, holding the
 * mutex, asks the user's `take` for its next job (NULL: it waits for
 * worker_pool_signal), runs it with `run` without the mutex, hands it back
 * with `finish` holding the mutex (onto the user's done queue, say), then
 * calls `notify` (the service's hooks.wake) so that the loop collects it.
 * The user changes its queues only between worker_pool_lock and
 * worker_pool_unlock, and signals after adding a job.
 *
 * Workers block every signal (signals are the event loop's); the threads
 * of a background pool run only on a core nothing else wants (SCHED_IDLE),
 * so that they never delay a computer's move.
 */
#ifndef AX_SERVER_WORKER_POOL_H
#define AX_SERVER_WORKER_POOL_H

#include <stdbool.h>

typedef struct {
    void *(*take)(void *user, int worker);             /* mutex held: a job, or NULL */
    void (*run)(void *user, void *job, int worker);    /* mutex not held */
    void (*finish)(void *user, void *job, int worker); /* mutex held */
    void (*notify)(void *arg);                         /* mutex not held, after finish */
    void *notify_arg;
} worker_ops;

typedef struct worker_pool worker_pool;

/* Starts up to `threads` workers (0..threads-1 as `worker` above); NULL
 * when none could start or memory ran out. */
worker_pool *worker_pool_start(int threads, bool background, const worker_ops *ops, void *user);
/* Workers running: 0 once stopped. */
int worker_pool_threads(const worker_pool *pool);
void worker_pool_lock(worker_pool *pool);
void worker_pool_unlock(worker_pool *pool);
/* Mutex held: a job was added, a waiting worker takes it. */
void worker_pool_signal(worker_pool *pool);
/* Mutex held: whether the pool is stopping (no job should be added). */
bool worker_pool_stopping(const worker_pool *pool);
/* Mutex not held: every worker stops after its current job and is
 * joined; the user's jobs stay the user's. The mutex still works. */
void worker_pool_stop(worker_pool *pool);
/* Stops the workers if they run, and frees the pool (NULL: nothing). */
void worker_pool_free(worker_pool *pool);

#endif
