/*
 * sql_pg.c - the store's PostgreSQL backend (sql.h), over libpq: one
 * connection, named prepared statements, results read whole.
 *
 * The connection string is any libpq URI (postgresql://... or
 * postgres://...); axio adds connect_timeout=2 and application_name=axio
 * unless the URI says otherwise. Every session sets synchronous_commit on,
 * so a commit returns only once the server has flushed it to its WAL: an
 * acknowledged decision survives this process being killed, and the
 * database server too. A session advisory lock (per database and schema)
 * keeps others off: the servers of one site hold it shared, axio db copy
 * exclusive, so that a copy never runs beside a server. Creating or
 * migrating the tables takes a transaction's lock of its own, so that
 * servers starting together do it once.
 *
 * The servers of a site talk through NOTIFY on a channel named after the
 * schema ("axio.SCHEMA"); each listens on a session of its own
 * (listen_open), which reconnects like the main one.
 *
 * A database is axio's by its table axio_meta (application 'axio' and the
 * schema version). A new one is created whole at the current version;
 * migrations from it on are added here and to sql_sqlite.c.
 *
 * A lost connection (the server restarted, the session was terminated,
 * the network failed) is found before a statement runs, when the socket
 * reports it closed, or when a statement fails on it. Then every call
 * fails at once with the reason ("the connection to PostgreSQL is lost")
 * while a new connection is tried, at the next call but no sooner than a
 * backoff of 0.1 s doubling to 5 s; statements are prepared again on the
 * new connection and the lock taken again. A COMMIT whose answer was lost
 * with the connection is settled on a new one with txid_status(): a write
 * is reported committed only if PostgreSQL says it was.
 */
#include "sql.h"

#include <libpq-fe.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define BACKOFF_FIRST 0.1 /* seconds */
#define BACKOFF_MAX   5.0
#define LOCK_KEY      1096304975 /* "AXIO"; with a hash of the schema's name */
#define SETUP_KEY     1096304976 /* creating or migrating the tables */

struct sql_conn {
    PGconn *pg;          /* NULL while lost */
    bool shared;         /* the lock: servers of one site share it */
    char channel[160];   /* NOTIFY's: "axio." and the schema */
    char *conninfo;      /* for reconnecting */
    unsigned generation; /* counts connections: statements prepared again */
    unsigned statements; /* names axio_1, axio_2, ... */
    bool in_txn;
    char xid[24];     /* the open write transaction's id */
    double retry_at;  /* no new connection before (monotonic seconds) */
    double backoff;   /* the wait after the next failed attempt */
    char lost[256];   /* why the connection was lost; "" while it is not */
    int64_t changes;  /* rows of the last statement */
    char sqlstate[6]; /* of the last error */
    char error[512];
};

struct sql_stmt {
    sql_conn *c;
    char name[24];
    char *sql; /* with $N */
    int nparams;
    char **values;     /* the bound parameters as text; NULL is SQL NULL */
    unsigned prepared; /* the generation it was prepared on; 0: not yet */
    PGresult *res;
    int row, nrows;
};

/* The first schema (version 6, the current one): SQLite's, in PostgreSQL's
 * types - BIGINT for times and ids, DOUBLE PRECISION for REAL, serials where
 * SQLite numbers rows itself (accounts.id; games.rowid, the order games were
 * stored in, which SQLite keeps as its rowid). */
