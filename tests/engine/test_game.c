/*
 * test_game.c - what all variants share: configuration, determinism, the
 * rejection of illegal decisions and their ids, legal-move lists, hidden
 * information, records and their replay.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "fixtures.h"
#include "record.h"

static const struct {
    int variant, players, mode;
} configs[] = {
    {AX_SQUARE, 1, AX_SOLO},     {AX_SQUARE, 2, AX_STANDARD}, {AX_SQUARE, 3, AX_STANDARD},
    {AX_SQUARE, 4, AX_STANDARD}, {AX_ROTA, 1, AX_SOLO},       {AX_ROTA, 2, AX_STANDARD},
    {AX_ROTA, 4, AX_STANDARD},   {AX_HEX, 1, AX_SOLO},        {AX_HEX, 2, AX_STANDARD},
    {AX_HEX, 3, AX_STANDARD},    {AX_HEX, 4, AX_STANDARD},    {AX_HEX, 4, AX_TEAM},
};
#define NCONFIGS (int)(sizeof configs / sizeof configs[0])

static ax_move moves[AX_MAX_MOVES];

static void test_config(void **state)
{
    (void)state;
    assert_int_equal(ax_config_check(AX_SQUARE, 1, AX_STANDARD), AX_ERR_CONFIG);
    assert_int_equal(ax_config_check(AX_SQUARE, 2, AX_SOLO), AX_ERR_CONFIG);
    assert_int_equal(ax_config_check(AX_SQUARE, 4, AX_TEAM), AX_ERR_CONFIG);
    assert_int_equal(ax_config_check(AX_HEX, 2, AX_TEAM), AX_ERR_CONFIG);
    assert_int_equal(ax_config_check(AX_HEX, 5, AX_STANDARD), AX_ERR_CONFIG);
    assert_int_equal(ax_config_check(7, 2, AX_STANDARD), AX_ERR_CONFIG);
    for (int i = 0; i < NCONFIGS; i++)
        assert_int_equal(ax_config_check(configs[i].variant, configs[i].players, configs[i].mode),
                         AX_OK);
    assert_int_equal(ax_variant_parse("hex"), AX_HEX);
    assert_int_equal(ax_variant_parse("chess"), -1);
    assert_int_equal(ax_mode_parse("team"), AX_TEAM);
}

/* Plays a random game; returns the number of decisions. */
static int play_random(ax_game *g, uint64_t seed, ax_events *log, int *nlog)
{
    ax_rng rng;
    ax_rng_seed(&rng, seed);
    int plies = 0;
    ax_events ev;
    while (g->phase != AX_PHASE_OVER) {
        ax_move m;
        ax_random_move(g, &rng, &m);
        assert_int_equal(ax_apply(g, &m, &ev), AX_OK);
        if (log)
            for (int i = 0; i < ev.n && *nlog < 4096; i++)
                log->ev[(*nlog)++ % AX_MAX_EVENTS] = ev.ev[i];
        plies++;
    }
    return plies;
}

static void test_deterministic(void **state)
{
    (void)state;
    for (int i = 0; i < NCONFIGS; i++) {
        ax_game a, b;
        ax_game_init(&a, configs[i].variant, configs[i].players, configs[i].mode, 42, NULL);
        ax_game_init(&b, configs[i].variant, configs[i].players, configs[i].mode, 42, NULL);
        assert_memory_equal(&a, &b, sizeof a);
        play_random(&a, 9, NULL, NULL);
        play_random(&b, 9, NULL, NULL);
        assert_memory_equal(&a, &b, sizeof a);
        ax_game c;
        ax_game_init(&c, configs[i].variant, configs[i].players, configs[i].mode, 43, NULL);
        assert_memory_not_equal(c.bag, a.bag, sizeof a.bag); /* another seed, another deal */
    }
}

/* Every listed decision is legal and applying it never fails; random
 * decisions are among the legal ones; a game always ends. */
