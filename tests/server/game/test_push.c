/*
 * test_push.c - notifications in the game service (src/server/game/push.c,
 * push_texts.c), by plain calls over the fake store with the test's time:
 * every text (notifications and e-mails) exists in every language with
 * the same {names}; "time is
 * running out" is handed to the sending thread once, when 80% of a daily
 * decision's time is used and no tab watches; not while one does; "your
 * turn" after the delay; "a tournament game waiting" to each seat not
 * watched, instead of the first "your turn". (What a push service receives is
 * tests/server/test_push.py's.)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../src/server/game/push.h"
#include "../../../src/server/game/push_texts.h"
#include "harness.h"

/* The {names} of a text, sorted and joined ("{place}{players}{variant}"). */
static void names_of(const char *text, char *out, size_t size)
{
    char found[8][32];
    int n = 0;
    for (const char *p = strchr(text, '{'); p; p = strchr(p + 1, '{')) {
        const char *end = strchr(p, '}');
        assert_non_null(end);
        assert_true(n < 8 && end - p < 31);
        snprintf(found[n++], 32, "%.*s", (int)(end - p + 1), p);
    }
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            if (strcmp(found[j], found[i]) < 0) {
                char t[32];
                memcpy(t, found[i], 32);
                memcpy(found[i], found[j], 32);
                memcpy(found[j], t, 32);
            }
    out[0] = 0;
    for (int i = 0; i < n; i++)
        strncat(out, found[i], size - strlen(out) - 1);
}

static void every_text_in_every_language(void **state)
{
    (void)state;
    for (int k = 0; k < PUSH_KINDS; k++) {
        const char *en_title, *en_body;
        assert_int_equal(push_text(k, "en", &en_title, &en_body), 0);
        char en_names[128], names[128];
        names_of(en_body, en_names, sizeof en_names);
        assert_non_null(strstr(en_names, "{variant}"));
        for (int i = 0; push_langs[i]; i++) {
            const char *title, *body;
            assert_int_equal(push_text(k, push_langs[i], &title, &body), 0);
            assert_true(strlen(title) > 0 && strlen(body) > 0);
            if (strcmp(push_langs[i], "en") != 0)
                assert_string_not_equal(body, en_body); /* translated */
            names_of(body, names, sizeof names);
            assert_string_equal(names, en_names);
            names_of(title, names, sizeof names);
            assert_string_equal(names, "");
        }
        assert_int_equal(push_kind(push_kind_names[k]), k);
    }
    assert_int_equal(push_kind("moves"), -1);
    /* a kind added later goes at the end: stored preferences keep their meaning */
    assert_int_equal(push_kind("event"), PUSH_EVENT);
    assert_int_equal(PUSH_EVENT, PUSH_KINDS - 1);
    const char *et, *eb;
    assert_int_equal(push_text(PUSH_EVENT, "en", &et, &eb), 0);
    char en_event[64];
    names_of(eb, en_event, sizeof en_event);
    assert_string_equal(en_event, "{event}{variant}");
    /* the e-mails' texts too: every language, the same names as English's */
    for (int m = 0; m < MAIL_TEXTS; m++) {
        const char *en = mail_text(m, "en");
        assert_non_null(en);
        char en_names[128], names[128];
        names_of(en, en_names, sizeof en_names);
        for (int i = 0; push_langs[i]; i++) {
            const char *text = mail_text(m, push_langs[i]);
            assert_non_null(text);
            names_of(text, names, sizeof names);
            assert_string_equal(names, en_names);
        }
    }
    assert_ptr_equal(mail_text(MAIL_VERIFIED, "xx"), mail_text(MAIL_VERIFIED, "en"));
    /* an unknown language falls back to English */
    const char *t1, *b1, *t2, *b2;
    assert_int_equal(push_text(PUSH_TURN, "fr", &t1, &b1), 0);
    assert_int_equal(push_text(PUSH_TURN, "en", &t2, &b2), 0);
    assert_ptr_equal(t1, t2);
    char out[64];
    const char *vars[] = {"variant", "AXIO Hex", "name", "Ann", NULL};
    assert_int_equal(push_fill("{name} vs {variant} {x}", vars, out, sizeof out), 0);
    assert_string_equal(out, "Ann vs AXIO Hex {x}");
    assert_int_equal(push_fill("{name} challenges you", vars, out, 8), -1);
}

