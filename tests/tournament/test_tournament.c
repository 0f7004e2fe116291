/*
 * test_tournament.c - tournament points, pairing and standings
 * (src/tournament, docs/tournaments.md).
 *
 * Points and tie-breaks are checked against examples worked by hand in the
 * comments beside them. The blossom matching is checked against exhaustive
 * search on random costs. Swiss tournaments of 7, 8, 9, 33 and 64 players
 * at 2, 3 and 4 seats are played over 6 rounds with random results from
 * fixed seeds, and every round is checked: everyone seated once at a table
 * of the right size or given a bye; byes and short tables fair; for up to 9
 * players, no fewer repeated meetings possible (exhaustive search over every
 * seating that respects the byes); from 33 players, no repeat at all; and no
 * swap of two players between two tables would lower the repeats or, at
 * equal repeats, the sum of squared score gaps. Arenas with players
 * finishing at random times check the same, with "met in the last game".
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "axio.h"
#include "seating.h"
#include "tournament.h"

/* --- points --- */

/* a ranking of `seats` seats from places by seat (0 = first) */
static ax_ranking ranking_of(int seats, const int *place_of_seat)
{
    ax_ranking r;
    r.n = seats;
    int k = 0;
    for (int p = 0; p < seats; p++)
        for (int s = 0; s < seats; s++)
            if (place_of_seat[s] == p) {
                r.order[k] = s;
                r.place[k] = p;
                k++;
            }
    return r;
}

static void check_points(int seats, const int *places, const bool *absent, const int *expect)
{
    ax_ranking r = ranking_of(seats, places);
    int pts[TN_MAX_SEATS] = {-1, -1, -1, -1};
    tn_table_points(seats, &r, absent, pts);
    for (int s = 0; s < seats; s++)
        assert_int_equal(pts[s], expect[s]);
}

static void test_points_by_place(void **state)
{
    (void)state;
    /* 2 seats: 2/0, a tie shares (2 + 0) / 2 = 1 point = 12 units */
    check_points(2, (int[]){1, 0}, NULL, (int[]){0, 24});
    check_points(2, (int[]){0, 0}, NULL, (int[]){12, 12});
    /* 3 seats: 3/1/0 */
    check_points(3, (int[]){2, 0, 1}, NULL, (int[]){0, 36, 12});
    /* two share first: (3 + 1) / 2 = 2 points each */
    check_points(3, (int[]){0, 0, 2}, NULL, (int[]){24, 24, 0});
    /* two share second: (1 + 0) / 2 = half a point = 6 units */
    check_points(3, (int[]){1, 0, 1}, NULL, (int[]){6, 36, 6});
    /* all three: (3 + 1 + 0) / 3 = 4/3 point = 16 units */
    check_points(3, (int[]){0, 0, 0}, NULL, (int[]){16, 16, 16});
    /* 4 seats: 4/2/1/0 */
    check_points(4, (int[]){3, 1, 0, 2}, NULL, (int[]){0, 24, 48, 12});
    /* second and third shared: (2 + 1) / 2 = 1.5 points = 18 */
    check_points(4, (int[]){0, 1, 1, 3}, NULL, (int[]){48, 18, 18, 0});
    /* three share first: (4 + 2 + 1) / 3 = 7/3 = 28 units */
    check_points(4, (int[]){0, 0, 3, 0}, NULL, (int[]){28, 28, 0, 28});
    /* all four: 7/4 = 21 units */
    check_points(4, (int[]){0, 0, 0, 0}, NULL, (int[]){21, 21, 21, 21});
    /* the sums of a table are always the same, whatever the ties */
    assert_int_equal(tn_place_points(4, 0) + tn_place_points(4, 1) + tn_place_points(4, 2) +
                         tn_place_points(4, 3),
                     7 * TN_UNITS);
    assert_int_equal(tn_bye_points(2), 12);
    assert_int_equal(tn_bye_points(3), 16);
    assert_int_equal(tn_bye_points(4), 21);
    assert_int_equal(tn_bye_points(5), 0);
}

static void test_points_absent(void **state)
{
    (void)state;
    /* a no-show ranked first by the engine (it never played: its tracks are
     * whatever) still scores nothing; the three who came take 4/2/1 */
    check_points(4, (int[]){0, 1, 2, 3}, (bool[]){true, false, false, false},
                 (int[]){0, 48, 24, 12});
    /* two no-shows: the two who came get 4 and 2 */
    check_points(4, (int[]){3, 2, 1, 0}, (bool[]){false, true, false, true}, (int[]){24, 0, 48, 0});
    /* a tie among those who came still shares: (4 + 2) / 2 */
    check_points(4, (int[]){0, 0, 2, 3}, (bool[]){false, false, true, false},
                 (int[]){36, 36, 0, 12});
    /* 2 seats, the opponent did not come: a win */
    check_points(2, (int[]){1, 0}, (bool[]){false, true}, (int[]){24, 0});
    /* nobody came */
    check_points(3, (int[]){0, 1, 2}, (bool[]){true, true, true}, (int[]){0, 0, 0});
}

static void test_points_bad_ranking(void **state)
{
    (void)state;
    int pts[4] = {7, 7, 7, 7};
    ax_ranking r = ranking_of(3, (int[]){0, 1, 2});
    tn_table_points(4, &r, NULL, pts); /* n 3 for 4 seats */
    assert_int_equal(pts[0] + pts[1] + pts[2] + pts[3], 0);
    assert_false(tn_ranking_valid(4, &r));
    r.order[1] = r.order[0]; /* not a permutation */
    assert_false(tn_ranking_valid(3, &r));
    r = ranking_of(3, (int[]){0, 1, 2});
    r.place[2] = 0; /* places going down the order */
    assert_false(tn_ranking_valid(3, &r));
    assert_false(tn_ranking_valid(5, &r));
    assert_false(tn_ranking_valid(3, NULL));
    tn_table_points(3, NULL, NULL, pts);
    assert_int_equal(pts[0] + pts[1] + pts[2], 0);
}

/* Real games of the engine: the points follow ax_rank, whatever the
 * variant and however many seats. */
