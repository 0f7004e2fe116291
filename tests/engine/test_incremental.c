/*
 * test_incremental.c - what the engine keeps up to date as cells change
 * (the open pairs, their counts and the potentials of `square` and `hex`;
 * the entries, frontier and circles of the ROTA display) equals a full
 * recomputation after every decision of many random games.
 *
 * The recomputation knows nothing of how the engine keeps its state: for
 * the grids it reads only ax_game.cell (two empty neighbours make an open
 * pair; a potential is the runs of a colour that start next to a cell);
 * for ROTA it keeps a board of its own, filled from the `place` events of
 * ax_apply, and derives the frontier (the empty sides of placed tiles) and
 * every circle from it.
 *
 * Games: 10,000 random two-player games of each variant, and 300 of every
 * other player count and mode, in both builds: under the sanitizers (the
 * Debug build, which also asserts ax_game_consistent after every decision)
 * the whole test takes about a minute on the project's machine, half a
 * minute of `make test` on two cores.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "axio.h"

#define TWO_PLAYER_GAMES 10000
#define OTHER_GAMES      300

static bool is_symbol(uint8_t content) { return content < AX_MAX_COLORS; }

/* square, hex: the pairs, counts and potentials made again from the cells. */
static void check_grid(const ax_game *g)
{
    int half = ax_direction_count(g) / 2, total = 0;
    for (int d = 0; d < 3; d++)
        for (int w = 0; w < AX_GRID_WORDS; w++) {
            uint64_t want = 0;
            for (int b = 0; b < 64 && d < half; b++) {
                int i = w * 64 + b, j = i + ax_direction_offset(g, d);
                if (i < AX_GRID_CELLS && j >= 0 && j < AX_GRID_CELLS && g->cell[i] == AX_EMPTY &&
                    g->cell[j] == AX_EMPTY)
                    want |= 1ULL << b;
            }
            assert_true(g->pairs[d][w] == want);
            assert_int_equal(g->pair_count[d][w], __builtin_popcountll(want));
            total += __builtin_popcountll(want);
        }
    assert_int_equal(g->npairs, total);
    for (int i = 0; i < AX_GRID_CELLS; i++) {
        uint8_t pot[8] = {0};
        for (int d = 0; d < ax_direction_count(g) && g->cell[i] == AX_EMPTY; d++) {
            int step = ax_direction_offset(g, d), c = i + step;
            uint8_t sym = g->cell[c];
            for (; is_symbol(sym) && g->cell[c] == sym; c += step)
                pot[sym]++;
        }
        assert_memory_equal(pot, g->pot[i], sizeof pot);
    }
}

/* ROTA: the placed tiles as this test saw them placed, on a board of its
 * own (coordinates offset into a square large enough for any display). */
#define SIDE   256
#define CENTRE 128

typedef struct {
    bool placed[SIDE][SIDE];
    ax_tile tile[SIDE][SIDE];
    uint32_t seen[SIDE][SIDE]; /* == stamp: counted in this check */
    uint32_t stamp;
    int n, x[AX_ROTA_TILES], y[AX_ROTA_TILES];
} shadow;

static void shadow_clear(shadow *s)
{
    for (int k = 0; k < s->n; k++)
        s->placed[s->y[k] + CENTRE][s->x[k] + CENTRE] = false;
    s->n = 0;
}

static void shadow_put(shadow *s, int x, int y, ax_tile t)
{
    assert_true(x > -CENTRE + 2 && x < CENTRE - 2 && y > -CENTRE + 2 && y < CENTRE - 2);
    assert_false(s->placed[y + CENTRE][x + CENTRE]);
    s->placed[y + CENTRE][x + CENTRE] = true;
    s->tile[y + CENTRE][x + CENTRE] = t;
    s->x[s->n] = x;
    s->y[s->n++] = y;
}

static bool shadow_placed(const shadow *s, int x, int y)
{
    return s->placed[y + CENTRE][x + CENTRE];
}

static const int side_dx[4] = {1, 0, -1, 0}, side_dy[4] = {0, 1, 0, -1};

