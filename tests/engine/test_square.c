/*
 * test_square.c - the rules of AXIO (`square`, rules.md section 2), each on a
 * concrete position built by hand, and the worked examples of section 5.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <string.h>

#include "engine.h"
#include "fixtures.h"

static ax_game game;
static ax_events events;

/* A 2-player game after the first round with an empty board but fields. */
static ax_game *fresh(int players, int mode)
{
    fixture_game(&game, AX_SQUARE, players, mode);
    fixture_after_first_round(&game);
    return &game;
}

static const ax_event *find_event(int kind, int nth)
{
    for (int i = 0; i < events.n; i++)
        if (events.ev[i].kind == kind && nth-- == 0)
            return &events.ev[i];
    return NULL;
}

static void place_ok(ax_move m)
{
    ax_error err = ax_apply(&game, &m, &events);
    assert_int_equal(err, AX_OK);
}

static void test_tile_set(void **state)
{
    (void)state;
    ax_tile set[AX_MAX_TILES];
    int n = ax_tile_set(AX_SQUARE, set), count[5][5] = {{0}};
    assert_int_equal(n, 100);
    for (int i = 0; i < n; i++)
        count[set[i].sym[0]][set[i].sym[1]]++;
    for (int a = 0; a < 5; a++) {
        assert_int_equal(count[a][a], 4);
        for (int b = a + 1; b < 5; b++)
            assert_int_equal(count[a][b] + count[b][a], 8);
    }
}

static int area_cells(const ax_game *g)
{
    int n = 0;
    for (int i = 0; i < AX_GRID_CELLS; i++)
        n += g->cell[i] != AX_OFF;
    return n;
}

static void test_play_areas(void **state)
{
    (void)state;
    fixture_game(&game, AX_SQUARE, 2, AX_STANDARD);
    assert_int_equal(area_cells(&game), 81);
    assert_int_equal(game.cell[ax_cell_index(&game, 1, 5)], AX_OFF);
    assert_int_not_equal(game.cell[ax_cell_index(&game, 2, 2)], AX_OFF);
    fixture_game(&game, AX_SQUARE, 1, AX_SOLO);
    assert_int_equal(area_cells(&game), 81);
    fixture_game(&game, AX_SQUARE, 3, AX_STANDARD);
    assert_int_equal(area_cells(&game), 121);
    assert_int_not_equal(game.cell[ax_cell_index(&game, 1, 11)], AX_OFF);
    assert_int_equal(game.cell[ax_cell_index(&game, 0, 5)], AX_OFF);
    fixture_game(&game, AX_SQUARE, 4, AX_STANDARD);
    assert_int_equal(area_cells(&game), 169);
    assert_int_equal(game.rack_n[3], 5);
    assert_int_equal(game.bag_n, 80);
}

static void test_fields(void **state)
{
    (void)state;
    fresh(2, AX_STANDARD);
    const int expect[5][3] = {
        {2, 6, AX_RED}, {6, 10, AX_GREEN}, {10, 6, AX_BLUE}, {6, 2, AX_ORANGE}, {6, 6, AX_PURPLE}};
    for (int f = 0; f < 5; f++)
        assert_int_equal(game.cell[ax_cell_index(&game, expect[f][0], expect[f][1])], expect[f][2]);
    const int rack[1][2] = {{AX_RED, AX_BLUE}};
    fixture_rack(&game, 0, 1, rack);
    ax_move m = fixture_domino(&game, 0, 6, 6, 6, 7); /* onto the purple field */
    ax_game before = game;
    assert_int_equal(ax_apply(&game, &m, &events), AX_ERR_CELL);
    assert_memory_equal(&before, &game, sizeof game);
}

