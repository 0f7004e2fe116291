/*
 * store.c - the SQLite store (see store.h).
 *
 * Opening checks before it writes: the file must be empty or an axio
 * database (PRAGMA application_id 'AXIO', user_version 1, the expected
 * tables and columns) and pass PRAGMA quick_check. Anything else stops the
 * server with the reason and leaves the file as it was. The connection then
 * runs in WAL mode with exclusive locking, so a second server on the same
 * file is refused instead of resuming the same games twice. Statements are
 * prepared once. The event loop and the writer thread share the connection
 * under one mutex, held for a whole transaction; the error text a caller
 * reads is copied out under it.
 */
#include "store.h"
#include "store_internal.h"

#include <pthread.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define APPLICATION_ID 0x4158494F /* "AXIO", 1096304975 in schema_v1 */
#define SCHEMA_VERSION 6

/* The first schema; a new database is created with it and then migrated
 * like any old one, so that every migration runs in every test. */
static const char schema_v1[] =
    "CREATE TABLE games(id TEXT PRIMARY KEY, variant TEXT NOT NULL, players INTEGER NOT NULL,"
    " mode TEXT NOT NULL, seed TEXT NOT NULL, status TEXT NOT NULL,"
    " created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL);"
    "CREATE INDEX games_status ON games(status, created_at);"
    "CREATE TABLE seats(game_id TEXT NOT NULL, seat INTEGER NOT NULL, kind TEXT NOT NULL,"
    " level TEXT, name TEXT NOT NULL, token_hash TEXT, PRIMARY KEY(game_id, seat));"
    "CREATE TABLE decisions(game_id TEXT NOT NULL, ply INTEGER NOT NULL, seat INTEGER NOT NULL,"
    " decision TEXT NOT NULL, at INTEGER NOT NULL, PRIMARY KEY(game_id, ply));"
    "PRAGMA application_id = 1096304975;"
    "PRAGMA user_version = 1;";

/* migrations[v - 1] takes a database from version v to v + 1. */
static const char *const migrations[] = {
    /* 1 -> 2: online play (clocks, rematch, the lobby's finished games, chat) */
    "ALTER TABLE games ADD COLUMN creator INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE games ADD COLUMN clock TEXT;"
    "ALTER TABLE games ADD COLUMN clock_left TEXT;"
    "ALTER TABLE games ADD COLUMN rematch TEXT;"
    "ALTER TABLE games ADD COLUMN rematch_of TEXT;"
    "ALTER TABLE games ADD COLUMN end_summary TEXT;"
    "CREATE INDEX games_ended ON games(status, updated_at);"
    "CREATE TABLE chat(game_id TEXT NOT NULL, n INTEGER NOT NULL, seat INTEGER,"
    " name TEXT NOT NULL, text TEXT NOT NULL, at INTEGER NOT NULL, PRIMARY KEY(game_id, n));"
    "PRAGMA user_version = 2;",
    /* 2 -> 3: the rules each game is played under (every game stored before
     * was played under the first and only rules there had been), and why a
     * game set aside as damaged can no longer be replayed */
    "ALTER TABLE games ADD COLUMN rules TEXT NOT NULL DEFAULT 'axio-rules/1';"
    "ALTER TABLE games ADD COLUMN damage TEXT;"
    "PRAGMA user_version = 3;",
    /* 3 -> 4: accounts and ratings (docs/accounts.md, docs/ratings.md).
     * name_key is names.c's case-folded name: unique regardless of case.
     * A computer level is an account without a password. Sessions are
     * kept as the SHA-256 of their token only. Seats may be bound to an
     * account and get their place when the game ends. */
    "CREATE TABLE accounts(id INTEGER PRIMARY KEY, name TEXT NOT NULL,"
    " name_key TEXT NOT NULL UNIQUE, password_hash TEXT, computer INTEGER NOT NULL DEFAULT 0,"
    " created_at INTEGER NOT NULL);"
    "CREATE TABLE sessions(token_hash TEXT PRIMARY KEY, account_id INTEGER NOT NULL,"
    " created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL);"
    "CREATE INDEX sessions_account ON sessions(account_id);"
    "CREATE TABLE ratings(account_id INTEGER NOT NULL, variant TEXT NOT NULL, mu REAL NOT NULL,"
    " sigma REAL NOT NULL, games INTEGER NOT NULL, PRIMARY KEY(account_id, variant));"
    "CREATE TABLE rating_history(game_id TEXT NOT NULL, seat INTEGER NOT NULL,"
    " account_id INTEGER NOT NULL, variant TEXT NOT NULL, mu_before REAL NOT NULL,"
    " sigma_before REAL NOT NULL, mu_after REAL NOT NULL, sigma_after REAL NOT NULL,"
    " at INTEGER NOT NULL, PRIMARY KEY(game_id, seat));"
    "CREATE INDEX rating_history_account ON rating_history(account_id, at);"
    "ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE seats ADD COLUMN account_id INTEGER;"
    "ALTER TABLE seats ADD COLUMN place INTEGER;"
    "CREATE INDEX seats_account ON seats(account_id);"
    "PRAGMA user_version = 4;",
    /* 4 -> 5: post-game analyses, kept with their game */
    "CREATE TABLE analyses(game_id TEXT NOT NULL, seat INTEGER NOT NULL, result TEXT NOT NULL,"
    " at INTEGER NOT NULL, PRIMARY KEY(game_id, seat));"
    "PRAGMA user_version = 5;",
    /* 5 -> 6: each account's look-alike key (names.c's skeleton), so that a
     * new name that looks like a taken one is refused; the server fills it
     * in for older accounts when it starts (store_each_account_without_skeleton) */
    "ALTER TABLE accounts ADD COLUMN name_skeleton TEXT;"
    "CREATE INDEX accounts_skeleton ON accounts(name_skeleton);"
    "PRAGMA user_version = 6;",
};

