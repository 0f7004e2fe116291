/*
 * store.h - the server's memory across restarts: games and their decisions,
 * chat, analyses, accounts, sessions and ratings, in SQLite or PostgreSQL.
 *
 * The store is a layer of its own (src/server/store/): it includes nothing
 * of the server above it, and this is its one interface. Two backends
 * implement it, chosen by store_open's target; store.c says how.
 *
 * A game is its configuration, its seed and its seats (a seat token only as
 * its SHA-256), plus the list of decisions taken in it, in order. The
 * engine rebuilds every position by replaying the decisions from the seed;
 * besides them a game keeps what the engine does not know: its clock and
 * the time left on it, the link to a rematch, a summary of its end for the
 * lobby, and its chat. Each write is its own committed transaction and
 * returns only once committed, so the caller may then announce it.
 *
 * Accounts (schema 4, store_accounts.c): a player's name, the Argon2id
 * hash of their password, their sessions (only the SHA-256 of each
 * session token), their rating per variant, and per rated game and seat
 * the rating before and after. Computer levels are accounts too, without
 * a password. A seat may be bound to an account (account_id). A rated
 * game's ratings change in the same transaction as its last decision.
 */
#ifndef AX_STORE_STORE_H
#define AX_STORE_STORE_H

#include "../../rating/rating.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define STORE_NAME_MAX  96   /* bytes: 24 characters of up to 4 bytes (names.h) */
#define STORE_CHAT_KEEP 200  /* chat messages loaded with a game, the newest */
#define STORE_CHAT_MAX  2000 /* bytes of one chat text (500 characters of UTF-8) */

typedef struct store store;

#define STORE_NEUTRAL_NAME "former player" /* a deleted account's seats */
#define STORE_HASH_MAX     128             /* a password hash (crypto_pwhash_STRBYTES) */

typedef struct {
    char kind[8];   /* human | ai */
    char level[24]; /* ai: the player's name */
    char name[STORE_NAME_MAX + 1];
    char token_hash[65]; /* hex; empty while the seat is free */
    int64_t account_id;  /* the account the seat is bound to, or 0 */
    /* read only (store_load): */
    int place;        /* 1-based place once the game is over, or 0 */
    bool has_rating;  /* the account has played the game's variant rated */
    rt_rating rating; /* its current rating in the game's variant */
    bool rated;       /* the seat was rated in this game: before and after */
    rt_rating before, after;
    bool bot; /* its account is a bot's */
} stored_seat;

typedef struct {
    int n;    /* its number in the game's chat */
    int seat; /* -1: a spectator */
    char name[STORE_NAME_MAX + 1];
    char *text; /* malloc'd */
    int64_t at; /* unix milliseconds */
} stored_chat;

typedef struct {
    char id[24];
    char variant[8];
    char mode[12];
    char status[12]; /* waiting | running | over | expired | cancelled | damaged */
    int players;
    uint64_t seed;
    int64_t created, updated; /* unix seconds */
    int creator;              /* the seat of the player who created it */
    char clock[128];          /* the clock's settings as JSON; "" without */
    char clock_left[128];     /* JSON list of milliseconds per seat; "" */
    char rematch[24], rematch_of[24];
    char end_summary[256]; /* JSON {"reason","ranking"} once over; "" */
    char rules[32];        /* the rules it is played under: "axio-rules/1" */
    char damage[256];      /* status damaged: why it can no longer be replayed */
    bool rated;            /* ratings change when it ends */
    char creator_addr[65]; /* a keyed hash of its creator's address, or "" */
    stored_seat seats[4];
    int ndecisions;
    char **decisions;         /* JSON text of each decision, ply order */
    int64_t last_decision_at; /* unix seconds of the last, 0 without */
    int nchat;                /* the newest STORE_CHAT_KEEP, oldest first */
    int chat_next;            /* the number the next chat message gets */
    stored_chat *chat;
} stored_game;

/* Opens (or creates) the database `target` names, as --db takes it: a
 * PostgreSQL connection URI (postgresql://... or postgres://...), or an
 * SQLite file (sqlite:PATH or a plain PATH). Refuses, without writing
 * anything, a database that is not axio's, is of a newer version, is
 * damaged, or is used by another server; the reason goes to err.
 * sync_full: SQLite's synchronous FULL (PostgreSQL flushes every commit). */
store *store_open(const char *target, bool sync_full, char *err, size_t errlen);
/* The same for a server of a site: PostgreSQL is shared with the site's
 * other servers (store_lease_take), SQLite kept by this one alone. */
store *store_open_server(const char *target, bool sync_full, char *err, size_t errlen);
/* The same for a database that must hold axio's data already: an empty one
 * (or a missing SQLite file) is refused, not created. */
store *store_open_existing(const char *target, char *err, size_t errlen);
/* The same beside a site's running servers (axio admin): PostgreSQL's
 * shared lock, which they hold too; an SQLite file is still refused while
 * its server runs. */
store *store_open_beside(const char *target, char *err, size_t errlen);
void store_close(store *s);
const char *store_error(store *s);
/* "SQLite" or "PostgreSQL". */
const char *store_backend(const store *s);
/* The target as it may be shown or logged: a password in a URI is
 * replaced by "***". */
void store_target_text(const char *target, char *out, size_t size);

int store_create_game(store *s, const stored_game *g);
/* How many waiting games were created from an address (creator_addr). */
int store_waiting_by(store *s, const char *creator_addr, int *n);
/* Records that a seat was taken (by an account, or account_id 0); status
 * is the game's status after it. */
int store_take_seat(store *s, const char *id, int seat, const char *name, const char *token_hash,
                    int64_t account_id, const char *status);
