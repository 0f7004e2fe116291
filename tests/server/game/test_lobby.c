/*
 * test_lobby.c - the game service's lobby by plain calls over the fake
 * store (harness.h): a waiting game cancelled by its creator or expired
 * when the creator stays away, a rematch made once for both players, and
 * a game whose stored decisions no longer follow on set aside as damaged
 * instead of being resumed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

static const char *error_code(json_t *v)
{
    const char *code = json_string_value(jpath(v, "error.code"));
    return code ? code : "";
}

static void test_cancel(void **state)
{
    (void)state;
    harness *h = h_new(NULL, 120);
    char id[GAME_ID_LEN + 1], token[TOKEN_LEN + 1], path[64];
    int seat, status;
    h_create(h, TWO_PLAYERS, id, &seat, token);
    snprintf(path, sizeof path, "/games/%s", id);
    conn *ann = h_open(h, id, token, false);

    json_t *v =
        h_api_bearer(h, API_DELETE, path, NULL, "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", &status);
    assert_int_equal(status, 401);
    json_decref(v);
    assert_string_equal(fake_store_game(h->db, id)->status, "waiting");

    fake_store_fail_calls(h->db, 1, "disk full");
    v = h_api_bearer(h, API_DELETE, path, NULL, token, &status);
    assert_int_equal(status, 500);
    json_decref(v);
    assert_int_equal(h_held(h->svc, id)->status, GAME_WAITING);

    v = h_api_bearer(h, API_DELETE, path, NULL, token, &status);
    assert_int_equal(status, 200);
    json_decref(v);
    assert_string_equal(fake_store_game(h->db, id)->status, "cancelled");
    json_t *st = conn_last(ann, "state");
    assert_string_equal(json_string_value(jpath(st, "game.status")), "cancelled");
    json_decref(st);

    char token2[TOKEN_LEN + 1];
    assert_int_equal(h_join(h, id, "Bob", token2, &status), -1);
    assert_int_equal(status, 409);
    v = h_api_bearer(h, API_DELETE, path, NULL, token, &status);
    assert_int_equal(status, 409);
    assert_string_equal(error_code(v), "not_waiting");
    json_decref(v);
    h_close(h, ann);
    h_free(h, false);
}

static void test_waiting_expires(void **state)
{
    (void)state;
    harness *h = h_new(NULL, 120);
    char id[GAME_ID_LEN + 1], token[TOKEN_LEN + 1], token2[TOKEN_LEN + 1];
    int seat, status;
    h_create(h, TWO_PLAYERS, id, &seat, token);
    conn *ann = h_open(h, id, token, false);
    h_advance(h, 3600);
    h_housekeeping(h);
    assert_string_equal(fake_store_game(h->db, id)->status, "waiting"); /* connected */

    h_close(h, ann);
    h_advance(h, 599); /* waiting_ttl_s is 600 */
    h_housekeeping(h);
    assert_string_equal(fake_store_game(h->db, id)->status, "waiting");
    h_advance(h, 2);
    h_housekeeping(h);
    assert_string_equal(fake_store_game(h->db, id)->status, "expired");
    assert_int_equal(h_join(h, id, "Bob", token2, &status), -1);
    assert_int_equal(status, 409);
    h_free(h, false);
}

/* The rematch message's game and seat for a connection, its token copied. */
static const char *ask_rematch(harness *h, conn *c, int *seat, char token[TOKEN_LEN + 1])
{
    static char id[GAME_ID_LEN + 1];
    conn_clear(c);
    h_send(h, c, "{\"type\":\"rematch\"}");
    json_t *m = conn_last(c, "rematch");
    if (!m)
        return NULL;
    snprintf(id, sizeof id, "%s", json_string_value(json_object_get(m, "game")));
    snprintf(token, TOKEN_LEN + 1, "%s", json_string_value(json_object_get(m, "token")));
    *seat = (int)json_integer_value(json_object_get(m, "seat"));
    json_decref(m);
    return id;
}

