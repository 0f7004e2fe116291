/*
 * test_rota.c - the rules of AXIO ROTA (rules.md section 3) and the worked
 * examples of section 5, on displays built by hand.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <string.h>

#include "engine.h"
#include "fixtures.h"

enum { R = AX_RED, G = AX_GREEN, B = AX_BLUE, O = AX_ORANGE, P = AX_PURPLE, E = AX_NO_COLOR };

static ax_game game;
static ax_events events;

static ax_tile tile4(int nw, int ne, int se, int sw)
{
    ax_tile t = {{(int8_t)nw, (int8_t)ne, (int8_t)se, (int8_t)sw}};
    return t;
}

/* A 2-player game whose display is replaced: [0,0], [1,0], [0,1], [1,1] and,
 * for the examples, [2,1]. Corners that matter are set per test. */
static void display(ax_tile t10, ax_tile t11, ax_tile t21)
{
    fixture_game(&game, AX_ROTA, 2, AX_STANDARD);
    ax_rota_clear(&game.rota);
    ax_rota_put(&game.rota, 0, 0, tile4(G, G, G, G));
    ax_rota_put(&game.rota, 1, 0, t10);
    ax_rota_put(&game.rota, 0, 1, tile4(G, G, G, G));
    ax_rota_put(&game.rota, 1, 1, t11);
    ax_rota_put(&game.rota, 2, 1, t21);
}

static void hand(ax_tile t)
{
    game.rack[game.to_move][0] = t;
    game.rack_n[game.to_move] = 1;
}

static ax_move at(int x, int y, int rotation, int wild)
{
    ax_move m = {.kind = AX_MOVE_PLACE,
                 .x = (int16_t)x,
                 .y = (int16_t)y,
                 .rotation = (uint8_t)rotation,
                 .wild = (int8_t)wild};
    return m;
}

static const ax_event *place_event(void)
{
    for (int i = 0; i < events.n; i++)
        if (events.ev[i].kind == AX_EV_PLACE)
            return &events.ev[i];
    return NULL;
}

static void test_tile_set(void **state)
{
    (void)state;
    ax_tile set[AX_MAX_TILES];
    int n = ax_tile_set(AX_ROTA, set), corners[5] = {0}, one_empty = 0;
    assert_int_equal(n, 60);
    for (int i = 0; i < n; i++) {
        int empty = 0;
        for (int k = 0; k < 4; k++) {
            if (set[i].sym[k] == E)
                empty++;
            else
                corners[set[i].sym[k]]++;
        }
        one_empty += empty == 1;
        assert_true(empty <= 1);
    }
    assert_int_equal(one_empty, 10);
    for (int c = 0; c < 5; c++)
        assert_int_equal(corners[c], 46);
}

static void test_setup(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed < 200; seed++) {
        ax_game g;
        ax_events init;
        ax_game_init(&g, AX_ROTA, 3, AX_STANDARD, seed, &init);
        static const int cells[4][2] = {{0, 0}, {1, 0}, {0, 1}, {1, 1}};
        static const int centre[4] = {2, 3, 1, 0};
        for (int k = 0; k < 4; k++) {
            int id = ax_rota_find(&g.rota, cells[k][0], cells[k][1]);
            assert_true(id >= 0);
            for (int c = 0; c < 4; c++)
                if (g.rota.placed[id].sym[c] == E)
                    assert_int_equal(c, centre[k]); /* empty corners meet in the middle */
        }
        for (int s = 0; s < 3; s++) {
            assert_int_equal(g.stack_n[s], 11);
            assert_int_equal(g.rack_n[s], 1);
        }
        assert_int_equal(g.bag_n, 60 - 4 - 36);
        assert_int_equal(init.n, 3);
        assert_int_equal(init.ev[0].source, AX_FROM_STACK);
        assert_int_equal(g.rota.nfrontier, 8);
    }
}

static void test_placement_must_touch(void **state)
{
    (void)state;
    display(tile4(R, R, R, R), tile4(R, R, R, R), tile4(R, R, R, R));
    hand(tile4(R, G, B, O));
    ax_move diagonal = at(2, 2 + 1, 0, E);
    assert_int_equal(ax_check(&game, &diagonal), AX_ERR_DISPLAY);
    ax_move occupied = at(1, 1, 0, E);
    assert_int_equal(ax_check(&game, &occupied), AX_ERR_DISPLAY);
    ax_move bad_rotation = at(2, 0, 4, E);
    assert_int_equal(ax_check(&game, &bad_rotation), AX_ERR_ROTATION);
    ax_move bad_wild = at(2, 0, 0, 7);
    assert_int_equal(ax_check(&game, &bad_wild), AX_ERR_WILD);
    ax_move ok = at(-1, 0, 3, E);
    assert_int_equal(ax_check(&game, &ok), AX_OK);
}

