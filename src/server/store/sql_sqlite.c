/*
 * sql_sqlite.c - the store's SQLite backend (sql.h): one file, one
 * connection.
 *
 * The connection runs with locking_mode EXCLUSIVE: the first write
 * transaction (store_open's checks) takes the file's lock and keeps it, so a
 * second server on the same file is refused ("in use by another process")
 * instead of resuming the same games twice. After the checks it switches to
 * WAL, where a commit survives the process being killed (synchronous
 * NORMAL) or also a power cut (FULL, --sync full).
 *
 * A database is axio's by its PRAGMA application_id ("AXIO") and its
 * version is PRAGMA user_version. A new one is created at version 1 and
 * migrated like any old one, so that every migration runs in every test.
 */
#include "sql.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define APPLICATION_ID 0x4158494F /* "AXIO", 1096304975 in schema_v1 */

struct sql_conn {
    sqlite3 *db;
    int code; /* the last error's extended result code */
    char error[512];
};

struct sql_stmt {
    sql_conn *c;
    sqlite3_stmt *st;
};

/* The first schema. */
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

/* migrations[v - 1] takes a database from version v to v + 1. A migration
 * added here is added to sql_pg.c too. */
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
     * in for older accounts when it starts (store_fill_skeletons) */
    "ALTER TABLE accounts ADD COLUMN name_skeleton TEXT;"
    "CREATE INDEX accounts_skeleton ON accounts(name_skeleton);"
    "PRAGMA user_version = 6;",
    /* 6 -> 7: several servers on one database (store_owners.c): which
     * server holds each game and until when, the servers of the site, and
     * each listed game's lobby entry as its holder last wrote it, with the
     * number of people connected to it. SQLite keeps one server per file,
     * which holds every game; the same tables keep one logic for both. */
    "ALTER TABLE games ADD COLUMN people INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE games ADD COLUMN entry TEXT;"
    "CREATE TABLE game_owners(game_id TEXT PRIMARY KEY, instance TEXT NOT NULL,"
    " expires_at INTEGER NOT NULL);"
    "CREATE INDEX game_owners_instance ON game_owners(instance);"
    "CREATE TABLE instances(id TEXT PRIMARY KEY, started_at INTEGER NOT NULL,"
    " seen_at INTEGER NOT NULL);"
    "PRAGMA user_version = 7;",
    /* 7 -> 8: what the servers of a site share besides games: where each
     * server is reached by the others (the requests it passes on to a
     * game's holder), the site's secrets (the key that proves a passed-on
     * request comes from one of its servers), the budgets each address,
     * name and account draws on, counted for the whole site, and who
     * created each game (a keyed hash of the address: waiting games are
     * counted per address) */
    "ALTER TABLE instances ADD COLUMN address TEXT;"
    "CREATE TABLE site(name TEXT PRIMARY KEY, value TEXT NOT NULL);"
    "CREATE TABLE budgets(key TEXT PRIMARY KEY, tokens REAL NOT NULL, at INTEGER NOT NULL);"
    "ALTER TABLE games ADD COLUMN creator_addr TEXT;"
    "CREATE INDEX games_creator_addr ON games(creator_addr, status);"
    /* and how people meet (store_social.c): who follows whom, when an account
     * was last seen, challenges, seeks (quick pairing) */
    "ALTER TABLE accounts ADD COLUMN seen_at INTEGER;"
    "CREATE TABLE follows(account_id INTEGER NOT NULL, follows_id INTEGER NOT NULL,"
    " at INTEGER NOT NULL, PRIMARY KEY(account_id, follows_id));"
    "CREATE TABLE challenges(id TEXT PRIMARY KEY, from_id INTEGER NOT NULL, to_id INTEGER NOT NULL,"
    " variant TEXT NOT NULL, rated INTEGER NOT NULL, clock TEXT NOT NULL, status TEXT NOT NULL,"
    " game_id TEXT, reason TEXT, created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL);"
    "CREATE INDEX challenges_from ON challenges(from_id, created_at);"
    "CREATE INDEX challenges_to ON challenges(to_id, created_at);"
    "CREATE TABLE seeks(id TEXT PRIMARY KEY, account_id INTEGER NOT NULL, variant TEXT NOT NULL,"
    " rated INTEGER NOT NULL, clock TEXT NOT NULL, rating INTEGER NOT NULL, status TEXT NOT NULL,"
    " game_id TEXT, seat INTEGER, created_at INTEGER NOT NULL, polled_at INTEGER NOT NULL);"
    "CREATE INDEX seeks_open ON seeks(status, variant, created_at);"
    "PRAGMA user_version = 8;",
    /* 8 -> 9: bots (store_bots.c): an account played by a program, what its
     * profile says of it, and the personal API tokens programs sign in with
     * (their SHA-256 only) */
    "ALTER TABLE accounts ADD COLUMN bot INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE accounts ADD COLUMN bot_about TEXT;"
    "CREATE TABLE tokens(id TEXT PRIMARY KEY, account_id INTEGER NOT NULL,"
    " hash TEXT NOT NULL UNIQUE, label TEXT NOT NULL, scopes TEXT NOT NULL,"
    " created_at INTEGER NOT NULL, used_at INTEGER, stream TEXT);"
    "CREATE INDEX tokens_account ON tokens(account_id);"
    "PRAGMA user_version = 9;",
    /* 9 -> 10: events, arenas and Swiss tournaments (issue 50; store_events.c):
     * an event's settings and where it stands, with the lease of the one
     * server that runs it; its entrants; its tables, each a game (or a bye)
     * with the points it gave */
    "CREATE TABLE events(id TEXT PRIMARY KEY, name TEXT NOT NULL, organiser_id INTEGER NOT NULL,"
    " format TEXT NOT NULL, variant TEXT NOT NULL, mode TEXT NOT NULL, seats INTEGER NOT NULL,"
    " clock TEXT NOT NULL, rated INTEGER NOT NULL, bots INTEGER NOT NULL,"
    " starts_at INTEGER NOT NULL, duration_s INTEGER NOT NULL, rounds INTEGER NOT NULL,"
    " days_per_round INTEGER NOT NULL, min_rated_games INTEGER NOT NULL, status TEXT NOT NULL,"
    " round INTEGER NOT NULL, round_deadline INTEGER NOT NULL, ends_at INTEGER NOT NULL,"
    " cancel_reason TEXT, created_at INTEGER NOT NULL, creator_addr TEXT, runner TEXT,"
    " runner_until INTEGER);"
    "CREATE INDEX events_status ON events(status, starts_at);"
    "CREATE INDEX events_organiser ON events(organiser_id, status);"
    "CREATE TABLE event_players(event_id TEXT NOT NULL, account_id INTEGER NOT NULL,"
    " joined_at INTEGER NOT NULL, withdrawn INTEGER NOT NULL, misses INTEGER NOT NULL,"
    " PRIMARY KEY(event_id, account_id));"
    "CREATE INDEX event_players_account ON event_players(account_id);"
    "CREATE TABLE event_tables(event_id TEXT NOT NULL, round INTEGER NOT NULL,"
    " tbl INTEGER NOT NULL, game_id TEXT, seats INTEGER NOT NULL, players TEXT NOT NULL,"
    " points TEXT NOT NULL, places TEXT NOT NULL, running INTEGER NOT NULL,"
    " counted INTEGER NOT NULL, created_at INTEGER NOT NULL, ended_at INTEGER NOT NULL,"
    " deadline INTEGER NOT NULL, PRIMARY KEY(event_id, round, tbl));"
    "CREATE INDEX event_tables_game ON event_tables(game_id);"
    "CREATE INDEX event_tables_running ON event_tables(event_id, running);"
    "PRAGMA user_version = 10;",
};