/* Each must prepare on a sound database: the schema check. */
static const char *const schema_probes[] = {
    "SELECT id, variant, players, mode, seed, status, created_at, updated_at, creator, clock,"
    " clock_left, rematch, rematch_of, end_summary, rules, damage, rated FROM games",
    "SELECT game_id, seat, kind, level, name, token_hash, account_id, place FROM seats",
    "SELECT id, name, name_key, password_hash, computer, created_at, name_skeleton FROM accounts",
    "SELECT token_hash, account_id, created_at, expires_at FROM sessions",
    "SELECT account_id, variant, mu, sigma, games FROM ratings",
    "SELECT game_id, seat, account_id, variant, mu_before, sigma_before, mu_after, sigma_after,"
    " at FROM rating_history",
    "SELECT game_id, ply, seat, decision, at FROM decisions",
    "SELECT game_id, n, seat, name, text, at FROM chat",
    "SELECT game_id, seat, result, at FROM analyses",
};

static const char *const statement_sql[ST_COUNT] = {
    [ST_INSERT_GAME] = "INSERT INTO games(id, variant, players, mode, seed, status, created_at,"
                       " updated_at, creator, clock, clock_left, rematch_of, rules, rated)"
                       " VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
    [ST_INSERT_SEAT] = "INSERT INTO seats(game_id, seat, kind, level, name, token_hash, account_id)"
                       " VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    [ST_TAKE_SEAT] = "UPDATE seats SET name = ?3, token_hash = ?4, account_id = ?5 WHERE"
                     " game_id = ?1 AND seat = ?2 AND token_hash IS NULL",
    [ST_SET_TOKEN] = "UPDATE seats SET token_hash = ?3 WHERE game_id = ?1 AND seat = ?2 AND"
                     " token_hash IS NOT NULL",
    [ST_SET_STATUS] = "UPDATE games SET status = ?2, updated_at = ?3 WHERE id = ?1",
    [ST_SET_REMATCH] = "UPDATE games SET rematch = ?2 WHERE id = ?1 AND rematch IS NULL",
    [ST_SET_CLOCKS] = "UPDATE games SET clock_left = ?2 WHERE id = ?1",
    [ST_SET_END] = "UPDATE games SET end_summary = ?2 WHERE id = ?1",
    [ST_SET_DAMAGED] = "UPDATE games SET status = 'damaged', damage = ?2, updated_at = ?3"
                       " WHERE id = ?1",
    [ST_INSERT_DECISION] = "INSERT INTO decisions(game_id, ply, seat, decision, at)"
                           " VALUES(?1, ?2, ?3, ?4, ?5)",
    [ST_INSERT_CHAT] = "INSERT INTO chat(game_id, n, seat, name, text, at)"
                       " VALUES(?1, ?2, ?3, ?4, ?5, ?6)",
    [ST_UNFINISHED] = "SELECT id FROM games WHERE status IN ('waiting', 'running')"
                      " ORDER BY created_at, rowid",
    [ST_FINISHED] = "SELECT id FROM games WHERE status = 'over'"
                    " ORDER BY updated_at DESC, rowid DESC LIMIT ?1",
    [ST_GAME] = "SELECT variant, players, mode, seed, status, created_at, updated_at, creator,"
                " clock, clock_left, rematch, rematch_of, end_summary, rules, damage, rated"
                " FROM games WHERE id = ?1",
    /* with each bound account's current rating in the game's variant, and
     * the seat's rating before and after the game when it was rated */
    [ST_SEATS] = "SELECT s.seat, s.kind, s.level, s.name, s.token_hash, s.account_id, s.place,"
                 " r.mu, r.sigma, h.mu_before, h.sigma_before, h.mu_after, h.sigma_after"
                 " FROM seats s LEFT JOIN ratings r ON r.account_id = s.account_id AND"
                 " r.variant = (SELECT variant FROM games WHERE id = s.game_id)"
                 " LEFT JOIN rating_history h ON h.game_id = s.game_id AND h.seat = s.seat"
                 " WHERE s.game_id = ?1 ORDER BY s.seat",
    [ST_DECISIONS] = "SELECT ply, decision FROM decisions WHERE game_id = ?1 ORDER BY ply",
    [ST_DECISIONS_AS_STORED] = "SELECT ply, seat, decision, at FROM decisions WHERE game_id = ?1"
                               " ORDER BY ply",
    [ST_CHAT] = "SELECT n, seat, name, text, at FROM (SELECT * FROM chat WHERE game_id = ?1"
                " ORDER BY n DESC LIMIT ?2) ORDER BY n",
    [ST_BEGIN] = "BEGIN IMMEDIATE",
    [ST_COMMIT] = "COMMIT",
    [ST_ROLLBACK] = "ROLLBACK",
};

