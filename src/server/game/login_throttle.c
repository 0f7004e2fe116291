/*
 * login_throttle.c - the failed-login table (see login_throttle.h): a hash
 * table of keys (FNV-1a, chained), each with the times of its attempts.
 */
#include "login_throttle.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct throttle_entry {
    char key[THROTTLE_KEY_MAX];
    double at[LOGIN_ATTEMPTS_MAX];
    int n;
    struct throttle_entry *next;
};

static unsigned bucket_of(const char *key)
{
    unsigned h = 2166136261u; /* FNV-1a */
    for (const unsigned char *p = (const unsigned char *)key; *p; p++)
        h = (h ^ *p) * 16777619u;
    return h % THROTTLE_BUCKETS;
}

void throttle_init(login_throttle *t, int cap)
{
    memset(t, 0, sizeof *t);
    t->cap = cap;
}

/* Drops the attempts older than the window. */
static void expire(throttle_entry *e, double now)
{
    int kept = 0;
    for (int i = 0; i < e->n; i++)
        if (now - e->at[i] < LOGIN_WINDOW_S)
            e->at[kept++] = e->at[i];
    e->n = kept;
}

static throttle_entry *find(login_throttle *t, const char *key)
{
    char cut[THROTTLE_KEY_MAX];
    snprintf(cut, sizeof cut, "%s", key); /* as stored: cut to THROTTLE_KEY_MAX */
    for (throttle_entry *e = t->buckets[bucket_of(cut)]; e; e = e->next)
        if (strcmp(e->key, cut) == 0)
            return e;
    return NULL;
}

static throttle_entry *create(login_throttle *t, const char *key)
{
    throttle_entry *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    snprintf(e->key, sizeof e->key, "%s", key);
    unsigned b = bucket_of(e->key);
    e->next = t->buckets[b];
    t->buckets[b] = e;
    t->size++;
    return e;
}

bool throttle_exhausted(login_throttle *t, const char *key, double now)
{
    throttle_entry *e = find(t, key);
    if (!e)
        return false;
    expire(e, now);
    return e->n >= LOGIN_ATTEMPTS_MAX;
}

double throttle_wait_s(login_throttle *t, const char *key, double now)
{
    if (!throttle_exhausted(t, key, now))
        return 0;
    const throttle_entry *e = find(t, key);
    double oldest = e->at[0];
    for (int i = 1; i < e->n; i++)
        oldest = e->at[i] < oldest ? e->at[i] : oldest;
    double wait = oldest + LOGIN_WINDOW_S - now;
    return wait > 0 ? wait : 0;
}

bool throttle_add(login_throttle *t, const char *key1, const char *key2, double now)
{
    const char *keys[2] = {key1, key2};
    int missing = 0;
    for (int i = 0; i < 2; i++)
        missing += keys[i] && !find(t, keys[i]);
    if (missing && t->size + missing > t->cap) {
        throttle_prune(t, now); /* room from the keys with no attempt left */
        if (t->size + missing > t->cap)
            return false;
    }
    for (int i = 0; i < 2; i++) {
        if (!keys[i])
            continue;
        throttle_entry *e = find(t, keys[i]);
        if (!e)
            e = create(t, keys[i]);
        if (!e) { /* out of memory: refused like a full table */
            if (i > 0 && key1)
                throttle_take_back(t, key1);
            return false;
        }
        expire(e, now);
        if (e->n < LOGIN_ATTEMPTS_MAX)
            e->at[e->n++] = now;
    }
    return true;
}

void throttle_take_back(login_throttle *t, const char *key)
{
    throttle_entry *e = find(t, key);
    if (e && e->n > 0)
        e->n--;
}

void throttle_prune(login_throttle *t, double now)
{
    for (int b = 0; b < THROTTLE_BUCKETS; b++) {
        throttle_entry **link = &t->buckets[b];
        while (*link) {
            throttle_entry *e = *link;
            expire(e, now);
            if (e->n == 0) {
                *link = e->next;
                free(e);
                t->size--;
            } else {
                link = &e->next;
            }
        }
    }
}

void throttle_free(login_throttle *t)
{
    for (int b = 0; b < THROTTLE_BUCKETS; b++)
        while (t->buckets[b]) {
            throttle_entry *e = t->buckets[b];
            t->buckets[b] = e->next;
            free(e);
        }
    t->size = 0;
}
