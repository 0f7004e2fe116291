/*
 * test_bot_rules.c - what `axio bot` decides without a site: which
 * challenges it accepts and why it declines the others (bot_filter.c), the
 * options that say so, and how long its engine may think (bot_time.c) on the
 * positions of real games.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/cli/bot_filter.h"
#include "../../src/cli/bot_time.h"
#include "engine.h"
#include "position.h"

static json_t *parse(const char *text)
{
    json_error_t err;
    json_t *v = json_loads(text, 0, &err);
    if (!v)
        fail_msg("bad test JSON: %s: %s", err.text, text);
    return v;
}

/* filter_judge on a challenge written as JSON. */
static const char *judge(const bot_filter *f, const char *challenge, int games)
{
    json_t *c = parse(challenge);
    const char *reason = filter_judge(f, c, games);
    json_decref(c);
    return reason;
}

#define HEX_CASUAL "{\"variant\":\"hex\",\"players\":2,\"rated\":false,\"clock\":null}"
#define CLOCK(b, i)                                                                                \
    "{\"variant\":\"hex\",\"players\":2,\"rated\":false,\"clock\":{\"kind\":\"realtime\","         \
    "\"base_s\":" #b ",\"increment_s\":" #i "}}"

static void test_default_accepts_everything(void **state)
{
    (void)state;
    bot_filter f;
    filter_default(&f);
    assert_null(judge(&f, HEX_CASUAL, 0));
    assert_null(judge(&f,
                      "{\"variant\":\"rota\",\"players\":4,\"rated\":true,\"clock\":"
                      "{\"kind\":\"daily\",\"per_move_s\":86400}}",
                      0));
    assert_null(judge(&f, CLOCK(1, 0), 0));
    assert_null(judge(&f, "{\"variant\":\"square\"}", 0));  /* players: 2 when not said */
    assert_string_equal(judge(&f, HEX_CASUAL, 1), "later"); /* one game at a time */
    assert_string_equal(judge(&f, "{\"variant\":\"chess\"}", 0), "variant");
    assert_string_equal(judge(&f, "{\"players\":2}", 0), "variant");
    assert_string_equal(judge(&f, "{\"variant\":\"hex\",\"players\":5}", 0), "generic");
    assert_string_equal(judge(&f, "{\"variant\":\"hex\",\"players\":\"2\"}", 0), "generic");
    assert_string_equal(
        judge(&f, "{\"variant\":\"hex\",\"clock\":{\"kind\":\"fischer\",\"base_s\":60}}", 0),
        "timeControl");
}

static void test_filters(void **state)
{
    (void)state;
    bot_filter f;
    char err[300];
    filter_default(&f);
    assert_true(filter_variants(&f, "hex,square", err, sizeof err));
    assert_true(filter_players(&f, "2,4", err, sizeof err));
    assert_true(filter_rated(&f, "no", err, sizeof err));
    assert_true(filter_clocks(&f, "none,1-10+0-5,30+0-10", err, sizeof err));
    f.max_games = 3;
    assert_null(judge(&f, HEX_CASUAL, 2));
    assert_string_equal(judge(&f, HEX_CASUAL, 3), "later");
    assert_string_equal(judge(&f, "{\"variant\":\"rota\"}", 0), "variant");
    assert_string_equal(judge(&f, "{\"variant\":\"hex\",\"players\":3}", 0), "generic");
    assert_string_equal(judge(&f, "{\"variant\":\"hex\",\"rated\":true}", 0), "rated");
    assert_null(judge(&f, CLOCK(60, 0), 0));
    assert_null(judge(&f, CLOCK(600, 5), 0));
    assert_null(judge(&f, CLOCK(1800, 10), 0));
    assert_string_equal(judge(&f, CLOCK(59, 0), 0), "tooFast");
    assert_string_equal(judge(&f, CLOCK(1801, 600), 0), "tooSlow");
    assert_string_equal(judge(&f, CLOCK(600, 6), 0), "timeControl"); /* between the two */
    assert_string_equal(judge(&f,
                              "{\"variant\":\"hex\",\"clock\":{\"kind\":\"daily\","
                              "\"per_move_s\":86400}}",
                              0),
                        "timeControl");
    assert_true(filter_rated(&f, "yes", err, sizeof err));
    assert_string_equal(judge(&f, CLOCK(60, 0), 0), "casual");
    assert_true(filter_clocks(&f, "daily", err, sizeof err));
    assert_string_equal(judge(&f, HEX_CASUAL, 0), "casual"); /* the order: rated first */
    assert_true(filter_rated(&f, "both", err, sizeof err));
    assert_string_equal(judge(&f, HEX_CASUAL, 0), "timeControl");   /* no clock: not listed */
    assert_string_equal(judge(&f, CLOCK(60, 0), 0), "timeControl"); /* no range at all */
    assert_true(filter_clocks(&f, "*+2", err, sizeof err));         /* any base, 2 s */
    assert_null(judge(&f, CLOCK(10800, 2), 0));
    assert_string_equal(judge(&f, CLOCK(1, 1), 0), "tooFast");
    assert_string_equal(judge(&f, CLOCK(10800, 3), 0), "timeControl"); /* no longest */
    assert_true(filter_clocks(&f, "0.5-1+0", err, sizeof err));
    assert_null(judge(&f, CLOCK(30, 0), 0));
    assert_string_equal(judge(&f, CLOCK(30, 1), 0), "tooSlow");
}

