/*
 * ai_workers.h - computer players think on worker threads.
 *
 * The event loop submits a job (a seat's view of the game and the player
 * that decides for it) and goes on serving; a worker runs the player and
 * puts the finished job on the done list, then calls the notify function
 * (the service's hooks.wake) so that the loop wakes up and collects it. The loop
 * never waits for a worker.
 *
 * Think time adapts to the queue: a worker that takes a job gives it the
 * smaller of the job's own movetime and a fair share of the reply target,
 * target / (1 + jobs still queued / workers), never below AI_MIN_THINK_MS.
 * With nothing queued a player thinks its full time; with fifty games
 * waiting on two workers each thinks briefly, and every reply still comes
 * within about the target (docs/server.md, "Computer players under load").
 * A job queued later hurries the running ones to the share they would get
 * now (ax_player_set_movetime mid-search), so a long think that began on an
 * empty queue does not hold up what arrives after it.
 *
 * Jobs wait in lanes, one per `lane` key (the address that created the
 * game, or that asked for the hint): a worker takes the oldest job of the
 * lane served longest ago, a new lane first, so one address with many games
 * waits behind its own jobs, not the others behind it, and a person whose
 * computer answers now and then never waits behind a flood; within a lane,
 * first come, first served. A game has at most one decision job in flight.
 *
 * A pool is started for the computers' decisions, and one of lower
 * priority (background: the kernel runs its threads only on a core nothing
 * else wants) for hints, so that advice never delays a computer's move. A
 * job may be cancelled (its asker left): a worker skips it, or a judge
 * stops soon.
 */
#ifndef AX_SERVER_AI_WORKERS_H
#define AX_SERVER_AI_WORKERS_H

#include "../../ai/analysis.h"
#include "../../ai/player.h"
#include "../../engine/axio.h"
#include "job_queue.h"

#include <stdatomic.h>

#define AI_REPLY_TARGET_MS 1250 /* a reply within this, queue included, when it can */
#define AI_MIN_THINK_MS    25   /* below this a search is hardly better than greedy */

enum { AI_JOB_DECIDE, AI_JOB_HINT };

typedef struct ai_job {
    void *owner;        /* the game, for the loop; workers never touch it */
    int kind;           /* AI_JOB_DECIDE: the seat's move; AI_JOB_HINT: advice for a person */
    uint64_t lane;      /* whose turn among the queued: the creating or asking address */
    uint64_t conn_id;   /* AI_JOB_HINT: the connection that asked */
    atomic_bool cancel; /* set by the loop: the result is not wanted */
    uint16_t ply;       /* the game's ply when submitted: stale results are dropped */
    int seat;
    ax_player *player;  /* AI_JOB_DECIDE: the seat's */
    ai_analyser *judge; /* AI_JOB_HINT: its own judge (analysis.h), `playouts` from `seed` */
    long playouts;
    uint64_t seed;
    int movetime_ms; /* the most the job may think */
    bool fixed;      /* searches its player's fixed playouts, no clock: reproducible */
    int think_ms;    /* what the worker gave it (smaller under load) */
    ax_game view;
    ax_move move; /* the result */
    jq_node node; /* on the pool's queues */
} ai_job;

/* The think time a job gets when `queued` jobs wait behind it for
 * `workers` workers (see above). */
int ai_think_ms(int movetime_ms, int queued, int workers);

typedef struct ai_pool ai_pool;

/* Starts `threads` workers, of the lowest priority when `background`;
 * `notify(arg)` is called after each finished job (from the worker
 * thread). NULL on failure. */
ai_pool *ai_pool_start(int threads, bool background, void (*notify)(void *), void *arg);
/* Queues a job in its lane; the pool owns it until ai_pool_take_done
 * returns it (a cancelled one too). */
void ai_pool_submit(ai_pool *pool, ai_job *job);
/* Jobs waiting for a worker; and those, with the ones being worked on. */
int ai_pool_queued(ai_pool *pool);
int ai_pool_busy(ai_pool *pool);
/* Every finished job, oldest first, as a queue of the caller's (empty if
 * none); ai_pool_next_done takes them off one by one, NULL after the last. */
job_queue ai_pool_take_done(ai_pool *pool);
ai_job *ai_pool_next_done(job_queue *done);
/* Stops the workers after their current job; frees every queued job. */
void ai_pool_stop(ai_pool *pool);

#endif
