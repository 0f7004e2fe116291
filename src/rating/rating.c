/*
 * rating.c - Weng-Lin Bayesian rating with the Plackett-Luce model.
 *
 * Weng & Lin (2011), JMLR 12, Algorithm 4, with the tie rule of the OpenSkill
 * implementations; docs/ratings.md gives the formulas with their reasons.
 * One update, for teams i = 1..k with places r(i):
 *   - before the game every sigma grows to sqrt(sigma^2 + tau^2);
 *   - team i: mu_i = sum of its players' mu, s_i = sum of their sigma^2;
 *   - c = sqrt(sum_i (s_i + beta^2));
 *   - C_q = teams placed at q's place or worse; A_q = teams sharing q's place;
 *   - p_iq = exp(mu_i / c) / sum over C_q of exp(mu_s / c);
 *   - Omega_i = s_i / c * sum over q placed at i's place or better of
 *     ([q = i] - p_iq) / A_q;
 *   - Delta_i = gamma_i * s_i / c^2 * the same sum of p_iq (1 - p_iq) / A_q,
 *     with gamma_i = sqrt(s_i) / c;
 *   - each player j of team i: mu_j += sigma_j^2 / s_i * Omega_i and
 *     sigma_j^2 *= max(1 - sigma_j^2 / s_i * Delta_i, kappa).
 * p_iq is computed as 1 / sum over C_q of exp((mu_s - mu_i) / c): the same
 * number, but i itself is in C_q, so the sum is at least 1 and never 0/0 nor
 * inf/inf, whatever the ratings.
 * Everything lives on the stack; a game has at most four teams.
 */
#include "rating.h"

#include <math.h>

const char *rt_status_text(rt_status s)
{
    switch (s) {
    case RT_OK: return "ok";
    case RT_BAD_PARAMS: return "rating parameters out of range";
    case RT_BAD_GAME: return "not a ratable game (teams, seats or places)";
    case RT_BAD_RATING: return "a rating is not a finite number in range";
    }
    return "unknown rating status";
}

rt_params rt_default_params(void)
{
    return (rt_params){
        .mu0 = 1500.0,
        .sigma0 = 500.0,
        .beta = 250.0,
        .tau = 5.0,
        .kappa = 0.0001,
        .sigma_min = 1.0,
        .leaderboard_max_deviation = 200.0,
    };
}

rt_rating rt_initial(const rt_params *p) { return (rt_rating){p->mu0, p->sigma0}; }

/* --- validation --- */

static bool in_range(double x, double lo, double hi) { return isfinite(x) && x >= lo && x <= hi; }

static bool params_ok(const rt_params *p)
{
    return in_range(p->mu0, -RT_MAX_ABS_MU, RT_MAX_ABS_MU) &&
           in_range(p->sigma0, RT_MIN_SIGMA, RT_MAX_SIGMA) &&
           in_range(p->beta, RT_MIN_SIGMA, RT_MAX_SIGMA) && in_range(p->tau, 0.0, RT_MAX_SIGMA) &&
           isfinite(p->kappa) && p->kappa > 0.0 && p->kappa <= 1.0 &&
           in_range(p->sigma_min, RT_MIN_SIGMA, RT_MAX_SIGMA) &&
           in_range(p->leaderboard_max_deviation, 0.0, RT_MAX_SIGMA);
}

static bool rating_ok(rt_rating r)
{
    return in_range(r.mu, -RT_MAX_ABS_MU, RT_MAX_ABS_MU) &&
           in_range(r.sigma, RT_MIN_SIGMA, RT_MAX_SIGMA);
}

/* Every seat 0..nseats-1 in exactly one team, sizes and places in range. */
static bool game_ok(const rt_game *g)
{
    if (g->nseats < 2 || g->nseats > RT_MAX_SEATS || g->nteams < 2 || g->nteams > g->nseats ||
        g->nteams > RT_MAX_TEAMS)
        return false;
    int seen[RT_MAX_SEATS] = {0};
    int members = 0;
    for (int t = 0; t < g->nteams; t++) {
        if (g->team_size[t] < 1 || g->team_size[t] > RT_MAX_TEAM_SIZE)
            return false;
        if (g->team_place[t] < 0 || g->team_place[t] >= g->nteams)
            return false;
        for (int j = 0; j < g->team_size[t]; j++) {
            int s = g->team_seat[t][j];
            if (s < 0 || s >= g->nseats || seen[s]++)
                return false;
            members++;
        }
    }
    return members == g->nseats;
}

/* --- the game from the engine's ranking --- */

/* A permutation of 0..n-1 with places in 0..n-1; gives each seat's place. */
static bool places_by_seat(const ax_ranking *r, int place[AX_MAX_PLAYERS])
{
    if (r->n < 2 || r->n > AX_MAX_PLAYERS)
        return false;
    for (int s = 0; s < r->n; s++)
        place[s] = -1;
    for (int i = 0; i < r->n; i++) {
        int s = r->order[i];
        if (s < 0 || s >= r->n || place[s] != -1 || r->place[i] < 0 || r->place[i] >= r->n)
            return false;
        place[s] = r->place[i];
    }
    return true;
}

/* Rewrites places as "how many teams did strictly better": the order and
 * the ties stay, and every place fits 0..nteams-1. */
static void compact_places(rt_game *g)
{
    int raw[RT_MAX_TEAMS];
    for (int t = 0; t < g->nteams; t++)
        raw[t] = g->team_place[t];
    for (int t = 0; t < g->nteams; t++) {
        int better = 0;
        for (int u = 0; u < g->nteams; u++)
            better += raw[u] < raw[t];
        g->team_place[t] = better;
    }
}