static void test_first_tile_must_touch_untouched_field(void **state)
{
    (void)state;
    fixture_game(&game, AX_SQUARE, 2, AX_STANDARD);
    const int rack[2][2] = {{AX_RED, AX_BLUE}, {AX_GREEN, AX_GREEN}};
    fixture_rack(&game, 0, 2, rack);
    ax_move far = fixture_domino(&game, 0, 4, 4, 4, 5);
    assert_int_equal(ax_check(&game, &far), AX_ERR_FIRST_TILE);
    ax_move near = fixture_domino(&game, 0, 3, 6, 3, 7); /* touches red [2,6] */
    place_ok(near);
    /* seat 1 may not use the red field again */
    fixture_rack(&game, 1, 2, rack);
    ax_move same_field = fixture_domino(&game, 1, 2, 5, 1 + 2, 5);
    assert_int_equal(ax_check(&game, &same_field), AX_ERR_FIRST_TILE);
    ax_move other = fixture_domino(&game, 1, 9, 6, 9, 7); /* touches blue [10,6] */
    assert_int_equal(ax_check(&game, &other), AX_OK);
    /* every legal decision of seat 1 touches an untouched field */
    ax_move moves[AX_MAX_MOVES];
    int n = ax_legal_moves(&game, moves, AX_MAX_MOVES);
    assert_true(n > 0);
    for (int i = 0; i < n; i++)
        assert_int_equal(ax_check(&game, &moves[i]), AX_OK);
}

static void test_first_tile_fallback(void **state)
{
    (void)state;
    fixture_game(&game, AX_SQUARE, 2, AX_STANDARD);
    game.fields_touched = 0x1f; /* every field already touched */
    const int rack[1][2] = {{AX_RED, AX_BLUE}};
    fixture_rack(&game, 0, 1, rack);
    ax_move far = fixture_domino(&game, 0, 4, 4, 4, 5);
    assert_int_equal(ax_check(&game, &far), AX_OK);
}

static void test_adjacency_and_cells(void **state)
{
    (void)state;
    fresh(2, AX_STANDARD);
    const int rack[1][2] = {{AX_RED, AX_BLUE}};
    fixture_rack(&game, 0, 1, rack);
    ax_move diagonal = fixture_domino(&game, 0, 4, 4, 5, 5);
    assert_int_equal(ax_check(&game, &diagonal), AX_ERR_ADJACENT);
    ax_move outside = fixture_domino(&game, 0, 1, 4, 2, 4); /* row 1 is off the 9x9 area */
    assert_int_equal(ax_check(&game, &outside), AX_ERR_CELL);
    ax_move bad_rack = fixture_domino(&game, 3, 4, 4, 4, 5);
    assert_int_equal(ax_check(&game, &bad_rack), AX_ERR_RACK);
    fixture_put(&game, 4, 4, AX_GREEN);
    ax_move occupied = fixture_domino(&game, 0, 4, 4, 4, 5);
    assert_int_equal(ax_check(&game, &occupied), AX_ERR_CELL);
}

/* 000: "1 pont a kék szimbólumért" - one matching neighbour, one point. */
static void test_example_one_point(void **state)
{
    (void)state;
    fresh(2, AX_STANDARD);
    fixture_put(&game, 4, 4, AX_BLUE);
    const int rack[1][2] = {{AX_BLUE, AX_GREEN}};
    fixture_rack(&game, 0, 1, rack);
    place_ok(fixture_domino(&game, 0, 4, 5, 4, 6));
    const ax_event *p = find_event(AX_EV_PLACE, 0);
    assert_non_null(p);
    uint8_t want[AX_MAX_COLORS] = {0, 0, 1, 0, 0, 0};
    assert_memory_equal(p->points, want, AX_MAX_COLORS);
}

