/*
 * store_accounts.c - accounts, sessions and ratings in the store (see
 * store.h; the tables are schema 4's).
 *
 * Like store.c, every public call takes the connection's lock for its
 * whole work, and a call that writes more than one row is one
 * transaction. The rating update of a finished rated game is not a public
 * call: the writer thread runs it (store_game_end) inside the transaction
 * that stores the game's last decision, reading the players' ratings
 * there, so that games ending together see each other's results and a
 * crash keeps both or neither.
 */
#include "store_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *const account_sql[AC_COUNT] = {
    [AC_INSERT] = "INSERT INTO accounts(name, name_key, password_hash, computer, created_at,"
                  " name_skeleton) VALUES(?1, ?2, ?3, 0, ?4, ?5) RETURNING id",
    [AC_COMPUTER] = "INSERT INTO accounts(name, name_key, password_hash, computer, created_at)"
                    " VALUES(?1, ?2, NULL, 1, ?3) ON CONFLICT DO NOTHING",
    [AC_BY_KEY] = "SELECT id, name, computer, password_hash, bot, bot_about FROM accounts"
                  " WHERE name_key = ?1",
    [AC_BY_ID] = "SELECT id, name, computer, password_hash, bot, bot_about FROM accounts"
                 " WHERE id = ?1",
    [AC_SET_PASSWORD] = "UPDATE accounts SET password_hash = ?2 WHERE id = ?1 AND computer = 0",
    [AC_DELETE] = "DELETE FROM accounts WHERE id = ?1 AND computer = 0",
    [AC_SEATS_NEUTRAL] = "UPDATE seats SET name = ?2, account_id = NULL WHERE account_id = ?1",
    [AC_RATINGS_DELETE] = "DELETE FROM ratings WHERE account_id = ?1",
    [AC_HISTORY_DELETE] = "DELETE FROM rating_history WHERE account_id = ?1",
    [AC_SESSIONS_DELETE_ALL] = "DELETE FROM sessions WHERE account_id = ?1",
    [AC_TOKENS_DELETE_ALL] = "DELETE FROM tokens WHERE account_id = ?1",
    [AC_SESSION_INSERT] = "INSERT INTO sessions(token_hash, account_id, created_at, expires_at)"
                          " VALUES(?1, ?2, ?3, ?4)",
    [AC_SESSION_LOOKUP] = "SELECT a.id, a.name, a.computer, a.password_hash, a.bot, a.bot_about"
                          " FROM sessions s"
                          " JOIN accounts a ON a.id = s.account_id"
                          " WHERE s.token_hash = ?1 AND s.expires_at > ?2 AND a.closed = 0",
    [AC_SESSION_DELETE] = "DELETE FROM sessions WHERE token_hash = ?1",
    [AC_SESSION_DELETE_OTHERS] = "DELETE FROM sessions WHERE account_id = ?1 AND"
                                 " token_hash IS DISTINCT FROM ?2",
    [AC_SESSION_PRUNE] = "DELETE FROM sessions WHERE expires_at <= ?1",
    /* the newest ?3 sessions of the account besides ?2 stay */
    [AC_SESSION_CAP] = "DELETE FROM sessions WHERE account_id = ?1 AND token_hash <> ?2 AND"
                       " token_hash NOT IN (SELECT token_hash FROM sessions WHERE account_id = ?1"
                       " AND token_hash <> ?2 ORDER BY created_at DESC, token_hash DESC"
                       " LIMIT ?3)",
    [AC_RATING_GET] = "SELECT mu, sigma, games FROM ratings WHERE account_id = ?1 AND variant = ?2",
    [AC_RATING_PUT] = "INSERT INTO ratings(account_id, variant, mu, sigma, games)"
                      " VALUES(?1, ?2, ?3, ?4, 1) ON CONFLICT(account_id, variant) DO UPDATE"
                      " SET mu = excluded.mu, sigma = excluded.sigma, games = ratings.games + 1",
    [AC_HISTORY_INSERT] = "INSERT INTO rating_history(game_id, seat, account_id, variant,"
                          " mu_before, sigma_before, mu_after, sigma_after, at)"
                          " VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
    [AC_SEAT_ACCOUNTS] = "SELECT seat, account_id FROM seats WHERE game_id = ?1",
    [AC_SEAT_PLACE] = "UPDATE seats SET place = ?3 WHERE game_id = ?1 AND seat = ?2",
    [AC_PLAYER_GAMES] =
        "SELECT g.id, g.variant, g.players, g.mode, g.rated, s.place, g.updated_at, h.mu_before,"
        " h.sigma_before, h.mu_after, h.sigma_after FROM seats s JOIN games g ON g.id = s.game_id"
        " LEFT JOIN rating_history h ON h.game_id = s.game_id AND h.seat = s.seat"
        " WHERE s.account_id = ?1 AND g.status = 'over'"
        " ORDER BY g.updated_at DESC, g.rowid DESC LIMIT ?2",
    [AC_LEADERBOARD] = "SELECT a.name, a.computer, r.mu, r.sigma, r.games, a.bot FROM ratings r"
                       " JOIN accounts a ON a.id = r.account_id"
                       " WHERE r.variant = ?1 AND r.games > 0 AND a.closed = 0",
    [AC_BY_SKELETON] = "SELECT id, name, computer, password_hash, bot, bot_about FROM accounts"
                       " WHERE name_skeleton = ?1 LIMIT 1",
    [AC_ALL_SKELETONS] = "SELECT id, name_key, name_skeleton, name FROM accounts",
    [AC_SET_SKELETON] = "UPDATE accounts SET name_skeleton = ?2 WHERE id = ?1",
    [AC_BLOCKS_DELETE] = "DELETE FROM blocks WHERE account_id = ?1 OR blocked_id = ?1",
    [AC_HELD_DELETE] = "DELETE FROM held_names WHERE account_id = ?1",
};

