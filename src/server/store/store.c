/*
 * store.c - the store (store.h): games, decisions, chat and analyses, the
 * opening checks and migrations, and the writer thread.
 *
 * Design. The store is one interface over two databases, SQLite and
 * PostgreSQL, in the manner of SQLite's own VFS: its logic is written once
 * here and in store_accounts.c and store_copy.c, over a small SQL driver
 * (sql.h: prepare with ?N placeholders, bind, step, column, exec,
 * begin/commit/rollback, changes, error text, "was it a unique-key
 * violation"), and each backend implements that driver in one file
 * (sql_sqlite.c, sql_pg.c) - the only files that include SQLite's or
 * libpq's header. store_open picks the backend from the form of --db: a
 * postgresql:// or postgres:// URI is PostgreSQL, sqlite:PATH or a plain
 * path SQLite. Every statement is written in the SQL both understand
 * (upserts with ON CONFLICT, RETURNING, IS DISTINCT FROM; PostgreSQL's games
 * have a serial column named rowid so that "ORDER BY ..., rowid" means
 * "in the order stored" on both). What differs lives in the driver: how a
 * database is recognised and created, its migrations, how a write
 * transaction begins, the lock that keeps a second server away, and
 * PostgreSQL's reconnecting.
 *
 * Opening checks before it writes, in one write transaction: the database
 * must be empty or an axio database of a version this server knows (1 to
 * SQL_SCHEMA_VERSION); anything else is refused with the reason and left as
 * it was. An empty one is created (SQLite at version 1 and migrated like an
 * old one; PostgreSQL whole at the current version), an older one migrated,
 * all inside that transaction, then every table is probed for its columns.
 * Statements are prepared once.
 *
 * One connection serves the event loop and the writer thread, under one
 * mutex held for a whole call (a whole transaction); the error text a
 * caller reads is copied out under it. The writer thread commits what was
 * queued since its last commit in one transaction (group commit); if that
 * fails, each write is tried again alone, so that one bad write does not
 * fail another game's. A write is reported committed only once the
 * driver's commit said so.
 */
#include "store_internal.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Each must prepare on a sound database: the schema check. */
static const char *const schema_probes[] = {
    "SELECT id, variant, players, mode, seed, status, created_at, updated_at, creator, clock,"
    " clock_left, rematch, rematch_of, end_summary, rules, damage, rated, people, entry, rowid,"
    " creator_addr FROM games",
    "SELECT game_id, instance, expires_at FROM game_owners",
    "SELECT id, started_at, seen_at, address FROM instances",
    "SELECT name, value FROM site",
    "SELECT key, tokens, at FROM budgets",
    "SELECT game_id, seat, kind, level, name, token_hash, account_id, place FROM seats",
    "SELECT id, name, name_key, password_hash, computer, created_at, name_skeleton, seen_at,"
    " bot, bot_about FROM accounts",
    "SELECT id, account_id, hash, label, scopes, created_at, used_at FROM tokens",
    "SELECT account_id, follows_id, at FROM follows",
    "SELECT id, from_id, to_id, variant, rated, clock, status, game_id, reason, created_at,"
    " expires_at, players, mode, to2_id, to3_id, accepted, declined_by FROM challenges",
    "SELECT id, account_id, variant, rated, clock, rating, status, game_id, seat, created_at,"
    " polled_at FROM seeks",
    "SELECT token_hash, account_id, created_at, expires_at FROM sessions",
    "SELECT account_id, variant, mu, sigma, games FROM ratings",
    "SELECT game_id, seat, account_id, variant, mu_before, sigma_before, mu_after, sigma_after,"
    " at FROM rating_history",
    "SELECT game_id, ply, seat, decision, at FROM decisions",
    "SELECT game_id, n, seat, name, text, at FROM chat",
    "SELECT game_id, seat, result, at FROM analyses",
    "SELECT role, closed FROM accounts",
    "SELECT account_id, blocked_id, at FROM blocks",
    "SELECT id, reporter_id, target_id, game_id, chat_n, reason, text, status, created_at,"
    " handled_by, handled_at FROM reports",
    "SELECT id, account_id, kind, game_id, detail, until_at, created_at, by_id, lifted_at,"
    " seen_at FROM sanctions",
    "SELECT name_key, skeleton, account_id, at FROM held_names",
    "SELECT id, at, moderator_id, moderator, target_id, target, action, detail, reason"
    " FROM mod_log",
};

