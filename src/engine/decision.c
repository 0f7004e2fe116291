/*
 * decision.c - a decision as JSON, both notations, and a stored game's
 * decisions replayed (decision.h).
 *
 * The readers check the shape of what they read and turn it into an ax_move;
 * whether the move is legal stays the engine's (ax_check, ax_apply), so that
 * every caller (the server, the record's replay, the engine protocol, the C
 * ABI) refuses the same decisions for the same reasons.
 */
#include "decision.h"

#include "reason.h"

#include <stdio.h>
#include <string.h>

/* --- the message --- */

/* The largest coordinate worth asking the engine about; beyond it a cell
 * is simply not on the board (and never overflows an int16). */
#define COORD_MAX 10000

static int illegal(char *why, size_t n, ax_error err, ax_error *out)
{
    if (out)
        *out = err;
    return ax_fail(why, n, AX_REPLAY_INCONSISTENT, "%s", ax_error_string(err));
}

/* A JSON integer field; absent or of another type is a malformed message. */
static bool get_int(const json_t *msg, const char *key, json_int_t *out)
{
    const json_t *v = json_object_get(msg, key);
    if (!json_is_integer(v))
        return false;
    *out = json_integer_value(v);
    return true;
}

/* [a, b] with two integers. */
static bool get_pair(const json_t *v, json_int_t *a, json_int_t *b)
{
    if (!json_is_array(v) || json_array_size(v) != 2 || !json_is_integer(json_array_get(v, 0)) ||
        !json_is_integer(json_array_get(v, 1)))
        return false;
    *a = json_integer_value(json_array_get(v, 0));
    *b = json_integer_value(json_array_get(v, 1));
    return true;
}

static bool coord_ok(json_int_t a, json_int_t b)
{
    return a >= -COORD_MAX && a <= COORD_MAX && b >= -COORD_MAX && b <= COORD_MAX;
}

/* The cells of a grid placement; a cell off the board is -1, for ax_check
 * to refuse. */
static int grid_place(const ax_game *g, const json_t *msg, ax_move *m, char *why, size_t n)
{
    const json_t *cells = json_object_get(msg, "cells");
    if (!json_is_array(cells) || json_array_size(cells) != 2)
        return ax_fail(why, n, AX_REPLAY_MALFORMED, "cells must be two cells [[a,b],[c,d]]");
    for (int k = 0; k < 2; k++) {
        json_int_t a, b;
        if (!get_pair(json_array_get(cells, (size_t)k), &a, &b))
            return ax_fail(why, n, AX_REPLAY_MALFORMED, "cells must be two cells [[a,b],[c,d]]");
        int cell = coord_ok(a, b) ? ax_cell_index(g, (int)a, (int)b) : -1;
        m->cells[k] = (int16_t)cell;
    }
    return AX_REPLAY_OK;
}

static int rota_place(const ax_game *g, const json_t *msg, ax_move *m, char *why, size_t n,
                      ax_error *ill)
{
    json_int_t x, y, rotation;
    if (!get_pair(json_object_get(msg, "cell"), &x, &y))
        return ax_fail(why, n, AX_REPLAY_MALFORMED, "cell must be a cell [x,y]");
    if (!get_int(msg, "rotation", &rotation))
        return ax_fail(why, n, AX_REPLAY_MALFORMED, "rotation must be an integer 0..3");
    const json_t *wild = json_object_get(msg, "wild");
    if (wild && !json_is_null(wild) && !json_is_string(wild))
        return ax_fail(why, n, AX_REPLAY_MALFORMED, "wild must be a colour or null");
    if (!coord_ok(x, y))
        return illegal(why, n, AX_ERR_DISPLAY, ill);
    if (rotation < 0 || rotation > 3)
        return illegal(why, n, AX_ERR_ROTATION, ill);
    m->x = (int16_t)x;
    m->y = (int16_t)y;
    m->rotation = (uint8_t)rotation;
    m->wild = AX_NO_COLOR;
    if (json_is_string(wild)) {
        int color = ax_color_parse(json_string_value(wild), g->ncolors);
        if (color < 0)
            return illegal(why, n, AX_ERR_WILD, ill);
        m->wild = (int8_t)color;
    }
    return AX_REPLAY_OK;
}

