/*
 * test_levels.c - the computer levels' table: every level finds its player
 * in every variant (Expert's differs in ROTA),
 * levels are listed weakest first (a searching level never thinks less than
 * the one before it), unknown names are refused, and the list in error
 * messages names them all.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <string.h>

#include "../../src/ai/levels.h"
#include "../../src/ai/player.h"

static void test_every_level_has_a_player(void **state)
{
    (void)state;
    int n = 0, last_think = 0;
    for (const ai_level *l = ai_levels; l->name; l++, n++) {
        for (int v = AX_SQUARE; v < AX_VARIANTS; v++) {
            const char *name = ai_level_player(l, v);
            assert_non_null(name);
            ax_player *p = ax_player_new(name, 1);
            assert_non_null(p);
            ax_player_free(p);
            /* only a searching player has a think time */
            assert_int_equal(l->think_ms > 0, strncmp(name, "strong", 6) == 0);
        }
        assert_null(ai_level_player(l, -1));
        assert_null(ai_level_player(l, AX_VARIANTS));
        assert_ptr_equal(ai_level_find(l->name), l);
        assert_true(l->think_ms >= last_think);
        last_think = l->think_ms;
    }
    assert_int_equal(n, 4);
    const ai_level *expert = ai_level_find("expert");
    assert_string_equal(ai_level_player(expert, AX_SQUARE), "strong-deep");
    assert_string_equal(ai_level_player(expert, AX_HEX), "strong-deep");
    assert_string_equal(ai_level_player(expert, AX_ROTA), "strong-whole");
    const ai_level *strong = ai_level_find("strong");
    assert_string_equal(ai_level_player(strong, AX_SQUARE), "strong-deep-early");
    assert_string_equal(ai_level_player(strong, AX_HEX), "strong-deep-early");
    assert_string_equal(ai_level_player(strong, AX_ROTA), "strong");
    assert_int_equal(ai_level_find("expert")->think_ms, 1000);
    assert_int_equal(ai_level_find("strong")->think_ms, 300);
}

static void test_unknown_levels(void **state)
{
    (void)state;
    assert_null(ai_level_find(NULL));
    assert_null(ai_level_find(""));
    assert_null(ai_level_find("Strong"));
    assert_null(ai_level_find("strong "));
}

static void test_list(void **state)
{
    (void)state;
    char out[80];
    ai_level_list(out, sizeof out);
    assert_string_equal(out, "random, greedy, strong, expert");
    char tiny[10];
    ai_level_list(tiny, sizeof tiny);
    assert_string_equal(tiny, "random, g"); /* cut, still a string */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_level_has_a_player),
        cmocka_unit_test(test_unknown_levels),
        cmocka_unit_test(test_list),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
