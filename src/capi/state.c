/*
 * state.c - a game saved as text and loaded back (axio-state/1), and a game
 * rebuilt from its record (axio-record/1). batch.c saves batches with these.
 *
 * A game dealt from a seed is saved as its setup, its seed and its decisions,
 * each as its action number; a seat that left as {"leave": seat, "why": ...},
 * and a decision that its action would name another way (a game read from a
 * record may have placed a double the other way round, or the second of two
 * identical tiles, which leaves the rack in another order) as the move
 * itself: {"place": [[a, b], [c, d]], "slot": i} or, in ROTA,
 * {"place": [x, y], "rotation": r, "wild": colour or null}.
 * Loading deals the game again and applies every decision through the
 * engine, which checks each: a saved game loads in any later build whose
 * rules and action numbering are the same, and a damaged one is refused.
 *
 * A view or a redeal was not dealt from a seed. It is saved as the engine's
 * state itself (base64 of the ax_game), which holds what that game holds: a
 * view only what its seat may know, a redeal made-up hidden tiles. Only a
 * library with the same engine layout loads it (the "engine" key names the
 * layout); a loaded state must pass the engine's own consistency check.
 */
#include "../engine/decision.h"
#include "../engine/record.h"
#include "capi.h"

#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STATE_FORMAT "axio-state/1"

/* The layout a raw state was written with: loading needs the same. */
static void engine_layout(char *out, size_t size)
{
    snprintf(out, size, "ax_game/%zu/%zu/%zu/%zu/%d", sizeof(ax_game), offsetof(ax_game, cell),
             offsetof(ax_game, rota), sizeof(ax_tile), AXIO_ABI_VERSION);
}

/* --- base64 --- */

static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static char *base64_encode(const uint8_t *src, size_t n)
{
    char *out = malloc(4 * ((n + 2) / 3) + 1), *o = out;
    if (!out)
        return NULL;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)src[i] << 16;
        if (i + 1 < n)
            v |= (uint32_t)src[i + 1] << 8;
        if (i + 2 < n)
            v |= src[i + 2];
        *o++ = b64[(v >> 18) & 63];
        *o++ = b64[(v >> 12) & 63];
        *o++ = i + 1 < n ? b64[(v >> 6) & 63] : '=';
        *o++ = i + 2 < n ? b64[v & 63] : '=';
    }
    *o = 0;
    return out;
}

/* Decodes exactly `n` bytes; false if the text is not that. */
static bool base64_decode(const char *text, uint8_t *dst, size_t n)
{
    size_t len = strlen(text);
    if (len != 4 * ((n + 2) / 3))
        return false;
    size_t w = 0;
    for (size_t i = 0; i < len; i += 4) {
        uint32_t v = 0;
        int pad = 0;
        for (int k = 0; k < 4; k++) {
            const char *p = text[i + k] ? strchr(b64, text[i + k]) : NULL;
            if (text[i + k] == '=' && i + 4 == len && k >= 2) {
                pad++;
                v <<= 6;
                continue;
            }
            if (!p || pad)
                return false;
            v = v << 6 | (uint32_t)(p - b64);
        }
        for (int k = 0; k < 3 - pad; k++) {
            if (w >= n)
                return false;
            dst[w++] = (uint8_t)(v >> (16 - 8 * k));
        }
    }
    return w == n;
}

/* --- saving --- */

static json_t *seed_string(uint64_t seed)
{
    char text[24];
    snprintf(text, sizeof text, "%" PRIu64, seed);
    return json_string(text);
}

/* Whether two placements or swap answers are the same decision, exactly. */
static bool same_move(const ax_game *g, const ax_move *a, const ax_move *b)
{
    if (a->kind != b->kind)
        return false;
    if (a->kind == AX_MOVE_SWAP)
        return a->accept == b->accept;
    if (g->variant == AX_ROTA)
        return a->x == b->x && a->y == b->y && a->rotation == b->rotation && a->wild == b->wild;
    return a->rack_index == b->rack_index && a->cells[0] == b->cells[0] &&
           a->cells[1] == b->cells[1];
}