static void test_points_from_engine(void **state)
{
    (void)state;
    ax_rng rng;
    ax_rng_seed(&rng, 50);
    for (int seats = 2; seats <= 4; seats++)
        for (int v = 0; v < 3; v++)
            for (int game = 0; game < 4; game++) {
                int variant = v == 0 ? AX_SQUARE : v == 1 ? AX_ROTA : AX_HEX;
                ax_game g;
                ax_game_init(&g, variant, seats, AX_STANDARD, 1000 + game, NULL);
                while (g.phase != AX_PHASE_OVER) {
                    ax_move m;
                    ax_random_move(&g, &rng, &m);
                    ax_apply(&g, &m, NULL);
                }
                ax_ranking r;
                ax_rank(&g, &r);
                int pts[TN_MAX_SEATS];
                tn_table_points(seats, &r, NULL, pts);
                int sum = 0;
                for (int s = 0; s < seats; s++)
                    sum += pts[s];
                assert_int_equal(sum, tn_bye_points(seats) * seats);
                for (int i = 1; i < seats; i++) {
                    int a = r.order[i - 1], b = r.order[i];
                    if (r.place[i] == r.place[i - 1])
                        assert_int_equal(pts[a], pts[b]);
                    else
                        assert_true(pts[a] > pts[b]);
                }
            }
}

/* --- standings --- */

static tn_table table2(int round, int a, int pa, int b, int pb)
{
    return (tn_table){round, 2, {a, b, -1, -1}, {pa, pb, 0, 0}, true};
}

/* Four players, 2 seats, two rounds:
 *   round 1: A(0) beats B(1) 24/0, C(2) beats D(3) 24/0
 *   round 2: A beats C 24/0, B and D tie 12/12
 * scores: A 48, B 12, C 24, D 12.
 * Buchholz (opponents' final scores): A: B + C = 36; B: A + D = 60;
 *   C: D + A = 60; D: C + B = 36.
 * Sonneborn-Berger (your share of 24 x opponent's score): A: 12 + 24 = 36;
 *   B: 0 + 12/24 x 12 = 6; C: 12 + 0 = 12; D: 0 + 6 = 6.
 * Order: A, C, then B and D at 12: B's Buchholz 60 beats D's 36. */
static void test_standings_two_seats(void **state)
{
    (void)state;
    tn_table t[4] = {table2(1, 0, 24, 1, 0), table2(1, 2, 24, 3, 0), table2(2, 0, 24, 2, 0),
                     table2(2, 1, 12, 3, 12)};
    tn_standing s[4];
    tn_standings(4, t, 4, false, s);
    int id[4] = {0, 2, 1, 3}, score[4] = {48, 24, 12, 12}, bh[4] = {36, 60, 60, 36},
        sb[4] = {36, 12, 6, 6};
    for (int i = 0; i < 4; i++) {
        assert_int_equal(s[i].id, id[i]);
        assert_int_equal(s[i].score, score[i]);
        assert_int_equal(s[i].tiebreak1, bh[i]);
        assert_int_equal(s[i].tiebreak2, sb[i]);
        assert_int_equal(s[i].games, 2);
        assert_int_equal(s[i].place, i + 1);
    }
}

/* Five players at 4 seats, a bye each round (a table of one seat), an
 * uncounted game, and two players who never played:
 *   round 1: {0,1,2,3}: 0 first 48, 1 and 2 share second 18 each, 3 last 0;
 *            4 has a bye: 21.
 *   round 2: {0,1,2,4}: 4 first 48, 0 24, 1 12, 2 0; 3 has a bye: 21.
 *   round 3: {0,1} not counted (still running at the end).
 * scores: 0: 72; 1: 30; 2: 18; 3: 21; 4: 69; 5 and 6: 0.
 * Buchholz, opponents' average at each table:
 *   table 1, all 141: 0 (141-72)/3 = 23, 1 111/3 = 37, 2 123/3 = 41, 3 40.
 *   table 2, all 189: 0 117/3 = 39, 1 159/3 = 53, 2 171/3 = 57, 4 120/3 = 40.
 *   0: 62, 1: 90, 2: 98, 3: 40, 4: 40.
 * Sonneborn-Berger, points / 48 x opponents' average:
 *   0: 48/48 x 23 + 24/48 x 39 = 42.5 -> 43; 1: 18/48 x 37 + 12/48 x 53
 *   = 27.125 -> 27; 2: 18/48 x 41 = 15.375 -> 15; 3: 0; 4: 48/48 x 40 = 40.
 * Order: 0 (72), 4 (69), 1 (30), 3 (21), 2 (18), then 5 and 6 share 6th. */
static void test_standings_four_seats(void **state)
{
    (void)state;
    tn_table t[5] = {
        {1, 4, {0, 1, 2, 3}, {48, 18, 18, 0}, true},  {1, 1, {4, -1, -1, -1}, {21, 0, 0, 0}, true},
        {2, 4, {2, 4, 1, 0}, {0, 48, 12, 24}, true},  {2, 1, {3, -1, -1, -1}, {21, 0, 0, 0}, true},
        {3, 2, {0, 1, -1, -1}, {0, 24, 0, 0}, false},
    };
    tn_standing s[7];
    tn_standings(7, t, 5, false, s);
    int id[7] = {0, 4, 1, 3, 2, 5, 6}, score[7] = {72, 69, 30, 21, 18, 0, 0},
        bh[7] = {62, 40, 90, 40, 98, 0, 0}, sb[7] = {43, 40, 27, 0, 15, 0, 0},
        games[7] = {2, 1, 2, 1, 2, 0, 0}, place[7] = {1, 2, 3, 4, 5, 6, 6};
    for (int i = 0; i < 7; i++) {
        assert_int_equal(s[i].id, id[i]);
        assert_int_equal(s[i].score, score[i]);
        assert_int_equal(s[i].tiebreak1, bh[i]);
        assert_int_equal(s[i].tiebreak2, sb[i]);
        assert_int_equal(s[i].games, games[i]);
        assert_int_equal(s[i].place, place[i]);
    }
}

/* Five players at 3 seats: a table of 3 and a short table of 2 each round.
 *   round 1: {0,1,2}: 0 first 36, 1 second 12, 2 last 0; {3,4}: 3 wins 24.
 *   round 2: {0,3,4}: 3 first 36, 0 and 4 share second (1 + 0) / 2 = 6;
 *            {1,2}: a tie, 12 each.
 * scores: 0: 42; 1: 24; 2: 12; 3: 60; 4: 6.
 * Buchholz (opponents' average at each table):
 *   0: (24 + 12) / 2 + (60 + 6) / 2 = 18 + 33 = 51
 *   1: (42 + 12) / 2 + 12 = 27 + 12 = 39
 *   2: (42 + 24) / 2 + 24 = 33 + 24 = 57
 *   3: 6 + (42 + 6) / 2 = 6 + 24 = 30
 *   4: 60 + (42 + 60) / 2 = 60 + 51 = 111
 * Sonneborn-Berger (points / first place's points x that average):
 *   0: 36/36 x 18 + 6/36 x 33 = 18 + 5.5 = 23.5 -> 24
 *   1: 12/36 x 27 + 12/24 x 12 = 9 + 6 = 15
 *   2: 0 + 12/24 x 24 = 12
 *   3: 24/24 x 6 + 36/36 x 24 = 30
 *   4: 0 + 6/36 x 51 = 8.5 -> 9 */
