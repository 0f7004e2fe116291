/*
 * record.c - writes engine events as record lines (record.md).
 *
 * One function per event kind; the viewer decides what is hidden: another
 * seat's drawn or swapped tiles become their count, and the seed appears only
 * in the complete record (AX_VIEWER_ALL) or after the end. A `leave` is
 * public; the `end` ranking is ax_rank's, seats that left last.
 */
#include "record.h"
#include "engine.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static const char *const source_names[] = {"bag", "stack", "supply"};

static json_t *color_json(int color)
{
    return color >= 0 ? json_string(ax_color_name(color)) : json_null();
}

json_t *ax_tile_json(const ax_game *g, ax_tile t)
{
    json_t *a = json_array();
    int n = g->variant == AX_ROTA ? 4 : 2;
    for (int i = 0; i < n; i++)
        json_array_append_new(a, color_json(t.sym[i]));
    return a;
}

static json_t *tiles_json(const ax_game *g, const ax_tile *tiles, int n)
{
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, ax_tile_json(g, tiles[i]));
    return a;
}

json_t *ax_cell_json(const ax_game *g, int cell)
{
    int a, b;
    ax_cell_coords(g, cell, &a, &b);
    return json_pack("[ii]", a, b);
}

bool ax_pair_from_json(json_t *a, int *x, int *y)
{
    if (!json_is_array(a) || json_array_size(a) != 2 || !json_is_integer(json_array_get(a, 0)) ||
        !json_is_integer(json_array_get(a, 1)))
        return false;
    json_int_t vx = json_integer_value(json_array_get(a, 0));
    json_int_t vy = json_integer_value(json_array_get(a, 1));
    if (vx < -1000 || vx > 1000 || vy < -1000 || vy > 1000)
        return false;
    *x = (int)vx;
    *y = (int)vy;
    return true;
}

bool ax_tile_from_json(const ax_game *g, json_t *a, ax_tile *t)
{
    size_t n = g->variant == AX_ROTA ? 4 : 2;
    if (!json_is_array(a) || json_array_size(a) != n)
        return false;
    memset(t->sym, AX_NO_COLOR, 4);
    for (size_t i = 0; i < n; i++) {
        json_t *c = json_array_get(a, i);
        if (json_is_null(c) && g->variant == AX_ROTA)
            continue;
        int color = json_is_string(c) ? ax_color_parse(json_string_value(c), g->ncolors) : -1;
        if (color < 0)
            return false;
        t->sym[i] = (int8_t)color;
    }
    return true;
}

json_t *ax_score_json(const ax_game *g, const uint8_t *score)
{
    json_t *o = json_object();
    for (int c = 0; c < g->ncolors; c++)
        json_object_set_new(o, ax_color_name(c), json_integer(score[c]));
    return o;
}

static bool sees_tiles_of(int viewer, int player)
{
    return viewer == AX_VIEWER_ALL || viewer == player;
}

json_t *ax_record_start(const ax_game *g, const char *const *names, int viewer)
{
    char seed[24];
    snprintf(seed, sizeof seed, "%" PRIu64, g->seed);
    json_t *o = json_pack("{s:s,s:s,s:s,s:i,s:s}", "ev", "start", "format", "axio-record/1",
                          "variant", ax_variant_name(g->variant), "players", g->players, "mode",
                          ax_mode_name(g->mode));
    if (viewer == AX_VIEWER_ALL || g->phase == AX_PHASE_OVER)
        json_object_set_new(o, "seed", json_string(seed));
    json_t *jn = json_array();
    for (int s = 0; s < g->players; s++) {
        char fallback[24]; /* "Seat " and any int */
        snprintf(fallback, sizeof fallback, "Seat %d", s + 1);
        json_array_append_new(jn, json_string(names && names[s] ? names[s] : fallback));
    }
    json_object_set_new(o, "names", jn);
    if (g->variant == AX_ROTA) {
        static const int display_cells[4][2] = {{0, 0}, {1, 0}, {0, 1}, {1, 1}};
        json_t *display = json_array();
        for (int k = 0; k < 4; k++) {
            int x = display_cells[k][0], y = display_cells[k][1];
            int id = ax_rota_find(&g->rota, x, y);
            json_array_append_new(display, json_pack("{s:[ii],s:o}", "cell", x, y, "tile",
                                                     ax_tile_json(g, g->rota.placed[id])));
        }
        json_object_set_new(o, "display", display);
    } else {
        json_object_set_new(o, "area", json_integer(g->area));
        json_t *fields = json_array();
        for (int f = 0; f < g->nfields; f++)
            json_array_append_new(fields,
                                  json_pack("{s:o,s:s}", "cell", ax_cell_json(g, g->field_cell[f]),
                                            "color", ax_color_name(g->field_color[f])));
        json_object_set_new(o, "fields", fields);
    }
    return o;
}

