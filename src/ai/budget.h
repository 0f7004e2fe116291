/*
 * budget.h - how long one decision may think: a time budget that another
 * thread can change or cut short while the search runs, and an optional
 * fixed number of playouts for reproducible decisions.
 */
#ifndef AX_AI_BUDGET_H
#define AX_AI_BUDGET_H

#include <stdatomic.h>
#include <stdbool.h>

typedef struct {
    double start;                  /* ai_seconds() when the decision began */
    const atomic_int *movetime_ms; /* read at every check: the caller may move it; 0: no limit */
    const atomic_bool *cancel;     /* set: stop now with the best decision so far */
    long max_playouts;             /* 0: no limit */
    long playouts;                 /* done so far */
    long plies;                    /* decisions inside those playouts: for measuring */
} ai_budget;

/* Monotonic seconds. */
double ai_seconds(void);
/* CPU seconds of the calling thread: shows whether a late decision searched
 * too long or was kept off the processor. */
double ai_thread_seconds(void);
/* Whether the search must stop now. */
bool ai_budget_over(const ai_budget *b);
/* The share of the budget used since `from` (seconds), 0..1: the larger
 * of the time and the playout shares. */
double ai_budget_progress(const ai_budget *b, double from, long playouts_from);

/* How many more playouts the budget allows at `rate` playouts per second. */
double ai_budget_playouts_left(const ai_budget *b, double rate);

#endif