static const char schema_v6[] =
    "CREATE TABLE axio_meta(application TEXT NOT NULL, version INTEGER NOT NULL);"
    "INSERT INTO axio_meta(application, version) VALUES('axio', 6);"
    "CREATE TABLE games(rowid BIGSERIAL NOT NULL UNIQUE, id TEXT PRIMARY KEY,"
    " variant TEXT NOT NULL, players INTEGER NOT NULL, mode TEXT NOT NULL, seed TEXT NOT NULL,"
    " status TEXT NOT NULL, created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL,"
    " creator INTEGER NOT NULL DEFAULT 0, clock TEXT, clock_left TEXT, rematch TEXT,"
    " rematch_of TEXT, end_summary TEXT, rules TEXT NOT NULL DEFAULT 'axio-rules/1',"
    " damage TEXT, rated INTEGER NOT NULL DEFAULT 0);"
    "CREATE INDEX games_status ON games(status, created_at);"
    "CREATE INDEX games_ended ON games(status, updated_at);"
    "CREATE TABLE seats(game_id TEXT NOT NULL, seat INTEGER NOT NULL, kind TEXT NOT NULL,"
    " level TEXT, name TEXT NOT NULL, token_hash TEXT, account_id BIGINT, place INTEGER,"
    " PRIMARY KEY(game_id, seat));"
    "CREATE INDEX seats_account ON seats(account_id);"
    "CREATE TABLE decisions(game_id TEXT NOT NULL, ply INTEGER NOT NULL, seat INTEGER NOT NULL,"
    " decision TEXT NOT NULL, at BIGINT NOT NULL, PRIMARY KEY(game_id, ply));"
    "CREATE TABLE chat(game_id TEXT NOT NULL, n INTEGER NOT NULL, seat INTEGER,"
    " name TEXT NOT NULL, text TEXT NOT NULL, at BIGINT NOT NULL, PRIMARY KEY(game_id, n));"
    "CREATE TABLE accounts(id BIGSERIAL PRIMARY KEY, name TEXT NOT NULL,"
    " name_key TEXT NOT NULL UNIQUE, password_hash TEXT, computer INTEGER NOT NULL DEFAULT 0,"
    " created_at BIGINT NOT NULL, name_skeleton TEXT);"
    "CREATE INDEX accounts_skeleton ON accounts(name_skeleton);"
    "CREATE TABLE sessions(token_hash TEXT PRIMARY KEY, account_id BIGINT NOT NULL,"
    " created_at BIGINT NOT NULL, expires_at BIGINT NOT NULL);"
    "CREATE INDEX sessions_account ON sessions(account_id);"
    "CREATE TABLE ratings(account_id BIGINT NOT NULL, variant TEXT NOT NULL,"
    " mu DOUBLE PRECISION NOT NULL, sigma DOUBLE PRECISION NOT NULL, games INTEGER NOT NULL,"
    " PRIMARY KEY(account_id, variant));"
    "CREATE TABLE rating_history(game_id TEXT NOT NULL, seat INTEGER NOT NULL,"
    " account_id BIGINT NOT NULL, variant TEXT NOT NULL, mu_before DOUBLE PRECISION NOT NULL,"
    " sigma_before DOUBLE PRECISION NOT NULL, mu_after DOUBLE PRECISION NOT NULL,"
    " sigma_after DOUBLE PRECISION NOT NULL, at BIGINT NOT NULL, PRIMARY KEY(game_id, seat));"
    "CREATE INDEX rating_history_account ON rating_history(account_id, at);"
    "CREATE TABLE analyses(game_id TEXT NOT NULL, seat INTEGER NOT NULL, result TEXT NOT NULL,"
    " at BIGINT NOT NULL, PRIMARY KEY(game_id, seat));";

/* migrations[v - 6] takes a database from version v to v + 1 and records
 * it in axio_meta; each is sql_sqlite.c's in PostgreSQL's types. */
