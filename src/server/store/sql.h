/*
 * sql.h - the store's SQL driver: the little the store's logic (store.c,
 * store_accounts.c, store_copy.c) needs of a database, implemented once per
 * backend: sql_sqlite.c (SQLite) and sql_pg.c (PostgreSQL, libpq). Like
 * SQLite's sqlite3_vfs, a backend is a table of functions (sql_driver);
 * store_open picks one by the form of --db and the logic never knows which
 * it runs on.
 *
 * Statements are written once, in the SQL both databases understand, with
 * ?N placeholders (PostgreSQL's backend turns them into $N). What the two
 * do differently lives in the backends: opening and the lock that keeps a
 * second server out, how a write transaction begins, the schema as first
 * created and its migrations, how a database is recognised as axio's, and
 * (PostgreSQL) reconnecting a lost connection.
 *
 * Only the backend files include SQLite's or libpq's header.
 */
#ifndef AX_STORE_SQL_H
#define AX_STORE_SQL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The schema's version now; every backend's create_sql and migrations
 * end at it. */
#define SQL_SCHEMA_VERSION 10

typedef struct sql_conn sql_conn;
typedef struct sql_stmt sql_stmt;
typedef struct sql_listener sql_listener;

/* What sql_driver.step answers. */
enum { SQL_ERROR = -1, SQL_DONE = 0, SQL_ROW = 1 };

/* What sql_driver.identify finds. */
enum { SQL_EMPTY = 1, SQL_AXIO = 0 };

typedef struct sql_driver {
    const char *name; /* "SQLite", "PostgreSQL" */
    /* Connects; takes the lock that keeps others off the same database
     * without writing anything: exclusive, or (shared) one that servers of
     * one site hold together and that keeps only an exclusive holder (axio
     * db copy) away - SQLite's lock is always exclusive, one server per
     * file. NULL with the reason in err. sync_full: SQLite's --sync full
     * (PostgreSQL always flushes a commit: synchronous_commit on). */
    sql_conn *(*connect)(const char *target, bool sync_full, bool shared, char *err, size_t errlen);
    void (*close)(sql_conn *c);
    /* Inside the first write transaction: SQL_AXIO with *version, SQL_EMPTY
     * for a database without tables, -1 (with the error) for anything else:
     * not a database, another program's, damaged. Writes nothing. */
    int (*identify)(sql_conn *c, long long *version);
    /* The schema a new database is created with (create_sql) is version
     * first_version; migrations[v - first_version] takes version v to v + 1
     * (and records it). */
    int first_version;
    const char *create_sql;
    const char *const *migrations;
    /* After the first transaction committed: settings that need it
     * (SQLite's WAL mode); may be NULL. */
    int (*configure)(sql_conn *c, bool sync_full);
    /* Runs SQL text of one or more statements, without results. */
    int (*exec)(sql_conn *c, const char *sql);
    /* A write transaction; commit answers 0 only once it is committed
     * (and durable as the backend promises). rollback never fails. */
    int (*begin)(sql_conn *c);
    int (*commit)(sql_conn *c);
    void (*rollback)(sql_conn *c);
    /* A statement with ?1 ... ?N placeholders, prepared once; NULL on error
     * (the error in error()). */
    sql_stmt *(*prepare)(sql_conn *c, const char *sql);
    void (*finalize)(sql_stmt *st);
    /* Parameters are 1-based; text NULL binds SQL NULL. The text is copied. */
    void (*bind_int64)(sql_stmt *st, int i, int64_t v);
    void (*bind_double)(sql_stmt *st, int i, double v);
    void (*bind_text)(sql_stmt *st, int i, const char *text);
    /* SQL_ROW while there are rows, then SQL_DONE; SQL_ERROR. */
    int (*step)(sql_stmt *st);
    /* Ends a run of the statement and clears its bindings. */
    void (*reset)(sql_stmt *st);
    /* Columns are 0-based, of the current row; text stays valid until the
     * next step or reset. A NULL reads as NULL text, 0 or 0.0. */
    bool (*column_null)(sql_stmt *st, int col);
    int64_t (*column_int64)(sql_stmt *st, int col);
    double (*column_double)(sql_stmt *st, int col);
    const char *(*column_text)(sql_stmt *st, int col);
    /* Rows changed by the last INSERT, UPDATE or DELETE that finished. */
    int64_t (*changes)(sql_conn *c);
    /* The last error's text, and whether it was a unique-key violation. */
    const char *(*error)(sql_conn *c);
    bool (*unique_violation)(sql_conn *c);
    /* After rows with explicit ids were copied in (axio db copy): make new
     * ids follow them (PostgreSQL's sequences); may be NULL. */
    int (*after_copy)(sql_conn *c);
    /* Messages between the servers of one database (PostgreSQL's NOTIFY;
     * NULL for SQLite, which one server keeps to itself). notify sends a
     * payload to every session listening on this database, a sending
     * server's own listener included. listen_open connects a session of
     * its own that listens; listen_wait waits up to timeout_ms: 1 with a
     * payload, 0 for none, -1 when the session is lost (a new one is made
     * at a later call, no sooner than a backoff; what was sent meanwhile
     * is never heard). */
    int (*notify)(sql_conn *c, const char *payload);
    sql_listener *(*listen_open)(const char *target, char *err, size_t errlen);
    int (*listen_wait)(sql_listener *l, int timeout_ms, char *payload, size_t size);
    void (*listen_close)(sql_listener *l);
} sql_driver;

extern const sql_driver sql_sqlite;
extern const sql_driver sql_pg;

#endif
