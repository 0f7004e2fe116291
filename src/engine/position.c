/*
 * position.c - a seat's view as JSON and back (position.h).
 *
 * Writing walks the game's public parts and the seat's own rack; hidden
 * tiles are only ever counted. Reading deals an empty game of the same
 * configuration (ax_game_init fixes thresholds, directions and the fields),
 * puts the board back with the engine's own board functions, fills the
 * hidden places with unknown tiles and then checks the whole: every count,
 * the leaving order and the tile total (ax_game_consistent), and that the
 * tiles it names are a part of the variant's set, so that a search can deal
 * the unknown tiles (ax_determinize) from what is left.
 */
#include "position.h"

#include "engine.h"
#include "record.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *const phase_names[] = {"place", "swap", "over"};
static const ax_tile unknown_tile = {{AX_UNSET, AX_UNSET, AX_UNSET, AX_UNSET}};

/* --- writing --- */

static json_t *pair_json(int a, int b) { return json_pack("[ii]", a, b); }

static json_t *color_json(int color)
{
    return color >= 0 ? json_string(ax_color_name(color)) : json_null();
}

static bool is_field(const ax_game *g, int cell)
{
    for (int f = 0; f < g->nfields; f++)
        if (g->field_cell[f] == cell)
            return true;
    return false;
}

static void add_grid(json_t *o, const ax_game *g)
{
    json_t *fields = json_array(), *cells = json_array(), *dead = json_array();
    for (int f = 0; f < g->nfields; f++)
        json_array_append_new(fields,
                              json_pack("{s:o,s:s}", "cell", ax_cell_json(g, g->field_cell[f]),
                                        "color", ax_color_name(g->field_color[f])));
    for (int i = 0; i < AX_GRID_CELLS; i++) {
        if (g->cell[i] < AX_MAX_COLORS && !is_field(g, i))
            json_array_append_new(cells, json_pack("{s:o,s:s}", "cell", ax_cell_json(g, i), "color",
                                                   ax_color_name(g->cell[i])));
        else if (g->cell[i] == AX_DEAD)
            json_array_append_new(dead, ax_cell_json(g, i));
    }
    json_object_set_new(o, "area", json_integer(g->area));
    json_object_set_new(o, "fields", fields);
    json_object_set_new(o, "cells", cells);
    if (g->variant != AX_SQUARE) {
        json_decref(dead);
        return;
    }
    json_t *pyramids = json_array(); /* oldest first: the next one to move */
    for (int k = 0; k < g->pyramids_n; k++)
        json_array_append_new(
            pyramids, ax_cell_json(g, g->pyramid_cell[(g->pyramid_oldest + k) % g->pyramids_n]));
    json_object_set_new(o, "pyramids", pyramids);
    json_object_set_new(o, "dead", dead);
}

static bool row_major_before(const ax_rota_board *b, int i, int j)
{
    return b->y[i] < b->y[j] || (b->y[i] == b->y[j] && b->x[i] < b->x[j]);
}

static void add_rota(json_t *o, const ax_game *g)
{
    const ax_rota_board *b = &g->rota;
    json_t *display = json_array(), *frontier = json_array();
    int16_t ids[AX_ROTA_CELLS];
    int n = 0;
    for (int id = 0; id < b->ncells; id++)
        if (b->placed[id].sym[0] != AX_UNSET)
            ids[n++] = (int16_t)id;
    /* row by row: the text does not depend on the order of the hash entries */
    for (int a = 1; a < n; a++)
        for (int k = a; k > 0 && row_major_before(b, ids[k], ids[k - 1]); k--) {
            int16_t t = ids[k];
            ids[k] = ids[k - 1];
            ids[k - 1] = t;
        }
    for (int i = 0; i < n; i++)
        json_array_append_new(display,
                              json_pack("{s:o,s:o}", "cell", pair_json(b->x[ids[i]], b->y[ids[i]]),
                                        "tile", ax_tile_json(g, b->placed[ids[i]])));
    for (int f = 0; f < b->nfrontier; f++) /* in the engine's order: the same decisions */
        json_array_append_new(frontier, pair_json(b->x[b->frontier[f]], b->y[b->frontier[f]]));
    json_object_set_new(o, "display", display);
    json_object_set_new(o, "frontier", frontier);
}