static void sign_up(harness *h, const char *name, char session[65])
{
    char body[128];
    snprintf(body, sizeof body, "{\"name\":\"%s\",\"password\":\"correct horse\"}", name);
    int status;
    json_t *v = h_api_session(h, API_POST, "/accounts", body, "", &status, session);
    assert_int_equal(status, 201);
    json_decref(v);
}

/* A browser's subscription for the session's account (its key: RFC 8291's
 * example's; the endpoint, one per n, a closed port: the sending thread's attempts fail
 * and are retried, which this test does not look at). */
static void subscribe(harness *h, const char *session, int n)
{
    char body[400];
    snprintf(body, sizeof body,
             "{\"endpoint\":\"http://127.0.0.1:9/push/%d\",\"keys\":{\"p256dh\":"
             "\"BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-"
             "AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4\","
             "\"auth\":\"BTBZMqHH6r4Tts7J_aSIgg\"}}",
             n);
    int status;
    json_t *v = h_api_session(h, API_POST, "/me/push", body, session, &status, NULL);
    assert_int_equal(status, 201);
    json_decref(v);
}

/* Waits for the computer seat's decisions until the person's seat is to
 * move. */
static void until_turn_of(harness *h, const char *id, int seat)
{
    for (int i = 0; i < 50; i++) {
        game *gm = h_held(h->svc, id);
        assert_non_null(gm);
        if (gm->g.to_move == seat && !gm->pending && !gm->ai_busy)
            return;
        h_wait_wake(h);
        h_pump(h);
    }
    fail_msg("the computer did not move");
}

static void clock_at_80_percent_once(void **state)
{
    (void)state;
    harness *h = h_new(NULL, 120);
    h->svc->cfg.push_http = true;
    char ann[65];
    sign_up(h, "Ann", ann);
    subscribe(h, ann, 1);
    int status;
    json_t *g = h_api_session(h, API_POST, "/games",
                              "{\"variant\":\"square\",\"players\":2,\"seats\":[{\"kind\":"
                              "\"human\"},{\"kind\":\"ai\",\"level\":\"random\"}],"
                              "\"clock\":{\"kind\":\"daily\",\"per_move_s\":1000}}",
                              ann, &status, NULL);
    assert_int_equal(status, 201);
    char id[GAME_ID_LEN + 1], token[TOKEN_LEN + 1];
    snprintf(id, sizeof id, "%s", json_string_value(json_object_get(g, "game")));
    snprintf(token, sizeof token, "%s", json_string_value(json_object_get(g, "token")));
    int seat = (int)json_integer_value(json_object_get(g, "seat"));
    json_decref(g);
    h_pump(h);
    until_turn_of(h, id, seat);
    /* Ann's turn: no tab watches; "your turn" after the delay (10 s) */
    h_advance(h, 5);
    assert_int_equal(push_queued(h->svc, PUSH_TURN), 0);
    h_advance(h, 6);
    assert_int_equal(push_queued(h->svc, PUSH_TURN), 1);
    /* 79% of 1000 s: nothing yet; 81%: once */
    h_advance(h, 779);
    assert_int_equal(push_queued(h->svc, PUSH_CLOCK), 0);
    h_advance(h, 20);
    assert_int_equal(push_queued(h->svc, PUSH_CLOCK), 1);
    h_advance(h, 100);
    assert_int_equal(push_queued(h->svc, PUSH_CLOCK), 1);
    assert_int_equal(push_queued(h->svc, PUSH_TURN), 1);
    /* Ann plays (her tab open); at her next turn the tab still watches:
     * neither notice comes */
    conn *c = h_open_session(h, id, token, ann);
    game *gm = h_held(h->svc, id);
    table t = {.h = h};
    snprintf(t.id, sizeof t.id, "%s", id);
    t.seat[seat] = h_open(h, id, token, true); /* a second tab, with the legal moves */
    char *text = first_move(&t);
    assert_non_null(text);
    int ply = gm->g.ply;
    h_send(h, c, text);
    free(text);
    h_pump(h);
    assert_true(h_held(h->svc, id)->g.ply > ply);
    until_turn_of(h, id, seat);
    h_advance(h, 900);
    assert_int_equal(push_queued(h->svc, PUSH_CLOCK), 1);
    assert_int_equal(push_queued(h->svc, PUSH_TURN), 1);
    h_close(h, c);
    h_close(h, t.seat[seat]);
    h_free(h, false);
}