static json_t *draw_json(const ax_game *g, const ax_event *e, int viewer)
{
    json_t *tiles = sees_tiles_of(viewer, e->player) ? tiles_json(g, e->tiles, e->ntiles)
                                                     : json_integer(e->ntiles);
    return json_pack("{s:s,s:i,s:s,s:o}", "ev", "draw", "player", e->player, "from",
                     source_names[e->source], "tiles", tiles);
}

static json_t *place_json(const ax_game *g, const ax_event *e)
{
    json_t *o = json_pack("{s:s,s:i,s:o}", "ev", "place", "player", e->player, "tile",
                          ax_tile_json(g, e->tile));
    if (g->variant == AX_ROTA) {
        json_object_set_new(o, "cell", json_pack("[ii]", e->x, e->y));
        json_object_set_new(o, "wild", color_json(e->wild));
    } else {
        json_object_set_new(
            o, "cells",
            json_pack("[oo]", ax_cell_json(g, e->cells[0]), ax_cell_json(g, e->cells[1])));
    }
    json_object_set_new(o, "points", ax_score_json(g, e->points));
    json_object_set_new(o, "score", ax_score_json(g, e->score));
    json_object_set_new(o, "bonus", json_boolean(e->bonus));
    return o;
}

static json_t *pyramid_json(const ax_game *g, const ax_event *e)
{
    return json_pack("{s:s,s:i,s:o,s:o,s:o,s:o}", "ev", "pyramid", "player", e->player, "cell",
                     ax_cell_json(g, e->cells[0]), "moved_from",
                     e->moved_from >= 0 ? ax_cell_json(g, e->moved_from) : json_null(), "points",
                     ax_score_json(g, e->points), "score", ax_score_json(g, e->score));
}

static json_t *swap_json(const ax_game *g, const ax_event *e, int viewer)
{
    json_t *o =
        json_pack("{s:s,s:i,s:b}", "ev", "swap", "player", e->player, "accepted", e->accepted);
    if (!e->accepted)
        return o;
    bool sees = sees_tiles_of(viewer, e->player);
    json_object_set_new(o, "returned",
                        sees ? tiles_json(g, e->returned, e->nreturned)
                             : json_integer(e->nreturned));
    json_object_set_new(o, "drawn",
                        sees ? tiles_json(g, e->tiles, e->ntiles) : json_integer(e->ntiles));
    return o;
}

static json_t *end_json(const ax_game *g, const ax_event *e)
{
    json_t *scores = json_array();
    for (int s = 0; s < g->players; s++)
        json_array_append_new(scores, ax_score_json(g, g->track[ax_track_owner(g, s)]));
    ax_ranking rank;
    ax_rank(g, &rank);
    json_t *ranking = json_array(), *group = NULL;
    for (int i = 0; i < rank.n; i++) {
        if (i == 0 || rank.place[i] != rank.place[i - 1]) {
            group = json_array();
            json_array_append_new(ranking, group);
        }
        json_array_append_new(group, json_integer(rank.order[i]));
    }
    json_t *result = g->mode == AX_SOLO ? json_integer(ax_solo_result(g)) : json_null();
    return json_pack("{s:s,s:s,s:o,s:o,s:o}", "ev", "end", "reason", ax_end_reason_name(e->reason),
                     "scores", scores, "ranking", ranking, "result", result);
}

json_t *ax_record_event(const ax_game *g, const ax_event *e, int viewer)
{
    switch (e->kind) {
    case AX_EV_DRAW: return draw_json(g, e, viewer);
    case AX_EV_PLACE: return place_json(g, e);
    case AX_EV_PYRAMID: return pyramid_json(g, e);
    case AX_EV_AXIO:
        return json_pack("{s:s,s:i,s:s,s:i,s:b}", "ev", "axio", "player", e->player, "color",
                         ax_color_name(e->color), "score", e->axio_score, "bonus_move",
                         e->bonus_move);
    case AX_EV_SWAP: return swap_json(g, e, viewer);
    case AX_EV_LEAVE: /* public: every viewer sees who left and why */
        return json_pack("{s:s,s:i,s:s}", "ev", "leave", "player", e->player, "why",
                         ax_leave_why_name(e->why));
    case AX_EV_END: return end_json(g, e);
    }
    return json_null();
}
