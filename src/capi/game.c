/*
 * game.c - one game behind the C ABI: deal, step, observe, results, and the
 * record, which is rebuilt from the seed and the decisions (the engine is
 * deterministic), so a step costs no record keeping.
 *
 * A view (axio_game_view) or a redeal (axio_game_redeal) is a game of its
 * own that can be observed and stepped, but has no record: its deal did not
 * come from a seed.
 */
#include "../engine/picture.h"
#include "../engine/record.h"
#include "capi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- a game in play --- */

int capi_play_start(const capi_space *s, capi_play *p, uint64_t seed)
{
    const axio_spec *sp = &s->spec;
    if (ax_game_init(&p->g, sp->variant, sp->players, sp->mode, seed, NULL) != AX_OK)
        return AXIO_E_CONFIG;
    p->from_seed = true;
    p->ndecisions = 0;
    capi_legal_build(s, &p->g, &p->legal);
    return AXIO_OK;
}

int capi_play_reserve(capi_play *p)
{
    if (p->ndecisions < p->capacity)
        return AXIO_OK;
    int capacity = p->capacity ? 2 * p->capacity : 128;
    ax_move *grown = realloc(p->decisions, (size_t)capacity * sizeof *grown);
    if (!grown)
        return AXIO_E_MEMORY;
    p->decisions = grown;
    p->capacity = capacity;
    return AXIO_OK;
}

int capi_play_apply(const capi_space *s, capi_play *p, int32_t action)
{
    ax_move m;
    if (!capi_action_decode(s, &p->g, &p->legal, action, &m))
        return AXIO_E_ILLEGAL;
    if (capi_play_reserve(p) != AXIO_OK)
        return AXIO_E_MEMORY;
    if (ax_apply(&p->g, &m, NULL) != AX_OK)
        return AXIO_E_ILLEGAL; /* the legal set said yes: never happens */
    p->decisions[p->ndecisions++] = m;
    capi_legal_build(s, &p->g, &p->legal);
    return AXIO_OK;
}

int capi_play_copy(const capi_play *src, capi_play *dst, bool with_history)
{
    memset(dst, 0, sizeof *dst);
    dst->g = src->g;
    dst->legal = src->legal;
    dst->from_seed = with_history && src->from_seed;
    dst->is_view = src->is_view;
    if (with_history && src->ndecisions > 0) {
        dst->decisions = malloc((size_t)src->ndecisions * sizeof(ax_move));
        if (!dst->decisions)
            return AXIO_E_MEMORY;
        memcpy(dst->decisions, src->decisions, (size_t)src->ndecisions * sizeof(ax_move));
        dst->ndecisions = dst->capacity = src->ndecisions;
    }
    return AXIO_OK;
}

void capi_play_free(capi_play *p)
{
    free(p->decisions);
    p->decisions = NULL;
    p->ndecisions = p->capacity = 0;
}

void capi_results(const ax_game *g, int32_t place[4], float reward[4])
{
    for (int s = 0; s < AX_MAX_PLAYERS; s++) {
        place[s] = 0;
        reward[s] = 0;
    }
    if (g->phase != AX_PHASE_OVER)
        return;
    ax_ranking rank;
    ax_rank(g, &rank);
    for (int i = 0; i < rank.n; i++)
        place[rank.order[i]] = rank.place[i];
    int sides = ax_sides(g);
    if (sides == 1) { /* solo: the lowest track out of the most it can be */
        int low = 255;
        for (int c = 0; c < g->ncolors; c++)
            low = g->track[0][c] < low ? g->track[0][c] : low;
        reward[0] = (float)low / (float)ax_max_score(g);
        return;
    }
    /* (sides below - sides above) / (sides - 1): 1 alone first, -1 alone last */
    int side_place[AX_MAX_PLAYERS];
    for (int s = 0; s < g->players; s++)
        side_place[ax_track_owner(g, s)] = place[s];
    for (int s = 0; s < g->players; s++) {
        int above = 0, below = 0, mine = place[s];
        for (int side = 0; side < sides; side++) {
            above += side_place[side] < mine;
            below += side_place[side] > mine;
        }
        reward[s] = (float)(below - above) / (float)(sides - 1);
    }
}

