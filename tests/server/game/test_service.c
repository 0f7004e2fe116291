/*
 * test_service.c - the game service by plain calls, without libwebsockets
 * or a database (docs/server.md, "Layers"): games created and joined
 * through service_api, viewers through service_open/message/close, the
 * store a fake in memory (fake_store.c) and the transport hooks that
 * record what each connection got (harness.c). A decision is announced
 * only once stored, a refused one changes nothing, nobody sees another
 * seat's tiles, clocks run out on the test's time, players leave, chat
 * keeps its limits.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

/* --- creating, joining, starting --- */

static void test_create_join_start(void **state)
{
    (void)state;
    harness *h = h_new(NULL, 120);
    char id[GAME_ID_LEN + 1], token[TOKEN_LEN + 1], token2[TOKEN_LEN + 1];
    int seat, status;
    h_create(h, TWO_PLAYERS, id, &seat, token);

    /* stored first: waiting, the creator's seat taken by its token's hash */
    const stored_game *sg = fake_store_game(h->db, id);
    assert_non_null(sg);
    assert_string_equal(sg->status, "waiting");
    assert_string_equal(sg->seats[0].name, "Ann");
    char hash[65];
    sha256_hex(token, hash);
    assert_string_equal(sg->seats[0].token_hash, hash);
    assert_string_equal(sg->seats[1].token_hash, "");

    conn *ann = h_open(h, id, token, false);
    json_t *st = conn_last(ann, "state");
    assert_string_equal(json_string_value(jpath(st, "game.status")), "waiting");
    json_decref(st);
    assert_int_equal(conn_count(ann, "history"), 1);
    assert_int_equal(conn_count(ann, "chat_history"), 1);

    /* playing before the game starts is refused */
    h_send(h, ann, "{\"type\":\"resign\"}");
    assert_string_equal(last_error(ann), "not_started");

    assert_int_equal(h_join(h, id, "Bob", token2, &status), 1);
    assert_string_equal(sg->status, "running");
    assert_string_equal(sg->seats[1].name, "Bob");
    st = conn_last(ann, "state");
    assert_string_equal(json_string_value(jpath(st, "game.status")), "running");
    json_decref(st);

    /* no third seat */
    char token3[TOKEN_LEN + 1];
    assert_int_equal(h_join(h, id, "Cid", token3, &status), -1);
    assert_int_equal(status, 409);

    /* a token of another game is no seat here: the connection is closed */
    conn *stranger = h_open(h, id, "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", false);
    assert_true(stranger->closed);
    assert_string_equal(last_error(stranger), "unauthorized");
    h_close(h, stranger);
    conn *nowhere = h_open(h, "AAAAAAAAAAAA", NULL, false);
    assert_true(nowhere->closed);
    assert_string_equal(last_error(nowhere), "not_found");
    h_close(h, nowhere);

    h_close(h, ann);
    h_free(h, false);
}

static void test_create_join_store_fails(void **state)
{
    (void)state;
    harness *h = h_new(NULL, 120);
    const char *ids[8];
    int before = fake_store_ids(h->db, ids, 8), status;

    fake_store_fail_calls(h->db, 1, "disk full");
    json_t *v = h_api(h, API_POST, "/games", TWO_PLAYERS, &status);
    assert_int_equal(status, 500);
    json_decref(v);
    assert_int_equal(fake_store_ids(h->db, ids, 8), before);
    assert_int_equal(lobby_count(h->svc), 0);

    char id[GAME_ID_LEN + 1], token[TOKEN_LEN + 1], token2[TOKEN_LEN + 1];
    int seat;
    h_create(h, TWO_PLAYERS, id, &seat, token);
    fake_store_fail_calls(h->db, 1, "disk full");
    assert_int_equal(h_join(h, id, "Bob", token2, &status), -1);
    assert_int_equal(status, 500);
    /* the seat stays free, in memory and in the store, and can be taken */
    assert_false(h_held(h->svc, id)->seats[1].taken);
    assert_int_equal(h_held(h->svc, id)->status, GAME_WAITING);
    assert_string_equal(fake_store_game(h->db, id)->status, "waiting");
    assert_int_equal(h_join(h, id, "Bob", token2, &status), 1);
    h_free(h, false);
}

