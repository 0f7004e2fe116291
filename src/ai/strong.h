/*
 * strong.h - the search behind the `strong` player: determinized Monte
 * Carlo over the most promising decisions, with the replies after each
 * searched as a tree. The same search, flat, also judges a decision
 * already taken (strong_judge), for the analysis of a game (analysis.h).
 */
#ifndef AX_AI_STRONG_H
#define AX_AI_STRONG_H

#include "../engine/axio.h"
#include "budget.h"

typedef struct strong_search strong_search;

#include "evaluate.h"

#define STRONG_MAX_CANDIDATES  64
#define STRONG_MAX_POOL        128
#define STRONG_HORIZON_VARIANT (-1)

/* The knobs of the search, for experiments: strong_new() sets defaults. */
typedef struct {
    ai_params params;            /* of the playout policy and the candidates' prior */
    int candidates[AX_VARIANTS]; /* decisions searched, by variant,
                                    1..STRONG_MAX_CANDIDATES (judging: 16) */
    int pool[AX_VARIANTS];       /* by variant: when above `candidates` (and the game has
                                    learned weights), the prior's best this many are valued by
                                    the learned evaluation after them and its best `candidates`
                                    searched, best first; else (default) the prior's best.
                                    Up to STRONG_MAX_POOL */
    int horizon;                 /* plies a playout plays before the tracks are judged; 0: to the
                                    end; STRONG_HORIZON_VARIANT: the variant's own */
    double scale;                /* track value that makes a lead of e:1 (ai_estimate) */
    int tree_plies;              /* decisions after a candidate searched as a tree, 0..4; 0: flat */
    int replies;                 /* decisions searched at a node of the tree, 1..AI_MAX_REPLIES */
    double explore;              /* the tree's exploration constant (UCB1) */
    bool stop_early;             /* end the search once its leader is clear (default); false:
                                    spend the whole budget sharpening the leaders' values */
    int learned;                 /* STRONG_LEARNED_*: where the learned evaluation (value.h) judges,
                                    for the games it has weights for (default: the horizon); else the
                                    hand-made judgement */
} strong_tuning;

#define STRONG_LEARNED_HORIZON 1 /* the tracks at the horizon: ai_value, not ai_estimate */

/* NULL when out of memory or when a shipped weights file is damaged. */
strong_search *strong_new(void);
void strong_free(strong_search *s);
strong_tuning *strong_tune(strong_search *s);
/* Chooses a legal decision for `seat` from what that seat may see of
 * `game` (it takes the seat's view itself, so a full game is safe too),
 * within the budget; its randomness comes from rng. Counts its playouts in
 * b->playouts. */
void strong_decide(strong_search *s, const ax_game *game, int seat, ai_budget *b, ax_rng *rng,
                   ax_move *out);

/* What a finished game is worth to `seat`; the search maximises its mean. */
typedef double (*strong_reward_fn)(const ax_game *g, int seat);

/* A candidate decision and its mean reward over `samples` playouts. */
typedef struct {
    ax_move move;
    double value;
    long samples;
    int index; /* among the candidates */
} strong_value;

/* Judges `played`, a legal decision of `seat` (to move in `game`), from that
 * seat's view as strong_decide would search it, with three differences: the
 * reward is `reward`; `played` is a candidate that is never dropped; and
 * every round is played to its end, so the played decision and every
 * candidate still searched at the end have met the very same deals and
 * playouts. *best is the candidate with the highest mean reward among
 * those, `played` when it ties; so best->value >= played_out->value.
 * `played` may be NULL: the same judging of the candidates alone (the
 * best decision as the judge sees it; *played_out is then *best_out).
 * Returns the number of candidates compared. */
int strong_judge(strong_search *s, const ax_game *game, int seat, const ax_move *played,
                 strong_reward_fn reward, ai_budget *b, ax_rng *rng, strong_value *played_out,
                 strong_value *best_out);

#endif