/* Whether (x, y) is empty and shares a side with a placed tile. */
static bool shadow_frontier(const shadow *s, int x, int y)
{
    if (shadow_placed(s, x, y))
        return false;
    for (int k = 0; k < 4; k++)
        if (shadow_placed(s, x + side_dx[k], y + side_dy[k]))
            return true;
    return false;
}

/* The colour of corner `corner` of the tile on (x, y), or -1. */
static int shadow_corner(const shadow *s, int x, int y, int corner)
{
    if (!shadow_placed(s, x, y))
        return -1;
    int c = s->tile[y + CENTRE][x + CENTRE].sym[corner];
    return c < 0 ? -1 : c;
}

static void check_rota(const ax_game *g, shadow *s)
{
    const ax_rota_board *b = &g->rota;
    /* every placed tile is an entry holding it */
    for (int k = 0; k < s->n; k++) {
        int id = ax_rota_find(b, s->x[k], s->y[k]);
        assert_true(id >= 0);
        assert_memory_equal(b->placed[id].sym, s->tile[s->y[k] + CENTRE][s->x[k] + CENTRE].sym, 4);
    }
    /* the frontier: the empty sides of placed tiles, each once */
    int expected = 0;
    s->stamp++;
    for (int k = 0; k < s->n; k++)
        for (int d = 0; d < 4; d++) {
            int x = s->x[k] + side_dx[d], y = s->y[k] + side_dy[d];
            if (shadow_placed(s, x, y) || s->seen[y + CENTRE][x + CENTRE] == s->stamp)
                continue;
            s->seen[y + CENTRE][x + CENTRE] = s->stamp;
            expected++;
        }
    assert_int_equal(b->nfrontier, expected);
    assert_int_equal(b->ncells, s->n + expected);
    int8_t circles[AX_ROTA_CELLS][4][3];
    ax_rota_frontier_circles(b, circles);
    static const int corner_dx[4] = {0, 1, 1, 0}, corner_dy[4] = {0, 0, 1, 1};
    for (int f = 0; f < b->nfrontier; f++) {
        int id = b->frontier[f], x = b->x[id], y = b->y[id];
        assert_true(shadow_frontier(s, x, y));
        assert_int_equal(ax_rota_find(b, x, y), id);
        assert_int_equal(b->frontier_pos[id], f);
        /* the cells around it: entries exactly where a tile or the frontier is */
        int around[8];
        ax_rota_around(b, id, around);
        for (int k = 0, n = 0; n < 9; n++) {
            if (n == 4)
                continue;
            int ax = x + n % 3 - 1, ay = y + n / 3 - 1;
            bool known = shadow_placed(s, ax, ay) || shadow_frontier(s, ax, ay);
            assert_int_equal(around[k], known ? ax_rota_find(b, ax, ay) : -1);
            assert_true(!known || around[k] >= 0);
            k++;
        }
        /* each corner's circle: the other corners at its vertex, row by row */
        for (int i = 0; i < 4; i++) {
            int vx = x + corner_dx[i], vy = y + corner_dy[i], k = 0;
            static const int mdx[4] = {-1, 0, -1, 0}, mdy[4] = {-1, -1, 0, 0};
            static const int mcorner[4] = {2, 3, 1, 0};
            for (int m = 0; m < 4; m++) {
                int cx = vx + mdx[m], cy = vy + mdy[m];
                if (cx == x && cy == y)
                    continue;
                int want = shadow_corner(s, cx, cy, mcorner[m]), have = circles[f][i][k++];
                assert_int_equal(have < 0 ? -1 : have, want);
            }
        }
    }
}

/* The shadow's tiles from the events of one decision. */
static void shadow_events(shadow *s, const ax_events *ev)
{
    for (int k = 0; k < ev->n; k++)
        if (ev->ev[k].kind == AX_EV_PLACE)
            shadow_put(s, ev->ev[k].x, ev->ev[k].y, ev->ev[k].tile);
}

/* The ROTA start display (rules 3.2): four tiles on [0,0] [1,0] [0,1]
 * [1,1], as the game was dealt. */
static void shadow_start(shadow *s, const ax_game *g)
{
    shadow_clear(s);
    static const int cells[4][2] = {{0, 0}, {1, 0}, {0, 1}, {1, 1}};
    for (int k = 0; k < 4; k++) {
        int id = ax_rota_find(&g->rota, cells[k][0], cells[k][1]);
        assert_true(id >= 0);
        shadow_put(s, cells[k][0], cells[k][1], g->rota.placed[id]);
    }
}

