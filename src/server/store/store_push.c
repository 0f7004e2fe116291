/*
 * store_push.c - notifications in the store (store.h, "notifications";
 * issue 52): an account's Web Push subscriptions, the newest few kept, and
 * its notification settings. The site's VAPID key pair is a secret of the
 * site (store_site_secret), not kept here.
 */
#include "store_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const push_sql[PU_COUNT] = {
    [PU_DELETE_ENDPOINT] = "DELETE FROM push_subscriptions WHERE endpoint = ?1",
    [PU_INSERT] = "INSERT INTO push_subscriptions(endpoint, account_id, p256dh, auth, created_at)"
                  " VALUES(?1, ?2, ?3, ?4, ?5)",
    /* the account's newest ?2 stay */
    [PU_CAP] = "DELETE FROM push_subscriptions WHERE account_id = ?1 AND endpoint NOT IN"
               " (SELECT endpoint FROM push_subscriptions WHERE account_id = ?1"
               " ORDER BY created_at DESC, endpoint LIMIT ?2)",
    [PU_DELETE_OF] = "DELETE FROM push_subscriptions WHERE endpoint = ?2 AND"
                     " (account_id = ?1 OR ?1 = 0)",
    [PU_OF] = "SELECT endpoint, account_id, p256dh, auth, created_at FROM push_subscriptions"
              " WHERE account_id = ?1 ORDER BY created_at DESC, endpoint",
    [PU_SETTINGS] = "SELECT lang, prefs FROM notify_settings WHERE account_id = ?1",
    [PU_SETTINGS_SET] = "INSERT INTO notify_settings(account_id, lang, prefs) VALUES(?1, ?2, ?3)"
                        " ON CONFLICT(account_id) DO UPDATE SET lang = excluded.lang,"
                        " prefs = excluded.prefs",
    [PU_FORGET_SUBSCRIPTIONS] = "DELETE FROM push_subscriptions WHERE account_id = ?1",
    [PU_FORGET_SETTINGS] = "DELETE FROM notify_settings WHERE account_id = ?1",
    [PU_EMAIL_SET] = "INSERT INTO email_addresses(account_id, address, verified, token_hash,"
                     " digest_at) VALUES(?1, ?2, 0, ?3, 0) ON CONFLICT(account_id) DO UPDATE"
                     " SET address = excluded.address, verified = 0,"
                     " token_hash = excluded.token_hash, digest_at = 0",
    [PU_EMAIL_GET] = "SELECT account_id, address, verified, token_hash, digest_at"
                     " FROM email_addresses WHERE account_id = ?1",
    [PU_EMAIL_BY_TOKEN] = "SELECT account_id, address, verified, token_hash, digest_at"
                          " FROM email_addresses WHERE token_hash = ?1",
    [PU_EMAIL_VERIFY] = "UPDATE email_addresses SET verified = 1 WHERE account_id = ?1",
    [PU_EMAIL_DELETE] = "DELETE FROM email_addresses WHERE account_id = ?1",
    [PU_EMAIL_DIGEST] = "UPDATE email_addresses SET digest_at = ?2, token_hash = ?3"
                        " WHERE account_id = ?1",
    [PU_EMAIL_DUE] = "SELECT account_id, address, verified, token_hash, digest_at"
                     " FROM email_addresses WHERE verified = 1 AND digest_at < ?1"
                     " ORDER BY account_id",
};

int store_push_prepare(store *s) { return store_prepare_all(s, s->pu, push_sql, PU_COUNT); }

void store_push_finalize(store *s) { store_finalize_all(s, s->pu, PU_COUNT); }

int store_push_subscribe(store *s, const stored_subscription *sub, int max)
{
    store_lock(s);
    if (store_begin(s))
        return store_unlock(s, -1);
    sql_stmt *st = s->pu[PU_DELETE_ENDPOINT];
    bind_text(s, st, 1, sub->endpoint);
    int rc = store_step_done(s, st, "replacing a push subscription");
    if (rc == 0) {
        st = s->pu[PU_INSERT];
        bind_text(s, st, 1, sub->endpoint);
        bind_int(s, st, 2, sub->account_id);
        bind_text(s, st, 3, sub->p256dh);
        bind_text(s, st, 4, sub->auth);
        bind_int(s, st, 5, sub->created);
        rc = store_step_done(s, st, "storing a push subscription");
    }
    if (rc == 0) {
        st = s->pu[PU_CAP];
        bind_int(s, st, 1, sub->account_id);
        bind_int(s, st, 2, max);
        rc = store_step_done(s, st, "keeping an account's newest push subscriptions");
    }
    if (rc == 0)
        rc = store_commit(s);
    return store_unlock(s, rc ? store_rollback(s) : 0);
}

int store_push_unsubscribe(store *s, int64_t account_id, const char *endpoint)
{
    store_lock(s);
    sql_stmt *st = s->pu[PU_DELETE_OF];
    bind_int(s, st, 1, account_id);
    bind_text(s, st, 2, endpoint);
    return store_unlock_result(s, store_step_changed(s, st, "forgetting a push subscription"));
}

static void read_subscription(store *s, sql_stmt *st, void *item)
{
    stored_subscription *sub = item;
    memset(sub, 0, sizeof *sub);
    store_copy_column(s, st, 0, sub->endpoint, sizeof sub->endpoint);
    sub->account_id = col_int(s, st, 1);
    store_copy_column(s, st, 2, sub->p256dh, sizeof sub->p256dh);
    store_copy_column(s, st, 3, sub->auth, sizeof sub->auth);
    sub->created = col_int(s, st, 4);
}

