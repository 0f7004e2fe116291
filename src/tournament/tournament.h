/*
 * tournament.h - pairing, points and standings of tournaments
 * (docs/tournaments.md): pure computation, no I/O, no global state, as
 * src/rating/. The server keeps events, players and tables in the store and
 * asks this module, from what is stored, who sits at which table next and
 * what the standings are; the same stored games always give the same
 * answer, so standings recomputed after a restart equal the live ones.
 *
 * Points are counted in TN_UNITS per point so that places shared by two,
 * three or four players stay integers.
 */
#ifndef AXIO_TOURNAMENT_H
#define AXIO_TOURNAMENT_H

#include <stdbool.h>
#include <stdint.h>

#include "axio.h"

#define TN_MAX_SEATS   4    /* players a table */
#define TN_UNITS       12   /* a point: divisible by 2, 3 and 4 (shared places) */
#define TN_MAX_PLAYERS 2048 /* players a Swiss round, or waiting in an arena, at most */

/* --- points by place (points.c) --- */

/* The points (in TN_UNITS) of each seat of a finished table of `seats`
 * players, from the engine's ranking (ax_ranking: ties share a place,
 * leavers last): place points are shared equally by tied seats. A no-show
 * (absent[s]) scores nothing and ranks below everyone. */
void tn_table_points(int seats, const ax_ranking *ranking, const bool *absent, int *points_out);
/* The points (TN_UNITS) of place `place` (0 = first) alone at a table of
 * `seats`: 2 seats 2/0, 3 seats 3/1/0, 4 seats 4/2/1/0; 0 out of range. */
int tn_place_points(int seats, int place);
/* Whether a ranking can be scored: n == seats (2..4), order a permutation of
 * the seats, places from 0 never going down the order. tn_table_points
 * gives every seat 0 for a ranking that is not. */
bool tn_ranking_valid(int seats, const ax_ranking *ranking);
/* What a Swiss bye is worth (TN_UNITS): what a table of `seats` pays on
 * average (2 seats 1 point, 3 seats 4/3, 4 seats 7/4). */
int tn_bye_points(int seats);

/* --- one player as the pairing sees them --- */
typedef struct {
    int id;         /* the caller's index of this player: 0..n-1 */
    int rating;     /* rounded rating mean, for order inside a score group */
    int score;      /* points so far, TN_UNITS */
    int byes;       /* byes (or short tables) received so far */
    bool withdrawn; /* never paired */
} tn_player;

/* Meetings so far: met[i * n + j] = games players i and j shared a table. */

/* --- Swiss (swiss.c) --- */

/* Seats every player that has not withdrawn at a table of `seats` players
 * for the next round. table_out[i] = table number (0..) or -1 for a bye;
 * returns the number of tables, or -1 if n is out of range. Deterministic:
 * the same inputs always give the same tables. Players of similar scores
 * meet; nobody meets an opponent twice while another pairing exists. */
int tn_swiss_pair(const tn_player *players, int n, const uint16_t *met, int seats, int *table_out);
/* The shape of a Swiss round of `players` players (not withdrawn) at tables
 * of `seats`: byes, tables, and how many of those tables are short (seats -
 * 1 players). A player at a short table counts it as a bye (tn_player.byes).
 * false for seats out of 2..4 or players < 0. */
bool tn_swiss_layout(int players, int seats, int *byes, int *tables, int *short_tables);

/* --- Arena (arena.c) --- */

/* Tables from the players now waiting in an arena (waiting[k] are indexes
 * into players). last_opponents[i * TN_MAX_SEATS + k]: the ids player i
 * met in their last game (-1 for none). Forms as many full tables as the
 * waiting allow, by score then rating, not the same opponents twice in a
 * row while others wait; players left over keep waiting. Returns the
 * number of tables; table_out[k] is the table of waiting[k] or -1. */
int tn_arena_pair(const tn_player *players, int n, const int *last_opponents, const int *waiting,
                  int n_waiting, int seats, int *table_out);

/* --- standings and tie-breaks (standings.c) --- */

/* A finished table as stored: players by id, points each (TN_UNITS). */
typedef struct {
    int round; /* Swiss round, or arena sequence */
    int seats;
    int player[TN_MAX_SEATS]; /* ids */
    int points[TN_MAX_SEATS]; /* TN_UNITS */
    bool counted;             /* false: a game still running at the end */
} tn_table;

typedef struct {
    int id;
    int score;     /* TN_UNITS, with arena streak bonuses */
    int tiebreak1; /* Swiss: Buchholz analogue (docs/tournaments.md) */
    int tiebreak2; /* Swiss: Sonneborn-Berger analogue */
    int games;
    int place; /* 1-based; equal standing shares a place */
} tn_standing;

/* Standings of n players from their finished tables, best first. arena:
 * lichess's streak rule (docs/tournaments.md). */
void tn_standings(int n, const tn_table *tables, int n_tables, bool arena, tn_standing *out);

#endif