static json_t *seat_json(const ax_game *g, int s, int seat)
{
    json_t *rack;
    if (s == seat) {
        rack = json_array();
        for (int r = 0; r < g->rack_n[s]; r++)
            json_array_append_new(rack, ax_tile_json(g, g->rack[s][r]));
    } else {
        rack = json_integer(g->rack_n[s]); /* hidden: the count only */
    }
    json_t *o =
        json_pack("{s:o,s:o,s:i}", "score", ax_score_json(g, g->track[ax_track_owner(g, s)]),
                  "rack", rack, "placed", g->placed_by[s]);
    if (g->variant == AX_ROTA)
        json_object_set_new(o, "stack", json_integer(g->stack_n[s]));
    json_object_set_new(o, "left",
                        g->left[s] ? json_pack("{s:i,s:s}", "order", g->left[s], "why",
                                               ax_leave_why_name(g->left_why[s]))
                                   : json_null());
    return o;
}

json_t *ax_position_json(const ax_game *g, int seat)
{
    json_t *o = json_pack(
        "{s:s,s:i,s:s,s:i,s:s,s:i,s:b,s:i,s:i}", "variant", ax_variant_name(g->variant), "players",
        g->players, "mode", ax_mode_name(g->mode), "seat", seat, "phase",
        phase_names[g->phase <= AX_PHASE_OVER ? g->phase : AX_PHASE_OVER], "to_move", g->to_move,
        "bonus", g->in_bonus, "bonus_pending", g->bonus_pending, "ply", g->ply);
    if (g->variant == AX_ROTA)
        add_rota(o, g);
    else
        add_grid(o, g);
    json_t *tiles = json_array();
    for (int i = 0; i < g->board_n; i++)
        json_array_append_new(tiles, ax_tile_json(g, g->board_tiles[i]));
    json_object_set_new(o, "tiles", tiles);
    json_t *seats = json_array();
    for (int s = 0; s < g->players; s++)
        json_array_append_new(seats, seat_json(g, s, seat));
    json_object_set_new(o, "seats", seats);
    json_object_set_new(o, "bag", json_integer(g->bag_n));
    return o;
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
        json_object_set_new(o, "cell", pair_json(m->x, m->y));
        json_object_set_new(o, "wild", color_json(m->wild));
    } else {
        json_object_set_new(o, "tile", ax_tile_json(g, g->rack[seat][m->rack_index]));
        json_object_set_new(
            o, "cells",
            json_pack("[oo]", ax_cell_json(g, m->cells[0]), ax_cell_json(g, m->cells[1])));
    }
    return o;
}

/* --- reading --- */

static int fail(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return AX_REPLAY_MALFORMED;
}

/* An integer in [min, max]. */
static bool read_int(json_t *v, long min, long max, int *out)
{
    if (!json_is_integer(v) || json_integer_value(v) < min || json_integer_value(v) > max)
        return false;
    *out = (int)json_integer_value(v);
    return true;
}

static int grid_cell(const ax_game *g, json_t *a)
{
    int x, y;
    return ax_pair_from_json(a, &x, &y) ? ax_cell_index(g, x, y) : -1;
}

/* A tile of the set in its printed orientation: a domino's lower colour
 * first, a ROTA tile turned as the set holds it. */
static bool read_set_tile(const ax_game *g, json_t *a, ax_tile *t)
{
    if (!ax_tile_from_json(g, a, t))
        return false;
    if (g->variant != AX_ROTA) {
        if (t->sym[0] > t->sym[1]) {
            int8_t s = t->sym[0];
            t->sym[0] = t->sym[1];
            t->sym[1] = s;
        }
        return true;
    }
    ax_tile set[AX_MAX_TILES];
    int n = ax_tile_set(g->variant, set);
    for (int r = 0; r < 4; r++)
        for (int i = 0; i < n; i++)
            if (ax_tile_equal(ax_tile_rotate(*t, r), set[i])) {
                *t = set[i];
                return true;
            }
    return false;
}