/* Gives a taken seat a new token (the old one stops working). */
int store_set_token(store *s, const char *id, int seat, const char *token_hash);
int store_set_status(store *s, const char *id, const char *status);
/* Ends a game off the decisions (aborted): its status and its end summary
 * (JSON) in one transaction. */
int store_set_end(store *s, const char *id, const char *status, const char *end_summary);
int store_set_rematch(store *s, const char *id, const char *rematch_id);
/* Sets a game that can no longer be replayed aside: status damaged, with
 * the reason. */
int store_set_damaged(store *s, const char *id, const char *why);

/* What the writer thread stores, in the order submitted:
 * - STORE_DECISION: decision number `ply` of a game (JSON text); `status` the
 *   game's new status or NULL, `end_summary` with status over; `clock_left`
 *   the clocks after it, or "". A decision that ends the game carries
 *   `places` (every seat's, 1-based), and for a rated game `rating_game`
 *   (rt_game_from_ranking) and `variant`: the seats' ratings are read,
 *   updated and written in the same transaction, and the write returns
 *   with `seat_rated`, `before` and `after` filled in.
 * - STORE_CLOCKS: only `clock_left`, the clocks of a running game now.
 * - STORE_CHAT: chat message number `chat_n` of a game.
 * - STORE_ANALYSIS: the analysis (JSON text in `decision`) of seat `seat`.
 * - STORE_ENTRY: the game's lobby entry as other servers list it (`entry`,
 *   JSON text, malloc'd) and how many `people` are connected to it.
 * - STORE_TAKE_BACK: the game's decisions from number `ply` on are deleted
 *   (a take-back in a casual game against the computer).
 * A write of a held game names the holder in `instance`: it is fenced
 * (store_lease_take), and fails with lease_lost once another server holds
 * the game. */
enum { STORE_DECISION, STORE_CLOCKS, STORE_CHAT, STORE_ANALYSIS, STORE_ENTRY, STORE_TAKE_BACK };
#define STORE_INSTANCE_LEN 16
typedef struct store_write {
    void *owner; /* the caller's, untouched */
    int kind;
    char game_id[24];
    char instance[STORE_INSTANCE_LEN + 1]; /* the holder, or "" for no fence */
    char *entry;                           /* STORE_ENTRY */
    int people;
    bool lease_lost; /* after completion: failed because another server holds the game */
    int ply, seat;
    char *decision; /* STORE_DECISION: JSON text; STORE_CHAT: the text; malloc'd */
    const char *status;
    char end_summary[256];
    char clock_left[128];
    int chat_n;
    char name[STORE_NAME_MAX + 1];
    int64_t at;         /* STORE_CHAT: unix milliseconds */
    int64_t account_id; /* STORE_CHAT: the writer's account, or 0 (not stored: blocks use it) */
    int places[4];      /* the end: each seat's 1-based place; 0 otherwise */
    bool rated;         /* the end of a rated game: */
    char variant[8];
    rt_game rating_game;
    bool seat_rated[4]; /* results: the seat has an account and was rated */
    int64_t seat_account[4];
    rt_rating before[4], after[4];
    int result;      /* after completion: 0 committed, -1 failed */
    char error[256]; /* why it failed */
    struct store_write *next;
} store_write;

/* Starts the writer thread; notify(arg) is called after each batch. */
int store_writer_start(store *s, void (*notify)(void *), void *arg);
/* Queues a write; the store owns it until store_writer_done returns it. */
void store_writer_submit(store *s, store_write *w);
/* The completed writes, oldest first, as a list; NULL if none. */
store_write *store_writer_done(store *s);
void store_write_free(store_write *w);
/* Commits what is queued, then stops the thread; completed writes are
 * freed without being returned. */
void store_writer_stop(store *s);
/* Calls fn for each game that is waiting or running, oldest first. */
int store_each_unfinished(store *s, int (*fn)(const char *id, void *arg), void *arg);
/* Calls fn for the newest `max` finished games, newest first, loaded
 * without decisions and chat. */
int store_each_finished(store *s, int max, int (*fn)(const stored_game *g, void *arg), void *arg);
/* Reads a game, its decisions and its newest chat: 0, 1 when there is no
 * such game, 2 when its decisions do not follow on from one another (the
 * game is damaged; why in store_error; its row and seats are read, so its
 * status tells whether it was set aside already), -1 on error.
 * stored_game_free releases what it allocated. */
int store_load(store *s, const char *id, stored_game *out);
/* Reads a game and its seats only: 0, 1 when there is no such game, -1. */
int store_load_summary(store *s, const char *id, stored_game *out);
/* Calls fn for each stored decision of a game in ply order, as stored,
 * gaps and all (a damaged game's record); fn returning non-zero stops it
 * with -1. */
int store_each_decision(store *s, const char *id,
                        int (*fn)(int ply, int seat, const char *decision, int64_t at, void *arg),
                        void *arg);
/* Calls fn for each of the games named (in that order; unknown ids are
 * skipped), read with their seats but without decisions and chat, and
 * with the lobby entry its holder last wrote (NULL when none): at most
 * STORE_LIST_MAX ids, two statements for all of them. */
#define STORE_LIST_MAX 50
int store_each_listed(store *s, const char *const *ids, int n,
                      int (*fn)(const stored_game *g, const char *entry, void *arg), void *arg);
void stored_game_free(stored_game *g);
/* A game's stored analysis for one seat: 0 with *text (malloc'd), 1 when
 * there is none, -1 on error. */
int store_get_analysis(store *s, const char *id, int seat, char **text);

