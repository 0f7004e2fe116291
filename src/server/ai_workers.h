/*
 * ai_workers.h - computer players think on worker threads.
 *
 * The event loop submits a job (a seat's view of the game and the player
 * that decides for it) and goes on serving; a worker runs the player and
 * puts the finished job on the done list, then calls the notify function
 * (lws_cancel_service) so that the loop wakes up and collects it. The loop
 * never waits for a worker.
 */
#ifndef AX_SERVER_AI_WORKERS_H
#define AX_SERVER_AI_WORKERS_H

#include "../ai/player.h"
#include "../engine/axio.h"

typedef struct ai_job {
    void *owner;  /* the game, for the loop; workers never touch it */
    uint16_t ply; /* the game's ply when submitted: stale results are dropped */
    int seat;
    ax_player *player;
    ax_game view;
    ax_move move; /* the result */
    struct ai_job *next;
} ai_job;

typedef struct ai_pool ai_pool;

/* Starts `threads` workers; `notify(arg)` is called after each finished job
 * (from the worker thread). NULL on failure. */
ai_pool *ai_pool_start(int threads, void (*notify)(void *), void *arg);
/* Queues a job; the pool owns it until ai_pool_take_done returns it. */
void ai_pool_submit(ai_pool *pool, ai_job *job);
/* Every finished job, oldest first, as a list; NULL if none. */
ai_job *ai_pool_take_done(ai_pool *pool);
/* Stops the workers after their current job; frees every queued job. */
void ai_pool_stop(ai_pool *pool);

#endif
