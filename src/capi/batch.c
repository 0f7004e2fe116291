/*
 * batch.c - many games stepped in one call, for training: the caller hands
 * one action per game and buffers for the next observations, masks,
 * rewards and terminations; the loop over games, the engine's decisions,
 * the legal sets, masks and observations all run here.
 *
 * A game that ends is dealt anew at once from the next seed of the batch
 * (reset's seed + n, + n + 1, ... in the order games start), so a batch is
 * reproducible from its seed and the actions. Its rewards are those of the
 * step that ended it; its row then shows the new game.
 */
#include "capi.h"

#include <stdlib.h>
#include <string.h>

struct axio_batch {
    capi_space space;
    int n, reward;
    uint64_t next_seed;
    ax_rng rng; /* axio_batch_random_actions */
    capi_play *games;
};

int axio_batch_new(const axio_spec *spec, int n, int reward, axio_batch **out)
{
    if (n < 1 || (reward != AXIO_REWARD_RANKING && reward != AXIO_REWARD_TRACKS))
        return AXIO_E_CONFIG;
    axio_batch *b = calloc(1, sizeof *b);
    if (!b)
        return AXIO_E_MEMORY;
    int err = capi_space_init(&b->space, spec->variant, spec->players, spec->mode);
    b->games = err == AXIO_OK ? calloc((size_t)n, sizeof *b->games) : NULL;
    if (!b->games) {
        free(b);
        return err == AXIO_OK ? AXIO_E_MEMORY : err;
    }
    b->n = n;
    b->reward = reward;
    for (int i = 0; i < n; i++)
        capi_play_start(&b->space, &b->games[i], (uint64_t)i);
    *out = b;
    return AXIO_OK;
}

void axio_batch_free(axio_batch *b)
{
    if (!b)
        return;
    for (int i = 0; i < b->n; i++)
        capi_play_free(&b->games[i]);
    free(b->games);
    free(b);
}

/* Game i's row: the observation and mask of its seat to move. */
static void write_row(const axio_batch *b, int i, int8_t *obs, int8_t *mask, int8_t *seat)
{
    const axio_spec *sp = &b->space.spec;
    const capi_play *p = &b->games[i];
    int to_move = p->g.to_move;
    capi_observe(&b->space, &p->g, &p->legal, to_move, obs + (size_t)i * (size_t)sp->obs_size);
    capi_legal_mask(&b->space, &p->legal, mask + (size_t)i * (size_t)sp->num_actions);
    seat[i] = (int8_t)to_move;
}

void axio_batch_reset(axio_batch *b, uint64_t seed, int8_t *obs, int8_t *mask, int8_t *seat)
{
    for (int i = 0; i < b->n; i++) {
        capi_play_start(&b->space, &b->games[i], seed + (uint64_t)i);
        write_row(b, i, obs, mask, seat);
    }
    b->next_seed = seed + (uint64_t)b->n;
    ax_rng_seed(&b->rng, seed ^ 0x72616e646f6dULL); /* "random" */
}

int axio_batch_step(axio_batch *b, const int32_t *actions, int8_t *obs, int8_t *mask,
                    float *rewards, uint8_t *terminated, int8_t *seat, int32_t *bad)
{
    const axio_spec *sp = &b->space.spec;
    for (int i = 0; i < b->n; i++) {
        if (!capi_legal_contains(&b->space, &b->games[i].legal, actions[i])) {
            *bad = i;
            return actions[i] < 0 || actions[i] >= sp->num_actions ? AXIO_E_RANGE : AXIO_E_ILLEGAL;
        }
        if (capi_play_reserve(&b->games[i]) != AXIO_OK) {
            *bad = i;
            return AXIO_E_MEMORY;
        }
    }
    int players = sp->players, ncolors = sp->ncolors;
    int per_game = b->reward == AXIO_REWARD_TRACKS ? players * ncolors : players;
    for (int i = 0; i < b->n; i++) {
        capi_play *p = &b->games[i];
        float *r = rewards + (size_t)i * (size_t)per_game;
        uint8_t before[AX_MAX_PLAYERS][AX_MAX_COLORS];
        if (b->reward == AXIO_REWARD_TRACKS)
            memcpy(before, p->g.track, sizeof before);
        capi_play_apply(&b->space, p, actions[i]); /* checked, and room reserved */
        if (b->reward == AXIO_REWARD_TRACKS) {
            for (int s = 0; s < players; s++) {
                int owner = ax_track_owner(&p->g, s);
                for (int c = 0; c < ncolors; c++)
                    r[s * ncolors + c] = (float)(p->g.track[owner][c] - before[owner][c]);
            }
        }
        terminated[i] = p->g.phase == AX_PHASE_OVER;
        if (terminated[i]) {
            if (b->reward == AXIO_REWARD_RANKING) {
                int32_t place[4];
                float reward[4];
                capi_results(&p->g, place, reward);
                memcpy(r, reward, (size_t)players * sizeof *r);
            }
            capi_play_start(&b->space, p, b->next_seed++);
        } else if (b->reward == AXIO_REWARD_RANKING) {
            memset(r, 0, (size_t)players * sizeof *r);
        }
        write_row(b, i, obs, mask, seat);
    }
    return AXIO_OK;
}

void axio_batch_random_actions(axio_batch *b, int32_t *out)
{
    for (int i = 0; i < b->n; i++)
        out[i] = capi_legal_sample(&b->space, &b->games[i].legal, &b->rng);
}

axio_game *axio_batch_game(const axio_batch *b, int i)
{
    if (i < 0 || i >= b->n)
        return NULL;
    axio_game *h = calloc(1, sizeof *h);
    if (!h)
        return NULL;
    h->space = b->space;
    if (capi_play_copy(&b->games[i], &h->play, true) != AXIO_OK) {
        free(h);
        return NULL;
    }
    return h;
}