static int read_tiles(const ax_game *g, json_t *a, const char *what, int max, ax_tile *out, int *n,
                      char *err, size_t errlen)
{
    if (!json_is_array(a) || json_array_size(a) > (size_t)max)
        return fail(err, errlen, "\"%s\" must be a list of at most %d tiles", what, max);
    for (size_t i = 0; i < json_array_size(a); i++)
        if (!read_set_tile(g, json_array_get(a, i), &out[i]))
            return fail(err, errlen, "\"%s\"[%zu] is not a tile of %s", what, i,
                        ax_variant_name(g->variant));
    *n = (int)json_array_size(a);
    return AX_REPLAY_OK;
}

/* "cells": every tile half; "pyramids" oldest first and "dead" (square). */
static int read_grid(ax_game *g, json_t *o, char *err, size_t errlen)
{
    json_t *cells = json_object_get(o, "cells");
    if (!json_is_array(cells))
        return fail(err, errlen, "\"cells\" must be a list of {\"cell\", \"color\"}");
    for (size_t i = 0; i < json_array_size(cells); i++) {
        json_t *e = json_array_get(cells, i), *color = json_object_get(e, "color");
        int cell = grid_cell(g, json_object_get(e, "cell"));
        int c = json_is_string(color) ? ax_color_parse(json_string_value(color), g->ncolors) : -1;
        if (cell < 0 || g->cell[cell] != AX_EMPTY || c < 0)
            return fail(err, errlen,
                        "\"cells\"[%zu] needs an empty cell of the play area and a colour", i);
        ax_grid_put(g, cell, c);
    }
    json_t *pyramids = json_object_get(o, "pyramids"), *dead = json_object_get(o, "dead");
    if (g->variant != AX_SQUARE) {
        if (json_array_size(pyramids) || json_array_size(dead))
            return fail(err, errlen, "only square has pyramids");
        return AX_REPLAY_OK;
    }
    if (!json_is_array(pyramids) || json_array_size(pyramids) > AX_MAX_PYRAMIDS ||
        !json_is_array(dead))
        return fail(err, errlen,
                    "square needs \"pyramids\" (at most %d) and \"dead\": lists "
                    "of cells",
                    AX_MAX_PYRAMIDS);
    for (size_t i = 0; i < json_array_size(pyramids) + json_array_size(dead); i++) {
        bool is_pyramid = i < json_array_size(pyramids);
        json_t *a = is_pyramid ? json_array_get(pyramids, i)
                               : json_array_get(dead, i - json_array_size(pyramids));
        int cell = grid_cell(g, a);
        if (cell < 0 || g->cell[cell] != AX_EMPTY)
            return fail(err, errlen, "a pyramid or dead cell must be an empty cell of the board");
        ax_grid_put(g, cell, is_pyramid ? AX_PYRAMID : AX_DEAD);
        if (is_pyramid)
            g->pyramid_cell[g->pyramids_n++] = (int16_t)cell;
    }
    return AX_REPLAY_OK;
}

/* "display": every placed tile as placed; "frontier": the empty cells next
 * to it, whose order the rebuilt game keeps. */
