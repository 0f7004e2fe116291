/*
 * auth.h - password hashing off the event loop.
 *
 * Argon2id (libsodium's crypto_pwhash_str at OPSLIMIT_INTERACTIVE and
 * MEMLIMIT_INTERACTIVE) costs tens of milliseconds and 64 MiB per hash, so
 * it runs on a small pool of worker threads, like the computer players
 * (ai_workers.c): the loop submits a job and goes on serving; a worker
 * hashes or verifies, puts the job on the done list and wakes the loop
 * (notify: the service's hooks.wake), which collects it. Few workers and a short
 * queue bound the memory a flood of logins can take: a job beyond the
 * queue is refused at once.
 */
#ifndef AX_SERVER_AUTH_H
#define AX_SERVER_AUTH_H

#include "../store/store.h"
#include "job_queue.h"

#include <stdbool.h>
#include <stddef.h>

#define AUTH_WORKERS   2 /* hashes at once: 64 MiB each */
#define AUTH_QUEUE_MAX 8 /* logins and password changes waiting for a worker */
#define AUTH_SIGNUPS_MAX                                                                           \
    4                     /* sign-ups waiting: a queue of their own, served after                  \
                           * the logins, so that a burst of sign-ups never refuses                 \
                           * or long delays a login */
#define PASSWORD_MIN 8    /* characters */
#define PASSWORD_MAX 1024 /* bytes */

enum {
    PW_HASH,   /* password -> new_hash */
    PW_VERIFY, /* password against hash */
    PW_CHANGE  /* password against hash, then new_password -> new_hash */
};

enum { PW_OK, PW_WRONG, PW_FAILED }; /* a job's result; PW_FAILED: out of memory */

typedef struct pw_job {
    int kind;
    char *password, *new_password; /* malloc'd; wiped by pw_job_wipe */
    char hash[STORE_HASH_MAX];     /* to verify against */
    char new_hash[STORE_HASH_MAX]; /* the result of hashing */
    int result;
    jq_node node; /* on the workers' queues */
} pw_job;

typedef struct auth_pool auth_pool;

/* sodium_init, the dummy hash, then the workers; notify(arg) is called
 * from a worker after each job. NULL when anything fails. */
auth_pool *auth_start(void (*notify)(void *), void *arg);
/* A hash of a password nobody knows: logins of unknown names are verified
 * against it, so that they take the time a real one takes. */
const char *auth_dummy_hash(const auth_pool *pool);
/* Queues a job: a new password's hash (PW_HASH, a sign-up) on the sign-up
 * queue, anything else on the login queue, which the workers serve first.
 * -1 (the job still the caller's) when its queue is full. */
int auth_submit(auth_pool *pool, pw_job *job);
/* The finished jobs, oldest first, as a queue of the caller's (empty if
 * none); auth_next_done takes them off one by one, NULL after the last. */
job_queue auth_take_done(auth_pool *pool);
pw_job *auth_next_done(job_queue *done);
/* Stops the workers after their current job (before the loop's context
 * goes: they wake it). Jobs still queued or done stay listed. */
void auth_stop_workers(auth_pool *pool);
/* Stops the workers, hands every job left (queued or done) to free_job
 * (NULL: none to free) and frees the pool. */
void auth_free(auth_pool *pool, void (*free_job)(pw_job *job));
/* Wipes and frees the job's passwords (the job itself is the caller's). */
void pw_job_wipe(pw_job *job);
/* Whether a text is an acceptable password: at least PASSWORD_MIN
 * characters (code points), at most PASSWORD_MAX bytes, no NUL. The
 * reason in why otherwise, and its id ("password_short", "password_long",
 * "password_nul": the protocol's `reason`) in *id unless id is NULL.
 * len: its length in bytes. */
bool password_acceptable(const char *text, size_t len, char *why, size_t whylen, const char **id);

#endif
