/*
 * login_throttle.h - failed password checks counted per key ("ip ADDR",
 * "name KEY"; docs/accounts.md, "Login throttling"): a key is exhausted
 * after LOGIN_ATTEMPTS_MAX attempts within LOGIN_WINDOW_S seconds.
 *
 * The table holds at most `cap` keys (LOGIN_THROTTLE_KEYS in the server).
 * When a new key finds it full, the keys with no attempt left in the
 * window (expired, or taken back) are dropped first; a key that still has
 * attempts is never dropped, since a flood of new keys would otherwise
 * wipe out a name's count. If that leaves no room, the new attempt is
 * refused (the caller answers 429, as for an exhausted key).
 *
 * Used by the event loop thread only: no lock.
 */
#ifndef AX_SERVER_LOGIN_THROTTLE_H
#define AX_SERVER_LOGIN_THROTTLE_H

#include "names.h"

#include <stdbool.h>

#define LOGIN_WINDOW_S      900.0 /* 15 minutes */
#define LOGIN_ATTEMPTS_MAX  5
#define LOGIN_THROTTLE_KEYS 10000 /* keys in the server's table */
#define THROTTLE_BUCKETS    1024
#define THROTTLE_KEY_MAX    (NAME_FOLD_MAX + 8) /* "name " and a folded name, its NUL */

typedef struct throttle_entry throttle_entry;

typedef struct {
    throttle_entry *buckets[THROTTLE_BUCKETS];
    int size, cap;
} login_throttle;

/* An empty table of at most `cap` keys. */
void throttle_init(login_throttle *t, int cap);
/* Whether the key has had LOGIN_ATTEMPTS_MAX attempts within the window. */
bool throttle_exhausted(login_throttle *t, const char *key, double now);
/* Seconds until an exhausted key may try again (its oldest attempt leaves
 * the window); 0 when it may now. */
double throttle_wait_s(login_throttle *t, const char *key, double now);
/* Counts an attempt for each key given (NULL: none). False, and nothing
 * counted, when a key is new and the table has no room for it. */
bool throttle_add(login_throttle *t, const char *key1, const char *key2, double now);
/* An attempt that succeeded, or never ran, does not count. */
void throttle_take_back(login_throttle *t, const char *key);
/* Drops the keys with no attempt left in the window. */
void throttle_prune(login_throttle *t, double now);
/* Frees every key; the table is empty again. */
void throttle_free(login_throttle *t);

#endif
