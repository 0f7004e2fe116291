/*
 * test_position.c - the engine protocol's position (position.c) on real
 * games of every variant and mode, with leaves: the full game and the seat's
 * view give the same text (no hidden tile is read); the rebuilt view gives
 * the same text again, the same legal decisions in the same order, and deals
 * its unknown tiles; decisions survive their JSON; bad positions and
 * decisions are refused with a reason, and mangled ones never crash.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "fixtures.h"
#include "position.h"

static const struct {
    int variant, players, mode;
} configs[] = {
    {AX_SQUARE, 1, AX_SOLO},     {AX_SQUARE, 2, AX_STANDARD}, {AX_SQUARE, 3, AX_STANDARD},
    {AX_SQUARE, 4, AX_STANDARD}, {AX_ROTA, 1, AX_SOLO},       {AX_ROTA, 2, AX_STANDARD},
    {AX_ROTA, 3, AX_STANDARD},   {AX_ROTA, 4, AX_STANDARD},   {AX_HEX, 1, AX_SOLO},
    {AX_HEX, 2, AX_STANDARD},    {AX_HEX, 3, AX_STANDARD},    {AX_HEX, 4, AX_STANDARD},
    {AX_HEX, 4, AX_TEAM},
};
#define NCONFIGS (int)(sizeof configs / sizeof configs[0])

static ax_move moves_a[AX_MAX_MOVES], moves_b[AX_MAX_MOVES];

static char *position_text(const ax_game *g, int seat)
{
    return fixture_dump(ax_position_json(g, seat));
}

static json_t *parse(const char *text)
{
    json_t *o = json_loads(text, 0, NULL);
    assert_non_null(o);
    return o;
}

/* The rebuilt view plays like the view: same text, same decisions. */
static void check_round_trip(const ax_game *g, int seat)
{
    ax_game view, back;
    ax_view(g, seat, &view);
    char *from_game = position_text(g, seat), *from_view = position_text(&view, seat);
    assert_string_equal(from_game, from_view);
    json_t *o = parse(from_view);
    char err[256] = "";
    int read_seat = -1;
    int rc = ax_position_read(o, &back, &read_seat, err, sizeof err);
    if (rc)
        fail_msg("%s\n%s", err, from_view);
    assert_int_equal(read_seat, seat);
    char *again = position_text(&back, seat);
    assert_string_equal(again, from_view);
    assert_true(ax_game_consistent(&back));
    int n = ax_legal_moves(&view, moves_a, AX_MAX_MOVES);
    assert_int_equal(ax_legal_moves(&back, moves_b, AX_MAX_MOVES), n);
    assert_memory_equal(moves_a, moves_b, (size_t)n * sizeof moves_a[0]);
    assert_memory_equal(view.cell, back.cell, sizeof view.cell);
    assert_memory_equal(view.empty, back.empty, sizeof view.empty);
    assert_int_equal(view.fields_touched, back.fields_touched);
    assert_memory_equal(view.track, back.track, sizeof view.track);
    assert_int_equal(view.rack_n[seat], back.rack_n[seat]);
    assert_memory_equal(view.rack[seat], back.rack[seat], view.rack_n[seat] * sizeof(ax_tile));
    assert_memory_equal(view.board_tiles, back.board_tiles, view.board_n * sizeof(ax_tile));
    ax_game dealt;
    ax_determinize(&back, 7, &dealt);
    assert_true(ax_game_consistent(&dealt));
    json_decref(o);
    free(from_game);
    free(from_view);
    free(again);
}

/* Every legal decision of the seat to move, through its JSON, is the same
 * decision for the full game. */
static void check_decisions(const ax_game *g)
{
    ax_game view;
    ax_view(g, g->to_move, &view);
    int n = ax_legal_moves(&view, moves_a, AX_MAX_MOVES);
    for (int i = 0; i < n; i += 1 + n / 40) {
        char *text = fixture_dump(ax_decision_json(&view, &moves_a[i]));
        json_t *o = parse(text);
        ax_move m;
        char err[256];
        if (ax_decision_read(&view, o, &m, err, sizeof err))
            fail_msg("%s: %s", text, err);
        ax_game a = *g, b = *g;
        ax_events ea, eb;
        assert_int_equal(ax_apply(&a, &moves_a[i], &ea), AX_OK);
        assert_int_equal(ax_apply(&b, &m, &eb), AX_OK);
        assert_int_equal(ea.n, eb.n);
        for (int k = 0; k < ea.n; k++) {
            char *x = fixture_dump(ax_record_event(&a, &ea.ev[k], AX_VIEWER_ALL));
            char *y = fixture_dump(ax_record_event(&b, &eb.ev[k], AX_VIEWER_ALL));
            assert_string_equal(x, y);
            free(x);
            free(y);
        }
        json_decref(o);
        free(text);
    }
}