int store_accounts_prepare(store *s) { return store_prepare_all(s, s->ac, account_sql, AC_COUNT); }

void store_accounts_finalize(store *s) { store_finalize_all(s, s->ac, AC_COUNT); }

/* --- accounts --- */

int store_account_create(store *s, const char *name, const char *key, const char *skeleton,
                         const char *password_hash, int64_t created, int64_t *id)
{
    store_lock(s);
    sql_stmt *st = s->ac[AC_INSERT];
    bind_text(s, st, 1, name);
    bind_text(s, st, 2, key);
    bind_text(s, st, 3, password_hash);
    bind_int(s, st, 4, created);
    bind_text(s, st, 5, skeleton);
    int rc = step(s, st);
    if (rc == SQL_ROW) {
        *id = col_int(s, st, 0);
        rc = step(s, st);
    }
    reset(s, st);
    if (rc == SQL_DONE)
        return store_unlock(s, 0);
    if (s->drv->unique_violation(s->c))
        return store_unlock(s, 0) + 1;
    return store_unlock(s, store_fail(s, "storing an account"));
}

int store_computer_ensure(store *s, const char *name, const char *key, int64_t created)
{
    store_lock(s);
    sql_stmt *st = s->ac[AC_COMPUTER];
    bind_text(s, st, 1, name);
    bind_text(s, st, 2, key);
    bind_int(s, st, 3, created);
    return store_unlock(s, store_step_done(s, st, "storing a computer player"));
}

void store_account_columns(store *s, sql_stmt *st, int c, stored_account *out)
{
    out->id = col_int(s, st, c);
    store_copy_column(s, st, c + 1, out->name, sizeof out->name);
    out->computer = col_int(s, st, c + 2) != 0;
    store_copy_column(s, st, c + 3, out->password_hash, sizeof out->password_hash);
    out->bot = col_int(s, st, c + 4) != 0;
    store_copy_column(s, st, c + 5, out->bot_about, sizeof out->bot_about);
}

/* Reads the one account row a statement (bound already) gives. */
static int read_account(store *s, sql_stmt *st, stored_account *out)
{
    memset(out, 0, sizeof *out);
    int rc = step(s, st);
    if (rc == SQL_ROW)
        store_account_columns(s, st, 0, out);
    reset(s, st);
    if (rc == SQL_ROW)
        return 0;
    return rc == SQL_DONE ? 1 : store_fail(s, "reading an account");
}

