/*
 * test_leave.c - leaving a game (rules.md section 6) on real games: two
 * sides end at once, three or four sides play on with the leaver's seat still
 * asked, the ranking puts leavers last, solo ends with its result; illegal
 * leaves change nothing; records with leaves replay, tampered ones do not.
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
#include "fixtures.h"
#include "record.h"

static const struct {
    int variant, players, mode;
} configs[] = {
    {AX_SQUARE, 1, AX_SOLO},     {AX_SQUARE, 2, AX_STANDARD}, {AX_SQUARE, 3, AX_STANDARD},
    {AX_SQUARE, 4, AX_STANDARD}, {AX_ROTA, 1, AX_SOLO},       {AX_ROTA, 2, AX_STANDARD},
    {AX_ROTA, 3, AX_STANDARD},   {AX_ROTA, 4, AX_STANDARD},   {AX_HEX, 1, AX_SOLO},
    {AX_HEX, 2, AX_STANDARD},    {AX_HEX, 3, AX_STANDARD},    {AX_HEX, 4, AX_STANDARD},
    {AX_HEX, 4, AX_TEAM},
};
#define NCONFIGS (int)(sizeof configs / sizeof configs[0])

static ax_move leave_move(int seat, int why)
{
    ax_move m;
    memset(&m, 0, sizeof m);
    m.kind = AX_MOVE_LEAVE;
    m.wild = AX_NO_COLOR;
    m.seat = (uint8_t)seat;
    m.why = (uint8_t)why;
    return m;
}

/* Plays `plies` random decisions (fewer if the game ends). */
static void play_some(ax_game *g, ax_rng *rng, int plies)
{
    for (int k = 0; k < plies && g->phase != AX_PHASE_OVER; k++) {
        ax_move m;
        ax_random_move(g, rng, &m);
        assert_int_equal(ax_apply(g, &m, NULL), AX_OK);
    }
}

static void play_to_end(ax_game *g, ax_rng *rng) { play_some(g, rng, 100000); }

/* Applies a leave that must be legal; checks its leave event and whether an
 * end event follows. */
static void leave_ok(ax_game *g, int seat, int why, bool ends)
{
    ax_events ev;
    uint16_t ply = g->ply;
    int nleft = g->nleft;
    ax_move m = leave_move(seat, why);
    assert_int_equal(ax_check(g, &m), AX_OK);
    assert_int_equal(ax_apply(g, &m, &ev), AX_OK);
    assert_true(ax_game_consistent(g));
    assert_int_equal(g->ply, ply + 1); /* a decision like any other */
    assert_int_equal(g->nleft, nleft + 1);
    assert_int_equal(g->left[seat], nleft + 1);
    assert_int_equal(g->left_why[seat], why);
    assert_int_equal(ev.n, ends ? 2 : 1);
    assert_int_equal(ev.ev[0].kind, AX_EV_LEAVE);
    assert_int_equal(ev.ev[0].player, seat);
    assert_int_equal(ev.ev[0].why, why);
    if (ends) {
        assert_int_equal(ev.ev[1].kind, AX_EV_END);
        assert_int_equal(ev.ev[1].reason, AX_END_LEFT);
        assert_int_equal(g->phase, AX_PHASE_OVER);
        assert_int_equal(g->end_reason, AX_END_LEFT);
    } else {
        assert_int_not_equal(g->phase, AX_PHASE_OVER);
    }
}

/* The game after a leave equals the game before in every byte but the
 * leave's own fields: the turn, the phase, pending bonus moves stay. */
static void assert_only_leave_changed(const ax_game *before, const ax_game *after, int seat)
{
    ax_game copy = *after;
    copy.ply = before->ply;
    copy.nleft = before->nleft;
    copy.left[seat] = before->left[seat];
    copy.left_why[seat] = before->left_why[seat];
    assert_memory_equal(&copy, before, sizeof copy);
}

static void assert_ranking(const ax_game *g, int n, const int *order, const int *place)
{
    ax_ranking r;
    ax_rank(g, &r);
    assert_int_equal(r.n, n);
    for (int i = 0; i < n; i++) {
        assert_int_equal(r.order[i], order[i]);
        assert_int_equal(r.place[i], place[i]);
    }
}

