/*
 * test_honest.c - the players play honestly under hidden information (rules
 * 1.3): given two games that differ only in what the seat to move may not
 * see (the other racks, the bag's order, every ROTA stack), a player with
 * the same seed takes the same decision. The full games are handed to the
 * player on purpose: it must take its seat's view itself.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <string.h>

#include "player.h"

static const struct {
    int variant, players, mode;
} configs[] = {
    {AX_SQUARE, 2, AX_STANDARD}, {AX_HEX, 2, AX_STANDARD}, {AX_ROTA, 2, AX_STANDARD},
    {AX_SQUARE, 3, AX_STANDARD}, {AX_HEX, 4, AX_TEAM},     {AX_ROTA, 1, AX_SOLO},
};
#define NCONFIGS (int)(sizeof configs / sizeof configs[0])

/* Pointers to every tile `seat` may not see in g. */
static int hidden_tiles(ax_game *g, int seat, ax_tile *out[AX_MAX_TILES])
{
    int n = 0;
    for (int i = 0; i < g->bag_n; i++)
        out[n++] = &g->bag[i];
    for (int s = 0; s < g->players; s++) {
        for (int i = 0; i < g->stack_n[s]; i++)
            out[n++] = &g->stack[s][i];
        for (int i = 0; s != seat && i < g->rack_n[s]; i++)
            out[n++] = &g->rack[s][i];
    }
    return n;
}

/* A copy of g with the hidden tiles dealt anew (rotated by one place). */
static bool redeal_hidden(const ax_game *g, ax_game *out)
{
    *out = *g;
    ax_tile *slot[AX_MAX_TILES];
    int n = hidden_tiles(out, g->to_move, slot);
    if (n < 2)
        return false;
    ax_tile first = *slot[0];
    for (int i = 0; i + 1 < n; i++)
        *slot[i] = *slot[i + 1];
    *slot[n - 1] = first;
    return true;
}

static void assert_same_decision(const char *name, const ax_game *a, const ax_game *b)
{
    ax_player *pa = ax_player_new(name, 99), *pb = ax_player_new(name, 99);
    ax_player_set_movetime(pa, 0);
    ax_player_set_movetime(pb, 0);
    ax_player_set_playouts(pa, 40);
    ax_player_set_playouts(pb, 40);
    ax_move ma, mb;
    ax_player_decide(pa, a, a->to_move, &ma);
    ax_player_decide(pb, b, b->to_move, &mb);
    assert_int_equal(ax_check(a, &ma), AX_OK);
    assert_memory_equal(&ma, &mb, sizeof ma);
    ax_player_free(pa);
    ax_player_free(pb);
}

static bool games_differ(const ax_game *a, const ax_game *b)
{
    return memcmp(a->bag, b->bag, sizeof a->bag) || memcmp(a->rack, b->rack, sizeof a->rack) ||
           memcmp(a->stack, b->stack, sizeof a->stack);
}

static void test_hidden_tiles_do_not_change_decisions(void **state)
{
    (void)state;
    static const int plies[] = {0, 3, 10};
    for (int k = 0; k < NCONFIGS; k++)
        for (int p = 0; p < 3; p++) {
            ax_game g, other;
            ax_game_init(&g, configs[k].variant, configs[k].players, configs[k].mode, 5, NULL);
            ax_player *mover = ax_player_new("greedy", 1);
            for (int i = 0; i < plies[p] && g.phase != AX_PHASE_OVER; i++) {
                ax_move m;
                ax_game view;
                ax_view(&g, g.to_move, &view);
                ax_player_decide(mover, &view, g.to_move, &m);
                assert_int_equal(ax_apply(&g, &m, NULL), AX_OK);
            }
            ax_player_free(mover);
            assert_true(g.phase != AX_PHASE_OVER);
            assert_true(redeal_hidden(&g, &other));
            assert_true(games_differ(&g, &other));
            assert_same_decision("strong", &g, &other);
            assert_same_decision("strong-hand", &g, &other);
            assert_same_decision("strong-order", &g, &other);
            assert_same_decision("strong-deep", &g, &other);
            assert_same_decision("strong-deep-early", &g, &other);
            assert_same_decision("strong-whole", &g, &other);
            assert_same_decision("greedy", &g, &other);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hidden_tiles_do_not_change_decisions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
