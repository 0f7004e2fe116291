/*
 * store_copy.c - copying one store into another, row by row, whatever their
 * backends (axio db copy, src/cli/cmd_db.c).
 *
 * Both backends hold the same tables with the same columns, so the copy is
 * one loop over a description of each table (its columns, their types, its
 * key): read every row of the source in key order, insert it into the
 * target with ON CONFLICT DO NOTHING, and when nothing was inserted read the
 * target's row with that key and compare it column by column. So a copy run
 * again (after an interruption) adds what is missing, finds what is there
 * equal, and reports a row that differs or that another row's unique value
 * keeps out, changing neither. A game's rows (the game, its seats,
 * decisions, chat and analyses) go in one transaction of the target, so
 * that an interrupted copy never leaves half a game; each other table is
 * one transaction.
 *
 * Account ids are copied as they are (seats, sessions and ratings refer to
 * them); the target's new ids then follow them (sql_driver.after_copy).
 * Games are copied in the order they were stored in (rowid), so the
 * target's order of equal times is the source's.
 */
#include "store_internal.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *name;
    const char *columns;
    const char *types; /* a letter per column: t text, i integer, r real */
    int nkey;          /* the first nkey columns are the key */
    bool per_game;     /* its first column is game_id */
} copy_table;

static const copy_table tables[STORE_T_COUNT] = {
    [STORE_T_ACCOUNTS] = {"accounts",
                          "id, name, name_key, password_hash, computer, created_at, name_skeleton,"
                          " seen_at, bot, bot_about, role, closed",
                          "ittttitittti", 1, false},
    [STORE_T_GAMES] = {"games",
                       "id, variant, players, mode, seed, status, created_at, updated_at, creator,"
                       " clock, clock_left, rematch, rematch_of, end_summary, rules, damage, rated",
                       "ttitttiiittttttti", 1, true},
    [STORE_T_SEATS] = {"seats", "game_id, seat, kind, level, name, token_hash, account_id, place",
                       "tittttii", 2, true},
    [STORE_T_DECISIONS] = {"decisions", "game_id, ply, seat, decision, at", "tiiti", 2, true},
    [STORE_T_CHAT] = {"chat", "game_id, n, seat, name, text, at", "tiitti", 2, true},
    [STORE_T_ANALYSES] = {"analyses", "game_id, seat, result, at", "titi", 2, true},
    [STORE_T_SESSIONS] = {"sessions", "token_hash, account_id, created_at, expires_at", "tiii", 1,
                          false},
    [STORE_T_RATINGS] = {"ratings", "account_id, variant, mu, sigma, games", "itrri", 2, false},
    [STORE_T_HISTORY] = {"rating_history",
                         "game_id, seat, account_id, variant, mu_before, sigma_before, mu_after,"
                         " sigma_after, at",
                         "tiitrrrri", 2, false},
    [STORE_T_FOLLOWS] = {"follows", "account_id, follows_id, at", "iii", 2, false},
    [STORE_T_TOKENS] = {"tokens", "id, account_id, hash, label, scopes, created_at, used_at",
                        "titttii", 1, false},
    [STORE_T_BLOCKS] = {"blocks", "account_id, blocked_id, at", "iii", 2, false},
    [STORE_T_REPORTS] = {"reports",
                         "id, reporter_id, target_id, game_id, chat_n, reason, text, status,"
                         " created_at, handled_by, handled_at",
                         "iiititttiii", 1, false},
    [STORE_T_SANCTIONS] = {"sanctions",
                           "id, account_id, kind, game_id, detail, until_at, created_at, by_id,"
                           " lifted_at, seen_at",
                           "iitttiiiii", 1, false},
    [STORE_T_HELD_NAMES] = {"held_names", "name_key, skeleton, account_id, at", "ttii", 1, false},
    [STORE_T_MOD_LOG] = {"mod_log",
                         "id, at, moderator_id, moderator, target_id, target, action, detail,"
                         " reason",
                         "iiititttt", 1, false},
    [STORE_T_SUBSCRIPTIONS] = {"push_subscriptions",
                               "endpoint, account_id, p256dh, auth, created_at", "titti", 1, false},
    [STORE_T_NOTIFY_SETTINGS] = {"notify_settings", "account_id, lang, prefs", "itt", 1, false},
    [STORE_T_EMAILS] = {"email_addresses", "account_id, address, verified, token_hash, digest_at",
                        "ititi", 1, false},
    [STORE_T_EVENTS] = {"events",
                        "id, name, organiser_id, format, variant, mode, seats, clock, rated, bots,"
                        " starts_at, duration_s, rounds, days_per_round, min_rated_games, status,"
                        " round, round_deadline, ends_at, cancel_reason, created_at, creator_addr,"
                        " runner, runner_until",
                        "ttitttitiiiiiiitiiititti", 1, false},
    [STORE_T_EVENT_PLAYERS] = {"event_players",
                               "event_id, account_id, joined_at, withdrawn, misses", "tiiii", 2,
                               false},
    [STORE_T_EVENT_TABLES] = {"event_tables",
                              "event_id, round, tbl, game_id, seats, players, points, places,"
                              " running, counted, created_at, ended_at, deadline",
                              "tiititttiiiii", 3, false},
    [STORE_T_SITE] = {"site", "name, value", "tt", 1, false},
};