static void leave_at_random(ax_game *g, ax_rng *rng)
{
    ax_move m = {.kind = AX_MOVE_LEAVE, .wild = AX_NO_COLOR};
    m.seat = (uint8_t)ax_rng_below(rng, g->players);
    m.why = (uint8_t)ax_rng_below(rng, 3);
    ax_apply(g, &m, NULL); /* refused when that seat left already */
}

static void test_round_trip_every_variant(void **state)
{
    (void)state;
    ax_game g;
    for (int c = 0; c < NCONFIGS; c++)
        for (uint64_t seed = 1; seed <= 3; seed++) {
            ax_game_init(&g, configs[c].variant, configs[c].players, configs[c].mode, seed, NULL);
            ax_rng rng;
            ax_rng_seed(&rng, seed * 101 + (uint64_t)c);
            while (g.phase != AX_PHASE_OVER) {
                for (int s = 0; s < g.players; s++)
                    check_round_trip(&g, s);
                if (g.ply % 7 == 0)
                    check_decisions(&g);
                if (g.players > 2 && ax_rng_below(&rng, 60) == 0) {
                    leave_at_random(&g, &rng);
                    continue;
                }
                ax_move m;
                ax_random_move(&g, &rng, &m);
                assert_int_equal(ax_apply(&g, &m, NULL), AX_OK);
            }
        }
}

/* A square game played until all pyramids are used and the oldest moved. */
static void test_pyramids_oldest_first(void **state)
{
    (void)state;
    ax_game g;
    for (uint64_t seed = 1; seed < 400; seed++) {
        ax_game_init(&g, AX_SQUARE, 4, AX_STANDARD, seed, NULL);
        ax_rng rng;
        ax_rng_seed(&rng, seed);
        while (g.phase != AX_PHASE_OVER && g.pyramid_oldest == 0) {
            ax_move m;
            ax_random_move(&g, &rng, &m);
            ax_apply(&g, &m, NULL);
        }
        if (g.phase == AX_PHASE_OVER)
            continue;
        check_round_trip(&g, g.to_move);
        json_t *o = ax_position_json(&g, 0);
        json_t *first = json_array_get(json_object_get(o, "pyramids"), 0);
        int a, b;
        ax_cell_coords(&g, g.pyramid_cell[g.pyramid_oldest], &a, &b);
        assert_int_equal(json_integer_value(json_array_get(first, 0)), a);
        assert_int_equal(json_integer_value(json_array_get(first, 1)), b);
        json_decref(o);
        return;
    }
    fail_msg("no game moved a pyramid");
}

/* A position after a few decisions, as text, for tampering. */
static char *sample_position(int variant, int players, int mode, int seat, ax_game *g)
{
    ax_game_init(g, variant, players, mode, 5, NULL);
    ax_rng rng;
    ax_rng_seed(&rng, 9);
    for (int k = 0; k < 6; k++) {
        ax_move m;
        ax_random_move(g, &rng, &m);
        ax_apply(g, &m, NULL);
    }
    return position_text(g, seat);
}

static void expect_refused(const char *text, const char *path, json_t *value, const char *why)
{
    json_t *o = parse(text);
    json_t *target = o;
    char key[64];
    const char *p = path;
    /* path: keys and indices separated by '/' */
    for (;;) {
        size_t len = strcspn(p, "/");
        snprintf(key, sizeof key, "%.*s", (int)len, p);
        bool last = p[len] == 0;
        if (last) {
            if (json_is_array(target))
                json_array_set_new(target, (size_t)atoi(key), value);
            else if (value)
                json_object_set_new(target, key, value);
            else
                json_object_del(target, key);
            break;
        }
        target = json_is_array(target) ? json_array_get(target, (size_t)atoi(key))
                                       : json_object_get(target, key);
        assert_non_null(target);
        p += len + 1;
    }
    ax_game back;
    int seat;
    char err[256] = "";
    int rc = ax_position_read(o, &back, &seat, err, sizeof err);
    if (rc != AX_REPLAY_MALFORMED || !strstr(err, why))
        fail_msg("%s = ...: got %d \"%s\", want \"%s\"", path, rc, err, why);
    json_decref(o);
}