static void test_record_lines(void **state)
{
    (void)state;
    ax_game g;
    ax_events ev;
    ax_game_init(&g, AX_SQUARE, 2, AX_STANDARD, 8, NULL);
    ax_move m = leave_move(1, AX_LEAVE_RESIGN);
    assert_int_equal(ax_apply(&g, &m, &ev), AX_OK);
    const int viewers[] = {AX_VIEWER_ALL, AX_VIEWER_SPECTATOR, 0, 1};
    for (int v = 0; v < 4; v++) { /* public: the same line for everyone */
        char *line = fixture_dump(ax_record_event(&g, &ev.ev[0], viewers[v]));
        assert_string_equal(line, "{\"ev\":\"leave\",\"player\":1,\"why\":\"resign\"}");
        free(line);
    }
    json_t *end = ax_record_event(&g, &ev.ev[1], AX_VIEWER_ALL);
    assert_string_equal(json_string_value(json_object_get(end, "reason")), "left");
    char *ranking = json_dumps(json_object_get(end, "ranking"), JSON_COMPACT);
    assert_string_equal(ranking, "[[0],[1]]");
    free(ranking);
    json_decref(end);
    assert_string_equal(ax_leave_why_name(AX_LEAVE_TIMEOUT), "timeout");
    assert_int_equal(ax_leave_why_parse("absent"), AX_LEAVE_ABSENT);
    assert_int_equal(ax_leave_why_parse("bored"), -1);
    assert_string_equal(ax_end_reason_name(AX_END_LEFT), "left");
}

/* Two players: a resignation ends the game at once; the one who stayed is
 * first even with the worse tracks. */
static void test_two_players_end_at_once(void **state)
{
    (void)state;
    for (int variant = AX_SQUARE; variant <= AX_HEX; variant++)
        for (int leaver = 0; leaver < 2; leaver++) {
            ax_game g;
            ax_rng rng;
            ax_rng_seed(&rng, 4);
            ax_game_init(&g, variant, 2, AX_STANDARD, 4, NULL);
            play_some(&g, &rng, 6);
            for (int c = 0; c < g.ncolors; c++) /* the leaver leads by far */
                g.track[leaver][c] = (uint8_t)(ax_max_score(&g) - 1);
            uint8_t tracks[AX_MAX_PLAYERS][AX_MAX_COLORS];
            memcpy(tracks, g.track, sizeof tracks);
            int to_move = g.to_move;
            leave_ok(&g, leaver, AX_LEAVE_RESIGN, true);
            assert_memory_equal(tracks, g.track, sizeof tracks); /* tracks stay */
            assert_int_equal(g.to_move, to_move);
            const int order[2] = {1 - leaver, leaver}, place[2] = {0, 1};
            assert_ranking(&g, 2, order, place);
        }
}

/* Hex team: one partner leaves, the game ends, both partners rank last
 * together, both who stayed first together. */
static void test_team_partner_leaves(void **state)
{
    (void)state;
    for (int leaver = 0; leaver < 4; leaver++) {
        ax_game g;
        ax_rng rng;
        ax_rng_seed(&rng, 6);
        ax_game_init(&g, AX_HEX, 4, AX_TEAM, 6, NULL);
        play_some(&g, &rng, 9);
        leave_ok(&g, leaver, AX_LEAVE_ABSENT, true);
        int stay = (leaver + 1) % 2, gone = leaver % 2;
        const int order[4] = {stay, stay + 2, gone, gone + 2}, place[4] = {0, 0, 1, 1};
        assert_ranking(&g, 4, order, place);
    }
}

/* Three or four sides: a leave changes nothing but the leave fields, the
 * game plays on to its normal end, and the leavers rank last. */
