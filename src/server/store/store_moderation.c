/*
 * store_moderation.c - keeping order (store.h, "moderation"; issue 51):
 * roles, blocks, reports, sanctions and their undo, held names, and the
 * moderation log.
 *
 * Every server of a site reads the same rows, so a sanction given on one
 * binds on all at once: a chat message is checked against the store when
 * it is sent (store_chat_restriction), and a closed account's sessions are
 * refused by the session lookup itself (store_accounts.c). The log is
 * append-only in the database (triggers of migration 10): nothing here
 * updates or deletes it, and nothing could.
 */
#include "store_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define REPORT_COLS                                                                                \
    "r.id, r.reporter_id, ra.name, r.target_id, ta.name, r.game_id, r.chat_n, r.reason, r.text,"   \
    " r.status, r.created_at, r.handled_by, r.handled_at"
#define REPORT_FROM                                                                                \
    " FROM reports r LEFT JOIN accounts ra ON ra.id = r.reporter_id"                               \
    " LEFT JOIN accounts ta ON ta.id = r.target_id"
#define SANCTION_COLS                                                                              \
    "id, account_id, kind, game_id, detail, until_at, created_at, lifted_at, seen_at, by_id"

static const char *const moderation_sql[MO_COUNT] = {
    [MO_ROLE_GET] = "SELECT role, closed FROM accounts WHERE id = ?1",
    [MO_BY_NAME] = "SELECT id, name, computer, password_hash, bot, bot_about FROM accounts"
                   " WHERE name = ?1 OR lower(name) = lower(?1) ORDER BY name = ?1 DESC LIMIT 2",
    [MO_ROLES] = "SELECT id, name, role FROM accounts WHERE role IS NOT NULL ORDER BY name_key",
    [MO_ROLE_SET] = "UPDATE accounts SET role = ?2 WHERE id = ?1 AND computer = 0",
    [MO_BLOCK] = "INSERT INTO blocks(account_id, blocked_id, at) VALUES(?1, ?2, ?3)"
                 " ON CONFLICT(account_id, blocked_id) DO NOTHING",
    [MO_UNBLOCK] = "DELETE FROM blocks WHERE account_id = ?1 AND blocked_id = ?2",
    [MO_BLOCKED] = "SELECT 1 FROM blocks WHERE account_id = ?1 AND blocked_id = ?2",
    [MO_BLOCKS_OF] = "SELECT a.id, a.name, a.computer, a.seen_at, a.bot FROM blocks b"
                     " JOIN accounts a ON a.id = b.blocked_id WHERE b.account_id = ?1"
                     " ORDER BY a.name_key",
    [MO_REPORT_PUT] =
        "INSERT INTO reports(reporter_id, target_id, game_id, chat_n, reason, text,"
        " status, created_at) VALUES(?1, ?2, ?3, ?4, ?5, ?6, 'open', ?7) RETURNING id",
    [MO_REPORT_GET] = "SELECT " REPORT_COLS REPORT_FROM " WHERE r.id = ?1",
    [MO_REPORTS] =
        "SELECT " REPORT_COLS REPORT_FROM
        " WHERE (CAST(?1 AS TEXT) IS NULL OR r.status = ?1) AND (?2 = 0 OR r.target_id = ?2)"
        " ORDER BY CASE WHEN ?2 = 0 THEN r.created_at ELSE -r.created_at END, r.id"
        " LIMIT ?3",
    [MO_REPORT_CLOSE] = "UPDATE reports SET status = 'closed', handled_by = ?2, handled_at = ?3"
                        " WHERE id = ?1 AND status = 'open'",
    [MO_REPORT_OPEN_LIKE] = "SELECT 1 FROM reports WHERE target_id = ?1 AND reason = ?2 AND"
                            " status = 'open' AND reporter_id IS NULL",
    [MO_SANCTION_PUT] = "INSERT INTO sanctions(account_id, kind, game_id, detail, until_at,"
                        " created_at, by_id) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7) RETURNING id",
    [MO_SANCTION_GET] = "SELECT " SANCTION_COLS " FROM sanctions WHERE id = ?1",
    [MO_SANCTION_LIFT] = "UPDATE sanctions SET lifted_at = ?2 WHERE id = ?1 AND lifted_at IS NULL",
    [MO_SANCTIONS_OF] = "SELECT " SANCTION_COLS " FROM sanctions WHERE account_id = ?1"
                        " ORDER BY created_at DESC, id DESC LIMIT ?2",
    [MO_RESTRICTION] = "SELECT " SANCTION_COLS " FROM sanctions WHERE account_id = ?1 AND"
                       " lifted_at IS NULL AND ((kind = 'timeout' AND until_at > ?3 AND"
                       " (game_id IS NULL OR game_id = ?2)) OR kind = 'shadow_mute')"
                       " ORDER BY CASE WHEN kind = 'timeout' THEN 0 ELSE 1 END, until_at DESC"
                       " LIMIT 1",
    [MO_WARNINGS] = "SELECT " SANCTION_COLS " FROM sanctions WHERE account_id = ?1 AND"
                    " kind = 'warn' AND lifted_at IS NULL AND seen_at IS NULL"
                    " ORDER BY created_at, id",
    [MO_WARNINGS_SEEN] = "UPDATE sanctions SET seen_at = ?2 WHERE account_id = ?1 AND"
                         " kind = 'warn' AND seen_at IS NULL",
    [MO_CLOSE] = "UPDATE accounts SET closed = ?2 WHERE id = ?1 AND computer = 0 AND closed <> ?2",
    [MO_CLOSE_SEATS] = "UPDATE seats SET name = ?2 WHERE account_id = ?1",
    [MO_REOPEN_SEATS] = "UPDATE seats SET name = (SELECT name FROM accounts WHERE id = ?1)"
                        " WHERE account_id = ?1",
    [MO_SESSIONS_DELETE] = "DELETE FROM sessions WHERE account_id = ?1",
    [MO_HOLD] = "INSERT INTO held_names(name_key, skeleton, account_id, at)"
                " SELECT name_key, name_skeleton, id, ?2 FROM accounts WHERE id = ?1"
                " ON CONFLICT(name_key) DO NOTHING",
    [MO_HELD] = "SELECT account_id FROM held_names WHERE name_key = ?1 OR skeleton = ?2 LIMIT 1",
    [MO_RELEASE] = "DELETE FROM held_names WHERE account_id = ?1 AND (name_key = ?2 OR"
                   " skeleton = ?3)",
    [MO_RENAME] = "UPDATE accounts SET name = ?2, name_key = ?3, name_skeleton = ?4 WHERE id = ?1"
                  " AND computer = 0",
    [MO_RENAME_SEATS] = "UPDATE seats SET name = ?2 WHERE account_id = ?1",
    [MO_LOG_PUT] = "INSERT INTO mod_log(at, moderator_id, moderator, target_id, target, action,"
                   " detail, reason) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) RETURNING id",
    [MO_LOG] = "SELECT id, at, moderator_id, moderator, target_id, target, action, detail, reason"
               " FROM mod_log WHERE (?1 = 0 OR target_id = ?1) AND (?2 = 0 OR id < ?2)"
               " ORDER BY id DESC LIMIT ?3",
    [MO_CHAT_LINES] = "SELECT n, seat, name, text, at FROM chat WHERE game_id = ?1 AND n >= ?2 AND"
                      " n <= ?3 ORDER BY n",
    /* lost having left (resigned, timed out, absent) after at most ?3
     * decisions of its own: a leave is stored as {"type":"leave",...} */
    [MO_QUICK_LOSSES] = "SELECT g.id FROM seats s JOIN games g ON g.id = s.game_id"
                        " JOIN decisions l ON l.game_id = g.id AND l.seat = s.seat AND"
                        " l.decision LIKE '{\"type\":\"leave\"%'"
                        " WHERE s.account_id = ?1 AND g.rated = 1 AND g.status = 'over' AND"
                        " s.place > 1 AND g.updated_at >= ?2 AND (SELECT count(*) FROM decisions d"
                        " WHERE d.game_id = g.id AND d.seat = s.seat AND d.ply < l.ply) <= ?3"
                        " ORDER BY g.updated_at DESC, g.id LIMIT 50",
    [MO_LOSSES_TO] = "SELECT g.id FROM seats s JOIN seats o ON o.game_id = s.game_id AND"
                     " o.seat <> s.seat JOIN games g ON g.id = s.game_id"
                     " WHERE s.account_id = ?1 AND o.account_id = ?2 AND g.rated = 1 AND"
                     " g.players = 2 AND g.status = 'over' AND s.place > o.place AND"
                     " g.updated_at >= ?3 ORDER BY g.updated_at DESC, g.id LIMIT 50",
};

