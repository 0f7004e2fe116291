/*
 * test_accounts.c - accounts and a rated game in the game service, by
 * plain calls over the fake store (harness.h): sign-up on the password
 * workers, a session per account, a rated seat played only with its
 * account's session, and the ratings written with the game's end.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

/* A new account; the hash of its session. */
static void sign_up(harness *h, const char *name, char session[65])
{
    char body[128];
    snprintf(body, sizeof body, "{\"name\":\"%s\",\"password\":\"correct horse\"}", name);
    int status;
    session[0] = 0;
    json_t *v = h_api_session(h, API_POST, "/accounts", body, "", &status, session);
    assert_int_equal(status, 201);
    assert_string_equal(json_string_value(json_object_get(v, "name")), name);
    assert_int_equal(strlen(session), 64);
    json_decref(v);
}

static int64_t account_id(harness *h, const char *key)
{
    stored_account a;
    assert_int_equal(store_account_by_key(h->db, key, &a), 0);
    return a.id;
}

static void test_rated_game(void **state)
{
    (void)state;
    harness *h = h_new(NULL, 120);
    char alice[65], bobby[65];
    sign_up(h, "Alice", alice);
    sign_up(h, "Bobby", bobby);
    int status;
    json_t *v =
        h_api_session(h, API_POST, "/accounts", "{\"name\":\"alice\",\"password\":\"another one\"}",
                      "", &status, NULL);
    assert_int_equal(status, 409); /* the store's key is the folded name */
    json_decref(v);

    const char *rated = "{\"variant\":\"square\",\"players\":2,\"rated\":true,"
                        "\"clock\":{\"kind\":\"realtime\",\"base_s\":600,\"increment_s\":0}}";
    v = h_api(h, API_POST, "/games", rated, &status);
    assert_int_equal(status, 400); /* a guest creates no rated game */
    json_decref(v);
    v = h_api_session(h, API_POST, "/games", rated, alice, &status, NULL);
    assert_int_equal(status, 201);
    char id[GAME_ID_LEN + 1], token[2][TOKEN_LEN + 1], path[64];
    snprintf(id, sizeof id, "%s", json_string_value(json_object_get(v, "game")));
    snprintf(token[0], TOKEN_LEN + 1, "%s", json_string_value(json_object_get(v, "token")));
    json_decref(v);
    assert_int_equal(fake_store_game(h->db, id)->seats[0].account_id, account_id(h, "alice"));

    snprintf(path, sizeof path, "/games/%s/join", id);
    v = h_api(h, API_POST, path, "{}", &status);
    assert_int_equal(status, 401); /* nor joins one */
    json_decref(v);
    v = h_api_session(h, API_POST, path, "{}", alice, &status, NULL);
    assert_int_equal(status, 409); /* one seat per account */
    json_decref(v);
    v = h_api_session(h, API_POST, path, "{}", bobby, &status, NULL);
    assert_int_equal(status, 200);
    snprintf(token[1], TOKEN_LEN + 1, "%s", json_string_value(json_object_get(v, "token")));
    json_decref(v);
    assert_string_equal(fake_store_game(h->db, id)->seats[1].name, "Bobby");
    assert_string_equal(fake_store_game(h->db, id)->status, "running");

    /* the seat token alone does not play a rated seat */
    conn *c = h_open(h, id, token[0], false);
    assert_true(c->closed);
    assert_string_equal(last_error(c), "unauthorized");
    h_close(h, c);
    c = h_open_session(h, id, token[0], bobby);
    assert_true(c->closed);
    h_close(h, c);
    conn *a = h_open_session(h, id, token[0], alice);
    conn *b = h_open_session(h, id, token[1], bobby);
    assert_false(a->closed || b->closed);

    h_send(h, b, "{\"type\":\"resign\"}");
    h_pump(h);
    game *gm = h_held(h->svc, id);
    assert_int_equal(gm->status, GAME_OVER);
    /* rated in the store, with the end */
    rt_rating r[2];
    int games[2];
    assert_int_equal(store_rating(h->db, account_id(h, "alice"), "square", &r[0], &games[0]), 0);
    assert_int_equal(store_rating(h->db, account_id(h, "bobby"), "square", &r[1], &games[1]), 0);
    assert_int_equal(games[0], 1);
    assert_int_equal(games[1], 1);
    assert_true(r[0].mu > r[1].mu);
    const stored_game *sg = fake_store_game(h->db, id);
    assert_true(sg->seats[0].rated && sg->seats[1].rated);
    /* and shown */
    assert_true(gm->seats[0].has_change && gm->seats[0].rating_change > 0);
    assert_true(gm->seats[1].has_change && gm->seats[1].rating_change < 0);
    v = h_api(h, API_GET, "/players/Alice", NULL, &status);
    assert_int_equal(status, 200);
    assert_int_equal(json_array_size(json_object_get(v, "games")), 1);
    json_decref(v);

    /* a session that ended opens no rated seat */
    v = h_api_session(h, API_POST, "/logout", NULL, alice, &status, NULL);
    json_decref(v);
    c = h_open_session(h, id, token[0], alice);
    assert_true(c->closed);
    h_close(h, c);
    h_close(h, a);
    h_close(h, b);
    h_free(h, false);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rated_game),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