static void test_rotation(void **state)
{
    (void)state;
    ax_tile t = tile4(R, G, B, O);
    ax_tile turned = ax_tile_rotate(t, 1); /* a quarter turn clockwise */
    assert_int_equal(turned.sym[0], O);
    assert_int_equal(turned.sym[1], R);
    assert_int_equal(turned.sym[2], G);
    assert_int_equal(turned.sym[3], B);
}

/* 1 purple + 1 blue, the green corner scoring 0, the orange corner unscored. */
static void test_example_purple_blue(void **state)
{
    (void)state;
    display(tile4(G, P, B, G), tile4(G, R, G, G), tile4(O, R, G, G));
    hand(tile4(P, O, G, B));
    assert_int_equal(
        ax_apply(&game, &(ax_move){.kind = AX_MOVE_PLACE, .x = 2, .y = 0, .wild = E}, &events),
        AX_OK);
    uint8_t want[AX_MAX_COLORS] = {0, 0, 1, 0, 1, 0};
    assert_memory_equal(place_event()->points, want, AX_MAX_COLORS);
}

/* 2 red + 1 blue. */
static void test_example_two_red_one_blue(void **state)
{
    (void)state;
    display(tile4(G, B, R, G), tile4(G, R, G, G), tile4(O, G, G, G));
    hand(tile4(B, O, P, R));
    assert_int_equal(
        ax_apply(&game, &(ax_move){.kind = AX_MOVE_PLACE, .x = 2, .y = 0, .wild = E}, &events),
        AX_OK);
    uint8_t want[AX_MAX_COLORS] = {2, 0, 1, 0, 0, 0};
    assert_memory_equal(place_event()->points, want, AX_MAX_COLORS);
}

/* A wild corner naming blue: 1 blue + 1 purple. */
static void test_example_wild_blue(void **state)
{
    (void)state;
    display(tile4(G, P, B, G), tile4(G, G, G, G), tile4(O, G, G, G));
    hand(tile4(P, R, O, E));
    ax_move m = at(2, 0, 0, B);
    assert_int_equal(ax_apply(&game, &m, &events), AX_OK);
    uint8_t want[AX_MAX_COLORS] = {0, 0, 1, 0, 1, 0};
    assert_memory_equal(place_event()->points, want, AX_MAX_COLORS);
    assert_int_equal(place_event()->wild, B);
}

/* A wild corner choosing between 2 red or 1 purple. */
static void test_example_wild_choice(void **state)
{
    (void)state;
    display(tile4(G, O, R, G), tile4(G, R, G, G), tile4(P, G, G, G));
    hand(tile4(B, B, B, E));
    /* the legal decisions on [2,0] unturned name red or purple */
    ax_move moves[AX_MAX_MOVES];
    int n = ax_legal_moves(&game, moves, AX_MAX_MOVES), named = 0;
    for (int i = 0; i < n; i++)
        if (moves[i].x == 2 && moves[i].y == 0 && moves[i].rotation == 0) {
            assert_true(moves[i].wild == R || moves[i].wild == P);
            named++;
        }
    assert_int_equal(named, 2);
    ax_game copy = game;
    ax_move red = at(2, 0, 0, R), purple = at(2, 0, 0, P), green = at(2, 0, 0, G);
    assert_int_equal(ax_apply(&game, &red, &events), AX_OK);
    assert_int_equal(place_event()->points[R], 2);
    game = copy;
    assert_int_equal(ax_apply(&game, &purple, &events), AX_OK);
    assert_int_equal(place_event()->points[P], 1);
    game = copy;
    assert_int_equal(ax_apply(&game, &green, &events), AX_OK);
    assert_int_equal(place_event()->wild, E); /* named a colour that scores nothing */
}

static void test_earlier_empty_corner_never_scores(void **state)
{
    (void)state;
    display(tile4(G, O, E, G), tile4(G, E, G, G), tile4(E, G, G, G));
    hand(tile4(B, B, B, E));
    ax_move m = at(2, 0, 0, R);
    assert_int_equal(ax_apply(&game, &m, &events), AX_OK);
    uint8_t zero[AX_MAX_COLORS] = {0};
    assert_memory_equal(place_event()->points, zero, AX_MAX_COLORS);
}

static void test_threshold_and_supply_bonus(void **state)
{
    (void)state;
    display(tile4(G, B, R, G), tile4(G, R, G, G), tile4(O, G, G, G));
    game.track[0][R] = 11;
    hand(tile4(B, O, P, R));
    int supply = game.bag_n;
    assert_int_equal(
        ax_apply(&game, &(ax_move){.kind = AX_MOVE_PLACE, .x = 2, .y = 0, .wild = E}, &events),
        AX_OK);
    assert_int_equal(game.track[0][R], 12);
    assert_true(game.in_bonus);
    assert_int_equal(game.to_move, 0);
    assert_int_equal(game.bag_n, supply - 1); /* the bonus tile is the supply's top */
    assert_int_equal(events.ev[events.n - 1].kind, AX_EV_DRAW);
    assert_int_equal(events.ev[events.n - 1].source, AX_FROM_SUPPLY);
    int stack = game.stack_n[0];
    assert_int_equal(
        ax_apply(&game, &(ax_move){.kind = AX_MOVE_PLACE, .x = -1, .y = 0, .wild = E}, &events),
        AX_OK);
    assert_true(place_event()->bonus);
    assert_int_equal(game.stack_n[0], stack - 1); /* then the draw from the stack */
    assert_int_equal(game.to_move, 1);
}

