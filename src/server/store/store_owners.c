/*
 * store_owners.c - the servers of one site: who holds which game, and the
 * messages they send each other (store.h, "the servers of one site").
 *
 * A lease is a row of game_owners: the game, the server (its instance id)
 * and until when. Taking one is a single upsert that succeeds only when the
 * row is absent, already ours, or expired, so two servers can never both
 * get it; every write of a held game first touches its row with our id
 * inside the same transaction (store_fence), which on PostgreSQL also locks
 * the row until commit: a lease cannot change hands between the check and
 * the write. Messages are PostgreSQL's NOTIFY on the site's channel, heard
 * by a thread of our own on a session of its own (sql_driver.listen_*),
 * queued for the event loop, which is woken as for the writer's results.
 */
#include "store_internal.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const owner_sql[OW_COUNT] = {
    [OW_TAKE] = "INSERT INTO game_owners(game_id, instance, expires_at) VALUES(?1, ?2, ?4)"
                " ON CONFLICT(game_id) DO UPDATE SET instance = excluded.instance,"
                " expires_at = excluded.expires_at WHERE game_owners.instance = excluded.instance"
                " OR game_owners.instance = '' OR game_owners.expires_at < ?3",
    [OW_HOLDER] = "SELECT instance FROM game_owners WHERE game_id = ?1",
    [OW_RENEW] = "UPDATE game_owners SET expires_at = ?2 WHERE instance = ?1",
    [OW_SEEN] = "INSERT INTO instances(id, started_at, seen_at) VALUES(?1, ?2, ?2)"
                " ON CONFLICT(id) DO UPDATE SET seen_at = excluded.seen_at",
    [OW_MINE] = "SELECT game_id FROM game_owners WHERE instance = ?1 ORDER BY game_id",
    /* a released game is free for the taking, and adopted by anyone if
     * nobody took it before it expires */
    [OW_RELEASE] = "UPDATE game_owners SET instance = '', expires_at = ?3 WHERE game_id = ?1 AND"
                   " instance = ?2",
    [OW_RELEASE_ALL] = "UPDATE game_owners SET instance = '', expires_at = ?2 WHERE instance = ?1",
    [OW_PRUNE] = "DELETE FROM game_owners WHERE instance = '' AND expires_at < ?1",
    [OW_FORGET] = "DELETE FROM instances WHERE id = ?1",
    [OW_ORPHANS] = "SELECT g.id FROM games g LEFT JOIN game_owners o ON o.game_id = g.id"
                   " WHERE g.status IN ('waiting', 'running') AND"
                   " (o.game_id IS NULL OR o.expires_at < ?1) ORDER BY g.created_at, g.id"
                   " LIMIT ?2",
    [OW_ALIVE] = "SELECT COUNT(*) FROM instances WHERE seen_at >= ?1",
    [OW_ENTRIES] = "SELECT g.id, g.created_at, g.people, g.entry FROM games g"
                   " LEFT JOIN game_owners o ON o.game_id = g.id"
                   " WHERE g.status IN ('waiting', 'running') AND g.entry IS NOT NULL AND"
                   " (o.instance IS NULL OR o.instance <> ?1)",
    [OW_GET_ENTRY] = "SELECT entry FROM games WHERE id = ?1",
    /* touches the row, and so (PostgreSQL) locks it until the commit */
    [OW_FENCE] = "UPDATE game_owners SET expires_at = expires_at WHERE game_id = ?1 AND"
                 " instance = ?2",
    [OW_SET_ENTRY] = "UPDATE games SET entry = ?2, people = ?3 WHERE id = ?1",
    [OW_REGISTER] = "INSERT INTO instances(id, started_at, seen_at, address) VALUES(?1, ?2, ?2, ?3)"
                    " ON CONFLICT(id) DO UPDATE SET seen_at = excluded.seen_at,"
                    " address = excluded.address",
    [OW_ADDRESS] = "SELECT address FROM instances WHERE id = ?1",
    [OW_PEERS] = "SELECT id, address FROM instances WHERE seen_at >= ?1 AND address IS NOT NULL",
    [OW_SITE_PUT] = "INSERT INTO site(name, value) VALUES(?1, ?2) ON CONFLICT(name) DO NOTHING",
    [OW_SITE_GET] = "SELECT value FROM site WHERE name = ?1",
    /* a window of ?4 ms from the first use in it, ?2 uses at most: ?3 more
     * (or back, when negative) if they fit; nothing changes when they do
     * not (the WHERE). tokens: the uses counted, at: the window's start */
    [OW_BUDGET_TAKE] =
        "INSERT INTO budgets(key, tokens, at)"
        " VALUES(?1, CASE WHEN ?3 < 0 THEN 0 ELSE ?3 END, ?5)"
        " ON CONFLICT(key) DO UPDATE SET"
        " tokens = CASE WHEN budgets.at + ?4 <= ?5 THEN (CASE WHEN ?3 < 0 THEN 0"
        " ELSE ?3 END) ELSE budgets.tokens + ?3 END,"
        " at = CASE WHEN budgets.at + ?4 <= ?5 THEN ?5 ELSE budgets.at END"
        " WHERE (CASE WHEN budgets.at + ?4 <= ?5 THEN 0 ELSE budgets.tokens END) + ?3"
        " <= ?2",
    [OW_BUDGET_AT] = "SELECT tokens, at FROM budgets WHERE key = ?1",
    [OW_BUDGET_PRUNE] = "DELETE FROM budgets WHERE at < ?1",
};

