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
};

int store_push_prepare(store *s)
{
    for (int i = 0; i < PU_COUNT; i++)
        if (!(s->pu[i] = s->drv->prepare(s->c, push_sql[i])))
            return store_fail(s, "preparing statements");
    return 0;
}

void store_push_finalize(store *s)
{
    for (int i = 0; i < PU_COUNT; i++)
        s->drv->finalize(s->pu[i]);
}

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
    if (store_step_done(s, st, "forgetting a push subscription"))
        return store_unlock(s, -1);
    return store_unlock_result(s, s->drv->changes(s->c) > 0 ? 0 : 1);
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

int store_push_forget(store *s, int64_t account_id)
{
    sql_stmt *st = s->pu[PU_FORGET_SUBSCRIPTIONS];
    bind_int(s, st, 1, account_id);
    if (store_step_done(s, st, "forgetting push subscriptions"))
        return -1;
    st = s->pu[PU_FORGET_SETTINGS];
    bind_int(s, st, 1, account_id);
    return store_step_done(s, st, "forgetting notification settings");
}