/* An event's table game: "a tournament game waiting" after the delay to
 * each person seated whose tab does not watch it, standing for the first
 * mover's "your turn" (not handed over as well). */
static void event_game_waiting(void **state)
{
    (void)state;
    harness *h = h_new(NULL, 120);
    h->svc->cfg.push_http = true;
    char ann[65], bo[65], cy[65], dee[65];
    sign_up(h, "Ann", ann);
    sign_up(h, "Bo", bo);
    sign_up(h, "Cy", cy);
    sign_up(h, "Dee", dee);
    subscribe(h, ann, 1);
    subscribe(h, bo, 2);
    subscribe(h, cy, 3);
    subscribe(h, dee, 4);
    char id[2][GAME_ID_LEN + 1], token[TOKEN_LEN + 1];
    const char *owner[2] = {ann, cy}, *guest[2] = {bo, dee};
    for (int k = 0; k < 2; k++) {
        int status;
        json_t *g = h_api_session(h, API_POST, "/games",
                                  "{\"variant\":\"hex\",\"players\":2,\"seats\":[{\"kind\":"
                                  "\"human\"},{\"kind\":\"human\"}],"
                                  "\"clock\":{\"kind\":\"daily\",\"per_move_s\":86400}}",
                                  owner[k], &status, NULL);
        assert_int_equal(status, 201);
        snprintf(id[k], sizeof id[k], "%s", json_string_value(json_object_get(g, "game")));
        if (k == 1)
            snprintf(token, sizeof token, "%s", json_string_value(json_object_get(g, "token")));
        json_decref(g);
        char path[64];
        snprintf(path, sizeof path, "/games/%s/join", id[k]);
        json_t *j = h_api_session(h, API_POST, path, "{}", guest[k], &status, NULL);
        assert_int_equal(status, 200);
        json_decref(j);
        h_pump(h);
        assert_int_equal(h_held(h->svc, id[k])->status, GAME_RUNNING);
    }
    /* the second game's owner, Cy, has a tab on it */
    conn *c = h_open_session(h, id[1], token, cy);
    h_pump(h);
    push_event_game(h_held(h->svc, id[0]), "Winter Cup");
    push_event_game(h_held(h->svc, id[1]), "Winter Cup");
    h_advance(h, 5);
    assert_int_equal(push_queued(h->svc, PUSH_EVENT), 0);
    h_advance(h, 6);
    /* Ann, Bo and Dee; not Cy, who watches */
    assert_int_equal(push_queued(h->svc, PUSH_EVENT), 3);
    /* the first game's mover heard of it already; in the second, Dee did if
     * Dee is to move, and Cy watches */
    assert_int_equal(push_queued(h->svc, PUSH_TURN), 0);
    h_advance(h, 30);
    assert_int_equal(push_queued(h->svc, PUSH_EVENT), 3);
    assert_int_equal(push_queued(h->svc, PUSH_TURN), 0);
    h_close(h, c);
    h_free(h, false);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_text_in_every_language),
        cmocka_unit_test(clock_at_80_percent_once),
        cmocka_unit_test(event_game_waiting),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