static void test_bad_positions_refused(void **state)
{
    (void)state;
    ax_game g;
    char *sq = sample_position(AX_SQUARE, 2, AX_STANDARD, 0, &g);
    int other = 1;
    char path[32];
    snprintf(path, sizeof path, "seats/%d/rack", other);
    expect_refused(sq, path, json_pack("[[ss]]", "red", "red"), "other seats are hidden");
    expect_refused(sq, "seats/0/rack", json_integer(5), "own \"rack\" must list");
    expect_refused(sq, "seats/0/rack", json_pack("[[ss]]", "red", "pink"), "not a tile");
    expect_refused(sq, "bag", json_integer(3), "do not add up");
    expect_refused(sq, "bag", NULL, "\"bag\"");
    expect_refused(sq, "variant", json_string("chess"), "must name a game");
    expect_refused(sq, "players", json_integer(1), "must name a game");
    expect_refused(sq, "seat", json_integer(2), "seats of the game");
    expect_refused(sq, "phase", json_string("over"), "\"phase\"");
    expect_refused(sq, "seats/0/score/red", json_integer(19), "from 0 to 18");
    expect_refused(sq, "seats/1/left", json_pack("{s:i,s:s}", "order", 1, "why", "bored"),
                   "\"left\"");
    expect_refused(sq, "seats/1/left", json_pack("{s:i,s:s}", "order", 1, "why", "resign"),
                   "leaving order");
    expect_refused(sq, "cells/0/cell", json_pack("[ii]", 0, 0), "empty cell of the play area");
    expect_refused(sq, "cells/0/color", json_string("yellow"), "a colour");
    expect_refused(sq, "tiles", json_array(), "every tile on the board");
    expect_refused(sq, "pyramids", json_pack("[[ii]]", 2, 6), "empty cell");
    expect_refused(sq, "seats", json_array(), "one entry per player");
    free(sq);

    char *hx = sample_position(AX_HEX, 4, AX_TEAM, 2, &g);
    expect_refused(hx, "seats/0/score/red", json_integer(35), "partners share");
    expect_refused(hx, "pyramids", json_pack("[[ii]]", 0, 0), "only square");
    expect_refused(hx, "seats/2/stack", json_integer(3), "only rota");
    free(hx);

    char *ro = sample_position(AX_ROTA, 2, AX_STANDARD, 1, &g);
    expect_refused(ro, "frontier", json_array(), "empty cells next to the display");
    expect_refused(ro, "frontier/0", json_pack("[ii]", 0, 0), "not an empty cell");
    expect_refused(ro, "display/1/cell", json_pack("[ii]", 0, 0), "holds two tiles");
    /* a display grows by sides: its 60 tiles never lie 60 cells apart */
    expect_refused(ro, "display/1/cell", json_pack("[ii]", 0, 60),
                   "not one display: its tiles lie");
    expect_refused(ro, "display/1/cell", json_pack("[ii]", -64, 1), "cells apart");
    expect_refused(ro, "seats/0/stack", json_integer(13), "\"stack\"");
    expect_refused(ro, "tiles/0", json_pack("[ssss]", "red", "red", "red", "red"), "not a tile");
    free(ro);

    ax_game back;
    int seat;
    char err[256];
    json_t *array = json_array();
    assert_int_equal(ax_position_read(array, &back, &seat, err, sizeof err), AX_REPLAY_MALFORMED);
    json_decref(array);
}

/* Mangled positions: every value replaced in turn by other JSON; the reader
 * refuses or rebuilds a consistent game, and never crashes (the sanitizer
 * build runs this). */