int store_account_by_key(store *s, const char *key, stored_account *out)
{
    store_lock(s);
    bind_text(s, s->ac[AC_BY_KEY], 1, key);
    int rc = read_account(s, s->ac[AC_BY_KEY], out);
    return rc == 1 ? store_unlock(s, 0) + 1 : store_unlock(s, rc);
}

int store_account_by_skeleton(store *s, const char *skeleton, stored_account *out)
{
    store_lock(s);
    bind_text(s, s->ac[AC_BY_SKELETON], 1, skeleton);
    int rc = read_account(s, s->ac[AC_BY_SKELETON], out);
    return rc == 1 ? store_unlock(s, 0) + 1 : store_unlock(s, rc);
}

/* An account as store_fill_skeletons sees it. */
typedef struct {
    int64_t id;
    char *skeleton, *name;
    bool changed;
} skeleton_row;

static int by_skeleton(const void *a, const void *b)
{
    const skeleton_row *x = a, *y = b;
    int c = strcmp(x->skeleton, y->skeleton);
    return c ? c : (x->id > y->id) - (x->id < y->id);
}

/* Reads every account, with skeleton(key) as it is now; NULL out of memory
 * (*n rows, *changed of them to be written). */
static skeleton_row *read_skeletons(store *s, int (*skeleton)(const char *, char *, size_t),
                                    size_t *n, size_t *changed, int *rc)
{
    sql_stmt *st = s->ac[AC_ALL_SKELETONS];
    skeleton_row *rows = NULL;
    size_t cap = 0;
    char now[4096];
    *n = *changed = 0;
    while ((*rc = step(s, st)) == SQL_ROW) {
        const char *key = col_text(s, st, 1), *stored = col_text(s, st, 2),
                   *name = col_text(s, st, 3);
        if (!key || skeleton(key, now, sizeof now))
            continue; /* left as it is: it matches nothing new */
        if (*n == cap) {
            cap = cap ? 2 * cap : 64;
            skeleton_row *grown = realloc(rows, cap * sizeof *rows);
            if (!grown)
                break;
            rows = grown;
        }
        skeleton_row *r = &rows[*n];
        r->id = col_int(s, st, 0);
        r->changed = !stored || strcmp(stored, now) != 0;
        r->skeleton = strdup(now);
        r->name = strdup(name ? name : "");
        if (!r->skeleton || !r->name) {
            free(r->skeleton);
            free(r->name);
            break;
        }
        *changed += r->changed;
        (*n)++;
    }
    reset(s, st);
    if (*rc == SQL_ROW) {
        snprintf(s->error, sizeof s->error, "computing names' skeletons: out of memory");
        *rc = SQL_ERROR;
    }
    return rows;
}

int store_fill_skeletons(store *s, int (*skeleton)(const char *key, char *out, size_t size),
                         void (*clash)(void *arg, const char *name, const char *other), void *arg)
{
    store_lock(s);
    s->error[0] = 0;
    if (store_begin(s))
        return store_unlock(s, -1);
    /* the accounts first, then the updates: one statement runs at a time */
    size_t n, changed;
    int rc;
    skeleton_row *rows = read_skeletons(s, skeleton, &n, &changed, &rc);
    sql_stmt *set = s->ac[AC_SET_SKELETON];
    for (size_t i = 0; i < n && rc == SQL_DONE; i++) {
        if (!rows[i].changed)
            continue;
        bind_int(s, set, 1, rows[i].id);
        bind_text(s, set, 2, rows[i].skeleton);
        if (store_step_done(s, set, "storing a name's skeleton"))
            rc = SQL_ERROR;
    }
    if (rc != SQL_DONE || store_commit(s)) {
        if (!s->error[0])
            store_fail(s, "filling in names' skeletons");
        store_rollback(s);
        changed = (size_t)-1;
    } else if (changed && clash) {
        /* accounts that look alike since their keys were written: named,
         * each with the oldest other account of its skeleton */
        qsort(rows, n, sizeof *rows, by_skeleton);
        for (size_t i = 0, first = 0; i < n; i++) {
            if (strcmp(rows[i].skeleton, rows[first].skeleton) != 0)
                first = i;
            size_t other = first != i ? first : first + 1;
            if (rows[i].changed && other < n && strcmp(rows[other].skeleton, rows[i].skeleton) == 0)
                clash(arg, rows[i].name, rows[other].name);
        }
    }
    for (size_t i = 0; i < n; i++) {
        free(rows[i].skeleton);
        free(rows[i].name);
    }
    free(rows);
    return store_unlock(s, changed == (size_t)-1 ? -1 : (int)changed);
}