static void test_standings_three_seats(void **state)
{
    (void)state;
    tn_table t[4] = {
        {1, 3, {0, 1, 2, -1}, {36, 12, 0, 0}, true},
        table2(1, 3, 24, 4, 0),
        {2, 3, {4, 3, 0, -1}, {6, 36, 6, 0}, true},
        table2(2, 1, 12, 2, 12),
    };
    tn_standing s[5];
    tn_standings(5, t, 4, false, s);
    int id[5] = {3, 0, 1, 2, 4}, score[5] = {60, 42, 24, 12, 6}, bh[5] = {30, 51, 39, 57, 111},
        sb[5] = {30, 24, 15, 12, 9};
    for (int i = 0; i < 5; i++) {
        assert_int_equal(s[i].id, id[i]);
        assert_int_equal(s[i].score, score[i]);
        assert_int_equal(s[i].tiebreak1, bh[i]);
        assert_int_equal(s[i].tiebreak2, sb[i]);
        assert_int_equal(s[i].games, 2);
        assert_int_equal(s[i].place, i + 1);
    }
}

/* Three players at 3 seats: one table, all three tie: 16 each. Same score,
 * same tie-breaks (each opponent average 16: Buchholz 16, SB 16/36 x 16 =
 * 7.1 -> 7): all share first place. */
static void test_standings_shared_place(void **state)
{
    (void)state;
    tn_table t = {1, 3, {2, 0, 1, -1}, {16, 16, 16, 0}, true};
    tn_standing s[3];
    tn_standings(3, &t, 1, false, s);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(s[i].id, i);
        assert_int_equal(s[i].score, 16);
        assert_int_equal(s[i].tiebreak1, 16);
        assert_int_equal(s[i].tiebreak2, 7);
        assert_int_equal(s[i].place, 1);
    }
}

/* Arena, 2 seats, player 0's games in order (the array is shuffled):
 *   r1 win 24, r2 win 24, r3 (uncounted, a loss: ignored), r4 win on the
 *   streak 48, r5 draw on the streak 12 x 2 = 24 (ends it), r6 win 24,
 *   r7 win 24, r8 loss on the streak 0.
 *   total 24 + 24 + 48 + 24 + 24 + 24 + 0 = 168.
 * Player 1 never wins twice in a row: 12 + 24 = 36.
 * 4 seats, player 2: win 48, win 48, shared first (4 + 2) / 2 = 36 on the
 * streak: 72 (a shared first is no win: the streak ends), win 48 (not
 * doubled: one win in a row). 216. */
static void test_standings_arena_streaks(void **state)
{
    (void)state;
    tn_table t[12] = {
        table2(8, 0, 0, 1, 24),
        table2(2, 1, 0, 0, 24),
        table2(5, 0, 12, 1, 12),
        table2(1, 0, 24, 1, 0),
        table2(3, 0, 0, 1, 24),
        table2(7, 0, 24, 1, 0),
        table2(6, 1, 0, 0, 24),
        table2(4, 0, 24, 1, 0),
        {1, 4, {2, 3, 4, 5}, {48, 24, 12, 0}, true},
        {2, 4, {3, 2, 4, 5}, {24, 48, 12, 0}, true},
        {3, 4, {2, 3, 4, 5}, {36, 36, 12, 0}, true},
        {4, 4, {5, 4, 3, 2}, {0, 12, 24, 48}, true},
    };
    t[4].counted = false;
    tn_standing s[6];
    tn_standings(6, t, 12, true, s);
    assert_int_equal(s[0].id, 2);
    assert_int_equal(s[0].score, 216);
    assert_int_equal(s[1].id, 0);
    assert_int_equal(s[1].score, 168);
    assert_int_equal(s[1].games, 7);
    /* 3: 24 + 24 + 36 + 24 = 108 (never two wins); 4: 48; 5: 0 */
    assert_int_equal(s[2].id, 3);
    assert_int_equal(s[2].score, 108);
    assert_int_equal(s[3].id, 4);
    assert_int_equal(s[3].score, 48);
    assert_int_equal(s[4].id, 1);
    assert_int_equal(s[4].score, 36);
    assert_int_equal(s[5].id, 5);
    assert_int_equal(s[5].score, 0);
    for (int i = 0; i < 6; i++) {
        assert_int_equal(s[i].place, i + 1);
        assert_int_equal(s[i].tiebreak1, 0);
    }
    /* the same tables as a Swiss: no streaks, 0 has 24 + 24 + 24 + 12 + 24 +
     * 24 + 0 = 132 */
    tn_standings(6, t, 12, false, s);
    for (int i = 0; i < 6; i++)
        if (s[i].id == 0)
            assert_int_equal(s[i].score, 132);
}

static void test_standings_bad_tables(void **state)
{
    (void)state;
    /* unknown players, a player twice, a bad seat count: the table is left
     * out; the rest counts */
    tn_table t[4] = {
        table2(1, 0, 24, 9, 0),
        table2(1, 1, 24, 1, 0),
        {1, 5, {0, 1, 2, 3}, {0, 0, 0, 0}, true},
        table2(1, 2, 24, 3, 0),
    };
    tn_standing s[4];
    tn_standings(4, t, 4, false, s);
    assert_int_equal(s[0].id, 2);
    assert_int_equal(s[0].score, 24);
    assert_int_equal(s[0].games, 1);
    assert_int_equal(s[1].id, 3); /* lost to 2: Buchholz 24 */
    assert_int_equal(s[1].games, 1);
    for (int i = 2; i < 4; i++) { /* 0 and 1: their tables were left out */
        assert_int_equal(s[i].id, i - 2);
        assert_int_equal(s[i].score, 0);
        assert_int_equal(s[i].games, 0);
        assert_int_equal(s[i].place, 3);
    }
    tn_standings(4, NULL, 0, false, s); /* no tables: everyone shares first */
    for (int i = 0; i < 4; i++) {
        assert_int_equal(s[i].id, i);
        assert_int_equal(s[i].place, 1);
    }
}

/* --- the matching, against exhaustive search --- */