static void test_legal_moves(void **state)
{
    (void)state;
    for (int i = 0; i < NCONFIGS; i++)
        for (uint64_t seed = 1; seed <= 3; seed++) {
            ax_game g;
            ax_rng rng;
            ax_rng_seed(&rng, seed);
            ax_game_init(&g, configs[i].variant, configs[i].players, configs[i].mode, seed, NULL);
            int plies = 0;
            while (g.phase != AX_PHASE_OVER) {
                int n = ax_legal_moves(&g, moves, AX_MAX_MOVES);
                assert_true(n > 0 && n < AX_MAX_MOVES);
                for (int k = 0; k < n; k += 7)
                    assert_int_equal(ax_check(&g, &moves[k]), AX_OK);
                ax_move m;
                ax_random_move(&g, &rng, &m);
                assert_int_equal(ax_check(&g, &m), AX_OK);
                ax_apply(&g, &moves[ax_rng_below(&rng, (uint32_t)n)], NULL);
                assert_true(++plies < 500);
            }
            assert_int_equal(ax_legal_moves(&g, moves, AX_MAX_MOVES), 0);
        }
}

/* Illegal decisions, random garbage included, leave every byte unchanged. */
static void test_illegal_changes_nothing(void **state)
{
    (void)state;
    for (int i = 0; i < NCONFIGS; i++) {
        ax_game g;
        ax_rng rng;
        ax_rng_seed(&rng, 5);
        ax_game_init(&g, configs[i].variant, configs[i].players, configs[i].mode, 5, NULL);
        int rejected = 0;
        while (g.phase != AX_PHASE_OVER) {
            for (int k = 0; k < 20; k++) {
                ax_move bad;
                uint64_t r = ax_rng_next(&rng);
                memcpy(&bad, &r, sizeof r < sizeof bad ? sizeof r : sizeof bad);
                bad.cells[0] = (int16_t)(ax_rng_next(&rng) % 400) - 50;
                bad.cells[1] = (int16_t)(ax_rng_next(&rng) % 400) - 50;
                bad.x = (int16_t)(ax_rng_next(&rng) % 40) - 20;
                bad.y = (int16_t)(ax_rng_next(&rng) % 40) - 20;
                if (ax_check(&g, &bad) == AX_OK)
                    continue;
                ax_game before = g;
                ax_events ev;
                assert_int_not_equal(ax_apply(&g, &bad, &ev), AX_OK);
                assert_memory_equal(&before, &g, sizeof g);
                rejected++;
            }
            ax_move m;
            ax_random_move(&g, &rng, &m);
            ax_apply(&g, &m, NULL);
        }
        ax_move any = {.kind = AX_MOVE_PLACE};
        assert_int_equal(ax_apply(&g, &any, NULL), AX_ERR_OVER);
        assert_true(rejected > 0);
    }
}

static bool unknown(ax_tile t) { return t.sym[0] == AX_UNSET; }

static void test_view_hides(void **state)
{
    (void)state;
    for (int i = 0; i < NCONFIGS; i++) {
        ax_game g, v;
        ax_game_init(&g, configs[i].variant, configs[i].players, configs[i].mode, 77, NULL);
        int seat = configs[i].players - 1;
        ax_view(&g, seat, &v);
        assert_int_equal(v.seed, 0);
        assert_int_equal(v.bag_n, g.bag_n);
        for (int k = 0; k < v.bag_n; k++)
            assert_true(unknown(v.bag[k]));
        for (int s = 0; s < g.players; s++) {
            assert_int_equal(v.rack_n[s], g.rack_n[s]);
            for (int k = 0; k < v.rack_n[s]; k++)
                assert_true(unknown(v.rack[s][k]) == (s != seat));
            for (int k = 0; k < v.stack_n[s]; k++) /* ROTA: the own stack too */
                assert_true(unknown(v.stack[s][k]));
        }
        ax_game spectator;
        ax_view(&g, -1, &spectator);
        for (int s = 0; s < g.players; s++)
            for (int k = 0; k < spectator.rack_n[s]; k++)
                assert_true(unknown(spectator.rack[s][k]));
        /* two games that differ only in hidden tiles give the same view */
        ax_game other = g, v2;
        if (other.bag_n > 1) {
            ax_tile t = other.bag[0];
            other.bag[0] = other.bag[1];
            other.bag[1] = t;
        }
        ax_view(&other, seat, &v2);
        assert_memory_equal(&v, &v2, sizeof v);
    }
}

