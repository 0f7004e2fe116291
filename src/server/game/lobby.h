/*
 * lobby.h - the games a server holds in memory, in five files by job:
 *
 *   lobby.c         the table of games in memory: find, add, drop, evict;
 *                   a game's seats, tokens and accounts
 *   lobby_load.c    a game built from its stored form (the deal from its
 *                   seed, then its stored decisions replayed through the
 *                   engine): resumed at start, taken and loaded on demand,
 *                   rebuilt after a take-back, set aside when damaged
 *   lobby_create.c  new games (created, guided, paired, rematches) and
 *                   seats taken (join): stored first, then built
 *   lobby_end.c     games that end without being played out: expired,
 *                   abandoned, dormant, aborted, cancelled; eviction
 *   lobby_list.c    the lobby's entries: GET /api/games, ?ids=, ?status=over
 *
 * Every unfinished game is in memory from start to end (on a site of
 * several servers, on the one that holds its lease: owners.h); a finished
 * one stays while someone watches it and a minute after, then is evicted
 * and loaded again on demand. A game is always built the same way, new or
 * loaded: from its stored form, so what is in memory is always what a
 * restart would rebuild.
 *
 * A seat may be bound to an account: the session's of whoever created or
 * joined with one (its name is then the account's), and in a rated game
 * each computer seat to its level's player. A seat shows its account's
 * current rating in the game's variant, kept in memory and refreshed when
 * a rated game of that account ends; a rated game over shows each seat's
 * change.
 */
#ifndef AX_SERVER_LOBBY_H
#define AX_SERVER_LOBBY_H

#include "game.h"

/* --- the table of games in memory (lobby.c) --- */

const char *lobby_status_name(int status);
/* The GAME_* of a status name, or -1. */
int lobby_status_parse(const char *name);
/* Whether a game is waiting or running. */
bool lobby_is_open(const game *gm);
int lobby_count(const service *svc);
/* Every game in memory, oldest first (->next), for the timers. */
game *lobby_first(const service *svc);
/* A game in memory here (lost ones too), or NULL; nothing is loaded. */
game *lobby_local(service *svc, const char *id);
/* Puts a game just built into the table (this server holds it from now). */
void lobby_add(service *svc, game *gm);
/* Takes a game out of the table and frees it. */
void lobby_remove(game *gm);
/* Frees a game that is not in the table. */
void lobby_game_free(game *gm);
/* Whether nothing of a game is in flight (it may be dropped): no decision,
 * take-back, chat or hint being stored or searched, no computer thinking. */
bool lobby_idle(const game *gm);
/* Takes an idle game out of memory: its viewers are closed with the code
 * (1012: it moved to another server) and it is freed. */
void lobby_drop(game *gm, int close_code);
void lobby_free(service *svc);
/* Appends a decision's events to the game's log. */
int lobby_log_events(game *gm, const ax_events *events);
/* Gives a seat whose player left a computer player. */
void lobby_seat_left(game *gm, int seat);
/* The seat a token proves, or -1. */
int lobby_seat_of_token(const game *gm, const char *token);
/* A seat of a person's account that has not left (`wanted` when it is one,
 * else the first), or -1. */
int lobby_seat_of_account(const game *gm, int64_t account_id, int wanted);
/* Whether a seat may be played only with its account's session: a rated
 * game's seat bound to a person's account. */
bool lobby_seat_needs_session(const game *gm, int seat);
/* An account was deleted: its seats in memory take the neutral name. */
void lobby_account_deleted(service *svc, int64_t account_id);
/* A rated game ended: every seat in memory bound to the account shows its
 * new rating in the variant. */
void lobby_rating_changed(service *svc, int64_t account_id, int variant, int rating);

/* --- loading (lobby_load.c) --- */

/* The status of a stored game that can no longer be replayed: never in
 * memory, never listed, only described (lobby_damaged). */
#define GAME_DAMAGED_STATUS "damaged"

/* What building or loading a game from its stored form gave. */
enum { LOAD_OK, LOAD_MISSING, LOAD_DAMAGED, LOAD_SET_ASIDE, LOAD_FAILED };

/* Builds a game from its stored form: LOAD_OK with *out (not yet in the
 * table), LOAD_DAMAGED when the stored form cannot be replayed,
 * LOAD_FAILED when memory ran out; the reason in err. */
int lobby_build(service *svc, const stored_game *sg, game **out, char *err, size_t n);
/* A seat's account and ratings as stored. */
void lobby_seat_account_from_stored(game_seat *s, const stored_seat *ss);
/* Where a game is, for a place that means to use it here (a connection, a
 * request about the game, a rematch, an adoption): HOLD_HERE with *out
 * when this server holds it, taking its lease and loading it from the
 * store if it was held nowhere; HOLD_ELSEWHERE when another server holds
 * it (its instance id in holder, unless NULL or not known); HOLD_MISSING
 * for an unknown or damaged game (one found damaged now is set aside);
 * HOLD_FAILED when the store failed. Reads that only look (lists, ?ids=)
 * never call it: they use lobby_local and the store's entries. */