int store_moderation_prepare(store *s)
{
    return store_prepare_all(s, s->mo, moderation_sql, MO_COUNT);
}

void store_moderation_finalize(store *s) { store_finalize_all(s, s->mo, MO_COUNT); }

/* Runs a bound statement that answers one id (RETURNING id) into *id. */
static int insert_id(store *s, sql_stmt *st, int64_t *id, const char *what)
{
    int rc = step(s, st);
    if (rc == SQL_ROW) {
        *id = col_int(s, st, 0);
        rc = step(s, st);
    }
    reset(s, st);
    return rc == SQL_DONE ? 0 : store_fail(s, what);
}

/* A bound query: 0 when it gives a row, 1 when none, -1. */
static int exists(store *s, sql_stmt *st, const char *what)
{
    int rc = step(s, st);
    reset(s, st);
    if (rc == SQL_ROW)
        return 0;
    return rc == SQL_DONE ? 1 : store_fail(s, what);
}

/* --- roles --- */

typedef struct {
    char role[STORE_ROLE_MAX + 1];
    bool closed;
} role_row;

static void read_role(store *s, sql_stmt *st, void *item)
{
    role_row *r = item;
    store_copy_column(s, st, 0, r->role, sizeof r->role);
    r->closed = col_int(s, st, 1) != 0;
}

