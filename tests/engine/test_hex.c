/*
 * test_hex.c - the rules of AXIO Hex (rules.md section 4) and seed 004's
 * worked examples, on boards built by hand.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <string.h>

#include "engine.h"
#include "fixtures.h"

enum { R = AX_RED, G = AX_GREEN, B = AX_BLUE, O = AX_ORANGE, P = AX_PURPLE, Y = AX_YELLOW };

static ax_game game;
static ax_events events;

static void fresh(int players, int mode)
{
    fixture_game(&game, AX_HEX, players, mode);
    fixture_after_first_round(&game);
}

static const ax_event *find_event(int kind, int nth)
{
    for (int i = 0; i < events.n; i++)
        if (events.ev[i].kind == kind && nth-- == 0)
            return &events.ev[i];
    return NULL;
}

static void place_ok(ax_move m) { assert_int_equal(ax_apply(&game, &m, &events), AX_OK); }

static void test_tile_set(void **state)
{
    (void)state;
    ax_tile set[AX_MAX_TILES];
    int n = ax_tile_set(AX_HEX, set), count[6][6] = {{0}};
    assert_int_equal(n, 120);
    for (int i = 0; i < n; i++)
        count[set[i].sym[0]][set[i].sym[1]]++;
    for (int a = 0; a < 6; a++) {
        assert_int_equal(count[a][a], 5);
        for (int b = a + 1; b < 6; b++)
            assert_int_equal(count[a][b] + count[b][a], 6);
    }
}

static int area_cells(const ax_game *g)
{
    int n = 0;
    for (int i = 0; i < AX_GRID_CELLS; i++)
        n += g->cell[i] != AX_OFF;
    return n;
}

static void test_areas_and_symbols(void **state)
{
    (void)state;
    fixture_game(&game, AX_HEX, 2, AX_STANDARD);
    assert_int_equal(area_cells(&game), 91);
    assert_int_equal(game.rack_n[0], 6);
    fixture_game(&game, AX_HEX, 3, AX_STANDARD);
    assert_int_equal(area_cells(&game), 127);
    fixture_game(&game, AX_HEX, 4, AX_STANDARD);
    assert_int_equal(area_cells(&game), 169);
    assert_int_equal(ax_cell_index(&game, 8, 0), -1);
    assert_int_equal(ax_cell_index(&game, 4, 4), -1); /* distance 8 */
    const int symbols[6][3] = {{5, 0, R},  {5, -5, G}, {0, -5, B},
                               {-5, 0, O}, {-5, 5, Y}, {0, 5, P}};
    for (int f = 0; f < 6; f++)
        assert_int_equal(game.cell[ax_cell_index(&game, symbols[f][0], symbols[f][1])],
                         symbols[f][2]);
}

static void test_first_round_rule(void **state)
{
    (void)state;
    fixture_game(&game, AX_HEX, 2, AX_STANDARD);
    const int rack[1][2] = {{R, B}};
    fixture_rack(&game, 0, 1, rack);
    ax_move far = fixture_domino(&game, 0, 0, 0, 1, 0);
    assert_int_equal(ax_check(&game, &far), AX_ERR_FIRST_TILE);
    place_ok(fixture_domino(&game, 0, 4, 0, 3, 0)); /* touches red [5,0] */
    fixture_rack(&game, 1, 1, rack);
    ax_move same = fixture_domino(&game, 0, 4, 1, 3, 1); /* [4,1] touches [5,0] too */
    assert_int_equal(ax_check(&game, &same), AX_ERR_FIRST_TILE);
    ax_move other = fixture_domino(&game, 0, 0, -4, 0, -3); /* touches blue [0,-5] */
    assert_int_equal(ax_check(&game, &other), AX_OK);
}

/* 004: the blue-yellow tile scores 2 yellow and 3 blue. */
static void test_example_blue_yellow(void **state)
{
    (void)state;
    fresh(2, AX_STANDARD);
    fixture_put(&game, 0, -1, B);
    fixture_put(&game, 0, -2, B);
    fixture_put(&game, -1, 0, B);
    fixture_put(&game, 2, 0, Y);
    fixture_put(&game, 3, 0, Y);
    const int rack[1][2] = {{B, Y}};
    fixture_rack(&game, 0, 1, rack);
    place_ok(fixture_domino(&game, 0, 0, 0, 1, 0));
    uint8_t want[AX_MAX_COLORS] = {0, 0, 3, 0, 0, 2};
    assert_memory_equal(find_event(AX_EV_PLACE, 0)->points, want, AX_MAX_COLORS);
}

