/*
 * store_social.c - people and how they meet (store.h, "people"): who follows
 * whom, when an account was last seen, challenges from one account to
 * another, and seeks (quick pairing).
 *
 * Every server of a site reads and writes the same rows, so a challenge made
 * on one is seen on another, and two seeks made on two servers meet: a seek
 * is matched by one conditional update of both rows in one transaction,
 * which only one server can win.
 */
#include "store_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHALLENGE_COLS                                                                             \
    "c.id, c.from_id, fa.name, c.to_id, ta.name, c.variant, c.rated, c.clock, c.status,"           \
    " c.game_id, c.reason, c.created_at, c.expires_at, fa.bot, ta.bot, c.players, c.mode,"         \
    " c.to2_id, t2.name, t2.bot, c.to3_id, t3.name, t3.bot, c.accepted, c.declined_by"
/* a challenge's second and third invited (of a 3- or 4-player game) */
#define CHALLENGE_FROM                                                                             \
    " FROM challenges c JOIN accounts fa ON fa.id = c.from_id JOIN accounts ta ON ta.id = c.to_id" \
    " LEFT JOIN accounts t2 ON t2.id = c.to2_id LEFT JOIN accounts t3 ON t3.id = c.to3_id"
#define SEEK_COLS                                                                                  \
    "k.id, k.account_id, a.name, k.variant, k.rated, k.clock, k.rating, k.status, k.game_id,"      \
    " k.seat, k.created_at, k.polled_at"
#define SEEK_FROM " FROM seeks k JOIN accounts a ON a.id = k.account_id"

static const char *const social_sql[SO_COUNT] = {
    [SO_SEEN] = "UPDATE accounts SET seen_at = ?2 WHERE id = ?1",
    [SO_FOLLOW] = "INSERT INTO follows(account_id, follows_id, at) VALUES(?1, ?2, ?3)"
                  " ON CONFLICT(account_id, follows_id) DO NOTHING",
    [SO_UNFOLLOW] = "DELETE FROM follows WHERE account_id = ?1 AND follows_id = ?2",
    [SO_FOLLOWED] = "SELECT a.id, a.name, a.computer, a.seen_at, a.bot FROM follows f"
                    " JOIN accounts a ON a.id = f.follows_id WHERE f.account_id = ?1"
                    " ORDER BY a.name_key",
    [SO_SEARCH] = "SELECT id, name, computer, seen_at, bot FROM accounts"
                  " WHERE substr(name_key, 1, length(?1)) = ?1 AND closed = 0"
                  " ORDER BY name_key LIMIT ?2",
    [SO_CHALLENGE_PUT] = "INSERT INTO challenges(id, from_id, to_id, variant, rated, clock, status,"
                         " created_at, expires_at, players, mode, to2_id, to3_id)"
                         " VALUES(?1, ?2, ?3, ?4, ?5, ?6, 'open', ?7, ?8, ?9, ?10, ?11, ?12)",
    [SO_CHALLENGE_GET] = "SELECT " CHALLENGE_COLS CHALLENGE_FROM " WHERE c.id = ?1",
    [SO_CHALLENGE_SETTLE] = "UPDATE challenges SET status = ?3, game_id = ?4, reason = ?5,"
                            " declined_by = ?6 WHERE id = ?1 AND status = ?2",
    /* one update of the row: two invited accepting at once on two servers
     * both count */
    [SO_CHALLENGE_ACCEPT] = "UPDATE challenges SET accepted = accepted | CAST(?2 AS INTEGER)"
                            " WHERE id = ?1 AND status = 'open'",
    [SO_CHALLENGE_UNACCEPT] = "UPDATE challenges SET accepted = accepted & ~CAST(?2 AS INTEGER)"
                              " WHERE id = ?1 AND status = 'open'",
    [SO_CHALLENGE_EXPIRE] = "UPDATE challenges SET status = 'expired' WHERE status = 'open' AND"
                            " expires_at < ?1",
    [SO_CHALLENGES_OF] = "SELECT " CHALLENGE_COLS CHALLENGE_FROM
                         " WHERE (c.from_id = ?1 OR c.to_id = ?1 OR c.to2_id = ?1 OR"
                         " c.to3_id = ?1) AND (c.status = 'open' OR"
                         " c.created_at >= ?2) ORDER BY c.created_at DESC LIMIT 50",
    [SO_SEEK_PUT] = "INSERT INTO seeks(id, account_id, variant, rated, clock, rating, status,"
                    " created_at, polled_at) VALUES(?1, ?2, ?3, ?4, ?5, ?6, 'open', ?7, ?7)",
    [SO_SEEK_GET] = "SELECT " SEEK_COLS SEEK_FROM " WHERE k.id = ?1",
    [SO_SEEK_POLL] = "UPDATE seeks SET polled_at = ?2 WHERE id = ?1",
    /* the oldest open seek of another account for the same game, near enough
     * in rating, whose seeker still asks, and neither blocks the other
     * (moderation) */
    [SO_SEEK_PARTNER] =
        "SELECT " SEEK_COLS SEEK_FROM
        " WHERE k.status = 'open' AND k.id <> ?1 AND k.account_id <> ?2 AND"
        " k.variant = ?3 AND k.rated = ?4 AND k.clock = ?5 AND k.rating >= ?6 AND"
        " k.rating <= ?7 AND k.polled_at >= ?8 AND NOT EXISTS (SELECT 1 FROM blocks b"
        " WHERE (b.account_id = ?2 AND b.blocked_id = k.account_id) OR"
        " (b.account_id = k.account_id AND b.blocked_id = ?2))"
        " ORDER BY k.created_at, k.id LIMIT 1",
    [SO_SEEK_MATCH] = "UPDATE seeks SET status = 'matched', game_id = ?2, seat = ?3"
                      " WHERE id = ?1 AND status = 'open'",
    [SO_SEEK_CANCEL] = "UPDATE seeks SET status = 'cancelled' WHERE id = ?1 AND status = 'open'",
    [SO_SEEKS_PRUNE] = "DELETE FROM seeks WHERE polled_at < ?1",
    [SO_CHALLENGES_PRUNE] = "DELETE FROM challenges WHERE status <> 'open' AND created_at < ?1",
    [SO_OPEN_GAMES_OF] = "SELECT s.game_id, s.seat FROM seats s JOIN games g ON g.id = s.game_id"
                         " WHERE s.account_id = ?1 AND g.status IN ('waiting', 'running')"
                         " ORDER BY g.created_at DESC, s.seat LIMIT ?2",
    [SO_GAMES_OF] = "SELECT s.game_id, s.seat, g.status, g.variant, g.players, g.mode, g.rated,"
                    " g.clock FROM seats s JOIN games g ON g.id = s.game_id"
                    " WHERE s.account_id = ?1 AND g.status IN ('waiting', 'running')"
                    " ORDER BY g.created_at DESC, s.seat LIMIT ?2",
};