int store_account_role(store *s, int64_t account_id, char role[STORE_ROLE_MAX + 1], bool *closed)
{
    store_lock(s);
    sql_stmt *st = s->mo[MO_ROLE_GET];
    bind_int(s, st, 1, account_id);
    role_row r = {"", false};
    int rc = store_read_row(s, st, read_role, &r, "reading a role");
    memcpy(role, r.role, sizeof r.role);
    if (closed)
        *closed = r.closed;
    return store_unlock_result(s, rc);
}

int store_account_set_role(store *s, int64_t account_id, const char *role)
{
    store_lock(s);
    sql_stmt *st = s->mo[MO_ROLE_SET];
    bind_int(s, st, 1, account_id);
    bind_text_or_null(s, st, 2, role);
    return store_unlock_result(s, store_step_changed(s, st, "setting a role"));
}

int store_account_by_name(store *s, const char *name, stored_account *out)
{
    store_lock(s);
    sql_stmt *st = s->mo[MO_BY_NAME];
    bind_text(s, st, 1, name);
    int rc = step(s, st), found = 0;
    stored_account second;
    if (rc == SQL_ROW) {
        memset(out, 0, sizeof *out);
        store_account_columns(s, st, 0, out);
        found = 1;
        if ((rc = step(s, st)) == SQL_ROW) {
            store_account_columns(s, st, 0, &second);
            found = strcmp(out->name, name) == 0 ? 1 : 2;
            rc = SQL_DONE;
        }
    }
    reset(s, st);
    if (rc != SQL_DONE && rc != SQL_ROW)
        return store_unlock(s, store_fail(s, "reading an account"));
    store_unlock(s, 0);
    return found == 1 ? 0 : found == 0 ? 1 : 2;
}

typedef struct {
    int64_t id;
    char name[STORE_NAME_MAX + 1];
    char role[STORE_ROLE_MAX + 1];
} role_of;