bool store_shared(const store *s) { return s->shared; }

int store_owners_open(store *s, const char *target, bool server)
{
    snprintf(s->target, sizeof s->target, "%s", target);
    if (store_prepare_all(s, s->ow, owner_sql, OW_COUNT))
        return -1;
    /* A server's SQLite file has no other server: leases of its last run
     * (killed before it released them) are its own to take again. */
    if (server && !s->shared &&
        s->drv->exec(s->c, "DELETE FROM game_owners; DELETE FROM instances"))
        return store_fail(s, "forgetting the last run's leases");
    return 0;
}

void store_owners_finalize(store *s) { store_finalize_all(s, s->ow, OW_COUNT); }

int store_fence(store *s, store_write *w)
{
    sql_stmt *st = s->ow[OW_FENCE];
    bind_text(s, st, 1, w->game_id);
    bind_text(s, st, 2, w->instance);
    if (store_step_done(s, st, "checking the game's lease"))
        return -1;
    if (s->drv->changes(s->c) == 1)
        return 0;
    w->lease_lost = true;
    snprintf(s->error, sizeof s->error, "game %s is held by another server now", w->game_id);
    return -1;
}

int store_set_entry(store *s, const store_write *w)
{
    sql_stmt *st = s->ow[OW_SET_ENTRY];
    bind_text(s, st, 1, w->game_id);
    bind_text(s, st, 2, w->entry);
    bind_int(s, st, 3, w->people);
    return store_step_done(s, st, "storing a lobby entry");
}

/* --- leases --- */

static int lease_take(store *s, const char *game_id, const char *instance, int64_t now_ms,
                      int64_t until_ms, char *holder)
{
    sql_stmt *st = s->ow[OW_TAKE];
    bind_text(s, st, 1, game_id);
    bind_text(s, st, 2, instance);
    bind_int(s, st, 3, now_ms);
    bind_int(s, st, 4, until_ms);
    if (store_step_done(s, st, "taking a game's lease"))
        return -1;
    if (s->drv->changes(s->c) == 1)
        return 0;
    if (holder) {
        holder[0] = 0;
        st = s->ow[OW_HOLDER];
        bind_text(s, st, 1, game_id);
        int rc = step(s, st);
        if (rc == SQL_ROW)
            store_copy_column(s, st, 0, holder, STORE_INSTANCE_LEN + 1);
        reset(s, st);
        if (rc == SQL_ERROR)
            return store_fail(s, "reading a game's holder");
    }
    return 1;
}

int store_lease_take(store *s, const char *game_id, const char *instance, int64_t now_ms,
                     int64_t until_ms, char holder[STORE_INSTANCE_LEN + 1])
{
    store_lock(s);
    int rc = lease_take(s, game_id, instance, now_ms, until_ms, holder);
    return store_unlock_result(s, rc);
}

