/*
 * bucket.h - token buckets and the monotonic clock, for every limit of the
 * server (the transport's per address and per connection, the chat's per
 * address and game).
 *
 * A bucket holds up to `burst` tokens and refills at `rate` a second; a
 * request takes one or is refused.
 */
#ifndef AX_SERVER_BASE_BUCKET_H
#define AX_SERVER_BASE_BUCKET_H

#include <stdbool.h>

typedef struct {
    double tokens;
    double last; /* when the tokens were last counted, seconds; 0: never (full) */
} bucket;

/* Monotonic seconds. */
double mono_now(void);

/* A full bucket. */
void bucket_fill(bucket *b, double burst);
/* Refills by the time passed since it was last counted. */
void bucket_refill(bucket *b, double rate, double burst, double now);
/* Takes a token if there is one. */
bool bucket_take(bucket *b, double rate, double burst);
/* Whether it is full again (nothing to remember about it). */
bool bucket_full(bucket *b, double rate, double burst);

#endif