static const char *const migrations[] = {
    /* 6 -> 7: several servers on one database (store_owners.c) */
    "ALTER TABLE games ADD COLUMN people INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE games ADD COLUMN entry TEXT;"
    "CREATE TABLE game_owners(game_id TEXT PRIMARY KEY, instance TEXT NOT NULL,"
    " expires_at BIGINT NOT NULL);"
    "CREATE INDEX game_owners_instance ON game_owners(instance);"
    "CREATE TABLE instances(id TEXT PRIMARY KEY, started_at BIGINT NOT NULL,"
    " seen_at BIGINT NOT NULL);"
    "UPDATE axio_meta SET version = 7;",
    /* 7 -> 8: the servers' addresses, the site's secrets, the budgets, who
     * created each game; follows, when an account was seen, challenges, seeks */
    "ALTER TABLE instances ADD COLUMN address TEXT;"
    "CREATE TABLE site(name TEXT PRIMARY KEY, value TEXT NOT NULL);"
    "CREATE TABLE budgets(key TEXT PRIMARY KEY, tokens DOUBLE PRECISION NOT NULL,"
    " at BIGINT NOT NULL);"
    "ALTER TABLE games ADD COLUMN creator_addr TEXT;"
    "CREATE INDEX games_creator_addr ON games(creator_addr, status);"
    "ALTER TABLE accounts ADD COLUMN seen_at BIGINT;"
    "CREATE TABLE follows(account_id BIGINT NOT NULL, follows_id BIGINT NOT NULL,"
    " at BIGINT NOT NULL, PRIMARY KEY(account_id, follows_id));"
    "CREATE TABLE challenges(id TEXT PRIMARY KEY, from_id BIGINT NOT NULL, to_id BIGINT NOT NULL,"
    " variant TEXT NOT NULL, rated INTEGER NOT NULL, clock TEXT NOT NULL, status TEXT NOT NULL,"
    " game_id TEXT, reason TEXT, created_at BIGINT NOT NULL, expires_at BIGINT NOT NULL);"
    "CREATE INDEX challenges_from ON challenges(from_id, created_at);"
    "CREATE INDEX challenges_to ON challenges(to_id, created_at);"
    "CREATE TABLE seeks(id TEXT PRIMARY KEY, account_id BIGINT NOT NULL, variant TEXT NOT NULL,"
    " rated INTEGER NOT NULL, clock TEXT NOT NULL, rating INTEGER NOT NULL, status TEXT NOT NULL,"
    " game_id TEXT, seat INTEGER, created_at BIGINT NOT NULL, polled_at BIGINT NOT NULL);"
    "CREATE INDEX seeks_open ON seeks(status, variant, created_at);"
    "UPDATE axio_meta SET version = 8;",
    /* 8 -> 9: bots and personal API tokens (store_bots.c) */
    "ALTER TABLE accounts ADD COLUMN bot INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE accounts ADD COLUMN bot_about TEXT;"
    "CREATE TABLE tokens(id TEXT PRIMARY KEY, account_id BIGINT NOT NULL,"
    " hash TEXT NOT NULL UNIQUE, label TEXT NOT NULL, scopes TEXT NOT NULL,"
    " created_at BIGINT NOT NULL, used_at BIGINT, stream TEXT);"
    "CREATE INDEX tokens_account ON tokens(account_id);"
    "UPDATE axio_meta SET version = 9;",
    /* 9 -> 10: events, arenas and Swiss tournaments (issue 50; store_events.c):
     * an event's settings and where it stands, with the lease of the one
     * server that runs it; its entrants; its tables, each a game (or a bye)
     * with the points it gave */
    "CREATE TABLE events(id TEXT PRIMARY KEY, name TEXT NOT NULL, organiser_id BIGINT NOT NULL,"
    " format TEXT NOT NULL, variant TEXT NOT NULL, mode TEXT NOT NULL, seats INTEGER NOT NULL,"
    " clock TEXT NOT NULL, rated INTEGER NOT NULL, bots INTEGER NOT NULL,"
    " starts_at BIGINT NOT NULL, duration_s INTEGER NOT NULL, rounds INTEGER NOT NULL,"
    " days_per_round INTEGER NOT NULL, min_rated_games INTEGER NOT NULL, status TEXT NOT NULL,"
    " round INTEGER NOT NULL, round_deadline BIGINT NOT NULL, ends_at BIGINT NOT NULL,"
    " cancel_reason TEXT, created_at BIGINT NOT NULL, creator_addr TEXT, runner TEXT,"
    " runner_until BIGINT);"
    "CREATE INDEX events_status ON events(status, starts_at);"
    "CREATE INDEX events_organiser ON events(organiser_id, status);"
    "CREATE TABLE event_players(event_id TEXT NOT NULL, account_id BIGINT NOT NULL,"
    " joined_at BIGINT NOT NULL, withdrawn INTEGER NOT NULL, misses INTEGER NOT NULL,"
    " PRIMARY KEY(event_id, account_id));"
    "CREATE INDEX event_players_account ON event_players(account_id);"
    "CREATE TABLE event_tables(event_id TEXT NOT NULL, round INTEGER NOT NULL,"
    " tbl INTEGER NOT NULL, game_id TEXT, seats INTEGER NOT NULL, players TEXT NOT NULL,"
    " points TEXT NOT NULL, places TEXT NOT NULL, running INTEGER NOT NULL,"
    " counted INTEGER NOT NULL, created_at BIGINT NOT NULL, ended_at BIGINT NOT NULL,"
    " deadline BIGINT NOT NULL, PRIMARY KEY(event_id, round, tbl));"
    "CREATE INDEX event_tables_game ON event_tables(game_id);"
    "CREATE INDEX event_tables_running ON event_tables(event_id, running);"
    "UPDATE axio_meta SET version = 10;",
};
_Static_assert(sizeof migrations / sizeof migrations[0] == SQL_SCHEMA_VERSION - 6,
               "a PostgreSQL migration for each new version");

