/*
 * budget.c - the time and playout budget of one decision.
 *
 * The search stops a little before the caller's movetime so that choosing
 * and returning the decision fits inside it; checks are cheap (one clock
 * read) and the search makes one per playout, so a decision overruns by at
 * most one playout.
 */
#include "budget.h"

#include <time.h>

#define TIME_SHARE 0.94 /* of the movetime spent searching; the rest is slack */

double ai_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double ai_thread_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double deadline(const ai_budget *b, int movetime_ms)
{
    return b->start + TIME_SHARE * movetime_ms / 1000.0;
}

bool ai_budget_over(const ai_budget *b)
{
    if (atomic_load_explicit(b->cancel, memory_order_relaxed))
        return true;
    if (b->max_playouts > 0 && b->playouts >= b->max_playouts)
        return true;
    int ms = atomic_load_explicit(b->movetime_ms, memory_order_relaxed);
    return ms > 0 && ai_seconds() >= deadline(b, ms);
}

double ai_budget_progress(const ai_budget *b, double from, long playouts_from)
{
    double share = 0;
    if (b->max_playouts > 0 && b->max_playouts > playouts_from)
        share = (double)(b->playouts - playouts_from) / (double)(b->max_playouts - playouts_from);
    int ms = atomic_load_explicit(b->movetime_ms, memory_order_relaxed);
    if (ms > 0) {
        double end = deadline(b, ms);
        double t = end > from ? (ai_seconds() - from) / (end - from) : 1.0;
        share = t > share ? t : share;
    }
    return share;
}

double ai_budget_playouts_left(const ai_budget *b, double rate)
{
    double left = 1e18;
    if (b->max_playouts > 0)
        left = (double)(b->max_playouts - b->playouts);
    int ms = atomic_load_explicit(b->movetime_ms, memory_order_relaxed);
    if (ms > 0) {
        double by_time = (deadline(b, ms) - ai_seconds()) * rate;
        left = by_time < left ? by_time : left;
    }
    return left > 0 ? left : 0;
}