static int64_t best_cost(const int64_t *cost, int m, bool *used)
{
    int a = 0;
    while (a < m && used[a])
        a++;
    if (a == m)
        return 0;
    used[a] = true;
    int64_t best = INT64_MAX;
    for (int b = a + 1; b < m; b++)
        if (!used[b]) {
            used[b] = true;
            int64_t v = cost[a * m + b] + best_cost(cost, m, used);
            if (v < best)
                best = v;
            used[b] = false;
        }
    used[a] = false;
    return best;
}

/* the cost of a perfect matching, checked to be one */
static int64_t matching_cost(const int64_t *cost, int m, const int *mate)
{
    int64_t total = 0;
    for (int a = 0; a < m; a++) {
        assert_true(mate[a] >= 0 && mate[a] < m && mate[a] != a);
        assert_int_equal(mate[mate[a]], a);
        if (a < mate[a])
            total += cost[a * m + mate[a]];
    }
    return total;
}

static void test_matching_exhaustive(void **state)
{
    (void)state;
    ax_rng rng;
    ax_rng_seed(&rng, 7);
    for (int trial = 0; trial < 600; trial++) {
        int m = 2 * (1 + (int)ax_rng_below(&rng, 6)); /* 2..12 */
        int range = trial % 3 == 0 ? 3 : trial % 3 == 1 ? 50 : 100000;
        int64_t cost[144];
        for (int a = 0; a < m; a++) {
            cost[a * m + a] = 0;
            for (int b = a + 1; b < m; b++)
                cost[a * m + b] = cost[b * m + a] = ax_rng_below(&rng, (uint32_t)range);
        }
        tn_costs c = {m, cost, INT64_MAX};
        bool used[12] = {false};
        int64_t best = best_cost(cost, m, used);
        for (int warm = 0; warm < 2; warm++) {
            int mate[12];
            assert_true(tn_match_start(&c, mate, warm));
            assert_int_equal(matching_cost(cost, m, mate), best);
        }
    }
}

/* Larger graphs, beyond exhaustive search: the warm start (what the
 * pairing uses) finds matchings exactly as cheap as the textbook start,
 * on random costs with many ties and on Swiss-like costs (score groups,
 * rating order, repeats). */
static void test_matching_warm_cold(void **state)
{
    (void)state;
    ax_rng rng;
    ax_rng_seed(&rng, 8);
    int sizes[] = {14, 30, 64, 120, 250};
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++)
        for (int kind = 0; kind < 3; kind++) {
            int m = sizes[si];
            int64_t *cost = calloc((size_t)m * (size_t)m, sizeof(int64_t));
            int *level = malloc(sizeof(int) * (size_t)m);
            assert_non_null(cost);
            assert_non_null(level);
            for (int a = 0; a < m; a++)
                level[a] = (int)ax_rng_below(&rng, 6);
            for (int a = 0; a < m; a++)
                for (int b = a + 1; b < m; b++) {
                    int64_t v;
                    if (kind == 0)
                        v = ax_rng_below(&rng, 4);
                    else if (kind == 1)
                        v = ax_rng_below(&rng, 1000000);
                    else
                        v = 1000000LL * (ax_rng_below(&rng, 5) == 0) +
                            1000LL * (level[a] - level[b]) * (level[a] - level[b]) +
                            ax_rng_below(&rng, 20);
                    cost[a * m + b] = cost[b * m + a] = v;
                }
            tn_costs c = {m, cost, INT64_MAX};
            int *cold = malloc(sizeof(int) * (size_t)m), *warm = malloc(sizeof(int) * (size_t)m);
            assert_true(tn_match_start(&c, cold, false));
            assert_true(tn_match_start(&c, warm, true));
            assert_int_equal(matching_cost(cost, m, warm), matching_cost(cost, m, cold));
            free(cost), free(level), free(cold), free(warm);
        }
}

/* --- Swiss tournaments simulated --- */

typedef struct {
    int n, seats;
    tn_player p[64];
    uint16_t met[64 * 64];
    ax_rng rng;
} sim;

static void sim_init(sim *s, int n, int seats, uint64_t seed)
{
    memset(s, 0, sizeof *s);
    s->n = n;
    s->seats = seats;
    ax_rng_seed(&s->rng, seed);
    for (int i = 0; i < n; i++)
        s->p[i] = (tn_player){i, 1000 + (int)ax_rng_below(&s->rng, 1000), 0, 0, false};
}

/* repeated pairs at a table of these players */
static int table_repeats(const sim *s, const int *who, int k)
{
    int r = 0;
    for (int i = 0; i < k; i++)
        for (int j = i + 1; j < k; j++)
            r += s->met[who[i] * s->n + who[j]] > 3 ? 3 : s->met[who[i] * s->n + who[j]];
    return r;
}

static int64_t table_gaps(const sim *s, const int *who, int k)
{
    int64_t g = 0;
    for (int i = 0; i < k; i++)
        for (int j = i + 1; j < k; j++) {
            int64_t d = s->p[who[i]].score - s->p[who[j]].score;
            g += d * d;
        }
    return g;
}

/* exhaustive: the fewest repeats of any seating of the players `who` into
 * tables of the sizes given, where the players at short tables (size <
 * seats) never have more byes than any player at a full table */
typedef struct {
    const sim *s;
    const int *who;
    int k, n_tables;
    const int *size;
    int table_of[64], count[32];
    int best;
} search;

static void search_rec(search *x, int a, int repeats)
{
    if (repeats >= x->best)
        return;
    if (a == x->k) {
        int max_short = -1, min_full = 1 << 30;
        for (int i = 0; i < x->k; i++) {
            int b = x->s->p[x->who[i]].byes;
            if (x->size[x->table_of[i]] < x->s->seats)
                max_short = b > max_short ? b : max_short;
            else
                min_full = b < min_full ? b : min_full;
        }
        if (max_short <= min_full)
            x->best = repeats;
        return;
    }
    bool tried_empty[TN_MAX_SEATS + 1] = {false}; /* empty tables of a size are alike */
    for (int t = 0; t < x->n_tables; t++) {
        if (x->count[t] == x->size[t])
            continue;
        if (x->count[t] == 0) {
            if (tried_empty[x->size[t]])
                continue;
            tried_empty[x->size[t]] = true;
        }
        int add = 0;
        for (int i = 0; i < a; i++)
            if (x->table_of[i] == t)
                add += x->s->met[x->who[i] * x->s->n + x->who[a]] > 3
                           ? 3
                           : x->s->met[x->who[i] * x->s->n + x->who[a]];
        x->table_of[a] = t;
        x->count[t]++;
        search_rec(x, a + 1, repeats + add);
        x->count[t]--;
    }
}