/* 004: the double orange scores 4 on one half and 2 on the other. */
static void test_example_double_orange(void **state)
{
    (void)state;
    fresh(2, AX_STANDARD);
    for (int r = 1; r <= 4; r++) /* [0,-5] beyond is the blue symbol */
        fixture_put(&game, 0, -r, O);
    fixture_put(&game, 1, 1, O);
    fixture_put(&game, 2, 1, O);
    const int rack[1][2] = {{O, O}};
    fixture_rack(&game, 0, 1, rack);
    place_ok(fixture_domino(&game, 0, 0, 0, 0, 1));
    assert_int_equal(find_event(AX_EV_PLACE, 0)->points[O], 6);
}

/* 004: a double touching one hex scores 1; turned to touch it with both
 * halves, 2. A tile never scores for itself. */
static void test_example_double_turned(void **state)
{
    (void)state;
    fresh(2, AX_STANDARD);
    fixture_put(&game, 0, 0, G);
    const int rack[1][2] = {{G, G}};
    fixture_rack(&game, 0, 1, rack);
    ax_game copy = game;
    place_ok(fixture_domino(&game, 0, 1, 0, 2, 0));
    assert_int_equal(find_event(AX_EV_PLACE, 0)->points[G], 1);
    game = copy;
    place_ok(fixture_domino(&game, 0, 1, -1, 1, 0));
    assert_int_equal(find_event(AX_EV_PLACE, 0)->points[G], 2);
}

static void test_no_pyramids(void **state)
{
    (void)state;
    fresh(2, AX_STANDARD);
    /* surround [0,0] but one neighbour, then fill it: no pyramid in hex */
    const int around[5][2] = {{1, 0}, {1, -1}, {0, -1}, {-1, 0}, {-1, 1}};
    for (int k = 0; k < 5; k++)
        fixture_put(&game, around[k][0], around[k][1], R);
    const int rack[1][2] = {{G, B}};
    fixture_rack(&game, 0, 1, rack);
    place_ok(fixture_domino(&game, 0, 0, 1, 0, 2));
    assert_null(find_event(AX_EV_PYRAMID, 0));
    assert_int_equal(game.cell[ax_cell_index(&game, 0, 0)], AX_EMPTY);
}

static void test_swap_choice(void **state)
{
    (void)state;
    fresh(2, AX_STANDARD);
    const uint8_t t[6] = {2, 5, 5, 5, 5, 5}; /* red lowest */
    memcpy(game.track[0], t, 6);
    const int rack[2][2] = {{G, B}, {Y, P}};
    fixture_rack(&game, 0, 2, rack);
    place_ok(fixture_domino(&game, 0, 0, 0, 1, 0));
    assert_int_equal(game.phase, AX_PHASE_SWAP);
    ax_move moves[4];
    assert_int_equal(ax_legal_moves(&game, moves, 4), 2);
    ax_move accept = {.kind = AX_MOVE_SWAP, .accept = 1, .wild = AX_NO_COLOR};
    place_ok(accept);
    assert_int_equal(game.rack_n[0], 6); /* six new tiles */
    assert_int_equal(find_event(AX_EV_SWAP, 0)->ntiles, 6);
}

static void test_team_tracks_and_thresholds(void **state)
{
    (void)state;
    fresh(4, AX_TEAM);
    assert_int_equal(ax_track_owner(&game, 2), 0);
    assert_int_equal(ax_track_owner(&game, 3), 1);
    game.track[0][B] = 17;
    fixture_put(&game, 0, -1, B);
    fixture_put(&game, 0, -2, B);
    const int rack[2][2] = {{B, Y}, {R, R}};
    fixture_rack(&game, 0, 2, rack);
    place_ok(fixture_domino(&game, 0, 0, 0, 1, 0));
    const ax_event *axio = find_event(AX_EV_AXIO, 0);
    assert_int_equal(axio->axio_score, 18);
    assert_true(axio->bonus_move);          /* team: a bonus move at 18 ... */
    assert_int_equal(game.track[0][B], 18); /* ... and the rest of the unit is lost */
    place_ok(fixture_domino(&game, 0, 3, 3, 3, 2));
    assert_int_equal(game.to_move, 1);
    assert_int_equal(ax_max_score(&game), 36);
}