/* A placement as itself, in the rules' coordinates. */
static json_t *move_json(const ax_game *g, const ax_move *m)
{
    if (m->kind != AX_MOVE_PLACE)
        return NULL;
    if (g->variant == AX_ROTA)
        return json_pack("{s:[i,i],s:i,s:o}", "place", m->x, m->y, "rotation", m->rotation, "wild",
                         m->wild >= 0 ? json_string(ax_color_name(m->wild)) : json_null());
    int a0, b0, a1, b1;
    ax_cell_coords(g, m->cells[0], &a0, &b0);
    ax_cell_coords(g, m->cells[1], &a1, &b1);
    return json_pack("{s:[[i,i],[i,i]],s:i}", "place", a0, b0, a1, b1, "slot", m->rack_index);
}

/* The move a move_json object names (false: malformed; not checked for legality). */
static bool move_from_json(const ax_game *g, json_t *obj, ax_move *m)
{
    memset(m, 0, sizeof *m);
    m->kind = AX_MOVE_PLACE;
    m->wild = AX_NO_COLOR;
    json_t *place = json_object_get(obj, "place");
    if (g->variant == AX_ROTA) {
        int x, y;
        json_t *rotation = json_object_get(obj, "rotation"), *wild = json_object_get(obj, "wild");
        if (!ax_pair_from_json(place, &x, &y) || !json_is_integer(rotation) ||
            json_integer_value(rotation) < 0 || json_integer_value(rotation) > 3 ||
            (!json_is_null(wild) && !json_is_string(wild)))
            return false;
        m->x = (int16_t)x;
        m->y = (int16_t)y;
        m->rotation = (uint8_t)json_integer_value(rotation);
        if (json_is_string(wild)) {
            int c = ax_color_parse(json_string_value(wild), g->ncolors);
            if (c < 0)
                return false;
            m->wild = (int8_t)c;
        }
        return true;
    }
    json_t *slot = json_object_get(obj, "slot");
    int cell[2];
    for (int k = 0; k < 2; k++) {
        int a, b;
        if (!json_is_array(place) || json_array_size(place) != 2 ||
            !ax_pair_from_json(json_array_get(place, (size_t)k), &a, &b) ||
            (cell[k] = ax_cell_index(g, a, b)) < 0)
            return false;
    }
    if (!json_is_integer(slot) || json_integer_value(slot) < 0 ||
        json_integer_value(slot) >= AX_MAX_RACK)
        return false;
    m->rack_index = (uint8_t)json_integer_value(slot);
    m->cells[0] = (int16_t)cell[0];
    m->cells[1] = (int16_t)cell[1];
    return true;
}

/* The decisions of a game dealt from a seed, as action numbers (a leave, or
 * a move its action would name another way, as an object), found by
 * replaying them from the seed. */
static json_t *decisions_json(const capi_space *s, const capi_play *p)
{
    json_t *list = json_array();
    ax_game *g = malloc(sizeof *g);
    capi_legal *l = malloc(sizeof *l);
    bool ok = list && g && l;
    if (ok) {
        const axio_spec *sp = &s->spec;
        ax_game_init(g, sp->variant, sp->players, sp->mode, p->g.seed, NULL);
        capi_legal_build(s, g, l);
    }
    for (int i = 0; ok && i < p->ndecisions; i++) {
        const ax_move *m = &p->decisions[i];
        json_t *item;
        ax_move named;
        int32_t action = m->kind == AX_MOVE_LEAVE ? -1 : capi_action_encode(s, g, l, m);
        if (m->kind == AX_MOVE_LEAVE)
            item = json_pack("{s:i,s:s}", "leave", m->seat, "why", ax_leave_why_name(m->why));
        else if (action >= 0 && capi_action_decode(s, g, l, action, &named) &&
                 same_move(g, m, &named))
            item = json_integer(action);
        else
            item = move_json(g, m);
        ok = item && json_array_append_new(list, item) == 0 && ax_apply(g, m, NULL) == AX_OK;
        if (ok)
            capi_legal_build(s, g, l);
    }
    free(g);
    free(l);
    if (!ok) {
        json_decref(list);
        return NULL;
    }
    return list;
}

