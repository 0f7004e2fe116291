/*
 * harness.h - the game service driven in-process, for its unit tests: a
 * service over the fake store (fake_store.h) with hooks of the test's own
 * that stand for the transport. Each connection records every message the
 * service sent it, and whether it was closed; time is the test's (h->now),
 * moved with h_advance.
 */
#ifndef AX_TESTS_HARNESS_H
#define AX_TESTS_HARNESS_H

#include "../../../src/server/game/clock.h"
#include "../../../src/server/game/game.h"
#include "../../../src/server/game/lobby.h"
#include "../../../src/server/game/play.h"
#include "fake_store.h"

#include <jansson.h>
#include <stdatomic.h>

/* A fake connection: what the transport would have written to it. */
typedef struct {
    viewer *v;
    char **texts;
    int n, cap;
    bool closed;
    int close_code; /* the WebSocket close code the service asked for */
} conn;

typedef struct {
    store *db;
    service *svc;
    double now;          /* monotonic seconds, the service's (hooks.now) */
    atomic_int wakes;    /* hooks.wake from any thread */
    int nconns;          /* connections opened: each its own address */
    api_answer answered; /* the last hooks.answer */
    bool has_answer;
} harness;

/* A started service over a new fake store (or the given one, to restart
 * over what another service stored); absent_s is the config's. */
harness *h_new(store *db, int absent_s);
/* Frees the service (and the store unless keep_store). */
void h_free(harness *h, bool keep_store);

/* Makes time pass by seconds, then runs the service's timer. */
void h_advance(harness *h, double seconds);
/* Runs the housekeeping timer now. */
void h_housekeeping(harness *h);
/* Commits what the store's writer holds, then lets the service take it in. */
void h_pump(harness *h);
/* Waits (a few seconds at most) until a worker thread woke the service,
 * then collects; false when none did. */
bool h_wait_wake(harness *h);

/* An API request: the status, and the body parsed (NULL without one). */
json_t *h_api(harness *h, int method, const char *path, const char *body, int *status);
/* The same with "Authorization: Bearer" (NULL: none). */
json_t *h_api_bearer(harness *h, int method, const char *path, const char *body, const char *bearer,
                     int *status);
/* The same with a session (its cookie's SHA-256, or ""); a request left
 * pending for a password worker is waited for. session_out (when not NULL)
 * gets the hash of a session the answer set. */
json_t *h_api_session(harness *h, int method, const char *path, const char *body,
                      const char *session, int *status, char session_out[65]);
/* POST /api/games with body; the id, seat and token of the creator. */
void h_create(harness *h, const char *body, char id[GAME_ID_LEN + 1], int *seat,
              char token[TOKEN_LEN + 1]);
/* POST /api/games/{id}/join as a guest; the seat (-1 and status when refused). */
int h_join(harness *h, const char *id, const char *name, char token[TOKEN_LEN + 1], int *status);

/* A connection to a game: as a seat (token) or a spectator (NULL); with
 * the legal moves in `you` when moves. */
conn *h_open(harness *h, const char *id, const char *token, bool moves);
/* The same from an address (h_open gives each connection its own). */
conn *h_open_from(harness *h, const char *id, const char *token, bool moves, const char *ip);
/* The same with a session (its cookie's SHA-256). */
conn *h_open_session(harness *h, const char *id, const char *token, const char *session);
void h_send(harness *h, conn *c, const char *text);
/* The service closes its side, then the connection is freed. */
void h_close(harness *h, conn *c);

/* The messages of a type (NULL: any) a connection got: their number, and
 * the last parsed (released by the caller; NULL if none). */
int conn_count(const conn *c, const char *type);
json_t *conn_last(const conn *c, const char *type);
/* Forgets what a connection got so far. */
void conn_clear(conn *c);
/* The value at a dotted path of objects ("game.status"), borrowed; NULL. */
json_t *jpath(json_t *v, const char *path);

/* --- a game at a table --- */

#define TWO_PLAYERS "{\"variant\":\"square\",\"players\":2,\"name\":\"Ann\"}"

/* A running two-player game: the creator on seat 0 and a guest on 1, both
 * connected (asking for their legal moves), and a spectator. */
typedef struct {
    harness *h;
    char id[GAME_ID_LEN + 1];
    char token[2][TOKEN_LEN + 1];
    conn *seat[2], *spectator;
} table;

/* Creates the game of body (two seats) and seats both and a spectator. */
void table_open(table *t, harness *h, const char *body);
/* Closes the connections still open (a test may close one itself: NULL). */
void table_close(table *t);
/* Forgets what the table's connections were sent so far. */
void table_clear(table *t);
/* The game the service holds (taken and loaded if it must be), or NULL. */
game *h_held(service *svc, const char *id);
game *game_of(table *t);
/* The seat to move. */
int to_move(table *t);
/* The first legal move the seat to move was sent, as message text (malloc'd). */
char *first_move(table *t);
/* The seat to move plays its first legal move, stored and announced. */
void play_one(table *t);
/* The code of the last error a connection got, or "" (a static buffer). */
const char *last_error(const conn *c);

#endif