static int renew(store *s, const char *instance, int64_t now_ms, int64_t until_ms, int64_t *held)
{
    if (store_begin(s))
        return -1;
    sql_stmt *st = s->ow[OW_RENEW];
    bind_text(s, st, 1, instance);
    bind_int(s, st, 2, until_ms);
    if (store_step_done(s, st, "renewing the leases"))
        return store_rollback(s);
    *held = s->drv->changes(s->c);
    st = s->ow[OW_PRUNE];
    bind_int(s, st, 1, now_ms - 60000);
    if (store_step_done(s, st, "forgetting released leases"))
        return store_rollback(s);
    st = s->ow[OW_SEEN];
    bind_text(s, st, 1, instance);
    bind_int(s, st, 2, now_ms);
    if (store_step_done(s, st, "saying this server is alive"))
        return store_rollback(s);
    return store_commit(s) ? store_rollback(s) : 0;
}

int store_leases_renew(store *s, const char *instance, int64_t now_ms, int64_t until_ms,
                       int64_t *held)
{
    store_lock(s);
    return store_unlock(s, renew(s, instance, now_ms, until_ms, held));
}

typedef struct {
    char id[24]; /* as stored_game's */
} listed_id;

static void read_id(store *s, sql_stmt *st, void *item)
{
    store_copy_column(s, st, 0, ((listed_id *)item)->id, sizeof((listed_id *)item)->id);
}

/* Calls fn for each id a bound statement lists (read first, then called,
 * so that fn may use the store). */
static int each_id(store *s, sql_stmt *st, const char *what, int (*fn)(const char *id, void *arg),
                   void *arg)
{
    listed_id *ids;
    int n;
    int out =
        store_unlock(s, store_read_rows(s, st, sizeof *ids, read_id, (void **)&ids, &n, what));
    for (int i = 0; i < n && out == 0; i++)
        if (fn(ids[i].id, arg))
            out = -1;
    free(ids);
    return out;
}

int store_each_lease(store *s, const char *instance, int (*fn)(const char *id, void *arg),
                     void *arg)
{
    store_lock(s);
    bind_text(s, s->ow[OW_MINE], 1, instance);
    return each_id(s, s->ow[OW_MINE], "listing the leases", fn, arg);
}

int store_each_orphan(store *s, int64_t now_ms, int max, int (*fn)(const char *id, void *arg),
                      void *arg)
{
    store_lock(s);
    bind_int(s, s->ow[OW_ORPHANS], 1, now_ms);
    bind_int(s, s->ow[OW_ORPHANS], 2, max);
    return each_id(s, s->ow[OW_ORPHANS], "listing the games nobody holds", fn, arg);
}

int store_lease_release(store *s, const char *game_id, const char *instance, int64_t until_ms)
{
    store_lock(s);
    sql_stmt *st = s->ow[OW_RELEASE];
    bind_text(s, st, 1, game_id);
    bind_text(s, st, 2, instance);
    bind_int(s, st, 3, until_ms);
    return store_unlock(s, store_step_done(s, st, "releasing a game's lease"));
}

int store_leases_release_all(store *s, const char *instance, int64_t until_ms)
{
    store_lock(s);
    sql_stmt *st = s->ow[OW_RELEASE_ALL];
    bind_text(s, st, 1, instance);
    bind_int(s, st, 2, until_ms);
    int rc = store_step_done(s, st, "releasing the leases");
    st = s->ow[OW_FORGET];
    bind_text(s, st, 1, instance);
    if (rc == 0)
        rc = store_step_done(s, st, "forgetting this server");
    return store_unlock(s, rc);
}

int store_instances_alive(store *s, int64_t since_ms, int *n)
{
    store_lock(s);
    sql_stmt *st = s->ow[OW_ALIVE];
    bind_int(s, st, 1, since_ms);
    int rc = step(s, st);
    *n = rc == SQL_ROW ? (int)col_int(s, st, 0) : 0;
    reset(s, st);
    return store_unlock(s, rc == SQL_ROW ? 0 : store_fail(s, "counting the servers"));
}