_Static_assert(sizeof migrations / sizeof migrations[0] == SQL_SCHEMA_VERSION - 1,
               "a migration for each version");

static int fail(sql_conn *c)
{
    c->code = sqlite3_extended_errcode(c->db);
    snprintf(c->error, sizeof c->error, "%s", sqlite3_errmsg(c->db));
    return -1;
}

static int lite_exec(sql_conn *c, const char *sql)
{
    char *msg = NULL;
    if (sqlite3_exec(c->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
        c->code = sqlite3_extended_errcode(c->db);
        snprintf(c->error, sizeof c->error, "%s", msg ? msg : sqlite3_errmsg(c->db));
        sqlite3_free(msg);
        return -1;
    }
    return 0;
}

static void lite_close(sql_conn *c)
{
    if (c) {
        sqlite3_close(c->db);
        free(c);
    }
}

static sql_conn *lite_connect(const char *path, bool sync_full, bool shared, char *err,
                              size_t errlen)
{
    (void)sync_full; /* set by configure, after the checks */
    (void)shared;    /* one server per file: the lock is always exclusive */
    sql_conn *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    int rc = sqlite3_open_v2(path, &c->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
    if (rc != SQLITE_OK) {
        snprintf(err, errlen, "%s", c->db ? sqlite3_errmsg(c->db) : "cannot open");
        lite_close(c);
        return NULL;
    }
    sqlite3_extended_result_codes(c->db, 1);
    if (lite_exec(c, "PRAGMA locking_mode = EXCLUSIVE")) {
        snprintf(err, errlen, "%s", c->error);
        lite_close(c);
        return NULL;
    }
    return c;
}

/* The single integer a pragma or count query answers; -1 on error. */
static long long query_int(sql_conn *c, const char *sql)
{
    sqlite3_stmt *st;
    long long v = -1;
    if (sqlite3_prepare_v2(c->db, sql, -1, &st, NULL) != SQLITE_OK)
        return fail(c);
    if (sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_int64(st, 0);
    else
        fail(c);
    sqlite3_finalize(st);
    return v;
}

static int quick_check(sql_conn *c)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(c->db, "PRAGMA quick_check", -1, &st, NULL) != SQLITE_OK)
        return fail(c);
    int rc = sqlite3_step(st);
    const char *text = rc == SQLITE_ROW ? (const char *)sqlite3_column_text(st, 0) : NULL;
    int ok = text && strcmp(text, "ok") == 0;
    if (!ok)
        snprintf(c->error, sizeof c->error, "the database is damaged (quick_check: %s)",
                 text ? text : sqlite3_errmsg(c->db));
    sqlite3_finalize(st);
    return ok ? 0 : -1;
}

static int lite_identify(sql_conn *c, long long *version)
{
    long long app = query_int(c, "PRAGMA application_id");
    long long tables = app < 0 ? -1 : query_int(c, "SELECT count(*) FROM sqlite_master");
    if (app < 0 || tables < 0 || quick_check(c))
        return -1;
    if (app == APPLICATION_ID) {
        *version = query_int(c, "PRAGMA user_version");
        return *version < 0 ? -1 : SQL_AXIO;
    }
    if (app == 0 && tables == 0)
        return SQL_EMPTY;
    snprintf(c->error, sizeof c->error,
             "not an axio database (application_id %lld, %lld schema objects)", app, tables);
    return -1;
}

static int lite_configure(sql_conn *c, bool sync_full)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(c->db, "PRAGMA journal_mode = WAL", -1, &st, NULL) != SQLITE_OK)
        return fail(c);
    int ok = sqlite3_step(st) == SQLITE_ROW &&
             strcmp((const char *)sqlite3_column_text(st, 0), "wal") == 0;
    sqlite3_finalize(st);
    if (!ok) {
        snprintf(c->error, sizeof c->error, "switching to WAL: %s", sqlite3_errmsg(c->db));
        return -1;
    }
    return lite_exec(c, sync_full ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = NORMAL");
}