static void test_bad_options(void **state)
{
    (void)state;
    bot_filter f, before;
    char err[300];
    filter_default(&f);
    before = f;
    const char *const variants[] = {"", "chess", "hex,", ",hex", "hex,,square", "hexagonal"};
    for (size_t i = 0; i < sizeof variants / sizeof variants[0]; i++) {
        err[0] = 0;
        assert_false(filter_variants(&f, variants[i], err, sizeof err));
        assert_true(err[0]);
    }
    const char *const players[] = {"", "1", "5", "2,", "22", "two", "2,x"};
    for (size_t i = 0; i < sizeof players / sizeof players[0]; i++)
        assert_false(filter_players(&f, players[i], err, sizeof err));
    const char *const clocks[] = {"",        "3",    "3+",       "+2",   "3+2+1",  "10-1+0",
                                  "-3+0",    "3+-1", "a+b",      "3-+0", "nan+0",  "inf+0",
                                  "1e999+0", "3+2,", "dailyish", "3 +2", "1-2-3+0"};
    for (size_t i = 0; i < sizeof clocks / sizeof clocks[0]; i++) {
        if (filter_clocks(&f, clocks[i], err, sizeof err))
            fail_msg("--clocks '%s' taken", clocks[i]);
    }
    char many[400] = "1+0";
    for (int i = 0; i < FILTER_MAX_CLOCKS; i++)
        strcat(many, ",1+0");
    assert_false(filter_clocks(&f, many, err, sizeof err));
    assert_false(filter_rated(&f, "maybe", err, sizeof err));
    assert_memory_equal(&f, &before, sizeof f); /* refused options change nothing */
}

static void test_describe(void **state)
{
    (void)state;
    char text[160];
    json_t *c = parse(CLOCK(180, 2));
    filter_describe(c, text, sizeof text);
    assert_string_equal(text, "hex, 2 players, 3+2, casual");
    json_decref(c);
    c = parse("{\"variant\":\"hex\",\"players\":4,\"mode\":\"team\",\"rated\":true,"
              "\"clock\":{\"kind\":\"daily\",\"per_move_s\":172800}}");
    filter_describe(c, text, sizeof text);
    assert_string_equal(text, "hex, 4 players, team, 2 days a decision, rated");
    json_decref(c);
}

/* The position of the seat to move after `plies` greedy-free decisions
 * (the first legal decision each time) of a game. */