static int read_rota(ax_game *g, json_t *o, char *err, size_t errlen)
{
    ax_rota_board *b = &g->rota;
    json_t *display = json_object_get(o, "display"), *frontier = json_object_get(o, "frontier");
    if (!json_is_array(display) || json_array_size(display) == 0 ||
        json_array_size(display) > AX_ROTA_TILES || !json_is_array(frontier))
        return fail(err, errlen, "rota needs \"display\" (1 to %d tiles) and \"frontier\"",
                    AX_ROTA_TILES);
    /* a display grows by sides from one tile: its tiles span fewer cells than
     * the set has tiles (the board finds cells by their place in that span) */
    int lo[2] = {0, 0}, hi[2] = {0, 0};
    for (size_t i = 0; i < json_array_size(display); i++) {
        int xy[2];
        if (!ax_pair_from_json(json_object_get(json_array_get(display, i), "cell"), &xy[0], &xy[1]))
            return fail(err, errlen, "\"display\"[%zu] needs \"cell\": [x, y] and a \"tile\"", i);
        for (int k = 0; k < 2; k++) {
            lo[k] = i == 0 || xy[k] < lo[k] ? xy[k] : lo[k];
            hi[k] = i == 0 || xy[k] > hi[k] ? xy[k] : hi[k];
        }
    }
    if (hi[0] - lo[0] >= AX_ROTA_TILES || hi[1] - lo[1] >= AX_ROTA_TILES)
        return fail(err, errlen, "\"display\" is not one display: its tiles lie %d cells apart",
                    hi[0] - lo[0] > hi[1] - lo[1] ? hi[0] - lo[0] : hi[1] - lo[1]);
    for (size_t i = 0; i < json_array_size(display); i++) {
        json_t *e = json_array_get(display, i);
        int x, y, id;
        ax_tile t;
        if (!ax_pair_from_json(json_object_get(e, "cell"), &x, &y) ||
            !ax_tile_from_json(g, json_object_get(e, "tile"), &t))
            return fail(err, errlen, "\"display\"[%zu] needs \"cell\": [x, y] and a \"tile\"", i);
        id = ax_rota_find(b, x, y);
        if (id >= 0 && b->placed[id].sym[0] != AX_UNSET)
            return fail(err, errlen, "\"display\"[%zu]: cell [%d, %d] holds two tiles", i, x, y);
        if (b->ncells + 5 > AX_ROTA_ENTRIES)
            return fail(err, errlen, "\"display\" is not one display: too many cells");
        ax_rota_put(b, x, y, t);
    }
    if ((int)json_array_size(frontier) != b->nfrontier)
        return fail(err, errlen, "\"frontier\" must list the %d empty cells next to the display",
                    b->nfrontier);
    int16_t order[AX_ROTA_CELLS];
    for (int f = 0; f < b->nfrontier; f++) {
        int x, y;
        if (!ax_pair_from_json(json_array_get(frontier, (size_t)f), &x, &y) ||
            !ax_rota_is_frontier(b, x, y))
            return fail(err, errlen, "\"frontier\"[%d] is not an empty cell next to the display",
                        f);
        order[f] = (int16_t)ax_rota_find(b, x, y);
        for (int k = 0; k < f; k++)
            if (order[k] == order[f])
                return fail(err, errlen, "\"frontier\"[%d] is listed twice", f);
    }
    for (int f = 0; f < b->nfrontier; f++) {
        b->frontier[f] = order[f];
        b->frontier_pos[order[f]] = (int16_t)f;
    }
    return AX_REPLAY_OK;
}

static int read_score(ax_game *g, int s, json_t *score, char *err, size_t errlen)
{
    uint8_t track[AX_MAX_COLORS] = {0};
    int owner = ax_track_owner(g, s);
    if (!json_is_object(score) || json_object_size(score) != (size_t)g->ncolors)
        return fail(err, errlen, "seat %d: \"score\" must map the %d colours to numbers", s,
                    g->ncolors);
    for (int c = 0; c < g->ncolors; c++) {
        int v;
        if (!read_int(json_object_get(score, ax_color_name(c)), 0, ax_max_score(g), &v))
            return fail(err, errlen, "seat %d: \"score\" needs %s from 0 to %d", s,
                        ax_color_name(c), ax_max_score(g));
        track[c] = (uint8_t)v;
    }
    if (owner != s && memcmp(g->track[owner], track, AX_MAX_COLORS) != 0)
        return fail(err, errlen, "seat %d: partners share one score", s);
    memcpy(g->track[owner], track, AX_MAX_COLORS);
    return AX_REPLAY_OK;
}

static int read_left(ax_game *g, int s, json_t *left, char *err, size_t errlen)
{
    if (!left || json_is_null(left))
        return AX_REPLAY_OK;
    int order, why = -1;
    json_t *w = json_object_get(left, "why");
    if (json_is_string(w))
        why = ax_leave_why_parse(json_string_value(w));
    if (!read_int(json_object_get(left, "order"), 1, g->players, &order) || why < 0)
        return fail(err, errlen,
                    "seat %d: \"left\" is null or {\"order\": 1..%d, \"why\": a reason}", s,
                    g->players);
    g->left[s] = (uint8_t)order;
    g->left_why[s] = (uint8_t)why;
    g->nleft++;
    return AX_REPLAY_OK;
}