static void test_rematch(void **state)
{
    (void)state;
    harness *h = h_new(NULL, 120);
    table t;
    table_open(&t, h, TWO_PLAYERS);
    int seat;
    char token[2][TOKEN_LEN + 1], next[GAME_ID_LEN + 1];
    assert_null(ask_rematch(h, t.seat[0], &seat, token[0]));
    assert_string_equal(last_error(t.seat[0]), "not_over");
    h_send(h, t.seat[1], "{\"type\":\"resign\"}");
    h_pump(h);
    assert_null(ask_rematch(h, t.spectator, &seat, token[0]));
    assert_string_equal(last_error(t.spectator), "unauthorized");

    /* the first to ask makes it, seated one place on */
    snprintf(next, sizeof next, "%s", ask_rematch(h, t.seat[0], &seat, token[0]));
    assert_int_equal(seat, 1);
    const stored_game *sg = fake_store_game(h->db, next);
    assert_non_null(sg);
    assert_string_equal(sg->rematch_of, t.id);
    assert_string_equal(fake_store_game(h->db, t.id)->rematch, next);
    assert_string_equal(sg->status, "waiting");
    assert_string_equal(sg->seats[1].name, "Ann");
    /* the other joins the same game, which starts */
    assert_string_equal(ask_rematch(h, t.seat[1], &seat, token[1]), next);
    assert_int_equal(seat, 0);
    assert_string_equal(sg->status, "running");
    assert_string_equal(sg->seats[0].name, "Bob");
    /* asking again gives a new token: the old one stops working */
    char old[TOKEN_LEN + 1];
    memcpy(old, token[1], sizeof old);
    assert_string_equal(ask_rematch(h, t.seat[1], &seat, token[1]), next);
    assert_string_not_equal(old, token[1]);
    conn *stale = h_open(h, next, old, false);
    assert_true(stale->closed);
    h_close(h, stale);
    for (int s = 0; s < 2; s++) {
        conn *c = h_open(h, next, token[s], false);
        assert_false(c->closed);
        json_t *st = conn_last(c, "state");
        assert_int_equal(json_integer_value(jpath(st, "you.seat")), 1 - s);
        json_decref(st);
        h_close(h, c);
    }
    table_close(&t);
    h_free(h, false);
}

static void test_damaged_game_set_aside(void **state)
{
    (void)state;
    harness *h = h_new(NULL, 120);
    table t;
    table_open(&t, h, TWO_PLAYERS);
    for (int i = 0; i < 3; i++)
        play_one(&t);
    char id[GAME_ID_LEN + 1], path[64];
    memcpy(id, t.id, sizeof id);
    table_close(&t);
    store *db = h->db;
    h_free(h, true);

    fake_store_drop_decision(db, id, 1);
    h = h_new(db, 120);
    assert_int_equal(lobby_count(h->svc), 0);
    assert_string_equal(fake_store_game(db, id)->status, "damaged");
    assert_non_null(strstr(fake_store_game(db, id)->damage, "decision 1 is missing"));
    conn *c = h_open(h, id, NULL, false);
    assert_true(c->closed);
    assert_string_equal(last_error(c), "damaged");
    h_close(h, c);
    int status;
    snprintf(path, sizeof path, "/games/%s", id);
    json_t *v = h_api(h, API_GET, path, NULL, &status);
    assert_int_equal(status, 200);
    assert_string_equal(json_string_value(json_object_get(v, "status")), "damaged");
    json_decref(v);
    char token[TOKEN_LEN + 1];
    assert_int_equal(h_join(h, id, "Cid", token, &status), -1);
    assert_int_equal(status, 409);
    h_free(h, false);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cancel),
        cmocka_unit_test(test_waiting_expires),
        cmocka_unit_test(test_rematch),
        cmocka_unit_test(test_damaged_game_set_aside),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