/* --- decisions --- */

static void test_decision_stored_then_broadcast(void **state)
{
    (void)state;
    harness *h = h_new(NULL, 120);
    table t;
    table_open(&t, h, TWO_PLAYERS);
    int mover = to_move(&t), other = 1 - mover;
    char *text = first_move(&t);
    table_clear(&t);

    h_send(h, t.seat[mover], text);
    /* handed to the store, announced to no one yet */
    assert_int_equal(fake_store_queued(h->db), 1);
    assert_int_equal(fake_store_ndecisions(h->db, t.id), 0);
    assert_int_equal(game_of(&t)->g.ply, 0);
    assert_int_equal(t.seat[mover]->n + t.seat[other]->n + t.spectator->n, 0);
    /* and no second decision meanwhile */
    h_send(h, t.seat[mover], text);
    assert_string_equal(last_error(t.seat[mover]), "not_your_turn");
    conn_clear(t.seat[mover]);

    h_pump(h);
    assert_int_equal(fake_store_ndecisions(h->db, t.id), 1);
    json_t *sent = json_loads(text, 0, NULL),
           *stored = json_loads(fake_store_decision(h->db, t.id, 0), 0, NULL);
    assert_true(json_equal(sent, stored));
    json_decref(sent);
    json_decref(stored);
    assert_int_equal(game_of(&t)->g.ply, 1);
    conn *all[3] = {t.seat[0], t.seat[1], t.spectator};
    for (int i = 0; i < 3; i++) {
        json_t *place = NULL;
        for (int k = 0; k < all[i]->n && !place; k++) {
            json_t *m = json_loads(all[i]->texts[k], 0, NULL);
            const char *ev = json_string_value(jpath(m, "event.ev"));
            if (ev && strcmp(ev, "place") == 0)
                place = json_incref(json_object_get(m, "event"));
            json_decref(m);
        }
        assert_non_null(place);
        assert_int_equal(json_integer_value(json_object_get(place, "player")), mover);
        json_decref(place);
        json_t *st = conn_last(all[i], "state");
        assert_int_equal(json_integer_value(jpath(st, "game.ply")), 1);
        json_decref(st);
        assert_int_equal(conn_count(all[i], "error"), 0);
    }
    free(text);
    table_close(&t);
    h_free(h, false);
}

/* Each message is refused with its code, and nothing is stored or sent
 * to anyone else. */