/* --- handles --- */

static axio_game *game_alloc(void)
{
    axio_game *h = calloc(1, sizeof *h);
    return h;
}

int axio_game_new(const axio_spec *spec, uint64_t seed, axio_game **out)
{
    axio_game *h = game_alloc();
    if (!h)
        return AXIO_E_MEMORY;
    int err = capi_space_init(&h->space, spec->variant, spec->players, spec->mode);
    if (err == AXIO_OK)
        err = capi_play_start(&h->space, &h->play, seed);
    if (err != AXIO_OK) {
        free(h);
        return err;
    }
    *out = h;
    return AXIO_OK;
}

void axio_game_free(axio_game *h)
{
    if (!h)
        return;
    capi_play_free(&h->play);
    free(h);
}

static axio_game *copy_of(const axio_game *h, bool with_history)
{
    axio_game *c = game_alloc();
    if (!c)
        return NULL;
    c->space = h->space;
    if (capi_play_copy(&h->play, &c->play, with_history) != AXIO_OK) {
        free(c);
        return NULL;
    }
    return c;
}

axio_game *axio_game_clone(const axio_game *h) { return copy_of(h, true); }

int axio_game_view(const axio_game *h, int seat, axio_game **out)
{
    if (seat < -1 || seat >= h->play.g.players)
        return AXIO_E_SEAT;
    axio_game *c = copy_of(h, false);
    if (!c)
        return AXIO_E_MEMORY;
    ax_view(&h->play.g, seat, &c->play.g);
    c->play.is_view = true;
    capi_legal_build(&c->space, &c->play.g, &c->play.legal);
    *out = c;
    return AXIO_OK;
}

int axio_game_redeal(const axio_game *h, int seat, uint64_t seed, axio_game **out)
{
    if (seat < 0 || seat >= h->play.g.players)
        return AXIO_E_SEAT;
    if (h->play.g.phase == AX_PHASE_OVER)
        return AXIO_E_OVER; /* everything is known at the end */
    axio_game *c = copy_of(h, false);
    if (!c)
        return AXIO_E_MEMORY;
    ax_game view;
    ax_view(&h->play.g, seat, &view);
    ax_determinize(&view, seed, &c->play.g);
    capi_legal_build(&c->space, &c->play.g, &c->play.legal);
    *out = c;
    return AXIO_OK;
}

void axio_game_status(const axio_game *h, axio_status *out)
{
    const ax_game *g = &h->play.g;
    memset(out, 0, sizeof *out);
    out->phase = g->phase == AX_PHASE_PLACE ? 0 : g->phase == AX_PHASE_SWAP ? 1 : 2;
    out->to_move = g->to_move;
    out->in_bonus = g->in_bonus;
    out->ply = g->ply;
    out->end_reason = g->end_reason;
    out->nlegal = h->play.legal.count;
    for (int s = 0; s < g->players; s++)
        for (int c = 0; c < g->ncolors; c++)
            out->tracks[s][c] = g->track[ax_track_owner(g, s)][c];
    capi_results(g, out->place, out->reward);
    out->solo_result = g->phase == AX_PHASE_OVER && g->mode == AX_SOLO ? ax_solo_result(g) : -1;
    out->seed = g->seed;
}

void axio_game_spec(const axio_game *h, axio_spec *out) { *out = h->space.spec; }

int axio_game_to_move(const axio_game *h)
{
    return h->play.g.phase == AX_PHASE_OVER ? -1 : h->play.g.to_move;
}

int axio_game_observe(const axio_game *h, int seat, int8_t *obs, int8_t *mask)
{
    const ax_game *g = &h->play.g;
    if (seat < 0 || seat >= g->players)
        return AXIO_E_SEAT;
    if (obs)
        capi_observe(&h->space, g, &h->play.legal, seat, obs);
    if (mask && seat == g->to_move && g->phase != AX_PHASE_OVER)
        capi_legal_mask(&h->space, &h->play.legal, mask);
    else if (mask)
        memset(mask, 0, (size_t)h->space.spec.num_actions);
    return AXIO_OK;
}