json_t *capi_state_json(const capi_space *s, const capi_play *p)
{
    const axio_spec *sp = &s->spec;
    json_t *obj = json_pack("{s:s,s:s,s:i,s:s}", "format", STATE_FORMAT, "variant",
                            ax_variant_name(sp->variant), "players", sp->players, "mode",
                            ax_mode_name(sp->mode));
    if (!obj)
        return NULL;
    bool ok;
    if (p->from_seed) {
        json_t *decisions = decisions_json(s, p);
        ok = decisions && json_object_set_new(obj, "seed", seed_string(p->g.seed)) == 0 &&
             json_object_set_new(obj, "decisions", decisions) == 0;
    } else {
        char layout[96];
        engine_layout(layout, sizeof layout);
        char *raw = base64_encode((const uint8_t *)&p->g, sizeof p->g);
        ok = raw &&
             json_object_set_new(obj, "kind", json_string(p->is_view ? "view" : "redeal")) == 0 &&
             json_object_set_new(obj, "engine", json_string(layout)) == 0 &&
             json_object_set_new(obj, "state", json_string(raw)) == 0;
        free(raw);
    }
    if (!ok) {
        json_decref(obj);
        return NULL;
    }
    return obj;
}

char *axio_game_save(const axio_game *h, int *err)
{
    json_t *obj = capi_state_json(&h->space, &h->play);
    char *text = obj ? json_dumps(obj, JSON_COMPACT) : NULL;
    json_decref(obj);
    *err = text ? AXIO_OK : AXIO_E_MEMORY;
    return text;
}

/* --- loading --- */

static bool parse_seed(json_t *v, uint64_t *seed)
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
    *seed = x;
    return true;
}

/* Applies a decision saved as an object (a leave, or a move itself) as the
 * engine checks it. */
static int apply_object(const capi_space *s, capi_play *p, json_t *item)
{
    ax_move m;
    if (json_object_get(item, "leave")) {
        json_t *seat = json_object_get(item, "leave");
        int why = ax_leave_why_parse(json_string_value(json_object_get(item, "why")));
        if (!json_is_integer(seat) || why < 0 || json_integer_value(seat) < 0 ||
            json_integer_value(seat) >= p->g.players)
            return AXIO_E_CONFIG;
        m = (ax_move){
            .kind = AX_MOVE_LEAVE, .seat = (uint8_t)json_integer_value(seat), .why = (uint8_t)why};
    } else if (!move_from_json(&p->g, item, &m)) {
        return AXIO_E_CONFIG;
    }
    if (p->g.phase == AX_PHASE_OVER)
        return AXIO_E_OVER;
    if (ax_check(&p->g, &m) != AX_OK)
        return AXIO_E_ILLEGAL;
    if (capi_play_reserve(p) != AXIO_OK)
        return AXIO_E_MEMORY;
    ax_apply(&p->g, &m, NULL);
    p->decisions[p->ndecisions++] = m;
    capi_legal_build(s, &p->g, &p->legal);
    return AXIO_OK;
}

static int load_decisions(const capi_space *s, capi_play *p, json_t *list, char *err, size_t errlen)
{
    if (!json_is_array(list))
        return ax_fail(err, errlen, AXIO_E_CONFIG, "\"decisions\" must be a list");
    size_t i;
    json_t *item;
    json_array_foreach(list, i, item)
    {
        int rc;
        if (json_is_integer(item)) {
            json_int_t a = json_integer_value(item);
            if (a < 0 || a >= s->spec.num_actions)
                rc = AXIO_E_RANGE;
            else if (p->g.phase == AX_PHASE_OVER)
                rc = AXIO_E_OVER;
            else if (!capi_legal_contains(s, &p->legal, (int32_t)a))
                rc = AXIO_E_ILLEGAL;
            else
                rc = capi_play_apply(s, p, (int32_t)a);
        } else if (json_is_object(item)) {
            rc = apply_object(s, p, item);
        } else {
            rc = AXIO_E_CONFIG;
        }
        if (rc == AXIO_E_MEMORY)
            return rc;
        if (rc != AXIO_OK)
            return ax_fail(err, errlen, AXIO_E_CONFIG, "decision %zu is not %s", i,
                           rc == AXIO_E_CONFIG ? "an action number, a move or a leave"
                           : rc == AXIO_E_OVER ? "possible: the game is over before it"
                                               : "legal there");
    }
    return AXIO_OK;
}