int ax_decision_from_message(const ax_game *g, const json_t *msg, ax_move *m, char *why,
                             size_t whylen, ax_error *illegal_out)
{
    memset(m, 0, sizeof *m);
    m->wild = AX_NO_COLOR;
    const char *type = json_string_value(json_object_get(msg, "type"));
    if (type && strcmp(type, "leave") == 0) { /* stored form only; clients resign or claim */
        json_int_t seat;
        const char *reason = json_string_value(json_object_get(msg, "why"));
        if (!get_int(msg, "seat", &seat) || seat < 0 || seat >= AX_MAX_PLAYERS || !reason ||
            ax_leave_why_parse(reason) < 0)
            return ax_fail(why, whylen, AX_REPLAY_MALFORMED, "leave needs a seat and a reason");
        m->kind = AX_MOVE_LEAVE;
        m->seat = (uint8_t)seat;
        m->why = (uint8_t)ax_leave_why_parse(reason);
        return AX_REPLAY_OK;
    }
    if (type && strcmp(type, "swap") == 0) {
        const json_t *accept = json_object_get(msg, "accept");
        if (!json_is_boolean(accept))
            return ax_fail(why, whylen, AX_REPLAY_MALFORMED, "accept must be true or false");
        m->kind = AX_MOVE_SWAP;
        m->accept = json_is_true(accept);
        return AX_REPLAY_OK;
    }
    json_int_t index;
    if (!get_int(msg, "rack_index", &index))
        return ax_fail(why, whylen, AX_REPLAY_MALFORMED, "rack_index must be an integer");
    m->kind = AX_MOVE_PLACE;
    int rc = g->variant == AX_ROTA ? rota_place(g, msg, m, why, whylen, illegal_out)
                                   : grid_place(g, msg, m, why, whylen);
    if (rc != AX_REPLAY_OK)
        return rc;
    if (index < 0 || index >= AX_MAX_RACK)
        return illegal(why, whylen, AX_ERR_RACK, illegal_out);
    m->rack_index = (uint8_t)index;
    return AX_REPLAY_OK;
}

json_t *ax_decision_message(const ax_game *g, const ax_move *m)
{
    if (m->kind == AX_MOVE_LEAVE)
        return json_pack("{s:s,s:i,s:s}", "type", "leave", "seat", m->seat, "why",
                         ax_leave_why_name(m->why));
    if (m->kind == AX_MOVE_SWAP)
        return json_pack("{s:s,s:b}", "type", "swap", "accept", m->accept != 0);
    if (g->variant == AX_ROTA)
        return json_pack("{s:s,s:i,s:[ii],s:i,s:o}", "type", "place", "rack_index", m->rack_index,
                         "cell", m->x, m->y, "rotation", m->rotation, "wild",
                         m->wild >= 0 ? json_string(ax_color_name(m->wild)) : json_null());
    return json_pack("{s:s,s:i,s:[oo]}", "type", "place", "rack_index", m->rack_index, "cells",
                     ax_cell_json(g, m->cells[0]), ax_cell_json(g, m->cells[1]));
}

/* --- the event --- */

static int read_rota_place(const ax_game *g, json_t *obj, ax_tile placed, ax_move *m, char *err,
                           size_t errlen)
{
    int x, y;
    if (!ax_pair_from_json(json_object_get(obj, "cell"), &x, &y))
        return ax_fail(err, errlen, AX_REPLAY_MALFORMED, "place needs \"cell\": [x, y]");
    json_t *wild = json_object_get(obj, "wild");
    int w = AX_NO_COLOR;
    if (wild && !json_is_null(wild)) {
        w = json_is_string(wild) ? ax_color_parse(json_string_value(wild), g->ncolors) : -1;
        if (w < 0)
            return ax_fail(err, errlen, AX_REPLAY_MALFORMED, "\"wild\" is not a colour");
    }
    m->x = (int16_t)x;
    m->y = (int16_t)y;
    m->wild = (int8_t)w;
    if (g->rack_n[g->to_move] == 0)
        return ax_fail(err, errlen, AX_REPLAY_INCONSISTENT, "seat %d has no tile in hand",
                       g->to_move);
    for (int r = 0; r < 4; r++)
        if (ax_tile_equal(ax_tile_rotate(g->rack[g->to_move][0], r), placed)) {
            m->rotation = (uint8_t)r;
            return AX_REPLAY_OK;
        }
    return ax_fail(err, errlen, AX_REPLAY_INCONSISTENT, "the tile is not seat %d's hand tile",
                   g->to_move);
}