/* A determinization is a complete game: the view's known tiles stay, and the
 * whole tile set is there exactly once. */
static void test_determinize(void **state)
{
    (void)state;
    for (int i = 0; i < NCONFIGS; i++) {
        ax_game g, v, d;
        ax_rng rng;
        ax_rng_seed(&rng, 3);
        ax_game_init(&g, configs[i].variant, configs[i].players, configs[i].mode, 3, NULL);
        for (int k = 0; k < 6 && g.phase != AX_PHASE_OVER; k++) {
            ax_move m;
            ax_random_move(&g, &rng, &m);
            ax_apply(&g, &m, NULL);
        }
        int seat = g.to_move;
        ax_view(&g, seat, &v);
        ax_determinize(&v, 99, &d);
        assert_memory_equal(d.rack[seat], g.rack[seat], sizeof(ax_tile) * g.rack_n[seat]);
        ax_tile all[AX_MAX_TILES * 2];
        int n = 0;
        for (int k = 0; k < d.bag_n; k++)
            all[n++] = d.bag[k];
        for (int k = 0; k < d.board_n; k++)
            all[n++] = d.board_tiles[k];
        for (int s = 0; s < d.players; s++) {
            for (int k = 0; k < d.rack_n[s]; k++)
                all[n++] = d.rack[s][k];
            for (int k = 0; k < d.stack_n[s]; k++)
                all[n++] = d.stack[s][k];
        }
        ax_tile set[AX_MAX_TILES];
        int nset = ax_tile_set(g.variant, set);
        assert_int_equal(n, nset);
        for (int k = 0; k < nset; k++) {
            bool found = false;
            for (int q = 0; q < n && !found; q++)
                if (ax_tile_equal(all[q], set[k])) {
                    all[q].sym[0] = AX_UNSET;
                    found = true;
                }
            assert_true(found);
        }
        /* the determinized game plays on */
        ax_move m;
        ax_random_move(&d, &rng, &m);
        assert_int_equal(ax_apply(&d, &m, NULL), AX_OK);
    }
}

static void test_record_views(void **state)
{
    (void)state;
    ax_game g;
    ax_events init;
    ax_game_init(&g, AX_SQUARE, 2, AX_STANDARD, 11, &init);
    assert_int_equal(init.n, 2);
    char *own = fixture_dump(ax_record_event(&g, &init.ev[0], 0));
    char *other = fixture_dump(ax_record_event(&g, &init.ev[1], 0));
    char *spectator = fixture_dump(ax_record_event(&g, &init.ev[0], AX_VIEWER_SPECTATOR));
    assert_non_null(strstr(own, "\"tiles\":[["));
    assert_non_null(strstr(other, "\"tiles\":5"));
    assert_non_null(strstr(spectator, "\"tiles\":5"));
    char *start_view = fixture_dump(ax_record_start(&g, NULL, 1));
    char *start_full = fixture_dump(ax_record_start(&g, NULL, AX_VIEWER_ALL));
    assert_null(strstr(start_view, "seed"));
    assert_non_null(strstr(start_full, "\"seed\":\"11\""));
    free(own);
    free(other);
    free(spectator);
    free(start_view);
    free(start_full);
}

