/*
 * analysis.h - post-game analysis: how good was each decision of one seat?
 *
 * Every decision of the seat (placements, bonus placements, swap answers)
 * is judged from that seat's view at the time (rules 1.3), by the judge
 * (analysis.c): the `strong` search picks the best decision it finds
 * (strong_judge), then the decision played and that best are measured
 * again on fresh deals, in pairs, for an unbiased loss and its standard
 * error; a mistake is a loss clearly above the threshold. The value is the
 * chance to finish first (2-4 players; a first place shared by k sides
 * counts 1/k) or, solo, the expected solo result of rules 1.2. The hint of
 * a running game is the same judge's best (ai_judge_best).
 *
 * For callers on any thread (the server's workers): an analysis is a pure
 * function of the game's start, its decisions, the seat, the budget and a
 * seed; it does no I/O, keeps no global state and can be cancelled from
 * another thread. One ai_analyser is used by one thread at a time.
 */
#ifndef AX_AI_ANALYSIS_H
#define AX_AI_ANALYSIS_H

#include "../engine/axio.h"

#include <jansson.h>

#include <stdatomic.h>

typedef enum { AI_DECISION_PLACE, AI_DECISION_BONUS, AI_DECISION_SWAP } ai_decision_kind;

/* "place", "bonus", "swap". */
const char *ai_decision_kind_name(int kind);

/* One judged decision. Tiles are as placed: a domino's sym[0] lies on
 * cells[0]; a ROTA tile turned by the move's rotation. */
typedef struct {
    int ply;  /* ax_game.ply before the decision: decisions (leaves included) before it */
    int seat; /* who decided */
    int kind; /* ai_decision_kind */
    ax_move played, best;
    bool best_is_played;             /* nothing beat it: best is a copy of played */
    ax_tile played_tile, best_tile;  /* placements */
    double value_played, value_best; /* value_best >= value_played */
    double loss_se; /* standard error of the loss (0: best is played, unmeasured) */
    bool mistake;   /* the loss exceeds ai_mistake_threshold by AI_MISTAKE_SIGMAS standard errors */
    long samples;   /* deals (and playouts) both values are averaged over */
    int candidates; /* decisions compared */
} ai_judgement;

#define AI_MISTAKE_SHARE  0.02 /* of the value's scale: 2 points of the chance to win */
#define AI_MISTAKE_SIGMAS 3.0  /* standard errors beyond the threshold for a mistake */
#define AI_JUDGE_PLAYOUTS 6000 /* the server's judge (hints, analyses), per decision */

/* The loss above which a decision may be a mistake: 2% of the chance to
 * win, or of the solo result's range. */
double ai_mistake_threshold(const ax_game *g);

/* What a judgement may spend, and its randomness. */
typedef struct {
    int movetime_ms; /* per decision; 0: no time limit */
    long playouts;   /* per decision, over all candidates; 0: no limit. With a
                        movetime of 0 the analysis depends only on the seed. */
    uint64_t seed;
    const atomic_bool *cancel; /* may be NULL; once set, the analysis stops soon */
    /* Called after each judged decision, on the analysing thread (may be NULL). */
    void (*on_judgement)(const ai_judgement *j, void *ctx);
    void *ctx;
} ai_analysis_options;

typedef struct ai_analyser ai_analyser;

ai_analyser *ai_analyser_new(void);
void ai_analyser_free(ai_analyser *a);

/* The value of a finished game for `seat`: solo, the solo result; else its
 * share of the first place (1/k when k sides share it, 0 below it). */
double ai_decision_value(const ax_game *g, int seat);

/* Judges one decision: `played` by the seat to move in `before` (a full
 * game or that seat's view: only the view is used). Returns 0, or -1 when
 * `played` is no legal placement or swap answer there. The budget is per
 * stage (the measuring stage uses at most half the playouts in pairs, or
 * the same time); when opt gives neither a movetime nor playouts, the
 * movetime is AX_DEFAULT_MOVETIME_MS. */
int ai_judge_decision(ai_analyser *a, const ax_game *before, const ax_move *played,
                      const ai_analysis_options *opt, ai_judgement *out);

/* The judge's best decision for the seat to move in `before` (its view is
 * used): the first stage of ai_judge_decision with nothing played, so the
 * same options and seed judge the decision it gives the best there. The
 * hint of a running game. 0, or -1 when the game is over. */
int ai_judge_best(ai_analyser *a, const ax_game *before, const ai_analysis_options *opt,
                  ax_move *out);

enum { AI_ANALYSIS_ILLEGAL = -1, AI_ANALYSIS_CANCELLED = -2 };

/* Plays `moves` (every decision of the game, leaves included) from `start`
 * (as ax_game_init dealt it) and judges each decision of `seat` while that
 * seat has not left, writing at most `max` judgements to out. Returns their
 * number, AI_ANALYSIS_ILLEGAL when a decision does not apply (nothing is
 * judged then) or AI_ANALYSIS_CANCELLED when opt->cancel stopped it (out
 * keeps what was judged before). Decision i is judged with a seed made
 * from opt->seed and its ply, so it does not depend on the others. */
int ai_analyse_game(ai_analyser *a, const ax_game *start, const ax_move *moves, int nmoves,
                    int seat, const ai_analysis_options *opt, ai_judgement *out, int max);

/* A judgement as one JSON object: {"ply","kind","played","best",
 * "value_played","value_best","loss_se","mistake","samples","candidates"},
 * the decisions as the
 * record writes them ({"ev":"place"|"swap","player",...}); `start` gives the
 * board's coordinates. NULL when out of memory. */
json_t *ai_judgement_json(const ax_game *start, const ai_judgement *j);

#endif
