/*
 * batch.c - many games stepped in one call, for training. The caller binds
 * its buffers once (axio_batch_bind): every step writes the next
 * observations, masks, seats, rewards and terminations there, so a step
 * allocates nothing; the loop over games, the engine's decisions, the legal
 * sets, masks and observations all run here.
 *
 * Row i shows the view of the seat to move in game i. When game i ends:
 * - next-step autoreset (Gymnasium's default): the row shows the final
 *   position as the seat that ended it sees it, with an empty mask; the next
 *   step ignores game i's action, deals it anew and shows the new game with
 *   reward 0 and no termination;
 * - same-step autoreset: that final view goes to the final-observation
 *   buffers and game i is dealt anew in the same step.
 * A new game takes the next seed of the batch (reset's seed + n, + n + 1,
 * ... in the order games start), so a batch is reproducible from its seed
 * and the actions. rewards[i] is the reward of the seat that acted in game
 * i; seat_rewards every seat's.
 */
#include "capi.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct axio_batch {
    capi_space space;
    int n, reward, autoreset;
    uint64_t next_seed;
    ax_rng rng; /* axio_batch_random_actions */
    capi_play *games;
    uint8_t *pending;  /* next-step: game i ended; the next step deals it anew */
    int8_t *row_seat;  /* whose view row i shows */
    capi_shown *shown; /* what row i's board shows (the next write changes only what differs) */
    axio_batch_out out;
    bool bound;
};

static axio_batch *batch_alloc(const capi_space *space, int n)
{
    axio_batch *b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    b->space = *space;
    b->n = n;
    b->games = calloc((size_t)n, sizeof *b->games);
    b->pending = calloc((size_t)n, 1);
    b->row_seat = calloc((size_t)n, 1);
    b->shown = calloc((size_t)n, sizeof *b->shown);
    if (!b->games || !b->pending || !b->row_seat || !b->shown) {
        axio_batch_free(b);
        return NULL;
    }
    return b;
}

/* Room for the decisions of a whole game (each a placement of one of the
 * tiles, a swap answer after one, or a leave), so that a step never needs
 * more: then checking the actions is all that can refuse a step. */
#define GAME_DECISIONS (2 * AX_MAX_TILES + AX_MAX_PLAYERS)

static void start(axio_batch *b, capi_play *p, uint64_t seed)
{
    capi_play_start(&b->space, p, seed);
    if (p->capacity < GAME_DECISIONS) {
        ax_move *room = realloc(p->decisions, GAME_DECISIONS * sizeof *room);
        if (room) { /* else the step makes room as a game grows */
            p->decisions = room;
            p->capacity = GAME_DECISIONS;
        }
    }
}

int axio_batch_new(const axio_spec *spec, int n, int reward, int autoreset, axio_batch **out)
{
    if (n < 1 || (reward != AXIO_REWARD_RANKING && reward != AXIO_REWARD_TRACKS) ||
        (autoreset != AXIO_AUTORESET_NEXT_STEP && autoreset != AXIO_AUTORESET_SAME_STEP))
        return AXIO_E_CONFIG;
    capi_space space;
    int err = capi_space_init(&space, spec->variant, spec->players, spec->mode);
    if (err != AXIO_OK)
        return err;
    axio_batch *b = batch_alloc(&space, n);
    if (!b)
        return AXIO_E_MEMORY;
    b->reward = reward;
    b->autoreset = autoreset;
    for (int i = 0; i < n; i++) {
        start(b, &b->games[i], (uint64_t)i);
        b->row_seat[i] = (int8_t)b->games[i].g.to_move;
    }
    b->next_seed = (uint64_t)n;
    ax_rng_seed(&b->rng, 0x72616e646f6dULL); /* "random" */
    *out = b;
    return AXIO_OK;
}

void axio_batch_free(axio_batch *b)
{
    if (!b)
        return;
    for (int i = 0; b->games && i < b->n; i++)
        capi_play_free(&b->games[i]);
    free(b->games);
    free(b->pending);
    free(b->row_seat);
    free(b->shown);
    free(b);
}

axio_batch *axio_batch_clone(const axio_batch *src)
{
    axio_batch *b = batch_alloc(&src->space, src->n);
    if (!b)
        return NULL;
    b->reward = src->reward;
    b->autoreset = src->autoreset;
    b->next_seed = src->next_seed;
    b->rng = src->rng;
    memcpy(b->pending, src->pending, (size_t)src->n);
    memcpy(b->row_seat, src->row_seat, (size_t)src->n);
    for (int i = 0; i < src->n; i++)
        if (capi_play_copy(&src->games[i], &b->games[i], true) != AXIO_OK) {
            axio_batch_free(b);
            return NULL;
        }
    return b;
}