/* the fewest repeats of any fair seating of everyone active but `bye` (-1:
 * nobody; byes of several players do not happen in these tests) at tables
 * of the sizes given */
static int min_repeats_without(const sim *s, int bye, int n_tables, const int *size)
{
    search x = {.s = s, .n_tables = n_tables, .size = size, .best = 1 << 30};
    int who[64], k = 0;
    for (int i = 0; i < s->n; i++)
        if (!s->p[i].withdrawn && i != bye)
            who[k++] = i;
    x.who = who;
    x.k = k;
    search_rec(&x, 0, 0);
    return x.best;
}

/* fewest byes first, then the lowest ranked (score, rating, the higher id) */
static bool bye_rank_before(const tn_player *x, const tn_player *y)
{
    if (x->byes != y->byes)
        return x->byes < y->byes;
    if (x->score != y->score)
        return x->score < y->score;
    if (x->rating != y->rating)
        return x->rating < y->rating;
    return x->id > y->id;
}

/* One round: pair, check, play random results. Returns the repeats made. */
static int sim_round(sim *s, bool exhaustive, int round)
{
    int n = s->n, seats = s->seats;
    int table[64], again[64];
    int n_tables = tn_swiss_pair(s->p, n, s->met, seats, table);
    /* deterministic: the same inputs, the same tables */
    assert_int_equal(tn_swiss_pair(s->p, n, s->met, seats, again), n_tables);
    assert_memory_equal(table, again, sizeof(int) * (size_t)n);
    int active = 0;
    for (int i = 0; i < n; i++)
        active += !s->p[i].withdrawn;
    int byes, tables, shorts;
    assert_true(tn_swiss_layout(active, seats, &byes, &tables, &shorts));
    assert_int_equal(n_tables, tables);
    /* who sits where */
    int members[32][TN_MAX_SEATS], count[32] = {0}, n_byes = 0;
    for (int i = 0; i < n; i++) {
        if (s->p[i].withdrawn) {
            assert_int_equal(table[i], -1);
            continue;
        }
        if (table[i] < 0) {
            n_byes++;
            continue;
        }
        assert_true(table[i] < n_tables);
        assert_true(count[table[i]] < seats);
        members[table[i]][count[table[i]]++] = i;
    }
    assert_int_equal(n_byes, byes);
    int n_short = 0;
    for (int t = 0; t < n_tables; t++) {
        assert_true(count[t] == seats || (count[t] == seats - 1 && seats > 2));
        n_short += count[t] < seats;
    }
    assert_int_equal(n_short, shorts);
    /* fair: nobody out (a bye or a short table) has more byes than anyone in */
    int max_out = -1, min_in = 1 << 30;
    for (int i = 0; i < n; i++) {
        if (s->p[i].withdrawn)
            continue;
        bool out = table[i] < 0 || count[table[i]] < seats;
        int b = s->p[i].byes;
        if (out)
            max_out = b > max_out ? b : max_out;
        else
            min_in = b < min_in ? b : min_in;
    }
    assert_true(max_out <= min_in);
    int repeats = 0;
    for (int t = 0; t < n_tables; t++)
        repeats += table_repeats(s, members[t], count[t]);
    /* no swap of two players between two tables does better */
    for (int t = 0; t < n_tables; t++)
        for (int u = t + 1; u < n_tables; u++)
            for (int i = 0; i < count[t]; i++)
                for (int j = 0; j < count[u]; j++) {
                    int p = members[t][i], q = members[u][j];
                    if (count[t] != count[u] && s->p[p].byes != s->p[q].byes)
                        continue;
                    int a[TN_MAX_SEATS], b[TN_MAX_SEATS];
                    memcpy(a, members[t], sizeof a);
                    memcpy(b, members[u], sizeof b);
                    int r0 = table_repeats(s, a, count[t]) + table_repeats(s, b, count[u]);
                    int64_t g0 = table_gaps(s, a, count[t]) + table_gaps(s, b, count[u]);
                    a[i] = q;
                    b[j] = p;
                    int r1 = table_repeats(s, a, count[t]) + table_repeats(s, b, count[u]);
                    int64_t g1 = table_gaps(s, a, count[t]) + table_gaps(s, b, count[u]);
                    assert_true(r1 >= r0);
                    if (r1 == r0 && g1 < g0)
                        fail_msg("n %d seats %d round %d: swapping %d and %d lowers the score "
                                 "gaps %lld -> %lld",
                                 n, seats, round, p, q, (long long)g0, (long long)g1);
                }
    /* The bye: the lowest ranked of the fewest byes, unless another
     * player's bye lets the rest repeat fewer meetings (checked by
     * exhaustive search); up to 9 players, no seating with any fair bye
     * repeats fewer meetings than this one. */
    int lowest = -1, bye = -1;
    for (int i = 0; i < n; i++) {
        if (s->p[i].withdrawn)
            continue;
        if (table[i] < 0)
            bye = i;
        if (lowest < 0 || bye_rank_before(&s->p[i], &s->p[lowest]))
            lowest = i;
    }
    if (byes == 1 && (bye != lowest || exhaustive)) {
        int size[32];
        for (int t = 0; t < n_tables; t++)
            size[t] = count[t];
        int best = 1 << 30;
        for (int c = 0; c < n; c++) {
            if (s->p[c].withdrawn || s->p[c].byes != s->p[lowest].byes)
                continue;
            if (!exhaustive && c != lowest)
                continue;
            int r = min_repeats_without(s, c, n_tables, size);
            if (c == lowest && bye != lowest && r <= repeats)
                fail_msg("n %d round %d: the bye went to %d, not %d, for no fewer repeats", n,
                         round, bye, lowest);
            best = r < best ? r : best;
        }
        if (exhaustive && best < repeats)
            fail_msg("n %d seats %d round %d: %d repeats where another bye allowed %d", n, seats,
                     round, repeats, best);
    } else if (exhaustive) {
        int size[32];
        for (int t = 0; t < n_tables; t++)
            size[t] = count[t];
        int best = min_repeats_without(s, bye, n_tables, size);
        if (best < repeats)
            fail_msg("n %d seats %d round %d: %d repeats where %d were possible", n, seats, round,
                     repeats, best);
    }
    /* play: random places with some ties */
    for (int t = 0; t < n_tables; t++) {
        int k = count[t], places[TN_MAX_SEATS];
        for (int i = 0; i < k; i++)
            places[i] = (int)ax_rng_below(&s->rng, (uint32_t)k);
        /* as the engine gives them: dense ranks of the drawn values */
        int sorted[TN_MAX_SEATS];
        for (int i = 0; i < k; i++) {
            int rank = 0;
            for (int j = 0; j < k; j++)
                rank += places[j] < places[i];
            sorted[i] = rank;
        }
        ax_ranking r;
        r.n = k;
        int pos = 0, place = 0;
        for (int v = 0; v < k; v++) {
            bool any = false;
            for (int i = 0; i < k; i++)
                if (sorted[i] == v) {
                    r.order[pos] = i;
                    r.place[pos] = place;
                    pos++;
                    any = true;
                }
            place += any;
        }
        int pts[TN_MAX_SEATS];
        tn_table_points(k, &r, NULL, pts);
        for (int i = 0; i < k; i++) {
            s->p[members[t][i]].score += pts[i];
            for (int j = 0; j < k; j++)
                if (i != j)
                    s->met[members[t][i] * n + members[t][j]]++;
        }
        if (k < seats)
            for (int i = 0; i < k; i++)
                s->p[members[t][i]].byes++;
    }
    for (int i = 0; i < n; i++)
        if (!s->p[i].withdrawn && table[i] < 0) {
            s->p[i].byes++;
            s->p[i].score += tn_bye_points(seats);
        }
    return repeats;
}

