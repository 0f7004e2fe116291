/*
 * value.h - the learned evaluation: a small network over the features of
 * value_features.h (a logistic of a linear part plus one hidden layer of
 * tanh units), one per variant and player count, trained by `axio train`
 * (train.h) and shipped as small text files in src/ai/weights/, embedded
 * into the library at build time. A file carries a version and a checksum,
 * both checked when it is read, and a few positions with the value the
 * trainer gave them, so that a changed feature is noticed (tests/ai).
 */
#ifndef AX_AI_VALUE_H
#define AX_AI_VALUE_H

#include "../engine/axio.h"
#include "value_features.h"

#include <stddef.h>

#define AI_VALUE_VERSION 2
#define AI_VALUE_CHECKS  8
#define AI_VALUE_HIDDEN  32

/* A position the trainer valued: the game dealt from `seed`, then `ply`
 * decisions of the playout policy (ai_value_check_position), seen by `seat`. */
typedef struct {
    uint64_t seed;
    int ply, seat;
    double value;
} ai_value_check;

/* value = 1 / (1 + exp(-z)), z = lin.x + out.tanh(hid x); x[0] is 1, so
 * the biases are the weights of x[0]. */
typedef struct {
    int variant, players;
    float lin[AI_FEATURES];
    float hid[AI_VALUE_HIDDEN][AI_FEATURES];
    float out[AI_VALUE_HIDDEN];
    int nchecks;
    ai_value_check checks[AI_VALUE_CHECKS];
    /* hid transposed, made when the weights are read (ai_value_parse): the
     * hidden units' sums side by side, the same floats sooner. Whoever
     * changes hid (the trainer) clears `ready`, and the sums are made
     * from hid as before. */
    bool ready;
    float hid_t[AI_FEATURES][AI_VALUE_HIDDEN];
} ai_value_model;

/* The value of g to `seat` in [0, 1], the expected reward of ai_outcome;
 * reads only what the seat may see (value_features.h). */
double ai_value(const ai_value_model *m, const ax_game *g, int seat);
double ai_value_of(const ai_value_model *m, const float x[AI_FEATURES]);
/* The same, with the hidden units' outputs (for the trainer's gradient). */
double ai_value_forward(const ai_value_model *m, const float x[AI_FEATURES],
                        float h[AI_VALUE_HIDDEN]);

/* Reads a weights file's text. Returns 0, or -1 with a one-line reason in
 * err (bad version, bad checksum, a missing or malformed line). */
int ai_value_parse(const char *text, ai_value_model *m, char *err, size_t errlen);
/* Writes m as a weights file (comment: one line, may be NULL), checksum
 * included. Returns the length, or -1 when `len` is too small. */
int ai_value_format(const ai_value_model *m, const char *comment, char *out, size_t len);
/* FNV-1a, 64 bits: the checksum of everything before the checksum line. */
uint64_t ai_value_checksum(const char *text, size_t len);

/* The position of a check: deterministic from its seed and ply. */
void ai_value_check_position(int variant, int players, uint64_t seed, int ply, ax_game *out);

/* The shipped model of a variant and player count: 1 found, 0 none, -1 the
 * embedded file is damaged (reason in err). */
int ai_value_builtin(int variant, int players, ai_value_model *m, char *err, size_t errlen);

/* Embedded weights files (made by cmake/embed_weights.cmake). */
typedef struct {
    const char *name; /* "<variant>-<players>p" */
    const char *text;
} ai_weights_file;
extern const ai_weights_file ai_weights_files[];
extern const int ai_weights_count;

#endif