rt_status rt_game_from_ranking(const ax_ranking *r, int mode, rt_game *out)
{
    int place[AX_MAX_PLAYERS];
    if (!places_by_seat(r, place))
        return RT_BAD_GAME;
    rt_game g = {.nseats = r->n};
    if (mode == AX_STANDARD) {
        g.nteams = r->n;
        for (int s = 0; s < r->n; s++) {
            g.team_size[s] = 1;
            g.team_seat[s][0] = s;
            g.team_place[s] = place[s];
        }
    } else if (mode == AX_TEAM && r->n == 4) {
        /* rules 4.3: seats 0 and 2 play seats 1 and 3 */
        if (place[0] != place[2] || place[1] != place[3])
            return RT_BAD_GAME;
        g.nteams = 2;
        for (int t = 0; t < 2; t++) {
            g.team_size[t] = 2;
            g.team_seat[t][0] = t;
            g.team_seat[t][1] = t + 2;
            g.team_place[t] = place[t];
        }
    } else {
        return RT_BAD_GAME; /* solo games, or a team game without four seats */
    }
    compact_places(&g);
    *out = g;
    return RT_OK;
}

/* --- the update --- */

typedef struct {
    double mu;     /* sum of the members' mu */
    double sigma2; /* sum of the members' sigma^2, tau included */
} team_sum;

/* NaN goes to lo, so that the result is always a number in range. */
static double clamp(double x, double lo, double hi) { return !(x >= lo) ? lo : x > hi ? hi : x; }

/* Omega_i and Delta_i of team i (Algorithm 4 with ties). */
static void team_update(const rt_game *g, const team_sum *ts, double c, int i, double *omega,
                        double *delta)
{
    double om = 0.0, de = 0.0;
    for (int q = 0; q < g->nteams; q++) {
        if (g->team_place[q] > g->team_place[i])
            continue;
        double below_q = 0.0; /* sum over C_q, relative to team i */
        int shared = 0;       /* A_q */
        for (int s = 0; s < g->nteams; s++) {
            if (g->team_place[s] >= g->team_place[q])
                below_q += exp((ts[s].mu - ts[i].mu) / c);
            shared += g->team_place[s] == g->team_place[q];
        }
        double p = 1.0 / below_q;
        om += ((q == i ? 1.0 : 0.0) - p) / shared;
        de += p * (1.0 - p) / shared;
    }
    double gamma = sqrt(ts[i].sigma2) / c;
    *omega = ts[i].sigma2 / c * om;
    *delta = gamma * ts[i].sigma2 / (c * c) * de;
}

rt_status rt_update(const rt_params *p, const rt_game *g, const rt_rating before[],
                    rt_rating after[])
{
    if (!params_ok(p))
        return RT_BAD_PARAMS;
    if (!game_ok(g))
        return RT_BAD_GAME;
    for (int s = 0; s < g->nseats; s++)
        if (!rating_ok(before[s]))
            return RT_BAD_RATING;

    /* dynamics: the skill may have drifted since the last game */
    double sigma2[RT_MAX_SEATS];
    for (int s = 0; s < g->nseats; s++)
        sigma2[s] = before[s].sigma * before[s].sigma + p->tau * p->tau;

    team_sum ts[RT_MAX_TEAMS];
    double c2 = 0.0;
    for (int t = 0; t < g->nteams; t++) {
        ts[t].mu = 0.0;
        ts[t].sigma2 = 0.0;
        for (int j = 0; j < g->team_size[t]; j++) {
            ts[t].mu += before[g->team_seat[t][j]].mu;
            ts[t].sigma2 += sigma2[g->team_seat[t][j]];
        }
        c2 += ts[t].sigma2 + p->beta * p->beta;
    }
    double c = sqrt(c2);

    rt_rating out[RT_MAX_SEATS];
    for (int t = 0; t < g->nteams; t++) {
        double omega, delta;
        team_update(g, ts, c, t, &omega, &delta);
        for (int j = 0; j < g->team_size[t]; j++) {
            int s = g->team_seat[t][j];
            double share = sigma2[s] / ts[t].sigma2; /* the player's part of the team's doubt */
            double mu = before[s].mu + share * omega;
            double sigma = sqrt(sigma2[s] * fmax(1.0 - share * delta, p->kappa));
            out[s].mu = clamp(mu, -RT_MAX_ABS_MU, RT_MAX_ABS_MU);
            out[s].sigma = clamp(sigma, p->sigma_min, RT_MAX_SIGMA);
        }
    }
    for (int s = 0; s < g->nseats; s++)
        after[s] = out[s];
    return RT_OK;
}

/* --- what players see --- */

rt_shown rt_show(rt_rating r)
{
    /* clamped so that any double gives a defined int */
    return (rt_shown){
        .rating = (int)lround(clamp(r.mu, -RT_MAX_ABS_MU, RT_MAX_ABS_MU)),
        .deviation = (int)lround(clamp(r.sigma, 0.0, RT_MAX_SIGMA)),
    };
}

bool rt_on_leaderboard(const rt_params *p, rt_rating r)
{
    return rt_show(r).deviation <= p->leaderboard_max_deviation;
}

int rt_leaderboard_compare(rt_rating a, rt_rating b)
{
    rt_shown x = rt_show(a), y = rt_show(b);
    if (x.rating != y.rating)
        return x.rating > y.rating ? -1 : 1;
    if (x.deviation != y.deviation)
        return x.deviation < y.deviation ? -1 : 1;
    return 0;
}
