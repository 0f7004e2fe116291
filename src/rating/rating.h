/*
 * rating.h - player ratings for rated games (docs/ratings.md).
 *
 * The method is Weng & Lin (2011), "A Bayesian Approximation Method for
 * Online Ranking", JMLR 12, with the Plackett-Luce model (their Algorithm 4),
 * the model of the OpenSkill libraries. Every player has, per variant, a
 * belief about their skill: a mean mu and a standard deviation sigma. A game
 * is a ranking of teams (in a standard game each player is a team of one; in
 * the hex team game seats 0+2 play seats 1+3); rt_update() turns the players'
 * (mu, sigma) before the game into their values after it.
 *
 * Pure computation: no I/O, no allocation, no global state. The server calls
 * rt_game_from_ranking() on the engine's final ax_ranking (ties share a place,
 * leavers are already last), then rt_update() with the seats' stored ratings.
 */
#ifndef AXIO_RATING_H
#define AXIO_RATING_H

#include <stdbool.h>

#include "axio.h"

#define RT_MAX_SEATS     AX_MAX_PLAYERS
#define RT_MAX_TEAMS     AX_MAX_PLAYERS
#define RT_MAX_TEAM_SIZE 2
/* Ratings outside these bounds are refused: far outside any real rating,
 * they keep every intermediate value finite (and rt_update's results stay
 * inside them, so a result is always a valid input). */
#define RT_MAX_ABS_MU 1e9
#define RT_MIN_SIGMA  1e-6
#define RT_MAX_SIGMA  1e9

/* One player's rating in one variant. */
typedef struct {
    double mu;    /* the mean of the skill belief */
    double sigma; /* its standard deviation: the uncertainty */
} rt_rating;

/* The method's parameters; rt_default_params() gives the documented ones. */
typedef struct {
    double mu0;       /* a new player's mu */
    double sigma0;    /* a new player's sigma */
    double beta;      /* the spread of one team's performance in one game */
    double tau;       /* added (in quadrature) to sigma before each game */
    double kappa;     /* the least factor a game may multiply a variance by */
    double sigma_min; /* sigma never ends a game below this */
    /* the leaderboard lists only players whose deviation is at most this */
    double leaderboard_max_deviation;
} rt_params;

/* A game as the rating sees it: teams of seats, each with its place. */
typedef struct {
    int nseats;                  /* players in the game, 2..RT_MAX_SEATS; seats 0..nseats-1 */
    int nteams;                  /* 2..nseats; every seat is in exactly one team */
    int team_size[RT_MAX_TEAMS]; /* 1..RT_MAX_TEAM_SIZE */
    int team_seat[RT_MAX_TEAMS][RT_MAX_TEAM_SIZE];
    int team_place[RT_MAX_TEAMS]; /* 0 = first, 0..nteams-1; equal = a tie */
} rt_game;

typedef enum {
    RT_OK = 0,
    RT_BAD_PARAMS, /* a parameter is not finite or out of its range */
    RT_BAD_GAME,   /* wrong counts, a seat missing or twice, a place out of range */
    RT_BAD_RATING  /* mu or sigma not finite or outside RT_MAX_ABS_MU, RT_M*_SIGMA */
} rt_status;

/* A short English description of a status, for logs and error messages. */
const char *rt_status_text(rt_status s);

/* mu0 1500, sigma0 500, beta 250, tau 5, kappa 0.0001, sigma_min 1,
 * leaderboard_max_deviation 200 (docs/ratings.md says why). */
rt_params rt_default_params(void);
/* The rating of a player who has not played the variant yet. */
rt_rating rt_initial(const rt_params *p);

/* Builds the game from the engine's final ranking. Standard mode: every seat
 * is its own team. Team mode: seats 0+2 against 1+3 (partners must share a
 * place). Places become "teams strictly better", so they always fit.
 * Solo games are not rated: RT_BAD_GAME. */
rt_status rt_game_from_ranking(const ax_ranking *r, int mode, rt_game *out);

/* Rates one game. before[s] and after[s] are seat s's rating (s < nseats);
 * after may be the same array as before. On any error nothing is written. */
rt_status rt_update(const rt_params *p, const rt_game *g, const rt_rating before[],
                    rt_rating after[]);

/* What players see (protocol: {"rating":R,"deviation":D}): both rounded to
 * whole points. */
typedef struct {
    int rating;    /* R: mu */
    int deviation; /* D: sigma */
} rt_shown;
rt_shown rt_show(rt_rating r);

/* Whether a player belongs on the leaderboard: shown deviation at most
 * p->leaderboard_max_deviation. */
bool rt_on_leaderboard(const rt_params *p, rt_rating r);
/* Leaderboard order, best first: higher shown R, then lower shown D.
 * <0 if a comes before b, >0 after, 0 if equal (the caller then orders by
 * games played, then name). */
int rt_leaderboard_compare(rt_rating a, rt_rating b);

#endif
