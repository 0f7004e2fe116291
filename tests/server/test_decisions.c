/*
 * test_decisions.c - the server's side of protocol messages (json_state.c):
 * a message read as a move (the engine's reading, tests/engine/test_decision.c)
 * gets the protocol's error codes, and the public state holds no hidden tile
 * and no seed before the end. The board, which the state
 * writes as text, equals the one built from the engine's JSON helpers in
 * every position of random games.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/engine/record.h"
#include "../../src/server/game/game.h"
#include "../../src/server/game/json_state.h"

static const struct {
    int variant, players, mode;
} configs[] = {
    {AX_SQUARE, 2, AX_STANDARD}, {AX_SQUARE, 1, AX_SOLO}, {AX_ROTA, 3, AX_STANDARD},
    {AX_HEX, 2, AX_STANDARD},    {AX_HEX, 4, AX_TEAM},
};

/* A service that is never started: what a game's JSON needs of it. */
static service *test_service(void)
{
    service_config cfg = {.absent_s = 120, .quiet = true};
    service_hooks hooks = {0};
    char err[64];
    service *svc = service_new(&cfg, &hooks, NULL, err, sizeof err);
    assert_non_null(svc);
    return svc;
}

/* decision_from_json is the engine's reading of a message
 * (tests/engine/test_decision.c) with the protocol's error codes. */
static void test_protocol_codes_of_decisions(void **state)
{
    (void)state;
    ax_game g;
    ax_game_init(&g, AX_SQUARE, 2, AX_STANDARD, 1, NULL);
    static const struct {
        const char *text, *code;
        ax_error ill;
    } cases[] = {
        {"{\"type\":\"swap\",\"accept\":true}", NULL, AX_OK},
        {"{\"type\":\"place\",\"rack_index\":0,\"cells\":[[2,5],[3,5]]}", NULL, AX_OK},
        {"{\"type\":\"place\",\"rack_index\":\"1\",\"cells\":[[2,5],[3,5]]}", "bad_message", AX_OK},
        {"{\"type\":\"swap\"}", "bad_message", AX_OK},
        {"{\"type\":\"place\",\"rack_index\":-1,\"cells\":[[2,5],[3,5]]}", "illegal_move",
         AX_ERR_RACK},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        json_t *msg = json_loads(cases[i].text, 0, NULL);
        ax_move m;
        char why[128] = "";
        ax_error ill = AX_OK;
        const char *code = decision_from_json(&g, msg, &m, why, sizeof why, &ill);
        json_decref(msg);
        if (cases[i].code)
            assert_string_equal(code, cases[i].code);
        else
            assert_null(code);
        assert_int_equal(ill, cases[i].ill);
        if (ill != AX_OK)
            assert_string_equal(why, ax_error_string(ill));
    }
}

/* Whether any object in v has the key. */
static bool has_key(const json_t *v, const char *key)
{
    const char *k;
    json_t *child;
    size_t i;
    if (json_is_object(v)) {
        json_object_foreach((json_t *)v, k, child)
        {
            if (strcmp(k, key) == 0 || has_key(child, key))
                return true;
        }
    } else if (json_is_array(v)) {
        json_array_foreach(v, i, child) if (has_key(child, key)) return true;
    }
    return false;
}

static void test_public_state_hides_racks_and_seed(void **state)
{
    (void)state;
    game *gm = calloc(1, sizeof *gm);
    service *svc = test_service();
    ax_events ev;
    for (size_t c = 0; c < sizeof configs / sizeof configs[0]; c++) {
        memset(gm, 0, sizeof *gm);
        gm->svc = svc;
        ax_game_init(&gm->g, configs[c].variant, configs[c].players, configs[c].mode, 12345, &ev);
        gm->status = GAME_RUNNING;
        ax_rng_seed(&gm->hint_rng, 1); /* an all-zero generator never moves */
        json_t *pub = state_game_json(gm);
        assert_false(has_key(pub, "rack"));
        assert_false(has_key(pub, "seed"));
        assert_int_equal(json_integer_value(json_object_get(pub, "bag")), gm->g.bag_n);
        char *text = json_dumps(pub, JSON_COMPACT);
        assert_null(strstr(text, "12345"));
        free(text);
        json_decref(pub);
        json_t *you = state_you_json(gm, 0, YOU_HINT);
        assert_int_equal(json_array_size(json_object_get(you, "rack")), gm->g.rack_n[0]);
        assert_non_null(json_object_get(you, "hint"));
        json_decref(you);
        you = state_you_json(gm, 1 % configs[c].players == 0 ? -1 : 1, YOU_HINT);
        if (configs[c].players > 1)
            assert_null(json_object_get(you, "hint")); /* not to move */
        json_decref(you);
    }
    free(gm);
    service_free(svc);
}