/* Copies text, cut to fit. */
static void copy_str(char *dst, size_t size, const char *src)
{
    size_t n = strnlen(src, size - 1);
    memcpy(dst, src, n);
    dst[n] = 0;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* libpq's messages end with a newline; the store's are one line. */
static void set_error(sql_conn *c, const char *text)
{
    snprintf(c->error, sizeof c->error, "%s", text && *text ? text : "unknown error");
    size_t n = strlen(c->error);
    while (n && (c->error[n - 1] == '\n' || c->error[n - 1] == ' '))
        c->error[--n] = 0;
    for (char *p = c->error; *p; p++)
        if (*p == '\n')
            *p = ' ';
}

/* Notices (and the FATAL a terminated idle session is told) are not the
 * log's business: failures reach the caller as errors. */
static void no_notices(void *arg, const char *message)
{
    (void)arg;
    (void)message;
}

/* The connection is gone: every call fails until a new one is made. */
static void mark_lost(sql_conn *c, const char *why)
{
    if (c->pg) {
        PQfinish(c->pg);
        c->pg = NULL;
    }
    if (!c->lost[0]) {
        copy_str(c->lost, sizeof c->lost, why);
        c->retry_at = 0; /* the first new attempt at once */
        c->backoff = BACKOFF_FIRST;
    }
    /* an open transaction stays open, and failing, until its rollback */
}

/* Records a failed result (NULL: the connection's error). */
static void result_error(sql_conn *c, PGresult *res)
{
    const char *state = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;
    snprintf(c->sqlstate, sizeof c->sqlstate, "%s", state ? state : "");
    const char *primary = res ? PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY) : NULL;
    set_error(c, primary ? primary : PQerrorMessage(c->pg));
    if (PQstatus(c->pg) != CONNECTION_OK) {
        char why[300];
        copy_str(why, sizeof why, c->error);
        mark_lost(c, why);
        snprintf(c->error, sizeof c->error, "the connection to PostgreSQL is lost: %.300s",
                 c->lost);
    }
}

/* A new session: connected, synchronous commits, axio's lock held. */
static PGconn *connect_session(sql_conn *c)
{
    const char *keys[] = {"connect_timeout", "application_name", "dbname", NULL};
    const char *values[] = {"2", "axio", c->conninfo, NULL};
    PGconn *pg = PQconnectdbParams(keys, values, 1);
    if (!pg) {
        set_error(c, "out of memory");
        return NULL;
    }
    if (PQstatus(pg) != CONNECTION_OK) {
        set_error(c, PQerrorMessage(pg));
        PQfinish(pg);
        return NULL;
    }
    PQsetNoticeProcessor(pg, no_notices, NULL);
    char sql[256];
    snprintf(sql, sizeof sql,
             "SET synchronous_commit = on;"
             "SET client_min_messages = warning;"
             "SELECT pg_try_advisory_lock%s(%d, hashtext(current_schema())), current_schema()",
             c->shared ? "_shared" : "", LOCK_KEY);
    PGresult *res = PQexec(pg, sql);
    if (PQresultStatus(res) != PGRES_TUPLES_OK || PQntuples(res) != 1) {
        const char *primary = PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY);
        set_error(c, primary ? primary : PQerrorMessage(pg));
    } else if (PQgetisnull(res, 0, 0)) {
        set_error(c, "no schema to create the tables in (the role's search_path names none)");
    } else if (strcmp(PQgetvalue(res, 0, 0), "t") != 0) {
        set_error(c, c->shared ? "the database is in use by axio db copy"
                               : "the database is in use by another process (an axio server or "
                                 "axio db copy)");
    } else {
        snprintf(c->channel, sizeof c->channel, "axio.%s", PQgetvalue(res, 0, 1));
        PQclear(res);
        c->generation++;
        return pg;
    }
    PQclear(res);
    PQfinish(pg);
    return NULL;
}

/* Before a statement outside a transaction: 0 when the connection works,
 * else one attempt at a new one when the backoff allows. */