static void read_role_of(store *s, sql_stmt *st, void *item)
{
    role_of *r = item;
    r->id = col_int(s, st, 0);
    store_copy_column(s, st, 1, r->name, sizeof r->name);
    store_copy_column(s, st, 2, r->role, sizeof r->role);
}

int store_each_role(store *s, int (*fn)(const char *name, const char *role, void *arg), void *arg)
{
    store_lock(s);
    role_of *list;
    int n;
    int out = store_unlock(s, store_read_rows(s, s->mo[MO_ROLES], sizeof *list, read_role_of,
                                              (void **)&list, &n, "reading roles"));
    for (int i = 0; i < n && out == 0; i++)
        if (fn(list[i].name, list[i].role, arg))
            break;
    free(list);
    return out;
}

/* --- blocks --- */

int store_block(store *s, int64_t account_id, int64_t blocked_id, int64_t at)
{
    store_lock(s);
    sql_stmt *st = s->mo[MO_BLOCK];
    bind_int(s, st, 1, account_id);
    bind_int(s, st, 2, blocked_id);
    bind_int(s, st, 3, at);
    return store_unlock_result(s, store_step_changed(s, st, "blocking a player"));
}

int store_unblock(store *s, int64_t account_id, int64_t blocked_id)
{
    store_lock(s);
    sql_stmt *st = s->mo[MO_UNBLOCK];
    bind_int(s, st, 1, account_id);
    bind_int(s, st, 2, blocked_id);
    return store_unlock_result(s, store_step_changed(s, st, "unblocking a player"));
}

int store_blocks(store *s, int64_t account_id, int64_t blocked_id)
{
    store_lock(s);
    sql_stmt *st = s->mo[MO_BLOCKED];
    bind_int(s, st, 1, account_id);
    bind_int(s, st, 2, blocked_id);
    return store_unlock_result(s, exists(s, st, "reading blocks"));
}

static void read_person(store *s, sql_stmt *st, void *item)
{
    stored_person *p = item;
    memset(p, 0, sizeof *p);
    p->id = col_int(s, st, 0);
    store_copy_column(s, st, 1, p->name, sizeof p->name);
    p->computer = col_int(s, st, 2) != 0;
    p->seen_at = col_null(s, st, 3) ? 0 : col_int(s, st, 3);
    p->bot = col_int(s, st, 4) != 0;
}

int store_each_blocked(store *s, int64_t account_id, int (*fn)(const stored_person *p, void *arg),
                       void *arg)
{
    store_lock(s);
    sql_stmt *st = s->mo[MO_BLOCKS_OF];
    bind_int(s, st, 1, account_id);
    stored_person *list;
    int n;
    int out = store_unlock(
        s, store_read_rows(s, st, sizeof *list, read_person, (void **)&list, &n, "reading blocks"));
    for (int i = 0; i < n && out == 0; i++)
        if (fn(&list[i], arg))
            break;
    free(list);
    return out;
}

/* --- reports --- */

static void read_report(store *s, sql_stmt *st, void *item)
{
    stored_report *r = item;
    memset(r, 0, sizeof *r);
    r->id = col_int(s, st, 0);
    r->reporter_id = col_null(s, st, 1) ? 0 : col_int(s, st, 1);
    store_copy_column(s, st, 2, r->reporter, sizeof r->reporter);
    r->target_id = col_int(s, st, 3);
    store_copy_column(s, st, 4, r->target, sizeof r->target);
    store_copy_column(s, st, 5, r->game_id, sizeof r->game_id);
    r->chat_n = col_null(s, st, 6) ? -1 : (int)col_int(s, st, 6);
    store_copy_column(s, st, 7, r->reason, sizeof r->reason);
    store_copy_column(s, st, 8, r->text, sizeof r->text);
    store_copy_column(s, st, 9, r->status, sizeof r->status);
    r->created = col_int(s, st, 10);
    r->handled_by = col_null(s, st, 11) ? 0 : col_int(s, st, 11);
    r->handled_at = col_null(s, st, 12) ? 0 : col_int(s, st, 12);
}