static void test_example_three_blue_two_red(void **state)
{
    (void)state;
    fresh(2, AX_STANDARD);
    fixture_put(&game, 3, 4, AX_BLUE);
    fixture_put(&game, 2, 4, AX_BLUE);
    fixture_put(&game, 4, 3, AX_BLUE);
    fixture_put(&game, 4, 6, AX_RED);
    fixture_put(&game, 4, 7, AX_RED);
    const int rack[1][2] = {{AX_BLUE, AX_RED}};
    fixture_rack(&game, 0, 1, rack);
    place_ok(fixture_domino(&game, 0, 4, 4, 4, 5));
    uint8_t want[AX_MAX_COLORS] = {2, 0, 3, 0, 0, 0};
    assert_memory_equal(find_event(AX_EV_PLACE, 0)->points, want, AX_MAX_COLORS);
    assert_memory_equal(game.track[0], want, 5);
}

static void test_example_four_blue_two_red(void **state)
{
    (void)state;
    fresh(2, AX_STANDARD);
    fixture_put(&game, 3, 4, AX_BLUE);
    fixture_put(&game, 2, 4, AX_BLUE);
    fixture_put(&game, 4, 3, AX_BLUE);
    fixture_put(&game, 4, 2, AX_BLUE);
    fixture_put(&game, 4, 6, AX_RED);
    fixture_put(&game, 4, 7, AX_RED);
    fixture_put(&game, 4, 8, AX_GREEN); /* a different symbol stops the line */
    fixture_put(&game, 4, 9, AX_RED);
    const int rack[1][2] = {{AX_RED, AX_BLUE}};
    fixture_rack(&game, 0, 1, rack);
    place_ok(fixture_domino(&game, 0, 4, 5, 4, 4)); /* rack[0][0] red on [4,5] */
    uint8_t want[AX_MAX_COLORS] = {2, 0, 4, 0, 0, 0};
    assert_memory_equal(find_event(AX_EV_PLACE, 0)->points, want, AX_MAX_COLORS);
}

static void test_example_pyramid(void **state)
{
    (void)state;
    fresh(2, AX_STANDARD);
    fixture_put(&game, 9, 8, AX_GREEN);
    fixture_put(&game, 10, 9, AX_RED);
    fixture_put(&game, 10, 5, AX_BLUE);
    fixture_put(&game, 8, 7, AX_BLUE);
    const int rack[1][2] = {{AX_BLUE, AX_BLUE}};
    fixture_rack(&game, 0, 1, rack);
    place_ok(fixture_domino(&game, 0, 10, 7, 9, 7));
    uint8_t tile_points[AX_MAX_COLORS] = {0, 0, 3, 0, 0, 0};
    assert_memory_equal(find_event(AX_EV_PLACE, 0)->points, tile_points, AX_MAX_COLORS);
    const ax_event *pyr = find_event(AX_EV_PYRAMID, 0);
    assert_non_null(pyr);
    assert_int_equal(pyr->cells[0], ax_cell_index(&game, 10, 8));
    assert_int_equal(pyr->moved_from, -1);
    uint8_t pyr_points[AX_MAX_COLORS] = {1, 1, 1, 0, 0, 0};
    assert_memory_equal(pyr->points, pyr_points, AX_MAX_COLORS);
    assert_null(find_event(AX_EV_PYRAMID, 1));
    assert_int_equal(game.track[0][AX_BLUE], 4);
    assert_int_equal(game.cell[ax_cell_index(&game, 10, 8)], AX_PYRAMID);
}

static void test_walk_stops_at_pyramid_and_edge(void **state)
{
    (void)state;
    fresh(2, AX_STANDARD);
    fixture_put(&game, 5, 3, AX_PYRAMID);
    fixture_put(&game, 5, 2, AX_GREEN);
    const int rack[1][2] = {{AX_GREEN, AX_RED}};
    fixture_rack(&game, 0, 1, rack);
    place_ok(fixture_domino(&game, 0, 5, 4, 5, 5)); /* pyramid between: no point */
    assert_int_equal(find_event(AX_EV_PLACE, 0)->points[AX_GREEN], 0);
}

