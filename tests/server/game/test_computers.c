/*
 * test_computers.c - the game service's computer players and hints, by
 * plain calls over the fake store (harness.h): a computer's decision comes
 * from a worker thread, is stored like a person's and only then announced;
 * a hint goes to the seat that asked and no one else; a player who leaves
 * a game of three is replaced by the computer, which plays their turns.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

/* Waits for the worker, then stores what it decided. */
static void computer_turn(harness *h)
{
    assert_true(h_wait_wake(h));
    h_pump(h);
}

/* The first legal move in the last state a seat's connection got. */
static char *move_of(const conn *c)
{
    json_t *st = conn_last(c, "state");
    json_t *moves = jpath(st, "you.moves");
    assert_true(json_array_size(moves) > 0);
    char *text = json_dumps(json_array_get(moves, 0), JSON_COMPACT);
    json_decref(st);
    return text;
}

static void test_computer_opponent(void **state)
{
    (void)state;
    harness *h = h_new(NULL, 120);
    char id[GAME_ID_LEN + 1], token[TOKEN_LEN + 1];
    int seat;
    h_create(h,
             "{\"variant\":\"square\",\"players\":2,\"seats\":[{\"kind\":\"human\"},"
             "{\"kind\":\"ai\",\"level\":\"random\"}]}",
             id, &seat, token);
    assert_int_equal(seat, 0);
    assert_string_equal(fake_store_game(h->db, id)->status, "running");
    conn *ann = h_open(h, id, token, true);
    game *gm = h_held(h->svc, id);
    for (int ply = 0; ply < 8 && gm->status == GAME_RUNNING; ply++) {
        int before = fake_store_ndecisions(h->db, id);
        if (gm->g.to_move == 0) {
            char *text = move_of(ann);
            h_send(h, ann, text);
            free(text);
            h_pump(h);
        } else {
            assert_true(h_wait_wake(h));
            /* decided, handed to the store, not yet announced */
            assert_int_equal(fake_store_queued(h->db), 1);
            int events = conn_count(ann, "event");
            assert_int_equal(gm->g.ply, before);
            h_pump(h);
            assert_true(conn_count(ann, "event") > events);
        }
        assert_int_equal(fake_store_ndecisions(h->db, id), before + 1);
        assert_int_equal(gm->g.ply, before + 1);
    }
    assert_int_equal(conn_count(ann, "error"), 0);
    h_close(h, ann);
    h_free(h, false);
}

/* A computer whose decision cannot be stored tries again later. */
static void test_computer_store_failure(void **state)
{
    (void)state;
    harness *h = h_new(NULL, 120);
    char id[GAME_ID_LEN + 1], token[TOKEN_LEN + 1];
    int seat;
    h_create(h,
             "{\"variant\":\"square\",\"players\":2,\"seats\":[{\"kind\":\"ai\",\"level\":"
             "\"random\"},{\"kind\":\"human\"}]}",
             id, &seat, token);
    game *gm = h_held(h->svc, id);
    conn *bob = h_open(h, id, token, true);
    if (gm->g.to_move == seat) { /* let the person move first */
        char *text = move_of(bob);
        h_send(h, bob, text);
        free(text);
        h_pump(h);
    }
    int ply = gm->g.ply;
    fake_store_fail_writes(h->db, STORE_DECISION, 1, "disk full");
    computer_turn(h);
    assert_int_equal(gm->g.ply, ply);
    assert_int_equal(fake_store_ndecisions(h->db, id), ply);
    /* the housekeeping timer gives the computer its turn again */
    h_advance(h, 5);
    h_housekeeping(h);
    computer_turn(h);
    assert_int_equal(gm->g.ply, ply + 1);
    assert_int_equal(fake_store_ndecisions(h->db, id), ply + 1);
    h_close(h, bob);
    h_free(h, false);
}

static void test_hint(void **state)
{
    (void)state;
    harness *h = h_new(NULL, 120);
    table t;
    table_open(&t, h, TWO_PLAYERS);
    int mover = to_move(&t), other = 1 - mover;
    h_send(h, t.seat[other], "{\"type\":\"hint\"}");
    assert_string_equal(last_error(t.seat[other]), "not_your_turn");
    h_send(h, t.spectator, "{\"type\":\"hint\"}");
    assert_string_equal(last_error(t.spectator), "unauthorized");

    h_send(h, t.seat[mover], "{\"type\":\"hint\"}");
    assert_true(h_wait_wake(h));
    json_t *hint = conn_last(t.seat[mover], "hint");
    assert_non_null(hint);
    assert_int_equal(conn_count(t.seat[other], "hint") + conn_count(t.spectator, "hint"), 0);
    /* advice only: nothing is decided or stored */
    assert_int_equal(fake_store_queued(h->db), 0);
    assert_int_equal(game_of(&t)->g.ply, 0);
    /* the hinted move is legal */
    char *text = json_dumps(json_object_get(hint, "move"), JSON_COMPACT);
    json_decref(hint);
    h_send(h, t.seat[mover], text);
    free(text);
    h_pump(h);
    assert_string_equal(last_error(t.seat[mover]), "");
    assert_int_equal(fake_store_ndecisions(h->db, t.id), 1);
    table_close(&t);
    h_free(h, false);
}

/* In a game of three, a leaver's seat is played by the computer. */
static void test_leaver_replaced_by_computer(void **state)
{
    (void)state;
    harness *h = h_new(NULL, 120);
    char id[GAME_ID_LEN + 1], token[3][TOKEN_LEN + 1];
    int seat, status;
    h_create(h, "{\"variant\":\"square\",\"players\":3}", id, &seat, token[0]);
    assert_int_equal(h_join(h, id, "Bob", token[1], &status), 1);
    assert_int_equal(h_join(h, id, "Cid", token[2], &status), 2);
    conn *c[3];
    for (int s = 0; s < 3; s++)
        c[s] = h_open(h, id, token[s], true);
    game *gm = h_held(h->svc, id);
    int leaver = gm->g.to_move;
    h_send(h, c[leaver], "{\"type\":\"resign\"}");
    h_pump(h);
    assert_true(gm->g.left[leaver]);
    assert_int_equal(gm->status, GAME_RUNNING);
    /* its `you` no longer shows its tiles */
    json_t *st = conn_last(c[leaver], "state");
    assert_null(jpath(st, "you.rack"));
    json_decref(st);

    bool computer_played = false;
    for (int i = 0; i < 9 && gm->status == GAME_RUNNING; i++) {
        int ply = gm->g.ply;
        if (gm->g.to_move == leaver) {
            computer_turn(h);
            computer_played = true;
        } else {
            char *text = move_of(c[gm->g.to_move]);
            h_send(h, c[gm->g.to_move], text);
            free(text);
            h_pump(h);
        }
        assert_int_equal(gm->g.ply, ply + 1);
    }
    assert_true(computer_played);
    assert_int_equal(fake_store_ndecisions(h->db, id), gm->g.ply);
    for (int s = 0; s < 3; s++)
        h_close(h, c[s]);
    h_free(h, false);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_computer_opponent),
        cmocka_unit_test(test_computer_store_failure),
        cmocka_unit_test(test_hint),
        cmocka_unit_test(test_leaver_replaced_by_computer),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
