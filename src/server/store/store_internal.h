/*
 * store_internal.h - what the store's logic files (store.c: games and the
 * writer thread; store_accounts.c: accounts, sessions, ratings;
 * store_copy.c: axio db copy) share: the store's struct and small helpers
 * over the SQL driver (sql.h). Nothing outside src/server/store/ includes it.
 */
#ifndef AX_STORE_INTERNAL_H
#define AX_STORE_INTERNAL_H

#include "sql.h"
#include "store.h"

#include <pthread.h>

/* The games' statements (store.c). */
enum {
    ST_INSERT_GAME,
    ST_INSERT_SEAT,
    ST_TAKE_SEAT,
    ST_SET_TOKEN,
    ST_SET_STATUS,
    ST_SET_REMATCH,
    ST_SET_CLOCKS,
    ST_SET_END,
    ST_SET_DAMAGED,
    ST_INSERT_DECISION,
    ST_INSERT_CHAT,
    ST_PUT_ANALYSIS,
    ST_GET_ANALYSIS,
    ST_UNFINISHED,
    ST_FINISHED,
    ST_GAME,
    ST_SEATS,
    ST_DECISIONS,
    ST_DECISIONS_AS_STORED,
    ST_CHAT,
    ST_WAITING_BY,
    ST_TAKE_BACK,
    ST_GAMES_IN,
    ST_SEATS_IN,
    ST_COUNT
};

/* The statements of the servers of one site (store_owners.c). */
enum {
    OW_TAKE,
    OW_HOLDER,
    OW_RENEW,
    OW_SEEN,
    OW_MINE,
    OW_RELEASE,
    OW_RELEASE_ALL,
    OW_PRUNE,
    OW_FORGET,
    OW_ORPHANS,
    OW_ALIVE,
    OW_ENTRIES,
    OW_GET_ENTRY,
    OW_FENCE,
    OW_SET_ENTRY,
    OW_REGISTER,
    OW_ADDRESS,
    OW_PEERS,
    OW_SITE_PUT,
    OW_SITE_GET,
    OW_BUDGET_TAKE,
    OW_BUDGET_AT,
    OW_BUDGET_PRUNE,
    OW_COUNT
};

/* The accounts' statements (store_accounts.c). */
enum {
    AC_INSERT,
    AC_COMPUTER,
    AC_BY_KEY,
    AC_BY_ID,
    AC_SET_PASSWORD,
    AC_DELETE,
    AC_SEATS_NEUTRAL,
    AC_RATINGS_DELETE,
    AC_HISTORY_DELETE,
    AC_SESSIONS_DELETE_ALL,
    AC_TOKENS_DELETE_ALL,
    AC_SESSION_INSERT,
    AC_SESSION_LOOKUP,
    AC_SESSION_DELETE,
    AC_SESSION_DELETE_OTHERS,
    AC_SESSION_PRUNE,
    AC_SESSION_CAP,
    AC_RATING_GET,
    AC_RATING_PUT,
    AC_HISTORY_INSERT,
    AC_SEAT_ACCOUNTS,
    AC_SEAT_PLACE,
    AC_PLAYER_GAMES,
    AC_LEADERBOARD,
    AC_BY_SKELETON,
    AC_ALL_SKELETONS,
    AC_SET_SKELETON,
    AC_BLOCKS_DELETE,
    AC_HELD_DELETE,
    AC_COUNT
};

/* The statements of bots and their tokens (store_bots.c). */
enum {
    BT_MAKE_BOT,
    BT_TOKEN_PUT,
    BT_TOKEN_LOOKUP,
    BT_TOKEN_USED,
    BT_TOKENS_OF,
    BT_TOKEN_DELETE,
    BT_STREAM_SET,
    BT_STREAM_GET,
    BT_BOTS,
    BT_COUNT
};

/* The statements of notifications (store_push.c). */
enum {
    PU_DELETE_ENDPOINT,
    PU_INSERT,
    PU_CAP,
    PU_DELETE_OF,
    PU_OF,
    PU_SETTINGS,
    PU_SETTINGS_SET,
    PU_FORGET_SUBSCRIPTIONS,
    PU_FORGET_SETTINGS,
    PU_EMAIL_SET,
    PU_EMAIL_GET,
    PU_EMAIL_BY_TOKEN,
    PU_EMAIL_VERIFY,
    PU_EMAIL_DELETE,
    PU_EMAIL_DIGEST,
    PU_EMAIL_DUE,
    PU_COUNT
};