static void test_pyramids_row_major_and_moved(void **state)
{
    (void)state;
    fresh(2, AX_STANDARD);
    /* a tile on [3,4],[2,4] makes [3,3] and [3,5] single at once */
    const int walls[6][2] = {{3, 2}, {4, 3}, {2, 3}, {2, 5}, {4, 5}, {3, 6}};
    for (int k = 0; k < 6; k++)
        fixture_put(&game, walls[k][0], walls[k][1], AX_RED);
    /* 19 pyramids already stand, the oldest on [8,2] */
    for (int k = 0; k < 19; k++) {
        int row = k < 9 ? 8 : k < 18 ? 9 : 7, col = k < 18 ? 2 + k % 9 : 2;
        int cell = ax_cell_index(&game, row, col);
        ax_grid_put(&game, cell, AX_PYRAMID);
        game.pyramid_cell[k] = (int16_t)cell;
    }
    game.pyramids_n = 19;
    const int rack[1][2] = {{AX_GREEN, AX_GREEN}};
    fixture_rack(&game, 0, 1, rack);
    place_ok(fixture_domino(&game, 0, 3, 4, 2, 4));
    const ax_event *first = find_event(AX_EV_PYRAMID, 0), *second = find_event(AX_EV_PYRAMID, 1);
    assert_non_null(first);
    assert_non_null(second);
    assert_int_equal(first->cells[0], ax_cell_index(&game, 3, 3)); /* row-major */
    assert_int_equal(first->moved_from, -1);                       /* the 20th */
    assert_int_equal(second->cells[0], ax_cell_index(&game, 3, 5));
    assert_int_equal(second->moved_from, ax_cell_index(&game, 8, 2)); /* the oldest */
    uint8_t points[AX_MAX_COLORS] = {3, 1, 0, 0, 0, 0};               /* 3 walls, the tile */
    assert_memory_equal(first->points, points, AX_MAX_COLORS);
    assert_int_equal(game.cell[ax_cell_index(&game, 8, 2)], AX_DEAD);
    assert_int_equal(game.pyramids_n, 20);
    /* the next pyramid moves the next oldest, [8,3] */
    const int walls2[3][2] = {{5, 8}, {6, 7}, {6, 9}};
    for (int k = 0; k < 3; k++)
        fixture_put(&game, walls2[k][0], walls2[k][1], AX_BLUE);
    const int rack2[1][2] = {{AX_RED, AX_RED}};
    fixture_rack(&game, 1, 1, rack2);
    game.bag_n = 0;
    place_ok(fixture_domino(&game, 0, 7, 8, 7, 9));
    const ax_event *third = find_event(AX_EV_PYRAMID, 0);
    assert_non_null(third);
    assert_int_equal(third->cells[0], ax_cell_index(&game, 6, 8));
    assert_int_equal(third->moved_from, ax_cell_index(&game, 8, 3));
}

static void test_dead_cell_takes_no_tile(void **state)
{
    (void)state;
    fresh(2, AX_STANDARD);
    ax_grid_put(&game, ax_cell_index(&game, 5, 5), AX_DEAD);
    const int rack[1][2] = {{AX_RED, AX_BLUE}};
    fixture_rack(&game, 0, 1, rack);
    ax_move m = fixture_domino(&game, 0, 5, 5, 5, 6);
    assert_int_equal(ax_check(&game, &m), AX_ERR_CELL);
}