static int usable(sql_conn *c)
{
    if (c->in_txn) {
        if (c->pg)
            return 0;
        snprintf(c->error, sizeof c->error, "the connection to PostgreSQL is lost: %.300s",
                 c->lost);
        return -1;
    }
    if (c->pg) {
        /* a session the server closed meanwhile shows as a readable socket */
        struct pollfd p = {.fd = PQsocket(c->pg), .events = POLLIN};
        for (int i = 0; i < 4 && PQstatus(c->pg) == CONNECTION_OK && poll(&p, 1, 0) > 0; i++)
            if (!PQconsumeInput(c->pg))
                break;
        if (PQstatus(c->pg) == CONNECTION_OK) {
            PQisBusy(c->pg); /* reads what came (notices) */
            PGnotify *n;
            while ((n = PQnotifies(c->pg)))
                PQfreemem(n);
            return 0;
        }
        set_error(c, PQerrorMessage(c->pg));
        char why[300];
        copy_str(why, sizeof why, c->error);
        mark_lost(c, why);
    }
    double now = now_s();
    if (now < c->retry_at) {
        snprintf(c->error, sizeof c->error,
                 "the connection to PostgreSQL is lost (%.300s); trying again in %.1f s", c->lost,
                 c->retry_at - now);
        return -1;
    }
    c->pg = connect_session(c);
    if (c->pg) {
        c->lost[0] = 0;
        return 0;
    }
    char why[512];
    copy_str(why, sizeof why, c->error);
    c->retry_at = now + c->backoff;
    snprintf(c->error, sizeof c->error,
             "the connection to PostgreSQL is lost (%.150s); a new one failed: %.250s; trying "
             "again in %.1f s",
             c->lost, why, c->backoff);
    c->backoff = c->backoff * 2 < BACKOFF_MAX ? c->backoff * 2 : BACKOFF_MAX;
    return -1;
}

static void pg_close(sql_conn *c)
{
    if (c) {
        if (c->pg)
            PQfinish(c->pg);
        free(c->conninfo);
        free(c);
    }
}

static sql_conn *pg_connect(const char *target, bool sync_full, bool shared, char *err,
                            size_t errlen)
{
    (void)sync_full; /* every commit is flushed: synchronous_commit on */
    sql_conn *c = calloc(1, sizeof *c);
    if (!c || !(c->conninfo = strdup(target))) {
        snprintf(err, errlen, "out of memory");
        free(c);
        return NULL;
    }
    c->shared = shared;
    if (!(c->pg = connect_session(c))) {
        snprintf(err, errlen, "%s", c->error);
        pg_close(c);
        return NULL;
    }
    return c;
}

/* Runs SQL text; the last statement's result (the caller clears it) or
 * NULL with the error set. */
static PGresult *run(sql_conn *c, const char *sql)
{
    if (usable(c))
        return NULL;
    PGresult *res = PQexec(c->pg, sql);
    ExecStatusType rs = PQresultStatus(res);
    if (rs == PGRES_COMMAND_OK || rs == PGRES_TUPLES_OK)
        return res;
    result_error(c, res);
    PQclear(res);
    return NULL;
}

static int pg_exec(sql_conn *c, const char *sql)
{
    PGresult *res = run(c, sql);
    PQclear(res);
    return res ? 0 : -1;
}

static int pg_identify(sql_conn *c, long long *version)
{
    /* servers starting together: one creates or migrates, the others then
     * find it done */
    char sql[96];
    snprintf(sql, sizeof sql, "SELECT pg_advisory_xact_lock(%d, hashtext(current_schema()))",
             SETUP_KEY);
    PGresult *res = run(c, sql);
    if (!res)
        return -1;
    PQclear(res);
    res = run(c, "SELECT count(*), count(*) FILTER (WHERE c.relname = 'axio_meta'"
                 " AND c.relkind = 'r'), current_schema() FROM pg_class c JOIN"
                 " pg_namespace n ON n.oid = c.relnamespace"
                 " WHERE n.nspname = current_schema()"
                 " AND c.relkind IN ('r', 'p', 'v', 'm', 'f', 'S')");
    if (!res)
        return -1;
    long long objects = atoll(PQgetvalue(res, 0, 0)), meta = atoll(PQgetvalue(res, 0, 1));
    char schema[128];
    snprintf(schema, sizeof schema, "%s", PQgetvalue(res, 0, 2));
    PQclear(res);
    if (objects == 0)
        return SQL_EMPTY;
    if (meta == 0) {
        snprintf(c->error, sizeof c->error,
                 "not an axio database (%lld tables and other objects in schema %s, no axio_meta)",
                 objects, schema);
        return -1;
    }
    if (!(res = run(c, "SELECT application, version FROM axio_meta")))
        return -1;
    int ok = PQntuples(res) == 1 && strcmp(PQgetvalue(res, 0, 0), "axio") == 0;
    if (ok)
        *version = atoll(PQgetvalue(res, 0, 1));
    else
        snprintf(c->error, sizeof c->error, "not an axio database (axio_meta has %d rows%s%s)",
                 PQntuples(res), PQntuples(res) ? ", application " : "",
                 PQntuples(res) ? PQgetvalue(res, 0, 0) : "");
    PQclear(res);
    return ok ? SQL_AXIO : -1;
}