int store_each_subscription(store *s, int64_t account_id,
                            int (*fn)(const stored_subscription *sub, void *arg), void *arg)
{
    store_lock(s);
    sql_stmt *st = s->pu[PU_OF];
    bind_int(s, st, 1, account_id);
    stored_subscription *list;
    int n;
    int out = store_unlock(s, store_read_rows(s, st, sizeof *list, read_subscription,
                                              (void **)&list, &n, "reading push subscriptions"));
    for (int i = 0; i < n && out == 0; i++)
        if (fn(&list[i], arg))
            break;
    free(list);
    return out;
}

typedef struct {
    char *lang, *prefs;
} settings_row;

static void read_settings(store *s, sql_stmt *st, void *item)
{
    settings_row *r = item;
    store_copy_column(s, st, 0, r->lang, 8);
    store_copy_column(s, st, 1, r->prefs, STORE_PREFS_MAX + 1);
}

int store_notify_settings(store *s, int64_t account_id, char lang[8],
                          char prefs[STORE_PREFS_MAX + 1])
{
    lang[0] = prefs[0] = 0;
    store_lock(s);
    sql_stmt *st = s->pu[PU_SETTINGS];
    bind_int(s, st, 1, account_id);
    settings_row row = {lang, prefs};
    return store_unlock_result(
        s, store_read_row(s, st, read_settings, &row, "reading notification settings"));
}

int store_notify_settings_set(store *s, int64_t account_id, const char *lang, const char *prefs)
{
    store_lock(s);
    sql_stmt *st = s->pu[PU_SETTINGS_SET];
    bind_int(s, st, 1, account_id);
    bind_text(s, st, 2, lang);
    bind_text(s, st, 3, prefs);
    return store_unlock(s, store_step_done(s, st, "storing notification settings"));
}

static void read_email(store *s, sql_stmt *st, void *item)
{
    stored_email *e = item;
    memset(e, 0, sizeof *e);
    e->account_id = col_int(s, st, 0);
    store_copy_column(s, st, 1, e->address, sizeof e->address);
    e->verified = col_int(s, st, 2) != 0;
    store_copy_column(s, st, 3, e->token_hash, sizeof e->token_hash);
    e->digest_at = col_int(s, st, 4);
}

int store_email_set(store *s, int64_t account_id, const char *address, const char *token_hash)
{
    store_lock(s);
    sql_stmt *st = s->pu[PU_EMAIL_SET];
    bind_int(s, st, 1, account_id);
    bind_text(s, st, 2, address);
    bind_text(s, st, 3, token_hash);
    return store_unlock(s, store_step_done(s, st, "storing an e-mail address"));
}

static int email_one(store *s, int which, int64_t id, const char *text, stored_email *out)
{
    store_lock(s);
    sql_stmt *st = s->pu[which];
    if (text)
        bind_text(s, st, 1, text);
    else
        bind_int(s, st, 1, id);
    return store_unlock_result(s,
                               store_read_row(s, st, read_email, out, "reading an e-mail address"));
}

int store_email_get(store *s, int64_t account_id, stored_email *out)
{
    return email_one(s, PU_EMAIL_GET, account_id, NULL, out);
}

int store_email_by_token(store *s, const char *token_hash, stored_email *out)
{
    return email_one(s, PU_EMAIL_BY_TOKEN, 0, token_hash, out);
}

static int email_change(store *s, int which, int64_t account_id, const char *token_hash, int64_t at)
{
    store_lock(s);
    sql_stmt *st = s->pu[which];
    bind_int(s, st, 1, account_id);
    if (which == PU_EMAIL_DIGEST) {
        bind_int(s, st, 2, at);
        bind_text(s, st, 3, token_hash);
    }
    return store_unlock_result(s, store_step_changed(s, st, "changing an e-mail address"));
}

int store_email_verify(store *s, int64_t account_id)
{
    return email_change(s, PU_EMAIL_VERIFY, account_id, NULL, 0);
}

int store_email_delete(store *s, int64_t account_id)
{
    return email_change(s, PU_EMAIL_DELETE, account_id, NULL, 0);
}

int store_email_digest_sent(store *s, int64_t account_id, const char *token_hash, int64_t at_ms)
{
    return email_change(s, PU_EMAIL_DIGEST, account_id, token_hash, at_ms);
}

int store_each_email_due(store *s, int64_t before_ms, int (*fn)(const stored_email *e, void *arg),
                         void *arg)
{
    store_lock(s);
    sql_stmt *st = s->pu[PU_EMAIL_DUE];
    bind_int(s, st, 1, before_ms);
    stored_email *list;
    int n;
    int out = store_unlock(s, store_read_rows(s, st, sizeof *list, read_email, (void **)&list, &n,
                                              "reading e-mail addresses"));
    for (int i = 0; i < n && out == 0; i++)
        if (fn(&list[i], arg))
            break;
    free(list);
    return out;
}

int store_push_forget(store *s, int64_t account_id)
{
    sql_stmt *st = s->pu[PU_FORGET_SUBSCRIPTIONS];
    bind_int(s, st, 1, account_id);
    if (store_step_done(s, st, "forgetting push subscriptions"))
        return -1;
    st = s->pu[PU_FORGET_SETTINGS];
    bind_int(s, st, 1, account_id);
    if (store_step_done(s, st, "forgetting notification settings"))
        return -1;
    st = s->pu[PU_EMAIL_DELETE];
    bind_int(s, st, 1, account_id);
    return store_step_done(s, st, "forgetting an e-mail address");
}
