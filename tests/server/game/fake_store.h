/*
 * fake_store.h - a store in memory for the game service's unit tests: it
 * implements src/server/store/store.h (what the game layer calls) over
 * plain arrays, and lets a test commit the writer's queue when it chooses,
 * make writes or calls fail, and read back the rows.
 *
 * Like the real store it refuses what its tables would: a second game with
 * an id, a seat that is not free, a decision number stored already, a
 * session twice, an update of a missing row. The writer is not a thread:
 * fake_store_commit does what the writer thread does (each write in order,
 * then notify) on the caller's thread.
 */
#ifndef AX_TESTS_FAKE_STORE_H
#define AX_TESTS_FAKE_STORE_H

#include "../../../src/server/store/store.h"

store *fake_store_new(void);
void fake_store_free(store *s);

/* Commits every queued write (each alone) and calls notify once if any
 * was queued; the number committed or failed. */
int fake_store_commit(store *s);
/* Writes queued and not yet committed. */
int fake_store_queued(const store *s);
/* The next `count` writes of `kind` (STORE_DECISION, ...) fail with `why`
 * and change nothing. */
void fake_store_fail_writes(store *s, int kind, int count, const char *why);
/* The next `count` calls that change a row outside the writer (create,
 * take a seat, set a status ...) fail with `why`. */
void fake_store_fail_calls(store *s, int count, const char *why);

/* The rows: a game (NULL when none; decisions and chat not filled in), its
 * stored decisions and chat messages. */
const stored_game *fake_store_game(const store *s, const char *id);
int fake_store_ndecisions(const store *s, const char *id);
/* Decision number ply's JSON text, NULL when not stored. */
const char *fake_store_decision(const store *s, const char *id, int ply);
int fake_store_nchat(const store *s, const char *id);
/* Damages a game as a lost row would: its decision number ply is gone. */
void fake_store_drop_decision(store *s, const char *id, int ply);
/* The game ids stored, oldest first (at most max); their number. */
int fake_store_ids(const store *s, const char **ids, int max);

#endif
