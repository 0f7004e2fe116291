/*
 * test_evaluate.c - the search's fast knowledge agrees with the engine: the
 * estimated points of a placement equal ax_preview_move's in every variant
 * and mode, the playout policy only makes legal decisions, the value of
 * points grows with the points, the reward ranks winners first, and the
 * estimate of an unfinished game agrees with it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <string.h>

#include "evaluate.h"

static const struct {
    int variant, players, mode;
} configs[] = {
    {AX_SQUARE, 1, AX_SOLO}, {AX_SQUARE, 2, AX_STANDARD}, {AX_SQUARE, 4, AX_STANDARD},
    {AX_ROTA, 1, AX_SOLO},   {AX_ROTA, 2, AX_STANDARD},   {AX_ROTA, 3, AX_STANDARD},
    {AX_HEX, 1, AX_SOLO},    {AX_HEX, 2, AX_STANDARD},    {AX_HEX, 3, AX_STANDARD},
    {AX_HEX, 4, AX_TEAM},
};
#define NCONFIGS (int)(sizeof configs / sizeof configs[0])

static ax_move moves[AX_MAX_MOVES];

/* Whether applying m ends the game at once (its pyramids then stay unscored). */
static bool ends_at_once(const ax_game *g, const ax_move *m)
{
    ax_game copy = *g;
    ax_apply(&copy, m, NULL);
    return copy.phase == AX_PHASE_OVER && copy.end_reason == AX_END_ALL_MAX;
}

/* Compares estimate and preview for up to `limit` moves spread over the list. */
static int check_estimates(const ax_game *g, ai_scratch *s, int limit)
{
    int n = ax_legal_moves(g, moves, AX_MAX_MOVES), checked = 0;
    int stride = n / limit + 1;
    for (int i = 0; i < n; i += stride) {
        if (moves[i].kind != AX_MOVE_PLACE || ends_at_once(g, &moves[i]))
            continue;
        ax_preview pv;
        uint8_t est[AX_MAX_COLORS];
        ax_preview_move(g, &moves[i], &pv);
        ai_estimate_points(g, s, &moves[i], est);
        assert_memory_equal(est, pv.points, AX_MAX_COLORS);
        checked++;
    }
    return checked;
}

static void test_estimates_match_preview(void **state)
{
    (void)state;
    ai_scratch *s = ai_scratch_new();
    for (int k = 0; k < NCONFIGS; k++) {
        int checked = 0;
        for (uint64_t seed = 1; seed <= 3; seed++) {
            ax_game g;
            ax_rng rng;
            ax_rng_seed(&rng, seed);
            ax_game_init(&g, configs[k].variant, configs[k].players, configs[k].mode, seed, NULL);
            while (g.phase != AX_PHASE_OVER) {
                checked += check_estimates(&g, s, 40);
                ax_move m;
                ai_policy_move(&g, &ai_default_params, &rng, s, &m);
                assert_int_equal(ax_apply(&g, &m, NULL), AX_OK);
            }
        }
        assert_true(checked > 100);
    }
    ai_scratch_free(s);
}

/* The policy's own choice must be legal without the playout's fallback. */
static void test_policy_decisions_are_legal(void **state)
{
    (void)state;
    ai_scratch *s = ai_scratch_new();
    for (int k = 0; k < NCONFIGS; k++) {
        ax_game g;
        ax_rng rng;
        ax_rng_seed(&rng, 7);
        ax_game_init(&g, configs[k].variant, configs[k].players, configs[k].mode, 11, NULL);
        while (g.phase != AX_PHASE_OVER) {
            ax_move m;
            ai_policy_move(&g, &ai_default_params, &rng, s, &m);
            assert_int_equal(ax_check(&g, &m), AX_OK);
            ax_apply(&g, &m, NULL);
        }
        /* a full playout from a fresh deal ends too */
        ax_game_init(&g, configs[k].variant, configs[k].players, configs[k].mode, 12, NULL);
        assert_true(ai_playout(&g, &ai_default_params, &rng, s) > 0);
        assert_int_equal(g.phase, AX_PHASE_OVER);
    }
    ai_scratch_free(s);
}