enum { HOLD_HERE, HOLD_ELSEWHERE, HOLD_MISSING, HOLD_FAILED };
int lobby_hold(service *svc, const char *id, game **out, char holder[STORE_INSTANCE_LEN + 1]);
/* A game set aside as damaged: 0 with its stored form (game and seats, no
 * decisions) in out, to release with stored_game_free; -1 for any other id. */
int lobby_damaged(service *svc, const char *id, stored_game *out);
/* Loads every unfinished game from the store; one that can no longer be
 * replayed is set aside (status damaged, a line on stderr). -1 (reason
 * printed) when the store fails. */
int lobby_resume(service *svc);
/* Builds the game again from its stored decisions (after a take-back). */
int lobby_rewind(game *gm);

/* --- new games and seats (lobby_create.c) --- */

/* Creates or joins a game; `account` (NULL for a guest) is the session's:
 * the seat is bound to it and takes its name. A new game draws on the
 * creator's address's budgets (ip): games, games against the strongest
 * computers (the account's too), and games waiting at once. */
int lobby_create(service *svc, const json_t *body, const stored_account *account, const char *ip,
                 game **out, int *seat, char token[TOKEN_LEN + 1], api_error *err);
int lobby_join(game *gm, const json_t *body, const stored_account *account, int *seat,
               char token[TOKEN_LEN + 1], api_error *err);
/* A seat of a game made for two: a person's account (name, id), or a
 * computer level. */
typedef struct {
    int64_t account_id;
    const char *name;
    const char *level; /* a computer's: NULL for a person or a bot */
    bool bot;          /* the account is a bot's */
} pair_seat;
/* Creates a running two-player game of the standard mode with these seats,
 * each person's bound to the account (the seat is played with its session:
 * no token is given out); by (NULL: none) pays for it (lobby_create). */
int lobby_create_pair(service *svc, int variant, const game_clock *clock, bool rated,
                      const pair_seat seats[2], const creator *by, game **out, api_error *err);
/* The same for `players` seats of a mode (an event's table: events.c). */
int lobby_create_table(service *svc, int variant, int players, int mode, const game_clock *clock,
                       bool rated, const pair_seat *seats, const creator *by, game **out,
                       api_error *err);
/* The follow-up game of a finished one, created on first ask (a game
 * created from the asker's address ip); `seat` of the old game takes its
 * seat there. In a rated game a seat bound to a person's account needs that
 * account's session (session_account, 0 for none). */
int lobby_rematch(game *gm, int seat, int64_t session_account, const char *ip, game **out,
                  int *new_seat, char token[TOKEN_LEN + 1], api_error *err);
/* Whether a stored game is a guided first game (docs/server.md, "Guided
 * games"): dealt from its variant's guided seed, with two players. */
bool lobby_stored_guided(const stored_game *sg, int variant, int mode);

/* --- games that end without being played out (lobby_end.c) --- */

/* Frees finished games nobody watches, expires waiting games whose creator
 * is gone, makes the players of a game nobody can finish leave (every
 * person away for --absent-s, a computer in it, no clock), and restarts
 * computer players whose turn was lost to a failed write; called by the
 * housekeeping timer. */
void lobby_housekeeping(service *svc, double now);
/* Whether a running game of people only, without a clock, has had nobody
 * connected for --absent-s: not listed publicly (it expires after
 * --waiting-ttl-s). */
bool lobby_dormant(const game *gm);
/* Whether a running game may still be aborted: no person has placed more
 * than one tile (docs/online-play.md, "Aborting"). */
bool lobby_abortable(const game *gm);
/* A seat aborts the game: it ends without a result, no rating changes. */
int lobby_abort(game *gm, int seat, api_error *err);
/* DELETE /api/games/{id}: the creator cancels a waiting game. */
int lobby_cancel(game *gm, const char *token, api_error *err);
/* A game just made that will not be played (its challenge or seek was
 * settled otherwise meanwhile): it is cancelled. */
void lobby_abandon_new(game *gm);

/* --- the lobby's entries (lobby_list.c) --- */

/* The lobby entry of a game (JSON), as the list shows it. */
json_t *lobby_entry_json(const game *gm);
/* Adds a seat's "account", "rating" and "rating_change" to its JSON, and
 * "bot": true for a bot's. */
void lobby_seat_account_json(json_t *o, const game_seat *s);
/* GET /api/games: the public list of waiting and running games, people
 * first; each argument is the URL's (NULL when absent). With a limit or a
 * cursor {"games":[...],"next":CURSOR|null}, else the first games as a
 * list. NULL with err for a bad argument. */
json_t *lobby_list_query(service *svc, const char *status, const char *variant, const char *limit,
                         const char *cursor, api_error *err);
/* GET /api/games?status=over: the newest finished games. */
json_t *lobby_finished_json(service *svc);
/* GET /api/games?ids=...: the lobby entries of these games, any status. */
json_t *lobby_entries_json(service *svc, const char *ids);

#endif