/* The board's keys as json_state.c built them with jansson before it wrote
 * them as text: the reference. */
static json_t *reference_board(const ax_game *g)
{
    json_t *o = json_object();
    if (g->variant == AX_ROTA) {
        const ax_rota_board *b = &g->rota;
        json_t *tiles = json_array(), *frontier = json_array();
        for (int i = 0; i < b->ncells; i++)
            if (b->placed[i].sym[0] != AX_UNSET)
                json_array_append_new(tiles, json_pack("{s:[ii],s:o}", "cell", b->x[i], b->y[i],
                                                       "tile", ax_tile_json(g, b->placed[i])));
        for (int k = 0; k < b->nfrontier; k++)
            json_array_append_new(frontier,
                                  json_pack("[ii]", b->x[b->frontier[k]], b->y[b->frontier[k]]));
        json_object_set_new(o, "tiles", tiles);
        json_object_set_new(o, "frontier", frontier);
        return o;
    }
    json_t *fields = json_array(), *cells = json_array(), *pyramids = json_array(),
           *dead = json_array();
    for (int f = 0; f < g->nfields; f++)
        json_array_append_new(fields,
                              json_pack("{s:o,s:s}", "cell", ax_cell_json(g, g->field_cell[f]),
                                        "color", ax_color_name(g->field_color[f])));
    for (int i = 0; i < AX_GRID_CELLS; i++) {
        bool field = false;
        for (int f = 0; f < g->nfields; f++)
            field = field || g->field_cell[f] == i;
        if (g->cell[i] < AX_MAX_COLORS && !field)
            json_array_append_new(cells, json_pack("{s:o,s:s}", "cell", ax_cell_json(g, i), "color",
                                                   ax_color_name(g->cell[i])));
        else if (g->cell[i] == AX_PYRAMID)
            json_array_append_new(pyramids, ax_cell_json(g, i));
        else if (g->cell[i] == AX_DEAD)
            json_array_append_new(dead, ax_cell_json(g, i));
    }
    json_object_set_new(o, "area", json_integer(g->area));
    json_object_set_new(o, "fields", fields);
    json_object_set_new(o, "cells", cells);
    if (g->variant == AX_SQUARE) {
        json_object_set_new(o, "pyramids", pyramids);
        json_object_set_new(o, "dead", dead);
    } else {
        json_decref(pyramids);
        json_decref(dead);
    }
    return o;
}

static void test_board_text_equals_the_reference(void **state)
{
    (void)state;
    game *gm = calloc(1, sizeof *gm);
    service *svc = test_service();
    ax_events ev;
    ax_rng rng;
    ax_rng_seed(&rng, 99);
    static const char *const board_keys[] = {"area", "fields", "cells",   "pyramids",
                                             "dead", "tiles",  "frontier"};
    for (size_t c = 0; c < sizeof configs / sizeof configs[0]; c++) {
        for (uint64_t seed = 1; seed <= 3; seed++) {
            memset(gm, 0, sizeof *gm);
            gm->svc = svc;
            ax_game_init(&gm->g, configs[c].variant, configs[c].players, configs[c].mode, seed,
                         &ev);
            gm->status = GAME_RUNNING;
            while (true) {
                json_t *pub = state_game_json(gm), *want = reference_board(&gm->g);
                assert_non_null(pub);
                for (size_t k = 0; k < sizeof board_keys / sizeof board_keys[0]; k++) {
                    json_t *got = json_object_get(pub, board_keys[k]),
                           *ref = json_object_get(want, board_keys[k]);
                    assert_true((!got && !ref) || json_equal(got, ref));
                }
                json_decref(pub);
                json_decref(want);
                if (gm->g.phase == AX_PHASE_OVER)
                    break;
                ax_move m;
                ax_random_move(&gm->g, &rng, &m);
                ax_apply(&gm->g, &m, &ev);
            }
        }
    }
    free(gm);
    service_free(svc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_protocol_codes_of_decisions),
        cmocka_unit_test(test_public_state_hides_racks_and_seed),
        cmocka_unit_test(test_board_text_equals_the_reference),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