/* The value the noiseless policy gives a placement of the seat to move. */
static float policy_value(const ax_game *g, ai_scratch *s, const ax_move *m)
{
    ai_gains gains;
    ai_gains_init(&gains, g, ax_track_owner(g, g->to_move), &ai_default_params);
    uint8_t points[AX_MAX_COLORS];
    ai_estimate_points(g, s, m, points);
    return ai_gains_value(&gains, points, g->ncolors);
}

/* Whether rack tile r is the first of its kind (the policy offers one copy). */
static bool is_distinct_tile(const ax_game *g, int r)
{
    for (int q = 0; q < r; q++)
        if (ax_tile_equal(g->rack[g->to_move][q], g->rack[g->to_move][r]))
            return false;
    return true;
}

/* Checks ai_policy_moves in g: legal, distinct, best first, the first the
 * policy's own choice, and no legal placement left out worth more than the
 * last kept. */
static void check_best_few(const ax_game *g, ai_scratch *s, ax_rng *rng)
{
    ai_params exact = ai_default_params;
    exact.noise = 0;
    ax_move few[AI_MAX_REPLIES], one;
    int n = ai_policy_moves(g, &exact, rng, s, 5, few);
    ai_policy_move(g, &exact, rng, s, &one);
    assert_true(n >= 1 && n <= 5);
    assert_memory_equal(&few[0], &one, sizeof one);
    if (g->phase == AX_PHASE_SWAP) {
        assert_int_equal(n, 2);
        assert_true(few[0].accept && !few[1].accept);
        return;
    }
    float last = 1e30f;
    for (int i = 0; i < n; i++) {
        assert_int_equal(ax_check(g, &few[i]), AX_OK);
        for (int k = 0; k < i; k++)
            assert_memory_not_equal(&few[i], &few[k], sizeof few[i]);
        if (ends_at_once(g, &few[i]))
            continue; /* its estimate counts pyramids it never scores */
        float v = policy_value(g, s, &few[i]);
        assert_true(v <= last + 1e-3f);
        last = v;
    }
    int total = ax_legal_moves(g, moves, AX_MAX_MOVES);
    if (n < 5 && total >= 5)
        fail_msg("%d of %d legal placements kept", n, total);
    for (int i = 0; i < total && n == 5; i++) {
        bool kept = false;
        for (int k = 0; k < n; k++)
            kept |= memcmp(&moves[i], &few[k], sizeof few[k]) == 0;
        if (!kept && !ends_at_once(g, &moves[i]) && is_distinct_tile(g, moves[i].rack_index))
            assert_true(policy_value(g, s, &moves[i]) <= last + 1e-3f);
    }
}

static void test_policy_best_few(void **state)
{
    (void)state;
    ai_scratch *s = ai_scratch_new();
    for (int k = 0; k < NCONFIGS; k++) {
        ax_game g;
        ax_rng rng;
        ax_rng_seed(&rng, 9);
        ax_game_init(&g, configs[k].variant, configs[k].players, configs[k].mode, 13, NULL);
        for (int ply = 0; g.phase != AX_PHASE_OVER; ply++) {
            if (ply % 3 == 0) /* a third of the positions: the check is slow */
                check_best_few(&g, s, &rng);
            ax_move m;
            ai_policy_move(&g, &ai_default_params, &rng, s, &m);
            ax_apply(&g, &m, NULL);
        }
    }
    ai_scratch_free(s);
}

static void test_gains_favour_low_tracks(void **state)
{
    (void)state;
    ax_game g;
    ax_game_init(&g, AX_SQUARE, 2, AX_STANDARD, 1, NULL);
    const uint8_t tracks[5] = {2, 10, 17, 18, 5};
    memcpy(g.track[0], tracks, sizeof tracks);
    ai_gains t;
    ai_gains_init(&t, &g, 0, &ai_default_params);
    for (int p = 1; p <= 16; p++)
        assert_true(t.gain[0][p] > t.gain[0][p - 1]); /* more points, more value */
    assert_true(t.gain[0][17] == t.gain[0][16]);      /* up to the threshold */
    assert_true(t.gain[0][1] > t.gain[4][1]);         /* the lower track first */
    assert_true(t.gain[4][1] > t.gain[1][1]);
    assert_true(t.gain[3][5] == 0.0f);         /* a full track takes nothing */
    assert_true(t.gain[2][1] == t.gain[2][9]); /* the rest of a unit is lost */
    assert_true(t.gain[2][1] > t.gain[1][1]);  /* an AXIO earns a bonus move */
}

