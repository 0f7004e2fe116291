/*
 * test_legal_sets.c - the compact legal sets (ax_legal_pairs,
 * ax_rota_wild_choices, ax_rota_wild_table) hold exactly the decisions ax_legal_moves lists, at
 * every decision of random games in every variant and player count.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "axio.h"

static ax_move moves[AX_MAX_MOVES];

static bool bit(const uint64_t *set, int i) { return (set[i / 64] >> (i % 64)) & 1; }

/* square, hex: the cell pairs of the listing, both ways round, are the bits. */
static void check_pairs(const ax_game *g)
{
    uint64_t pairs[6][AX_GRID_WORDS];
    int npairs = ax_legal_pairs(g, pairs);
    int n = ax_legal_moves(g, moves, AX_MAX_MOVES), ndirs = ax_direction_count(g);
    uint64_t listed[6][AX_GRID_WORDS] = {{0}};
    for (int k = 0; k < n; k++) {
        int a = moves[k].cells[0], b = moves[k].cells[1], d = 0;
        while (d < ndirs && a + ax_direction_offset(g, d) != b)
            d++;
        assert_true(d < ndirs);
        assert_true(bit(pairs[d], a));
        listed[d][a / 64] |= 1ULL << (a % 64);
        int back = (d + ndirs / 2) % ndirs; /* the same pair from b */
        assert_true(bit(pairs[back], b));
        listed[back][b / 64] |= 1ULL << (b % 64);
    }
    int bits = 0;
    for (int d = 0; d < ndirs; d++)
        for (int w = 0; w < AX_GRID_WORDS; w++) {
            assert_int_equal(pairs[d][w], listed[d][w]); /* nothing beyond the listing */
            bits += __builtin_popcountll(pairs[d][w]);
        }
    assert_int_equal(bits, 2 * npairs);
}

/* rota: frontier x rotations x (wild choices, or none) is the listing. */
static void check_wilds(const ax_game *g)
{
    int n = ax_legal_moves(g, moves, AX_MAX_MOVES), expected = 0;
    uint8_t table[AX_ROTA_CELLS][4];
    ax_rota_wild_table(g, table);
    for (int f = 0; f < g->rota.nfrontier; f++) {
        int id = g->rota.frontier[f], x = g->rota.x[id], y = g->rota.y[id];
        for (int r = 0; r < 4; r++) {
            int8_t colors[3];
            int nw = ax_rota_wild_choices(g, x, y, r, colors);
            uint8_t bits = 0;
            for (int w = 0; w < nw; w++)
                bits |= (uint8_t)(1u << colors[w]);
            assert_int_equal(table[f][r], bits);
            for (int w = 0; w < (nw ? nw : 1); w++) {
                int wild = nw ? colors[w] : AX_NO_COLOR, found = 0;
                for (int k = 0; k < n; k++)
                    found += moves[k].x == x && moves[k].y == y && moves[k].rotation == r &&
                             moves[k].wild == wild;
                assert_int_equal(found, 1);
                expected++;
            }
        }
    }
    assert_int_equal(n, expected);
}

static void play_games(int variant, int players, int mode, int games)
{
    ax_game *g = malloc(sizeof *g);
    ax_rng rng;
    ax_rng_seed(&rng, 7);
    for (int k = 0; k < games; k++) {
        assert_int_equal(ax_game_init(g, variant, players, mode, (uint64_t)k + 1, NULL), AX_OK);
        while (g->phase != AX_PHASE_OVER) {
            if (g->phase == AX_PHASE_PLACE)
                (variant == AX_ROTA ? check_wilds : check_pairs)(g);
            ax_move m;
            ax_random_move(g, &rng, &m);
            assert_int_equal(ax_apply(g, &m, NULL), AX_OK);
        }
    }
    free(g);
}

static void test_square(void **state)
{
    (void)state;
    for (int p = 1; p <= 4; p++)
        play_games(AX_SQUARE, p, p == 1 ? AX_SOLO : AX_STANDARD, 40);
}

static void test_hex(void **state)
{
    (void)state;
    for (int p = 1; p <= 4; p++)
        play_games(AX_HEX, p, p == 1 ? AX_SOLO : AX_STANDARD, 30);
    play_games(AX_HEX, 4, AX_TEAM, 30);
}

static void test_rota(void **state)
{
    (void)state;
    for (int p = 1; p <= 4; p++)
        play_games(AX_ROTA, p, p == 1 ? AX_SOLO : AX_STANDARD, 60);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_square), cmocka_unit_test(test_hex),
                                       cmocka_unit_test(test_rota)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