int axio_game_step(axio_game *h, int32_t action)
{
    if (action < 0 || action >= h->space.spec.num_actions)
        return AXIO_E_RANGE;
    if (h->play.g.phase == AX_PHASE_OVER)
        return AXIO_E_OVER;
    if (h->play.is_view)
        return AXIO_E_VIEW;
    if (!capi_legal_contains(&h->space, &h->play.legal, action))
        return AXIO_E_ILLEGAL;
    return capi_play_apply(&h->space, &h->play, action);
}

int axio_game_play(axio_game *h, int32_t action)
{
    int rc = axio_game_step(h, action);
    if (rc != AXIO_OK)
        return rc;
    return h->play.g.phase == AX_PHASE_OVER ? AXIO_GAME_OVER : h->play.g.to_move;
}

int axio_game_legal_actions(const axio_game *h, int32_t *out, int max)
{
    ax_move *moves = malloc(AX_MAX_MOVES * sizeof *moves);
    if (!moves)
        return AXIO_E_MEMORY;
    int n = ax_legal_moves(&h->play.g, moves, AX_MAX_MOVES);
    for (int i = 0; i < n && i < max; i++)
        out[i] = capi_action_encode(&h->space, &h->play.g, &h->play.legal, &moves[i]);
    free(moves);
    return n;
}

int axio_action_describe(const axio_spec *spec, int32_t action, axio_action *out)
{
    capi_space s;
    if (capi_space_init(&s, spec->variant, spec->players, spec->mode) != AXIO_OK)
        return AXIO_E_CONFIG;
    if (action < 0 || action >= s.spec.num_actions)
        return AXIO_E_RANGE;
    memset(out, 0, sizeof *out);
    out->wild = -1;
    if (s.spec.swap_action >= 0 && action >= s.spec.swap_action) {
        out->kind = 1 + (action - s.spec.swap_action);
        return AXIO_OK;
    }
    if (s.spec.variant == AX_ROTA) {
        out->slot = action / 24;
        out->rotation = (action / 6) % 4;
        out->wild = action % 6 - 1;
        return AXIO_OK;
    }
    ax_game *g = &(ax_game){0};
    ax_game_init(g, s.spec.variant, s.spec.players, s.spec.mode, 0, NULL);
    int block = s.spec.ndirs * s.ncells, c = action % s.ncells;
    out->slot = action / block;
    out->dir = (action / s.ncells) % s.spec.ndirs;
    int row = c / s.spec.window, col = c % s.spec.window;
    int first = s.spec.variant == AX_SQUARE ? (13 - g->area) / 2 : -g->area;
    if (s.spec.variant == AX_SQUARE) { /* [row, col] */
        out->a0 = first + row;
        out->b0 = first + col;
    } else { /* [q, r] */
        out->a0 = first + col;
        out->b0 = first + row;
    }
    /* the neighbour: square +col, +row, -col, -row; hex the rules' order */
    static const int square_step[4][2] = {{0, 1}, {1, 0}, {0, -1}, {-1, 0}};
    static const int hex_step[6][2] = {{1, 0}, {1, -1}, {0, -1}, {-1, 0}, {-1, 1}, {0, 1}};
    const int *step = s.spec.variant == AX_SQUARE ? square_step[out->dir] : hex_step[out->dir];
    out->a1 = out->a0 + step[0];
    out->b1 = out->b0 + step[1];
    return AXIO_OK;
}