/* Writes a random game's record into lines[], returns the count. */
static int record_game(int variant, int players, int mode, uint64_t seed, char **lines)
{
    ax_game g;
    ax_events ev;
    ax_rng rng;
    ax_rng_seed(&rng, seed + 1);
    ax_game_init(&g, variant, players, mode, seed, &ev);
    int n = 0;
    lines[n++] = fixture_dump(ax_record_start(&g, NULL, AX_VIEWER_ALL));
    for (;;) {
        for (int i = 0; i < ev.n; i++)
            lines[n++] = fixture_dump(ax_record_event(&g, &ev.ev[i], AX_VIEWER_ALL));
        if (g.phase == AX_PHASE_OVER)
            return n;
        ax_move m;
        ax_random_move(&g, &rng, &m);
        ax_apply(&g, &m, &ev);
    }
}

static int replay_lines(char **lines, int n, char *err, size_t errlen)
{
    static ax_replay r;
    ax_replay_init(&r);
    for (int i = 0; i < n; i++) {
        int code = ax_replay_line(&r, lines[i], err, errlen);
        if (code)
            return code;
    }
    return ax_replay_finish(&r, err, errlen);
}

static void test_replay_round_trip_and_tampering(void **state)
{
    (void)state;
    static char *lines[4096];
    char err[512];
    for (int i = 0; i < NCONFIGS; i++) {
        int n = record_game(configs[i].variant, configs[i].players, configs[i].mode, 21, lines);
        int code = replay_lines(lines, n, err, sizeof err);
        if (code)
            fprintf(stderr, "config %d: %s\n", i, err);
        assert_int_equal(code, AX_REPLAY_OK);
        /* cut short */
        assert_int_equal(replay_lines(lines, n - 1, err, sizeof err), AX_REPLAY_MALFORMED);
        /* a changed point on the first place line */
        for (int k = 0; k < n; k++) {
            char *p = strstr(lines[k], "\"points\":{\"red\":");
            if (!p)
                continue;
            char *saved = strdup(lines[k]);
            char *digit = p + strlen("\"points\":{\"red\":");
            *digit = *digit == '9' ? '8' : (char)(*digit + 1);
            assert_int_equal(replay_lines(lines, n, err, sizeof err), AX_REPLAY_INCONSISTENT);
            char want[32];
            snprintf(want, sizeof want, "line %d:", k + 1);
            assert_non_null(strstr(err, want));
            free(lines[k]);
            lines[k] = saved;
            break;
        }
        /* malformed JSON */
        char *saved = lines[2];
        lines[2] = strdup("{\"ev\":\"place\",");
        assert_int_equal(replay_lines(lines, n, err, sizeof err), AX_REPLAY_MALFORMED);
        assert_non_null(strstr(err, "line 3:"));
        free(lines[2]);
        lines[2] = saved;
        for (int k = 0; k < n; k++)
            free(lines[k]);
    }
}

/* Every error has its own short id (clients translate by it) and its text. */
static void test_error_ids(void **state)
{
    (void)state;
    for (int e = AX_OK; e <= AX_ERR_LEFT; e++) {
        const char *id = ax_error_id((ax_error)e);
        assert_string_not_equal(id, "unknown");
        assert_string_not_equal(ax_error_string((ax_error)e), "unknown error");
        for (size_t i = 0; id[i]; i++)
            assert_true((id[i] >= 'a' && id[i] <= 'z') || id[i] == '_');
        for (int f = AX_OK; f < e; f++)
            assert_string_not_equal(id, ax_error_id((ax_error)f));
    }
    assert_string_equal(ax_error_id(AX_ERR_FIRST_TILE), "first_tile");
    assert_non_null(strstr(ax_error_string(AX_ERR_FIRST_TILE), "start symbol"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_config),       cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_legal_moves),  cmocka_unit_test(test_illegal_changes_nothing),
        cmocka_unit_test(test_view_hides),   cmocka_unit_test(test_determinize),
        cmocka_unit_test(test_record_views), cmocka_unit_test(test_replay_round_trip_and_tampering),
        cmocka_unit_test(test_error_ids),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