static int pg_begin(sql_conn *c)
{
    if (c->in_txn) {
        set_error(c, "a transaction is open already");
        return -1;
    }
    PGresult *res = run(c, "BEGIN; SELECT txid_current()");
    if (!res)
        return -1;
    snprintf(c->xid, sizeof c->xid, "%s", PQgetvalue(res, 0, 0));
    PQclear(res);
    c->in_txn = true;
    return 0;
}

/* A COMMIT whose answer was lost: asks a new session whether it happened.
 * 0 committed, -1 not or unknown (the error says which). */
static int settle_commit(sql_conn *c)
{
    char why[300];
    copy_str(why, sizeof why, c->lost);
    for (int attempt = 0; attempt < 7; attempt++) { /* about 3 s */
        if (attempt)
            usleep(100000u << (attempt < 4 ? attempt - 1 : 3));
        c->retry_at = 0;
        if (usable(c))
            continue;
        char sql[96];
        snprintf(sql, sizeof sql, "SELECT txid_status(%s)", c->xid);
        PGresult *res = run(c, sql);
        if (!res)
            continue;
        bool committed = !PQgetisnull(res, 0, 0) && strcmp(PQgetvalue(res, 0, 0), "committed") == 0;
        PQclear(res);
        if (committed)
            return 0;
        snprintf(c->error, sizeof c->error,
                 "the connection to PostgreSQL was lost while committing (%s): not committed", why);
        return -1;
    }
    snprintf(c->error, sizeof c->error,
             "the connection to PostgreSQL was lost while committing (%s); whether it was "
             "committed is unknown",
             why);
    return -1;
}

static int pg_commit(sql_conn *c)
{
    bool open = c->in_txn;
    c->in_txn = false;
    if (!open || !c->pg) {
        if (c->pg)
            set_error(c, "no transaction");
        else
            snprintf(c->error, sizeof c->error, "the connection to PostgreSQL is lost: %.300s",
                     c->lost);
        return -1;
    }
    PGresult *res = PQexec(c->pg, "COMMIT");
    if (PQresultStatus(res) == PGRES_COMMAND_OK && strcmp(PQcmdStatus(res), "COMMIT") == 0) {
        PQclear(res);
        return 0;
    }
    if (PQresultStatus(res) == PGRES_COMMAND_OK) /* "ROLLBACK": a statement had failed */
        set_error(c, "the transaction was rolled back");
    else
        result_error(c, res);
    PQclear(res);
    return c->pg ? -1 : settle_commit(c);
}

static void pg_rollback(sql_conn *c)
{
    if (c->in_txn && c->pg)
        PQclear(PQexec(c->pg, "ROLLBACK"));
    c->in_txn = false;
}

/* ?N placeholders as $N, outside string literals; the highest N. */
static char *dollar_placeholders(const char *sql, int *nparams)
{
    char *out = strdup(sql);
    if (!out)
        return NULL;
    bool quoted = false;
    *nparams = 0;
    for (char *p = out; *p; p++) {
        if (*p == '\'')
            quoted = !quoted;
        else if (!quoted && *p == '?' && p[1] >= '0' && p[1] <= '9') {
            *p = '$';
            int n = atoi(p + 1);
            if (n > *nparams)
                *nparams = n;
        }
    }
    return out;
}

static sql_stmt *pg_prepare(sql_conn *c, const char *sql)
{
    sql_stmt *st = calloc(1, sizeof *st);
    if (!st || !(st->sql = dollar_placeholders(sql, &st->nparams)) ||
        (st->nparams && !(st->values = calloc((size_t)st->nparams, sizeof *st->values)))) {
        set_error(c, "out of memory");
        if (st)
            free(st->sql);
        free(st);
        return NULL;
    }
    st->c = c;
    st->row = -1;
    snprintf(st->name, sizeof st->name, "axio_%u", ++c->statements);
    /* prepared now, so that a mistake shows when the store opens */
    if (usable(c) == 0) {
        PGresult *res = PQprepare(c->pg, st->name, st->sql, st->nparams, NULL);
        if (PQresultStatus(res) == PGRES_COMMAND_OK) {
            st->prepared = c->generation;
        } else {
            result_error(c, res);
            PQclear(res);
            free(st->values);
            free(st->sql);
            free(st);
            return NULL;
        }
        PQclear(res);
    }
    return st;
}

static void pg_reset(sql_stmt *st)
{
    PQclear(st->res);
    st->res = NULL;
    st->row = -1;
    st->nrows = 0;
    for (int i = 0; i < st->nparams; i++) {
        free(st->values[i]);
        st->values[i] = NULL;
    }
}

static void pg_finalize(sql_stmt *st)
{
    if (st) {
        pg_reset(st);
        free(st->values);
        free(st->sql);
        free(st);
    }
}

