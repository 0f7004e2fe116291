/*
 * store.h - games and their decisions in SQLite, the server's memory across
 * restarts.
 *
 * A game is its configuration, its seed and its seats (a seat token only as
 * its SHA-256), plus the list of decisions taken in it, in order. Nothing
 * else is stored: the engine rebuilds every position by replaying the
 * decisions from the seed. Each write is its own committed transaction and
 * returns only once committed, so the caller may then announce it.
 */
#ifndef AX_SERVER_STORE_H
#define AX_SERVER_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define STORE_NAME_MAX 32

typedef struct store store;

typedef struct {
    char kind[8];   /* human | ai */
    char level[24]; /* ai: the player's name */
    char name[STORE_NAME_MAX + 1];
    char token_hash[65]; /* hex; empty while the seat is free */
} stored_seat;

typedef struct {
    char id[24];
    char variant[8];
    char mode[12];
    char status[8]; /* waiting | running | over */
    int players;
    uint64_t seed;
    int64_t created; /* unix seconds */
    stored_seat seats[4];
    int ndecisions;
    char **decisions; /* JSON text of each decision, ply order */
} stored_game;

/* Opens (or creates) the database. Refuses, without writing anything, a file
 * that is not an axio database, is damaged, or is used by another server;
 * the reason goes to err. */
store *store_open(const char *path, bool sync_full, char *err, size_t errlen);
void store_close(store *s);
const char *store_error(store *s);

int store_create_game(store *s, const stored_game *g);
/* Records that a seat was taken; status is the game's status after it. */
int store_take_seat(store *s, const char *id, int seat, const char *name, const char *token_hash,
                    const char *status);
/* A decision to store: number `ply` of a game; status is the game's new
 * status, or NULL when unchanged. */
typedef struct store_write {
    void *owner; /* the caller's, untouched */
    char game_id[24];
    int ply, seat;
    char *decision; /* JSON text, malloc'd; freed with the write */
    const char *status;
    int result;      /* after completion: 0 committed, -1 failed */
    char error[256]; /* why it failed */
    struct store_write *next;
} store_write;

/* Starts the writer thread; notify(arg) is called after each batch. */
int store_writer_start(store *s, void (*notify)(void *), void *arg);
/* Queues a write; the store owns it until store_writer_done returns it. */
void store_writer_submit(store *s, store_write *w);
/* The completed writes, oldest first, as a list; NULL if none. */
store_write *store_writer_done(store *s);
void store_write_free(store_write *w);
/* Commits what is queued, then stops the thread; completed writes are
 * freed without being returned. */
void store_writer_stop(store *s);
/* Calls fn for each game that is not over, oldest first. */
int store_each_unfinished(store *s, int (*fn)(const char *id, void *arg), void *arg);
/* Reads a game and its decisions: 0, 1 when there is no such game, -1 on
 * error. stored_game_free releases the decisions. */
int store_load(store *s, const char *id, stored_game *out);
void stored_game_free(stored_game *g);

#endif