static json_t *position_after(int variant, int players, int plies, int *seat)
{
    static ax_game g;
    static ax_move moves[AX_MAX_MOVES];
    ax_game_init(&g, variant, players, AX_STANDARD, 42, NULL);
    for (int i = 0; i < plies && g.phase != AX_PHASE_OVER; i++) {
        assert_true(ax_legal_moves(&g, moves, AX_MAX_MOVES) > 0);
        assert_int_equal(ax_apply(&g, &moves[0], NULL), AX_OK);
    }
    *seat = g.to_move;
    return ax_position_json(&g, g.to_move);
}

static void test_decisions_left(void **state)
{
    (void)state;
    int seat;
    json_t *p = position_after(AX_HEX, 2, 0, &seat);
    int start = time_decisions_left(p, seat);
    json_decref(p);
    /* hex for two: 91 cells, 6 fields: room for 42 dominoes and a quarter more, halved */
    assert_int_equal(start, (85 / 2 + 85 / 8 + 1) / 2);
    p = position_after(AX_HEX, 2, 30, &seat);
    int later = time_decisions_left(p, seat);
    json_decref(p);
    assert_true(later < start && later >= 4);
    p = position_after(AX_ROTA, 2, 0, &seat);
    json_t *mine = json_array_get(json_object_get(p, "seats"), (size_t)seat);
    int stack = (int)json_integer_value(json_object_get(mine, "stack"));
    assert_int_equal(time_decisions_left(p, seat), stack + 1); /* the stack and the hand */
    json_decref(p);
    p = position_after(AX_SQUARE, 4, 0, &seat);
    assert_true(time_decisions_left(p, seat) >= 4);
    json_decref(p);
}

static int movetime(const char *game, int cap, bool *clocked)
{
    int seat;
    json_t *p = position_after(AX_HEX, 2, 0, &seat);
    json_t *g = parse(game);
    int ms = time_movetime(g, 0, p, cap, clocked);
    json_decref(g);
    json_decref(p);
    return ms;
}

static void test_movetime(void **state)
{
    (void)state;
    bool clocked;
    int left = (85 / 2 + 85 / 8 + 1) / 2; /* decisions left at the start of hex for two */
    assert_int_equal(movetime("{\"clock\":null,\"clocks\":null}", 1000, &clocked), 1000);
    assert_false(clocked);
    assert_int_equal(movetime("{}", 300, &clocked), 300);
    /* realtime: (time left - reserve) / decisions left + 3/4 of the increment */
    const char *g60 = "{\"clock\":{\"kind\":\"realtime\",\"base_s\":60,\"increment_s\":2},"
                      "\"clocks\":[60000,60000]}";
    assert_int_equal(movetime(g60, 100000, &clocked), 59000 / left + 1500);
    assert_true(clocked);
    assert_int_equal(movetime(g60, 700, &clocked), 700); /* the cap */
    /* little left: never more than what is left less its quarter */
    assert_int_equal(movetime("{\"clock\":{\"kind\":\"realtime\",\"base_s\":60,"
                              "\"increment_s\":10},\"clocks\":[2000,60000]}",
                              100000, &clocked),
                     1500);
    assert_int_equal(movetime("{\"clock\":{\"kind\":\"realtime\",\"base_s\":60,"
                              "\"increment_s\":0},\"clocks\":[0,60000]}",
                              100000, &clocked),
                     10);
    /* daily: the time of this decision less the reserve, within the cap */
    const char *daily = "{\"clock\":{\"kind\":\"daily\",\"per_move_s\":86400},"
                        "\"clocks\":[86400000,86400000]}";
    assert_int_equal(movetime(daily, 5000, &clocked), 5000);
    assert_true(clocked);
    assert_int_equal(movetime("{\"clock\":{\"kind\":\"daily\",\"per_move_s\":86400},"
                              "\"clocks\":[3000,86400000]}",
                              5000, &clocked),
                     2250);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default_accepts_everything),
        cmocka_unit_test(test_filters),
        cmocka_unit_test(test_bad_options),
        cmocka_unit_test(test_describe),
        cmocka_unit_test(test_decisions_left),
        cmocka_unit_test(test_movetime),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