const char *store_error(store *s) { return s->loop_error; }

void store_lock(store *s) { pthread_mutex_lock(&s->lock); }

/* Ends a public call: the error text is copied for the caller first. */
int store_unlock(store *s, int rc)
{
    if (rc)
        memcpy(s->loop_error, s->error, sizeof s->error);
    pthread_mutex_unlock(&s->lock);
    return rc;
}

int store_fail(store *s, const char *what)
{
    snprintf(s->error, sizeof s->error, "%s: %s", what, sqlite3_errmsg(s->db));
    return -1;
}

int store_exec(store *s, const char *sql)
{
    char *msg = NULL;
    if (sqlite3_exec(s->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
        snprintf(s->error, sizeof s->error, "%s", msg ? msg : sqlite3_errmsg(s->db));
        sqlite3_free(msg);
        return -1;
    }
    return 0;
}

/* The single integer a pragma or count query answers; -1 on error. */
static long long query_int(store *s, const char *sql)
{
    sqlite3_stmt *st;
    long long v = -1;
    if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK) {
        store_fail(s, "reading the database");
        return -1;
    }
    if (sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_int64(st, 0);
    else
        store_fail(s, "reading the database");
    sqlite3_finalize(st);
    return v;
}

static int quick_check(store *s)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(s->db, "PRAGMA quick_check", -1, &st, NULL) != SQLITE_OK)
        return store_fail(s, "checking the database");
    int rc = sqlite3_step(st);
    const char *text = rc == SQLITE_ROW ? (const char *)sqlite3_column_text(st, 0) : NULL;
    int ok = text && strcmp(text, "ok") == 0;
    if (!ok)
        snprintf(s->error, sizeof s->error, "the database is damaged (quick_check: %s)",
                 text ? text : sqlite3_errmsg(s->db));
    sqlite3_finalize(st);
    return ok ? 0 : -1;
}

/* Runs the migrations from the database's version up to SCHEMA_VERSION,
 * inside the caller's transaction: all of them or none. A version newer
 * than this server's is refused, the file untouched. */
static int migrate(store *s)
{
    long long version = query_int(s, "PRAGMA user_version");
    if (version < 1 || version > SCHEMA_VERSION) {
        snprintf(s->error, sizeof s->error,
                 "unknown axio database version %lld (this server knows 1 to %d)", version,
                 SCHEMA_VERSION);
        return -1;
    }
    for (long long v = version; v < SCHEMA_VERSION; v++)
        if (store_exec(s, migrations[v - 1]))
            return -1;
    return 0;
}

static int check_schema(store *s)
{
    if (migrate(s))
        return -1;
    for (size_t i = 0; i < sizeof schema_probes / sizeof schema_probes[0]; i++) {
        sqlite3_stmt *st;
        if (sqlite3_prepare_v2(s->db, schema_probes[i], -1, &st, NULL) != SQLITE_OK)
            return store_fail(s, "the database's tables are not axio's");
        sqlite3_finalize(st);
    }
    return 0;
}

/* Under the first write lock: refuse or accept the file, create the schema
 * in an empty one. */
static int check_or_create(store *s)
{
    if (store_exec(s, "BEGIN IMMEDIATE")) {
        if (sqlite3_errcode(s->db) == SQLITE_BUSY)
            snprintf(s->error, sizeof s->error, "the database is in use by another process");
        return -1;
    }
    long long app = query_int(s, "PRAGMA application_id");
    long long tables = app < 0 ? -1 : query_int(s, "SELECT count(*) FROM sqlite_master");
    int rc = app < 0 || tables < 0 ? -1 : quick_check(s);
    if (rc == 0) {
        if (app == APPLICATION_ID) {
            rc = check_schema(s);
        } else if (app == 0 && tables == 0) {
            rc = store_exec(s, schema_v1) || check_schema(s) ? -1 : 0;
        } else {
            snprintf(s->error, sizeof s->error,
                     "not an axio database (application_id %lld, %lld schema objects)", app,
                     tables);
            rc = -1;
        }
    }
    if (rc == 0)
        return store_exec(s, "COMMIT");
    sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
    return -1;
}

