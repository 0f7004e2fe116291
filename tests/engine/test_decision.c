/*
 * test_decision.c - decisions as messages (decision.h) and a stored game
 * replayed from them: every legal decision survives the round trip move ->
 * message -> move, a malformed message is AX_REPLAY_MALFORMED and one the
 * rules cannot mean AX_REPLAY_INCONSISTENT with the engine's error; a game's
 * decisions stored as messages replay to the same game, telling each
 * decision's events, and a replay stops at the first text that is not JSON
 * or that the engine rejects, naming it, or where its caller stops it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decision.h"
#include "engine.h"

static const struct {
    int variant, players, mode;
} configs[] = {
    {AX_SQUARE, 2, AX_STANDARD}, {AX_SQUARE, 1, AX_SOLO}, {AX_ROTA, 3, AX_STANDARD},
    {AX_HEX, 2, AX_STANDARD},    {AX_HEX, 4, AX_TEAM},
};

static ax_move moves[AX_MAX_MOVES];

static bool same_move(const ax_game *g, const ax_move *a, const ax_move *b)
{
    if (a->kind != b->kind)
        return false;
    if (a->kind == AX_MOVE_SWAP)
        return a->accept == b->accept;
    if (a->kind == AX_MOVE_LEAVE)
        return a->seat == b->seat && a->why == b->why;
    if (a->rack_index != b->rack_index)
        return false;
    if (g->variant == AX_ROTA)
        return a->x == b->x && a->y == b->y && a->rotation == b->rotation && a->wild == b->wild;
    return a->cells[0] == b->cells[0] && a->cells[1] == b->cells[1];
}

static void test_round_trip_of_every_legal_decision(void **state)
{
    (void)state;
    ax_game g;
    ax_events ev;
    for (size_t c = 0; c < sizeof configs / sizeof configs[0]; c++) {
        ax_game_init(&g, configs[c].variant, configs[c].players, configs[c].mode, 7, &ev);
        for (int turn = 0; turn < 12 && g.phase != AX_PHASE_OVER; turn++) {
            int n = ax_legal_moves(&g, moves, AX_MAX_MOVES);
            assert_true(n > 0);
            for (int i = 0; i < n; i++) {
                json_t *msg = ax_decision_message(&g, &moves[i]);
                ax_move back;
                char why[128];
                assert_int_equal(ax_decision_from_message(&g, msg, &back, why, sizeof why, NULL),
                                 AX_REPLAY_OK);
                assert_true(same_move(&g, &moves[i], &back));
                assert_int_equal(ax_check(&g, &back), AX_OK);
                json_decref(msg);
            }
            assert_int_equal(ax_apply(&g, &moves[n / 2], &ev), AX_OK);
        }
        ax_move leave = {.kind = AX_MOVE_LEAVE,
                         .seat = (uint8_t)(configs[c].players - 1),
                         .why = AX_LEAVE_TIMEOUT};
        json_t *msg = ax_decision_message(&g, &leave);
        ax_move back;
        char why[128];
        assert_int_equal(ax_decision_from_message(&g, msg, &back, why, sizeof why, NULL),
                         AX_REPLAY_OK);
        assert_true(same_move(&g, &leave, &back));
        json_decref(msg);
    }
}

static ax_error last_illegal; /* the engine's error of code_of's last illegal message */

static int code_of(const ax_game *g, const char *text)
{
    json_t *msg = json_loads(text, 0, NULL);
    assert_non_null(msg);
    ax_move m;
    char why[128] = "";
    ax_error ill = AX_OK;
    int code = ax_decision_from_message(g, msg, &m, why, sizeof why, &ill);
    if (code)
        assert_true(strlen(why) > 0);
    /* an inconsistent one names the engine's error (its reason id goes to clients) */
    if (code == AX_REPLAY_INCONSISTENT) {
        assert_int_not_equal(ill, AX_OK);
        assert_string_equal(why, ax_error_string(ill));
    } else {
        assert_int_equal(ill, AX_OK);
    }
    last_illegal = ill;
    json_decref(msg);
    return code;
}

