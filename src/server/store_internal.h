/*
 * store_internal.h - what store.c (games) and store_accounts.c (accounts,
 * sessions, ratings) share: the store's struct and its small helpers.
 * Nothing outside these two files includes it.
 */
#ifndef AX_SERVER_STORE_INTERNAL_H
#define AX_SERVER_STORE_INTERNAL_H

#include "store.h"

#include <pthread.h>
#include <sqlite3.h>

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
    ST_UNFINISHED,
    ST_FINISHED,
    ST_GAME,
    ST_SEATS,
    ST_DECISIONS,
    ST_DECISIONS_AS_STORED,
    ST_CHAT,
    ST_BEGIN,
    ST_COMMIT,
    ST_ROLLBACK,
    ST_COUNT
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
    AC_SESSION_INSERT,
    AC_SESSION_LOOKUP,
    AC_SESSION_DELETE,
    AC_SESSION_DELETE_OTHERS,
    AC_SESSION_PRUNE,
    AC_RATING_GET,
    AC_RATING_PUT,
    AC_HISTORY_INSERT,
    AC_SEAT_ACCOUNTS,
    AC_SEAT_PLACE,
    AC_PLAYER_GAMES,
    AC_LEADERBOARD,
    AC_BY_SKELETON,
    AC_NO_SKELETON,
    AC_SET_SKELETON,
    AC_COUNT
};

struct store {
    sqlite3 *db;
    sqlite3_stmt *st[ST_COUNT];
    sqlite3_stmt *ac[AC_COUNT];
    char error[256];      /* the last failure, under the lock */
    char loop_error[256]; /* what store_error shows the caller */
    pthread_mutex_t lock;
    /* the writer thread */
    pthread_mutex_t qlock;
    pthread_cond_t wake;
    store_write *queue, *queue_tail, *done, *done_tail;
    bool writer_running, stopping;
    pthread_t writer;
    void (*notify)(void *);
    void *notify_arg;
};

/* Takes the connection's lock; store_unlock(s, rc) releases it and
 * returns rc, copying the error text for the caller when rc != 0. */
void store_lock(store *s);
int store_unlock(store *s, int rc);
/* Sets the error from SQLite's with `what` first; returns -1. */
int store_fail(store *s, const char *what);
int store_exec(store *s, const char *sql);
/* Runs a prepared statement to completion and resets it; -1 on error. */
int store_step_done(store *s, sqlite3_stmt *st, const char *what);
/* Binds text, or NULL for an empty or absent one. */
void store_bind_text(sqlite3_stmt *st, int i, const char *text);
int store_begin(store *s);
int store_commit(store *s);
/* Rolls back; always returns -1. */
int store_rollback(store *s);

/* store_accounts.c */
int store_accounts_prepare(store *s);
void store_accounts_finalize(store *s);
/* Inside the writer's transaction, after the decision that ended a game:
 * every seat's place, and for a rated game the ratings (w's results). */
int store_game_end(store *s, store_write *w);

#endif