/* --- the servers of one site (store_owners.c) ---
 *
 * Several servers share one PostgreSQL database as one site (SQLite keeps
 * one server per file, under the same logic). Exactly one server holds a
 * game at a time: a lease (table game_owners: the game, the server's
 * instance id, until when), taken before the game is loaded, renewed
 * together for all a server holds, released when it lets the game go; an
 * expired lease may be taken by anyone. Every write of a held game is
 * fenced (store_write.instance): it commits only while the lease still
 * names its server, so a server that lost a game - it froze, its lease
 * expired, another took the game - never writes to it again. Times are
 * unix milliseconds of the servers' clocks (kept in step by NTP: a skew
 * only moves when an expired lease is taken, never lets two servers write).
 * Servers talk in short texts (store_notify), which every server hears,
 * the sender too (store_listen_start, store_messages). */

/* 0 taken (or renewed: the instance held it), 1 held by another server
 * until later than now (its id in holder unless NULL), -1 on error. */
int store_lease_take(store *s, const char *game_id, const char *instance, int64_t now_ms,
                     int64_t until_ms, char holder[STORE_INSTANCE_LEN + 1]);
/* Renews every lease of the instance until until_ms and records the
 * instance as alive now; *held: how many leases it holds. */
int store_leases_renew(store *s, const char *instance, int64_t now_ms, int64_t until_ms,
                       int64_t *held);
/* Calls fn for each game the instance holds. */
int store_each_lease(store *s, const char *instance, int (*fn)(const char *id, void *arg),
                     void *arg);
/* Lets a game go: any server may take it at once, and if none has by
 * until_ms, it is an orphan (store_each_orphan) that one adopts. */
int store_lease_release(store *s, const char *game_id, const char *instance, int64_t until_ms);
/* Releases every lease of the instance so, and forgets it (it stops). */
int store_leases_release_all(store *s, const char *instance, int64_t until_ms);
/* Calls fn for up to max waiting or running games that no server holds
 * (no lease, or an expired or released one past its until_ms), oldest
 * first. */
int store_each_orphan(store *s, int64_t now_ms, int max, int (*fn)(const char *id, void *arg),
                      void *arg);
/* The servers seen alive since since_ms (store_leases_renew). */
int store_instances_alive(store *s, int64_t since_ms, int *n);
/* A game's lobby entry as its holder last wrote it: calls fn for each
 * waiting or running game with an entry that the instance does not hold. */
int store_each_entry(store *s, const char *instance,
                     int (*fn)(const char *id, int64_t created, int people, const char *entry,
                               void *arg),
                     void *arg);
/* The lobby entry a game's holder last wrote: 0 with *entry (malloc'd),
 * 1 when it has none, -1. */
int store_get_entry(store *s, const char *id, char **entry);
/* Where a server is reached by the others ("HOST:PORT", at most
 * STORE_ADDRESS_MAX bytes), recorded when it starts. */
#define STORE_ADDRESS_MAX 64
int store_instance_register(store *s, const char *instance, const char *address, int64_t now_ms);
/* A server's address: 0 with it in out, 1 when unknown, -1 on error. */
int store_instance_address(store *s, const char *instance, char *out, size_t size);
/* Calls fn for each server seen alive since since_ms that has an address
 * (fn must not use the store). */
int store_each_peer(store *s, int64_t since_ms,
                    int (*fn)(const char *instance, const char *address, void *arg), void *arg);
/* A secret of the site (the same on every server): the value stored under
 * name, which is `fresh` if none was stored before. */
int store_site_secret(store *s, const char *name, const char *fresh, char *out, size_t size);

/* --- budgets: limits counted for the whole site ---
 *
 * At most `max` uses per key ("games ip 10.0.0.7", ...) in a window of
 * window_ms from the first use in it, kept in the store so that every
 * server of a site counts the same uses. 1 when `cost` more uses were
 * counted (a negative cost gives uses back; 0 only looks), 0 when they do
 * not fit (nothing changes), -1 on error. *retry_ms (unless NULL): refused,
 * or granted and now full, how long until the window ends; else 0. */
int store_budget_take(store *s, const char *key, int max, int64_t window_ms, int cost,
                      int64_t now_ms, int64_t *retry_ms);
/* Forgets the budgets whose window began before before_ms. */
int store_budgets_prune(store *s, int64_t before_ms);

/* Sends a text (at most 7,000 bytes) to every server of the site, this
 * one too; nothing for SQLite, which has no other servers. */
int store_notify(store *s, const char *text);
/* Starts listening on a thread of its own: notify(arg) from that thread
 * when something came. 0 (at once for SQLite: nothing will), -1 with the
 * reason in store_error. */
int store_listen_start(store *s, void (*notify)(void *), void *arg);
/* What was heard since the last call, oldest first, as a list. An empty
 * text says the listener was away: anything may have been missed. */
typedef struct store_message {
    struct store_message *next;
    char text[];
} store_message;
store_message *store_messages(store *s);
void store_messages_free(store_message *m);
/* Whether other servers may share the database (PostgreSQL). */
bool store_shared(const store *s);

/* --- accounts, sessions, ratings (store_accounts.c) --- */

#define STORE_ABOUT_MAX 1200 /* bytes of a bot's about text (300 characters) */

typedef struct {
    int64_t id;
    char name[STORE_NAME_MAX + 1];
    bool computer;
    char password_hash[STORE_HASH_MAX]; /* "" for a computer level */
    bool bot;                           /* played by a program (store_bots.c) */
    char bot_about[STORE_ABOUT_MAX + 1];
} stored_account;

/* A new account: 0 with *id, 1 when the key (names.c's folded name) is
 * taken, -1 on error. skeleton: names.c's look-alike key. */
int store_account_create(store *s, const char *name, const char *key, const char *skeleton,
                         const char *password_hash, int64_t created, int64_t *id);