void axio_batch_info(const axio_batch *b, axio_spec *spec, int *n, int *reward, int *autoreset)
{
    *spec = b->space.spec;
    *n = b->n;
    *reward = b->reward;
    *autoreset = b->autoreset;
}

/* --- rows --- */

/* Row i: the view of the seat to move, or at the end (next-step) of the seat
 * that ended the game, with an empty mask. */
static void write_row(axio_batch *b, int i)
{
    const axio_spec *sp = &b->space.spec;
    const capi_play *p = &b->games[i];
    int8_t *obs = b->out.obs + (size_t)i * (size_t)sp->obs_size;
    int8_t *mask = b->out.mask + (size_t)i * (size_t)sp->num_actions;
    capi_shown *shown = &b->shown[i];
    if (p->g.phase == AX_PHASE_OVER) {
        capi_observe_row(&b->space, &p->g, &p->legal, b->row_seat[i], obs, shown);
        capi_mask_row_clear(&b->space, mask, shown);
    } else {
        b->row_seat[i] = (int8_t)p->g.to_move;
        capi_observe_row(&b->space, &p->g, &p->legal, p->g.to_move, obs, shown);
        capi_legal_mask_row(&b->space, &p->legal, mask, shown);
    }
    b->out.seat[i] = b->row_seat[i];
}

static int per_game(const axio_batch *b)
{
    const axio_spec *sp = &b->space.spec;
    return b->reward == AXIO_REWARD_TRACKS ? sp->players * sp->ncolors : sp->players;
}

static void clear_rewards(axio_batch *b, int i)
{
    b->out.reward[i] = 0;
    memset(b->out.seat_rewards + (size_t)i * (size_t)per_game(b), 0,
           (size_t)per_game(b) * sizeof(float));
}

int axio_batch_bind(axio_batch *b, const axio_batch_out *out)
{
    if (!out->obs || !out->mask || !out->seat || !out->reward || !out->seat_rewards ||
        !out->terminated ||
        (b->autoreset == AXIO_AUTORESET_SAME_STEP && (!out->final_obs || !out->final_seat)))
        return AXIO_E_CONFIG;
    b->out = *out;
    b->bound = true;
    memset(b->shown, 0, (size_t)b->n * sizeof *b->shown); /* new buffers: write them whole */
    for (int i = 0; i < b->n; i++) {
        write_row(b, i);
        clear_rewards(b, i);
        b->out.terminated[i] = 0;
    }
    return AXIO_OK;
}

static void deal(axio_batch *b, int i, uint64_t seed)
{
    start(b, &b->games[i], seed);
    b->pending[i] = 0;
    b->shown[i].board_valid = false; /* a new deal: its printed symbols are others */
    write_row(b, i);
    clear_rewards(b, i);
    b->out.terminated[i] = 0;
}

int axio_batch_reset(axio_batch *b, uint64_t seed, int use_seed, const uint8_t *which)
{
    if (!b->bound)
        return AXIO_E_CONFIG;
    for (int i = 0; i < b->n; i++) {
        if (which && !which[i])
            continue;
        deal(b, i, use_seed ? seed + (uint64_t)i : b->next_seed++);
    }
    if (use_seed && !which) {
        b->next_seed = seed + (uint64_t)b->n;
        ax_rng_seed(&b->rng, seed ^ 0x72616e646f6dULL);
    } else if (use_seed && b->next_seed < seed + (uint64_t)b->n) {
        b->next_seed = seed + (uint64_t)b->n; /* never deal those seeds again */
    }
    return AXIO_OK;
}