static void set_param(sql_stmt *st, int i, char *value)
{
    if (i < 1 || i > st->nparams) {
        free(value);
        return;
    }
    free(st->values[i - 1]);
    st->values[i - 1] = value;
}

static void pg_bind_int64(sql_stmt *st, int i, int64_t v)
{
    char text[24];
    snprintf(text, sizeof text, "%lld", (long long)v);
    set_param(st, i, strdup(text));
}

static void pg_bind_double(sql_stmt *st, int i, double v)
{
    char text[32];
    snprintf(text, sizeof text, "%.17g", v); /* exact: read back as the same double */
    set_param(st, i, strdup(text));
}

static void pg_bind_text(sql_stmt *st, int i, const char *text)
{
    set_param(st, i, text ? strdup(text) : NULL);
}

static int pg_step(sql_stmt *st)
{
    sql_conn *c = st->c;
    if (st->res) {
        if (st->row < st->nrows)
            st->row++;
        return st->row < st->nrows ? SQL_ROW : SQL_DONE;
    }
    if (usable(c))
        return SQL_ERROR;
    if (st->prepared != c->generation) {
        PGresult *res = PQprepare(c->pg, st->name, st->sql, st->nparams, NULL);
        if (PQresultStatus(res) != PGRES_COMMAND_OK) {
            result_error(c, res);
            PQclear(res);
            return SQL_ERROR;
        }
        PQclear(res);
        st->prepared = c->generation;
    }
    PGresult *res = PQexecPrepared(c->pg, st->name, st->nparams, (const char *const *)st->values,
                                   NULL, NULL, 0);
    ExecStatusType rs = PQresultStatus(res);
    if (rs != PGRES_COMMAND_OK && rs != PGRES_TUPLES_OK) {
        result_error(c, res);
        PQclear(res);
        return SQL_ERROR;
    }
    const char *tuples = PQcmdTuples(res);
    c->changes = *tuples ? atoll(tuples) : 0;
    st->res = res;
    st->nrows = rs == PGRES_TUPLES_OK ? PQntuples(res) : 0;
    st->row = 0;
    return st->nrows > 0 ? SQL_ROW : SQL_DONE;
}

static bool pg_column_null(sql_stmt *st, int col)
{
    return !st->res || st->row >= st->nrows || PQgetisnull(st->res, st->row, col);
}

static const char *pg_column_text(sql_stmt *st, int col)
{
    return pg_column_null(st, col) ? NULL : PQgetvalue(st->res, st->row, col);
}

static int64_t pg_column_int64(sql_stmt *st, int col)
{
    const char *text = pg_column_text(st, col);
    return text ? (int64_t)strtoll(text, NULL, 10) : 0;
}

static double pg_column_double(sql_stmt *st, int col)
{
    const char *text = pg_column_text(st, col);
    return text ? strtod(text, NULL) : 0.0;
}

static int64_t pg_changes(sql_conn *c) { return c->changes; }

static const char *pg_error(sql_conn *c) { return c->error; }

static bool pg_unique_violation(sql_conn *c) { return strcmp(c->sqlstate, "23505") == 0; }

static int pg_after_copy(sql_conn *c)
{
    return pg_exec(c, "SELECT setval(pg_get_serial_sequence('accounts', 'id'),"
                      " COALESCE((SELECT max(id) FROM accounts), 0) + 1, false)");
}

/* --- messages between the servers: NOTIFY and LISTEN --- */

static int pg_notify(sql_conn *c, const char *payload)
{
    if (usable(c))
        return -1;
    const char *values[2] = {c->channel, payload};
    PGresult *res = PQexecParams(c->pg, "SELECT pg_notify($1, $2)", 2, NULL, values, NULL, NULL, 0);
    if (PQresultStatus(res) != PGRES_TUPLES_OK) {
        result_error(c, res);
        PQclear(res);
        return -1;
    }
    PQclear(res);
    return 0;
}

struct sql_listener {
    PGconn *pg; /* NULL while lost */
    char *conninfo;
    bool was_lost; /* listening again is reported (2) */
    double retry_at, backoff;
    char error[512];
};

