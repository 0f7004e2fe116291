/*
 * bucket.c - token buckets (see bucket.h).
 */
#include "bucket.h"

#include <time.h>

double mono_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void bucket_fill(bucket *b, double burst)
{
    b->tokens = burst;
    b->last = mono_now();
}

void bucket_refill(bucket *b, double rate, double burst, double now)
{
    if (b->last == 0) {
        b->tokens = burst;
        b->last = now;
    }
    if (now > b->last) {
        b->tokens += (now - b->last) * rate;
        if (b->tokens > burst)
            b->tokens = burst;
        b->last = now;
    }
}

bool bucket_take(bucket *b, double rate, double burst)
{
    bucket_refill(b, rate, burst, mono_now());
    if (b->tokens < 1.0)
        return false;
    b->tokens -= 1.0;
    return true;
}

bool bucket_full(bucket *b, double rate, double burst)
{
    bucket_refill(b, rate, burst, mono_now());
    return b->tokens >= burst;
}
