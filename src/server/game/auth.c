/*
 * auth.c - the password workers (see auth.h).
 *
 * FIFO queues (job_queue.h) under the worker pool's mutex
 * (worker_pool.h): `todo` (logins, password changes) and `signups`, which
 * the workers take from, a sign-up only when no login waits, and `done`,
 * which the loop drains.
 * The jobs waiting in `todo` are counted so that a full queue refuses a
 * job at once instead of letting memory and waiting time grow. Workers
 * touch nothing of a job but its passwords, hashes and result; whatever
 * the loop keeps around a job (the HTTP request waiting for it) stays the
 * loop's.
 */
#include "auth.h"

#include "worker_pool.h"

#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct auth_pool {
    worker_pool *workers;          /* NULL once stopped */
    job_queue todo, signups, done; /* todo: logins and changes, served first */
    char dummy[crypto_pwhash_STRBYTES];
};

_Static_assert(STORE_HASH_MAX >= crypto_pwhash_STRBYTES, "a stored hash holds Argon2id's");

static pw_job *pop_job(job_queue *q)
{
    jq_node *node = jq_pop(q);
    return node ? JQ_ENTRY(node, pw_job, node) : NULL;
}

static int hash_password(const char *password, char out[crypto_pwhash_STRBYTES])
{
    return crypto_pwhash_str(out, password, strlen(password), crypto_pwhash_OPSLIMIT_INTERACTIVE,
                             crypto_pwhash_MEMLIMIT_INTERACTIVE);
}

/* crypto_pwhash_str_verify: 0 when the password matches; -1 for a wrong
 * one and for a hash it cannot read, which no stored hash should be. */
static bool verify_password(const char *hash, const char *password)
{
    return crypto_pwhash_str_verify(hash, password, strlen(password)) == 0;
}

static void run(void *user, void *arg, int worker)
{
    (void)user, (void)worker;
    pw_job *job = arg;
    if (!job->password || (job->kind == PW_CHANGE && !job->new_password)) {
        job->result = PW_FAILED; /* a caller's mistake: nothing to hash */
        return;
    }
    switch (job->kind) {
    case PW_HASH:
        job->result = hash_password(job->password, job->new_hash) == 0 ? PW_OK : PW_FAILED;
        break;
    case PW_VERIFY:
        job->result = verify_password(job->hash, job->password) ? PW_OK : PW_WRONG;
        break;
    case PW_CHANGE:
        if (!verify_password(job->hash, job->password))
            job->result = PW_WRONG;
        else
            job->result = hash_password(job->new_password, job->new_hash) == 0 ? PW_OK : PW_FAILED;
        break;
    default: job->result = PW_FAILED;
    }
}

static void *take(void *user, int worker)
{
    (void)worker;
    auth_pool *pool = user;
    return pop_job(jq_empty(&pool->todo) ? &pool->signups : &pool->todo);
}

static void finish(void *user, void *arg, int worker)
{
    (void)worker;
    auth_pool *pool = user;
    pw_job *job = arg;
    jq_push(&pool->done, &job->node);
}

auth_pool *auth_start(void (*notify)(void *), void *arg)
{
    if (sodium_init() < 0)
        return NULL;
    auth_pool *pool = calloc(1, sizeof *pool);
    if (!pool)
        return NULL;
    /* a random password nobody is told, hashed once */
    unsigned char raw[16];
    char secret[2 * sizeof raw + 1];
    randombytes_buf(raw, sizeof raw);
    sodium_bin2hex(secret, sizeof secret, raw, sizeof raw);
    int rc = hash_password(secret, pool->dummy);
    sodium_memzero(secret, sizeof secret);
    sodium_memzero(raw, sizeof raw);
    if (rc != 0) {
        auth_free(pool, NULL);
        return NULL;
    }
    worker_ops ops = {take, run, finish, notify, arg};
    pool->workers = worker_pool_start(AUTH_WORKERS, false, &ops, pool);
    if (!pool->workers) {
        auth_free(pool, NULL);
        return NULL;
    }
    return pool;
}

const char *auth_dummy_hash(const auth_pool *pool) { return pool->dummy; }

int auth_submit(auth_pool *pool, pw_job *job)
{
    if (!pool->workers)
        return -1;
    worker_pool_lock(pool->workers);
    job_queue *q = job->kind == PW_HASH ? &pool->signups : &pool->todo;
    int max = job->kind == PW_HASH ? AUTH_SIGNUPS_MAX : AUTH_QUEUE_MAX;
    bool room = !worker_pool_stopping(pool->workers) && q->count < max;
    if (room) {
        jq_push(q, &job->node);
        worker_pool_signal(pool->workers);
    }
    worker_pool_unlock(pool->workers);
    return room ? 0 : -1;
}

job_queue auth_take_done(auth_pool *pool)
{
    if (!pool->workers) /* stopped: nothing runs */
        return jq_take_all(&pool->done);
    worker_pool_lock(pool->workers);
    job_queue done = jq_take_all(&pool->done);
    worker_pool_unlock(pool->workers);
    return done;
}

pw_job *auth_next_done(job_queue *done) { return pop_job(done); }

void auth_stop_workers(auth_pool *pool)
{
    worker_pool_free(pool->workers);
    pool->workers = NULL;
}

void auth_free(auth_pool *pool, void (*free_job)(pw_job *job))
{
    if (!pool)
        return;
    auth_stop_workers(pool);
    pw_job *job;
    job_queue *queues[] = {&pool->todo, &pool->signups, &pool->done};
    for (size_t i = 0; i < sizeof queues / sizeof queues[0]; i++)
        while ((job = pop_job(queues[i])))
            if (free_job)
                free_job(job);
    sodium_memzero(pool->dummy, sizeof pool->dummy);
    free(pool);
}

static void wipe_text(char **text)
{
    if (*text) {
        sodium_memzero(*text, strlen(*text));
        free(*text);
        *text = NULL;
    }
}

void pw_job_wipe(pw_job *job)
{
    wipe_text(&job->password);
    wipe_text(&job->new_password);
}

bool password_acceptable(const char *text, size_t len, char *why, size_t whylen, const char **id)
{
    const char *dummy;
    if (!id)
        id = &dummy;
    if (len > PASSWORD_MAX) {
        snprintf(why, whylen, "a password may have at most %d bytes", PASSWORD_MAX);
        *id = "password_long";
        return false;
    }
    if (strlen(text) != len) {
        snprintf(why, whylen, "a password may not contain the character U+0000");
        *id = "password_nul";
        return false;
    }
    size_t chars = 0;
    for (const unsigned char *p = (const unsigned char *)text; *p; p++)
        chars += (*p & 0xc0) != 0x80; /* UTF-8: count every byte that starts a character */
    if (chars < PASSWORD_MIN) {
        snprintf(why, whylen, "a password needs at least %d characters", PASSWORD_MIN);
        *id = "password_short";
        return false;
    }
    return true;
}