/* A session that listens on the site's channel; NULL with l->error. */
static PGconn *listen_session(sql_listener *l)
{
    const char *keys[] = {"connect_timeout", "application_name", "dbname", NULL};
    const char *values[] = {"2", "axio-listen", l->conninfo, NULL};
    PGconn *pg = PQconnectdbParams(keys, values, 1);
    PGresult *res = NULL;
    if (pg && PQstatus(pg) == CONNECTION_OK)
        res = PQexec(pg, "SELECT current_schema()");
    if (PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1 && !PQgetisnull(res, 0, 0)) {
        char channel[160];
        snprintf(channel, sizeof channel, "axio.%s", PQgetvalue(res, 0, 0));
        char *quoted = PQescapeIdentifier(pg, channel, strlen(channel));
        char sql[400];
        snprintf(sql, sizeof sql, "SET client_min_messages = warning; LISTEN %s",
                 quoted ? quoted : "\"\"");
        PQfreemem(quoted);
        PQclear(res);
        res = PQexec(pg, sql);
        if (PQresultStatus(res) == PGRES_COMMAND_OK) {
            PQclear(res);
            PQsetNoticeProcessor(pg, no_notices, NULL);
            return pg;
        }
    }
    snprintf(l->error, sizeof l->error, "%s",
             !pg   ? "out of memory"
             : res ? PQresultErrorMessage(res)
                   : PQerrorMessage(pg));
    PQclear(res);
    PQfinish(pg);
    return NULL;
}

static sql_listener *pg_listen_open(const char *target, char *err, size_t errlen)
{
    sql_listener *l = calloc(1, sizeof *l);
    if (!l || !(l->conninfo = strdup(target))) {
        free(l);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    l->backoff = BACKOFF_FIRST;
    if (!(l->pg = listen_session(l))) {
        snprintf(err, errlen, "listening on PostgreSQL: %s", l->error);
        free(l->conninfo);
        free(l);
        return NULL;
    }
    return l;
}

static void listen_lost(sql_listener *l)
{
    PQfinish(l->pg);
    l->pg = NULL;
    l->was_lost = true;
    l->retry_at = 0;
    l->backoff = BACKOFF_FIRST;
}

static int pg_listen_wait(sql_listener *l, int timeout_ms, char *payload, size_t size)
{
    if (!l->pg) {
        double now = now_s();
        if (now < l->retry_at) {
            double wait = l->retry_at - now;
            usleep((useconds_t)(1e6 * (wait < timeout_ms / 1e3 ? wait : timeout_ms / 1e3)));
            return -1;
        }
        if (!(l->pg = listen_session(l))) {
            l->retry_at = now + l->backoff;
            l->backoff = l->backoff * 2 < BACKOFF_MAX ? l->backoff * 2 : BACKOFF_MAX;
            return -1;
        }
        l->backoff = BACKOFF_FIRST;
    }
    if (l->was_lost) {
        l->was_lost = false;
        return 2;
    }
    PGnotify *n = PQnotifies(l->pg);
    if (!n) {
        struct pollfd p = {.fd = PQsocket(l->pg), .events = POLLIN};
        if (poll(&p, 1, timeout_ms) > 0 && !PQconsumeInput(l->pg)) {
            snprintf(l->error, sizeof l->error, "%s", PQerrorMessage(l->pg));
            listen_lost(l);
            return -1;
        }
        if (PQstatus(l->pg) != CONNECTION_OK) {
            listen_lost(l);
            return -1;
        }
        n = PQnotifies(l->pg);
    }
    if (!n)
        return 0;
    snprintf(payload, size, "%s", n->extra);
    PQfreemem(n);
    return 1;
}

static void pg_listen_close(sql_listener *l)
{
    if (l) {
        PQfinish(l->pg);
        free(l->conninfo);
        free(l);
    }
}

const sql_driver sql_pg = {
    .name = "PostgreSQL",
    .connect = pg_connect,
    .close = pg_close,
    .identify = pg_identify,
    .first_version = 6,
    .create_sql = schema_v6,
    .migrations = migrations,
    .configure = NULL,
    .exec = pg_exec,
    .begin = pg_begin,
    .commit = pg_commit,
    .rollback = pg_rollback,
    .prepare = pg_prepare,
    .finalize = pg_finalize,
    .bind_int64 = pg_bind_int64,
    .bind_double = pg_bind_double,
    .bind_text = pg_bind_text,
    .step = pg_step,
    .reset = pg_reset,
    .column_null = pg_column_null,
    .column_int64 = pg_column_int64,
    .column_double = pg_column_double,
    .column_text = pg_column_text,
    .changes = pg_changes,
    .error = pg_error,
    .unique_violation = pg_unique_violation,
    .after_copy = pg_after_copy,
    .notify = pg_notify,
    .listen_open = pg_listen_open,
    .listen_wait = pg_listen_wait,
    .listen_close = pg_listen_close,
};