static void mangle_all(json_t *root, json_t *node, int depth)
{
    static json_t *replacements[6];
    if (!replacements[0]) {
        replacements[0] = json_null();
        replacements[1] = json_integer(-1);
        replacements[2] = json_integer(200);
        replacements[3] = json_string("red");
        replacements[4] = json_array();
        replacements[5] = json_pack("[ii]", 1000, -1000);
    }
    if (depth > 4)
        return;
    size_t n = json_is_array(node) ? json_array_size(node) : json_object_size(node);
    const char *key;
    json_t *value;
    void *tmp;
    (void)n;
    if (json_is_object(node)) {
        json_object_foreach_safe(node, tmp, key, value)
        {
            json_incref(value);
            for (int r = 0; r < 6; r++) {
                json_object_set(node, key, replacements[r]);
                ax_game back;
                int seat;
                char err[256];
                if (ax_position_read(root, &back, &seat, err, sizeof err) == AX_REPLAY_OK) {
                    assert_true(ax_game_consistent(&back));
                    ax_legal_moves(&back, moves_b, AX_MAX_MOVES);
                }
            }
            json_object_set_new(node, key, value);
            mangle_all(root, value, depth + 1);
        }
    } else if (json_is_array(node)) {
        for (size_t i = 0; i < json_array_size(node) && i < 3; i++) {
            json_t *v = json_incref(json_array_get(node, i));
            for (int r = 0; r < 6; r++) {
                json_array_set(node, i, replacements[r]);
                ax_game back;
                int seat;
                char err[256];
                if (ax_position_read(root, &back, &seat, err, sizeof err) == AX_REPLAY_OK)
                    assert_true(ax_game_consistent(&back));
            }
            json_array_set_new(node, i, v);
            mangle_all(root, v, depth + 1);
        }
    }
}

static void test_mangled_positions_never_crash(void **state)
{
    (void)state;
    ax_game g;
    for (int c = 0; c < NCONFIGS; c++) {
        char *text =
            sample_position(configs[c].variant, configs[c].players, configs[c].mode, 0, &g);
        json_t *o = parse(text);
        mangle_all(o, o, 0);
        json_decref(o);
        free(text);
    }
}

static void expect_decision(const ax_game *view, const char *text, int want, const char *why)
{
    json_t *o = parse(text);
    ax_move m;
    char err[256] = "";
    int rc = ax_decision_read(view, o, &m, err, sizeof err);
    if (rc != want || !strstr(err, why))
        fail_msg("%s: got %d \"%s\", want %d \"%s\"", text, rc, err, want, why);
    json_decref(o);
}

static void test_bad_decisions_refused(void **state)
{
    (void)state;
    ax_game g, view;
    fixture_game(&g, AX_SQUARE, 2, AX_STANDARD);
    const int rack[2][2] = {{AX_RED, AX_BLUE}, {AX_GREEN, AX_GREEN}};
    fixture_rack(&g, 0, 2, rack);
    ax_view(&g, 0, &view);
    expect_decision(&view, "{\"ev\":\"leave\",\"player\":0,\"why\":\"resign\"}",
                    AX_REPLAY_MALFORMED, "\"place\" or \"swap\"");
    expect_decision(&view, "{\"ev\":\"place\",\"player\":1,\"tile\":[\"red\",\"blue\"]}",
                    AX_REPLAY_INCONSISTENT, "seat 0's");
    expect_decision(&view, "{\"ev\":\"place\",\"player\":0,\"tile\":[\"red\",\"blue\"]}",
                    AX_REPLAY_MALFORMED, "cells");
    expect_decision(&view,
                    "{\"ev\":\"place\",\"player\":0,\"tile\":[\"red\",\"red\"],"
                    "\"cells\":[[2,5],[3,5]]}",
                    AX_REPLAY_INCONSISTENT, "not on seat 0's rack");
    expect_decision(&view,
                    "{\"ev\":\"place\",\"player\":0,\"tile\":[\"red\",\"blue\"],"
                    "\"cells\":[[2,6],[3,6]]}",
                    AX_REPLAY_INCONSISTENT, "empty");
    expect_decision(&view, "{\"ev\":\"swap\",\"player\":0,\"accepted\":true}",
                    AX_REPLAY_INCONSISTENT, "not the decision asked for");
    expect_decision(&view,
                    "{\"ev\":\"place\",\"player\":0,\"tile\":[\"blue\",\"red\"],"
                    "\"cells\":[[3,6],[4,6]]}",
                    AX_REPLAY_OK, "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip_every_variant),
        cmocka_unit_test(test_pyramids_oldest_first),
        cmocka_unit_test(test_bad_positions_refused),
        cmocka_unit_test(test_mangled_positions_never_crash),
        cmocka_unit_test(test_bad_decisions_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
