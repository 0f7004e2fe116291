/*
 * outq.c - a connection's queue of messages to send (a WebSocket's, ws.c,
 * or a stream's, stream.c): references to shared messages, oldest first,
 * each with the time it was queued, so that a reader too far behind in
 * bytes (OUTQ_MAX) or in time (OUTQ_MAX_AGE_S) is found and dropped.
 */
#include "transport.h"

#include <stdlib.h>

static bool grow(outq *q)
{
    unsigned cap = q->cap ? 2 * q->cap : 8;
    queued *ring = malloc(cap * sizeof *ring);
    if (!ring)
        return false;
    for (unsigned i = 0; i < q->n; i++)
        ring[i] = q->ring[(q->first + i) % q->cap];
    free(q->ring);
    q->ring = ring;
    q->cap = cap;
    q->first = 0;
    return true;
}

bool outq_behind(const outq *q, double now)
{
    return q->n && now - q->ring[q->first].at > OUTQ_MAX_AGE_S;
}

bool outq_push(outq *q, msg *m, double now)
{
    if (q->bytes + m->len > OUTQ_MAX || outq_behind(q, now) || (q->n == q->cap && !grow(q)))
        return false;
    q->ring[(q->first + q->n++) % q->cap] = (queued){msg_ref(m), now};
    q->bytes += m->len;
    return true;
}

msg *outq_first(const outq *q) { return q->n ? q->ring[q->first].m : NULL; }

void outq_pop(outq *q)
{
    msg *m = q->ring[q->first].m;
    q->first = (q->first + 1) % q->cap;
    q->n--;
    q->bytes -= m->len;
    msg_unref(m);
}

void outq_free(outq *q)
{
    while (q->n)
        outq_pop(q);
    free(q->ring);
    *q = (outq){0};
}