const char *store_table_name(int table) { return tables[table].name; }

#define MAX_COLUMNS 24

typedef struct {
    bool null;
    int64_t i;
    double r;
    char *t;
} value;

enum { COPY_READ, COPY_READ_GAME, COPY_INSERT, COPY_BY_KEY };

/* The name of column `col` of a column list, into out. */
static void column_name(const char *columns, int col, char *out, size_t size)
{
    const char *p = columns;
    for (int i = 0; i < col; i++)
        p = strchr(p, ',') + 1;
    while (*p == ' ')
        p++;
    size_t n = strcspn(p, ",");
    snprintf(out, size, "%.*s", (int)n, p);
}

/* The statement `which` of a table, prepared at its first use. */
static sql_stmt *copy_stmt(store *s, int table, int which)
{
    sql_stmt **st = &s->copy_st[table][which];
    if (*st)
        return *st;
    const copy_table *t = &tables[table];
    int n = (int)strlen(t->types), columns = 1;
    for (const char *p = t->columns; *p; p++)
        columns += *p == ',';
    assert(columns == n && n <= MAX_COLUMNS);
    (void)columns;
    char sql[1024], name[32], key_order[128] = "";
    size_t len = 0;
    for (int k = 0; k < t->nkey; k++) {
        column_name(t->columns, k, name, sizeof name);
        len +=
            (size_t)snprintf(key_order + len, sizeof key_order - len, "%s%s", k ? ", " : "", name);
    }
    switch (which) {
    case COPY_READ:
        /* games in the order stored; the others by key */
        snprintf(sql, sizeof sql, "SELECT %s FROM %s ORDER BY %s", t->columns, t->name,
                 table == STORE_T_GAMES ? "rowid" : key_order);
        break;
    case COPY_READ_GAME:
        snprintf(sql, sizeof sql, "SELECT %s FROM %s WHERE %s = ?1 ORDER BY %s", t->columns,
                 t->name, table == STORE_T_GAMES ? "id" : "game_id", key_order);
        break;
    case COPY_INSERT:
        len = (size_t)snprintf(sql, sizeof sql, "INSERT INTO %s(%s) VALUES(", t->name, t->columns);
        for (int i = 0; i < n; i++)
            len += (size_t)snprintf(sql + len, sizeof sql - len, "%s?%d", i ? ", " : "", i + 1);
        snprintf(sql + len, sizeof sql - len, ") ON CONFLICT DO NOTHING");
        break;
    default:
        len = (size_t)snprintf(sql, sizeof sql, "SELECT %s FROM %s WHERE ", t->columns, t->name);
        for (int k = 0; k < t->nkey; k++) {
            column_name(t->columns, k, name, sizeof name);
            len += (size_t)snprintf(sql + len, sizeof sql - len, "%s%s = ?%d", k ? " AND " : "",
                                    name, k + 1);
        }
    }
    if (!(*st = s->drv->prepare(s->c, sql)))
        store_fail(s, "preparing a copy");
    return *st;
}

void store_copy_finalize(store *s)
{
    for (int t = 0; t < STORE_T_COUNT; t++)
        for (int w = 0; w < 4; w++)
            if (s->copy_st[t][w])
                s->drv->finalize(s->copy_st[t][w]);
}