/* 0 with an account whose name has this skeleton, 1 when none, -1 on error. */
int store_account_by_skeleton(store *s, const char *skeleton, stored_account *out);
/* Gives every account skeleton(key) as it is now: the rows whose stored
 * one is missing (older accounts, computer levels) or differs (the
 * definition changed) are rewritten, in one transaction. Then clash(arg,
 * name, other), when given, for each rewritten account whose skeleton
 * another account has too. The number rewritten, or -1. */
int store_fill_skeletons(store *s, int (*skeleton)(const char *key, char *out, size_t size),
                         void (*clash)(void *arg, const char *name, const char *other), void *arg);
/* Makes sure a computer level has its account (no password). */
int store_computer_ensure(store *s, const char *name, const char *key, int64_t created);
/* 0 with the account, 1 when there is none, -1 on error. */
int store_account_by_key(store *s, const char *key, stored_account *out);
int store_account_by_id(store *s, int64_t id, stored_account *out);
/* A new password; in the same transaction every session of the account
 * but keep_session (a token hash) is revoked. */
int store_account_set_password(store *s, int64_t id, const char *password_hash,
                               const char *keep_session);
/* Deletes an account, its sessions, ratings and rating history; its seats
 * keep their games under STORE_NEUTRAL_NAME. One transaction. */
int store_account_delete(store *s, int64_t id);

int store_session_create(store *s, const char *token_hash, int64_t account_id, int64_t created,
                         int64_t expires);
/* Revokes the account's oldest sessions so that at most max are left, the
 * session `keep` (a token hash) among them. */
int store_sessions_cap(store *s, int64_t account_id, const char *keep, int max);
/* The account of an unexpired session: 0, 1 when none, -1 on error. */
int store_session_account(store *s, const char *token_hash, int64_t now, stored_account *out);
int store_session_delete(store *s, const char *token_hash);
/* Forgets sessions that expired. */
int store_sessions_prune(store *s, int64_t now);

/* An account's rating in a variant: 0 (games 0 and the initial rating
 * when it has not played it rated), -1 on error. */
int store_rating(store *s, int64_t account_id, const char *variant, rt_rating *out, int *games);

/* One finished game of an account, for its profile. */
typedef struct {
    char id[24], variant[8], mode[12];
    int players;
    bool rated;
    int place; /* 1-based; 0 when unknown */
    int64_t ended;
    bool has_change; /* rated: */
    rt_rating before, after;
} stored_player_game;
/* Calls fn for the account's newest `max` finished games, newest first. */
int store_player_games(store *s, int64_t account_id, int max,
                       int (*fn)(const stored_player_game *g, void *arg), void *arg);

typedef struct {
    char name[STORE_NAME_MAX + 1];
    bool computer, bot;
    rt_rating rating;
    int games;
} stored_ranked;
/* Calls fn for every player with at least one rated game in the variant. */
int store_each_rated(store *s, const char *variant, int (*fn)(const stored_ranked *p, void *arg),
                     void *arg);

/* --- bots and personal API tokens (store_bots.c) --- */

#define STORE_TOKEN_ID_MAX 16  /* a token's public id */
#define STORE_LABEL_MAX    240 /* bytes of a token's label */
#define STORE_SCOPES_MAX   120 /* its scopes, space-separated */

typedef struct {
    char id[STORE_TOKEN_ID_MAX + 1];
    int64_t account_id;
    char label[STORE_LABEL_MAX + 1];
    char scopes[STORE_SCOPES_MAX + 1];
    int64_t created, used; /* unix ms; used 0: never */
} stored_token;

/* Makes an account a bot, for good: 0; 1 when it has played a rated game,
 * is a computer level or is a bot already (nothing changes), -1 on error. */
int store_account_make_bot(store *s, int64_t account_id, const char *about);
/* A new token (its SHA-256 in hash): 0, -1 on error. */
int store_token_create(store *s, const stored_token *t, const char *hash);
/* The account and token of a token's hash, which is marked used at now_ms:
 * 0, 1 when there is none, -1 on error. */
int store_token_account(store *s, const char *hash, int64_t now_ms, stored_token *token,
                        stored_account *account);
/* Calls fn for each token of the account, newest first. */
int store_each_token(store *s, int64_t account_id, int (*fn)(const stored_token *t, void *arg),
                     void *arg);
/* Revokes a token of the account: 0, 1 when it has no such token, -1. */
int store_token_delete(store *s, int64_t account_id, const char *id);
/* The token's newest event stream is `stream` (a random id): any older one
 * of the site ends when it sees so (store_token_stream). */
int store_token_stream_set(store *s, const char *token_id, const char *stream);
typedef struct {
    int64_t id;
    char name[STORE_NAME_MAX + 1];
    char about[STORE_ABOUT_MAX + 1];
    int64_t seen_at; /* unix ms, 0 never */
} stored_bot;
/* Calls fn for the bots, the last seen first (max at most). */
int store_each_bot(store *s, int max, int (*fn)(const stored_bot *b, void *arg), void *arg);
/* 0 while `stream` is the token's newest event stream, 1 when another one
 * (or none: the token was revoked) is, -1 on error. */
int store_token_stream(store *s, const char *token_id, const char *stream);

/* --- people and how they meet (store_social.c) --- */

/* An account was seen (a request or a connection with its session). */
int store_account_seen(store *s, int64_t account_id, int64_t now_ms);
/* A seat of an account in a waiting or running game, and the game's terms. */
typedef struct {
    char id[24];
    int seat;
    char status[12], variant[8], mode[12];
    int players;
    bool rated;
    char clock[128];
} stored_game_of;
/* Calls fn for each of them, newest game first (max at most). */
int store_each_game_of(store *s, int64_t account_id, int max,
                       int (*fn)(const stored_game_of *g, void *arg), void *arg);
/* Calls fn for the account's seats in waiting and running games, newest
 * game first (max at most). */
int store_each_open_game_of(store *s, int64_t account_id, int max,
                            int (*fn)(const char *id, int seat, void *arg), void *arg);