int store_each_entry(store *s, const char *instance,
                     int (*fn)(const char *id, int64_t created, int people, const char *entry,
                               void *arg),
                     void *arg)
{
    store_lock(s);
    sql_stmt *st = s->ow[OW_ENTRIES];
    bind_text(s, st, 1, instance);
    int rc, out = 0;
    /* fn must not use the store: it is called under its lock */
    while (out == 0 && (rc = step(s, st)) == SQL_ROW) {
        const char *id = col_text(s, st, 0), *entry = col_text(s, st, 3);
        if (id && entry && fn(id, col_int(s, st, 1), (int)col_int(s, st, 2), entry, arg))
            out = -1;
    }
    if (out == 0 && rc == SQL_ERROR)
        out = store_fail(s, "reading the lobby's entries");
    reset(s, st);
    return store_unlock(s, out);
}

int store_get_entry(store *s, const char *id, char **entry)
{
    *entry = NULL;
    store_lock(s);
    sql_stmt *st = s->ow[OW_GET_ENTRY];
    bind_text(s, st, 1, id);
    int rc = step(s, st), out = 1;
    if (rc == SQL_ROW && !col_null(s, st, 0)) {
        out = (*entry = strdup(col_text(s, st, 0))) ? 0 : -1;
        if (out)
            snprintf(s->error, sizeof s->error, "reading a lobby entry: out of memory");
    } else if (rc == SQL_ERROR) {
        out = store_fail(s, "reading a lobby entry");
    }
    reset(s, st);
    return store_unlock_result(s, out);
}

/* --- where the servers are, the site's secrets --- */

int store_instance_register(store *s, const char *instance, const char *address, int64_t now_ms)
{
    store_lock(s);
    sql_stmt *st = s->ow[OW_REGISTER];
    bind_text(s, st, 1, instance);
    bind_int(s, st, 2, now_ms);
    bind_text(s, st, 3, address);
    return store_unlock(s, store_step_done(s, st, "recording this server's address"));
}

int store_instance_address(store *s, const char *instance, char *out, size_t size)
{
    out[0] = 0;
    store_lock(s);
    sql_stmt *st = s->ow[OW_ADDRESS];
    bind_text(s, st, 1, instance);
    int rc = step(s, st), result = 1;
    if (rc == SQL_ROW && !col_null(s, st, 0)) {
        store_copy_column(s, st, 0, out, size);
        result = 0;
    } else if (rc == SQL_ERROR) {
        result = store_fail(s, "reading a server's address");
    }
    reset(s, st);
    return store_unlock_result(s, result);
}

int store_each_peer(store *s, int64_t since_ms,
                    int (*fn)(const char *instance, const char *address, void *arg), void *arg)
{
    store_lock(s);
    sql_stmt *st = s->ow[OW_PEERS];
    bind_int(s, st, 1, since_ms);
    int rc, out = 0;
    /* fn must not use the store: it is called under its lock */
    while (out == 0 && (rc = step(s, st)) == SQL_ROW) {
        const char *id = col_text(s, st, 0), *address = col_text(s, st, 1);
        if (id && address && fn(id, address, arg))
            out = -1;
    }
    if (out == 0 && rc == SQL_ERROR)
        out = store_fail(s, "reading the site's servers");
    reset(s, st);
    return store_unlock(s, out);
}

int store_site_secret(store *s, const char *name, const char *fresh, char *out, size_t size)
{
    out[0] = 0;
    store_lock(s);
    sql_stmt *st = s->ow[OW_SITE_PUT];
    bind_text(s, st, 1, name);
    bind_text(s, st, 2, fresh);
    int rc = store_step_done(s, st, "keeping a secret of the site");
    if (rc == 0) {
        st = s->ow[OW_SITE_GET];
        bind_text(s, st, 1, name);
        int r = step(s, st);
        if (r == SQL_ROW)
            store_copy_column(s, st, 0, out, size);
        else
            rc = store_fail(s, "reading a secret of the site");
        reset(s, st);
    }
    return store_unlock(s, rc);
}

/* --- budgets --- */