static void test_threshold_axio_and_bonus(void **state)
{
    (void)state;
    fresh(2, AX_STANDARD);
    game.track[0][AX_BLUE] = 16;
    fixture_put(&game, 3, 4, AX_BLUE);
    fixture_put(&game, 2, 4, AX_BLUE);
    fixture_put(&game, 4, 3, AX_BLUE);
    const int rack[3][2] = {{AX_BLUE, AX_GREEN}, {AX_RED, AX_RED}, {AX_GREEN, AX_GREEN}};
    fixture_rack(&game, 0, 3, rack);
    place_ok(fixture_domino(&game, 0, 4, 4, 4, 5));
    const ax_event *p = find_event(AX_EV_PLACE, 0);
    assert_int_equal(p->points[AX_BLUE], 3);
    assert_int_equal(p->score[AX_BLUE], 18); /* 16 + 3 capped: one point lost */
    const ax_event *axio = find_event(AX_EV_AXIO, 0);
    assert_non_null(axio);
    assert_int_equal(axio->color, AX_BLUE);
    assert_int_equal(axio->axio_score, 18);
    assert_true(axio->bonus_move);
    /* the bonus move: the same seat places again, from the rack */
    assert_int_equal(game.to_move, 0);
    assert_int_equal(game.phase, AX_PHASE_PLACE);
    assert_true(game.in_bonus);
    place_ok(fixture_domino(&game, 0, 8, 8, 8, 9));
    assert_true(find_event(AX_EV_PLACE, 0)->bonus);
    assert_int_equal(game.to_move, 1);
    /* at 18 nothing more is added */
    assert_int_equal(game.track[0][AX_BLUE], 18);
}

static void test_two_colours_two_bonus_moves(void **state)
{
    (void)state;
    fresh(2, AX_STANDARD);
    game.track[0][AX_BLUE] = 17;
    game.track[0][AX_RED] = 17;
    fixture_put(&game, 4, 3, AX_BLUE);
    fixture_put(&game, 4, 6, AX_RED);
    const int rack[3][2] = {{AX_BLUE, AX_RED}, {AX_GREEN, AX_GREEN}, {AX_GREEN, AX_PURPLE}};
    fixture_rack(&game, 0, 3, rack);
    place_ok(fixture_domino(&game, 0, 4, 4, 4, 5));
    assert_non_null(find_event(AX_EV_AXIO, 1));
    assert_int_equal(game.bonus_pending, 1); /* one in progress, one owed */
    place_ok(fixture_domino(&game, 0, 8, 2, 8, 3));
    assert_int_equal(game.to_move, 0);
    place_ok(fixture_domino(&game, 0, 8, 5, 8, 6));
    assert_int_equal(game.to_move, 1);
}

static void test_bonus_chain(void **state)
{
    (void)state;
    fresh(2, AX_STANDARD);
    game.track[0][AX_BLUE] = 17;
    game.track[0][AX_RED] = 17;
    fixture_put(&game, 4, 3, AX_BLUE);
    fixture_put(&game, 8, 3, AX_RED);
    const int rack[3][2] = {{AX_BLUE, AX_GREEN}, {AX_RED, AX_GREEN}, {AX_GREEN, AX_PURPLE}};
    fixture_rack(&game, 0, 3, rack);
    place_ok(fixture_domino(&game, 0, 4, 4, 4, 5)); /* blue 18: bonus */
    assert_true(game.in_bonus);
    place_ok(fixture_domino(&game, 0, 8, 4, 8, 5)); /* red 18 during the bonus: another */
    assert_true(game.in_bonus);
    assert_int_equal(game.to_move, 0);
}

static void test_swap_offer_with_tied_lowest(void **state)
{
    (void)state;
    fresh(2, AX_STANDARD);
    const uint8_t tracks[5] = {3, 5, 3, 7, 8}; /* red and blue tie for lowest */
    memcpy(game.track[0], tracks, 5);
    const int rack[2][2] = {{AX_GREEN, AX_ORANGE}, {AX_PURPLE, AX_GREEN}};
    fixture_rack(&game, 0, 2, rack);
    place_ok(fixture_domino(&game, 0, 8, 8, 8, 9));
    assert_int_equal(game.phase, AX_PHASE_SWAP); /* rack: purple-green, neither lowest */
    assert_int_equal(game.to_move, 0);
    ax_game before = game;
    ax_move place = fixture_domino(&game, 0, 4, 4, 4, 5);
    assert_int_equal(ax_apply(&game, &place, &events), AX_ERR_PHASE);
    assert_memory_equal(&before, &game, sizeof game);
    ax_move swap = {.kind = AX_MOVE_SWAP, .accept = 1, .wild = AX_NO_COLOR};
    int bag_before = game.bag_n;
    place_ok(swap);
    const ax_event *e = find_event(AX_EV_SWAP, 0);
    assert_true(e->accepted);
    assert_int_equal(e->nreturned, 1);
    assert_int_equal(e->ntiles, 5);
    assert_int_equal(game.rack_n[0], 5);
    assert_int_equal(game.bag_n, bag_before - 5 + 1);
    assert_null(find_event(AX_EV_DRAW, 0)); /* no refill after a swap */
    assert_int_equal(game.to_move, 1);
}