/* {"ev":"leave","player":P,"why":W}: any seat of the game, a known reason;
 * whether that seat may still leave is the engine's to say. */
static int read_leave(const ax_game *g, json_t *obj, ax_move *m, char *err, size_t errlen)
{
    json_t *player = json_object_get(obj, "player");
    json_t *why = json_object_get(obj, "why");
    if (!json_is_integer(player))
        return ax_fail(err, errlen, AX_REPLAY_MALFORMED, "leave needs \"player\": a seat number");
    int reason = json_is_string(why) ? ax_leave_why_parse(json_string_value(why)) : -1;
    if (reason < 0)
        return ax_fail(err, errlen, AX_REPLAY_MALFORMED,
                       "leave needs \"why\": \"resign\", \"timeout\" or \"absent\"");
    json_int_t seat = json_integer_value(player);
    if (seat < 0 || seat >= g->players)
        return ax_fail(err, errlen, AX_REPLAY_INCONSISTENT,
                       "leave of seat %" JSON_INTEGER_FORMAT ": no such seat (the game has %d)",
                       seat, g->players);
    m->kind = AX_MOVE_LEAVE;
    m->seat = (uint8_t)seat;
    m->why = (uint8_t)reason;
    return AX_REPLAY_OK;
}

int ax_decision_from_event(const ax_game *g, json_t *obj, ax_move *m, bool *reversed, char *err,
                           size_t errlen)
{
    memset(m, 0, sizeof *m);
    m->wild = AX_NO_COLOR;
    *reversed = false;
    const char *ev = json_string_value(json_object_get(obj, "ev"));
    if (ev && strcmp(ev, "leave") == 0)
        return read_leave(g, obj, m, err, errlen);
    if (ev && strcmp(ev, "swap") == 0) {
        json_t *accepted = json_object_get(obj, "accepted");
        if (!json_is_boolean(accepted))
            return ax_fail(err, errlen, AX_REPLAY_MALFORMED, "swap needs \"accepted\": true|false");
        m->kind = AX_MOVE_SWAP;
        m->accept = json_is_true(accepted);
        return AX_REPLAY_OK;
    }
    ax_tile tile;
    if (!ax_tile_from_json(g, json_object_get(obj, "tile"), &tile))
        return ax_fail(err, errlen, AX_REPLAY_MALFORMED, "place needs a \"tile\" of this variant");
    m->kind = AX_MOVE_PLACE;
    if (g->variant == AX_ROTA)
        return read_rota_place(g, obj, tile, m, err, errlen);
    json_t *cells = json_object_get(obj, "cells");
    int a[2], b[2];
    if (!json_is_array(cells) || json_array_size(cells) != 2 ||
        !ax_pair_from_json(json_array_get(cells, 0), &a[0], &b[0]) ||
        !ax_pair_from_json(json_array_get(cells, 1), &a[1], &b[1]))
        return ax_fail(err, errlen, AX_REPLAY_MALFORMED, "place needs \"cells\": [[a,b],[c,d]]");
    int cell0 = ax_cell_index(g, a[0], b[0]), cell1 = ax_cell_index(g, a[1], b[1]);
    int seat = g->to_move;
    for (int r = 0; r < g->rack_n[seat]; r++) {
        ax_tile t = g->rack[seat][r];
        bool same = t.sym[0] == tile.sym[0] && t.sym[1] == tile.sym[1];
        bool turned = t.sym[0] == tile.sym[1] && t.sym[1] == tile.sym[0];
        if (!same && !turned)
            continue;
        m->rack_index = (uint8_t)r;
        *reversed = !same;
        m->cells[0] = (int16_t)(same ? cell0 : cell1);
        m->cells[1] = (int16_t)(same ? cell1 : cell0);
        return AX_REPLAY_OK;
    }
    return ax_fail(err, errlen, AX_REPLAY_INCONSISTENT, "the tile is not on seat %d's rack", seat);
}