static int load_raw(capi_play *p, json_t *obj, const char *kind, char *err, size_t errlen)
{
    char layout[96];
    engine_layout(layout, sizeof layout);
    const char *theirs = json_string_value(json_object_get(obj, "engine"));
    const char *raw = json_string_value(json_object_get(obj, "state"));
    if (!theirs || !raw)
        return ax_fail(err, errlen, AXIO_E_CONFIG,
                       "a view or redeal needs \"engine\" and \"state\"");
    if (strcmp(theirs, layout) != 0)
        return ax_fail(err, errlen, AXIO_E_CONFIG,
                       "this %s was saved by a library with another engine layout: load it with "
                       "that build (a game dealt from a seed loads in any)",
                       kind);
    ax_game *g = malloc(sizeof *g);
    if (!g)
        return AXIO_E_MEMORY;
    bool ok = base64_decode(raw, (uint8_t *)g, sizeof *g);
    ok = ok && g->variant == p->g.variant && g->players == p->g.players && g->mode == p->g.mode &&
         g->phase <= AX_PHASE_OVER && ax_game_consistent(g);
    if (ok)
        p->g = *g;
    free(g);
    if (!ok)
        return ax_fail(err, errlen, AXIO_E_CONFIG, "the %s's \"state\" is damaged", kind);
    p->from_seed = false;
    p->is_view = strcmp(kind, "view") == 0;
    return AXIO_OK;
}

int capi_state_load(json_t *obj, capi_space *s, capi_play *p, char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    if (!json_is_object(obj))
        return ax_fail(err, errlen, AXIO_E_CONFIG, "a state is a JSON object");
    const char *format = json_string_value(json_object_get(obj, "format"));
    if (!format || strcmp(format, STATE_FORMAT) != 0)
        return ax_fail(err, errlen, AXIO_E_CONFIG,
                       "not a saved game (\"format\" is not \"" STATE_FORMAT "\")");
    int variant = ax_variant_parse(json_string_value(json_object_get(obj, "variant")));
    int mode = ax_mode_parse(json_string_value(json_object_get(obj, "mode")));
    json_t *np = json_object_get(obj, "players");
    json_int_t players = json_is_integer(np) ? json_integer_value(np) : 0;
    if (variant < 0 || mode < 0 || players < 1 || players > AX_MAX_PLAYERS ||
        capi_space_init(s, variant, (int)players, mode) != AXIO_OK)
        return ax_fail(err, errlen, AXIO_E_CONFIG,
                       "variant, players and mode are not those of a game");
    const char *kind = json_string_value(json_object_get(obj, "kind"));
    if (kind && strcmp(kind, "view") != 0 && strcmp(kind, "redeal") != 0)
        return ax_fail(err, errlen, AXIO_E_CONFIG, "\"kind\" is \"view\" or \"redeal\"");
    uint64_t seed = 0;
    if (!kind && !parse_seed(json_object_get(obj, "seed"), &seed))
        return ax_fail(err, errlen, AXIO_E_CONFIG, "\"seed\" must be a string of digits");
    capi_play_start(s, p, seed);
    int rc = kind ? load_raw(p, obj, kind, err, errlen)
                  : load_decisions(s, p, json_object_get(obj, "decisions"), err, errlen);
    if (rc == AXIO_OK && kind)
        capi_legal_build(s, &p->g, &p->legal);
    if (rc != AXIO_OK)
        capi_play_free(p);
    return rc;
}