static int configure(store *s, bool sync_full)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(s->db, "PRAGMA journal_mode = WAL", -1, &st, NULL) != SQLITE_OK)
        return store_fail(s, "switching to WAL");
    int ok = sqlite3_step(st) == SQLITE_ROW &&
             strcmp((const char *)sqlite3_column_text(st, 0), "wal") == 0;
    sqlite3_finalize(st);
    if (!ok)
        return store_fail(s, "switching to WAL");
    if (store_exec(s, sync_full ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = NORMAL"))
        return -1;
    for (int i = 0; i < ST_COUNT; i++)
        if (sqlite3_prepare_v3(s->db, statement_sql[i], -1, SQLITE_PREPARE_PERSISTENT, &s->st[i],
                               NULL) != SQLITE_OK)
            return store_fail(s, "preparing statements");
    return store_accounts_prepare(s);
}

store *store_open(const char *path, bool sync_full, char *err, size_t errlen)
{
    store *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    pthread_mutex_init(&s->lock, NULL);
    pthread_mutex_init(&s->qlock, NULL);
    pthread_cond_init(&s->wake, NULL);
    int rc = sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
    if (rc != SQLITE_OK) {
        snprintf(err, errlen, "%s", s->db ? sqlite3_errmsg(s->db) : "cannot open");
        store_close(s);
        return NULL;
    }
    sqlite3_extended_result_codes(s->db, 1);
    if (store_exec(s, "PRAGMA locking_mode = EXCLUSIVE") || check_or_create(s) ||
        configure(s, sync_full)) {
        snprintf(err, errlen, "%s", s->error);
        store_close(s);
        return NULL;
    }
    return s;
}

void store_close(store *s)
{
    if (!s)
        return;
    store_writer_stop(s);
    for (int i = 0; i < ST_COUNT; i++)
        sqlite3_finalize(s->st[i]);
    store_accounts_finalize(s);
    sqlite3_close(s->db);
    pthread_cond_destroy(&s->wake);
    pthread_mutex_destroy(&s->qlock);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

/* Runs a prepared statement to completion and resets it. */
int store_step_done(store *s, sqlite3_stmt *st, const char *what)
{
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    if (rc != SQLITE_DONE)
        return store_fail(s, what);
    return 0;
}

void store_bind_text(sqlite3_stmt *st, int i, const char *text)
{
    if (text && *text)
        sqlite3_bind_text(st, i, text, -1, SQLITE_TRANSIENT);
    else
        sqlite3_bind_null(st, i);
}

int store_begin(store *s) { return store_step_done(s, s->st[ST_BEGIN], "beginning a transaction"); }

int store_commit(store *s)
{
    if (store_step_done(s, s->st[ST_COMMIT], "committing"))
        return -1;
    return 0;
}

int store_rollback(store *s)
{
    sqlite3_stmt *st = s->st[ST_ROLLBACK];
    sqlite3_step(st);
    sqlite3_reset(st);
    return -1;
}

static int insert_seat(store *s, const char *id, int seat, const stored_seat *ss)
{
    sqlite3_stmt *st = s->st[ST_INSERT_SEAT];
    sqlite3_bind_text(st, 1, id, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 2, seat);
    sqlite3_bind_text(st, 3, ss->kind, -1, SQLITE_TRANSIENT);
    store_bind_text(st, 4, ss->level);
    sqlite3_bind_text(st, 5, ss->name, -1, SQLITE_TRANSIENT);
    store_bind_text(st, 6, ss->token_hash);
    if (ss->account_id > 0)
        sqlite3_bind_int64(st, 7, ss->account_id);
    else
        sqlite3_bind_null(st, 7);
    return store_step_done(s, s->st[ST_INSERT_SEAT], "storing a seat");
}

static int create_game(store *s, const stored_game *g)
{
    if (store_begin(s))
        return -1;
    char seed[24];
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)g->seed);
    sqlite3_stmt *st = s->st[ST_INSERT_GAME];
    sqlite3_bind_text(st, 1, g->id, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 2, g->variant, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 3, g->players);
    sqlite3_bind_text(st, 4, g->mode, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 5, seed, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 6, g->status, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 7, g->created);
    sqlite3_bind_int(st, 8, g->creator);
    store_bind_text(st, 9, g->clock);
    store_bind_text(st, 10, g->clock_left);
    store_bind_text(st, 11, g->rematch_of);
    sqlite3_bind_text(st, 12, g->rules, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 13, g->rated);
    if (store_step_done(s, s->st[ST_INSERT_GAME], "storing a game"))
        return store_rollback(s);
    for (int i = 0; i < g->players; i++)
        if (insert_seat(s, g->id, i, &g->seats[i]))
            return store_rollback(s);
    return store_commit(s) ? store_rollback(s) : 0;
}

int store_create_game(store *s, const stored_game *g)
{
    store_lock(s);
    return store_unlock(s, create_game(s, g));
}

static int set_status(store *s, const char *id, const char *status)
{
    sqlite3_stmt *st = s->st[ST_SET_STATUS];
    sqlite3_bind_text(st, 1, id, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 2, status, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 3, (sqlite3_int64)time(NULL));
    return store_step_done(s, s->st[ST_SET_STATUS], "storing a game's status");
}