/* The statements of people and how they meet (store_social.c). */
enum {
    SO_SEEN,
    SO_FOLLOW,
    SO_UNFOLLOW,
    SO_FOLLOWED,
    SO_SEARCH,
    SO_CHALLENGE_PUT,
    SO_CHALLENGE_GET,
    SO_CHALLENGE_SETTLE,
    SO_CHALLENGE_ACCEPT,
    SO_CHALLENGE_UNACCEPT,
    SO_CHALLENGE_EXPIRE,
    SO_CHALLENGES_OF,
    SO_SEEK_PUT,
    SO_SEEK_GET,
    SO_SEEK_POLL,
    SO_SEEK_PARTNER,
    SO_SEEK_MATCH,
    SO_SEEK_CANCEL,
    SO_SEEKS_PRUNE,
    SO_CHALLENGES_PRUNE,
    SO_OPEN_GAMES_OF,
    SO_GAMES_OF,
    SO_COUNT
};

/* The statements of moderation (store_moderation.c). */
enum {
    MO_ROLE_GET,
    MO_BY_NAME,
    MO_ROLES,
    MO_ROLE_SET,
    MO_BLOCK,
    MO_UNBLOCK,
    MO_BLOCKED,
    MO_BLOCKS_OF,
    MO_REPORT_PUT,
    MO_REPORT_GET,
    MO_REPORTS,
    MO_REPORT_CLOSE,
    MO_REPORT_OPEN_LIKE,
    MO_SANCTION_PUT,
    MO_SANCTION_GET,
    MO_SANCTION_LIFT,
    MO_SANCTIONS_OF,
    MO_RESTRICTION,
    MO_WARNINGS,
    MO_WARNINGS_SEEN,
    MO_CLOSE,
    MO_CLOSE_SEATS,
    MO_REOPEN_SEATS,
    MO_SESSIONS_DELETE,
    MO_HOLD,
    MO_HELD,
    MO_RELEASE,
    MO_RENAME,
    MO_RENAME_SEATS,
    MO_LOG_PUT,
    MO_LOG,
    MO_CHAT_LINES,
    MO_QUICK_LOSSES,
    MO_LOSSES_TO,
    MO_COUNT
};

/* The statements of events (store_events.c). */
enum {
    EV_PUT,
    EV_GET,
    EV_LIST,
    EV_ORGANISED,
    EV_BY_ADDR,
    EV_OF,
    EV_STATUS_OF,
    EV_PLAYERS,
    EV_JOIN,
    EV_WITHDRAW,
    EV_SET_STATUS,
    EV_ENTRANTS,
    EV_TABLES,
    EV_ENDED,
    EV_LEASE,
    EV_FENCE_ROUND,
    EV_FENCE,
    EV_TABLE_PUT,
    EV_TABLE_END,
    EV_MISS,
    EV_OF_GAME,
    EV_DUE,
    EV_COUNT
};

struct store {
    const sql_driver *drv;
    sql_conn *c;
    sql_stmt *st[ST_COUNT];
    sql_stmt *ac[AC_COUNT];
    sql_stmt *so[SO_COUNT];
    sql_stmt *bt[BT_COUNT];
    sql_stmt *mo[MO_COUNT];
    sql_stmt *pu[PU_COUNT];
    sql_stmt *ev[EV_COUNT];
    sql_stmt *ow[OW_COUNT];
    bool shared; /* a server's store, shared with the site's other servers */
    sql_stmt *copy_st[STORE_T_COUNT][4]; /* store_copy.c's, prepared when first used */
    char error[256];                     /* the last failure, under the lock */
    char loop_error[256];                /* what store_error shows the caller */
    pthread_mutex_t lock;
    /* the writer thread */
    pthread_mutex_t qlock;
    pthread_cond_t wake;
    store_write *queue, *queue_tail, *done, *done_tail;
    bool writer_running, stopping;
    pthread_t writer;
    void (*notify)(void *);
    void *notify_arg;
    /* the listener thread (store_owners.c) */
    sql_listener *listener;
    pthread_t listen_thread;
    bool listening, listen_stopping;
    store_message *heard, *heard_tail; /* under qlock */
    void (*heard_notify)(void *);
    void *heard_arg;
    char target[1024];
};

/* Takes the connection's lock; store_unlock(s, rc) releases it and
 * returns rc, copying the error text for the caller when rc != 0. */
void store_lock(store *s);
int store_unlock(store *s, int rc);
/* Sets the error from the driver's with `what` first; returns -1. */
int store_fail(store *s, const char *what);
/* store_unlock of a result 0, 1 (none, not changed) or -1: the error is
 * kept for -1 only; returns the result, or -1 when unlocking failed. */