int axio_game_explain(const axio_game *h, int32_t action, char *buf, size_t size)
{
    const ax_game *g = &h->play.g;
    const axio_spec *sp = &h->space.spec;
    const capi_legal *l = &h->play.legal;
    ax_move m;
    if (action < 0 || action >= sp->num_actions) {
        snprintf(buf, size, "action %d is not in the action space 0..%d", action,
                 sp->num_actions - 1);
    } else if (g->phase == AX_PHASE_OVER) {
        snprintf(buf, size, "the game is over");
    } else if (capi_legal_contains(&h->space, l, action)) {
        snprintf(buf, size, "%s", "");
    } else if (g->phase == AX_PHASE_SWAP) {
        snprintf(buf, size, "the swap decision is asked: action %d (keep) or %d (swap)",
                 sp->swap_action, sp->swap_action + 1);
    } else if (sp->swap_action >= 0 && action >= sp->swap_action) {
        snprintf(buf, size, "no swap decision is asked now: place a tile");
    } else if (!capi_action_decode(&h->space, g, l, action, &m)) {
        if (sp->variant == AX_ROTA)
            snprintf(buf, size, "frontier slot %d does not exist: there are %d now", action / 24,
                     l->nslots);
        else
            snprintf(buf, size, "that cell is outside the play area");
    } else {
        ax_error err = ax_check(g, &m);
        int32_t same = err == AX_OK ? capi_action_encode(&h->space, g, l, &m) : -1;
        if (err != AX_OK)
            snprintf(buf, size, "%s", ax_error_string(err));
        else if (same >= 0)
            snprintf(buf, size, "the same decision is action %d (%s)", same,
                     sp->variant == AX_ROTA ? "a colour only where it matches"
                                            : "the first of identical tiles, a double one way");
        else
            snprintf(buf, size, "not a legal decision now");
    }
    return AXIO_OK;
}

/* --- text --- */

char *axio_game_record(const axio_game *h, const char *const *names, int *err)
{
    const capi_play *p = &h->play;
    *err = AXIO_OK;
    if (!p->from_seed) {
        *err = AXIO_E_NO_RECORD;
        return NULL;
    }
    ax_game *g = malloc(sizeof *g);
    ax_events *events = malloc(sizeof *events);
    char *text = NULL;
    size_t len = 0;
    FILE *out = g && events ? open_memstream(&text, &len) : NULL;
    int rc = out ? 0 : -1;
    if (rc == 0) {
        ax_game_init(g, p->g.variant, p->g.players, p->g.mode, p->g.seed, events);
        json_t *start = ax_record_start(g, names, AX_VIEWER_ALL);
        for (int i = -1; i < p->ndecisions && rc == 0; i++) {
            if (i >= 0 && ax_apply(g, &p->decisions[i], events) != AX_OK)
                rc = -1;
            for (int e = (i < 0 ? -1 : 0); e < events->n && rc == 0; e++) {
                json_t *line = e < 0 ? start : ax_record_event(g, &events->ev[e], AX_VIEWER_ALL);
                char *s = line ? json_dumps(line, JSON_COMPACT) : NULL;
                rc = s && fprintf(out, "%s\n", s) > 0 ? 0 : -1;
                free(s);
                json_decref(line);
            }
        }
    }
    if (out && fclose(out) != 0)
        rc = -1;
    free(g);
    free(events);
    if (rc != 0) {
        free(text);
        *err = AXIO_E_MEMORY;
        return NULL;
    }
    return text;
}

char *axio_game_render(const axio_game *h)
{
    ax_game *view = malloc(sizeof *view);
    if (!view)
        return NULL;
    ax_view(&h->play.g, -1, view); /* what a spectator sees */
    size_t len = ax_picture(view, NULL, 0);
    char *text = malloc(len + 1);
    if (text)
        ax_picture(view, text, len + 1);
    free(view);
    return text;
}

int axio_game_tiles(const axio_game *h, int8_t *out, int max)
{
    const ax_game *g = &h->play.g;
    int n = 0, corners = g->variant == AX_ROTA ? 4 : 2;
    const ax_tile *lists[2 * AX_MAX_PLAYERS + 1];
    int counts[2 * AX_MAX_PLAYERS + 1], nlists = 0;
    for (int s = 0; s < g->players; s++) {
        lists[nlists] = g->rack[s];
        counts[nlists++] = g->rack_n[s];
    }
    lists[nlists] = g->bag;
    counts[nlists++] = g->bag_n;
    for (int s = 0; s < g->players; s++) {
        lists[nlists] = g->stack[s];
        counts[nlists++] = g->stack_n[s];
    }
    for (int k = 0; k < nlists; k++)
        for (int i = 0; i < counts[k] && n < max; i++, n++)
            for (int c = 0; c < 4; c++)
                out[4 * n + c] = c < corners ? lists[k][i].sym[c] : AX_NO_COLOR;
    return n;
}

void axio_free(void *p) { free(p); }