int store_report_create(store *s, stored_report *r)
{
    store_lock(s);
    sql_stmt *st = s->mo[MO_REPORT_PUT];
    if (r->reporter_id > 0)
        bind_int(s, st, 1, r->reporter_id);
    else
        bind_text(s, st, 1, NULL);
    bind_int(s, st, 2, r->target_id);
    bind_text_or_null(s, st, 3, r->game_id);
    if (r->chat_n >= 0)
        bind_int(s, st, 4, r->chat_n);
    else
        bind_text(s, st, 4, NULL);
    bind_text(s, st, 5, r->reason);
    bind_text(s, st, 6, r->text);
    bind_int(s, st, 7, r->created);
    return store_unlock(s, insert_id(s, st, &r->id, "storing a report"));
}

int store_report_get(store *s, int64_t id, stored_report *out)
{
    store_lock(s);
    sql_stmt *st = s->mo[MO_REPORT_GET];
    bind_int(s, st, 1, id);
    return store_unlock_result(s, store_read_row(s, st, read_report, out, "reading a report"));
}

int store_each_report(store *s, const char *status, int64_t target_id, int max,
                      int (*fn)(const stored_report *r, void *arg), void *arg)
{
    store_lock(s);
    sql_stmt *st = s->mo[MO_REPORTS];
    bind_text(s, st, 1, status);
    bind_int(s, st, 2, target_id > 0 ? target_id : 0);
    bind_int(s, st, 3, max);
    stored_report *list;
    int n;
    int out = store_unlock(s, store_read_rows(s, st, sizeof *list, read_report, (void **)&list, &n,
                                              "reading reports"));
    for (int i = 0; i < n && out == 0; i++)
        if (fn(&list[i], arg))
            break;
    free(list);
    return out;
}

int store_report_close(store *s, int64_t id, int64_t by, int64_t at)
{
    store_lock(s);
    sql_stmt *st = s->mo[MO_REPORT_CLOSE];
    bind_int(s, st, 1, id);
    bind_int(s, st, 2, by);
    bind_int(s, st, 3, at);
    return store_unlock_result(s, store_step_changed(s, st, "closing a report"));
}

int store_report_open_auto(store *s, int64_t target_id, const char *reason)
{
    store_lock(s);
    sql_stmt *st = s->mo[MO_REPORT_OPEN_LIKE];
    bind_int(s, st, 1, target_id);
    bind_text(s, st, 2, reason);
    return store_unlock_result(s, exists(s, st, "reading reports"));
}

/* --- sanctions --- */

static void read_sanction(store *s, sql_stmt *st, void *item)
{
    stored_sanction *x = item;
    memset(x, 0, sizeof *x);
    x->id = col_int(s, st, 0);
    x->account_id = col_int(s, st, 1);
    store_copy_column(s, st, 2, x->kind, sizeof x->kind);
    store_copy_column(s, st, 3, x->game_id, sizeof x->game_id);
    store_copy_column(s, st, 4, x->detail, sizeof x->detail);
    x->until = col_null(s, st, 5) ? 0 : col_int(s, st, 5);
    x->created = col_int(s, st, 6);
    x->lifted = col_null(s, st, 7) ? 0 : col_int(s, st, 7);
    x->seen = col_null(s, st, 8) ? 0 : col_int(s, st, 8);
    x->by_id = col_null(s, st, 9) ? 0 : col_int(s, st, 9);
}

int store_sanction_add(store *s, stored_sanction *x)
{
    store_lock(s);
    sql_stmt *st = s->mo[MO_SANCTION_PUT];
    bind_int(s, st, 1, x->account_id);
    bind_text(s, st, 2, x->kind);
    bind_text_or_null(s, st, 3, x->game_id);
    bind_text_or_null(s, st, 4, x->detail);
    if (x->until > 0)
        bind_int(s, st, 5, x->until);
    else
        bind_text(s, st, 5, NULL);
    bind_int(s, st, 6, x->created);
    if (x->by_id > 0)
        bind_int(s, st, 7, x->by_id);
    else
        bind_text(s, st, 7, NULL);
    return store_unlock(s, insert_id(s, st, &x->id, "storing a sanction"));
}