static const char *const statement_sql[ST_COUNT] = {
    [ST_INSERT_GAME] = "INSERT INTO games(id, variant, players, mode, seed, status, created_at,"
                       " updated_at, creator, clock, clock_left, rematch_of, rules, rated,"
                       " creator_addr)"
                       " VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
    [ST_WAITING_BY] = "SELECT COUNT(*) FROM games WHERE creator_addr = ?1 AND status = 'waiting'",
    [ST_TAKE_BACK] = "DELETE FROM decisions WHERE game_id = ?1 AND ply >= ?2",
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
    /* An analysis is computed once: a second one for the same seat (a retry)
     * replaces it. */
    [ST_PUT_ANALYSIS] = "INSERT INTO analyses(game_id, seat, result, at) VALUES(?1, ?2, ?3, ?4)"
                        " ON CONFLICT(game_id, seat) DO UPDATE SET result = excluded.result,"
                        " at = excluded.at",
    [ST_GET_ANALYSIS] = "SELECT result FROM analyses WHERE game_id = ?1 AND seat = ?2",
    [ST_UNFINISHED] = "SELECT id FROM games WHERE status IN ('waiting', 'running')"
                      " ORDER BY created_at, rowid",
    [ST_FINISHED] = "SELECT id FROM games WHERE status = 'over'"
                    " ORDER BY updated_at DESC, rowid DESC LIMIT ?1",
    [ST_GAME] = "SELECT variant, players, mode, seed, status, created_at, updated_at, creator,"
                " clock, clock_left, rematch, rematch_of, end_summary, rules, damage, rated,"
                " creator_addr FROM games WHERE id = ?1",
    /* with each bound account's current rating in the game's variant, and
     * the seat's rating before and after the game when it was rated */
    [ST_SEATS] = "SELECT s.seat, s.kind, s.level, s.name, s.token_hash, s.account_id, s.place,"
                 " r.mu, r.sigma, h.mu_before, h.sigma_before, h.mu_after, h.sigma_after,"
                 " (SELECT a.bot FROM accounts a WHERE a.id = s.account_id)"
                 " FROM seats s LEFT JOIN ratings r ON r.account_id = s.account_id AND"
                 " r.variant = (SELECT variant FROM games WHERE id = s.game_id)"
                 " LEFT JOIN rating_history h ON h.game_id = s.game_id AND h.seat = s.seat"
                 " WHERE s.game_id = ?1 ORDER BY s.seat",
    [ST_DECISIONS] = "SELECT ply, decision, at FROM decisions WHERE game_id = ?1 ORDER BY ply",
    [ST_DECISIONS_AS_STORED] = "SELECT ply, seat, decision, at FROM decisions WHERE game_id = ?1"
                               " ORDER BY ply",
    [ST_CHAT] = "SELECT n, seat, name, text, at FROM (SELECT * FROM chat WHERE game_id = ?1"
                " ORDER BY n DESC LIMIT ?2) AS newest ORDER BY n",
};

const char *store_error(store *s) { return s->loop_error; }

const char *store_backend(const store *s) { return s->drv->name; }

void store_lock(store *s) { pthread_mutex_lock(&s->lock); }

/* Ends a public call: the error text is copied for the caller first. */
int store_unlock(store *s, int rc)
{
    if (rc)
        memcpy(s->loop_error, s->error, sizeof s->error);
    pthread_mutex_unlock(&s->lock);
    return rc;
}

int store_unlock_result(store *s, int rc)
{
    return store_unlock(s, rc < 0 ? -1 : 0) == 0 ? rc : -1;
}

int store_read_row(store *s, sql_stmt *st, store_row_reader read, void *out, const char *what)
{
    int rc = step(s, st);
    if (rc == SQL_ROW)
        read(s, st, out);
    reset(s, st);
    return rc == SQL_ROW ? 0 : rc == SQL_DONE ? 1 : store_fail(s, what);
}

int store_read_rows(store *s, sql_stmt *st, size_t size, store_row_reader read, void **list, int *n,
                    const char *what)
{
    char *items = NULL;
    int count = 0, cap = 0, rc;
    while ((rc = step(s, st)) == SQL_ROW) {
        if (count == cap) {
            cap = cap ? 2 * cap : 16;
            char *grown = realloc(items, (size_t)cap * size);
            if (!grown)
                break;
            items = grown;
        }
        read(s, st, items + (size_t)count++ * size);
    }
    if (rc == SQL_ERROR)
        store_fail(s, what);
    else if (rc == SQL_ROW)
        snprintf(s->error, sizeof s->error, "%s: out of memory", what);
    reset(s, st);
    if (rc != SQL_DONE) {
        free(items);
        items = NULL;
        count = 0;
    }
    *list = items;
    *n = count;
    return rc == SQL_DONE ? 0 : -1;
}

int store_fail(store *s, const char *what)
{
    snprintf(s->error, sizeof s->error, "%s: %s", what, s->drv->error(s->c));
    return -1;
}

void store_copy_column(store *s, sql_stmt *st, int col, char *out, size_t size)
{
    const char *text = col_text(s, st, col);
    snprintf(out, size, "%s", text ? text : "");
}

int store_step_done(store *s, sql_stmt *st, const char *what)
{
    int rc = step(s, st);
    reset(s, st);
    return rc == SQL_DONE ? 0 : store_fail(s, what);
}

int store_step_changed(store *s, sql_stmt *st, const char *what)
{
    if (store_step_done(s, st, what))
        return -1;
    return s->drv->changes(s->c) > 0 ? 0 : 1;
}

int store_prepare_all(store *s, sql_stmt **stmts, const char *const *sql, int n)
{
    for (int i = 0; i < n; i++)
        if (!(stmts[i] = s->drv->prepare(s->c, sql[i])))
            return store_fail(s, "preparing statements");
    return 0;
}