int axio_game_load(const char *text, axio_game **out, char *err, size_t errlen)
{
    json_error_t jerr;
    json_t *obj = json_loads(text, JSON_REJECT_DUPLICATES, &jerr);
    if (!obj)
        return ax_fail(err, errlen, AXIO_E_CONFIG, "not JSON: %s", jerr.text);
    axio_game *h = calloc(1, sizeof *h);
    int rc = h ? capi_state_load(obj, &h->space, &h->play, err, errlen) : AXIO_E_MEMORY;
    json_decref(obj);
    if (rc != AXIO_OK) {
        free(h);
        return rc;
    }
    *out = h;
    return AXIO_OK;
}

/* --- from a record --- */

/* The decision a record line makes for the game as it stands, if it makes one. */
static int line_decision(const ax_game *g, const char *line, ax_move *m, bool *is_decision)
{
    *is_decision = false;
    json_t *obj = json_loads(line, 0, NULL);
    const char *ev = json_string_value(json_object_get(obj, "ev"));
    int rc = AX_REPLAY_OK;
    if (ev && (!strcmp(ev, "place") || !strcmp(ev, "swap") || !strcmp(ev, "leave"))) {
        bool reversed;
        char why[8];
        rc = ax_decision_from_event(g, obj, m, &reversed, why, sizeof why);
        *is_decision = rc == AX_REPLAY_OK;
    }
    json_decref(obj);
    return rc;
}

int axio_game_from_record(const char *text, axio_game **out, char *err, size_t errlen)
{
    ax_replay *r = malloc(sizeof *r);
    axio_game *h = calloc(1, sizeof *h);
    char *copy = strdup(text);
    int rc = r && h && copy ? AXIO_OK : AXIO_E_MEMORY;
    if (rc == AXIO_OK)
        ax_replay_init(r);
    char why[256] = "";
    int lines = 0;
    for (char *line = copy, *next; rc == AXIO_OK && line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = 0;
        if (!*line || strspn(line, " \t\r") == strlen(line))
            continue; /* blank lines between records' lines are harmless */
        lines++;
        ax_move m;
        bool decision = false;
        if (r->started && r->next >= r->pending.n && !r->ended)
            line_decision(&r->game, line, &m, &decision);
        if (ax_replay_line(r, line, why, sizeof why) != AX_REPLAY_OK) {
            rc = lines == 1 && !strstr(line, "\"seed\"") ? AXIO_E_NO_RECORD : AXIO_E_CONFIG;
        } else if (lines == 1) {
            if (capi_space_init(&h->space, r->game.variant, r->game.players, r->game.mode) !=
                AXIO_OK)
                rc = AXIO_E_CONFIG;
            else
                capi_play_start(&h->space, &h->play, r->game.seed);
        } else if (decision) {
            rc = capi_play_reserve(&h->play);
            if (rc == AXIO_OK)
                h->play.decisions[h->play.ndecisions++] = m;
        }
    }
    if (rc == AXIO_OK && lines == 0) {
        snprintf(why, sizeof why, "the record is empty");
        rc = AXIO_E_CONFIG;
    }
    if (rc == AXIO_OK) { /* the replay's game is the record's: take it as it stands */
        h->play.g = r->game;
        capi_legal_build(&h->space, &h->play.g, &h->play.legal);
    }
    if (rc == AXIO_E_NO_RECORD)
        snprintf(why, sizeof why,
                 "line 1: the record has no seed (a player's view of a game): "
                 "only a complete record can be replayed");
    if (rc != AXIO_OK && h)
        capi_play_free(&h->play);
    free(r);
    free(copy);
    if (rc != AXIO_OK) {
        free(h);
        if (err && errlen)
            snprintf(err, errlen, "%s", rc == AXIO_E_MEMORY ? "no memory" : why);
        return rc;
    }
    *out = h;
    return AXIO_OK;
}
