/*
 * job_queue.h - the first-in, first-out list of jobs of the server's
 * worker pools (worker_pool.h): the password workers (auth.c) and the
 * computer players (ai_workers.c) each keep queues of jobs to do, which
 * their workers take from, and a `done` queue, which the event loop
 * drains.
 *
 * Intrusive: a job embeds a jq_node and is on at most one queue at a time;
 * JQ_ENTRY gets the job back from its node. The queue neither allocates
 * nor frees, and takes no lock: its pool's mutex guards it.
 */
#ifndef AX_SERVER_JOB_QUEUE_H
#define AX_SERVER_JOB_QUEUE_H

#include <stdbool.h>
#include <stddef.h>

typedef struct jq_node {
    struct jq_node *next;
} jq_node;

typedef struct {
    jq_node *head, *tail;
    int count; /* nodes queued */
} job_queue;

/* The job of type `type` whose member `member` is `node`. */
#define JQ_ENTRY(node, type, member) ((type *)(void *)((char *)(node)-offsetof(type, member)))

/* Appends a node (last out). */
void jq_push(job_queue *q, jq_node *node);
/* Takes the oldest node off; NULL when the queue is empty. */
jq_node *jq_pop(job_queue *q);
static inline bool jq_empty(const job_queue *q) { return q->head == NULL; }
/* Every node, in order, as a queue of its own; `q` is left empty. */
job_queue jq_take_all(job_queue *q);

#endif