int store_budget_take(store *s, const char *key, int max, int64_t window_ms, int cost,
                      int64_t now_ms, int64_t *retry_ms)
{
    store_lock(s);
    sql_stmt *st = s->ow[OW_BUDGET_TAKE];
    bind_text(s, st, 1, key);
    bind_int(s, st, 2, max);
    bind_int(s, st, 3, cost);
    bind_int(s, st, 4, window_ms);
    bind_int(s, st, 5, now_ms);
    int rc = store_step_done(s, st, "drawing on a budget");
    int granted = rc == 0 && s->drv->changes(s->c) == 1;
    if (retry_ms)
        *retry_ms = 0;
    if (rc == 0 && retry_ms) {
        /* when the window ends, for a refusal's Retry-After; or, granted,
         * when the last use it allows would be refused until */
        st = s->ow[OW_BUDGET_AT];
        bind_text(s, st, 1, key);
        int r = step(s, st);
        if (r == SQL_ROW && (!granted || col_double(s, st, 0) >= max))
            *retry_ms = col_int(s, st, 1) + window_ms - now_ms;
        else if (r == SQL_ERROR)
            rc = store_fail(s, "reading a budget");
        reset(s, st);
    }
    return store_unlock(s, rc) == 0 ? granted : -1;
}

int store_budgets_prune(store *s, int64_t before_ms)
{
    store_lock(s);
    sql_stmt *st = s->ow[OW_BUDGET_PRUNE];
    bind_int(s, st, 1, before_ms);
    return store_unlock(s, store_step_done(s, st, "forgetting old budgets"));
}

/* --- messages --- */

int store_notify(store *s, const char *text)
{
    if (!s->shared)
        return 0;
    store_lock(s);
    int rc = s->drv->notify(s->c, text) ? store_fail(s, "sending to the other servers") : 0;
    return store_unlock(s, rc);
}

static void heard(store *s, const char *text)
{
    size_t n = strlen(text) + 1;
    store_message *m = malloc(sizeof *m + n);
    if (!m)
        return; /* the next gap check (an empty message) covers it */
    m->next = NULL;
    memcpy(m->text, text, n);
    pthread_mutex_lock(&s->qlock);
    if (s->heard_tail)
        s->heard_tail->next = m;
    else
        s->heard = m;
    s->heard_tail = m;
    pthread_mutex_unlock(&s->qlock);
    s->heard_notify(s->heard_arg);
}

static void *listen_main(void *arg)
{
    store *s = arg;
    char payload[8192];
    for (;;) {
        pthread_mutex_lock(&s->qlock);
        bool stop = s->listen_stopping;
        pthread_mutex_unlock(&s->qlock);
        if (stop)
            break;
        int rc = s->drv->listen_wait(s->listener, 250, payload, sizeof payload);
        if (rc == 1 && payload[0])
            heard(s, payload);
        else if (rc == 2)
            heard(s, ""); /* listening again: anything may have been missed */
    }
    return NULL;
}

int store_listen_start(store *s, void (*notify)(void *), void *arg)
{
    if (!s->shared)
        return 0;
    char err[sizeof s->loop_error];
    s->heard_notify = notify;
    s->heard_arg = arg;
    if (!(s->listener = s->drv->listen_open(s->target, err, sizeof err))) {
        snprintf(s->loop_error, sizeof s->loop_error, "%s", err);
        return -1;
    }
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old); /* signals are the event loop's */
    int rc = pthread_create(&s->listen_thread, NULL, listen_main, s);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc) {
        s->drv->listen_close(s->listener);
        s->listener = NULL;
        snprintf(s->loop_error, sizeof s->loop_error, "cannot start the listener thread");
        return -1;
    }
    s->listening = true;
    return 0;
}

void store_listen_stop(store *s)
{
    if (s->listening) {
        pthread_mutex_lock(&s->qlock);
        s->listen_stopping = true;
        pthread_mutex_unlock(&s->qlock);
        pthread_join(s->listen_thread, NULL);
        s->listening = false;
    }
    if (s->listener)
        s->drv->listen_close(s->listener);
    s->listener = NULL;
    store_messages_free(store_messages(s));
}

store_message *store_messages(store *s)
{
    pthread_mutex_lock(&s->qlock);
    store_message *m = s->heard;
    s->heard = s->heard_tail = NULL;
    pthread_mutex_unlock(&s->qlock);
    return m;
}

void store_messages_free(store_message *m)
{
    while (m) {
        store_message *next = m->next;
        free(m);
        m = next;
    }
}