static void test_refused_decisions(void **state)
{
    (void)state;
    harness *h = h_new(NULL, 120);
    table t;
    table_open(&t, h, TWO_PLAYERS);
    int mover = to_move(&t), other = 1 - mover;
    char *legal = first_move(&t);
    json_t *move = json_loads(legal, 0, NULL);
    json_object_set_new(move, "rack_index", json_integer(9));
    char *no_tile = json_dumps(move, JSON_COMPACT);
    json_object_set_new(move, "rack_index", json_string("0"));
    char *bad_index = json_dumps(move, JSON_COMPACT);
    json_object_set_new(move, "rack_index", json_integer(0));
    json_object_set_new(move, "cells", json_pack("[[ii],[ii]]", 0, 0, 0, 1));
    char *off_start = json_dumps(move, JSON_COMPACT);
    json_decref(move);
    const struct {
        conn *from;
        const char *text, *code;
    } cases[] = {
        {t.seat[mover], "{\"type\":\"place\"", "bad_json"},
        {t.seat[mover], "[1,2]", "bad_message"},
        {t.seat[mover], "{\"type\":\"fly\"}", "bad_message"},
        {t.seat[mover], "{\"type\":\"place\",\"rack_index\":0}", "bad_message"},
        {t.seat[mover], bad_index, "bad_message"},
        {t.seat[mover], "{\"type\":\"place\",\"rack_index\":1e999}", "bad_message"},
        {t.seat[mover], no_tile, "illegal_move"},
        {t.seat[mover], off_start, "illegal_move"},
        {t.seat[other], legal, "not_your_turn"},
        {t.spectator, legal, "unauthorized"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        table_clear(&t);
        h_send(h, cases[i].from, cases[i].text);
        assert_int_equal(cases[i].from->n, 1);
        if (strcmp(last_error(cases[i].from), cases[i].code) != 0)
            fail_msg("%s: %s, not %s", cases[i].text, last_error(cases[i].from), cases[i].code);
        assert_int_equal(t.seat[0]->n + t.seat[1]->n + t.spectator->n, 1);
        assert_int_equal(fake_store_queued(h->db), 0);
        h_pump(h);
        assert_int_equal(fake_store_ndecisions(h->db, t.id), 0);
        assert_int_equal(game_of(&t)->g.ply, 0);
        assert_int_equal(to_move(&t), mover);
    }
    h_send(h, t.seat[mover], no_tile);
    json_t *e = conn_last(t.seat[mover], "error");
    assert_string_equal(json_string_value(json_object_get(e, "reason")), "rack");
    json_decref(e);

    /* the legal one still goes through */
    h_send(h, t.seat[mover], legal);
    h_pump(h);
    assert_int_equal(fake_store_ndecisions(h->db, t.id), 1);
    free(legal);
    free(no_tile);
    free(bad_index);
    free(off_start);
    table_close(&t);
    h_free(h, false);
}

static void test_store_failure_refuses_decision(void **state)
{
    (void)state;
    harness *h = h_new(NULL, 120);
    table t;
    table_open(&t, h, TWO_PLAYERS);
    int mover = to_move(&t), other = 1 - mover;
    char *text = first_move(&t);
    table_clear(&t);

    fake_store_fail_writes(h->db, STORE_DECISION, 1, "disk full");
    h_send(h, t.seat[mover], text);
    h_pump(h);
    /* never acknowledged: the decider hears it failed, nobody saw it */
    assert_string_equal(last_error(t.seat[mover]), "internal");
    assert_int_equal(conn_count(t.seat[mover], NULL), 1);
    assert_int_equal(t.seat[other]->n + t.spectator->n, 0);
    assert_int_equal(fake_store_ndecisions(h->db, t.id), 0);
    assert_int_equal(game_of(&t)->g.ply, 0);
    assert_null(game_of(&t)->pending);

    /* the same decision again, once the store works */
    h_send(h, t.seat[mover], text);
    h_pump(h);
    assert_int_equal(fake_store_ndecisions(h->db, t.id), 1);
    assert_int_equal(game_of(&t)->g.ply, 1);
    assert_int_equal(conn_count(t.seat[other], "event") > 0, 1);
    free(text);
    table_close(&t);
    h_free(h, false);
}

/* A restarted service rebuilds the game from what the store holds. */
static void test_restart_replays_stored_decisions(void **state)
{
    (void)state;
    harness *h = h_new(NULL, 120);
    table t;
    table_open(&t, h, TWO_PLAYERS);
    for (int i = 0; i < 4; i++)
        play_one(&t);
    ax_game before = game_of(&t)->g;
    char id[GAME_ID_LEN + 1];
    memcpy(id, t.id, sizeof id);
    table_close(&t);
    store *db = h->db;
    h_free(h, true);

    h = h_new(db, 120);
    assert_int_equal(lobby_count(h->svc), 1); /* resumed at start */
    game *gm = h_held(h->svc, id);
    assert_non_null(gm);
    assert_int_equal(gm->status, GAME_RUNNING);
    assert_int_equal(gm->g.ply, before.ply);
    assert_int_equal(gm->g.to_move, before.to_move);
    assert_memory_equal(gm->g.rack_n, before.rack_n, sizeof before.rack_n);
    assert_memory_equal(gm->g.rack, before.rack, sizeof before.rack);
    h_free(h, false);
}

/* --- hidden information --- */

/* Fails when v (a message, or a part of one) shows seat `hidden`'s tiles:
 * its rack in a `you`, the tiles of its draws, the seed. */
static void check_hides(const json_t *v, int hidden)
{
    if (json_is_array(v)) {
        for (size_t i = 0; i < json_array_size(v); i++)
            check_hides(json_array_get(v, i), hidden);
        return;
    }
    if (!json_is_object(v))
        return;
    const char *ev = json_string_value(json_object_get(v, "ev"));
    const json_t *player = json_object_get(v, "player");
    if (ev && strcmp(ev, "draw") == 0 && json_integer_value(player) == hidden)
        assert_true(json_is_integer(json_object_get(v, "tiles")));
    if (json_object_get(v, "rack") || json_object_get(v, "moves") || json_object_get(v, "hint"))
        assert_int_not_equal(json_integer_value(json_object_get(v, "seat")), hidden);
    assert_null(json_object_get(v, "seed"));
    const char *key;
    const json_t *value;
    json_object_foreach((json_t *)v, key, value) check_hides(value, hidden);
}

/* Whether a connection got the tiles of one of `seat`'s draws. */
static bool saw_own_draw(const conn *c, int seat)
{
    bool saw = false;
    for (int i = 0; i < c->n && !saw; i++) {
        json_t *m = json_loads(c->texts[i], 0, NULL);
        json_t *events = json_object_get(m, "events");
        for (size_t k = 0; k < json_array_size(events); k++) {
            json_t *e = json_array_get(events, k);
            saw |= strcmp(json_string_value(json_object_get(e, "ev")), "draw") == 0 &&
                   json_integer_value(json_object_get(e, "player")) == seat &&
                   json_is_array(json_object_get(e, "tiles"));
        }
        json_decref(m);
    }
    return saw;
}

static void test_hidden_information(void **state)
{
    (void)state;
    harness *h = h_new(NULL, 120);
    table t;
    table_open(&t, h, TWO_PLAYERS);
    for (int i = 0; i < 10 && game_of(&t)->status == GAME_RUNNING; i++)
        play_one(&t);
    conn *late = h_open(h, t.id, NULL, false); /* a spectator who gets the history now */
    h_send(h, t.seat[0], "{\"type\":\"chat\",\"text\":\"gg\"}");
    h_pump(h);
    assert_true(game_of(&t)->g.ply >= 10);

    const struct {
        const conn *c;
        int hidden[2];
    } who[] = {{t.spectator, {0, 1}}, {late, {0, 1}}, {t.seat[0], {1, 1}}, {t.seat[1], {0, 0}}};
    for (size_t i = 0; i < sizeof who / sizeof who[0]; i++) {
        assert_true(who[i].c->n > 3);
        for (int k = 0; k < who[i].c->n; k++) {
            json_t *m = json_loads(who[i].c->texts[k], 0, NULL);
            for (int s = 0; s < 2; s++)
                check_hides(m, who[i].hidden[s]);
            json_decref(m);
        }
    }
    /* the check looks where the tiles would be: each seat sees its own */
    assert_true(saw_own_draw(t.seat[0], 0));
    assert_true(saw_own_draw(t.seat[1], 1));
    assert_false(saw_own_draw(t.spectator, 0));
    json_t *st = conn_last(t.seat[1], "state");
    assert_int_equal(json_integer_value(jpath(st, "you.seat")), 1);
    assert_true(json_array_size(jpath(st, "you.rack")) > 0);
    json_decref(st);
    st = conn_last(t.spectator, "state");
    assert_true(json_is_null(json_object_get(st, "you")));
    json_decref(st);
    h_close(h, late);
    table_close(&t);
    h_free(h, false);
}

/* --- clocks --- */

#define CLOCKED(base, inc)                                                                         \
    "{\"variant\":\"square\",\"players\":2,\"clock\":{\"kind\":\"realtime\",\"base_s\":" #base     \
    ",\"increment_s\":" #inc "}}"

static void test_clock_charges_the_mover(void **state)
{
    (void)state;
    harness *h = h_new(NULL, 120);
    table t;
    table_open(&t, h, CLOCKED(60, 5));
    int mover = to_move(&t);
    assert_int_equal(game_of(&t)->clock.running, mover);
    h_advance(h, 10.25);
    assert_int_equal(clock_left_now(game_of(&t), mover), 49750);
    assert_int_equal(clock_left_now(game_of(&t), 1 - mover), 60000);
    /* the timer handed the running clock to the store */
    h_pump(h);
    char expect[64];
    snprintf(expect, sizeof expect, mover == 0 ? "[%d,%d]" : "[%2$d,%1$d]", 49750, 60000);
    assert_string_equal(fake_store_game(h->db, t.id)->clock_left, expect);

    play_one(&t); /* charged 10.25 s, given 5 s */
    snprintf(expect, sizeof expect, mover == 0 ? "[%d,%d]" : "[%2$d,%1$d]", 54750, 60000);
    assert_string_equal(fake_store_game(h->db, t.id)->clock_left, expect);
    assert_int_equal(game_of(&t)->clock.running, 1 - mover);
    h_advance(h, 3);
    assert_int_equal(clock_left_now(game_of(&t), mover), 54750);
    assert_int_equal(clock_left_now(game_of(&t), 1 - mover), 57000);
    json_t *st = conn_last(t.spectator, "state");
    assert_non_null(jpath(st, "game.clock"));
    json_decref(st);
    table_close(&t);
    h_free(h, false);
}

static void test_clock_runs_out(void **state)
{
    (void)state;
    harness *h = h_new(NULL, 120);
    table t;
    table_open(&t, h, CLOCKED(30, 0));
    int mover = to_move(&t);
    h_advance(h, 29.5);
    h_pump(h);
    assert_int_equal(game_of(&t)->status, GAME_RUNNING);
    assert_int_equal(fake_store_ndecisions(h->db, t.id), 0);

    h_advance(h, 0.75);
    /* the timeout is a decision like any: stored, then announced */
    assert_int_equal(conn_count(t.spectator, "event"), 0);
    h_pump(h);
    assert_int_equal(fake_store_ndecisions(h->db, t.id), 1);
    json_t *leave = json_loads(fake_store_decision(h->db, t.id, 0), 0, NULL);
    assert_string_equal(json_string_value(json_object_get(leave, "type")), "leave");
    assert_string_equal(json_string_value(json_object_get(leave, "why")), "timeout");
    assert_int_equal(json_integer_value(json_object_get(leave, "seat")), mover);
    json_decref(leave);
    assert_int_equal(game_of(&t)->status, GAME_OVER);
    assert_string_equal(fake_store_game(h->db, t.id)->status, "over");
    assert_non_null(strstr(fake_store_game(h->db, t.id)->end_summary, "reason"));
    json_t *st = conn_last(t.seat[1 - mover], "state");
    assert_string_equal(json_string_value(jpath(st, "game.status")), "over");
    json_decref(st);
    /* over: the clock stops, nothing more is stored */
    h_advance(h, 60);
    h_pump(h);
    assert_int_equal(fake_store_ndecisions(h->db, t.id), 1);
    table_close(&t);
    h_free(h, false);
}

/* --- leaving --- */

static void test_resign(void **state)
{
    (void)state;
    harness *h = h_new(NULL, 120);
    table t;
    table_open(&t, h, TWO_PLAYERS);
    int waiting = 1 - to_move(&t);
    h_send(h, t.spectator, "{\"type\":\"resign\"}");
    assert_string_equal(last_error(t.spectator), "unauthorized");
    assert_int_equal(fake_store_queued(h->db), 0);

    /* a player may resign when it is not their turn */
    h_send(h, t.seat[waiting], "{\"type\":\"resign\"}");
    h_pump(h);
    const char *stored = fake_store_decision(h->db, t.id, 0);
    assert_non_null(stored);
    assert_non_null(strstr(stored, "\"resign\""));
    assert_int_equal(game_of(&t)->status, GAME_OVER);
    assert_string_equal(fake_store_game(h->db, t.id)->status, "over");
    assert_int_equal(fake_store_game(h->db, t.id)->seats[waiting].place, 2);
    assert_int_equal(fake_store_game(h->db, t.id)->seats[1 - waiting].place, 1);
    json_t *st = conn_last(t.seat[waiting], "state");
    assert_true(jpath(st, "you.left") == json_true());
    json_decref(st);

    h_send(h, t.seat[waiting], "{\"type\":\"resign\"}");
    assert_string_equal(last_error(t.seat[waiting]), "unauthorized");
    h_send(h, t.seat[1 - waiting], "{\"type\":\"resign\"}");
    assert_string_equal(last_error(t.seat[1 - waiting]), "game_over");
    assert_int_equal(fake_store_queued(h->db), 0);
    table_close(&t);
    h_free(h, false);
}

static void test_claim_absent(void **state)
{
    (void)state;
    harness *h = h_new(NULL, 120);
    table t;
    table_open(&t, h, TWO_PLAYERS);
    int mover = to_move(&t), other = 1 - mover;
    h_send(h, t.seat[other], "{\"type\":\"claim\"}");
    assert_string_equal(last_error(t.seat[other]), "not_absent"); /* connected */

    h_close(h, t.seat[mover]);
    t.seat[mover] = NULL;
    h_advance(h, 119);
    h_send(h, t.seat[other], "{\"type\":\"claim\"}");
    assert_string_equal(last_error(t.seat[other]), "not_absent");
    assert_int_equal(fake_store_queued(h->db), 0);
    h_advance(h, 2);
    h_send(h, t.seat[other], "{\"type\":\"claim\"}");
    h_pump(h);
    const char *stored = fake_store_decision(h->db, t.id, 0);
    assert_non_null(stored);
    assert_non_null(strstr(stored, "\"absent\""));
    assert_int_equal(game_of(&t)->status, GAME_OVER);
    table_close(&t);
    h_free(h, false);
}

/* --- chat --- */

static char *chat_text(const char *text)
{
    json_t *m = json_pack("{s:s,s:s}", "type", "chat", "text", text);
    char *out = json_dumps(m, JSON_COMPACT);
    json_decref(m);
    return out;
}

static void test_chat_checks(void **state)
{
    (void)state;
    harness *h = h_new(NULL, 120);
    table t;
    table_open(&t, h, TWO_PLAYERS);
    char long_text[502 * 2];
    memset(long_text, 'a', 501);
    long_text[501] = 0;
    char *too_long = chat_text(long_text);
    long_text[500] = 0;
    char *longest = chat_text(long_text);
    const char *refused[] = {"{\"type\":\"chat\"}",
                             "{\"type\":\"chat\",\"text\":7}",
                             "{\"type\":\"chat\",\"text\":\"\"}",
                             "{\"type\":\"chat\",\"text\":\"a\\u0001b\"}",
                             "{\"type\":\"chat\",\"text\":\"a\\u0085b\"}",
                             too_long};
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        conn_clear(t.seat[0]);
        h_send(h, t.seat[0], refused[i]);
        assert_string_equal(last_error(t.seat[0]), "bad_message");
    }
    assert_int_equal(fake_store_queued(h->db), 0);

    /* 500 characters of two bytes each are fine */
    char *wide = malloc(1001);
    for (int i = 0; i < 500; i++)
        memcpy(wide + 2 * i, "\xc3\xa9", 2);
    wide[1000] = 0;
    char *accents = chat_text(wide);
    free(wide);
    h_send(h, t.seat[0], longest);
    h_send(h, t.seat[0], accents);
    assert_int_equal(conn_count(t.spectator, "chat"), 0); /* not before it is stored */
    h_pump(h);
    assert_int_equal(fake_store_nchat(h->db, t.id), 2);
    assert_int_equal(conn_count(t.spectator, "chat"), 2);
    assert_int_equal(conn_count(t.seat[1], "chat"), 2);
    json_t *m = conn_last(t.seat[1], "chat");
    assert_int_equal(json_integer_value(jpath(m, "from.seat")), 0);
    assert_string_equal(json_string_value(jpath(m, "from.name")), "Ann");
    json_decref(m);

    /* a message the store failed is not sent to anyone */
    fake_store_fail_writes(h->db, STORE_CHAT, 1, "disk full");
    h_send(h, t.seat[1], "{\"type\":\"chat\",\"text\":\"lost\"}");
    h_pump(h);
    assert_string_equal(last_error(t.seat[1]), "internal");
    assert_int_equal(conn_count(t.spectator, "chat"), 2);
    assert_int_equal(fake_store_nchat(h->db, t.id), 2);

    /* a connecting client gets what was stored */
    conn *late = h_open(h, t.id, NULL, false);
    json_t *history = conn_last(late, "chat_history");
    assert_int_equal(json_array_size(json_object_get(history, "messages")), 2);
    json_decref(history);
    h_close(h, late);
    free(too_long);
    free(longest);
    free(accents);
    table_close(&t);
    h_free(h, false);
}