static void test_no_swap_when_rack_has_lowest(void **state)
{
    (void)state;
    fresh(2, AX_STANDARD);
    const uint8_t tracks[5] = {3, 5, 3, 7, 8};
    memcpy(game.track[0], tracks, 5);
    const int rack[2][2] = {{AX_GREEN, AX_ORANGE}, {AX_BLUE, AX_GREEN}}; /* blue is lowest */
    fixture_rack(&game, 0, 2, rack);
    place_ok(fixture_domino(&game, 0, 8, 8, 8, 9));
    assert_int_equal(game.to_move, 1);
    assert_null(find_event(AX_EV_SWAP, 0));
    const ax_event *draw = find_event(AX_EV_DRAW, 0);
    assert_int_equal(draw->ntiles, 4); /* refill to 5 */
}

static void test_swap_declined_refills(void **state)
{
    (void)state;
    fresh(2, AX_STANDARD);
    const int rack[2][2] = {{AX_GREEN, AX_ORANGE}, {AX_PURPLE, AX_GREEN}};
    fixture_rack(&game, 0, 2, rack);
    game.track[0][AX_GREEN] = game.track[0][AX_ORANGE] = game.track[0][AX_PURPLE] = 2;
    place_ok(fixture_domino(&game, 0, 8, 8, 8, 9));
    assert_int_equal(game.phase, AX_PHASE_SWAP);
    ax_move decline = {.kind = AX_MOVE_SWAP, .accept = 0, .wild = AX_NO_COLOR};
    place_ok(decline);
    assert_false(find_event(AX_EV_SWAP, 0)->accepted);
    assert_int_equal(find_event(AX_EV_DRAW, 0)->ntiles, 4);
    assert_int_equal(game.rack_n[0], 5);
}

static void test_refill_from_shrinking_bag(void **state)
{
    (void)state;
    fresh(2, AX_STANDARD);
    const int rack[3][2] = {{AX_RED, AX_RED}, {AX_RED, AX_GREEN}, {AX_RED, AX_BLUE}};
    fixture_rack(&game, 0, 3, rack); /* red is lowest (all 0): no swap */
    game.bag_n = 1;
    place_ok(fixture_domino(&game, 0, 8, 8, 8, 9));
    assert_int_equal(game.rack_n[0], 3);
    assert_int_equal(game.bag_n, 0);
}

static void test_blocked_end(void **state)
{
    (void)state;
    fresh(2, AX_STANDARD);
    /* fill the board so that one pair is left */
    for (int r = 2; r <= 10; r++)
        for (int c = 2; c <= 10; c++) {
            int cell = ax_cell_index(&game, r, c);
            if (game.cell[cell] == AX_EMPTY && !(r == 9 && (c == 9 || c == 10)))
                ax_grid_put(&game, cell, (r * 3 + c * 2) % 5 == 0 ? AX_PYRAMID : AX_PYRAMID);
        }
    const int rack[2][2] = {{AX_RED, AX_GREEN}, {AX_RED, AX_BLUE}};
    fixture_rack(&game, 0, 2, rack);
    fixture_rack(&game, 1, 2, rack);
    place_ok(fixture_domino(&game, 0, 9, 9, 9, 10));
    assert_int_equal(game.phase, AX_PHASE_OVER);
    assert_int_equal(game.end_reason, AX_END_BLOCKED);
    assert_non_null(find_event(AX_EV_END, 0));
}