int axio_batch_step(axio_batch *b, const int32_t *actions, int32_t *bad)
{
    const axio_spec *sp = &b->space.spec;
    if (!b->bound)
        return AXIO_E_CONFIG;
    for (int i = 0; i < b->n; i++) {
        if (b->pending[i])
            continue; /* next-step: its action is ignored */
        if (!capi_legal_contains(&b->space, &b->games[i].legal, actions[i])) {
            *bad = i;
            return actions[i] < 0 || actions[i] >= sp->num_actions ? AXIO_E_RANGE : AXIO_E_ILLEGAL;
        }
        /* room for the decision: made at the deal (start), so this reads no more memory
         * unless that allocation failed */
        if (b->games[i].capacity < GAME_DECISIONS && capi_play_reserve(&b->games[i]) != AXIO_OK) {
            *bad = i;
            return AXIO_E_MEMORY;
        }
    }
    const int players = sp->players, ncolors = sp->ncolors, stride = per_game(b);
    const bool tracks = b->reward == AXIO_REWARD_TRACKS;
    for (int i = 0; i < b->n; i++) {
        if (b->pending[i]) {
            deal(b, i, b->next_seed++);
            continue;
        }
        capi_play *p = &b->games[i];
        float *r = b->out.seat_rewards + (size_t)i * (size_t)stride;
        int actor = p->g.to_move;
        uint8_t before[AX_MAX_PLAYERS][AX_MAX_COLORS];
        if (tracks)
            memcpy(before, p->g.track, sizeof before);
        capi_play_apply(&b->space, p, actions[i]); /* checked, and room reserved */
        bool over = p->g.phase == AX_PHASE_OVER;
        if (tracks) {
            float sum = 0;
            for (int s = 0; s < players; s++) {
                int owner = ax_track_owner(&p->g, s);
                for (int c = 0; c < ncolors; c++) {
                    float gain = (float)(p->g.track[owner][c] - before[owner][c]);
                    r[s * ncolors + c] = gain;
                    sum += s == actor ? gain : 0;
                }
            }
            b->out.reward[i] = sum;
        } else if (over) {
            int32_t place[4];
            float reward[4];
            capi_results(&p->g, place, reward);
            memcpy(r, reward, (size_t)players * sizeof *r);
            b->out.reward[i] = reward[actor];
        } else {
            memset(r, 0, (size_t)players * sizeof *r);
            b->out.reward[i] = 0;
        }
        b->out.terminated[i] = over;
        if (!over) {
            write_row(b, i);
        } else if (b->autoreset == AXIO_AUTORESET_NEXT_STEP) {
            b->row_seat[i] = (int8_t)actor;
            b->pending[i] = 1;
            write_row(b, i);
        } else { /* same-step: the final view aside, and a new game at once */
            capi_observe(&b->space, &p->g, &p->legal, actor,
                         b->out.final_obs + (size_t)i * (size_t)sp->obs_size);
            b->out.final_seat[i] = (int8_t)actor;
            start(b, p, b->next_seed++);
            b->shown[i].board_valid = false;
            write_row(b, i);
        }
    }
    return AXIO_OK;
}