static void swiss_many(int n, int seats, int rounds, uint64_t seed)
{
    sim *s = malloc(sizeof *s);
    assert_non_null(s);
    sim_init(s, n, seats, seed);
    for (int r = 0; r < rounds; r++) {
        if (n >= 33 && r == 3)
            s->p[5].withdrawn = true; /* someone leaves mid-way */
        int repeats = sim_round(s, n <= 9, r);
        if (n >= 33 && repeats)
            fail_msg("n %d seats %d round %d seed %d: %d repeats", n, seats, r, (int)seed, repeats);
    }
    free(s);
}

static void test_swiss_small(void **state)
{
    (void)state;
    for (int seats = 2; seats <= 4; seats++)
        for (int n = 7; n <= 9; n++)
            for (uint64_t seed = 1; seed <= 6; seed++)
                swiss_many(n, seats, 6, seed * 100 + (uint64_t)n);
}

static void test_swiss_large(void **state)
{
    (void)state;
    for (int seats = 2; seats <= 4; seats++)
        for (uint64_t seed = 1; seed <= 3; seed++) {
            swiss_many(33, seats, 6, seed);
            swiss_many(64, seats, 6, seed);
        }
}

static void test_swiss_layout(void **state)
{
    (void)state;
    int b, t, sh;
    /* 2 seats: odd counts give one bye */
    assert_true(tn_swiss_layout(9, 2, &b, &t, &sh));
    assert_true(b == 1 && t == 4 && sh == 0);
    /* 3 seats: n % 3 == 1 two tables of 2, == 2 one */
    assert_true(tn_swiss_layout(7, 3, &b, &t, &sh));
    assert_true(b == 0 && t == 3 && sh == 2);
    assert_true(tn_swiss_layout(8, 3, &b, &t, &sh));
    assert_true(b == 0 && t == 3 && sh == 1);
    assert_true(tn_swiss_layout(1, 3, &b, &t, &sh));
    assert_true(b == 1 && t == 0 && sh == 0);
    /* 4 seats: 9 are three tables of 3; 5 a table of 4 and a bye */
    assert_true(tn_swiss_layout(9, 4, &b, &t, &sh));
    assert_true(b == 0 && t == 3 && sh == 3);
    assert_true(tn_swiss_layout(5, 4, &b, &t, &sh));
    assert_true(b == 1 && t == 1 && sh == 0);
    assert_true(tn_swiss_layout(7, 4, &b, &t, &sh));
    assert_true(b == 0 && t == 2 && sh == 1);
    assert_true(tn_swiss_layout(2, 4, &b, &t, &sh));
    assert_true(b == 2 && t == 0);
    assert_false(tn_swiss_layout(8, 5, &b, &t, &sh));
    assert_false(tn_swiss_layout(-1, 2, &b, &t, &sh));
}

/* Round 1 of 8 players at 2 seats, all on 0 points: the top half of the
 * rating order meets the bottom half (1-5, 2-6, 3-7, 4-8). */
static void test_swiss_first_round(void **state)
{
    (void)state;
    tn_player p[8];
    for (int i = 0; i < 8; i++)
        p[i] = (tn_player){i, 2000 - 100 * i, 0, 0, false};
    uint16_t met[64] = {0};
    int t[8];
    assert_int_equal(tn_swiss_pair(p, 8, met, 2, t), 4);
    for (int i = 0; i < 4; i++) {
        assert_int_equal(t[i], i);
        assert_int_equal(t[i + 4], i);
    }
    /* the same inputs, the same tables */
    int again[8];
    assert_int_equal(tn_swiss_pair(p, 8, met, 2, again), 4);
    assert_memory_equal(t, again, sizeof t);
    /* no meetings given: the same as none */
    assert_int_equal(tn_swiss_pair(p, 8, NULL, 2, again), 4);
    assert_memory_equal(t, again, sizeof t);
}

/* The leader (alone on top) meets the best of the next group, never the
 * bottom, and two who met are kept apart when they can be. */
static void test_swiss_score_groups(void **state)
{
    (void)state;
    tn_player p[6];
    int score[6] = {48, 24, 24, 24, 0, 0};
    for (int i = 0; i < 6; i++)
        p[i] = (tn_player){i, 1500, score[i], 0, false};
    uint16_t met[36] = {0};
    int t[6];
    assert_int_equal(tn_swiss_pair(p, 6, met, 2, t), 3);
    assert_int_equal(t[0], t[1]); /* 48 meets the top 24 */
    assert_int_equal(t[4], t[5]);
    met[0 * 6 + 1] = met[1 * 6 + 0] = 1; /* 0 and 1 met: 0 meets another 24 */
    assert_int_equal(tn_swiss_pair(p, 6, met, 2, t), 3);
    assert_true(t[0] == t[2] || t[0] == t[3]);
    assert_int_equal(t[4], t[5]);
    /* everyone met everyone: a pairing is still made */
    for (int i = 0; i < 36; i++)
        met[i] = i % 7 != 0;
    assert_int_equal(tn_swiss_pair(p, 6, met, 2, t), 3);
    for (int i = 0; i < 6; i++)
        assert_true(t[i] >= 0 && t[i] < 3);
}

/* Five players at 2 seats, 0 has met 1, 2 and 3. A bye for 4 (the lowest
 * ranked) would leave 0 only opponents met before; a bye for 3 (the next
 * lowest) lets 0 meet 4 and 1 meet 2: 3 gets it. */