static void test_chat_rate_and_end(void **state)
{
    (void)state;
    harness *h = h_new(NULL, 120);
    table t;
    table_open(&t, h, TWO_PLAYERS);
    for (int i = 0; i < 5; i++)
        h_send(h, t.spectator, "{\"type\":\"chat\",\"text\":\"hi\"}");
    assert_string_equal(last_error(t.spectator), "");
    h_send(h, t.spectator, "{\"type\":\"chat\",\"text\":\"hi\"}");
    assert_string_equal(last_error(t.spectator), "rate_limited");
    /* a new connection from the same address has no fresh allowance */
    conn *again = h_open_from(h, t.id, NULL, false, t.spectator->v->ip);
    h_send(h, again, "{\"type\":\"chat\",\"text\":\"hi\"}");
    assert_string_equal(last_error(again), "rate_limited");
    h_pump(h);
    assert_int_equal(fake_store_nchat(h->db, t.id), 5);
    /* one message every two seconds */
    h_advance(h, 2.0);
    conn_clear(t.spectator);
    h_send(h, t.spectator, "{\"type\":\"chat\",\"text\":\"hi\"}");
    assert_string_equal(last_error(t.spectator), "");
    h_send(h, t.spectator, "{\"type\":\"chat\",\"text\":\"hi\"}");
    assert_string_equal(last_error(t.spectator), "rate_limited");
    h_pump(h);
    assert_int_equal(fake_store_nchat(h->db, t.id), 6);

    /* once the game is over the players may still talk, spectators not */
    h_send(h, t.seat[0], "{\"type\":\"resign\"}");
    h_pump(h);
    assert_int_equal(game_of(&t)->status, GAME_OVER);
    h_advance(h, 10);
    conn_clear(t.spectator);
    h_send(h, t.spectator, "{\"type\":\"chat\",\"text\":\"hi\"}");
    assert_string_equal(last_error(t.spectator), "forbidden");
    h_send(h, t.seat[1], "{\"type\":\"chat\",\"text\":\"gg\"}");
    h_pump(h);
    assert_int_equal(fake_store_nchat(h->db, t.id), 7);
    h_close(h, again);
    table_close(&t);
    h_free(h, false);
}