static int read_seat(ax_game *g, int s, int seat, json_t *o, char *err, size_t errlen)
{
    int rc = read_score(g, s, json_object_get(o, "score"), err, errlen);
    if (rc)
        return rc;
    json_t *rack = json_object_get(o, "rack");
    int n, placed, stack = 0;
    if (s == seat) {
        if (!json_is_array(rack))
            return fail(err, errlen, "seat %d: its own \"rack\" must list its tiles", s);
        if ((rc = read_tiles(g, rack, "rack", g->rack_size, g->rack[s], &n, err, errlen)))
            return rc;
    } else {
        if (!read_int(rack, 0, g->rack_size, &n))
            return fail(err, errlen,
                        "seat %d: \"rack\" must be a count from 0 to %d (the tiles "
                        "of other seats are hidden)",
                        s, g->rack_size);
        for (int r = 0; r < n; r++)
            g->rack[s][r] = unknown_tile;
    }
    g->rack_n[s] = (uint8_t)n;
    if (!read_int(json_object_get(o, "placed"), 0, AX_MAX_TILES, &placed))
        return fail(err, errlen, "seat %d: \"placed\" must be a count of tiles", s);
    g->placed_by[s] = (uint8_t)placed;
    json_t *jstack = json_object_get(o, "stack");
    if (g->variant == AX_ROTA && !read_int(jstack, 0, AX_ROTA_STACK, &stack))
        return fail(err, errlen, "seat %d: \"stack\" must be a count from 0 to %d", s,
                    AX_ROTA_STACK);
    if (g->variant != AX_ROTA && jstack && !read_int(jstack, 0, 0, &stack))
        return fail(err, errlen, "seat %d: only rota has stacks", s);
    g->stack_n[s] = (uint8_t)stack;
    for (int k = 0; k < stack; k++)
        g->stack[s][k] = unknown_tile;
    return read_left(g, s, json_object_get(o, "left"), err, errlen);
}

/* Removes one tile equal to t from the list; returns whether it was there. */
static bool take_tile(ax_tile *tiles, int *n, ax_tile t)
{
    for (int i = 0; i < *n; i++)
        if (ax_tile_equal(tiles[i], t)) {
            tiles[i] = tiles[--*n];
            return true;
        }
    return false;
}

/* The tiles the position names must all come from one set. */
static int check_known_tiles(const ax_game *g, int seat, char *err, size_t errlen)
{
    ax_tile rest[AX_MAX_TILES];
    int n = ax_tile_set(g->variant, rest);
    for (int i = 0; i < g->board_n; i++)
        if (!take_tile(rest, &n, g->board_tiles[i]))
            return fail(err, errlen, "\"tiles\" holds more of one tile than the set");
    for (int r = 0; r < g->rack_n[seat]; r++)
        if (!take_tile(rest, &n, g->rack[seat][r]))
            return fail(err, errlen, "the rack and the board hold more of one tile than the set");
    return AX_REPLAY_OK;
}

static int read_board(ax_game *g, json_t *o, char *err, size_t errlen)
{
    int rc = g->variant == AX_ROTA ? read_rota(g, o, err, errlen) : read_grid(g, o, err, errlen);
    if (rc)
        return rc;
    int n;
    if ((rc = read_tiles(g, json_object_get(o, "tiles"), "tiles", AX_MAX_TILES, g->board_tiles, &n,
                         err, errlen)))
        return rc;
    g->board_n = (uint8_t)n;
    int halves = 0;
    for (int i = 0; i < AX_GRID_CELLS && g->variant != AX_ROTA; i++)
        halves += g->cell[i] < AX_MAX_COLORS && !is_field(g, i);
    bool fits = g->variant == AX_ROTA ? g->rota.ncells - g->rota.nfrontier == n : halves == 2 * n;
    if (!fits)
        return fail(err, errlen, "\"tiles\" must list every tile on the board");
    return AX_REPLAY_OK;
}