static void test_three_and_four_players_go_on(void **state)
{
    (void)state;
    for (int variant = AX_SQUARE; variant <= AX_HEX; variant++) {
        ax_game g, before;
        ax_rng rng;
        ax_rng_seed(&rng, 12);
        ax_game_init(&g, variant, 3, AX_STANDARD, 12, NULL);
        play_some(&g, &rng, 5);
        int leaver = (g.to_move + 1) % 3; /* not the seat to move */
        before = g;
        leave_ok(&g, leaver, AX_LEAVE_TIMEOUT, false);
        assert_only_leave_changed(&before, &g, leaver);
        play_to_end(&g, &rng);
        assert_int_not_equal(g.end_reason, AX_END_LEFT);
        assert_true(ax_game_consistent(&g));
        ax_ranking r;
        ax_rank(&g, &r);
        assert_int_equal(r.order[2], leaver);
        assert_true(r.place[2] > r.place[1]);
        int a = r.order[0], b = r.order[1]; /* the two who stayed, by 1.2 */
        int cmp = ax_compare_tracks(g.track[a], g.track[b], g.ncolors);
        assert_true(cmp >= 0);
        assert_int_equal(r.place[1], cmp == 0 ? 0 : 1);

        /* four players: two leave, the later ranks above the earlier */
        ax_game_init(&g, variant, 4, AX_STANDARD, 13, NULL);
        play_some(&g, &rng, 7);
        leave_ok(&g, 2, AX_LEAVE_RESIGN, false);
        play_some(&g, &rng, 3);
        leave_ok(&g, 0, AX_LEAVE_ABSENT, false);
        play_to_end(&g, &rng);
        assert_int_not_equal(g.end_reason, AX_END_LEFT);
        ax_rank(&g, &r);
        assert_int_equal(r.order[2], 0);
        assert_int_equal(r.order[3], 2);
        assert_true(r.place[3] > r.place[2] && r.place[2] > r.place[1]);
        cmp = ax_compare_tracks(g.track[r.order[0]], g.track[r.order[1]], g.ncolors);
        assert_true(cmp >= 0);
    }
}

/* When one side alone has not left, the game ends: the one who stayed, then
 * the leavers from the latest to the earliest, each a place of its own. */
static void test_last_side_ends_the_game(void **state)
{
    (void)state;
    for (int variant = AX_SQUARE; variant <= AX_HEX; variant++) {
        ax_game g;
        ax_rng rng;
        ax_rng_seed(&rng, 3);
        ax_game_init(&g, variant, 3, AX_STANDARD, 3, NULL);
        play_some(&g, &rng, 4);
        leave_ok(&g, 0, AX_LEAVE_RESIGN, false);
        play_some(&g, &rng, 4);
        leave_ok(&g, 2, AX_LEAVE_TIMEOUT, true);
        const int order3[3] = {1, 2, 0}, place3[3] = {0, 1, 2};
        assert_ranking(&g, 3, order3, place3);

        ax_game_init(&g, variant, 4, AX_STANDARD, 3, NULL);
        play_some(&g, &rng, 2);
        leave_ok(&g, 3, AX_LEAVE_RESIGN, false);
        leave_ok(&g, 1, AX_LEAVE_RESIGN, false); /* two in a row, between two decisions */
        play_some(&g, &rng, 2);
        leave_ok(&g, 0, AX_LEAVE_ABSENT, true);
        const int order4[4] = {2, 0, 1, 3}, place4[4] = {0, 1, 2, 3};
        assert_ranking(&g, 4, order4, place4);
    }
}

/* A greedy placement that pushes one track up (bonus moves come soon),
 * judged on a sample of the legal moves; random swap decisions. */
static void greedy_move(const ax_game *g, ax_rng *rng, ax_move *out)
{
    static ax_move moves[AX_MAX_MOVES];
    if (g->phase != AX_PHASE_PLACE) {
        ax_random_move(g, rng, out);
        return;
    }
    int n = ax_legal_moves(g, moves, AX_MAX_MOVES), step = n / 48 + 1, best = -1, chosen = 0;
    for (int k = (int)ax_rng_below(rng, (uint32_t)step); k < n; k += step) {
        ax_preview pv;
        ax_preview_move(g, &moves[k], &pv);
        int top = 0, sum = 0;
        for (int c = 0; c < g->ncolors; c++) {
            top = pv.score[c] > top ? pv.score[c] : top;
            sum += pv.points[c];
        }
        if (top * 10 + sum > best) {
            best = top * 10 + sum;
            chosen = k;
        }
    }
    *out = moves[chosen];
}

/* Searches real games of a config, played greedily, for a position
 * `wanted`. */
static bool find_position(int variant, int players, bool (*wanted)(const ax_game *), ax_game *out)
{
    for (uint64_t seed = 1; seed < 60; seed++) {
        ax_rng rng;
        ax_rng_seed(&rng, seed);
        ax_game_init(out, variant, players, AX_STANDARD, seed, NULL);
        while (out->phase != AX_PHASE_OVER) {
            if (wanted(out))
                return true;
            ax_move m;
            greedy_move(out, &rng, &m);
            assert_int_equal(ax_apply(out, &m, NULL), AX_OK);
        }
    }
    return false;
}

