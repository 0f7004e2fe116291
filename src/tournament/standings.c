/*
 * standings.c - the standings of a tournament from its finished tables
 * (docs/tournaments.md, "Tie-breaks" and "Streaks").
 *
 * score: the points of every counted table (a table of one seat is a bye:
 * its points count, it is no game and has no opponents).
 * tiebreak1, the Buchholz analogue: over the tables you played, the sum of
 * your opponents' average final score at that table (a table of four
 * counts like one opponent, so short tables neither help nor hurt).
 * tiebreak2, the Sonneborn-Berger analogue: over the tables you played,
 * your share of the winner's points there (your points / (seats points))
 * times your opponents' average final score: beating strong players counts
 * most. Both are in TN_UNITS, computed exactly and rounded once at the end.
 * Swiss places: score, then tiebreak1, then tiebreak2; all equal share a
 * place. Arena places: score alone (tie-breaks 0), with the streak bonus:
 * after two wins in a row (first place alone at the table) every game's
 * points are doubled until a game that is not a win, which is still
 * doubled (lichess's rule: a draw on a streak is worth two draws).
 */
#include "tournament.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    int player, round, table;
} entry;

static int entry_cmp(const void *a, const void *b)
{
    const entry *x = a, *y = b;
    if (x->player != y->player)
        return (x->player > y->player) - (x->player < y->player);
    if (x->round != y->round)
        return (x->round > y->round) - (x->round < y->round);
    return (x->table > y->table) - (x->table < y->table);
}

static bool table_ok(const tn_table *t, int n)
{
    if (!t->counted || t->seats < 1 || t->seats > TN_MAX_SEATS)
        return false;
    for (int i = 0; i < t->seats; i++) {
        if (t->player[i] < 0 || t->player[i] >= n || t->points[i] < 0 ||
            t->points[i] > TN_MAX_SEATS * TN_UNITS)
            return false;
        for (int j = 0; j < i; j++)
            if (t->player[j] == t->player[i])
                return false;
    }
    return true;
}

static bool better(const tn_standing *x, const tn_standing *y)
{
    if (x->score != y->score)
        return x->score > y->score;
    if (x->tiebreak1 != y->tiebreak1)
        return x->tiebreak1 > y->tiebreak1;
    if (x->tiebreak2 != y->tiebreak2)
        return x->tiebreak2 > y->tiebreak2;
    return x->id < y->id;
}

static bool same_standing(const tn_standing *x, const tn_standing *y)
{
    return x->score == y->score && x->tiebreak1 == y->tiebreak1 && x->tiebreak2 == y->tiebreak2;
}

static void sort_standings(tn_standing *s, int n, tn_standing *tmp)
{
    for (int w = 1; w < n; w *= 2) {
        for (int lo = 0; lo < n; lo += 2 * w) {
            int mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            int a = lo, b = mid, k = lo;
            while (a < mid || b < hi)
                tmp[k++] = (b >= hi || (a < mid && better(&s[a], &s[b]))) ? s[a++] : s[b++];
        }
        memcpy(s, tmp, sizeof(tn_standing) * (size_t)n);
    }
}

static int64_t round_div(int64_t num, int64_t den)
{
    return num >= 0 ? (num + den / 2) / den : -((-num + den / 2) / den);
}

void tn_standings(int n, const tn_table *tables, int n_tables, bool arena, tn_standing *out)
{
    if (n <= 0 || !out)
        return;
    for (int i = 0; i < n; i++)
        out[i] = (tn_standing){.id = i, .place = 1};
    if (!tables || n_tables <= 0)
        return;
    int64_t *score = calloc((size_t)n, sizeof(int64_t));
    int64_t *bh = calloc((size_t)n, sizeof(int64_t)), *sb = calloc((size_t)n, sizeof(int64_t));
    size_t n_entries = 0;
    for (int t = 0; t < n_tables; t++)
        if (table_ok(&tables[t], n))
            n_entries += (size_t)tables[t].seats;
    entry *e = malloc(sizeof(entry) * (n_entries ? n_entries : 1));
    tn_standing *tmp = malloc(sizeof(tn_standing) * (size_t)n);
    if (!score || !bh || !sb || !e || !tmp)
        goto done; /* out of memory: everyone even, nothing counted */
    size_t k = 0;
    for (int t = 0; t < n_tables; t++)
        if (table_ok(&tables[t], n))
            for (int i = 0; i < tables[t].seats; i++)
                e[k++] = (entry){tables[t].player[i], tables[t].round, t};
    qsort(e, n_entries, sizeof(entry), entry_cmp);
    /* scores, games order by round: streaks in an arena */
    int streak = 0;
    for (size_t j = 0; j < n_entries; j++) {
        const tn_table *t = &tables[e[j].table];
        int p = e[j].player, pts = 0;
        if (j == 0 || e[j - 1].player != p)
            streak = 0;
        for (int i = 0; i < t->seats; i++)
            if (t->player[i] == p)
                pts = t->points[i];
        if (t->seats >= 2) {
            out[p].games++;
            if (arena) {
                bool win = pts == t->seats * TN_UNITS;
                if (streak >= 2)
                    pts *= 2;
                streak = win ? streak + 1 : 0;
            }
        }
        score[p] += pts;
    }
    for (int i = 0; i < n; i++)
        out[i].score = (int)score[i];
    if (!arena) {
        /* exact sums over a common denominator: opponents' average needs
         * /1, /2, /3 (lcm 6); the share of the winner's points /2, /3, /4
         * with it (seats * (seats - 1): 2, 6, 12; lcm 12) */
        for (int t = 0; t < n_tables; t++) {
            const tn_table *tb = &tables[t];
            if (!table_ok(tb, n) || tb->seats < 2)
                continue;
            int opp = tb->seats - 1;
            int64_t all = 0;
            for (int i = 0; i < tb->seats; i++)
                all += score[tb->player[i]];
            for (int i = 0; i < tb->seats; i++) {
                int p = tb->player[i];
                int64_t others = all - score[p];
                bh[p] += others * (6 / opp);
                sb[p] += (int64_t)tb->points[i] * others * (12 / (tb->seats * opp));
            }
        }
        for (int i = 0; i < n; i++) {
            out[i].tiebreak1 = (int)round_div(bh[i], 6);
            out[i].tiebreak2 = (int)round_div(sb[i], 12 * TN_UNITS);
        }
    }
    sort_standings(out, n, tmp);
    for (int i = 0; i < n; i++)
        out[i].place = (i > 0 && same_standing(&out[i], &out[i - 1])) ? out[i - 1].place : i + 1;
done:
    free(score), free(bh), free(sb), free(e), free(tmp);
}