static int read_turn(ax_game *g, json_t *o, int *seat, char *err, size_t errlen)
{
    const char *phase = json_string_value(json_object_get(o, "phase"));
    int to_move, pending, ply;
    if (!read_int(json_object_get(o, "seat"), 0, g->players - 1, seat) ||
        !read_int(json_object_get(o, "to_move"), 0, g->players - 1, &to_move))
        return fail(err, errlen, "\"seat\" and \"to_move\" must be seats of the game (0 to %d)",
                    g->players - 1);
    if (!phase || (strcmp(phase, "place") != 0 && strcmp(phase, "swap") != 0))
        return fail(err, errlen, "\"phase\" must be \"place\" or \"swap\"");
    if (!json_is_boolean(json_object_get(o, "bonus")) ||
        !read_int(json_object_get(o, "bonus_pending"), 0, 100, &pending) ||
        !read_int(json_object_get(o, "ply"), 0, 65535, &ply))
        return fail(err, errlen,
                    "\"bonus\" (true|false), \"bonus_pending\" and \"ply\" (counts) "
                    "are needed");
    g->phase = strcmp(phase, "swap") == 0 ? AX_PHASE_SWAP : AX_PHASE_PLACE;
    g->to_move = (uint8_t)to_move;
    g->in_bonus = json_is_true(json_object_get(o, "bonus"));
    g->bonus_pending = (uint8_t)pending;
    g->ply = (uint16_t)ply;
    return AX_REPLAY_OK;
}

/* Deals an empty game of the configuration the position names. */
static int read_config(json_t *o, ax_game *g, char *err, size_t errlen)
{
    const char *variant = json_string_value(json_object_get(o, "variant"));
    const char *mode = json_string_value(json_object_get(o, "mode"));
    int v = variant ? ax_variant_parse(variant) : -1, m = mode ? ax_mode_parse(mode) : -1, np;
    if (v < 0 || m < 0 || !read_int(json_object_get(o, "players"), 1, AX_MAX_PLAYERS, &np) ||
        ax_config_check(v, np, m) != AX_OK)
        return fail(err, errlen, "\"variant\", \"players\" and \"mode\" must name a game");
    ax_game_init(g, v, np, m, 0, NULL);
    g->bag_n = 0;
    g->board_n = 0;
    memset(g->rack_n, 0, sizeof g->rack_n);
    memset(g->stack_n, 0, sizeof g->stack_n);
    if (v == AX_ROTA)
        ax_rota_clear(&g->rota);
    ax_rng_seed(&g->rng, 0); /* as ax_view leaves it */
    return AX_REPLAY_OK;
}

int ax_position_read(json_t *o, ax_game *g, int *seat, char *err, size_t errlen)
{
    if (!json_is_object(o))
        return fail(err, errlen, "a position is a JSON object");
    int rc = read_config(o, g, err, errlen);
    if (rc || (rc = read_turn(g, o, seat, err, errlen)) || (rc = read_board(g, o, err, errlen)))
        return rc;
    json_t *seats = json_object_get(o, "seats");
    if (!json_is_array(seats) || json_array_size(seats) != g->players)
        return fail(err, errlen, "\"seats\" must have one entry per player (%d)", g->players);
    for (int s = 0; s < g->players; s++)
        if ((rc = read_seat(g, s, *seat, json_array_get(seats, (size_t)s), err, errlen)))
            return rc;
    int bag;
    if (!read_int(json_object_get(o, "bag"), 0, AX_MAX_TILES, &bag))
        return fail(err, errlen, "\"bag\" must be a count of tiles");
    g->bag_n = (uint8_t)bag;
    for (int i = 0; i < bag; i++)
        g->bag[i] = unknown_tile;
    if (!ax_game_consistent(g))
        return fail(err, errlen,
                    "not a position of a game: the tiles do not add up to the set, "
                    "a rack is too full, or the leaving order or scores are wrong");
    return check_known_tiles(g, *seat, err, errlen);
}

int ax_decision_read(const ax_game *g, json_t *obj, ax_move *m, char *err, size_t errlen)
{
    const char *ev = json_string_value(json_object_get(obj, "ev"));
    json_t *player = json_object_get(obj, "player");
    if (!ev || (strcmp(ev, "place") != 0 && strcmp(ev, "swap") != 0))
        return fail(err, errlen, "a decision is a \"place\" or \"swap\" event");
    if (!json_is_integer(player) || json_integer_value(player) != g->to_move) {
        snprintf(err, errlen, "the decision must be seat %d's (\"player\": %d)", g->to_move,
                 g->to_move);
        return AX_REPLAY_INCONSISTENT;
    }
    bool reversed;
    int rc = ax_move_from_json(g, obj, m, &reversed, err, errlen);
    if (rc)
        return rc;
    ax_error e = ax_check(g, m);
    if (e) {
        snprintf(err, errlen, "%s", ax_error_string(e));
        return AX_REPLAY_INCONSISTENT;
    }
    return AX_REPLAY_OK;
}
