/*
 * test_login_throttle.c - the failed-login table: a key is exhausted after
 * LOGIN_ATTEMPTS_MAX attempts within the window and free again once the
 * oldest is LOGIN_WINDOW_S old (throttle_wait_s says how long); a success taken back does not
 * count; the table keeps to its cap: filled, a new key is refused (nothing counted, not even the
 * other key of the attempt) while every key still has attempts, and gets the room of keys whose
 * attempts expired or were taken back; a key with attempts is never dropped to make room. The
 * server's own table is capped at LOGIN_THROTTLE_KEYS (10000), filled here too.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <stdio.h>

#include "../../src/server/game/login_throttle.h"

static void key_of(char *out, size_t size, int i)
{
    snprintf(out, size, "ip 10.0.%d.%d", i / 256, i % 256);
}

static void test_attempts_in_the_window(void **state)
{
    (void)state;
    login_throttle t;
    throttle_init(&t, 100);
    for (int i = 0; i < LOGIN_ATTEMPTS_MAX; i++) {
        assert_false(throttle_exhausted(&t, "name kim", 10.0 + i));
        assert_true(throttle_add(&t, "ip 10.0.0.1", "name kim", 10.0 + i));
    }
    assert_true(throttle_exhausted(&t, "name kim", 20.0));
    assert_true(throttle_exhausted(&t, "ip 10.0.0.1", 20.0));
    assert_false(throttle_exhausted(&t, "name lou", 20.0));
    throttle_take_back(&t, "name kim"); /* the last one succeeded */
    assert_false(throttle_exhausted(&t, "name kim", 20.0));
    assert_true(throttle_add(&t, NULL, "name kim", 21.0));
    assert_true(throttle_exhausted(&t, "name kim", 21.0));
    /* the oldest attempt (at 10) leaves the window at 10 + LOGIN_WINDOW_S: the
     * wait a refused person is told */
    assert_true(throttle_wait_s(&t, "ip 10.0.0.1", 20.0) == LOGIN_WINDOW_S - 10.0);
    assert_true(throttle_wait_s(&t, "ip 10.0.0.1", 10.0 + LOGIN_WINDOW_S - 0.5) == 0.5);
    assert_true(throttle_wait_s(&t, "name lou", 20.0) == 0);
    assert_true(throttle_exhausted(&t, "ip 10.0.0.1", 10.0 + LOGIN_WINDOW_S - 0.5));
    assert_false(throttle_exhausted(&t, "ip 10.0.0.1", 10.0 + LOGIN_WINDOW_S));
    assert_int_equal(t.size, 2);
    throttle_prune(&t, 21.0 + LOGIN_WINDOW_S);
    assert_int_equal(t.size, 0);
    throttle_free(&t);
}

/* Fills a table of `cap` keys, one attempt each at time `at`. */
static void fill(login_throttle *t, int cap, double at)
{
    char key[32];
    for (int i = 0; i < cap; i++) {
        key_of(key, sizeof key, i);
        assert_true(throttle_add(t, key, NULL, at));
    }
    assert_int_equal(t->size, cap);
}

static void test_a_full_table(void **state)
{
    (void)state;
    enum { CAP = 50 };
    login_throttle t;
    throttle_init(&t, CAP);
    fill(&t, CAP, 100.0);
    /* known keys still count; a new one is refused, and so is its pair */
    assert_true(throttle_add(&t, "ip 10.0.0.7", NULL, 101.0));
    assert_false(throttle_add(&t, "ip 10.9.9.9", NULL, 101.0));
    assert_false(throttle_add(&t, "ip 10.0.0.8", "name new", 101.0));
    assert_int_equal(t.size, CAP);
    for (int i = 0; i < LOGIN_ATTEMPTS_MAX - 1; i++) /* 10.0.0.8 was not counted */
        assert_true(throttle_add(&t, "ip 10.0.0.8", NULL, 102.0));
    assert_true(throttle_exhausted(&t, "ip 10.0.0.8", 102.0));
    assert_false(throttle_exhausted(&t, "ip 10.9.9.9", 102.0));
    /* a success taken back frees its key's place for a new one */
    throttle_take_back(&t, "ip 10.0.0.3");
    assert_true(throttle_add(&t, "ip 10.9.9.9", NULL, 103.0));
    assert_int_equal(t.size, CAP);
    assert_false(throttle_add(&t, "ip 10.9.9.10", NULL, 103.0));
    /* no key with attempts was dropped: each still counts in the full table
     * (a key not there would find no room); the one taken back is gone */
    char key[32];
    for (int i = 0; i < CAP; i++) {
        key_of(key, sizeof key, i);
        assert_int_equal(throttle_add(&t, key, NULL, 104.0), i != 3);
    }
    assert_true(throttle_exhausted(&t, "ip 10.0.0.8", 104.0));
    /* the attempts at 100 and 101 expired, but every key has a later one: still full */
    assert_false(throttle_add(&t, "ip 10.9.9.10", NULL, 101.5 + LOGIN_WINDOW_S));
    /* 10.0.0.8's last attempts (102) and 10.9.9.9's only one (103) have expired:
     * their keys make room, two places, of which a new key takes one */
    assert_true(throttle_add(&t, "ip 10.9.9.10", NULL, 103.5 + LOGIN_WINDOW_S));
    assert_int_equal(t.size, CAP - 1);
    assert_false(throttle_add(&t, "ip 10.9.9.11", "name new", 103.5 + LOGIN_WINDOW_S));
    assert_int_equal(t.size, CAP - 1);
    /* when the rest have expired, the table empties as room is needed */
    assert_true(throttle_add(&t, "ip 10.9.9.11", "name new", 200.0 + LOGIN_WINDOW_S));
    assert_int_equal(t.size, 3); /* 10.9.9.10 (at 103.5 + the window) and the two new */
    throttle_free(&t);
    assert_int_equal(t.size, 0);
}

static void test_the_servers_cap(void **state)
{
    (void)state;
    assert_int_equal(LOGIN_THROTTLE_KEYS, 10000);
    login_throttle t;
    throttle_init(&t, LOGIN_THROTTLE_KEYS);
    fill(&t, LOGIN_THROTTLE_KEYS, 5.0);
    assert_false(throttle_add(&t, "name one too many", NULL, 6.0));
    assert_int_equal(t.size, LOGIN_THROTTLE_KEYS);
    assert_true(throttle_add(&t, "name one too many", NULL, 5.0 + LOGIN_WINDOW_S));
    assert_int_equal(t.size, 1);
    throttle_free(&t);
}

/* A key longer than the table keeps is cut, and found again the same way. */
static void test_long_keys(void **state)
{
    (void)state;
    char key[THROTTLE_KEY_MAX + 40];
    snprintf(key, sizeof key, "name ");
    for (size_t i = 5; i < sizeof key - 1; i++)
        key[i] = 'a';
    key[sizeof key - 1] = 0;
    login_throttle t;
    throttle_init(&t, 10);
    for (int i = 0; i < LOGIN_ATTEMPTS_MAX; i++)
        assert_true(throttle_add(&t, key, NULL, 1.0));
    assert_true(throttle_exhausted(&t, key, 2.0));
    assert_int_equal(t.size, 1);
    throttle_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_attempts_in_the_window),
        cmocka_unit_test(test_a_full_table),
        cmocka_unit_test(test_the_servers_cap),
        cmocka_unit_test(test_long_keys),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