typedef struct {
    int64_t id;
    char name[STORE_NAME_MAX + 1];
    bool computer;
    bool bot;
    int64_t seen_at; /* unix ms, 0 never */
} stored_person;

/* account_id follows follows_id: 0, 1 when it did already, -1. */
int store_follow(store *s, int64_t account_id, int64_t follows_id, int64_t at);
/* 0, 1 when it did not, -1. */
int store_unfollow(store *s, int64_t account_id, int64_t follows_id);
/* Calls fn for each account the account follows, by name. */
int store_each_followed(store *s, int64_t account_id, int (*fn)(const stored_person *p, void *arg),
                        void *arg);
/* Calls fn for the first max accounts whose name key (names.c's fold)
 * starts with key_prefix, by key. */
int store_search_players(store *s, const char *key_prefix, int max,
                         int (*fn)(const stored_person *p, void *arg), void *arg);

/* A challenge from one account to players - 1 others (the invited) to a
 * game of `players` seats: a two-player game's to one, a 3- or 4-player
 * game's to two or three at once (issue 49). */
#define STORE_CHALLENGE_TO 3
typedef struct {
    char id[24];
    int64_t from_id;
    int64_t to_id[STORE_CHALLENGE_TO];  /* the invited: players - 1 of them, then 0 */
    char from_name[STORE_NAME_MAX + 1]; /* read only */
    char to_name[STORE_CHALLENGE_TO][STORE_NAME_MAX + 1]; /* read only */
    char variant[8];
    int players;
    char mode[12];
    bool rated;
    char clock[128];          /* the clock's settings as JSON, "" without */
    char status[12];          /* open, accepted, declined, cancelled, expired */
    unsigned accepted;        /* bit i: to_id[i] accepted (the game waits for all) */
    char game_id[24];         /* accepted: the game */
    char reason[24];          /* declined: why */
    int64_t declined_by;      /* declined: who (0 none) */
    int64_t created, expires; /* unix ms */
    bool from_bot, to_bot[STORE_CHALLENGE_TO]; /* read only */
} stored_challenge;

int store_challenge_create(store *s, const stored_challenge *c);
/* 0 with it, 1 when there is none, -1. */
int store_challenge_get(store *s, const char *id, stored_challenge *out);
/* Moves a challenge from from_status to status (with its game or the
 * reason, each NULL for none, and who declined, 0 for none): 0, 1 when it
 * was not in from_status, -1. */
int store_challenge_settle(store *s, const char *id, const char *from_status, const char *status,
                           const char *game_id, const char *reason, int64_t declined_by);
/* Invited number `index` of an open challenge accepts (yes) or takes its
 * acceptance back: 0, 1 when it is not open, -1. */
int store_challenge_answer(store *s, const char *id, int index, bool yes);
/* Expires the open challenges past their time, then calls fn for the
 * account's challenges, sent and received, open or settled since
 * settled_since_ms, newest first (50 at most). */
int store_each_challenge(store *s, int64_t account_id, int64_t now_ms, int64_t settled_since_ms,
                         int (*fn)(const stored_challenge *c, void *arg), void *arg);

/* A seek: an account waiting to be paired for a two-player game. */
typedef struct {
    char id[24];
    int64_t account_id;
    char name[STORE_NAME_MAX + 1]; /* read only */
    char variant[8];
    bool rated;
    char clock[128];
    int rating;       /* the seeker's in the variant */
    char status[12];  /* open, matched, cancelled */
    char game_id[24]; /* matched: the game and the seat */
    int seat;
    int64_t created, polled; /* unix ms: made, last asked about */
} stored_seek;

int store_seek_create(store *s, const stored_seek *k);
/* 0 with it, 1 when there is none, -1. */
int store_seek_get(store *s, const char *id, stored_seek *out);
/* The seeker still waits. */
int store_seek_poll(store *s, const char *id, int64_t now_ms);
/* The oldest open seek of another account for the same variant, rating
 * and clock, whose rating is within `window` of k's and whose seeker asked
 * since alive_since_ms, of an account that neither blocks k's nor is
 * blocked by it: 0 with it, 1 when none, -1. */
int store_seek_partner(store *s, const stored_seek *k, int window, int64_t alive_since_ms,
                       stored_seek *out);
/* Matches open seeks a (and b, unless NULL) to a game at their seats, in
 * one transaction: 0, 1 when one was no longer open (nothing changed), -1. */
int store_seek_match(store *s, const char *a, int seat_a, const char *b, int seat_b,
                     const char *game_id);
/* 0, 1 when it was not open, -1. */
int store_seek_cancel(store *s, const char *id);
/* Forgets seeks nobody asked about since seeks_before_ms and settled
 * challenges made before challenges_before_ms. */
int store_social_prune(store *s, int64_t seeks_before_ms, int64_t challenges_before_ms);

/* --- moderation (store_moderation.c; docs/moderation.md, issue 51) ---
 *
 * Blocks (private to the blocker), reports of a player, a game or a chat
 * line, the moderators' sanctions and their undo, names held back after a
 * rename, and the moderation log, which only grows: the database refuses
 * to change or delete its rows. A reporter or moderator 0 is the site's
 * automatic help (word lists, rating abuse). */

#define STORE_ROLE_MAX        16
#define STORE_REASON_MAX      24
#define STORE_REPORT_TEXT_MAX 8000 /* bytes: 2,000 characters of up to 4 bytes */
#define STORE_MOD_TEXT_MAX    2000 /* bytes of a moderator's why, or a warning */

/* An account's role ("" or "moderator") and whether it is closed: 0, 1
 * when there is no such account, -1. */