int store_account_by_id(store *s, int64_t id, stored_account *out)
{
    store_lock(s);
    bind_int(s, s->ac[AC_BY_ID], 1, id);
    int rc = read_account(s, s->ac[AC_BY_ID], out);
    return rc == 1 ? store_unlock(s, 0) + 1 : store_unlock(s, rc);
}

/* A statement with the account id as ?1 and optional text as ?2. */
static int run_for_account(store *s, int which, int64_t id, bool with_text, const char *text,
                           const char *what)
{
    sql_stmt *st = s->ac[which];
    bind_int(s, st, 1, id);
    if (with_text)
        bind_text(s, st, 2, text);
    return store_step_done(s, st, what);
}

int store_account_set_password(store *s, int64_t id, const char *password_hash,
                               const char *keep_session)
{
    store_lock(s);
    s->error[0] = 0;
    if (store_begin(s))
        return store_unlock(s, -1);
    if (run_for_account(s, AC_SET_PASSWORD, id, true, password_hash, "storing a password") ||
        s->drv->changes(s->c) != 1 ||
        run_for_account(s, AC_SESSION_DELETE_OTHERS, id, true, keep_session, "revoking sessions") ||
        store_commit(s)) {
        if (!s->error[0])
            snprintf(s->error, sizeof s->error, "no account %lld", (long long)id);
        return store_unlock(s, store_rollback(s));
    }
    return store_unlock(s, 0);
}

int store_account_delete(store *s, int64_t id)
{
    store_lock(s);
    s->error[0] = 0;
    if (store_begin(s))
        return store_unlock(s, -1);
    int rc = run_for_account(s, AC_DELETE, id, false, NULL, "deleting an account");
    if (rc == 0 && s->drv->changes(s->c) != 1) {
        snprintf(s->error, sizeof s->error, "no account %lld", (long long)id);
        rc = -1;
    }
    if (rc == 0)
        rc = run_for_account(s, AC_SEATS_NEUTRAL, id, true, STORE_NEUTRAL_NAME, "renaming seats") ||
             run_for_account(s, AC_RATINGS_DELETE, id, false, NULL, "deleting ratings") ||
             run_for_account(s, AC_HISTORY_DELETE, id, false, NULL, "deleting rating history") ||
             run_for_account(s, AC_SESSIONS_DELETE_ALL, id, false, NULL, "revoking sessions") ||
             run_for_account(s, AC_TOKENS_DELETE_ALL, id, false, NULL, "revoking tokens") ||
             run_for_account(s, AC_BLOCKS_DELETE, id, false, NULL, "forgetting blocks") ||
             run_for_account(s, AC_HELD_DELETE, id, false, NULL, "releasing held names") ||
             store_push_forget(s, id) || store_commit(s);
    return store_unlock(s, rc ? store_rollback(s) : 0);
}

/* --- sessions --- */

int store_session_create(store *s, const char *token_hash, int64_t account_id, int64_t created,
                         int64_t expires)
{
    store_lock(s);
    sql_stmt *st = s->ac[AC_SESSION_INSERT];
    bind_text(s, st, 1, token_hash);
    bind_int(s, st, 2, account_id);
    bind_int(s, st, 3, created);
    bind_int(s, st, 4, expires);
    return store_unlock(s, store_step_done(s, st, "storing a session"));
}

int store_sessions_cap(store *s, int64_t account_id, const char *keep, int max)
{
    store_lock(s);
    sql_stmt *st = s->ac[AC_SESSION_CAP];
    bind_int(s, st, 1, account_id);
    bind_text(s, st, 2, keep);
    bind_int(s, st, 3, max > 1 ? max - 1 : 0);
    return store_unlock(s, store_step_done(s, st, "revoking the oldest sessions"));
}