static bool in_swap_phase(const ax_game *g) { return g->phase == AX_PHASE_SWAP; }

static bool bonus_owed(const ax_game *g) { return g->in_bonus && g->bonus_pending > 0; }

static bool in_bonus(const ax_game *g) { return g->in_bonus; }

/* The seat to move leaves in the swap phase or with bonus moves pending: the
 * turn stays as it was, and its seat is asked for the same decision. */
static void test_leave_keeps_the_turn(void **state)
{
    (void)state;
    struct {
        int variant, players;
        bool (*wanted)(const ax_game *);
    } cases[] = {
        {AX_SQUARE, 3, in_swap_phase}, {AX_HEX, 4, in_swap_phase}, {AX_SQUARE, 4, in_bonus},
        {AX_HEX, 3, in_bonus},         {AX_ROTA, 3, in_bonus},     {AX_HEX, 4, bonus_owed},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ax_game g, before;
        assert_true(find_position(cases[i].variant, cases[i].players, cases[i].wanted, &g));
        before = g;
        int seat = g.to_move;
        leave_ok(&g, seat, AX_LEAVE_TIMEOUT, false);
        assert_only_leave_changed(&before, &g, seat);
        assert_true(cases[i].wanted(&g));
        static ax_move moves[AX_MAX_MOVES];
        int n = ax_legal_moves(&g, moves, AX_MAX_MOVES);
        assert_int_equal(n, ax_legal_moves(&before, moves, AX_MAX_MOVES));
        for (int k = 0; k < n; k++)
            assert_int_not_equal(moves[k].kind, AX_MOVE_LEAVE);
        ax_rng rng;
        ax_rng_seed(&rng, 1);
        ax_move m;
        ax_random_move(&g, &rng, &m);
        assert_int_equal(ax_apply(&g, &m, NULL), AX_OK); /* the leaver's seat decides on */
    }
}

/* Solo: leaving ends the game; the result is that of the tracks as they are. */
static void test_solo_leave(void **state)
{
    (void)state;
    for (int variant = AX_SQUARE; variant <= AX_HEX; variant++) {
        ax_game g;
        ax_rng rng;
        ax_rng_seed(&rng, 2);
        ax_game_init(&g, variant, 1, AX_SOLO, 2, NULL);
        play_some(&g, &rng, 8);
        long result = ax_solo_result(&g);
        leave_ok(&g, 0, AX_LEAVE_RESIGN, true);
        assert_int_equal(ax_solo_result(&g), result);
        const int order[1] = {0}, place[1] = {0};
        assert_ranking(&g, 1, order, place);
        ax_events ev;
        assert_int_equal(ax_apply(&g, &(ax_move){.kind = AX_MOVE_LEAVE}, &ev), AX_ERR_OVER);
    }
}

static void expect_rejected(ax_game *g, ax_move m, ax_error want)
{
    ax_game before = *g;
    ax_events ev;
    assert_int_equal(ax_check(g, &m), want);
    assert_int_equal(ax_apply(g, &m, &ev), want);
    assert_memory_equal(&before, g, sizeof before);
}

/* Illegal leaves are refused and change no byte of the game. */
static void test_illegal_leaves_change_nothing(void **state)
{
    (void)state;
    for (int i = 0; i < NCONFIGS; i++) {
        ax_game g;
        ax_rng rng;
        ax_rng_seed(&rng, 9);
        ax_game_init(&g, configs[i].variant, configs[i].players, configs[i].mode, 9, NULL);
        play_some(&g, &rng, 3);
        expect_rejected(&g, leave_move(g.players, AX_LEAVE_RESIGN), AX_ERR_SEAT);
        expect_rejected(&g, leave_move(AX_MAX_PLAYERS, AX_LEAVE_RESIGN), AX_ERR_SEAT);
        expect_rejected(&g, leave_move(255, AX_LEAVE_RESIGN), AX_ERR_SEAT);
        expect_rejected(&g, leave_move(0, 3), AX_ERR_MOVE_KIND);
        expect_rejected(&g, leave_move(0, 255), AX_ERR_MOVE_KIND);
        if (g.players >= 3 && configs[i].mode == AX_STANDARD) {
            leave_ok(&g, 1, AX_LEAVE_RESIGN, false);
            expect_rejected(&g, leave_move(1, AX_LEAVE_TIMEOUT), AX_ERR_LEFT);
            expect_rejected(&g, leave_move(1, AX_LEAVE_RESIGN), AX_ERR_LEFT);
        }
        play_to_end(&g, &rng);
        expect_rejected(&g, leave_move(0, AX_LEAVE_RESIGN), AX_ERR_OVER);
        expect_rejected(&g, leave_move(9, 7), AX_ERR_OVER);
    }
}

