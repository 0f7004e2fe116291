/*
 * store_bots.c - bots and their personal API tokens in the store (see
 * store.h, "bots"): an account becomes a bot once, if it has played no
 * rated game; a token is kept as its SHA-256 only, with its public id,
 * label and scopes, and when it was last used.
 */
#include "store_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const bot_sql[BT_COUNT] = {
    [BT_MAKE_BOT] = "UPDATE accounts SET bot = 1, bot_about = ?2 WHERE id = ?1 AND bot = 0 AND"
                    " computer = 0 AND NOT EXISTS (SELECT 1 FROM rating_history h"
                    " WHERE h.account_id = ?1)",
    [BT_TOKEN_PUT] = "INSERT INTO tokens(id, account_id, hash, label, scopes, created_at)"
                     " VALUES(?1, ?2, ?3, ?4, ?5, ?6)",
    [BT_TOKEN_LOOKUP] = "SELECT t.id, t.account_id, t.label, t.scopes, t.created_at, t.used_at,"
                        " a.id, a.name, a.computer, a.password_hash, a.bot, a.bot_about"
                        " FROM tokens t JOIN accounts a ON a.id = t.account_id WHERE t.hash = ?1"
                        " AND a.closed = 0",
    /* written at most once a minute per token: a bot's requests are many */
    [BT_TOKEN_USED] = "UPDATE tokens SET used_at = ?2 WHERE hash = ?1 AND"
                      " (used_at IS NULL OR used_at + 60000 < ?2)",
    [BT_TOKENS_OF] = "SELECT id, account_id, label, scopes, created_at, used_at FROM tokens"
                     " WHERE account_id = ?1 ORDER BY created_at DESC, id",
    [BT_TOKEN_DELETE] = "DELETE FROM tokens WHERE account_id = ?1 AND id = ?2",
    [BT_STREAM_SET] = "UPDATE tokens SET stream = ?2 WHERE id = ?1",
    [BT_STREAM_GET] = "SELECT 1 FROM tokens WHERE id = ?1 AND stream = ?2",
    [BT_BOTS] = "SELECT id, name, bot_about, seen_at FROM accounts WHERE bot = 1"
                " ORDER BY seen_at DESC NULLS LAST, name_key LIMIT ?1",
};

int store_bots_prepare(store *s) { return store_prepare_all(s, s->bt, bot_sql, BT_COUNT); }

void store_bots_finalize(store *s) { store_finalize_all(s, s->bt, BT_COUNT); }

int store_account_make_bot(store *s, int64_t account_id, const char *about)
{
    store_lock(s);
    sql_stmt *st = s->bt[BT_MAKE_BOT];
    bind_int(s, st, 1, account_id);
    bind_text(s, st, 2, about);
    return store_unlock_result(s, store_step_changed(s, st, "making an account a bot"));
}

int store_token_create(store *s, const stored_token *t, const char *hash)
{
    store_lock(s);
    sql_stmt *st = s->bt[BT_TOKEN_PUT];
    bind_text(s, st, 1, t->id);
    bind_int(s, st, 2, t->account_id);
    bind_text(s, st, 3, hash);
    bind_text(s, st, 4, t->label);
    bind_text(s, st, 5, t->scopes);
    bind_int(s, st, 6, t->created);
    return store_unlock(s, store_step_done(s, st, "storing a token"));
}

static void read_token(store *s, sql_stmt *st, void *item)
{
    stored_token *t = item;
    memset(t, 0, sizeof *t);
    store_copy_column(s, st, 0, t->id, sizeof t->id);
    t->account_id = col_int(s, st, 1);
    store_copy_column(s, st, 2, t->label, sizeof t->label);
    store_copy_column(s, st, 3, t->scopes, sizeof t->scopes);
    t->created = col_int(s, st, 4);
    t->used = col_null(s, st, 5) ? 0 : col_int(s, st, 5);
}

typedef struct {
    stored_token *token;
    stored_account *account;
} token_row;

static void read_token_row(store *s, sql_stmt *st, void *item)
{
    token_row *r = item;
    read_token(s, st, r->token);
    memset(r->account, 0, sizeof *r->account);
    store_account_columns(s, st, 6, r->account);
}

int store_token_account(store *s, const char *hash, int64_t now_ms, stored_token *token,
                        stored_account *account)
{
    store_lock(s);
    sql_stmt *st = s->bt[BT_TOKEN_LOOKUP];
    bind_text(s, st, 1, hash);
    token_row row = {token, account};
    int rc = store_read_row(s, st, read_token_row, &row, "reading a token");
    if (rc == 0) {
        st = s->bt[BT_TOKEN_USED];
        bind_text(s, st, 1, hash);
        bind_int(s, st, 2, now_ms);
        rc = store_step_done(s, st, "marking a token used");
    }
    return store_unlock_result(s, rc);
}

int store_each_token(store *s, int64_t account_id, int (*fn)(const stored_token *t, void *arg),
                     void *arg)
{
    store_lock(s);
    sql_stmt *st = s->bt[BT_TOKENS_OF];
    bind_int(s, st, 1, account_id);
    stored_token *list;
    int n;
    int out = store_unlock(
        s, store_read_rows(s, st, sizeof *list, read_token, (void **)&list, &n, "reading tokens"));
    for (int i = 0; i < n && out == 0; i++)
        if (fn(&list[i], arg))
            break;
    free(list);
    return out;
}

int store_token_delete(store *s, int64_t account_id, const char *id)
{
    store_lock(s);
    sql_stmt *st = s->bt[BT_TOKEN_DELETE];
    bind_int(s, st, 1, account_id);
    bind_text(s, st, 2, id);
    return store_unlock_result(s, store_step_changed(s, st, "revoking a token"));
}

int store_token_stream_set(store *s, const char *token_id, const char *stream)
{
    store_lock(s);
    sql_stmt *st = s->bt[BT_STREAM_SET];
    bind_text(s, st, 1, token_id);
    bind_text(s, st, 2, stream);
    return store_unlock(s, store_step_done(s, st, "opening an event stream"));
}

static void read_nothing(store *s, sql_stmt *st, void *item) { (void)s, (void)st, (void)item; }

int store_token_stream(store *s, const char *token_id, const char *stream)
{
    store_lock(s);
    sql_stmt *st = s->bt[BT_STREAM_GET];
    bind_text(s, st, 1, token_id);
    bind_text(s, st, 2, stream);
    return store_unlock_result(
        s, store_read_row(s, st, read_nothing, NULL, "reading an event stream"));
}

static void read_bot(store *s, sql_stmt *st, void *item)
{
    stored_bot *b = item;
    memset(b, 0, sizeof *b);
    b->id = col_int(s, st, 0);
    store_copy_column(s, st, 1, b->name, sizeof b->name);
    store_copy_column(s, st, 2, b->about, sizeof b->about);
    b->seen_at = col_null(s, st, 3) ? 0 : col_int(s, st, 3);
}

int store_each_bot(store *s, int max, int (*fn)(const stored_bot *b, void *arg), void *arg)
{
    store_lock(s);
    sql_stmt *st = s->bt[BT_BOTS];
    bind_int(s, st, 1, max);
    stored_bot *list;
    int n;
    int out = store_unlock(
        s, store_read_rows(s, st, sizeof *list, read_bot, (void **)&list, &n, "reading the bots"));
    for (int i = 0; i < n && out == 0; i++)
        if (fn(&list[i], arg))
            break;
    free(list);
    return out;
}