static void test_no_bonus_when_supply_empty(void **state)
{
    (void)state;
    display(tile4(G, B, R, G), tile4(G, R, G, G), tile4(O, G, G, G));
    game.track[0][R] = 11;
    game.bag_n = 0;
    hand(tile4(B, O, P, R));
    assert_int_equal(
        ax_apply(&game, &(ax_move){.kind = AX_MOVE_PLACE, .x = 2, .y = 0, .wild = E}, &events),
        AX_OK);
    assert_false(game.in_bonus);
    assert_int_equal(game.to_move, 1);
}

static void test_game_ends_when_stacks_are_played(void **state)
{
    (void)state;
    ax_game g;
    ax_rng rng;
    ax_rng_seed(&rng, 7);
    ax_game_init(&g, AX_ROTA, 2, AX_STANDARD, 3, NULL);
    int placements = 0;
    while (g.phase != AX_PHASE_OVER) {
        ax_move m;
        bool bonus = g.in_bonus;
        ax_random_move(&g, &rng, &m);
        assert_int_equal(ax_apply(&g, &m, NULL), AX_OK);
        placements += !bonus;
    }
    assert_true(g.end_reason == AX_END_TILES_OUT || g.end_reason == AX_END_ALL_MAX);
    if (g.end_reason == AX_END_TILES_OUT) {
        assert_int_equal(placements, 24); /* 12 each, bonus moves aside */
        assert_int_equal(g.stack_n[0] + g.stack_n[1] + g.rack_n[0] + g.rack_n[1], 0);
    }
}

static void test_ranking_examples(void **state)
{
    (void)state;
    fixture_game(&game, AX_ROTA, 3, AX_STANDARD);
    const uint8_t a[5] = {8, 9, 9, 9, 9}, b[5] = {6, 12, 12, 12, 12};
    memcpy(game.track[0], a, 5);
    memcpy(game.track[1], b, 5);
    memcpy(game.track[2], b, 5);
    ax_ranking rank;
    ax_rank(&game, &rank);
    assert_int_equal(rank.order[0], 0); /* lowest 8 beats lowest 6 */
    const uint8_t x[5] = {7, 8, 11, 11, 11}, y[5] = {7, 9, 9, 11, 11}, z[5] = {7, 9, 10, 11, 11};
    memcpy(game.track[0], x, 5);
    memcpy(game.track[1], y, 5);
    memcpy(game.track[2], z, 5);
    ax_rank(&game, &rank);
    assert_int_equal(rank.order[0], 2); /* 7s, then 9 over 8, then 10 over 9 */
    assert_int_equal(rank.order[1], 1);
    assert_int_equal(rank.order[2], 0);
}

static void test_solo_result(void **state)
{
    (void)state;
    fixture_game(&game, AX_ROTA, 1, AX_SOLO);
    assert_int_equal(game.nthresholds, 1);
    assert_int_equal(game.threshold[0], 12);
    assert_true(game.threshold_bonus[0]);
    const uint8_t t[5] = {9, 7, 12, 10, 8};
    memcpy(game.track[0], t, 5);
    assert_int_equal(ax_solo_result(&game), 7);
}

static void test_immediate_win(void **state)
{
    (void)state;
    display(tile4(G, B, R, G), tile4(G, R, G, G), tile4(O, G, G, G));
    const uint8_t t[5] = {11, 12, 12, 12, 12};
    memcpy(game.track[0], t, 5);
    hand(tile4(B, O, P, R));
    assert_int_equal(
        ax_apply(&game, &(ax_move){.kind = AX_MOVE_PLACE, .x = 2, .y = 0, .wild = E}, &events),
        AX_OK);
    assert_int_equal(game.phase, AX_PHASE_OVER);
    assert_int_equal(game.end_reason, AX_END_ALL_MAX);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tile_set),
        cmocka_unit_test(test_setup),
        cmocka_unit_test(test_placement_must_touch),
        cmocka_unit_test(test_rotation),
        cmocka_unit_test(test_example_purple_blue),
        cmocka_unit_test(test_example_two_red_one_blue),
        cmocka_unit_test(test_example_wild_blue),
        cmocka_unit_test(test_example_wild_choice),
        cmocka_unit_test(test_earlier_empty_corner_never_scores),
        cmocka_unit_test(test_threshold_and_supply_bonus),
        cmocka_unit_test(test_no_bonus_when_supply_empty),
        cmocka_unit_test(test_game_ends_when_stacks_are_played),
        cmocka_unit_test(test_ranking_examples),
        cmocka_unit_test(test_solo_result),
        cmocka_unit_test(test_immediate_win),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