static void test_team_partner_scores_shared(void **state)
{
    (void)state;
    fresh(4, AX_TEAM);
    game.to_move = 2;
    fixture_put(&game, -1, 0, B);
    const int rack[2][2] = {{B, G}, {R, R}};
    fixture_rack(&game, 2, 2, rack);
    game.track[0][B] = 35;
    place_ok(fixture_domino(&game, 0, 0, 0, 1, 0));
    assert_int_equal(game.track[0][B], 36);
    const ax_event *axio = find_event(AX_EV_AXIO, 0);
    assert_int_equal(axio->axio_score, 36);
    assert_true(axio->bonus_move);
    assert_int_equal(axio->player, 2);
    assert_int_equal(game.to_move, 2); /* the bonus is the scorer's */
    assert_true(game.in_bonus);
}

static void test_team_ranking_groups_partners(void **state)
{
    (void)state;
    fresh(4, AX_TEAM);
    const uint8_t a[6] = {20, 20, 20, 20, 20, 19}, b[6] = {20, 20, 20, 20, 20, 18};
    memcpy(game.track[0], a, 6);
    memcpy(game.track[1], b, 6);
    ax_ranking rank;
    ax_rank(&game, &rank);
    assert_int_equal(rank.order[0], 0);
    assert_int_equal(rank.order[1], 2);
    assert_int_equal(rank.place[1], 0);
    assert_int_equal(rank.place[2], 1);
}

static void test_team_immediate_win_at_36(void **state)
{
    (void)state;
    fresh(4, AX_TEAM);
    const uint8_t t[6] = {36, 36, 35, 36, 36, 36};
    memcpy(game.track[1], t, 6);
    game.to_move = 3;
    fixture_put(&game, -1, 0, B);
    const int rack[1][2] = {{B, G}};
    fixture_rack(&game, 3, 1, rack);
    place_ok(fixture_domino(&game, 0, 0, 0, 1, 0));
    assert_int_equal(game.end_reason, AX_END_ALL_MAX);
}

static void test_solo(void **state)
{
    (void)state;
    fixture_game(&game, AX_HEX, 1, AX_SOLO);
    assert_int_equal(area_cells(&game), 91);
    assert_int_equal(game.rack_n[0], 1);
    assert_int_equal(game.nthresholds, 2);
    assert_false(game.threshold_bonus[0]);
    assert_false(game.threshold_bonus[1]);
    const uint8_t t[6] = {18, 14, 30, 12, 22, 19};
    memcpy(game.track[0], t, 6);
    assert_int_equal(ax_solo_result(&game), 121418); /* 12, 14, 18 */
}

static void test_standard_immediate_win(void **state)
{
    (void)state;
    fresh(2, AX_STANDARD);
    const uint8_t t[6] = {18, 18, 17, 18, 18, 18};
    memcpy(game.track[0], t, 6);
    fixture_put(&game, -1, 0, B);
    const int rack[1][2] = {{B, G}};
    fixture_rack(&game, 0, 1, rack);
    place_ok(fixture_domino(&game, 0, 0, 0, 1, 0));
    assert_int_equal(game.phase, AX_PHASE_OVER);
    assert_int_equal(game.end_reason, AX_END_ALL_MAX);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tile_set),
        cmocka_unit_test(test_areas_and_symbols),
        cmocka_unit_test(test_first_round_rule),
        cmocka_unit_test(test_example_blue_yellow),
        cmocka_unit_test(test_example_double_orange),
        cmocka_unit_test(test_example_double_turned),
        cmocka_unit_test(test_no_pyramids),
        cmocka_unit_test(test_swap_choice),
        cmocka_unit_test(test_team_tracks_and_thresholds),
        cmocka_unit_test(test_team_partner_scores_shared),
        cmocka_unit_test(test_team_ranking_groups_partners),
        cmocka_unit_test(test_team_immediate_win_at_36),
        cmocka_unit_test(test_solo),
        cmocka_unit_test(test_standard_immediate_win),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