/* Ties among those who stayed share a place; leavers never do, whatever
 * their tracks (hand-set tracks: ax_rank reads nothing else). */
static void test_rank_ties_and_leavers(void **state)
{
    (void)state;
    ax_game g;
    ax_game_init(&g, AX_SQUARE, 4, AX_STANDARD, 1, NULL);
    leave_ok(&g, 3, AX_LEAVE_RESIGN, false);
    leave_ok(&g, 2, AX_LEAVE_RESIGN, false);
    memset(g.track, 5, sizeof g.track); /* everyone equal */
    const int order[4] = {0, 1, 2, 3}, place[4] = {0, 0, 1, 2};
    assert_ranking(&g, 4, order, place);
    g.track[1][AX_RED] = 6; /* seat 1 better than seat 0 */
    g.track[2][AX_RED] = 18;
    const int order2[4] = {1, 0, 2, 3}, place2[4] = {0, 1, 2, 3};
    assert_ranking(&g, 4, order2, place2);
}

/* --- records --- */

#define MAX_LINES 4096

/* Writes a random game's record with random leaves (about one in `every`
 * decisions) into lines[]; returns the count, *nleaves the leaves. Checks the
 * invariants and that no listed or random decision is a leave. */
static int record_with_leaves(int variant, int players, int mode, uint64_t seed, int every,
                              char **lines, int *nleaves)
{
    static ax_move moves[AX_MAX_MOVES];
    ax_game g;
    ax_events ev;
    ax_rng rng;
    ax_rng_seed(&rng, seed * 7 + 1);
    ax_game_init(&g, variant, players, mode, seed, &ev);
    int n = 0;
    *nleaves = 0;
    lines[n++] = fixture_dump(ax_record_start(&g, NULL, AX_VIEWER_ALL));
    for (;;) {
        for (int i = 0; i < ev.n; i++)
            lines[n++] = fixture_dump(ax_record_event(&g, &ev.ev[i], AX_VIEWER_ALL));
        assert_true(ax_game_consistent(&g));
        assert_true(n < MAX_LINES - AX_MAX_EVENTS);
        if (g.phase == AX_PHASE_OVER)
            return n;
        ax_move m;
        if (ax_rng_below(&rng, (uint32_t)every) == 0) {
            int seat;
            do
                seat = (int)ax_rng_below(&rng, (uint32_t)players);
            while (g.left[seat]);
            m = leave_move(seat, (int)ax_rng_below(&rng, 3));
            (*nleaves)++;
        } else {
            ax_random_move(&g, &rng, &m);
            assert_int_not_equal(m.kind, AX_MOVE_LEAVE);
            int nm = ax_legal_moves(&g, moves, AX_MAX_MOVES);
            for (int k = 0; k < nm; k++)
                assert_int_not_equal(moves[k].kind, AX_MOVE_LEAVE);
        }
        assert_int_equal(ax_apply(&g, &m, &ev), AX_OK);
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

static void free_lines(char **lines, int n)
{
    for (int i = 0; i < n; i++)
        free(lines[i]);
}

/* Every configuration: records with leaves replay cleanly. */
static void test_replay_round_trip_with_leaves(void **state)
{
    (void)state;
    static char *lines[MAX_LINES];
    char err[512];
    for (int i = 0; i < NCONFIGS; i++) {
        int with_leaves = 0, ended_left = 0;
        for (uint64_t seed = 1; seed <= 12; seed++) {
            int nleaves;
            int every = configs[i].players == 1 ? 40 : 12;
            int n = record_with_leaves(configs[i].variant, configs[i].players, configs[i].mode,
                                       seed, every, lines, &nleaves);
            int code = replay_lines(lines, n, err, sizeof err);
            if (code)
                fprintf(stderr, "config %d seed %llu: %s\n", i, (unsigned long long)seed, err);
            assert_int_equal(code, AX_REPLAY_OK);
            with_leaves += nleaves > 0;
            ended_left += strstr(lines[n - 1], "\"reason\":\"left\"") != NULL;
            free_lines(lines, n);
        }
        assert_true(with_leaves > 0);
        assert_true(ended_left > 0);
    }
}

static void test_move_from_json(void **state)
{
    (void)state;
    ax_game g;
    ax_game_init(&g, AX_HEX, 3, AX_STANDARD, 1, NULL);
    char err[200];
    ax_move m;
    bool reversed = true;
    json_t *o = json_loads("{\"ev\":\"leave\",\"player\":2,\"why\":\"timeout\"}", 0, NULL);
    assert_int_equal(ax_decision_from_event(&g, o, &m, &reversed, err, sizeof err), AX_REPLAY_OK);
    assert_int_equal(m.kind, AX_MOVE_LEAVE);
    assert_int_equal(m.seat, 2);
    assert_int_equal(m.why, AX_LEAVE_TIMEOUT);
    assert_false(reversed);
    json_decref(o);
    const struct {
        const char *json;
        int code;
        const char *says;
    } bad[] = {
        {"{\"ev\":\"leave\",\"why\":\"resign\"}", AX_REPLAY_MALFORMED, "\"player\""},
        {"{\"ev\":\"leave\",\"player\":\"1\",\"why\":\"resign\"}", AX_REPLAY_MALFORMED, "player"},
        {"{\"ev\":\"leave\",\"player\":1}", AX_REPLAY_MALFORMED, "\"why\""},
        {"{\"ev\":\"leave\",\"player\":1,\"why\":\"bored\"}", AX_REPLAY_MALFORMED, "resign"},
        {"{\"ev\":\"leave\",\"player\":1,\"why\":0}", AX_REPLAY_MALFORMED, "why"},
        {"{\"ev\":\"leave\",\"player\":3,\"why\":\"resign\"}", AX_REPLAY_INCONSISTENT, "no such"},
        {"{\"ev\":\"leave\",\"player\":-1,\"why\":\"resign\"}", AX_REPLAY_INCONSISTENT, "no such"},
        {"{\"ev\":\"leave\",\"player\":4294967297,\"why\":\"resign\"}", AX_REPLAY_INCONSISTENT,
         "no such"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        o = json_loads(bad[i].json, 0, NULL);
        assert_non_null(o);
        assert_int_equal(ax_decision_from_event(&g, o, &m, &reversed, err, sizeof err),
                         bad[i].code);
        assert_non_null(strstr(err, bad[i].says));
        assert_null(strchr(err, '\n'));
        json_decref(o);
    }
}

/* Replays lines with line k replaced by `text` (NULL: removed) or, when
 * `insert`, `text` put before line k; checks the code and that the error
 * names line `named`. */
static void expect_tampered(char **lines, int n, int k, const char *text, bool insert, int code,
                            int named, const char *says)
{
    static char *copy[MAX_LINES];
    int m = 0;
    for (int i = 0; i <= n; i++) {
        if (i == k && text)
            copy[m++] = (char *)text;
        if (i < n && (i != k || insert))
            copy[m++] = lines[i];
    }
    char err[512], want[32];
    int got = replay_lines(copy, m, err, sizeof err);
    if (got != code)
        fprintf(stderr, "tampered line %d: got %d: %s\n", k + 1, got, err);
    assert_int_equal(got, code);
    snprintf(want, sizeof want, "line %d:", named);
    assert_non_null(strstr(err, want));
    if (!strstr(err, says))
        fprintf(stderr, "tampered line %d: %s\n", k + 1, err);
    assert_non_null(strstr(err, says));
    assert_null(strchr(err, '\n'));
}

static int find_line(char **lines, int n, const char *needle, int from)
{
    for (int i = from; i < n; i++)
        if (strstr(lines[i], needle))
            return i;
    return -1;
}

/* Tampered leave lines are rejected, naming the line. */
static void test_replay_rejects_tampered_leaves(void **state)
{
    (void)state;
    static char *lines[MAX_LINES];
    int n = 0, nleaves = 0, first = -1;
    uint64_t seed;
    /* a 4-player game where a leave is followed by more play */
    for (seed = 1; seed < 200; seed++) {
        n = record_with_leaves(AX_SQUARE, 4, AX_STANDARD, seed, 25, lines, &nleaves);
        first = find_line(lines, n, "\"ev\":\"leave\"", 0);
        if (first > 0 && find_line(lines, n, "\"ev\":\"place\"", first) > 0)
            break;
        free_lines(lines, n);
    }
    assert_true(seed < 200);
    int place_after = find_line(lines, n, "\"ev\":\"place\"", first);
    json_t *leave = json_loads(lines[first], 0, NULL);
    int seat = (int)json_integer_value(json_object_get(leave, "player"));
    json_decref(leave);
    char again[100];
    snprintf(again, sizeof again, "{\"ev\":\"leave\",\"player\":%d,\"why\":\"absent\"}", seat);

    /* the same seat leaves again before a later placement */
    expect_tampered(lines, n, place_after, again, true, AX_REPLAY_INCONSISTENT, place_after + 1,
                    "has left");
    /* no such seat, negative seat */
    expect_tampered(lines, n, first, "{\"ev\":\"leave\",\"player\":4,\"why\":\"resign\"}", false,
                    AX_REPLAY_INCONSISTENT, first + 1, "no such seat");
    expect_tampered(lines, n, first, "{\"ev\":\"leave\",\"player\":-2,\"why\":\"resign\"}", false,
                    AX_REPLAY_INCONSISTENT, first + 1, "no such seat");
    /* malformed: an unknown reason, no reason, no player */
    expect_tampered(lines, n, first, "{\"ev\":\"leave\",\"player\":1,\"why\":\"bored\"}", false,
                    AX_REPLAY_MALFORMED, first + 1, "why");
    expect_tampered(lines, n, first, "{\"ev\":\"leave\",\"player\":1}", false, AX_REPLAY_MALFORMED,
                    first + 1, "why");
    expect_tampered(lines, n, first, "{\"ev\":\"leave\",\"why\":\"resign\"}", false,
                    AX_REPLAY_MALFORMED, first + 1, "player");
    /* inside a unit: between a placement and what it caused */
    int draw = find_line(lines, n, "\"ev\":\"draw\"", place_after);
    expect_tampered(lines, n, draw, again, true, AX_REPLAY_INCONSISTENT, draw + 1, "leave");
    /* after the end */
    expect_tampered(lines, n, n, again, true, AX_REPLAY_INCONSISTENT, n + 1, "after end");
    free_lines(lines, n);

    /* two players: the end follows the leave at once; a wrong reason or
     * ranking is named */
    for (seed = 1; seed < 200; seed++) {
        n = record_with_leaves(AX_HEX, 2, AX_STANDARD, seed, 20, lines, &nleaves);
        if (nleaves)
            break;
        free_lines(lines, n);
    }
    assert_true(seed < 200);
    assert_non_null(strstr(lines[n - 2], "\"ev\":\"leave\""));
    char *end = strdup(lines[n - 1]);
    char *p = strstr(end, "\"left\"");
    assert_non_null(p);
    memcpy(p, "\"lfet\"", 6);
    expect_tampered(lines, n, n - 1, end, false, AX_REPLAY_INCONSISTENT, n, "reason");
    free(end);
    /* the leave taken out: the end comes where a decision is awaited */
    expect_tampered(lines, n, n - 2, NULL, false, AX_REPLAY_INCONSISTENT, n - 1,
                    "end, but the rules wait");
    /* a placement where the leave ended the game */
    int place = find_line(lines, n, "\"ev\":\"place\"", 0);
    expect_tampered(lines, n, n - 1, lines[place], false, AX_REPLAY_INCONSISTENT, n,
                    "the rules give \"end\"");
    free_lines(lines, n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_record_lines),
        cmocka_unit_test(test_two_players_end_at_once),
        cmocka_unit_test(test_team_partner_leaves),
        cmocka_unit_test(test_three_and_four_players_go_on),
        cmocka_unit_test(test_last_side_ends_the_game),
        cmocka_unit_test(test_leave_keeps_the_turn),
        cmocka_unit_test(test_solo_leave),
        cmocka_unit_test(test_illegal_leaves_change_nothing),
        cmocka_unit_test(test_rank_ties_and_leavers),
        cmocka_unit_test(test_replay_round_trip_with_leaves),
        cmocka_unit_test(test_move_from_json),
        cmocka_unit_test(test_replay_rejects_tampered_leaves),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