static void test_malformed_decisions(void **state)
{
    (void)state;
    ax_game sq, rota;
    ax_game_init(&sq, AX_SQUARE, 2, AX_STANDARD, 1, NULL);
    ax_game_init(&rota, AX_ROTA, 2, AX_STANDARD, 1, NULL);
    static const char *const bad_square[] = {
        "{\"type\":\"place\"}",
        "{\"type\":\"place\",\"rack_index\":\"1\",\"cells\":[[2,5],[3,5]]}",
        "{\"type\":\"place\",\"rack_index\":1.5,\"cells\":[[2,5],[3,5]]}",
        "{\"type\":\"place\",\"rack_index\":1,\"cells\":[[2,5]]}",
        "{\"type\":\"place\",\"rack_index\":1,\"cells\":[[2,5],[3,5,1]]}",
        "{\"type\":\"place\",\"rack_index\":1,\"cells\":[[2,5],[3,null]]}",
        "{\"type\":\"place\",\"rack_index\":1,\"cells\":\"a1\"}",
        "{\"type\":\"swap\",\"accept\":1}",
        "{\"type\":\"swap\"}",
        "{\"type\":\"leave\",\"seat\":0}",
        "{\"type\":\"leave\",\"seat\":0,\"why\":\"bored\"}",
        "{\"type\":\"leave\",\"seat\":4,\"why\":\"resign\"}",
        "{\"type\":\"leave\",\"seat\":\"0\",\"why\":\"resign\"}",
    };
    for (size_t i = 0; i < sizeof bad_square / sizeof bad_square[0]; i++)
        assert_int_equal(code_of(&sq, bad_square[i]), AX_REPLAY_MALFORMED);
    static const char *const illegal_square[] = {
        "{\"type\":\"place\",\"rack_index\":-1,\"cells\":[[2,5],[3,5]]}",
        "{\"type\":\"place\",\"rack_index\":4611686018427387904,\"cells\":[[2,5],[3,5]]}",
    };
    for (size_t i = 0; i < sizeof illegal_square / sizeof illegal_square[0]; i++) {
        assert_int_equal(code_of(&sq, illegal_square[i]), AX_REPLAY_INCONSISTENT);
        assert_string_equal(ax_error_id(last_illegal), "rack");
    }
    /* far-away cells are read as off the board, for the engine to refuse */
    assert_int_equal(code_of(&sq, "{\"type\":\"place\",\"rack_index\":0,"
                                  "\"cells\":[[9223372036854775807,0],[0,1]]}"),
                     AX_REPLAY_OK);
    static const char *const bad_rota[] = {
        "{\"type\":\"place\",\"rack_index\":0,\"cells\":[[0,2],[0,3]]}",
        "{\"type\":\"place\",\"rack_index\":0,\"cell\":[0,2]}",
        "{\"type\":\"place\",\"rack_index\":0,\"cell\":[0,2],\"rotation\":\"1\"}",
        "{\"type\":\"place\",\"rack_index\":0,\"cell\":[0,2],\"rotation\":1,\"wild\":3}",
    };
    for (size_t i = 0; i < sizeof bad_rota / sizeof bad_rota[0]; i++)
        assert_int_equal(code_of(&rota, bad_rota[i]), AX_REPLAY_MALFORMED);
    static const char *const illegal_rota[] = {
        "{\"type\":\"place\",\"rack_index\":0,\"cell\":[0,2],\"rotation\":4}",
        "{\"type\":\"place\",\"rack_index\":0,\"cell\":[0,2],\"rotation\":1,\"wild\":\"pink\"}",
        "{\"type\":\"place\",\"rack_index\":0,\"cell\":[0,2],\"rotation\":1,\"wild\":\"yellow\"}",
        "{\"type\":\"place\",\"rack_index\":0,\"cell\":[99999,2],\"rotation\":1}",
    };
    static const char *const illegal_rota_ids[] = {"rotation", "wild", "wild", "display"};
    for (size_t i = 0; i < sizeof illegal_rota / sizeof illegal_rota[0]; i++) {
        assert_int_equal(code_of(&rota, illegal_rota[i]), AX_REPLAY_INCONSISTENT);
        assert_string_equal(ax_error_id(last_illegal), illegal_rota_ids[i]);
    }
}

/* A game played by random decisions, a seat leaving on the way, stored as
 * message texts; `played` is the game after them and its events per
 * decision. */
typedef struct {
    ax_game played;
    char *texts[600];
    char *decisions[600];
    ax_events events[600];
    int n;
} stored;

static void store_game(stored *s, int variant, int players, int mode, uint64_t seed)
{
    ax_rng rng;
    ax_rng_seed(&rng, seed);
    ax_game_init(&s->played, variant, players, mode, seed, NULL);
    s->n = 0;
    while (s->played.phase != AX_PHASE_OVER) {
        assert_true(s->n < 600);
        ax_move m;
        if (players > 2 && s->n == 10)
            m = (ax_move){.kind = AX_MOVE_LEAVE, .seat = 1, .why = AX_LEAVE_RESIGN};
        else
            ax_random_move(&s->played, &rng, &m);
        json_t *msg = ax_decision_message(&s->played, &m);
        s->texts[s->n] = json_dumps(msg, JSON_COMPACT);
        s->decisions[s->n] = s->texts[s->n];
        json_decref(msg);
        assert_int_equal(ax_apply(&s->played, &m, &s->events[s->n]), AX_OK);
        s->n++;
    }
}