static int take_seat(store *s, const char *id, int seat, const char *name, const char *token_hash,
                     int64_t account_id, const char *status)
{
    if (store_begin(s))
        return -1;
    sqlite3_stmt *st = s->st[ST_TAKE_SEAT];
    sqlite3_bind_text(st, 1, id, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 2, seat);
    sqlite3_bind_text(st, 3, name, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 4, token_hash, -1, SQLITE_TRANSIENT);
    if (account_id > 0)
        sqlite3_bind_int64(st, 5, account_id);
    else
        sqlite3_bind_null(st, 5);
    if (store_step_done(s, s->st[ST_TAKE_SEAT], "storing a seat"))
        return store_rollback(s);
    if (sqlite3_changes(s->db) != 1) {
        snprintf(s->error, sizeof s->error, "seat %d of game %s is not free", seat, id);
        return store_rollback(s);
    }
    if (set_status(s, id, status))
        return store_rollback(s);
    return store_commit(s) ? store_rollback(s) : 0;
}

int store_take_seat(store *s, const char *id, int seat, const char *name, const char *token_hash,
                    int64_t account_id, const char *status)
{
    store_lock(s);
    return store_unlock(s, take_seat(s, id, seat, name, token_hash, account_id, status));
}

/* One UPDATE of a game's row that must change exactly one row. */
static int update_one(store *s, int which, const char *id, int seat, const char *text,
                      const char *what)
{
    sqlite3_stmt *st = s->st[which];
    sqlite3_bind_text(st, 1, id, -1, SQLITE_TRANSIENT);
    if (seat >= 0) {
        sqlite3_bind_int(st, 2, seat);
        sqlite3_bind_text(st, 3, text, -1, SQLITE_TRANSIENT);
    } else {
        sqlite3_bind_text(st, 2, text, -1, SQLITE_TRANSIENT);
    }
    if (store_step_done(s, s->st[which], what))
        return -1;
    if (sqlite3_changes(s->db) != 1) {
        snprintf(s->error, sizeof s->error, "%s: game %s has no such row", what, id);
        return -1;
    }
    return 0;
}

int store_set_token(store *s, const char *id, int seat, const char *token_hash)
{
    store_lock(s);
    return store_unlock(s,
                        update_one(s, ST_SET_TOKEN, id, seat, token_hash, "storing a seat token"));
}

int store_set_status(store *s, const char *id, const char *status)
{
    store_lock(s);
    int rc = set_status(s, id, status);
    if (rc == 0 && sqlite3_changes(s->db) != 1) {
        snprintf(s->error, sizeof s->error, "no game %s", id);
        rc = -1;
    }
    return store_unlock(s, rc);
}

int store_set_damaged(store *s, const char *id, const char *why)
{
    store_lock(s);
    sqlite3_stmt *st = s->st[ST_SET_DAMAGED];
    sqlite3_bind_text(st, 1, id, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 2, why, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 3, (sqlite3_int64)time(NULL));
    int rc = store_step_done(s, s->st[ST_SET_DAMAGED], "setting a damaged game aside");
    if (rc == 0 && sqlite3_changes(s->db) != 1) {
        snprintf(s->error, sizeof s->error, "no game %s", id);
        rc = -1;
    }
    return store_unlock(s, rc);
}

int store_set_rematch(store *s, const char *id, const char *rematch_id)
{
    store_lock(s);
    return store_unlock(s, update_one(s, ST_SET_REMATCH, id, -1, rematch_id, "storing a rematch"));
}

static int set_clocks(store *s, const store_write *w)
{
    if (!w->clock_left[0])
        return 0;
    return update_one(s, ST_SET_CLOCKS, w->game_id, -1, w->clock_left, "storing the clocks");
}

static int add_chat(store *s, const store_write *w)
{
    sqlite3_stmt *st = s->st[ST_INSERT_CHAT];
    sqlite3_bind_text(st, 1, w->game_id, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 2, w->chat_n);
    if (w->seat >= 0)
        sqlite3_bind_int(st, 3, w->seat);
    else
        sqlite3_bind_null(st, 3);
    sqlite3_bind_text(st, 4, w->name, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 5, w->decision, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 6, w->at);
    return store_step_done(s, s->st[ST_INSERT_CHAT], "storing a chat message");
}

/* One decision inside the writer's transaction, with the clocks after it
 * and, when it ends the game, the new status and the end's summary. */
static int add_decision(store *s, store_write *w)
{
    sqlite3_stmt *st = s->st[ST_INSERT_DECISION];
    sqlite3_bind_text(st, 1, w->game_id, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 2, w->ply);
    sqlite3_bind_int(st, 3, w->seat);
    sqlite3_bind_text(st, 4, w->decision, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 5, (sqlite3_int64)time(NULL));
    if (store_step_done(s, s->st[ST_INSERT_DECISION], "storing a decision") || set_clocks(s, w))
        return -1;
    if (w->end_summary[0] &&
        update_one(s, ST_SET_END, w->game_id, -1, w->end_summary, "storing the end"))
        return -1;
    if (w->places[0] && store_game_end(s, w))
        return -1;
    return w->status ? set_status(s, w->game_id, w->status) : 0;
}

/* An analysis is computed once: a second one for the same seat (two
 * servers' worth of requests cannot happen, but a retry can) replaces it. */