int store_account_role(store *s, int64_t account_id, char role[STORE_ROLE_MAX + 1], bool *closed);
/* Gives a person's account a role (NULL: none): 0, 1 when there is no
 * such account (computer levels have none), -1. */
int store_account_set_role(store *s, int64_t account_id, const char *role);

/* The account of a name as shown (else the one name equal to it in ASCII
 * case; axio admin): 0, 1 when none, 2 when several, -1. */
int store_account_by_name(store *s, const char *name, stored_account *out);
/* Calls fn for each account with a role, by name. */
int store_each_role(store *s, int (*fn)(const char *name, const char *role, void *arg), void *arg);

/* account_id blocks blocked_id: 0, 1 when it did already, -1. */
int store_block(store *s, int64_t account_id, int64_t blocked_id, int64_t at);
/* 0, 1 when it did not, -1. */
int store_unblock(store *s, int64_t account_id, int64_t blocked_id);
/* 0 when account_id blocks blocked_id, 1 when not, -1. */
int store_blocks(store *s, int64_t account_id, int64_t blocked_id);
/* Calls fn for each account the account blocks, by name. */
int store_each_blocked(store *s, int64_t account_id, int (*fn)(const stored_person *p, void *arg),
                       void *arg);

typedef struct {
    int64_t id;
    int64_t reporter_id; /* 0: filed by the site itself */
    int64_t target_id;
    char reporter[STORE_NAME_MAX + 1], target[STORE_NAME_MAX + 1]; /* read only */
    char game_id[24];                                              /* "" for none */
    int chat_n;                                                    /* the chat line, or -1 */
    char reason[STORE_REASON_MAX + 1];
    char text[STORE_REPORT_TEXT_MAX + 1];
    char status[12];             /* open, closed */
    int64_t created, handled_at; /* unix ms */
    int64_t handled_by;
} stored_report;

/* Files a report (status open); its id in r->id. */
int store_report_create(store *s, stored_report *r);
/* 0 with it, 1 when there is none, -1. */
int store_report_get(store *s, int64_t id, stored_report *out);
/* Calls fn for the reports of a status (NULL: all), oldest first, or of one
 * target (target_id > 0), newest first; max at most. */
int store_each_report(store *s, const char *status, int64_t target_id, int max,
                      int (*fn)(const stored_report *r, void *arg), void *arg);
/* Closes an open report: 0, 1 when it was not open, -1. */
int store_report_close(store *s, int64_t id, int64_t by, int64_t at);
/* 0 when an open report the site filed about the target for the reason
 * exists, 1 when none, -1. */
int store_report_open_auto(store *s, int64_t target_id, const char *reason);

typedef struct {
    int64_t id;
    int64_t account_id;
    char kind[16];                       /* warn, timeout, shadow_mute, rename, close */
    char game_id[24];                    /* timeout: the one game, or "" for the whole site */
    char detail[STORE_MOD_TEXT_MAX + 1]; /* warn: the message; rename: the old name */
    int64_t until;                       /* timeout: unix ms; 0 for none */
    int64_t created, lifted, seen;       /* unix ms; 0: not (yet) */
    int64_t by_id;                       /* the moderator */
} stored_sanction;

/* Stores a sanction; its id in x->id. */
int store_sanction_add(store *s, stored_sanction *x);
int store_sanction_get(store *s, int64_t id, stored_sanction *out);
/* Lifts (undoes) a sanction: 0, 1 when it was lifted already, -1. */
int store_sanction_lift(store *s, int64_t id, int64_t at);
/* Calls fn for the account's sanctions, newest first (max at most). */
int store_each_sanction(store *s, int64_t account_id, int max,
                        int (*fn)(const stored_sanction *x, void *arg), void *arg);
/* What keeps the account's chat in a game from others at now_ms: 0 with
 * the sanction (a timeout before a shadow mute), 1 when none, -1. */
int store_chat_restriction(store *s, int64_t account_id, const char *game_id, int64_t now_ms,
                           stored_sanction *out);
/* Calls fn for the account's warnings not yet seen nor lifted, oldest
 * first; store_warnings_seen marks them seen. */
int store_each_warning(store *s, int64_t account_id, int (*fn)(const stored_sanction *x, void *arg),
                       void *arg);
int store_warnings_seen(store *s, int64_t account_id, int64_t at);

/* Closes (closed true) or reopens an account in one transaction: its
 * seats show seat_name (closing) or its name again (reopening); closing
 * revokes its sessions. 0, 1 when it was so already or is no person's, -1. */
int store_account_close(store *s, int64_t account_id, bool closed, const char *seat_name);
/* 0 (*account_id: whose) when a rename holds back a name of this key or
 * look-alike skeleton, 1 when none, -1. */
int store_name_held(store *s, const char *key, const char *skeleton, int64_t *account_id);
/* Renames an account and its seats, in one transaction; hold_old: the old
 * name is held back for it. A name the account held itself is released.
 * 0, 1 when the key is taken, -1. */
int store_account_rename(store *s, int64_t account_id, const char *name, const char *key,
                         const char *skeleton, bool hold_old);

typedef struct {
    int64_t id, at;       /* unix ms */
    int64_t moderator_id; /* 0: the site itself */
    char moderator[STORE_NAME_MAX + 1];
    int64_t target_id;
    char target[STORE_NAME_MAX + 1];
    char action[24];
    char detail[STORE_MOD_TEXT_MAX + 1];
    char reason[STORE_MOD_TEXT_MAX + 1];
} stored_log;

/* Appends to the moderation log; its id in e->id. */
int store_log_add(store *s, stored_log *e);
/* Calls fn for the newest max entries (of one target when target_id > 0),
 * newest first, those before before_id when it is > 0. */
int store_each_log(store *s, int64_t target_id, int64_t before_id, int max,
                   int (*fn)(const stored_log *e, void *arg), void *arg);