static void values_free(value *v, int n)
{
    for (int i = 0; i < n; i++) {
        free(v[i].t);
        v[i] = (value){0};
    }
}

/* The current row of st as values; -1 out of memory. */
static int read_row(store *s, sql_stmt *st, const char *types, value *v)
{
    for (int i = 0; types[i]; i++) {
        v[i] = (value){.null = col_null(s, st, i)};
        if (v[i].null)
            continue;
        if (types[i] == 'i')
            v[i].i = col_int(s, st, i);
        else if (types[i] == 'r')
            v[i].r = col_double(s, st, i);
        else if (!(v[i].t = strdup(col_text(s, st, i))))
            return -1;
    }
    return 0;
}

static void bind_values(store *s, sql_stmt *st, const char *types, const value *v, int n)
{
    for (int i = 0; i < n; i++) {
        if (v[i].null)
            bind_text(s, st, i + 1, NULL);
        else if (types[i] == 'i')
            bind_int(s, st, i + 1, v[i].i);
        else if (types[i] == 'r')
            bind_double(s, st, i + 1, v[i].r);
        else
            bind_text(s, st, i + 1, v[i].t);
    }
}

/* The first column that differs, or -1. */
static int differs(const char *types, const value *a, const value *b)
{
    for (int i = 0; types[i]; i++) {
        if (a[i].null != b[i].null)
            return i;
        if (a[i].null)
            continue;
        if ((types[i] == 'i' && a[i].i != b[i].i) || (types[i] == 'r' && a[i].r != b[i].r) ||
            (types[i] == 't' && strcmp(a[i].t, b[i].t) != 0))
            return i;
    }
    return -1;
}

/* A row's key as text, for a report. */
static void key_text(const copy_table *t, const value *v, char *out, size_t size)
{
    size_t len = 0;
    char name[32];
    out[0] = 0;
    for (int k = 0; k < t->nkey && len < size; k++) {
        column_name(t->columns, k, name, sizeof name);
        if (t->types[k] == 'i')
            len += (size_t)snprintf(out + len, size - len, "%s%s %lld", k ? ", " : "", name,
                                    (long long)v[k].i);
        else
            len += (size_t)snprintf(out + len, size - len, "%s%s %.40s", k ? ", " : "", name,
                                    v[k].null ? "NULL" : v[k].t);
    }
}

/* Puts one source row into the target (under its transaction). */
static int put_row(store *to, int table, const value *v, store_copy_count *count,
                   void (*report)(const char *what, void *arg), void *arg)
{
    const copy_table *t = &tables[table];
    int n = (int)strlen(t->types);
    sql_stmt *ins = copy_stmt(to, table, COPY_INSERT), *get = copy_stmt(to, table, COPY_BY_KEY);
    if (!ins || !get)
        return -1;
    bind_values(to, ins, t->types, v, n);
    if (store_step_done(to, ins, "copying a row"))
        return -1;
    if (to->drv->changes(to->c) == 1) {
        count->added++;
        return 0;
    }
    bind_values(to, get, t->types, v, t->nkey);
    value there[MAX_COLUMNS];
    int rc = step(to, get), col = -1;
    if (rc == SQL_ROW) {
        if (read_row(to, get, t->types, there)) {
            values_free(there, n);
            reset(to, get);
            snprintf(to->error, sizeof to->error, "copying a row: out of memory");
            return -1;
        }
        col = differs(t->types, v, there);
        values_free(there, n);
    }
    reset(to, get);
    if (rc == SQL_ERROR)
        return store_fail(to, "comparing a row");
    if (rc == SQL_ROW && col < 0) {
        count->equal++;
        return 0;
    }
    count->different++;
    char key[160], what[320], name[32];
    key_text(t, v, key, sizeof key);
    if (rc == SQL_ROW) {
        column_name(t->columns, col, name, sizeof name);
        snprintf(what, sizeof what, "%s (%s): there already, with another %s; left as it is",
                 t->name, key, name);
    } else {
        snprintf(what, sizeof what, "%s (%s): not added, another row has one of its unique values",
                 t->name, key);
    }
    report(what, arg);
    return 0;
}