static int lite_begin(sql_conn *c)
{
    if (lite_exec(c, "BEGIN IMMEDIATE") == 0)
        return 0;
    if ((c->code & 0xff) == SQLITE_BUSY)
        snprintf(c->error, sizeof c->error, "the database is in use by another process");
    return -1;
}

static int lite_commit(sql_conn *c) { return lite_exec(c, "COMMIT"); }

static void lite_rollback(sql_conn *c)
{
    if (!sqlite3_get_autocommit(c->db))
        sqlite3_exec(c->db, "ROLLBACK", NULL, NULL, NULL);
}

static sql_stmt *lite_prepare(sql_conn *c, const char *sql)
{
    sql_stmt *st = calloc(1, sizeof *st);
    if (!st) {
        snprintf(c->error, sizeof c->error, "out of memory");
        return NULL;
    }
    st->c = c;
    if (sqlite3_prepare_v3(c->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &st->st, NULL) != SQLITE_OK) {
        fail(c);
        free(st);
        return NULL;
    }
    return st;
}

static void lite_finalize(sql_stmt *st)
{
    if (st) {
        sqlite3_finalize(st->st);
        free(st);
    }
}

static void lite_bind_int64(sql_stmt *st, int i, int64_t v)
{
    sqlite3_bind_int64(st->st, i, (sqlite3_int64)v);
}