static void free_stored(stored *s)
{
    for (int i = 0; i < s->n; i++)
        free(s->texts[i]);
}

typedef struct {
    const stored *s;
    int calls, stop_at;
} watcher;

/* Checks each decision's events against those of the game as played. */
static int watch(void *arg, int index, const ax_move *m, const ax_events *events)
{
    watcher *w = arg;
    (void)m;
    assert_int_equal(index, w->calls);
    assert_int_equal(events->n, w->s->events[index].n);
    assert_memory_equal(events->ev, w->s->events[index].ev,
                        (size_t)events->n * sizeof events->ev[0]);
    w->calls++;
    return index == w->stop_at;
}

static void test_a_stored_game_replays(void **state)
{
    (void)state;
    stored *s = malloc(sizeof *s);
    ax_game *g = malloc(sizeof *g);
    for (size_t c = 0; c < sizeof configs / sizeof configs[0]; c++) {
        store_game(s, configs[c].variant, configs[c].players, configs[c].mode, 40 + c);
        char err[200] = "";
        ax_game_init(g, configs[c].variant, configs[c].players, configs[c].mode, 40 + c, NULL);
        assert_int_equal(ax_replay_decisions(g, s->decisions, s->n, NULL, NULL, err, sizeof err),
                         AX_REPLAY_OK);
        assert_memory_equal(g, &s->played, sizeof *g);

        watcher w = {.s = s, .stop_at = -1};
        ax_game_init(g, configs[c].variant, configs[c].players, configs[c].mode, 40 + c, NULL);
        assert_int_equal(ax_replay_decisions(g, s->decisions, s->n, watch, &w, err, sizeof err),
                         AX_REPLAY_OK);
        assert_int_equal(w.calls, s->n);
        assert_memory_equal(g, &s->played, sizeof *g);

        /* the caller stops it: the decisions up to that one are applied */
        w = (watcher){.s = s, .stop_at = 4};
        ax_game_init(g, configs[c].variant, configs[c].players, configs[c].mode, 40 + c, NULL);
        strcpy(err, "untouched");
        assert_int_equal(ax_replay_decisions(g, s->decisions, s->n, watch, &w, err, sizeof err),
                         AX_REPLAY_STOPPED);
        assert_string_equal(err, "untouched");
        assert_int_equal(w.calls, 5);
        assert_int_equal(g->ply, 5);
        free_stored(s);
    }
    free(g);
    free(s);
}

static void test_a_damaged_stored_game_is_named(void **state)
{
    (void)state;
    stored *s = malloc(sizeof *s);
    ax_game *g = malloc(sizeof *g);
    store_game(s, AX_SQUARE, 2, AX_STANDARD, 5);
    char err[200];
    char *saved = s->decisions[3];
    static const struct {
        const char *text;
        int code;
        const char *reason;
    } damage[] = {
        {"{\"type\":", AX_REPLAY_MALFORMED, "decision 3 is not JSON: "},
        {"{\"type\":\"place\"}", AX_REPLAY_MALFORMED,
         "decision 3 is rejected by the engine: rack_index must be an integer"},
        {"{\"type\":\"place\",\"rack_index\":9,\"cells\":[[0,0],[0,1]]}", AX_REPLAY_INCONSISTENT,
         "decision 3 is rejected by the engine: "},
        {"{\"type\":\"swap\",\"accept\":true}", AX_REPLAY_INCONSISTENT,
         "decision 3 is rejected by the engine: "},
        {"\"\xff\xfe\"", AX_REPLAY_MALFORMED, "decision 3 is not JSON: "},
    };
    for (size_t i = 0; i < sizeof damage / sizeof damage[0]; i++) {
        s->decisions[3] = (char *)damage[i].text;
        ax_game_init(g, AX_SQUARE, 2, AX_STANDARD, 5, NULL);
        assert_int_equal(ax_replay_decisions(g, s->decisions, s->n, NULL, NULL, err, sizeof err),
                         damage[i].code);
        assert_memory_equal(err, damage[i].reason, strlen(damage[i].reason));
        assert_int_equal(g->ply, 3); /* the game before the damage */
        /* a reason travels in JSON: valid UTF-8 whatever the text was */
        json_t *as_json = json_string(err);
        assert_non_null(as_json);
        json_decref(as_json);
    }
    s->decisions[3] = saved;
    free_stored(s);
    free(g);
    free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip_of_every_legal_decision),
        cmocka_unit_test(test_malformed_decisions),
        cmocka_unit_test(test_a_stored_game_replays),
        cmocka_unit_test(test_a_damaged_stored_game_is_named),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
