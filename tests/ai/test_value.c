/*
 * test_value.c - the learned evaluation (src/ai/value.h): the shipped
 * weights load and value their stored positions as the trainer did; the
 * value sees only the seat's own view; a damaged weights file is refused;
 * training is reproducible from its seed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "train.h"
#include "value.h"

static void test_shipped_weights_load(void **state)
{
    (void)state;
    for (int v = 0; v < 3; v++) {
        ai_value_model m;
        char err[256] = "";
        int found = ai_value_builtin(v, 2, &m, err, sizeof err);
        if (found != 1)
            fail_msg("%s 2p: %s", ax_variant_name(v), found < 0 ? err : "no weights shipped");
        assert_int_equal(m.variant, v);
        assert_int_equal(m.players, 2);
        assert_true(m.nchecks > 0);
    }
}

/* The trainer stored a few positions with the value it gave them; the
 * library's inference (the same features, the weights as read back from
 * the file) must give exactly those values. */
static void test_inference_equals_trainer(void **state)
{
    (void)state;
    for (int i = 0; i < ai_weights_count; i++) {
        ai_value_model m;
        char err[256];
        assert_int_equal(ai_value_parse(ai_weights_files[i].text, &m, err, sizeof err), 0);
        for (int k = 0; k < m.nchecks; k++) {
            const ai_value_check *c = &m.checks[k];
            ax_game g;
            ai_value_check_position(m.variant, m.players, c->seed, c->ply, &g);
            double v = ai_value(&m, &g, c->seat);
            if (v != c->value)
                fail_msg("%s check %d: %.17g, trainer %.17g", ai_weights_files[i].name, k, v,
                         c->value);
        }
    }
}

/* Two deals that differ only in the tiles `seat` cannot see (other racks,
 * the bag's order, the ROTA stacks) get the same value, and so does the
 * seat's view itself. */
static void test_sees_only_own_view(void **state)
{
    (void)state;
    for (int v = 0; v < 3; v++) {
        ai_value_model m;
        assert_int_equal(ai_value_builtin(v, 2, &m, NULL, 0), 1);
        for (int ply = 0; ply <= 30; ply += 5)
            for (int seat = 0; seat < 2; seat++) {
                ax_game g, view, a, b;
                ai_value_check_position(v, 2, 1000 + (uint64_t)ply, ply, &g);
                ax_view(&g, seat, &view);
                ax_determinize(&view, 1, &a);
                ax_determinize(&view, 2, &b);
                double va = ai_value(&m, &a, seat), vb = ai_value(&m, &b, seat);
                assert_true(va == vb);
                assert_true(va == ai_value(&m, &g, seat));
                assert_true(va == ai_value(&m, &view, seat));
                bool differ = memcmp(a.bag, b.bag, sizeof a.bag) != 0 ||
                              memcmp(a.rack[1 - seat], b.rack[1 - seat], sizeof a.rack[0]) != 0 ||
                              memcmp(a.stack, b.stack, sizeof a.stack) != 0;
                assert_true(differ || g.phase == AX_PHASE_OVER);
            }
    }
}

static ai_value_model small_model(void)
{
    ai_value_model m = {.variant = AX_HEX, .players = 2, .nchecks = 1};
    for (int i = 0; i < AI_FEATURES; i++) {
        m.lin[i] = 0.01f * (float)i - 0.2f;
        for (int j = 0; j < AI_VALUE_HIDDEN; j++)
            m.hid[j][i] = 0.001f * (float)(i * j % 17) - 0.008f;
    }
    for (int j = 0; j < AI_VALUE_HIDDEN; j++)
        m.out[j] = 0.3f / (float)(j + 1);
    m.checks[0] = (ai_value_check){.seed = 7, .ply = 4, .seat = 1, .value = 0.5};
    return m;
}

static void assert_same_weights(const ai_value_model *a, const ai_value_model *b)
{
    assert_memory_equal(a->lin, b->lin, sizeof a->lin);
    assert_memory_equal(a->hid, b->hid, sizeof a->hid);
    assert_memory_equal(a->out, b->out, sizeof a->out);
}

static char text[1 << 17], copy[1 << 17];

static void expect_refused(const char *text, const char *why)
{
    ai_value_model m;
    char err[256] = "";
    assert_int_equal(ai_value_parse(text, &m, err, sizeof err), -1);
    if (!strstr(err, why))
        fail_msg("refused with '%s', expected '%s'", err, why);
}

static void test_damaged_files_refused(void **state)
{
    (void)state;
    ai_value_model m = small_model(), back;
    char err[256];
    assert_true(ai_value_format(&m, "a test", text, sizeof text) > 0);
    assert_int_equal(ai_value_parse(text, &back, err, sizeof err), 0);
    assert_same_weights(&back, &m);

    /* one digit of a weight changed: the checksum no longer fits */
    strcpy(copy, text);
    char *w = strstr(copy, "hidden 3 ");
    w = strchr(w + 9, '1');
    assert_non_null(w);
    *w = '2';
    expect_refused(copy, "bad checksum");

    /* another version, its checksum made to fit: refused for the version */
    strcpy(copy, text);
    char *v = strstr(copy, "axio-value 2");
    v[11] = '9';
    char *sum = strstr(copy, "checksum ");
    snprintf(sum, sizeof copy - (size_t)(sum - copy), "checksum %016llx\n",
             (unsigned long long)ai_value_checksum(copy, (size_t)(sum - copy)));
    expect_refused(copy, "version");

    /* cut before the checksum */
    strcpy(copy, text);
    *strstr(copy, "checksum ") = 0;
    expect_refused(copy, "no checksum");

    expect_refused("hello\n", "not a weights file");

    /* a hidden unit's line missing, the checksum made to fit */
    strcpy(copy, text);
    char *from = strstr(copy, "hidden 5 "), *to = strstr(copy, "hidden 6 ");
    memmove(from, to, strlen(to) + 1);
    sum = strstr(copy, "checksum ");
    snprintf(sum, sizeof copy - (size_t)(sum - copy), "checksum %016llx\n",
             (unsigned long long)ai_value_checksum(copy, (size_t)(sum - copy)));
    expect_refused(copy, "incomplete");
}

static void test_training_reproducible(void **state)
{
    (void)state;
    ai_train_options o = {.variant = AX_SQUARE,
                          .players = 2,
                          .seed = 5,
                          .games = 12,
                          .test_games = 3,
                          .iterations = 2,
                          .l2 = 1e-3};
    ai_value_model a, b, back;
    ai_train_report ra, rb;
    assert_int_equal(ai_train(&o, &a, &ra), 0);
    assert_int_equal(ai_train(&o, &b, &rb), 0);
    assert_same_weights(&a, &b);
    assert_true(ra.positions > 0 && ra.test_positions > 0);
    /* written and read back, the weights value the checks as trained */
    char err[256];
    assert_true(ai_value_format(&a, NULL, text, sizeof text) > 0);
    assert_int_equal(ai_value_parse(text, &back, err, sizeof err), 0);
    assert_int_equal(back.nchecks, AI_VALUE_CHECKS);
    for (int k = 0; k < back.nchecks; k++) {
        ax_game g;
        ai_value_check_position(back.variant, back.players, back.checks[k].seed, back.checks[k].ply,
                                &g);
        assert_true(ai_value(&back, &g, back.checks[k].seat) == back.checks[k].value);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shipped_weights_load),
        cmocka_unit_test(test_inference_equals_trainer),
        cmocka_unit_test(test_sees_only_own_view),
        cmocka_unit_test(test_damaged_files_refused),
        cmocka_unit_test(test_training_reproducible),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