static void test_outcome_ranks_players(void **state)
{
    (void)state;
    ax_game g;
    ax_game_init(&g, AX_SQUARE, 2, AX_STANDARD, 1, NULL);
    const uint8_t a[5] = {9, 9, 12, 18, 10}, b[5] = {8, 18, 18, 18, 18};
    memcpy(g.track[0], a, sizeof a);
    memcpy(g.track[1], b, sizeof b);
    assert_true(ai_outcome(&g, 0) > 0.9 && ai_outcome(&g, 0) <= 1.0);
    assert_true(ai_outcome(&g, 1) < 0.1 && ai_outcome(&g, 1) >= 0.0);
    memcpy(g.track[1], a, sizeof a);
    assert_true(ai_outcome(&g, 0) == ai_outcome(&g, 1)); /* a tie */

    ax_game_init(&g, AX_HEX, 1, AX_SOLO, 1, NULL);
    const uint8_t solo[6] = {12, 14, 18, 30, 36, 20};
    memcpy(g.track[0], solo, sizeof solo);
    double r = ai_outcome(&g, 0);
    g.track[0][1] = 15; /* the second lowest counts too */
    assert_true(ai_outcome(&g, 0) > r && ai_outcome(&g, 0) < 1.0);
}

static void test_estimate_of_unfinished_games(void **state)
{
    (void)state;
    ax_game g;
    ax_game_init(&g, AX_HEX, 2, AX_STANDARD, 1, NULL);
    const uint8_t even[6] = {4, 4, 6, 8, 9, 12};
    memcpy(g.track[0], even, sizeof even);
    memcpy(g.track[1], even, sizeof even);
    assert_true(ai_estimate(&g, 0, &ai_default_params, 3.0) == 0.5); /* level */
    g.track[0][0] = 7;                                               /* the lowest track up */
    double low = ai_estimate(&g, 0, &ai_default_params, 3.0);
    assert_true(low > 0.5 && low < 1.0);
    assert_true(ai_estimate(&g, 1, &ai_default_params, 3.0) < 0.5);
    /* the two sides' chances add up to one */
    double sum = low + ai_estimate(&g, 1, &ai_default_params, 3.0);
    assert_true(sum > 0.999999 && sum < 1.000001);
    g.track[0][0] = 4;
    g.track[0][5] = 15; /* as many points on the highest track count less */
    double high = ai_estimate(&g, 0, &ai_default_params, 3.0);
    assert_true(high > 0.5 && high < low);
    /* a larger scale is less sure of the same lead */
    assert_true(ai_estimate(&g, 0, &ai_default_params, 6.0) < high);

    /* a game over is judged as ai_outcome judges it; solo too, at any time */
    ax_rng rng;
    ax_rng_seed(&rng, 5);
    ai_scratch *s = ai_scratch_new();
    for (int k = 0; k < NCONFIGS; k++) {
        ax_game_init(&g, configs[k].variant, configs[k].players, configs[k].mode, 21, NULL);
        int plies = ai_playout_plies(&g, &ai_default_params, &rng, s, 6);
        assert_int_equal(plies, 6); /* no game ends in six decisions */
        assert_int_not_equal(g.phase, AX_PHASE_OVER);
        double e = ai_estimate(&g, 0, &ai_default_params, 3.0);
        assert_true(e >= 0.0 && e <= 1.0);
        if (configs[k].mode == AX_SOLO)
            assert_true(e == ai_outcome(&g, 0));
        ai_playout_plies(&g, &ai_default_params, &rng, s, -1);
        assert_int_equal(g.phase, AX_PHASE_OVER);
        assert_true(ai_estimate(&g, 0, &ai_default_params, 3.0) == ai_outcome(&g, 0));
    }
    ai_scratch_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_estimates_match_preview),
        cmocka_unit_test(test_policy_decisions_are_legal),
        cmocka_unit_test(test_policy_best_few),
        cmocka_unit_test(test_gains_favour_low_tracks),
        cmocka_unit_test(test_outcome_ranks_players),
        cmocka_unit_test(test_estimate_of_unfinished_games),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