int store_social_prepare(store *s) { return store_prepare_all(s, s->so, social_sql, SO_COUNT); }

void store_social_finalize(store *s) { store_finalize_all(s, s->so, SO_COUNT); }

int store_account_seen(store *s, int64_t account_id, int64_t now_ms)
{
    store_lock(s);
    sql_stmt *st = s->so[SO_SEEN];
    bind_int(s, st, 1, account_id);
    bind_int(s, st, 2, now_ms);
    return store_unlock(s, store_step_done(s, st, "saying an account was seen"));
}

int store_follow(store *s, int64_t account_id, int64_t follows_id, int64_t at)
{
    store_lock(s);
    sql_stmt *st = s->so[SO_FOLLOW];
    bind_int(s, st, 1, account_id);
    bind_int(s, st, 2, follows_id);
    bind_int(s, st, 3, at);
    int rc = store_step_changed(s, st, "following a player");
    return store_unlock_result(s, rc);
}

int store_unfollow(store *s, int64_t account_id, int64_t follows_id)
{
    store_lock(s);
    sql_stmt *st = s->so[SO_UNFOLLOW];
    bind_int(s, st, 1, account_id);
    bind_int(s, st, 2, follows_id);
    int rc = store_step_changed(s, st, "unfollowing a player");
    return store_unlock_result(s, rc);
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

static int each_person(store *s, sql_stmt *st, int (*fn)(const stored_person *p, void *arg),
                       void *arg, const char *what)
{
    stored_person *list;
    int n;
    int out = store_unlock(
        s, store_read_rows(s, st, sizeof *list, read_person, (void **)&list, &n, what));
    for (int i = 0; i < n && out == 0; i++)
        if (fn(&list[i], arg))
            break;
    free(list);
    return out;
}

int store_each_followed(store *s, int64_t account_id, int (*fn)(const stored_person *p, void *arg),
                        void *arg)
{
    store_lock(s);
    bind_int(s, s->so[SO_FOLLOWED], 1, account_id);
    return each_person(s, s->so[SO_FOLLOWED], fn, arg, "reading who a player follows");
}

int store_search_players(store *s, const char *key_prefix, int max,
                         int (*fn)(const stored_person *p, void *arg), void *arg)
{
    store_lock(s);
    sql_stmt *st = s->so[SO_SEARCH];
    bind_text(s, st, 1, key_prefix);
    bind_int(s, st, 2, max);
    return each_person(s, st, fn, arg, "searching players");
}

/* --- challenges --- */

static void read_challenge(store *s, sql_stmt *st, void *item)
{
    stored_challenge *c = item;
    memset(c, 0, sizeof *c);
    store_copy_column(s, st, 0, c->id, sizeof c->id);
    c->from_id = col_int(s, st, 1);
    store_copy_column(s, st, 2, c->from_name, sizeof c->from_name);
    c->to_id[0] = col_int(s, st, 3);
    store_copy_column(s, st, 4, c->to_name[0], sizeof c->to_name[0]);
    store_copy_column(s, st, 5, c->variant, sizeof c->variant);
    c->rated = col_int(s, st, 6) != 0;
    store_copy_column(s, st, 7, c->clock, sizeof c->clock);
    store_copy_column(s, st, 8, c->status, sizeof c->status);
    store_copy_column(s, st, 9, c->game_id, sizeof c->game_id);
    store_copy_column(s, st, 10, c->reason, sizeof c->reason);
    c->created = col_int(s, st, 11);
    c->expires = col_int(s, st, 12);
    c->from_bot = col_int(s, st, 13) != 0;
    c->to_bot[0] = col_int(s, st, 14) != 0;
    c->players = (int)col_int(s, st, 15);
    store_copy_column(s, st, 16, c->mode, sizeof c->mode);
    for (int i = 1; i < STORE_CHALLENGE_TO; i++) {
        int col = 17 + 3 * (i - 1);
        if (col_null(s, st, col))
            continue;
        c->to_id[i] = col_int(s, st, col);
        store_copy_column(s, st, col + 1, c->to_name[i], sizeof c->to_name[i]);
        c->to_bot[i] = col_int(s, st, col + 2) != 0;
    }
    c->accepted = (unsigned)col_int(s, st, 23);
    c->declined_by = col_null(s, st, 24) ? 0 : col_int(s, st, 24);
}

int store_challenge_create(store *s, const stored_challenge *c)
{
    store_lock(s);
    sql_stmt *st = s->so[SO_CHALLENGE_PUT];
    bind_text(s, st, 1, c->id);
    bind_int(s, st, 2, c->from_id);
    bind_int(s, st, 3, c->to_id[0]);
    bind_text(s, st, 4, c->variant);
    bind_int(s, st, 5, c->rated);
    bind_text(s, st, 6, c->clock);
    bind_int(s, st, 7, c->created);
    bind_int(s, st, 8, c->expires);
    bind_int(s, st, 9, c->players);
    bind_text(s, st, 10, c->mode);
    for (int i = 1; i < STORE_CHALLENGE_TO; i++)
        if (c->to_id[i])
            bind_int(s, st, 10 + i, c->to_id[i]);
        else
            bind_text_or_null(s, st, 10 + i, NULL);
    return store_unlock(s, store_step_done(s, st, "storing a challenge"));
}

int store_challenge_get(store *s, const char *id, stored_challenge *out)
{
    store_lock(s);
    sql_stmt *st = s->so[SO_CHALLENGE_GET];
    bind_text(s, st, 1, id);
    return store_unlock_result(s,
                               store_read_row(s, st, read_challenge, out, "reading a challenge"));
}

int store_challenge_settle(store *s, const char *id, const char *from_status, const char *status,
                           const char *game_id, const char *reason, int64_t declined_by)
{
    store_lock(s);
    sql_stmt *st = s->so[SO_CHALLENGE_SETTLE];
    bind_text(s, st, 1, id);
    bind_text(s, st, 2, from_status);
    bind_text(s, st, 3, status);
    bind_text_or_null(s, st, 4, game_id);
    bind_text_or_null(s, st, 5, reason);
    if (declined_by)
        bind_int(s, st, 6, declined_by);
    else
        bind_text_or_null(s, st, 6, NULL);
    int rc = store_step_changed(s, st, "settling a challenge");
    return store_unlock_result(s, rc);
}

int store_challenge_answer(store *s, const char *id, int index, bool yes)
{
    store_lock(s);
    sql_stmt *st = s->so[yes ? SO_CHALLENGE_ACCEPT : SO_CHALLENGE_UNACCEPT];
    bind_text(s, st, 1, id);
    bind_int(s, st, 2, 1 << index);
    int rc = store_step_changed(s, st, "answering a challenge");
    return store_unlock_result(s, rc);
}

int store_each_challenge(store *s, int64_t account_id, int64_t now_ms, int64_t settled_since_ms,
                         int (*fn)(const stored_challenge *c, void *arg), void *arg)
{
    store_lock(s);
    sql_stmt *st = s->so[SO_CHALLENGE_EXPIRE];
    bind_int(s, st, 1, now_ms);
    if (store_step_done(s, st, "expiring challenges"))
        return store_unlock(s, -1);
    st = s->so[SO_CHALLENGES_OF];
    bind_int(s, st, 1, account_id);
    bind_int(s, st, 2, settled_since_ms);
    stored_challenge *list;
    int n;
    int out = store_unlock(s, store_read_rows(s, st, sizeof *list, read_challenge, (void **)&list,
                                              &n, "reading challenges"));
    for (int i = 0; i < n && out == 0; i++)
        if (fn(&list[i], arg))
            break;
    free(list);
    return out;
}

/* --- seeks --- */

static void read_seek(store *s, sql_stmt *st, void *item)
{
    stored_seek *k = item;
    memset(k, 0, sizeof *k);
    store_copy_column(s, st, 0, k->id, sizeof k->id);
    k->account_id = col_int(s, st, 1);
    store_copy_column(s, st, 2, k->name, sizeof k->name);
    store_copy_column(s, st, 3, k->variant, sizeof k->variant);
    k->rated = col_int(s, st, 4) != 0;
    store_copy_column(s, st, 5, k->clock, sizeof k->clock);
    k->rating = (int)col_int(s, st, 6);
    store_copy_column(s, st, 7, k->status, sizeof k->status);
    store_copy_column(s, st, 8, k->game_id, sizeof k->game_id);
    k->seat = col_null(s, st, 9) ? -1 : (int)col_int(s, st, 9);
    k->created = col_int(s, st, 10);
    k->polled = col_int(s, st, 11);
}

int store_seek_create(store *s, const stored_seek *k)
{
    store_lock(s);
    sql_stmt *st = s->so[SO_SEEK_PUT];
    bind_text(s, st, 1, k->id);
    bind_int(s, st, 2, k->account_id);
    bind_text(s, st, 3, k->variant);
    bind_int(s, st, 4, k->rated);
    bind_text(s, st, 5, k->clock);
    bind_int(s, st, 6, k->rating);
    bind_int(s, st, 7, k->created);
    return store_unlock(s, store_step_done(s, st, "storing a seek"));
}

int store_seek_get(store *s, const char *id, stored_seek *out)
{
    store_lock(s);
    sql_stmt *st = s->so[SO_SEEK_GET];
    bind_text(s, st, 1, id);
    return store_unlock_result(s, store_read_row(s, st, read_seek, out, "reading a seek"));
}

int store_seek_poll(store *s, const char *id, int64_t now_ms)
{
    store_lock(s);
    sql_stmt *st = s->so[SO_SEEK_POLL];
    bind_text(s, st, 1, id);
    bind_int(s, st, 2, now_ms);
    return store_unlock(s, store_step_done(s, st, "keeping a seek"));
}

int store_seek_partner(store *s, const stored_seek *k, int window, int64_t alive_since_ms,
                       stored_seek *out)
{
    store_lock(s);
    sql_stmt *st = s->so[SO_SEEK_PARTNER];
    bind_text(s, st, 1, k->id);
    bind_int(s, st, 2, k->account_id);
    bind_text(s, st, 3, k->variant);
    bind_int(s, st, 4, k->rated);
    bind_text(s, st, 5, k->clock);
    bind_int(s, st, 6, k->rating - window);
    bind_int(s, st, 7, k->rating + window);
    bind_int(s, st, 8, alive_since_ms);
    return store_unlock_result(s, store_read_row(s, st, read_seek, out, "looking for a partner"));
}

int store_seek_match(store *s, const char *a, int seat_a, const char *b, int seat_b,
                     const char *game_id)
{
    store_lock(s);
    if (store_begin(s))
        return store_unlock(s, -1);
    sql_stmt *st = s->so[SO_SEEK_MATCH];
    int rc = 0;
    const char *ids[2] = {a, b};
    int seats[2] = {seat_a, seat_b};
    for (int i = 0; i < (b ? 2 : 1) && rc == 0; i++) {
        bind_text(s, st, 1, ids[i]);
        bind_text(s, st, 2, game_id);
        bind_int(s, st, 3, seats[i]);
        rc = store_step_changed(s, st, "matching seeks");
    }
    if (rc != 0) {
        store_rollback(s);
        return store_unlock_result(s, rc);
    }
    return store_unlock(s, store_commit(s) ? store_rollback(s) : 0);
}

int store_seek_cancel(store *s, const char *id)
{
    store_lock(s);
    sql_stmt *st = s->so[SO_SEEK_CANCEL];
    bind_text(s, st, 1, id);
    int rc = store_step_changed(s, st, "cancelling a seek");
    return store_unlock_result(s, rc);
}

typedef struct {
    char id[24];
    int seat;
} open_seat;

static void read_open_seat(store *s, sql_stmt *st, void *item)
{
    open_seat *o = item;
    store_copy_column(s, st, 0, o->id, sizeof o->id);
    o->seat = (int)col_int(s, st, 1);
}

int store_each_open_game_of(store *s, int64_t account_id, int max,
                            int (*fn)(const char *id, int seat, void *arg), void *arg)
{
    store_lock(s);
    sql_stmt *st = s->so[SO_OPEN_GAMES_OF];
    bind_int(s, st, 1, account_id);
    bind_int(s, st, 2, max);
    open_seat *list;
    int n;
    int out = store_unlock(s, store_read_rows(s, st, sizeof *list, read_open_seat, (void **)&list,
                                              &n, "reading an account's games"));
    for (int i = 0; i < n && out == 0; i++)
        if (fn(list[i].id, list[i].seat, arg))
            break;
    free(list);
    return out;
}

int store_social_prune(store *s, int64_t seeks_before_ms, int64_t challenges_before_ms)
{
    store_lock(s);
    sql_stmt *st = s->so[SO_SEEKS_PRUNE];
    bind_int(s, st, 1, seeks_before_ms);
    int rc = store_step_done(s, st, "forgetting old seeks");
    st = s->so[SO_CHALLENGES_PRUNE];
    bind_int(s, st, 1, challenges_before_ms);
    if (rc == 0)
        rc = store_step_done(s, st, "forgetting old challenges");
    return store_unlock(s, rc);
}

static void read_game_of(store *s, sql_stmt *st, void *item)
{
    stored_game_of *g = item;
    memset(g, 0, sizeof *g);
    store_copy_column(s, st, 0, g->id, sizeof g->id);
    g->seat = (int)col_int(s, st, 1);
    store_copy_column(s, st, 2, g->status, sizeof g->status);
    store_copy_column(s, st, 3, g->variant, sizeof g->variant);
    g->players = (int)col_int(s, st, 4);
    store_copy_column(s, st, 5, g->mode, sizeof g->mode);
    g->rated = col_int(s, st, 6) != 0;
    store_copy_column(s, st, 7, g->clock, sizeof g->clock);
}

int store_each_game_of(store *s, int64_t account_id, int max,
                       int (*fn)(const stored_game_of *g, void *arg), void *arg)
{
    store_lock(s);
    sql_stmt *st = s->so[SO_GAMES_OF];
    bind_int(s, st, 1, account_id);
    bind_int(s, st, 2, max);
    stored_game_of *list;
    int n;
    int out = store_unlock(s, store_read_rows(s, st, sizeof *list, read_game_of, (void **)&list, &n,
                                              "reading an account's games"));
    for (int i = 0; i < n && out == 0; i++)
        if (fn(&list[i], arg))
            break;
    free(list);
    return out;
}