static int add_analysis(store *s, const store_write *w)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(s->db,
                                "INSERT OR REPLACE INTO analyses(game_id, seat, result, at)"
                                " VALUES(?1, ?2, ?3, ?4)",
                                -1, &st, NULL);
    if (rc == SQLITE_OK) {
        sqlite3_bind_text(st, 1, w->game_id, -1, SQLITE_TRANSIENT);
        sqlite3_bind_int(st, 2, w->seat);
        sqlite3_bind_text(st, 3, w->decision, -1, SQLITE_TRANSIENT);
        sqlite3_bind_int64(st, 4, (sqlite3_int64)time(NULL));
        rc = sqlite3_step(st);
    }
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? 0 : store_fail(s, "storing an analysis");
}

int store_get_analysis(store *s, const char *id, int seat, char **text)
{
    *text = NULL;
    store_lock(s);
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(
        s->db, "SELECT result FROM analyses WHERE game_id = ?1 AND seat = ?2", -1, &st, NULL);
    if (rc == SQLITE_OK) {
        sqlite3_bind_text(st, 1, id, -1, SQLITE_TRANSIENT);
        sqlite3_bind_int(st, 2, seat);
        rc = sqlite3_step(st);
        if (rc == SQLITE_ROW) {
            const char *t = (const char *)sqlite3_column_text(st, 0);
            *text = strdup(t ? t : "");
            rc = *text ? SQLITE_DONE : SQLITE_NOMEM;
        } else if (rc == SQLITE_DONE) {
            rc = 1;
        }
    }
    sqlite3_finalize(st);
    int out = rc == SQLITE_DONE ? 0 : rc == 1 ? 1 : store_fail(s, "reading an analysis");
    return store_unlock(s, out < 0 ? -1 : 0) == 0 ? out : -1;
}

static int add_write(store *s, store_write *w)
{
    switch (w->kind) {
    case STORE_DECISION: return add_decision(s, w);
    case STORE_CLOCKS: return set_clocks(s, w);
    case STORE_CHAT: return add_chat(s, w);
    case STORE_ANALYSIS: return add_analysis(s, w);
    }
    snprintf(s->error, sizeof s->error, "unknown kind of write %d", w->kind);
    return -1;
}

/* Commits a batch in one transaction; when that fails, each write alone,
 * so that one bad write does not take the others down. */
static void commit_batch(store *s, store_write *batch)
{
    store_lock(s);
    int rc = store_begin(s);
    for (store_write *w = batch; w && rc == 0; w = w->next)
        rc = add_write(s, w);
    rc = rc == 0 && store_commit(s) == 0 ? 0 : store_rollback(s);
    for (store_write *w = batch; w; w = w->next) {
        w->result = rc;
        if (rc != 0 && batch->next) {
            w->result =
                store_begin(s) || add_write(s, w) || store_commit(s) ? store_rollback(s) : 0;
        }
        if (w->result != 0)
            snprintf(w->error, sizeof w->error, "%s", s->error);
    }
    pthread_mutex_unlock(&s->lock);
}

static void *writer_main(void *arg)
{
    store *s = arg;
    pthread_mutex_lock(&s->qlock);
    for (;;) {
        while (!s->queue && !s->stopping)
            pthread_cond_wait(&s->wake, &s->qlock);
        if (!s->queue)
            break; /* stopping, and everything is written */
        store_write *batch = s->queue;
        s->queue = s->queue_tail = NULL;
        pthread_mutex_unlock(&s->qlock);
        commit_batch(s, batch);
        store_write *last = batch;
        while (last->next)
            last = last->next;
        pthread_mutex_lock(&s->qlock);
        if (s->done_tail)
            s->done_tail->next = batch;
        else
            s->done = batch;
        s->done_tail = last;
        pthread_mutex_unlock(&s->qlock);
        s->notify(s->notify_arg);
        pthread_mutex_lock(&s->qlock);
    }
    pthread_mutex_unlock(&s->qlock);
    return NULL;
}

int store_writer_start(store *s, void (*notify)(void *), void *arg)
{
    s->notify = notify;
    s->notify_arg = arg;
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old); /* signals are the event loop's */
    int rc = pthread_create(&s->writer, NULL, writer_main, s);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    s->writer_running = rc == 0;
    return rc == 0 ? 0 : -1;
}

void store_writer_submit(store *s, store_write *w)
{
    w->next = NULL;
    pthread_mutex_lock(&s->qlock);
    if (s->queue_tail)
        s->queue_tail->next = w;
    else
        s->queue = w;
    s->queue_tail = w;
    pthread_cond_signal(&s->wake);
    pthread_mutex_unlock(&s->qlock);
}

store_write *store_writer_done(store *s)
{
    pthread_mutex_lock(&s->qlock);
    store_write *done = s->done;
    s->done = s->done_tail = NULL;
    pthread_mutex_unlock(&s->qlock);
    return done;
}

void store_write_free(store_write *w)
{
    if (w) {
        free(w->decision);
        free(w);
    }
}