static long plies_checked;

static void play_games(int variant, int players, int mode, int games, uint64_t first_seed)
{
    ax_game *g = malloc(sizeof *g);
    shadow *s = calloc(1, sizeof *s);
    ax_events *ev = malloc(sizeof *ev);
    ax_rng rng;
    ax_rng_seed(&rng, first_seed ^ 0x1ec);
    for (int k = 0; k < games; k++) {
        assert_int_equal(ax_game_init(g, variant, players, mode, first_seed + (uint64_t)k, NULL),
                         AX_OK);
        if (variant == AX_ROTA) {
            shadow_start(s, g);
            check_rota(g, s);
        } else {
            check_grid(g);
        }
        while (g->phase != AX_PHASE_OVER) {
            ax_move m;
            ax_random_move(g, &rng, &m);
            assert_int_equal(ax_apply(g, &m, ev), AX_OK);
            if (variant == AX_ROTA) {
                shadow_events(s, ev);
                check_rota(g, s);
            } else {
                check_grid(g);
            }
            plies_checked++;
        }
    }
    free(ev);
    free(s);
    free(g);
}

static void test_square(void **state)
{
    (void)state;
    play_games(AX_SQUARE, 2, AX_STANDARD, TWO_PLAYER_GAMES, 1);
    play_games(AX_SQUARE, 1, AX_SOLO, OTHER_GAMES, 1000001);
    play_games(AX_SQUARE, 3, AX_STANDARD, OTHER_GAMES, 2000001);
    play_games(AX_SQUARE, 4, AX_STANDARD, OTHER_GAMES, 3000001);
}

static void test_hex(void **state)
{
    (void)state;
    play_games(AX_HEX, 2, AX_STANDARD, TWO_PLAYER_GAMES, 1);
    play_games(AX_HEX, 1, AX_SOLO, OTHER_GAMES, 1000001);
    play_games(AX_HEX, 3, AX_STANDARD, OTHER_GAMES, 2000001);
    play_games(AX_HEX, 4, AX_STANDARD, OTHER_GAMES, 3000001);
    play_games(AX_HEX, 4, AX_TEAM, OTHER_GAMES, 4000001);
}

static void test_rota(void **state)
{
    (void)state;
    play_games(AX_ROTA, 2, AX_STANDARD, TWO_PLAYER_GAMES, 1);
    play_games(AX_ROTA, 1, AX_SOLO, OTHER_GAMES, 1000001);
    play_games(AX_ROTA, 3, AX_STANDARD, OTHER_GAMES, 2000001);
    play_games(AX_ROTA, 4, AX_STANDARD, OTHER_GAMES, 3000001);
}

/* A position built by hand keeps the state too: cells emptied again, a
 * symbol changed, fields marked touched directly. */
static void test_by_hand(void **state)
{
    (void)state;
    ax_game *g = malloc(sizeof *g);
    for (int v = 0; v < 3; v += 2) {
        ax_game_init(g, v, 2, AX_STANDARD, 5, NULL);
        ax_rng rng;
        ax_rng_seed(&rng, 9);
        for (int k = 0; k < 12 && g->phase != AX_PHASE_OVER; k++) {
            ax_move m;
            ax_random_move(g, &rng, &m);
            ax_apply(g, &m, NULL);
        }
        int changed = 0;
        for (int i = 0; i < AX_GRID_CELLS && changed < 3; i++)
            if (is_symbol(g->cell[i])) { /* a placed half emptied, one recoloured */
                ax_grid_put(g, i, changed == 1 ? (g->cell[i] + 1) % g->ncolors : AX_EMPTY);
                changed++;
                check_grid(g);
            }
        g->fields_touched = 0; /* every field untouched again: the first-tile rule */
        assert_true(ax_game_consistent(g));
        check_grid(g);
    }
    free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_square), cmocka_unit_test(test_hex),
                                       cmocka_unit_test(test_rota), cmocka_unit_test(test_by_hand)};
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    printf("checked after %ld decisions\n", plies_checked);
    return failed;
}