int store_sanction_get(store *s, int64_t id, stored_sanction *out)
{
    store_lock(s);
    sql_stmt *st = s->mo[MO_SANCTION_GET];
    bind_int(s, st, 1, id);
    return store_unlock_result(s, store_read_row(s, st, read_sanction, out, "reading a sanction"));
}

int store_sanction_lift(store *s, int64_t id, int64_t at)
{
    store_lock(s);
    sql_stmt *st = s->mo[MO_SANCTION_LIFT];
    bind_int(s, st, 1, id);
    bind_int(s, st, 2, at);
    return store_unlock_result(s, store_step_changed(s, st, "lifting a sanction"));
}

static int each_sanction(store *s, sql_stmt *st, int (*fn)(const stored_sanction *x, void *arg),
                         void *arg)
{
    stored_sanction *list;
    int n;
    int out = store_unlock(s, store_read_rows(s, st, sizeof *list, read_sanction, (void **)&list,
                                              &n, "reading sanctions"));
    for (int i = 0; i < n && out == 0; i++)
        if (fn(&list[i], arg))
            break;
    free(list);
    return out;
}

int store_each_sanction(store *s, int64_t account_id, int max,
                        int (*fn)(const stored_sanction *x, void *arg), void *arg)
{
    store_lock(s);
    sql_stmt *st = s->mo[MO_SANCTIONS_OF];
    bind_int(s, st, 1, account_id);
    bind_int(s, st, 2, max);
    return each_sanction(s, st, fn, arg);
}

int store_chat_restriction(store *s, int64_t account_id, const char *game_id, int64_t now_ms,
                           stored_sanction *out)
{
    store_lock(s);
    sql_stmt *st = s->mo[MO_RESTRICTION];
    bind_int(s, st, 1, account_id);
    bind_text(s, st, 2, game_id);
    bind_int(s, st, 3, now_ms);
    return store_unlock_result(s,
                               store_read_row(s, st, read_sanction, out, "reading chat sanctions"));
}

int store_each_warning(store *s, int64_t account_id, int (*fn)(const stored_sanction *x, void *arg),
                       void *arg)
{
    store_lock(s);
    sql_stmt *st = s->mo[MO_WARNINGS];
    bind_int(s, st, 1, account_id);
    return each_sanction(s, st, fn, arg);
}

int store_warnings_seen(store *s, int64_t account_id, int64_t at)
{
    store_lock(s);
    sql_stmt *st = s->mo[MO_WARNINGS_SEEN];
    bind_int(s, st, 1, account_id);
    bind_int(s, st, 2, at);
    return store_unlock(s, store_step_done(s, st, "marking warnings seen"));
}

/* --- closing and renaming accounts --- */

int store_account_close(store *s, int64_t account_id, bool closed, const char *seat_name)
{
    store_lock(s);
    s->error[0] = 0;
    if (store_begin(s))
        return store_unlock(s, -1);
    sql_stmt *st = s->mo[MO_CLOSE];
    bind_int(s, st, 1, account_id);
    bind_int(s, st, 2, closed ? 1 : 0);
    int rc = store_step_changed(s, st, "closing an account");
    if (rc == 0 && closed) {
        st = s->mo[MO_CLOSE_SEATS];
        bind_int(s, st, 1, account_id);
        bind_text(s, st, 2, seat_name);
        rc = store_step_done(s, st, "naming a closed account's seats");
        st = s->mo[MO_SESSIONS_DELETE];
        bind_int(s, st, 1, account_id);
        if (rc == 0)
            rc = store_step_done(s, st, "revoking sessions");
        else
            reset(s, st);
    } else if (rc == 0) {
        st = s->mo[MO_REOPEN_SEATS];
        bind_int(s, st, 1, account_id);
        rc = store_step_done(s, st, "naming a reopened account's seats");
    }
    if (rc == 1) {
        store_rollback(s);
        return store_unlock(s, 0) + 1;
    }
    if (rc == 0)
        rc = store_commit(s);
    return store_unlock(s, rc ? store_rollback(s) : 0);
}

