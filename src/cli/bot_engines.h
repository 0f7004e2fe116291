/*
 * bot_engines.h - the engines of `axio bot`: a pool of processes of one
 * command speaking axio-engine/1 (docs/engine-protocol.md), asked for the
 * decisions of every game the bot plays, without ever blocking the bridge.
 *
 * A decision is a job: a game, the bot's seat, the position the site sent
 * and a movetime. Jobs wait in order for a free engine; an engine is started
 * when a job needs one (at most `size` of them), told `newgame` when it
 * turns to a game other than its last, and asked with `go`. Every answer is
 * checked against the rules (the position's view) before it is handed over.
 * An engine that fails a job (garbage or an `error`, an illegal decision,
 * no answer within 110% of the movetime plus 1 s) is killed and the job
 * fails; one that dies has the job tried once more on a fresh engine.
 */
#ifndef AX_BOT_ENGINES_H
#define AX_BOT_ENGINES_H

#include "engine_client.h"

#include <jansson.h>
#include <poll.h>

typedef struct engine_pool engine_pool;

/* A job's outcome. ENGINE_OK: `move` is the decision in the record's
 * form (normalised: only its keys), else `why` says what went wrong. `ms`:
 * from sending `go` to the answer. */
typedef void (*pool_done_fn)(void *ctx, const char *game, int ply, engine_status status,
                             json_t *move, const char *why, double ms);

/* Starts the first engine and waits up to limit_ms for its `ready`: NULL
 * with the reason in err when it does not come. */
engine_pool *pool_new(const char *command, int size, int limit_ms, pool_done_fn done, void *ctx,
                      char *err, size_t errlen);
/* Ends every engine (`quit`, a second's grace, then killed). */
void pool_free(engine_pool *p);
const char *pool_engine_name(const engine_pool *p);

typedef struct {
    const char *game;         /* the game's id */
    int seat;                 /* the bot's seat, to move in position */
    const char *const *names; /* the seats' names, for `newgame` */
    json_t *position;         /* the site's position object (a reference is taken) */
    int movetime_ms;          /* the decision's budget */
    bool clocked;             /* time waiting for an engine comes off the movetime */
} pool_job;

/* Queues a decision; returns false (and nothing is queued) when the position
 * cannot be read, with the reason in err. A queued or running job of the
 * same game is dropped first: a game has one decision asked at a time. */
bool pool_submit(engine_pool *p, const pool_job *job, char *err, size_t errlen);
/* Forgets the game's job: a queued one is dropped, the answer of a running
 * one is thrown away when it comes. */
void pool_cancel(engine_pool *p, const char *game);
/* Jobs queued or running. */
int pool_jobs(const engine_pool *p);

/* The descriptors to wait on (at most max), then pool_service when they
 * (or the time of pool_next_ms) are due. */
unsigned pool_fds(const engine_pool *p, struct pollfd *fds, unsigned max);
/* Milliseconds until the pool has something to do at the latest (-1: none). */
int pool_next_ms(const engine_pool *p);
/* Reads and writes what is ready, applies deadlines, starts engines and
 * jobs; calls `done` for each job settled. */
void pool_service(engine_pool *p);

#endif
