/*
 * job_queue.c - the worker pools' intrusive FIFO queue (see job_queue.h).
 */
#include "job_queue.h"

void jq_push(job_queue *q, jq_node *node)
{
    node->next = NULL;
    if (q->tail)
        q->tail->next = node;
    else
        q->head = node;
    q->tail = node;
    q->count++;
}

jq_node *jq_pop(job_queue *q)
{
    jq_node *node = q->head;
    if (node) {
        q->head = node->next;
        if (!q->head)
            q->tail = NULL;
        node->next = NULL;
        q->count--;
    }
    return node;
}

job_queue jq_take_all(job_queue *q)
{
    job_queue all = *q;
    *q = (job_queue){0};
    return all;
}