void store_finalize_all(store *s, sql_stmt **stmts, int n)
{
    for (int i = 0; i < n; i++)
        if (stmts[i])
            s->drv->finalize(stmts[i]);
}

int store_begin(store *s)
{
    return s->drv->begin(s->c) ? store_fail(s, "beginning a transaction") : 0;
}

int store_commit(store *s) { return s->drv->commit(s->c) ? store_fail(s, "committing") : 0; }

int store_rollback(store *s)
{
    s->drv->rollback(s->c);
    return -1;
}

/* --- opening --- */

/* Which backend a --db value names, and what it hands the backend. */
static const sql_driver *driver_for(const char *target, const char **rest)
{
    *rest = target;
    if (strncmp(target, "postgresql://", 13) == 0 || strncmp(target, "postgres://", 11) == 0)
        return &sql_pg;
    if (strncmp(target, "sqlite:", 7) == 0)
        *rest = target + 7;
    return &sql_sqlite;
}

void store_target_text(const char *target, char *out, size_t size)
{
    const char *scheme = strstr(target, "://");
    if (!scheme) {
        snprintf(out, size, "%s", target);
        return;
    }
    /* postgresql://user:secret@host/db?password=secret: the secrets go */
    size_t n = 0;
    const char *p = target, *at = NULL, *colon = NULL;
    const char *auth = scheme + 3, *auth_end = auth + strcspn(auth, "/?");
    for (const char *q = auth; q < auth_end; q++)
        if (*q == '@')
            at = q;
    if (at)
        colon = memchr(auth, ':', (size_t)(at - auth));
    while (*p && n + 1 < size) {
        if (colon && p == colon + 1) {
            n += (size_t)snprintf(out + n, size - n, "***");
            p = at;
            continue;
        }
        if (p > auth_end && strncmp(p, "password=", 9) == 0 && (p[-1] == '?' || p[-1] == '&')) {
            n += (size_t)snprintf(out + n, size - n, "password=***");
            p += 9 + strcspn(p + 9, "&");
            continue;
        }
        out[n++] = *p++;
    }
    if (n >= size)
        n = size - 1;
    out[n] = 0;
}

/* Runs the migrations from the database's version up to the current one,
 * inside the caller's transaction: all of them or none. A version newer
 * than this server's is refused, the database untouched. */
static int migrate(store *s, long long version)
{
    const sql_driver *d = s->drv;
    if (version < d->first_version || version > SQL_SCHEMA_VERSION) {
        snprintf(s->error, sizeof s->error,
                 "unknown axio database version %lld (this server knows %d to %d)", version,
                 d->first_version, SQL_SCHEMA_VERSION);
        return -1;
    }
    for (long long v = version; v < SQL_SCHEMA_VERSION; v++)
        if (d->exec(s->c, d->migrations[v - d->first_version]))
            return store_fail(s, "migrating the database");
    for (size_t i = 0; i < sizeof schema_probes / sizeof schema_probes[0]; i++) {
        sql_stmt *st = d->prepare(s->c, schema_probes[i]);
        if (!st)
            return store_fail(s, "the database's tables are not axio's");
        d->finalize(st);
    }
    return 0;
}

/* Under the first write transaction: refuse or accept the database, create
 * the schema in an empty one (unless it must exist), migrate an older one. */
static int check_or_create(store *s, bool existing)
{
    const sql_driver *d = s->drv;
    if (d->begin(s->c)) {
        snprintf(s->error, sizeof s->error, "%s", d->error(s->c));
        return -1;
    }
    long long version = 0;
    int found = d->identify(s->c, &version);
    int rc = -1;
    if (found == SQL_AXIO) {
        rc = migrate(s, version);
    } else if (found == SQL_EMPTY && existing) {
        snprintf(s->error, sizeof s->error, "it holds no axio database (it is empty)");
    } else if (found == SQL_EMPTY) {
        rc = d->exec(s->c, d->create_sql) ? store_fail(s, "creating the database")
                                          : migrate(s, d->first_version);
    } else {
        snprintf(s->error, sizeof s->error, "%s", d->error(s->c));
    }
    if (rc == 0 && d->commit(s->c) == 0)
        return 0;
    if (rc == 0)
        store_fail(s, "committing");
    d->rollback(s->c);
    return -1;
}

/* ST_GAMES_IN and ST_SEATS_IN: ST_GAME's and ST_SEATS's columns, after the
 * game's id, for the games whose ids are ?1..?STORE_LIST_MAX (unused ones
 * bound to NULL, which matches nothing). */
static void list_sql(char *out, size_t size, const char *head, const char *tail)
{
    size_t n = (size_t)snprintf(out, size, "%s", head);
    for (int i = 1; i <= STORE_LIST_MAX && n < size; i++)
        n += (size_t)snprintf(out + n, size - n, i > 1 ? ", ?%d" : "?%d", i);
    if (n < size)
        snprintf(out + n, size - n, "%s", tail);
}

