/*
 * strong.h - the search behind the `strong` player: determinized flat
 * Monte Carlo over the most promising decisions.
 */
#ifndef AX_AI_STRONG_H
#define AX_AI_STRONG_H

#include "../engine/axio.h"
#include "budget.h"

typedef struct strong_search strong_search;

#include "evaluate.h"

#define STRONG_MAX_CANDIDATES 32

/* The knobs of the search, for experiments: strong_new() sets defaults. */
typedef struct {
    ai_params params; /* of the playout policy and the candidates' prior */
    int candidates;   /* decisions searched, 1..STRONG_MAX_CANDIDATES */
} strong_tuning;

strong_search *strong_new(void);
void strong_free(strong_search *s);
strong_tuning *strong_tune(strong_search *s);
/* Chooses a legal decision for `seat` from what that seat may see of
 * `game` (it takes the seat's view itself, so a full game is safe too),
 * within the budget; its randomness comes from rng. Counts its playouts in
 * b->playouts. */
void strong_decide(strong_search *s, const ax_game *game, int seat, ai_budget *b, ax_rng *rng,
                   ax_move *out);

#endif