static void read_id(store *s, sql_stmt *st, void *item) { *(int64_t *)item = col_int(s, st, 0); }

int store_name_held(store *s, const char *key, const char *skeleton, int64_t *account_id)
{
    store_lock(s);
    sql_stmt *st = s->mo[MO_HELD];
    bind_text(s, st, 1, key);
    bind_text(s, st, 2, skeleton);
    int64_t id = 0;
    int rc = store_read_row(s, st, read_id, &id, "reading held names");
    if (account_id)
        *account_id = id;
    return store_unlock_result(s, rc);
}

int store_account_rename(store *s, int64_t account_id, const char *name, const char *key,
                         const char *skeleton, bool hold_old)
{
    store_lock(s);
    s->error[0] = 0;
    if (store_begin(s))
        return store_unlock(s, -1);
    int rc = 0;
    sql_stmt *st;
    if (hold_old) {
        st = s->mo[MO_HOLD];
        bind_int(s, st, 1, account_id);
        bind_int(s, st, 2, (int64_t)time(NULL) * 1000);
        rc = store_step_done(s, st, "holding a name back");
    }
    if (rc == 0) {
        st = s->mo[MO_RELEASE];
        bind_int(s, st, 1, account_id);
        bind_text(s, st, 2, key);
        bind_text(s, st, 3, skeleton);
        rc = store_step_done(s, st, "releasing a held name");
    }
    if (rc == 0) {
        st = s->mo[MO_RENAME];
        bind_int(s, st, 1, account_id);
        bind_text(s, st, 2, name);
        bind_text(s, st, 3, key);
        bind_text(s, st, 4, skeleton);
        if (store_step_done(s, st, "renaming an account"))
            rc = s->drv->unique_violation(s->c) ? 1 : -1;
        else if (s->drv->changes(s->c) != 1)
            rc = -1, snprintf(s->error, sizeof s->error, "no account %lld", (long long)account_id);
    }
    if (rc == 0) {
        st = s->mo[MO_RENAME_SEATS];
        bind_int(s, st, 1, account_id);
        bind_text(s, st, 2, name);
        rc = store_step_done(s, st, "renaming an account's seats");
    }
    if (rc == 1) {
        store_rollback(s);
        return store_unlock(s, 0) + 1;
    }
    if (rc == 0)
        rc = store_commit(s);
    return store_unlock(s, rc ? store_rollback(s) : 0);
}

/* --- the log --- */

static void read_log(store *s, sql_stmt *st, void *item)
{
    stored_log *e = item;
    memset(e, 0, sizeof *e);
    e->id = col_int(s, st, 0);
    e->at = col_int(s, st, 1);
    e->moderator_id = col_null(s, st, 2) ? 0 : col_int(s, st, 2);
    store_copy_column(s, st, 3, e->moderator, sizeof e->moderator);
    e->target_id = col_null(s, st, 4) ? 0 : col_int(s, st, 4);
    store_copy_column(s, st, 5, e->target, sizeof e->target);
    store_copy_column(s, st, 6, e->action, sizeof e->action);
    store_copy_column(s, st, 7, e->detail, sizeof e->detail);
    store_copy_column(s, st, 8, e->reason, sizeof e->reason);
}