int store_session_account(store *s, const char *token_hash, int64_t now, stored_account *out)
{
    store_lock(s);
    sql_stmt *st = s->ac[AC_SESSION_LOOKUP];
    bind_text(s, st, 1, token_hash);
    bind_int(s, st, 2, now);
    int rc = read_account(s, st, out);
    return rc == 1 ? store_unlock(s, 0) + 1 : store_unlock(s, rc);
}

int store_session_delete(store *s, const char *token_hash)
{
    store_lock(s);
    sql_stmt *st = s->ac[AC_SESSION_DELETE];
    bind_text(s, st, 1, token_hash);
    return store_unlock(s, store_step_done(s, st, "revoking a session"));
}

int store_sessions_prune(store *s, int64_t now)
{
    store_lock(s);
    sql_stmt *st = s->ac[AC_SESSION_PRUNE];
    bind_int(s, st, 1, now);
    return store_unlock(s, store_step_done(s, st, "forgetting expired sessions"));
}

/* --- ratings --- */

/* Under the lock: 0 with the rating (the initial one and 0 games when
 * there is no row), -1 on error. */
static int read_rating(store *s, int64_t account_id, const char *variant, rt_rating *out,
                       int *games)
{
    rt_params p = rt_default_params();
    *out = rt_initial(&p);
    *games = 0;
    sql_stmt *st = s->ac[AC_RATING_GET];
    bind_int(s, st, 1, account_id);
    bind_text(s, st, 2, variant);
    int rc = step(s, st);
    if (rc == SQL_ROW) {
        *out = (rt_rating){col_double(s, st, 0), col_double(s, st, 1)};
        *games = (int)col_int(s, st, 2);
    }
    reset(s, st);
    return rc == SQL_ROW || rc == SQL_DONE ? 0 : store_fail(s, "reading a rating");
}

int store_rating(store *s, int64_t account_id, const char *variant, rt_rating *out, int *games)
{
    store_lock(s);
    return store_unlock(s, read_rating(s, account_id, variant, out, games));
}

static int write_place(store *s, const char *game_id, int seat, int place)
{
    sql_stmt *st = s->ac[AC_SEAT_PLACE];
    bind_text(s, st, 1, game_id);
    bind_int(s, st, 2, seat);
    bind_int(s, st, 3, place);
    return store_step_done(s, st, "storing a place");
}

/* The accounts the game's seats are bound to now (0: none). */
static int seat_accounts(store *s, const char *game_id, int64_t account[4])
{
    memset(account, 0, 4 * sizeof *account);
    sql_stmt *st = s->ac[AC_SEAT_ACCOUNTS];
    bind_text(s, st, 1, game_id);
    int rc;
    while ((rc = step(s, st)) == SQL_ROW) {
        int seat = (int)col_int(s, st, 0);
        if (seat >= 0 && seat < 4)
            account[seat] = col_int(s, st, 1);
    }
    reset(s, st);
    return rc == SQL_DONE ? 0 : store_fail(s, "reading a game's accounts");
}

static int write_rating(store *s, const store_write *w, int seat, int64_t at)
{
    sql_stmt *st = s->ac[AC_RATING_PUT];
    bind_int(s, st, 1, w->seat_account[seat]);
    bind_text(s, st, 2, w->variant);
    bind_double(s, st, 3, w->after[seat].mu);
    bind_double(s, st, 4, w->after[seat].sigma);
    if (store_step_done(s, st, "storing a rating"))
        return -1;
    st = s->ac[AC_HISTORY_INSERT];
    bind_text(s, st, 1, w->game_id);
    bind_int(s, st, 2, seat);
    bind_int(s, st, 3, w->seat_account[seat]);
    bind_text(s, st, 4, w->variant);
    bind_double(s, st, 5, w->before[seat].mu);
    bind_double(s, st, 6, w->before[seat].sigma);
    bind_double(s, st, 7, w->after[seat].mu);
    bind_double(s, st, 8, w->after[seat].sigma);
    bind_int(s, st, 9, at);
    return store_step_done(s, st, "storing a rating's history");
}