/* Copies the rows a bound source statement reads. */
static int copy_rows(store *from, sql_stmt *src, store *to, int table, store_copy_count *count,
                     void (*report)(const char *what, void *arg), void *arg)
{
    const copy_table *t = &tables[table];
    int n = (int)strlen(t->types), rc;
    value v[MAX_COLUMNS];
    while ((rc = step(from, src)) == SQL_ROW) {
        int failed = read_row(from, src, t->types, v);
        if (failed)
            snprintf(to->error, sizeof to->error, "copying a row: out of memory");
        else
            failed = put_row(to, table, v, count, report, arg);
        values_free(v, n);
        if (failed) {
            reset(from, src);
            return -1;
        }
    }
    reset(from, src);
    if (rc == SQL_ERROR) {
        store_fail(from, "reading the source");
        memcpy(to->error, from->error, sizeof to->error);
        return -1;
    }
    return 0;
}

int store_each_game(store *s, int (*fn)(const char *id, void *arg), void *arg)
{
    store_lock(s);
    sql_stmt *st = s->drv->prepare(s->c, "SELECT id FROM games ORDER BY rowid");
    if (!st)
        return store_unlock(s, store_fail(s, "listing games"));
    char **ids = NULL;
    size_t n = 0, cap = 0;
    int rc;
    while ((rc = step(s, st)) == SQL_ROW) {
        if (n == cap) {
            cap = cap ? 2 * cap : 256;
            char **grown = realloc(ids, cap * sizeof *ids);
            if (!grown) {
                rc = SQL_ERROR;
                break;
            }
            ids = grown;
        }
        if (!(ids[n] = strdup(col_text(s, st, 0)))) {
            rc = SQL_ERROR;
            break;
        }
        n++;
    }
    s->drv->finalize(st);
    int result = store_unlock(s, rc == SQL_DONE ? 0 : store_fail(s, "listing games"));
    for (size_t i = 0; i < n; i++) {
        if (result == 0 && fn(ids[i], arg))
            result = 1;
        free(ids[i]);
    }
    free(ids);
    return result < 0 ? -1 : 0;
}

int store_copy_game(store *from, store *to, const char *id, store_copy_count counts[STORE_T_COUNT],
                    void (*report)(const char *what, void *arg), void *arg)
{
    static const int game_tables[] = {STORE_T_GAMES, STORE_T_SEATS, STORE_T_DECISIONS, STORE_T_CHAT,
                                      STORE_T_ANALYSES};
    store_lock(from);
    store_lock(to);
    int rc = store_begin(to);
    for (size_t i = 0; rc == 0 && i < sizeof game_tables / sizeof game_tables[0]; i++) {
        int table = game_tables[i];
        sql_stmt *src = copy_stmt(from, table, COPY_READ_GAME);
        if (!src) {
            memcpy(to->error, from->error, sizeof to->error);
            rc = -1;
            break;
        }
        bind_text(from, src, 1, id);
        rc = copy_rows(from, src, to, table, &counts[table], report, arg);
    }
    rc = rc == 0 && store_commit(to) == 0 ? 0 : store_rollback(to);
    store_unlock(from, 0);
    return store_unlock(to, rc);
}

int store_copy_table(store *from, store *to, int table, store_copy_count *count,
                     void (*report)(const char *what, void *arg), void *arg)
{
    store_lock(from);
    store_lock(to);
    int rc = -1;
    sql_stmt *src = copy_stmt(from, table, COPY_READ);
    if (!src)
        memcpy(to->error, from->error, sizeof to->error);
    else if (store_begin(to) == 0)
        rc = copy_rows(from, src, to, table, count, report, arg) == 0 && store_commit(to) == 0
                 ? 0
                 : store_rollback(to);
    store_unlock(from, 0);
    return store_unlock(to, rc);
}

int store_copy_finish(store *to)
{
    store_lock(to);
    int rc = to->drv->after_copy && to->drv->after_copy(to->c)
                 ? store_fail(to, "making new ids follow the copied ones")
                 : 0;
    return store_unlock(to, rc);
}

int store_count_rows(store *s, int table, int64_t *n)
{
    char sql[96];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM %s", tables[table].name);
    store_lock(s);
    sql_stmt *st = s->drv->prepare(s->c, sql);
    int rc = st ? step(s, st) : SQL_ERROR;
    if (rc == SQL_ROW)
        *n = col_int(s, st, 0);
    if (st)
        s->drv->finalize(st);
    return store_unlock(s, rc == SQL_ROW ? 0 : store_fail(s, "counting rows"));
}