/* A game's chat holds CHAT_STORED_MAX messages in all. */
static void test_chat_full(void **state)
{
    (void)state;
    harness *h = h_new(NULL, 120);
    table t;
    table_open(&t, h, TWO_PLAYERS);
    for (int i = 0; i < CHAT_STORED_MAX; i++) {
        h_send(h, t.seat[i % 2], "{\"type\":\"chat\",\"text\":\"x\"}");
        h_advance(h, 1.0);
        if (i % 50 == 49)
            h_pump(h);
    }
    h_pump(h);
    assert_string_equal(last_error(t.seat[0]), "");
    assert_string_equal(last_error(t.seat[1]), "");
    assert_int_equal(fake_store_nchat(h->db, t.id), CHAT_STORED_MAX);
    h_send(h, t.seat[0], "{\"type\":\"chat\",\"text\":\"x\"}");
    assert_string_equal(last_error(t.seat[0]), "chat_full");
    /* the history holds the newest CHAT_KEEP */
    conn *late = h_open(h, t.id, NULL, false);
    json_t *history = conn_last(late, "chat_history");
    assert_int_equal(json_array_size(json_object_get(history, "messages")), CHAT_KEEP);
    json_decref(history);
    h_close(h, late);
    table_close(&t);
    h_free(h, false);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_create_join_start),
        cmocka_unit_test(test_create_join_store_fails),
        cmocka_unit_test(test_decision_stored_then_broadcast),
        cmocka_unit_test(test_refused_decisions),
        cmocka_unit_test(test_store_failure_refuses_decision),
        cmocka_unit_test(test_restart_replays_stored_decisions),
        cmocka_unit_test(test_hidden_information),
        cmocka_unit_test(test_clock_charges_the_mover),
        cmocka_unit_test(test_clock_runs_out),
        cmocka_unit_test(test_resign),
        cmocka_unit_test(test_claim_absent),
        cmocka_unit_test(test_chat_checks),
        cmocka_unit_test(test_chat_rate_and_end),
        cmocka_unit_test(test_chat_full),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