static void test_empty_rack_blocks(void **state)
{
    (void)state;
    fresh(2, AX_STANDARD);
    const int rack[1][2] = {{AX_RED, AX_GREEN}};
    fixture_rack(&game, 0, 1, rack);
    game.rack_n[1] = 0;
    game.bag_n = 0;
    place_ok(fixture_domino(&game, 0, 8, 8, 8, 9));
    assert_int_equal(game.phase, AX_PHASE_OVER);
    assert_int_equal(game.end_reason, AX_END_BLOCKED);
}

static void test_immediate_win(void **state)
{
    (void)state;
    fresh(2, AX_STANDARD);
    const uint8_t tracks[5] = {18, 18, 17, 18, 18};
    memcpy(game.track[0], tracks, 5);
    fixture_put(&game, 9, 8, AX_GREEN);
    fixture_put(&game, 10, 9, AX_RED);
    fixture_put(&game, 10, 5, AX_BLUE);
    const int rack[2][2] = {{AX_BLUE, AX_BLUE}, {AX_RED, AX_RED}};
    fixture_rack(&game, 0, 2, rack);
    place_ok(fixture_domino(&game, 0, 10, 7, 9, 7)); /* would also make a pyramid */
    assert_int_equal(game.phase, AX_PHASE_OVER);
    assert_int_equal(game.end_reason, AX_END_ALL_MAX);
    assert_null(find_event(AX_EV_PYRAMID, 0));
    assert_non_null(find_event(AX_EV_AXIO, 0));
    assert_int_equal(events.ev[events.n - 1].kind, AX_EV_END);
    ax_ranking rank;
    ax_rank(&game, &rank);
    assert_int_equal(rank.order[0], 0);
}

static void test_solo_thresholds(void **state)
{
    (void)state;
    fixture_game(&game, AX_SQUARE, 1, AX_SOLO);
    fixture_after_first_round(&game);
    assert_int_equal(game.rack_n[0], 1);
    game.track[0][AX_BLUE] = 16;
    fixture_put(&game, 3, 4, AX_BLUE);
    fixture_put(&game, 2, 4, AX_BLUE);
    fixture_put(&game, 4, 3, AX_BLUE);
    const int rack[1][2] = {{AX_BLUE, AX_GREEN}};
    fixture_rack(&game, 0, 1, rack);
    place_ok(fixture_domino(&game, 0, 4, 4, 4, 5));
    const ax_event *axio = find_event(AX_EV_AXIO, 0);
    assert_int_equal(axio->axio_score, 18);
    assert_false(axio->bonus_move); /* solo: no bonus moves */
    assert_false(game.in_bonus);
    assert_int_equal(game.track[0][AX_BLUE], 18);
    assert_int_equal(game.rack_n[0], 1); /* the next tile is drawn */
    /* past 18 the track climbs to 36 */
    game.track[0][AX_RED] = 30;
    uint8_t points[AX_MAX_COLORS] = {9};
    ax_unit_result res;
    ax_score_unit(&game, 0, points, &res);
    assert_int_equal(game.track[0][AX_RED], 36);
    assert_int_equal(res.naxio, 1);
    assert_int_equal(ax_max_score(&game), 36);
}

static void test_solo_first_tile_touches_field(void **state)
{
    (void)state;
    fixture_game(&game, AX_SQUARE, 1, AX_SOLO);
    const int rack[1][2] = {{AX_BLUE, AX_GREEN}};
    fixture_rack(&game, 0, 1, rack);
    ax_move far = fixture_domino(&game, 0, 4, 4, 4, 5);
    assert_int_equal(ax_check(&game, &far), AX_ERR_FIRST_TILE);
    ax_move swap = {.kind = AX_MOVE_SWAP, .accept = 1, .wild = AX_NO_COLOR};
    assert_int_equal(ax_check(&game, &swap), AX_ERR_PHASE);
}