/* One stored chat line of a game, with its number. */
typedef struct {
    int n, seat;
    char name[STORE_NAME_MAX + 1];
    char text[STORE_CHAT_MAX + 1];
    int64_t at;
} stored_chat_line;
/* Calls fn for the game's chat lines numbered from..to, in order. */
int store_each_chat_line(store *s, const char *game_id, int from, int to,
                         int (*fn)(const stored_chat_line *l, void *arg), void *arg);
/* Rated games (over since since_s, unix seconds) the account lost having
 * made at most max_decisions decisions itself, newest first (max 50). */
int store_quick_losses(store *s, int64_t account_id, int64_t since_s, int max_decisions,
                       int (*fn)(const char *game_id, void *arg), void *arg);
/* Rated two-player games (over since since_s) the account lost to
 * opponent_id, newest first (max 50). */
int store_losses_to(store *s, int64_t account_id, int64_t opponent_id, int64_t since_s,
                    int (*fn)(const char *game_id, void *arg), void *arg);
/* --- notifications (store_push.c; issue 52, docs/notifications.md) --- */

#define STORE_ENDPOINT_MAX 1024 /* bytes of a push service's URL */
#define STORE_PREFS_MAX    512  /* bytes of the preferences' JSON */

typedef struct {
    char endpoint[STORE_ENDPOINT_MAX + 1];
    int64_t account_id;
    char p256dh[96]; /* base64url of the browser's P-256 public key */
    char auth[32];   /* base64url of its 16-byte secret */
    int64_t created; /* unix milliseconds */
} stored_subscription;

/* Keeps a Web Push subscription for an account (an endpoint already kept,
 * for this or another account, is replaced: a browser belongs to whoever
 * subscribed it last); then only the account's newest `max` stay. */
int store_push_subscribe(store *s, const stored_subscription *sub, int max);
/* Forgets an endpoint: of that account (account_id 0: of any). 0, 1 when
 * there was none, -1 on error. */
int store_push_unsubscribe(store *s, int64_t account_id, const char *endpoint);
/* Calls fn for each subscription of an account, newest first (fn may use
 * the store; returning non-zero stops). */
int store_each_subscription(store *s, int64_t account_id,
                            int (*fn)(const stored_subscription *sub, void *arg), void *arg);
/* An account's notification settings: 0 with its language and the
 * preferences' JSON, 1 when it has none stored, -1 on error. */
int store_notify_settings(store *s, int64_t account_id, char lang[8],
                          char prefs[STORE_PREFS_MAX + 1]);
int store_notify_settings_set(store *s, int64_t account_id, const char *lang, const char *prefs);

#define STORE_EMAIL_MAX 254

typedef struct {
    int64_t account_id;
    char address[STORE_EMAIL_MAX + 1];
    bool verified;
    char token_hash[65]; /* SHA-256 of the token its links carry */
    int64_t digest_at;   /* unix ms of the last digest, or 0 */
} stored_email;

/* An account's address for the daily digest, unverified, with a new
 * token (replacing any address it had). */
int store_email_set(store *s, int64_t account_id, const char *address, const char *token_hash);
/* 0 with the account's address, 1 when it has none, -1. */
int store_email_get(store *s, int64_t account_id, stored_email *out);
/* 0 with the address whose token has this hash, 1 when none, -1. */
int store_email_by_token(store *s, const char *token_hash, stored_email *out);
int store_email_verify(store *s, int64_t account_id);
/* Forgets the account's address: 0, 1 when it had none, -1. */
int store_email_delete(store *s, int64_t account_id);
/* A digest was sent at at_ms with links carrying a new token (its hash):
 * the address's token becomes that one. */
int store_email_digest_sent(store *s, int64_t account_id, const char *token_hash, int64_t at_ms);
/* Calls fn for each verified address whose last digest was before
 * before_ms (fn may use the store; non-zero stops). */
int store_each_email_due(store *s, int64_t before_ms, int (*fn)(const stored_email *e, void *arg),
                         void *arg);

/* --- events: arenas and Swiss tournaments (store_events.c; issue 50) --- */

#define STORE_EVENT_NAME_MAX 240 /* bytes: 60 characters of up to 4 bytes */
#define STORE_EVENT_SEATS    4

typedef struct {
    char id[24];
    char name[STORE_EVENT_NAME_MAX + 1];
    int64_t organiser_id;
    char organiser[STORE_NAME_MAX + 1]; /* read only */
    char format[8];                     /* arena | swiss */
    char variant[8], mode[12];
    int seats;
    char clock[128]; /* the clock's settings as JSON */
    bool rated, bots;
    int64_t starts; /* unix ms */
    int duration_s; /* arena */
    int rounds;     /* swiss */
    int days_per_round;
    int min_rated_games;
    char status[12];              /* upcoming | running | finished | cancelled */
    int round;                    /* swiss: the round being played; arena: tables made so far */
    int64_t round_deadline, ends; /* unix ms, 0 for none */
    char cancel_reason[24];
    int64_t created;
    char creator_addr[65];
    int players; /* read only: joined and not withdrawn */
} stored_event;

typedef struct {
    int64_t account_id;
    char name[STORE_NAME_MAX + 1];
    bool bot;
    int64_t joined;
    bool withdrawn;
    int misses;
} stored_entrant;

/* A table of an event: a game (game_id) or a bye (game_id "", seats 1). */
typedef struct {
    int round, table;
    char game_id[24];
    int seats;
    int64_t player[STORE_EVENT_SEATS]; /* account ids, seat order */
    int points[STORE_EVENT_SEATS];     /* once over: tournament units */
    int places[STORE_EVENT_SEATS];     /* once over: 1-based; 0 no place (a no-show) */
    bool running, counted;
    int64_t created, ended, deadline; /* unix ms; deadline 0: none */
} stored_event_table;