int store_log_add(store *s, stored_log *e)
{
    store_lock(s);
    sql_stmt *st = s->mo[MO_LOG_PUT];
    bind_int(s, st, 1, e->at);
    if (e->moderator_id > 0)
        bind_int(s, st, 2, e->moderator_id);
    else
        bind_text(s, st, 2, NULL);
    bind_text(s, st, 3, e->moderator);
    if (e->target_id > 0)
        bind_int(s, st, 4, e->target_id);
    else
        bind_text(s, st, 4, NULL);
    bind_text_or_null(s, st, 5, e->target);
    bind_text(s, st, 6, e->action);
    bind_text_or_null(s, st, 7, e->detail);
    bind_text(s, st, 8, e->reason);
    return store_unlock(s, insert_id(s, st, &e->id, "writing the moderation log"));
}

int store_each_log(store *s, int64_t target_id, int64_t before_id, int max,
                   int (*fn)(const stored_log *e, void *arg), void *arg)
{
    store_lock(s);
    sql_stmt *st = s->mo[MO_LOG];
    bind_int(s, st, 1, target_id > 0 ? target_id : 0);
    bind_int(s, st, 2, before_id > 0 ? before_id : 0);
    bind_int(s, st, 3, max);
    stored_log *list;
    int n;
    int out = store_unlock(s, store_read_rows(s, st, sizeof *list, read_log, (void **)&list, &n,
                                              "reading the moderation log"));
    for (int i = 0; i < n && out == 0; i++)
        if (fn(&list[i], arg))
            break;
    free(list);
    return out;
}

/* --- what moderators look at --- */

static void read_chat_line(store *s, sql_stmt *st, void *item)
{
    stored_chat_line *l = item;
    memset(l, 0, sizeof *l);
    l->n = (int)col_int(s, st, 0);
    l->seat = col_null(s, st, 1) ? -1 : (int)col_int(s, st, 1);
    store_copy_column(s, st, 2, l->name, sizeof l->name);
    store_copy_column(s, st, 3, l->text, sizeof l->text);
    l->at = col_int(s, st, 4);
}

int store_each_chat_line(store *s, const char *game_id, int from, int to,
                         int (*fn)(const stored_chat_line *l, void *arg), void *arg)
{
    store_lock(s);
    sql_stmt *st = s->mo[MO_CHAT_LINES];
    bind_text(s, st, 1, game_id);
    bind_int(s, st, 2, from);
    bind_int(s, st, 3, to);
    stored_chat_line *list;
    int n;
    int out = store_unlock(s, store_read_rows(s, st, sizeof *list, read_chat_line, (void **)&list,
                                              &n, "reading chat"));
    for (int i = 0; i < n && out == 0; i++)
        if (fn(&list[i], arg))
            break;
    free(list);
    return out;
}

typedef struct {
    char id[24];
} game_id_row;

static void read_game_id(store *s, sql_stmt *st, void *item)
{
    game_id_row *g = item;
    store_copy_column(s, st, 0, g->id, sizeof g->id);
}

static int each_game_id(store *s, sql_stmt *st, int (*fn)(const char *game_id, void *arg),
                        void *arg)
{
    game_id_row *list;
    int n;
    int out = store_unlock(
        s, store_read_rows(s, st, sizeof *list, read_game_id, (void **)&list, &n, "reading games"));
    for (int i = 0; i < n && out == 0; i++)
        if (fn(list[i].id, arg))
            break;
    free(list);
    return out;
}

int store_quick_losses(store *s, int64_t account_id, int64_t since_s, int max_decisions,
                       int (*fn)(const char *game_id, void *arg), void *arg)
{
    store_lock(s);
    sql_stmt *st = s->mo[MO_QUICK_LOSSES];
    bind_int(s, st, 1, account_id);
    bind_int(s, st, 2, since_s);
    bind_int(s, st, 3, max_decisions);
    return each_game_id(s, st, fn, arg);
}

int store_losses_to(store *s, int64_t account_id, int64_t opponent_id, int64_t since_s,
                    int (*fn)(const char *game_id, void *arg), void *arg)
{
    store_lock(s);
    sql_stmt *st = s->mo[MO_LOSSES_TO];
    bind_int(s, st, 1, account_id);
    bind_int(s, st, 2, opponent_id);
    bind_int(s, st, 3, since_s);
    return each_game_id(s, st, fn, arg);
}