/* Rates a finished game: every seat's rating as stored now (a seat whose
 * account was deleted plays as a newcomer and is not written), the
 * update, then each account's new rating and the seat's history row. */
static int rate_game(store *s, store_write *w)
{
    int n = w->rating_game.nseats;
    if (n < 2 || n > 4) {
        snprintf(s->error, sizeof s->error, "a rated game of %d seats", n);
        return -1;
    }
    if (seat_accounts(s, w->game_id, w->seat_account))
        return -1;
    rt_params p = rt_default_params();
    for (int seat = 0; seat < n; seat++) {
        int games;
        w->seat_rated[seat] = w->seat_account[seat] > 0;
        w->before[seat] = rt_initial(&p);
        if (w->seat_rated[seat] &&
            read_rating(s, w->seat_account[seat], w->variant, &w->before[seat], &games))
            return -1;
    }
    rt_status rs = rt_update(&p, &w->rating_game, w->before, w->after);
    if (rs != RT_OK) {
        snprintf(s->error, sizeof s->error, "rating game %s: %s", w->game_id, rt_status_text(rs));
        return -1;
    }
    int64_t at = (int64_t)time(NULL);
    for (int seat = 0; seat < n; seat++)
        if (w->seat_rated[seat] && write_rating(s, w, seat, at))
            return -1;
    return 0;
}

int store_game_end(store *s, store_write *w)
{
    memset(w->seat_rated, 0, sizeof w->seat_rated);
    for (int seat = 0; seat < 4 && w->places[seat] > 0; seat++)
        if (write_place(s, w->game_id, seat, w->places[seat]))
            return -1;
    return w->rated ? rate_game(s, w) : 0;
}

/* --- profiles and the leaderboard --- */

int store_player_games(store *s, int64_t account_id, int max,
                       int (*fn)(const stored_player_game *g, void *arg), void *arg)
{
    store_lock(s);
    sql_stmt *st = s->ac[AC_PLAYER_GAMES];
    bind_int(s, st, 1, account_id);
    bind_int(s, st, 2, max);
    int rc;
    stored_player_game g;
    while ((rc = step(s, st)) == SQL_ROW) {
        memset(&g, 0, sizeof g);
        store_copy_column(s, st, 0, g.id, sizeof g.id);
        store_copy_column(s, st, 1, g.variant, sizeof g.variant);
        g.players = (int)col_int(s, st, 2);
        store_copy_column(s, st, 3, g.mode, sizeof g.mode);
        g.rated = col_int(s, st, 4) != 0;
        g.place = (int)col_int(s, st, 5);
        g.ended = col_int(s, st, 6);
        g.has_change = !col_null(s, st, 7);
        g.before = (rt_rating){col_double(s, st, 7), col_double(s, st, 8)};
        g.after = (rt_rating){col_double(s, st, 9), col_double(s, st, 10)};
        if (fn(&g, arg)) {
            rc = SQL_DONE;
            break;
        }
    }
    reset(s, st);
    return store_unlock(s, rc == SQL_DONE ? 0 : store_fail(s, "reading a player's games"));
}

int store_each_rated(store *s, const char *variant, int (*fn)(const stored_ranked *p, void *arg),
                     void *arg)
{
    store_lock(s);
    sql_stmt *st = s->ac[AC_LEADERBOARD];
    bind_text(s, st, 1, variant);
    int rc;
    stored_ranked p;
    while ((rc = step(s, st)) == SQL_ROW) {
        memset(&p, 0, sizeof p);
        store_copy_column(s, st, 0, p.name, sizeof p.name);
        p.computer = col_int(s, st, 1) != 0;
        p.rating = (rt_rating){col_double(s, st, 2), col_double(s, st, 3)};
        p.games = (int)col_int(s, st, 4);
        p.bot = col_int(s, st, 5) != 0;
        if (fn(&p, arg)) {
            rc = SQL_DONE;
            break;
        }
    }
    reset(s, st);
    return store_unlock(s, rc == SQL_DONE ? 0 : store_fail(s, "reading the leaderboard"));
}