static void test_ranking_examples(void **state)
{
    (void)state;
    fixture_game(&game, AX_SQUARE, 2, AX_STANDARD);
    const uint8_t a[5] = {11, 12, 13, 14, 15}, b[5] = {8, 18, 18, 18, 18};
    memcpy(game.track[0], a, 5);
    memcpy(game.track[1], b, 5);
    ax_ranking rank;
    ax_rank(&game, &rank);
    assert_int_equal(rank.order[0], 0); /* A's lowest 11 beats B's lowest 8 */
    fixture_game(&game, AX_SQUARE, 3, AX_STANDARD);
    const uint8_t ta[5] = {9, 11, 13, 14, 15}, tb[5] = {12, 9, 12, 14, 15},
                  tc[5] = {15, 12, 9, 14, 15};
    memcpy(game.track[0], ta, 5);
    memcpy(game.track[1], tb, 5);
    memcpy(game.track[2], tc, 5);
    ax_rank(&game, &rank);
    assert_int_equal(rank.order[0], 2); /* C: third lowest 15 over B's 12 */
    assert_int_equal(rank.order[1], 1);
    assert_int_equal(rank.order[2], 0);
    assert_int_equal(rank.place[2], 2);
}

static void test_ranking_ties_share_a_place(void **state)
{
    (void)state;
    fixture_game(&game, AX_SQUARE, 3, AX_STANDARD);
    const uint8_t a[5] = {5, 6, 7, 8, 9}, b[5] = {9, 8, 7, 6, 5}, c[5] = {4, 18, 18, 18, 18};
    memcpy(game.track[0], a, 5);
    memcpy(game.track[1], b, 5);
    memcpy(game.track[2], c, 5);
    ax_ranking rank;
    ax_rank(&game, &rank);
    assert_int_equal(rank.order[0], 0);
    assert_int_equal(rank.order[1], 1);
    assert_int_equal(rank.place[0], 0);
    assert_int_equal(rank.place[1], 0); /* the colour of a track never matters */
    assert_int_equal(rank.place[2], 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tile_set),
        cmocka_unit_test(test_play_areas),
        cmocka_unit_test(test_fields),
        cmocka_unit_test(test_first_tile_must_touch_untouched_field),
        cmocka_unit_test(test_first_tile_fallback),
        cmocka_unit_test(test_adjacency_and_cells),
        cmocka_unit_test(test_example_one_point),
        cmocka_unit_test(test_example_three_blue_two_red),
        cmocka_unit_test(test_example_four_blue_two_red),
        cmocka_unit_test(test_example_pyramid),
        cmocka_unit_test(test_walk_stops_at_pyramid_and_edge),
        cmocka_unit_test(test_pyramids_row_major_and_moved),
        cmocka_unit_test(test_dead_cell_takes_no_tile),
        cmocka_unit_test(test_threshold_axio_and_bonus),
        cmocka_unit_test(test_two_colours_two_bonus_moves),
        cmocka_unit_test(test_bonus_chain),
        cmocka_unit_test(test_swap_offer_with_tied_lowest),
        cmocka_unit_test(test_no_swap_when_rack_has_lowest),
        cmocka_unit_test(test_swap_declined_refills),
        cmocka_unit_test(test_refill_from_shrinking_bag),
        cmocka_unit_test(test_blocked_end),
        cmocka_unit_test(test_empty_rack_blocks),
        cmocka_unit_test(test_immediate_win),
        cmocka_unit_test(test_solo_thresholds),
        cmocka_unit_test(test_solo_first_tile_touches_field),
        cmocka_unit_test(test_ranking_examples),
        cmocka_unit_test(test_ranking_ties_share_a_place),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