static void test_swiss_bye_avoids_repeat(void **state)
{
    (void)state;
    tn_player p[5];
    for (int i = 0; i < 5; i++)
        p[i] = (tn_player){i, 2000 - 100 * i, 0, 0, false};
    uint16_t met[25] = {0};
    for (int j = 1; j <= 3; j++)
        met[0 * 5 + j] = met[j * 5 + 0] = 1;
    int t[5];
    assert_int_equal(tn_swiss_pair(p, 5, met, 2, t), 2);
    assert_int_equal(t[3], -1);
    assert_int_equal(t[0], t[4]);
    assert_int_equal(t[1], t[2]);
    /* 3 already had a bye: of the others (fairness first) 4's bye still
     * forces a repeat, 2's does not (0-4, 1-3) */
    p[3].byes = 1;
    assert_int_equal(tn_swiss_pair(p, 5, met, 2, t), 2);
    assert_int_equal(t[2], -1);
    assert_int_equal(t[0], t[4]);
    /* 1, 2, 3 had one: only 4 and 0 may have it; 0's avoids the repeat */
    p[1].byes = p[2].byes = 1;
    assert_int_equal(tn_swiss_pair(p, 5, met, 2, t), 2);
    assert_int_equal(t[0], -1);
    /* everyone but 4 had one: 4 gets it, and 0 meets an opponent again */
    p[0].byes = 1;
    assert_int_equal(tn_swiss_pair(p, 5, met, 2, t), 2);
    assert_int_equal(t[4], -1);
}

static void test_swiss_bad_input(void **state)
{
    (void)state;
    tn_player p[4];
    for (int i = 0; i < 4; i++)
        p[i] = (tn_player){i, 1500, 0, 0, false};
    uint16_t met[16] = {0};
    int t[4] = {9, 9, 9, 9};
    assert_int_equal(tn_swiss_pair(p, 4, met, 5, t), -1);
    assert_int_equal(tn_swiss_pair(p, 4, met, 1, t), -1);
    assert_int_equal(tn_swiss_pair(p, 0, met, 2, t), -1);
    assert_int_equal(tn_swiss_pair(p, TN_MAX_PLAYERS + 1, met, 2, t), -1);
    assert_int_equal(tn_swiss_pair(NULL, 4, met, 2, t), -1);
    assert_int_equal(tn_swiss_pair(p, 4, met, 2, NULL), -1);
    p[2].id = 3; /* ids must be the indexes */
    assert_int_equal(tn_swiss_pair(p, 4, met, 2, t), -1);
    p[2].id = 2;
    p[1].byes = -1;
    assert_int_equal(tn_swiss_pair(p, 4, met, 2, t), -1);
    for (int i = 0; i < 4; i++)
        assert_int_equal(t[i], 9); /* nothing written */
    /* everyone withdrawn: no tables */
    p[1].byes = 0;
    for (int i = 0; i < 4; i++)
        p[i].withdrawn = true;
    assert_int_equal(tn_swiss_pair(p, 4, met, 2, t), 0);
    for (int i = 0; i < 4; i++)
        assert_int_equal(t[i], -1);
}

/* --- arena --- */

static void test_arena_basic(void **state)
{
    (void)state;
    tn_player p[6];
    for (int i = 0; i < 6; i++)
        p[i] = (tn_player){i, 1500 - i, 0, 0, false};
    int last[6 * TN_MAX_SEATS];
    for (int i = 0; i < 6 * TN_MAX_SEATS; i++)
        last[i] = -1;
    /* 0 and 1 just played each other, as did 2 and 3 */
    last[0 * TN_MAX_SEATS] = 1;
    last[1 * TN_MAX_SEATS] = 0;
    last[2 * TN_MAX_SEATS] = 3;
    last[3 * TN_MAX_SEATS] = 2;
    int waiting[5] = {0, 1, 2, 3, 4}, t[5];
    assert_int_equal(tn_arena_pair(p, 6, last, waiting, 4, 2, t), 2);
    assert_true(t[0] != t[1] && t[2] != t[3]);
    /* five waiting: the last to arrive (4) keeps waiting */
    assert_int_equal(tn_arena_pair(p, 6, last, waiting, 5, 2, t), 2);
    assert_int_equal(t[4], -1);
    /* only 0 and 1 wait: they play again rather than wait */
    assert_int_equal(tn_arena_pair(p, 6, last, waiting, 2, 2, t), 1);
    assert_true(t[0] == 0 && t[1] == 0);
    /* three waiting at 4 seats: nobody plays yet */
    assert_int_equal(tn_arena_pair(p, 6, last, waiting, 3, 4, t), 0);
    assert_true(t[0] == -1 && t[1] == -1 && t[2] == -1);
    /* bad input: unknown player, one waiting twice, bad seats */
    int twice[2] = {1, 1}, unknown[2] = {1, 6};
    t[0] = t[1] = 7;
    assert_int_equal(tn_arena_pair(p, 6, last, twice, 2, 2, t), -1);
    assert_int_equal(tn_arena_pair(p, 6, last, unknown, 2, 2, t), -1);
    assert_int_equal(tn_arena_pair(p, 6, last, waiting, 2, 5, t), -1);
    assert_true(t[0] == 7 && t[1] == 7);
}

/* whether a and b played each other in the last game of either */
static int rematch(const int *last, int a, int b)
{
    for (int l = 0; l < TN_MAX_SEATS; l++)
        if (last[a * TN_MAX_SEATS + l] == b || last[b * TN_MAX_SEATS + l] == a)
            return 1;
    return 0;
}

/* the fewest rematched pairs of any seating of who[0..k-1] at tables of
 * `seats` (exhaustive; k <= 12) */
static int arena_best(const int *last, const int *who, int k, int seats, int *table_of, int *count,
                      int a, int so_far, int best)
{
    if (so_far >= best)
        return best;
    if (a == k)
        return so_far;
    bool tried_empty = false;
    for (int t = 0; t < k / seats; t++) {
        if (count[t] == seats)
            continue;
        if (count[t] == 0) {
            if (tried_empty)
                continue;
            tried_empty = true;
        }
        int add = 0;
        for (int i = 0; i < a; i++)
            if (table_of[i] == t)
                add += rematch(last, who[i], who[a]);
        table_of[a] = t;
        count[t]++;
        best = arena_best(last, who, k, seats, table_of, count, a + 1, so_far + add, best);
        count[t]--;
    }
    return best;
}

