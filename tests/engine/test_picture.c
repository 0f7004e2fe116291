/*
 * test_picture.c - a game drawn as text (picture.h): the length returned is
 * the whole picture's whatever the buffer, a short buffer holds its start
 * and a closing NUL, and the picture shows the board, one track line per
 * owner and, once over, the ranking.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "picture.h"

static const struct {
    int variant, players, mode;
    const char *track;
} configs[] = {
    {AX_SQUARE, 2, AX_STANDARD, "seat 1:"},
    {AX_SQUARE, 1, AX_SOLO, "seat 0:"},
    {AX_ROTA, 3, AX_STANDARD, "seat 2:"},
    {AX_HEX, 4, AX_TEAM, "team 1:"},
};

static void test_the_whole_picture_and_a_cut_one(void **state)
{
    (void)state;
    ax_game g;
    ax_rng rng;
    ax_rng_seed(&rng, 3);
    char small[40];
    for (size_t c = 0; c < sizeof configs / sizeof configs[0]; c++) {
        ax_game_init(&g, configs[c].variant, configs[c].players, configs[c].mode, 9, NULL);
        for (int step = 0;; step++) {
            size_t len = ax_picture(&g, NULL, 0);
            char *text = malloc(len + 1);
            assert_int_equal(ax_picture(&g, text, len + 1), len);
            assert_int_equal(strlen(text), len);
            assert_non_null(strstr(text, configs[c].track));
            assert_true((strstr(text, "ranking:") != NULL) == (g.phase == AX_PHASE_OVER));
            assert_int_equal(ax_picture(&g, small, sizeof small), len);
            assert_int_equal(strlen(small), sizeof small - 1);
            assert_memory_equal(small, text, sizeof small - 1);
            free(text);
            if (g.phase == AX_PHASE_OVER)
                break;
            ax_move m;
            ax_random_move(&g, &rng, &m);
            assert_int_equal(ax_apply(&g, &m, NULL), AX_OK);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_whole_picture_and_a_cut_one),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
