/*
 * train.h - how the learned evaluation's weights are made (`axio train`):
 * games of the playout policy (or of `strong` at a fixed number of
 * playouts) against itself from a seed, every position
 * seen by every seat labelled with that seat's reward at the game's end
 * (ai_outcome), and the network of value.h fitted to the rewards by
 * minibatch gradient descent (Adam). Deterministic: the same options give
 * the same weights, bit for bit, on the same build, whatever the jobs.
 */
#ifndef AX_AI_TRAIN_H
#define AX_AI_TRAIN_H

#include "value.h"

#include <stdatomic.h>

typedef struct {
    int variant, players;
    uint64_t seed;
    long games;      /* training games: seeds seed .. seed+games-1 */
    long test_games; /* held-out games after them, for the report */
    int iterations;  /* epochs: passes over every training position */
    double l2;       /* weight decay */
    /* 0: the games are the playout policy's; P > 0: `strong` with P
       playouts a decision plays them (reproducible: no clock), and the
       fit learns the outcome of better play */
    long teacher_playouts;
    int jobs; /* threads playing the games (0 or 1: one); never changes the weights */
    /* called after each epoch (may be NULL) */
    void (*progress)(void *ctx, int step, double loss);
    void *ctx;
    const atomic_bool *cancel; /* may be NULL */
} ai_train_options;

typedef struct {
    long positions, test_positions;
    double loss, test_loss;         /* cross-entropy per position, learned */
    double test_mse, hand_test_mse; /* squared error per position: learned, ai_estimate */
} ai_train_report;

/* Fits m. Returns 0, or -1 when cancelled or out of memory. */
int ai_train(const ai_train_options *o, ai_value_model *m, ai_train_report *r);

#endif