static int prepare_all(store *s)
{
    char games_in[2048], seats_in[2048];
    list_sql(games_in, sizeof games_in,
             "SELECT id, variant, players, mode, seed, status, created_at, updated_at, creator,"
             " clock, clock_left, rematch, rematch_of, end_summary, rules, damage, rated,"
             " creator_addr, entry FROM games WHERE id IN (",
             ")");
    list_sql(seats_in, sizeof seats_in,
             "SELECT s.game_id, s.seat, s.kind, s.level, s.name, s.token_hash, s.account_id,"
             " s.place, r.mu, r.sigma, h.mu_before, h.sigma_before, h.mu_after, h.sigma_after,"
             " (SELECT a.bot FROM accounts a WHERE a.id = s.account_id)"
             " FROM seats s LEFT JOIN ratings r ON r.account_id = s.account_id AND"
             " r.variant = (SELECT variant FROM games WHERE id = s.game_id)"
             " LEFT JOIN rating_history h ON h.game_id = s.game_id AND h.seat = s.seat"
             " WHERE s.game_id IN (",
             ")");
    for (int i = 0; i < ST_COUNT; i++) {
        const char *sql = i == ST_GAMES_IN   ? games_in
                          : i == ST_SEATS_IN ? seats_in
                                             : statement_sql[i];
        if (!(s->st[i] = s->drv->prepare(s->c, sql)))
            return store_fail(s, "preparing statements");
    }
    return store_accounts_prepare(s) || store_social_prepare(s) || store_bots_prepare(s) ||
                   store_moderation_prepare(s) || store_push_prepare(s) || store_events_prepare(s)
               ? -1
               : 0;
}

static store *open_store(const char *target, bool sync_full, bool existing, bool server,
                         bool beside, char *err, size_t errlen)
{
    store *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    pthread_mutex_init(&s->lock, NULL);
    pthread_mutex_init(&s->qlock, NULL);
    pthread_cond_init(&s->wake, NULL);
    const char *rest;
    s->drv = driver_for(target, &rest);
    if (!*rest) {
        snprintf(err, errlen, "no database named");
        store_close(s);
        return NULL;
    }
    if (existing && s->drv == &sql_sqlite && access(rest, F_OK) != 0) {
        snprintf(err, errlen, "%s: %s", rest, strerror(errno));
        store_close(s);
        return NULL;
    }
    s->shared = (server || beside) && s->drv->notify;
    s->c = s->drv->connect(rest, sync_full, s->shared, err, errlen);
    if (!s->c) {
        store_close(s);
        return NULL;
    }
    if (check_or_create(s, existing) ||
        (s->drv->configure && s->drv->configure(s->c, sync_full) &&
         store_fail(s, "configuring the database")) ||
        prepare_all(s) || store_owners_open(s, rest, server)) {
        snprintf(err, errlen, "%s", s->error);
        store_close(s);
        return NULL;
    }
    return s;
}

store *store_open(const char *target, bool sync_full, char *err, size_t errlen)
{
    return open_store(target, sync_full, false, false, false, err, errlen);
}

store *store_open_server(const char *target, bool sync_full, char *err, size_t errlen)
{
    return open_store(target, sync_full, false, true, false, err, errlen);
}

store *store_open_existing(const char *target, char *err, size_t errlen)
{
    return open_store(target, false, true, false, false, err, errlen);
}

store *store_open_beside(const char *target, char *err, size_t errlen)
{
    return open_store(target, false, true, false, true, err, errlen);
}

void store_close(store *s)
{
    if (!s)
        return;
    store_writer_stop(s);
    store_listen_stop(s);
    if (s->c) {
        store_owners_finalize(s);
        store_finalize_all(s, s->st, ST_COUNT);
        store_accounts_finalize(s);
        store_social_finalize(s);
        store_moderation_finalize(s);
        store_bots_finalize(s);
        store_push_finalize(s);
        store_events_finalize(s);
        store_copy_finalize(s);
        s->drv->close(s->c);
    }
    pthread_cond_destroy(&s->wake);
    pthread_mutex_destroy(&s->qlock);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

/* --- games --- */

static int insert_seat(store *s, const char *id, int seat, const stored_seat *ss)
{
    sql_stmt *st = s->st[ST_INSERT_SEAT];
    bind_text(s, st, 1, id);
    bind_int(s, st, 2, seat);
    bind_text(s, st, 3, ss->kind);
    bind_text_or_null(s, st, 4, ss->level);
    bind_text(s, st, 5, ss->name);
    bind_text_or_null(s, st, 6, ss->token_hash);
    if (ss->account_id > 0)
        bind_int(s, st, 7, ss->account_id);
    else
        bind_text(s, st, 7, NULL);
    return store_step_done(s, st, "storing a seat");
}

static int create_game(store *s, const stored_game *g)
{
    if (store_begin(s))
        return -1;
    char seed[24];
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)g->seed);
    sql_stmt *st = s->st[ST_INSERT_GAME];
    bind_text(s, st, 1, g->id);
    bind_text(s, st, 2, g->variant);
    bind_int(s, st, 3, g->players);
    bind_text(s, st, 4, g->mode);
    bind_text(s, st, 5, seed);
    bind_text(s, st, 6, g->status);
    bind_int(s, st, 7, g->created);
    bind_int(s, st, 8, g->creator);
    bind_text_or_null(s, st, 9, g->clock);
    bind_text_or_null(s, st, 10, g->clock_left);
    bind_text_or_null(s, st, 11, g->rematch_of);
    bind_text(s, st, 12, g->rules);
    bind_int(s, st, 13, g->rated);
    bind_text_or_null(s, st, 14, g->creator_addr);
    if (store_step_done(s, st, "storing a game"))
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