void store_writer_stop(store *s)
{
    if (!s->writer_running)
        return;
    pthread_mutex_lock(&s->qlock);
    s->stopping = true;
    pthread_cond_signal(&s->wake);
    pthread_mutex_unlock(&s->qlock);
    pthread_join(s->writer, NULL);
    s->writer_running = false;
    store_write *w = store_writer_done(s);
    while (w) {
        store_write *next = w->next;
        store_write_free(w);
        w = next;
    }
}

int store_each_unfinished(store *s, int (*fn)(const char *id, void *arg), void *arg)
{
    /* ids first, then the callbacks: fn reads the store too */
    store_lock(s);
    sqlite3_stmt *st = s->st[ST_UNFINISHED];
    char **ids = NULL;
    size_t n = 0, cap = 0;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            char **grown = realloc(ids, cap * sizeof *ids);
            if (!grown)
                break;
            ids = grown;
        }
        ids[n++] = strdup((const char *)sqlite3_column_text(st, 0));
    }
    sqlite3_reset(st);
    int result = store_unlock(s, rc == SQLITE_DONE ? 0 : store_fail(s, "listing games"));
    for (size_t i = 0; i < n; i++) {
        if (result == 0 && (!ids[i] || fn(ids[i], arg) != 0))
            result = -1;
        free(ids[i]);
    }
    free(ids);
    return result;
}

static void copy_column(sqlite3_stmt *st, int col, char *out, size_t size)
{
    const char *text = (const char *)sqlite3_column_text(st, col);
    snprintf(out, size, "%s", text ? text : "");
}

static int load_seats(store *s, const char *id, stored_game *out)
{
    sqlite3_stmt *st = s->st[ST_SEATS];
    sqlite3_bind_text(st, 1, id, -1, SQLITE_TRANSIENT);
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        int seat = sqlite3_column_int(st, 0);
        if (seat < 0 || seat >= 4)
            continue;
        stored_seat *ss = &out->seats[seat];
        copy_column(st, 1, ss->kind, sizeof ss->kind);
        copy_column(st, 2, ss->level, sizeof ss->level);
        copy_column(st, 3, ss->name, sizeof ss->name);
        copy_column(st, 4, ss->token_hash, sizeof ss->token_hash);
        ss->account_id = sqlite3_column_int64(st, 5);
        ss->place = sqlite3_column_int(st, 6);
        ss->has_rating = sqlite3_column_type(st, 7) != SQLITE_NULL;
        ss->rating = (rt_rating){sqlite3_column_double(st, 7), sqlite3_column_double(st, 8)};
        ss->rated = sqlite3_column_type(st, 9) != SQLITE_NULL;
        ss->before = (rt_rating){sqlite3_column_double(st, 9), sqlite3_column_double(st, 10)};
        ss->after = (rt_rating){sqlite3_column_double(st, 11), sqlite3_column_double(st, 12)};
    }
    sqlite3_reset(st);
    return rc == SQLITE_DONE ? 0 : store_fail(s, "reading seats");
}

static int load_decisions(store *s, const char *id, stored_game *out)
{
    sqlite3_stmt *st = s->st[ST_DECISIONS];
    sqlite3_bind_text(st, 1, id, -1, SQLITE_TRANSIENT);
    int rc, cap = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (sqlite3_column_int(st, 0) != out->ndecisions) {
            snprintf(s->error, sizeof s->error, "decision %d is missing", out->ndecisions);
            sqlite3_reset(st);
            return 2;
        }
        if (out->ndecisions == cap) {
            cap = cap ? 2 * cap : 128;
            char **grown = realloc(out->decisions, (size_t)cap * sizeof *grown);
            if (!grown)
                break;
            out->decisions = grown;
        }
        const char *text = (const char *)sqlite3_column_text(st, 1);
        out->decisions[out->ndecisions] = strdup(text ? text : "");
        if (!out->decisions[out->ndecisions])
            break;
        out->ndecisions++;
    }
    sqlite3_reset(st);
    return rc == SQLITE_DONE ? 0 : store_fail(s, "reading decisions");
}

static int load_chat(store *s, const char *id, stored_game *out)
{
    sqlite3_stmt *st = s->st[ST_CHAT];
    sqlite3_bind_text(st, 1, id, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 2, STORE_CHAT_KEEP);
    out->chat = calloc(STORE_CHAT_KEEP, sizeof *out->chat);
    int rc = out->chat ? SQLITE_ROW : SQLITE_NOMEM;
    while (out->chat && out->nchat < STORE_CHAT_KEEP && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        stored_chat *m = &out->chat[out->nchat];
        out->chat_next = sqlite3_column_int(st, 0) + 1;
        m->seat = sqlite3_column_type(st, 1) == SQLITE_NULL ? -1 : sqlite3_column_int(st, 1);
        copy_column(st, 2, m->name, sizeof m->name);
        const char *text = (const char *)sqlite3_column_text(st, 3);
        m->text = strdup(text ? text : "");
        m->at = sqlite3_column_int64(st, 4);
        if (!m->text) {
            rc = SQLITE_NOMEM;
            break;
        }
        out->nchat++;
    }
    sqlite3_reset(st);
    if (rc == SQLITE_ROW)
        rc = SQLITE_DONE;
    return rc == SQLITE_DONE ? 0 : store_fail(s, "reading the chat");
}