static void lite_bind_double(sql_stmt *st, int i, double v) { sqlite3_bind_double(st->st, i, v); }

static void lite_bind_text(sql_stmt *st, int i, const char *text)
{
    if (text)
        sqlite3_bind_text(st->st, i, text, -1, SQLITE_TRANSIENT);
    else
        sqlite3_bind_null(st->st, i);
}

static int lite_step(sql_stmt *st)
{
    int rc = sqlite3_step(st->st);
    if (rc == SQLITE_ROW)
        return SQL_ROW;
    if (rc == SQLITE_DONE)
        return SQL_DONE;
    return fail(st->c);
}

static void lite_reset(sql_stmt *st)
{
    sqlite3_reset(st->st);
    sqlite3_clear_bindings(st->st);
}

static bool lite_column_null(sql_stmt *st, int col)
{
    return sqlite3_column_type(st->st, col) == SQLITE_NULL;
}

static int64_t lite_column_int64(sql_stmt *st, int col)
{
    return (int64_t)sqlite3_column_int64(st->st, col);
}

static double lite_column_double(sql_stmt *st, int col)
{
    return sqlite3_column_double(st->st, col);
}

static const char *lite_column_text(sql_stmt *st, int col)
{
    return (const char *)sqlite3_column_text(st->st, col);
}

static int64_t lite_changes(sql_conn *c) { return sqlite3_changes64(c->db); }

static const char *lite_error(sql_conn *c) { return c->error; }

static bool lite_unique_violation(sql_conn *c)
{
    return c->code == SQLITE_CONSTRAINT_UNIQUE || c->code == SQLITE_CONSTRAINT_PRIMARYKEY;
}

const sql_driver sql_sqlite = {
    .name = "SQLite",
    .connect = lite_connect,
    .close = lite_close,
    .identify = lite_identify,
    .first_version = 1,
    .create_sql = schema_v1,
    .migrations = migrations,
    .configure = lite_configure,
    .exec = lite_exec,
    .begin = lite_begin,
    .commit = lite_commit,
    .rollback = lite_rollback,
    .prepare = lite_prepare,
    .finalize = lite_finalize,
    .bind_int64 = lite_bind_int64,
    .bind_double = lite_bind_double,
    .bind_text = lite_bind_text,
    .step = lite_step,
    .reset = lite_reset,
    .column_null = lite_column_null,
    .column_int64 = lite_column_int64,
    .column_double = lite_column_double,
    .column_text = lite_column_text,
    .changes = lite_changes,
    .error = lite_error,
    .unique_violation = lite_unique_violation,
    .after_copy = NULL,
};