void axio_batch_random_actions(axio_batch *b, int32_t *out)
{
    for (int i = 0; i < b->n; i++) {
        int32_t a = b->pending[i] ? 0 : capi_legal_sample(&b->space, &b->games[i].legal, &b->rng);
        out[i] = a < 0 ? 0 : a;
    }
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

/* --- saving --- */

#define BATCH_FORMAT "axio-batch-state/1"

static json_t *u64_string(uint64_t v)
{
    char text[24];
    snprintf(text, sizeof text, "%" PRIu64, v);
    return json_string(text);
}

static bool u64_parse(json_t *v, uint64_t *out)
{
    const char *text = json_string_value(v);
    if (!text || !*text || strlen(text) > 20)
        return false;
    uint64_t x = 0;
    for (const char *c = text; *c; c++) {
        if (*c < '0' || *c > '9' || x > (UINT64_MAX - (uint64_t)(*c - '0')) / 10)
            return false;
        x = x * 10 + (uint64_t)(*c - '0');
    }
    *out = x;
    return true;
}

char *axio_batch_save(const axio_batch *b, int *err)
{
    json_t *games = json_array(), *rng = json_array(), *pending = json_array(),
           *seats = json_array();
    bool ok = games && rng && pending && seats;
    for (int k = 0; ok && k < 4; k++)
        ok = json_array_append_new(rng, u64_string(b->rng.s[k])) == 0;
    for (int i = 0; ok && i < b->n; i++) {
        json_t *state = capi_state_json(&b->space, &b->games[i]);
        ok = state && json_array_append_new(games, state) == 0 &&
             json_array_append_new(pending, json_boolean(b->pending[i])) == 0 &&
             json_array_append_new(seats, json_integer(b->row_seat[i])) == 0;
    }
    json_t *obj =
        ok ? json_pack("{s:s,s:i,s:s,s:s,s:o,s:o,s:o,s:o,s:o}", "format", BATCH_FORMAT, "n", b->n,
                       "reward", b->reward == AXIO_REWARD_TRACKS ? "tracks" : "ranking",
                       "autoreset",
                       b->autoreset == AXIO_AUTORESET_SAME_STEP ? "same-step" : "next-step",
                       "next_seed", u64_string(b->next_seed), "rng", rng, "pending", pending,
                       "row_seat", seats, "games", games)
           : NULL;
    if (!obj) {
        json_decref(games);
        json_decref(rng);
        json_decref(pending);
        json_decref(seats);
    }
    char *text = obj ? json_dumps(obj, JSON_COMPACT) : NULL;
    json_decref(obj);
    *err = text ? AXIO_OK : AXIO_E_MEMORY;
    return text;
}

static int batch_from_json(json_t *obj, axio_batch **out, char *err, size_t errlen)
{
    const char *format = json_string_value(json_object_get(obj, "format"));
    if (!format || strcmp(format, BATCH_FORMAT) != 0)
        return ax_fail(err, errlen, AXIO_E_CONFIG,
                       "not a saved VectorEnv (\"format\" is not \"" BATCH_FORMAT "\")");
    json_t *games = json_object_get(obj, "games"), *rng = json_object_get(obj, "rng");
    json_t *pending = json_object_get(obj, "pending"), *seats = json_object_get(obj, "row_seat");
    const char *reward = json_string_value(json_object_get(obj, "reward"));
    const char *autoreset = json_string_value(json_object_get(obj, "autoreset"));
    size_t n = json_array_size(games);
    if (n < 1 || n > (1u << 24) || json_array_size(pending) != n || json_array_size(seats) != n ||
        json_array_size(rng) != 4 || !reward || !autoreset ||
        (strcmp(reward, "ranking") && strcmp(reward, "tracks")) ||
        (strcmp(autoreset, "next-step") && strcmp(autoreset, "same-step")))
        return ax_fail(err, errlen, AXIO_E_CONFIG,
                       "a saved VectorEnv needs games, pending, row_seat, rng, "
                       "reward and autoreset");
    capi_space space;
    capi_play first;
    int rc = capi_state_load(json_array_get(games, 0), &space, &first, err, errlen);
    if (rc != AXIO_OK)
        return rc;
    capi_play_free(&first);
    axio_batch *b = batch_alloc(&space, (int)n);
    if (!b)
        return AXIO_E_MEMORY;
    b->reward = strcmp(reward, "tracks") == 0 ? AXIO_REWARD_TRACKS : AXIO_REWARD_RANKING;
    b->autoreset =
        strcmp(autoreset, "same-step") == 0 ? AXIO_AUTORESET_SAME_STEP : AXIO_AUTORESET_NEXT_STEP;
    bool ok = u64_parse(json_object_get(obj, "next_seed"), &b->next_seed);
    for (int k = 0; ok && k < 4; k++)
        ok = u64_parse(json_array_get(rng, (size_t)k), &b->rng.s[k]);
    if (!ok)
        rc = ax_fail(err, errlen, AXIO_E_CONFIG, "next_seed and rng are strings of digits");
    for (size_t i = 0; rc == AXIO_OK && i < n; i++) {
        capi_space s;
        rc = capi_state_load(json_array_get(games, i), &s, &b->games[i], err, errlen);
        json_t *seat = json_array_get(seats, i), *wait = json_array_get(pending, i);
        if (rc != AXIO_OK)
            break;
        const ax_game *g = &b->games[i].g;
        bool over = g->phase == AX_PHASE_OVER;
        if (memcmp(&s.spec, &space.spec, sizeof s.spec) != 0 || !b->games[i].from_seed ||
            !json_is_boolean(wait) || !json_is_integer(seat) || json_integer_value(seat) < 0 ||
            json_integer_value(seat) >= g->players ||
            json_is_true(wait) != (over && b->autoreset == AXIO_AUTORESET_NEXT_STEP) ||
            (over && b->autoreset == AXIO_AUTORESET_SAME_STEP))
            rc = ax_fail(err, errlen, AXIO_E_CONFIG,
                         "the games of a saved VectorEnv do not fit together");
        else {
            b->pending[i] = json_is_true(wait);
            b->row_seat[i] = (int8_t)json_integer_value(seat);
        }
    }
    if (rc != AXIO_OK) {
        axio_batch_free(b);
        return rc;
    }
    *out = b;
    return AXIO_OK;
}

int axio_batch_load(const char *text, axio_batch **out, char *err, size_t errlen)
{
    json_error_t jerr;
    json_t *obj = json_loads(text, JSON_REJECT_DUPLICATES, &jerr);
    if (!obj) {
        if (err && errlen)
            snprintf(err, errlen, "not JSON: %s", jerr.text);
        return AXIO_E_CONFIG;
    }
    int rc = batch_from_json(obj, out, err, errlen);
    json_decref(obj);
    return rc;
}