int store_unlock_result(store *s, int rc);
/* Fills one item from the statement's current row. */
typedef void (*store_row_reader)(store *s, sql_stmt *st, void *item);
/* Steps a statement (its arguments bound) that gives at most one row: 0
 * with the row read into out, 1 when there is none, -1 on error (`what`
 * first); resets it. */
int store_read_row(store *s, sql_stmt *st, store_row_reader read, void *out, const char *what);
/* Reads every row into a grown array of `size`-byte items: 0 with *list
 * (malloc'd, NULL when none; the caller frees it) and *n, or -1 on error or
 * out of memory (`what` first); resets it. A caller hands the items to its
 * callback after store_unlock, so that the callback may use the store. */
int store_read_rows(store *s, sql_stmt *st, size_t size, store_row_reader read, void **list, int *n,
                    const char *what);
/* Runs a statement to completion and resets it; -1 on error. */
int store_step_done(store *s, sql_stmt *st, const char *what);
/* store_step_done of a change: 0 when it changed a row, 1 when none, -1. */
int store_step_changed(store *s, sql_stmt *st, const char *what);
/* A module's statements: sql[i] prepared into stmts[i], 0 or -1; and
 * finalized (those prepared). */
int store_prepare_all(store *s, sql_stmt **stmts, const char *const *sql, int n);
void store_finalize_all(store *s, sql_stmt **stmts, int n);
int store_begin(store *s);
int store_commit(store *s);
/* Rolls back; always returns -1. */
int store_rollback(store *s);

/* The driver's calls, shorter. */
static inline void bind_int(store *s, sql_stmt *st, int i, int64_t v)
{
    s->drv->bind_int64(st, i, v);
}
static inline void bind_double(store *s, sql_stmt *st, int i, double v)
{
    s->drv->bind_double(st, i, v);
}
static inline void bind_text(store *s, sql_stmt *st, int i, const char *v)
{
    s->drv->bind_text(st, i, v);
}
/* Text, or NULL for an empty or absent one. */
static inline void bind_text_or_null(store *s, sql_stmt *st, int i, const char *v)
{
    s->drv->bind_text(st, i, v && *v ? v : NULL);
}
static inline int step(store *s, sql_stmt *st) { return s->drv->step(st); }
static inline void reset(store *s, sql_stmt *st) { s->drv->reset(st); }
static inline bool col_null(store *s, sql_stmt *st, int c) { return s->drv->column_null(st, c); }
static inline int64_t col_int(store *s, sql_stmt *st, int c) { return s->drv->column_int64(st, c); }
static inline double col_double(store *s, sql_stmt *st, int c)
{
    return s->drv->column_double(st, c);
}
static inline const char *col_text(store *s, sql_stmt *st, int c)
{
    return s->drv->column_text(st, c);
}
/* A text column into a buffer; "" for NULL. */
void store_copy_column(store *s, sql_stmt *st, int col, char *out, size_t size);

/* store_owners.c: prepares its statements (a server's SQLite store
 * forgets the leases of its last run: it is the file's only server);
 * fences a write inside the writer's transaction (-1 with lease_lost when
 * another server holds the game); a lobby entry's write. */
int store_owners_open(store *s, const char *target, bool server);
void store_owners_finalize(store *s);
void store_listen_stop(store *s);
int store_fence(store *s, store_write *w);
int store_set_entry(store *s, const store_write *w);

/* store_copy.c */
void store_copy_finalize(store *s);

/* store_accounts.c */
int store_accounts_prepare(store *s);
void store_accounts_finalize(store *s);
/* An account's columns "id, name, computer, password_hash, bot, bot_about"
 * from column c of the current row. */
void store_account_columns(store *s, sql_stmt *st, int c, stored_account *out);
/* store_bots.c */
int store_bots_prepare(store *s);
void store_bots_finalize(store *s);
/* store_push.c; store_push_forget: inside an account's deletion */
int store_push_prepare(store *s);
void store_push_finalize(store *s);
int store_push_forget(store *s, int64_t account_id);
/* store_social.c */
int store_social_prepare(store *s);
void store_social_finalize(store *s);
/* store_moderation.c */
int store_moderation_prepare(store *s);
void store_moderation_finalize(store *s);
/* store_events.c */
int store_events_prepare(store *s);
void store_events_finalize(store *s);
/* Inside the writer's transaction, after the decision that ended a game:
 * every seat's place, and for a rated game the ratings (w's results). */
int store_game_end(store *s, store_write *w);

#endif