int store_event_create(store *s, const stored_event *e);
/* 0 with it, 1 when there is none, -1. */
int store_event_get(store *s, const char *id, stored_event *out);
/* Calls fn for up to max events of a status: upcoming and running by start,
 * the others newest first. */
int store_each_event(store *s, const char *status, int max,
                     int (*fn)(const stored_event *e, void *arg), void *arg);
/* Events an account organises that are upcoming or running; events
 * created from an address (creator_addr) since since_ms. */
int store_events_organised(store *s, int64_t account_id, const char *creator_addr, int64_t since_ms,
                           int *organised, int *by_addr);
/* Calls fn for the upcoming and running events the account joined and did
 * not withdraw from, soonest first. */
int store_each_event_of(store *s, int64_t account_id, int (*fn)(const stored_event *e, void *arg),
                        void *arg);
/* Joins (again) an upcoming event, or a running one when allow_running: 0,
 * 1 when it is not open so, 2 when max_players have joined already, -1. */
int store_event_join(store *s, const char *id, int64_t account_id, int64_t now_ms,
                     bool allow_running, int max_players);
/* 0, 1 when the account had not joined (or withdrew already), -1. */
int store_event_withdraw(store *s, const char *id, int64_t account_id);
/* Moves an event from from_status to status (e->status), writing its
 * round, round_deadline, ends and cancel_reason: 0, 1 when it was not in
 * from_status, -1. */
int store_event_set_status(store *s, const stored_event *e, const char *from_status);
/* The entrants, by joining order (withdrawn too): *list malloc'd. */
int store_event_entrants(store *s, const char *id, stored_entrant **list, int *n);
/* The tables, by round and number: *list malloc'd. */
int store_event_tables(store *s, const char *id, stored_event_table **list, int *n);
/* The running tables whose game is no longer running (their status in
 * the games table: over, aborted, ...): *list malloc'd. */
int store_event_tables_ended(store *s, const char *id, stored_event_table **list, int *n);
/* The event runner's lease: 0 taken or renewed, 1 another runs it, -1. */
int store_event_lease(store *s, const char *id, const char *instance, int64_t now_ms,
                      int64_t until_ms);
/* In one transaction fenced by the runner's lease: tables added (with the
 * event's new round and round_deadline). 0, 1 when the lease was lost or a
 * table exists already (nothing written), -1. */
int store_event_add_tables(store *s, const stored_event *e, const char *instance,
                           const stored_event_table *tables, int n);
/* In one transaction fenced so: a running table is over (its points,
 * places, counted, ended), each account in missed[] (n_missed) misses one
 * more and is withdrawn at max_misses. 0, 1 when lost or not running, -1. */
int store_event_end_table(store *s, const char *id, const char *instance,
                          const stored_event_table *t, const int64_t *missed, int n_missed,
                          int max_misses);
/* The event and table of a game: 0, 1 when it is no event's, -1. */
int store_event_of_game(store *s, const char *game_id, char event_id[24]);
/* Events due to be run: upcoming ones whose start passed, running ones. */
int store_each_due_event(store *s, int64_t now_ms, int (*fn)(const stored_event *e, void *arg),
                         void *arg);

/* --- copying a database (store_copy.c; axio db copy) --- */

/* The tables, in the order a copy takes them. */
enum {
    STORE_T_ACCOUNTS,
    STORE_T_GAMES,
    STORE_T_SEATS,
    STORE_T_DECISIONS,
    STORE_T_CHAT,
    STORE_T_ANALYSES,
    STORE_T_SESSIONS,
    STORE_T_RATINGS,
    STORE_T_HISTORY,
    STORE_T_FOLLOWS,
    STORE_T_TOKENS,
    STORE_T_BLOCKS, /* moderation (store_moderation.c) */
    STORE_T_REPORTS,
    STORE_T_SANCTIONS,
    STORE_T_HELD_NAMES,
    STORE_T_MOD_LOG,
    STORE_T_SUBSCRIPTIONS, /* notifications (store_push.c) */
    STORE_T_NOTIFY_SETTINGS,
    STORE_T_EMAILS,
    STORE_T_EVENTS, /* events (store_events.c) */
    STORE_T_EVENT_PLAYERS,
    STORE_T_EVENT_TABLES,
    STORE_T_SITE, /* the site's secrets: its VAPID keys go with its subscriptions */
    STORE_T_COUNT
};
const char *store_table_name(int table);

/* What copying rows found. */
typedef struct {
    long added;     /* missing in the target: added */
    long equal;     /* there already, equal */
    long different; /* there already with other values, or kept out by another row's unique
                       value: left as they are, and reported */
} store_copy_count;

/* Calls fn for the id of every game, in the order they were stored; fn
 * returning non-zero stops it. */
int store_each_game(store *s, int (*fn)(const char *id, void *arg), void *arg);
/* Copies a game's rows (the game, its seats, decisions, chat and analyses)
 * from `from` into `to`, in one transaction of `to`; counts[table] counts
 * them, report(what, arg) hears of each row that differs. 0, or -1 with
 * the reason in store_error(to). */
int store_copy_game(store *from, store *to, const char *id, store_copy_count counts[STORE_T_COUNT],
                    void (*report)(const char *what, void *arg), void *arg);
/* Copies every row of a table that is not a game's (accounts, sessions,
 * ratings, rating history) in one transaction of `to`, likewise. */
int store_copy_table(store *from, store *to, int table, store_copy_count *count,
                     void (*report)(const char *what, void *arg), void *arg);
/* After copying: the target's new account ids follow the copied ones. */
int store_copy_finish(store *to);
/* The number of rows of a table. */
int store_count_rows(store *s, int table, int64_t *n);

#endif