static int load(store *s, const char *id, stored_game *out, bool with_history)
{
    memset(out, 0, sizeof *out);
    snprintf(out->id, sizeof out->id, "%s", id);
    sqlite3_stmt *st = s->st[ST_GAME];
    sqlite3_bind_text(st, 1, id, -1, SQLITE_TRANSIENT);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        copy_column(st, 0, out->variant, sizeof out->variant);
        out->players = sqlite3_column_int(st, 1);
        copy_column(st, 2, out->mode, sizeof out->mode);
        const char *seed = (const char *)sqlite3_column_text(st, 3);
        out->seed = seed ? strtoull(seed, NULL, 10) : 0;
        copy_column(st, 4, out->status, sizeof out->status);
        out->created = sqlite3_column_int64(st, 5);
        out->updated = sqlite3_column_int64(st, 6);
        out->creator = sqlite3_column_int(st, 7);
        copy_column(st, 8, out->clock, sizeof out->clock);
        copy_column(st, 9, out->clock_left, sizeof out->clock_left);
        copy_column(st, 10, out->rematch, sizeof out->rematch);
        copy_column(st, 11, out->rematch_of, sizeof out->rematch_of);
        copy_column(st, 12, out->end_summary, sizeof out->end_summary);
        copy_column(st, 13, out->rules, sizeof out->rules);
        copy_column(st, 14, out->damage, sizeof out->damage);
        out->rated = sqlite3_column_int(st, 15) != 0;
    }
    sqlite3_reset(st);
    if (rc == SQLITE_DONE)
        return 1;
    if (rc != SQLITE_ROW)
        return store_fail(s, "reading a game");
    rc = load_seats(s, id, out);
    if (rc == 0 && with_history)
        rc = load_decisions(s, id, out);
    if (rc == 0 && with_history)
        rc = load_chat(s, id, out);
    if (rc != 0)
        stored_game_free(out);
    return rc;
}

int store_load(store *s, const char *id, stored_game *out)
{
    store_lock(s);
    int rc = load(s, id, out, true);
    return rc == 1 ? store_unlock(s, 0) + 1 : store_unlock(s, rc);
}

int store_load_summary(store *s, const char *id, stored_game *out)
{
    store_lock(s);
    int rc = load(s, id, out, false);
    return rc == 1 ? store_unlock(s, 0) + 1 : store_unlock(s, rc);
}

int store_each_decision(store *s, const char *id,
                        int (*fn)(int ply, int seat, const char *decision, int64_t at, void *arg),
                        void *arg)
{
    store_lock(s);
    sqlite3_stmt *st = s->st[ST_DECISIONS_AS_STORED];
    sqlite3_bind_text(st, 1, id, -1, SQLITE_TRANSIENT);
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *text = (const char *)sqlite3_column_text(st, 2);
        if (fn(sqlite3_column_int(st, 0), sqlite3_column_int(st, 1), text ? text : "",
               sqlite3_column_int64(st, 3), arg))
            break;
    }
    sqlite3_reset(st);
    if (rc == SQLITE_ROW)
        snprintf(s->error, sizeof s->error, "reading decisions: stopped");
    return store_unlock(s, rc == SQLITE_DONE  ? 0
                           : rc == SQLITE_ROW ? -1
                                              : store_fail(s, "reading decisions"));
}

int store_each_finished(store *s, int max, int (*fn)(const stored_game *g, void *arg), void *arg)
{
    store_lock(s);
    sqlite3_stmt *st = s->st[ST_FINISHED];
    sqlite3_bind_int(st, 1, max);
    char(*ids)[24] = calloc((size_t)(max > 0 ? max : 1), sizeof *ids);
    int n = 0, rc = SQLITE_NOMEM;
    while (ids && n < max && (rc = sqlite3_step(st)) == SQLITE_ROW)
        copy_column(st, 0, ids[n++], sizeof ids[0]);
    if (rc == SQLITE_ROW)
        rc = SQLITE_DONE;
    sqlite3_reset(st);
    int result = rc == SQLITE_DONE ? 0 : store_fail(s, "listing finished games");
    stored_game g;
    for (int i = 0; i < n && result == 0; i++) {
        int found = load(s, ids[i], &g, false);
        if (found < 0)
            result = -1;
        else if (found == 0 && fn(&g, arg))
            break;
    }
    free(ids);
    return store_unlock(s, result);
}

void stored_game_free(stored_game *g)
{
    for (int i = 0; i < g->ndecisions; i++)
        free(g->decisions[i]);
    free(g->decisions);
    g->decisions = NULL;
    g->ndecisions = 0;
    for (int i = 0; i < g->nchat; i++)
        free(g->chat[i].text);
    free(g->chat);
    g->chat = NULL;
    g->nchat = 0;
}