json_t *ax_decision_json(const ax_game *g, const ax_move *m)
{
    int seat = g->to_move;
    if (m->kind == AX_MOVE_SWAP)
        return json_pack("{s:s,s:i,s:b}", "ev", "swap", "player", seat, "accepted", m->accept != 0);
    json_t *o = json_pack("{s:s,s:i}", "ev", "place", "player", seat);
    if (g->variant == AX_ROTA) {
        json_object_set_new(o, "tile",
                            ax_tile_json(g, ax_tile_rotate(g->rack[seat][0], m->rotation)));
        json_object_set_new(o, "cell", json_pack("[ii]", m->x, m->y));
        json_object_set_new(o, "wild",
                            m->wild >= 0 ? json_string(ax_color_name(m->wild)) : json_null());
    } else {
        json_object_set_new(o, "tile", ax_tile_json(g, g->rack[seat][m->rack_index]));
        json_object_set_new(
            o, "cells",
            json_pack("[oo]", ax_cell_json(g, m->cells[0]), ax_cell_json(g, m->cells[1])));
    }
    return o;
}

int ax_decision_read(const ax_game *g, json_t *obj, ax_move *m, char *err, size_t errlen)
{
    const char *ev = json_string_value(json_object_get(obj, "ev"));
    json_t *player = json_object_get(obj, "player");
    if (!ev || (strcmp(ev, "place") != 0 && strcmp(ev, "swap") != 0))
        return ax_fail(err, errlen, AX_REPLAY_MALFORMED,
                       "a decision is a \"place\" or \"swap\" event");
    if (!json_is_integer(player) || json_integer_value(player) != g->to_move)
        return ax_fail(err, errlen, AX_REPLAY_INCONSISTENT,
                       "the decision must be seat %d's (\"player\": %d)", g->to_move, g->to_move);
    bool reversed;
    int rc = ax_decision_from_event(g, obj, m, &reversed, err, errlen);
    if (rc)
        return rc;
    ax_error e = ax_check(g, m);
    if (e)
        return ax_fail(err, errlen, AX_REPLAY_INCONSISTENT, "%s", ax_error_string(e));
    return AX_REPLAY_OK;
}

/* --- a stored game --- */

int ax_replay_decisions(ax_game *g, char *const *decisions, int n, ax_decision_fn on_decision,
                        void *arg, char *err, size_t errlen)
{
    ax_events events;
    for (int i = 0; i < n; i++) {
        json_error_t jerr;
        json_t *msg = json_loads(decisions[i], 0, &jerr);
        if (!msg) {
            char text[160];
            ax_json_error_text(&jerr, text, sizeof text);
            return ax_fail(err, errlen, AX_REPLAY_MALFORMED, "decision %d is not JSON: %s", i,
                           text);
        }
        ax_move m;
        char why[160] = "";
        int rc = ax_decision_from_message(g, msg, &m, why, sizeof why, NULL);
        json_decref(msg);
        if (rc != AX_REPLAY_OK)
            return ax_fail(err, errlen, rc, "decision %d is rejected by the engine: %s", i, why);
        ax_error e = ax_apply(g, &m, on_decision ? &events : NULL);
        if (e != AX_OK)
            return ax_fail(err, errlen, AX_REPLAY_INCONSISTENT,
                           "decision %d is rejected by the engine: %s", i, ax_error_string(e));
        if (on_decision && on_decision(arg, i, &m, &events) != 0)
            return AX_REPLAY_STOPPED;
    }
    return AX_REPLAY_OK;
}