int store_waiting_by(store *s, const char *creator_addr, int *n)
{
    store_lock(s);
    sql_stmt *st = s->st[ST_WAITING_BY];
    bind_text(s, st, 1, creator_addr);
    int rc = step(s, st);
    *n = rc == SQL_ROW ? (int)col_int(s, st, 0) : 0;
    reset(s, st);
    return store_unlock(s, rc == SQL_ROW ? 0 : store_fail(s, "counting waiting games"));
}

static int set_status(store *s, const char *id, const char *status)
{
    sql_stmt *st = s->st[ST_SET_STATUS];
    bind_text(s, st, 1, id);
    bind_text(s, st, 2, status);
    bind_int(s, st, 3, (int64_t)time(NULL));
    return store_step_done(s, st, "storing a game's status");
}

static int take_seat(store *s, const char *id, int seat, const char *name, const char *token_hash,
                     int64_t account_id, const char *status)
{
    if (store_begin(s))
        return -1;
    sql_stmt *st = s->st[ST_TAKE_SEAT];
    bind_text(s, st, 1, id);
    bind_int(s, st, 2, seat);
    bind_text(s, st, 3, name);
    bind_text(s, st, 4, token_hash);
    if (account_id > 0)
        bind_int(s, st, 5, account_id);
    else
        bind_text(s, st, 5, NULL);
    if (store_step_done(s, st, "storing a seat"))
        return store_rollback(s);
    if (s->drv->changes(s->c) != 1) {
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
    sql_stmt *st = s->st[which];
    bind_text(s, st, 1, id);
    if (seat >= 0) {
        bind_int(s, st, 2, seat);
        bind_text(s, st, 3, text);
    } else {
        bind_text(s, st, 2, text);
    }
    if (store_step_done(s, st, what))
        return -1;
    if (s->drv->changes(s->c) != 1) {
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
    if (rc == 0 && s->drv->changes(s->c) != 1) {
        snprintf(s->error, sizeof s->error, "no game %s", id);
        rc = -1;
    }
    return store_unlock(s, rc);
}

int store_set_end(store *s, const char *id, const char *status, const char *end_summary)
{
    store_lock(s);
    if (store_begin(s))
        return store_unlock(s, -1);
    int rc = set_status(s, id, status);
    if (rc == 0 && s->drv->changes(s->c) != 1) {
        snprintf(s->error, sizeof s->error, "no game %s", id);
        rc = -1;
    }
    if (rc == 0)
        rc = update_one(s, ST_SET_END, id, -1, end_summary, "storing the end");
    if (rc == 0 && store_commit(s))
        rc = -1;
    if (rc)
        store_rollback(s);
    return store_unlock(s, rc);
}

int store_set_damaged(store *s, const char *id, const char *why)
{
    store_lock(s);
    sql_stmt *st = s->st[ST_SET_DAMAGED];
    bind_text(s, st, 1, id);
    bind_text(s, st, 2, why);
    bind_int(s, st, 3, (int64_t)time(NULL));
    int rc = store_step_done(s, st, "setting a damaged game aside");
    if (rc == 0 && s->drv->changes(s->c) != 1) {
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

/* --- the writer thread's writes --- */

static int set_clocks(store *s, const store_write *w)
{
    if (!w->clock_left[0])
        return 0;
    return update_one(s, ST_SET_CLOCKS, w->game_id, -1, w->clock_left, "storing the clocks");
}

static int add_chat(store *s, const store_write *w)
{
    sql_stmt *st = s->st[ST_INSERT_CHAT];
    bind_text(s, st, 1, w->game_id);
    bind_int(s, st, 2, w->chat_n);
    if (w->seat >= 0)
        bind_int(s, st, 3, w->seat);
    else
        bind_text(s, st, 3, NULL);
    bind_text(s, st, 4, w->name);
    bind_text(s, st, 5, w->decision);
    bind_int(s, st, 6, w->at);
    return store_step_done(s, st, "storing a chat message");
}

/* One decision inside the writer's transaction, with the clocks after it
 * and, when it ends the game, the new status and the end's summary. */
static int add_decision(store *s, store_write *w)
{
    sql_stmt *st = s->st[ST_INSERT_DECISION];
    bind_text(s, st, 1, w->game_id);
    bind_int(s, st, 2, w->ply);
    bind_int(s, st, 3, w->seat);
    bind_text(s, st, 4, w->decision);
    bind_int(s, st, 5, (int64_t)time(NULL));
    if (store_step_done(s, st, "storing a decision") || set_clocks(s, w))
        return -1;
    if (w->end_summary[0] &&
        update_one(s, ST_SET_END, w->game_id, -1, w->end_summary, "storing the end"))
        return -1;
    if (w->places[0] && store_game_end(s, w))
        return -1;
    return w->status ? set_status(s, w->game_id, w->status) : 0;
}

static int add_analysis(store *s, const store_write *w)
{
    sql_stmt *st = s->st[ST_PUT_ANALYSIS];
    bind_text(s, st, 1, w->game_id);
    bind_int(s, st, 2, w->seat);
    bind_text(s, st, 3, w->decision);
    bind_int(s, st, 4, (int64_t)time(NULL));
    return store_step_done(s, st, "storing an analysis");
}

int store_get_analysis(store *s, const char *id, int seat, char **text)
{
    *text = NULL;
    store_lock(s);
    sql_stmt *st = s->st[ST_GET_ANALYSIS];
    bind_text(s, st, 1, id);
    bind_int(s, st, 2, seat);
    int rc = step(s, st), out = 1;
    if (rc == SQL_ROW) {
        const char *t = col_text(s, st, 0);
        *text = strdup(t ? t : "");
        out = *text ? 0 : -1;
        if (!*text)
            snprintf(s->error, sizeof s->error, "reading an analysis: out of memory");
    } else if (rc == SQL_ERROR) {
        out = store_fail(s, "reading an analysis");
    }
    reset(s, st);
    return store_unlock(s, out < 0 ? -1 : 0) == 0 ? out : -1;
}

/* A take-back: the game's decisions from ply on are gone. */
static int take_back(store *s, const store_write *w)
{
    sql_stmt *st = s->st[ST_TAKE_BACK];
    bind_text(s, st, 1, w->game_id);
    bind_int(s, st, 2, w->ply);
    return store_step_done(s, st, "taking decisions back");
}

static int add_write(store *s, store_write *w)
{
    if (w->instance[0] && store_fence(s, w))
        return -1;
    switch (w->kind) {
    case STORE_DECISION: return add_decision(s, w);
    case STORE_CLOCKS: return set_clocks(s, w);
    case STORE_CHAT: return add_chat(s, w);
    case STORE_ANALYSIS: return add_analysis(s, w);
    case STORE_ENTRY: return store_set_entry(s, w);
    case STORE_TAKE_BACK: return take_back(s, w);
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
    if (!s->writer_running) {
        /* no writer (stopped, or never started): written here and now,
         * kept for store_writer_done, freed by store_writer_stop at the latest */
        commit_batch(s, w);
        pthread_mutex_lock(&s->qlock);
        if (s->done_tail)
            s->done_tail->next = w;
        else
            s->done = w;
        s->done_tail = w;
        pthread_mutex_unlock(&s->qlock);
        return;
    }
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
        free(w->entry);
        free(w);
    }
}

void store_writer_stop(store *s)
{
    if (s->writer_running) {
        pthread_mutex_lock(&s->qlock);
        s->stopping = true;
        pthread_cond_signal(&s->wake);
        pthread_mutex_unlock(&s->qlock);
        pthread_join(s->writer, NULL);
        s->writer_running = false;
    }
    store_write *w = store_writer_done(s);
    while (w) {
        store_write *next = w->next;
        store_write_free(w);
        w = next;
    }
}

/* --- reading --- */

/* The ids a statement (bound already) lists, malloc'd, and their number;
 * -1 on error. */
static int list_ids(store *s, sql_stmt *st, int max, char ***out, const char *what)
{
    char **ids = NULL;
    int n = 0, cap = 0, rc = SQL_DONE;
    while ((max < 0 || n < max) && (rc = step(s, st)) == SQL_ROW) {
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            char **grown = realloc(ids, (size_t)cap * sizeof *ids);
            if (!grown) {
                rc = SQL_ERROR;
                break;
            }
            ids = grown;
        }
        const char *id = col_text(s, st, 0);
        if (!(ids[n] = strdup(id ? id : ""))) {
            rc = SQL_ERROR;
            break;
        }
        n++;
    }
    if (max >= 0 && n == max)
        rc = SQL_DONE;
    reset(s, st);
    if (rc != SQL_DONE) {
        store_fail(s, what);
        for (int i = 0; i < n; i++)
            free(ids[i]);
        free(ids);
        return -1;
    }
    *out = ids;
    return n;
}

static void free_ids(char **ids, int n)
{
    for (int i = 0; i < n; i++)
        free(ids[i]);
    free(ids);
}

int store_each_unfinished(store *s, int (*fn)(const char *id, void *arg), void *arg)
{
    /* ids first, then the callbacks: fn reads the store too */
    store_lock(s);
    char **ids = NULL;
    int n = list_ids(s, s->st[ST_UNFINISHED], -1, &ids, "listing games");
    int result = store_unlock(s, n < 0 ? -1 : 0);
    for (int i = 0; i < n; i++)
        if (result == 0 && fn(ids[i], arg) != 0)
            result = -1;
    free_ids(ids, n);
    return result;
}

/* A row of ST_SEATS or ST_SEATS_IN from column `c` (the seat's number) on. */
static void read_seat_row(store *s, sql_stmt *st, int c, stored_game *out)
{
    int seat = (int)col_int(s, st, c);
    if (seat < 0 || seat >= 4)
        return;
    stored_seat *ss = &out->seats[seat];
    store_copy_column(s, st, c + 1, ss->kind, sizeof ss->kind);
    store_copy_column(s, st, c + 2, ss->level, sizeof ss->level);
    store_copy_column(s, st, c + 3, ss->name, sizeof ss->name);
    store_copy_column(s, st, c + 4, ss->token_hash, sizeof ss->token_hash);
    ss->account_id = col_int(s, st, c + 5);
    ss->place = (int)col_int(s, st, c + 6);
    ss->has_rating = !col_null(s, st, c + 7);
    ss->rating = (rt_rating){col_double(s, st, c + 7), col_double(s, st, c + 8)};
    ss->rated = !col_null(s, st, c + 9);
    ss->before = (rt_rating){col_double(s, st, c + 9), col_double(s, st, c + 10)};
    ss->after = (rt_rating){col_double(s, st, c + 11), col_double(s, st, c + 12)};
    ss->bot = !col_null(s, st, c + 13) && col_int(s, st, c + 13) != 0;
}

static int load_seats(store *s, const char *id, stored_game *out)
{
    sql_stmt *st = s->st[ST_SEATS];
    bind_text(s, st, 1, id);
    int rc;
    while ((rc = step(s, st)) == SQL_ROW)
        read_seat_row(s, st, 0, out);
    reset(s, st);
    return rc == SQL_DONE ? 0 : store_fail(s, "reading seats");
}

static int load_decisions(store *s, const char *id, stored_game *out)
{
    sql_stmt *st = s->st[ST_DECISIONS];
    bind_text(s, st, 1, id);
    int rc, cap = 0;
    while ((rc = step(s, st)) == SQL_ROW) {
        if (col_int(s, st, 0) != out->ndecisions) {
            snprintf(s->error, sizeof s->error, "decision %d is missing", out->ndecisions);
            reset(s, st);
            return 2;
        }
        if (out->ndecisions == cap) {
            cap = cap ? 2 * cap : 128;
            char **grown = realloc(out->decisions, (size_t)cap * sizeof *grown);
            if (!grown) {
                rc = SQL_ERROR;
                break;
            }
            out->decisions = grown;
        }
        const char *text = col_text(s, st, 1);
        out->decisions[out->ndecisions] = strdup(text ? text : "");
        if (!out->decisions[out->ndecisions]) {
            rc = SQL_ERROR;
            break;
        }
        out->ndecisions++;
        out->last_decision_at = col_int(s, st, 2);
    }
    reset(s, st);
    return rc == SQL_DONE ? 0 : store_fail(s, "reading decisions");
}

static int load_chat(store *s, const char *id, stored_game *out)
{
    sql_stmt *st = s->st[ST_CHAT];
    bind_text(s, st, 1, id);
    bind_int(s, st, 2, STORE_CHAT_KEEP);
    out->chat = calloc(STORE_CHAT_KEEP, sizeof *out->chat);
    int rc = out->chat ? SQL_ROW : SQL_ERROR;
    while (out->chat && out->nchat < STORE_CHAT_KEEP && (rc = step(s, st)) == SQL_ROW) {
        stored_chat *m = &out->chat[out->nchat];
        out->chat_next = (int)col_int(s, st, 0) + 1;
        m->n = out->chat_next - 1;
        m->seat = col_null(s, st, 1) ? -1 : (int)col_int(s, st, 1);
        store_copy_column(s, st, 2, m->name, sizeof m->name);
        const char *text = col_text(s, st, 3);
        m->text = strdup(text ? text : "");
        m->at = col_int(s, st, 4);
        if (!m->text) {
            rc = SQL_ERROR;
            break;
        }
        out->nchat++;
    }
    reset(s, st);
    if (rc == SQL_ROW)
        rc = SQL_DONE;
    return rc == SQL_DONE ? 0 : store_fail(s, "reading the chat");
}

/* A row of ST_GAME or ST_GAMES_IN from column `c` (the variant) on. */
static void read_game_row(store *s, sql_stmt *st, int c, stored_game *out)
{
    store_copy_column(s, st, c, out->variant, sizeof out->variant);
    out->players = (int)col_int(s, st, c + 1);
    store_copy_column(s, st, c + 2, out->mode, sizeof out->mode);
    const char *seed = col_text(s, st, c + 3);
    out->seed = seed ? strtoull(seed, NULL, 10) : 0;
    store_copy_column(s, st, c + 4, out->status, sizeof out->status);
    out->created = col_int(s, st, c + 5);
    out->updated = col_int(s, st, c + 6);
    out->creator = (int)col_int(s, st, c + 7);
    store_copy_column(s, st, c + 8, out->clock, sizeof out->clock);
    store_copy_column(s, st, c + 9, out->clock_left, sizeof out->clock_left);
    store_copy_column(s, st, c + 10, out->rematch, sizeof out->rematch);
    store_copy_column(s, st, c + 11, out->rematch_of, sizeof out->rematch_of);
    store_copy_column(s, st, c + 12, out->end_summary, sizeof out->end_summary);
    store_copy_column(s, st, c + 13, out->rules, sizeof out->rules);
    store_copy_column(s, st, c + 14, out->damage, sizeof out->damage);
    out->rated = col_int(s, st, c + 15) != 0;
    store_copy_column(s, st, c + 16, out->creator_addr, sizeof out->creator_addr);
}

static int load(store *s, const char *id, stored_game *out, bool with_history)
{
    memset(out, 0, sizeof *out);
    snprintf(out->id, sizeof out->id, "%s", id);
    sql_stmt *st = s->st[ST_GAME];
    bind_text(s, st, 1, id);
    int rc = step(s, st);
    if (rc == SQL_ROW)
        read_game_row(s, st, 0, out);
    reset(s, st);
    if (rc == SQL_DONE)
        return 1;
    if (rc != SQL_ROW)
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
    sql_stmt *st = s->st[ST_DECISIONS_AS_STORED];
    bind_text(s, st, 1, id);
    int rc;
    while ((rc = step(s, st)) == SQL_ROW) {
        const char *text = col_text(s, st, 2);
        if (fn((int)col_int(s, st, 0), (int)col_int(s, st, 1), text ? text : "", col_int(s, st, 3),
               arg))
            break;
    }
    reset(s, st);
    if (rc == SQL_ROW)
        snprintf(s->error, sizeof s->error, "reading decisions: stopped");
    return store_unlock(s, rc == SQL_DONE  ? 0
                           : rc == SQL_ROW ? -1
                                           : store_fail(s, "reading decisions"));
}

int store_each_finished(store *s, int max, int (*fn)(const stored_game *g, void *arg), void *arg)
{
    store_lock(s);
    sql_stmt *st = s->st[ST_FINISHED];
    bind_int(s, st, 1, max);
    char **ids = NULL;
    int n = list_ids(s, st, max, &ids, "listing finished games");
    int result = n < 0 ? -1 : 0;
    stored_game g;
    for (int i = 0; i < n && result == 0; i++) {
        int found = load(s, ids[i], &g, false);
        if (found < 0)
            result = -1;
        else if (found == 0 && fn(&g, arg))
            break;
    }
    free_ids(ids, n);
    return store_unlock(s, result);
}

int store_each_listed(store *s, const char *const *ids, int n,
                      int (*fn)(const stored_game *g, const char *entry, void *arg), void *arg)
{
    if (n > STORE_LIST_MAX)
        n = STORE_LIST_MAX;
    if (n <= 0)
        return 0;
    stored_game *games = calloc((size_t)n, sizeof *games);
    char **entries = calloc((size_t)n, sizeof *entries);
    bool *found = calloc((size_t)n, sizeof *found);
    if (!games || !entries || !found) {
        free(games);
        free(entries);
        free(found);
        snprintf(s->loop_error, sizeof s->loop_error, "out of memory");
        return -1;
    }
    store_lock(s);
    sql_stmt *gst = s->st[ST_GAMES_IN], *sst = s->st[ST_SEATS_IN];
    for (int i = 1; i <= STORE_LIST_MAX; i++) {
        bind_text(s, gst, i, i <= n ? ids[i - 1] : NULL);
        bind_text(s, sst, i, i <= n ? ids[i - 1] : NULL);
    }
    int rc, result = 0;
    char id[24];
    while ((rc = step(s, gst)) == SQL_ROW) {
        store_copy_column(s, gst, 0, id, sizeof id);
        for (int i = 0; i < n; i++)
            if (!found[i] && strcmp(ids[i], id) == 0) {
                found[i] = true;
                snprintf(games[i].id, sizeof games[i].id, "%s", id);
                read_game_row(s, gst, 1, &games[i]);
                const char *entry = col_text(s, gst, 18);
                entries[i] = entry ? strdup(entry) : NULL;
            }
    }
    reset(s, gst);
    if (rc != SQL_DONE)
        result = store_fail(s, "reading games");
    while (result == 0 && (rc = step(s, sst)) == SQL_ROW) {
        store_copy_column(s, sst, 0, id, sizeof id);
        for (int i = 0; i < n; i++)
            if (found[i] && strcmp(ids[i], id) == 0)
                read_seat_row(s, sst, 1, &games[i]);
    }
    reset(s, sst);
    if (result == 0 && rc != SQL_DONE)
        result = store_fail(s, "reading seats");
    result = store_unlock(s, result);
    for (int i = 0; i < n && result == 0; i++)
        if (found[i] && fn(&games[i], entries[i], arg))
            break;
    for (int i = 0; i < n; i++)
        free(entries[i]);
    free(games);
    free(entries);
    free(found);
    return result;
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
