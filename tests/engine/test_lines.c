/*
 * test_lines.c - ax_preview_lines, the scoring lines the guided game shows:
 * in random games of every variant, the lines of every legal placement add
 * up, colour by colour, to the points of the tile's own `place` event; a
 * line of `square` or `hex` runs over cells that hold its colour and ends
 * at one that does not; refused decisions have no lines; and a hand-made
 * position gives the lines it must.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <string.h>

#include "engine.h"
#include "fixtures.h"

static ax_move moves[AX_MAX_MOVES];

/* The points of the tile's own unit when m is played on a copy. */
static void place_points(const ax_game *g, const ax_move *m, uint8_t points[AX_MAX_COLORS])
{
    ax_game copy = *g;
    ax_events ev;
    assert_int_equal(ax_apply(&copy, m, &ev), AX_OK);
    for (int i = 0; i < ev.n; i++)
        if (ev.ev[i].kind == AX_EV_PLACE) {
            memcpy(points, ev.ev[i].points, AX_MAX_COLORS);
            return;
        }
    fail_msg("no place event");
}

static void check_lines(const ax_game *g, const ax_move *m)
{
    ax_line lines[AX_MAX_LINES];
    int n = ax_preview_lines(g, m, lines);
    uint8_t want[AX_MAX_COLORS], got[AX_MAX_COLORS] = {0};
    place_points(g, m, want);
    for (int i = 0; i < n; i++) {
        const ax_line *l = &lines[i];
        assert_true(l->points > 0);
        assert_true(l->color >= 0 && l->color < g->ncolors);
        got[l->color] = (uint8_t)(got[l->color] + l->points);
        if (g->variant == AX_ROTA) {
            assert_true(l->corner >= 0 && l->corner < 4);
            continue;
        }
        assert_true(l->cell == m->cells[0] || l->cell == m->cells[1]);
        int step = g->dir_offset[l->dir], c = l->cell;
        for (int k = 0; k < l->points; k++) {
            c += step;
            assert_int_equal(g->cell[c], l->color);
        }
        assert_int_not_equal(g->cell[c + step], l->color);
    }
    assert_memory_equal(got, want, AX_MAX_COLORS);
}

static void test_random_games(void **state)
{
    (void)state;
    const int variants[] = {AX_SQUARE, AX_ROTA, AX_HEX};
    for (int v = 0; v < 3; v++)
        for (uint64_t seed = 1; seed <= 4; seed++) {
            ax_game g;
            ax_rng rng;
            ax_rng_seed(&rng, seed * 7);
            ax_game_init(&g, variants[v], 2, AX_STANDARD, seed, NULL);
            while (g.phase != AX_PHASE_OVER) {
                if (g.phase == AX_PHASE_PLACE) {
                    int n = ax_legal_moves(&g, moves, AX_MAX_MOVES);
                    for (int i = 0; i < n; i += 1 + n / 40)
                        check_lines(&g, &moves[i]);
                }
                ax_move m;
                ax_random_move(&g, &rng, &m);
                assert_int_equal(ax_apply(&g, &m, NULL), AX_OK);
            }
        }
}

/* Blue at [6,7] [6,8] and red at [5,6]: a blue-red tile on [6,9] (blue) and
 * [5,9] (red) scores the blue line to the left (2) and nothing in red. */
static void test_square_position(void **state)
{
    (void)state;
    ax_game g;
    fixture_game(&g, AX_SQUARE, 2, AX_STANDARD);
    fixture_after_first_round(&g);
    fixture_put(&g, 6, 7, AX_BLUE);
    fixture_put(&g, 6, 8, AX_BLUE);
    fixture_put(&g, 5, 6, AX_RED);
    const int rack[][2] = {{AX_BLUE, AX_RED}};
    fixture_rack(&g, 0, 1, rack);
    ax_move m = fixture_domino(&g, 0, 6, 9, 5, 9);
    ax_line lines[AX_MAX_LINES];
    assert_int_equal(ax_preview_lines(&g, &m, lines), 1);
    assert_int_equal(lines[0].color, AX_BLUE);
    assert_int_equal(lines[0].points, 2);
    assert_int_equal(lines[0].cell, ax_cell_index(&g, 6, 9));
    assert_int_equal(g.dir_offset[lines[0].dir], ax_cell_index(&g, 6, 8) - ax_cell_index(&g, 6, 9));
    check_lines(&g, &m);
    /* On a field or a taken cell: refused, no lines. */
    ax_move bad = fixture_domino(&g, 0, 6, 8, 5, 8);
    assert_int_equal(ax_preview_lines(&g, &bad, lines), 0);
    ax_move swap = {.kind = AX_MOVE_SWAP};
    assert_int_equal(ax_preview_lines(&g, &swap, lines), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_games),
        cmocka_unit_test(test_square_position),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
