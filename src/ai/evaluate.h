/*
 * evaluate.h - what the search knows about a position without searching it:
 * the value of points in each colour, a fast estimate of a placement's raw
 * points, the greedy-ish playout policy built on both, and the reward of a
 * finished game for one seat.
 *
 * Nothing here decides legality or applies a rule: moves are applied by the
 * engine (ax_apply), which also rejects any estimate that went wrong.
 */
#ifndef AX_AI_EVALUATE_H
#define AX_AI_EVALUATE_H

#include "../engine/axio.h"

#define AI_MAX_POINTS 48 /* more raw points than one unit can score */

/* Tunable weights of the value of points. */
typedef struct {
    float steepness; /* how much more a point on a low track is worth than on a high one */
    float bonus;     /* a bonus move, in points on the lowest track */
    float noise;     /* random jitter of a playout decision, in points on the lowest track */
} ai_params;

extern const ai_params ai_default_params;

/* gain[c][p]: the value of p more raw points in colour c for one track
 * owner, thresholds and the worth of a bonus move included. */
typedef struct {
    float gain[AX_MAX_COLORS][AI_MAX_POINTS + 1];
    float unit; /* value of one point on the lowest track: the scale of noise */
} ai_gains;

void ai_gains_init(ai_gains *t, const ax_game *g, int owner, const ai_params *prm);
float ai_gains_value(const ai_gains *t, const uint8_t points[AX_MAX_COLORS], int ncolors);
/* The value of a change of one owner's tracks from `before` to `after`. */
float ai_tracks_gain(const ax_game *g, const uint8_t *before, const uint8_t *after,
                     const ai_params *prm);

/* The value of a track f(s) and its slope at every track value (0..36), of
 * a game's first threshold and the params' steepness: made once, it values
 * many changes of that game the same as the functions without it. */
typedef struct {
    float value[37], slope[37];
} ai_curve;
void ai_curve_init(ai_curve *f, const ax_game *g, const ai_params *prm);
float ai_tracks_gain_by(const ai_curve *f, const ax_game *g, const uint8_t *before,
                        const uint8_t *after, const ai_params *prm);

/* Working memory of the playout policy (large: allocate it). */
typedef struct ai_scratch ai_scratch;
ai_scratch *ai_scratch_new(void);
void ai_scratch_free(ai_scratch *s);

/* The raw points (tile and pyramids, or the four ROTA corners) of placement
 * m in g, without applying it; equal to ax_preview_move's points except
 * where the placement ends the game before its pyramids. */
void ai_estimate_points(const ax_game *g, ai_scratch *s, const ax_move *m,
                        uint8_t points[AX_MAX_COLORS]);

/* The points a half of each colour would score on empty grid cell i
 * (square, hex), and for ROTA the corners of each colour in the circle of
 * each corner of frontier cell (x, y): what the board offers, for the
 * learned evaluation's features. */
void ai_cell_potential(const ax_game *g, int i, uint8_t pot[AX_MAX_COLORS]);
void ai_rota_circle_counts(const ax_game *g, int x, int y, uint8_t count[4][AX_MAX_COLORS]);
/* The same from the circles of the cell's corners (ax_rota_frontier_circles). */
void ai_rota_counts(const int8_t circles[4][3], uint8_t count[4][AX_MAX_COLORS]);

/* The playout policy: the placement with the best value of its estimated
 * points (with a little noise), always accepting a swap. */
void ai_policy_move(const ax_game *g, const ai_params *prm, ax_rng *rng, ai_scratch *s,
                    ax_move *out);
/* The policy's `want` best decisions (at most AI_MAX_REPLIES), best first:
 * the search's plausible replies. A swap offer has both answers. Returns
 * how many, at least 1 while g is not over. */
#define AI_MAX_REPLIES 8
int ai_policy_moves(const ax_game *g, const ai_params *prm, ax_rng *rng, ai_scratch *s, int want,
                    ax_move *out);
/* Plays g to its end with the policy for every seat; returns the decisions made. */
int ai_playout(ax_game *g, const ai_params *prm, ax_rng *rng, ai_scratch *s);
/* The same, stopping after max_plies decisions (negative: never). */
int ai_playout_plies(ax_game *g, const ai_params *prm, ax_rng *rng, ai_scratch *s, int max_plies);

/* The reward of a finished game for `seat`, in [0, 1]: solo, the result
 * scaled; otherwise the share of other track owners it beats (ties half),
 * shaded a little by the margin of its lowest track. */
double ai_outcome(const ax_game *g, int seat);

/* The reward of a game that may not be over, estimated from the tracks:
 * each owner's tracks valued by the policy's curve (a point counts more
 * the lower its track), a lead over each other owner of `scale` of that
 * value taken for odds of e:1 to finish ahead, shaded by the margin of
 * the lowest track as ai_outcome is. A game over, or solo, is ai_outcome. */
double ai_estimate(const ax_game *g, int seat, const ai_params *prm, double scale);
/* The same with f made by ai_curve_init for g and those params. */
double ai_estimate_by(const ai_curve *f, const ax_game *g, int seat, double scale);

#endif