/* An arena of 40 players at 2, 3, 4 seats: games end at random times, the
 * players come back to wait in the order their games end, and every pairing
 * is checked: full tables only, the latest arrivals left over, nobody left
 * waiting while a later arrival plays, and no swap of two players between
 * two tables would lower the rematches or the score gaps. */
static void test_arena_simulated(void **state)
{
    (void)state;
    enum { N = 40 };
    for (int seats = 2; seats <= 4; seats++) {
        ax_rng rng;
        ax_rng_seed(&rng, 90 + (uint64_t)seats);
        tn_player p[N];
        int last[N * TN_MAX_SEATS], ends[N], waiting[N], n_waiting = 0, table[N];
        for (int i = 0; i < N; i++) {
            p[i] = (tn_player){i, 1000 + (int)ax_rng_below(&rng, 1000), 0, 0, false};
            ends[i] = -1;
            waiting[n_waiting++] = i; /* all wait at the start */
        }
        for (int i = 0; i < N * TN_MAX_SEATS; i++)
            last[i] = -1;
        int rematches = 0, tables_made = 0, small_checks = 0;
        for (int clock = 0; clock < 400; clock++) {
            /* games ending now: their players come back, in seat order */
            for (int i = 0; i < N; i++)
                if (ends[i] == clock) {
                    waiting[n_waiting++] = i;
                    ends[i] = -1;
                }
            if (n_waiting < seats)
                continue;
            int n_tab = tn_arena_pair(p, N, last, waiting, n_waiting, seats, table);
            assert_int_equal(n_tab, n_waiting / seats);
            int count[N] = {0}, members[N][TN_MAX_SEATS];
            for (int k = 0; k < n_waiting; k++) {
                if (k < n_tab * seats) {
                    assert_true(table[k] >= 0 && table[k] < n_tab);
                    members[table[k]][count[table[k]]++] = waiting[k];
                } else {
                    assert_int_equal(table[k], -1);
                }
            }
            for (int t = 0; t < n_tab; t++)
                assert_int_equal(count[t], seats);
            /* few waiting: no seating of them has fewer rematches */
            if (n_tab * seats <= 9) {
                int ours = 0, tab_of[12], cnt[12] = {0};
                for (int t = 0; t < n_tab; t++)
                    ours += arena_best(last, members[t], seats, seats, tab_of, cnt, 0, 0, 1 << 30);
                int best =
                    arena_best(last, waiting, n_tab * seats, seats, tab_of, cnt, 0, 0, 1 << 30);
                assert_int_equal(ours, best);
                small_checks++;
            }
            /* local optimality: (rematches, score gaps) */
            for (int t = 0; t < n_tab; t++)
                for (int u = t + 1; u < n_tab; u++)
                    for (int i = 0; i < seats; i++)
                        for (int j = 0; j < seats; j++) {
                            int cost[2][2];
                            int64_t gap[2] = {0, 0};
                            for (int variant = 0; variant < 2; variant++) {
                                int a[TN_MAX_SEATS], b[TN_MAX_SEATS];
                                memcpy(a, members[t], sizeof a);
                                memcpy(b, members[u], sizeof b);
                                if (variant) {
                                    a[i] = members[u][j];
                                    b[j] = members[t][i];
                                }
                                int r = 0;
                                for (int side = 0; side < 2; side++) {
                                    int *x = side ? b : a;
                                    for (int e = 0; e < seats; e++)
                                        for (int f = 0; f < seats; f++) {
                                            if (e == f)
                                                continue;
                                            for (int l = 0; l < TN_MAX_SEATS; l++)
                                                r += last[x[e] * TN_MAX_SEATS + l] == x[f];
                                            if (e < f) {
                                                int64_t d = p[x[e]].score - p[x[f]].score;
                                                gap[variant] += d * d;
                                            }
                                        }
                                }
                                cost[variant][0] = r;
                            }
                            assert_true(cost[1][0] >= cost[0][0]);
                            if (cost[1][0] == cost[0][0])
                                assert_true(gap[1] >= gap[0]);
                        }
            /* play: each table lasts 1..8 ticks, a random winner */
            for (int t = 0; t < n_tab; t++) {
                int winner = (int)ax_rng_below(&rng, (uint32_t)seats);
                int length = 1 + (int)ax_rng_below(&rng, 8);
                for (int i = 0; i < seats; i++) {
                    int pl = members[t][i];
                    for (int j = 0; j < seats; j++)
                        if (j != i)
                            for (int l = 0; l < TN_MAX_SEATS; l++)
                                rematches += last[pl * TN_MAX_SEATS + l] == members[t][j];
                    int l = 0;
                    for (int j = 0; j < seats; j++)
                        if (j != i)
                            last[pl * TN_MAX_SEATS + l++] = members[t][j];
                    while (l < TN_MAX_SEATS)
                        last[pl * TN_MAX_SEATS + l++] = -1;
                    p[pl].score += tn_place_points(seats, i == winner ? 0 : seats - 1);
                    ends[pl] = clock + length;
                }
                tables_made++;
            }
            /* the leftover keep waiting, in their order */
            int keep = 0;
            for (int k = n_tab * seats; k < n_waiting; k++)
                waiting[keep++] = waiting[k];
            n_waiting = keep;
        }
        assert_true(tables_made > 100);
        assert_true(small_checks > 10);
        print_message("arena seats %d: %d tables, %d rematched pairs (players who came back "
                      "together and found nobody else waiting), %d exhaustive checks\n",
                      seats, tables_made, rematches, small_checks);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_points_by_place),
        cmocka_unit_test(test_points_absent),
        cmocka_unit_test(test_points_bad_ranking),
        cmocka_unit_test(test_points_from_engine),
        cmocka_unit_test(test_standings_two_seats),
        cmocka_unit_test(test_standings_four_seats),
        cmocka_unit_test(test_standings_three_seats),
        cmocka_unit_test(test_standings_shared_place),
        cmocka_unit_test(test_standings_arena_streaks),
        cmocka_unit_test(test_standings_bad_tables),
        cmocka_unit_test(test_matching_exhaustive),
        cmocka_unit_test(test_matching_warm_cold),
        cmocka_unit_test(test_swiss_layout),
        cmocka_unit_test(test_swiss_first_round),
        cmocka_unit_test(test_swiss_score_groups),
        cmocka_unit_test(test_swiss_bye_avoids_repeat),
        cmocka_unit_test(test_swiss_bad_input),
        cmocka_unit_test(test_swiss_small),
        cmocka_unit_test(test_swiss_large),
        cmocka_unit_test(test_arena_basic),
        cmocka_unit_test(test_arena_simulated),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
