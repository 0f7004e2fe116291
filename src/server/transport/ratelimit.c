/*
 * ratelimit.c - the per-address table and the per-connection message bucket
 * (see ratelimit.h; the buckets themselves are base/bucket.c).
 *
 * The table is a fixed array of hash chains; the periodic housekeeping
 * timer prunes idle entries, so an address that stops talking costs nothing
 * after a while.
 */
#include "ratelimit.h"

#include <stdlib.h>
#include <string.h>

#define IP_BUCKETS 1024

static ip_entry *table[IP_BUCKETS];
static limits_config config = {16, 10, 20, 16};

void limits_configure(const limits_config *c) { config = *c; }

const limits_config *limits_get(void) { return &config; }

void msg_bucket_init(bucket *b) { bucket_fill(b, 2 * config.msgs_per_sec); }

bool msg_bucket_take(bucket *b)
{
    return bucket_take(b, config.msgs_per_sec, 2 * config.msgs_per_sec);
}

static unsigned hash_ip(const char *ip)
{
    unsigned h = 2166136261u; /* FNV-1a */
    for (const unsigned char *p = (const unsigned char *)ip; *p; p++)
        h = (h ^ *p) * 16777619u;
    return h % IP_BUCKETS;
}

ip_entry *ip_entry_get(const char *ip)
{
    unsigned h = hash_ip(ip);
    for (ip_entry *e = table[h]; e; e = e->next)
        if (strcmp(e->ip, ip) == 0)
            return e;
    ip_entry *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    strncpy(e->ip, ip, sizeof e->ip - 1);
    bucket_fill(&e->requests, 2 * config.requests_per_sec);
    e->next = table[h];
    table[h] = e;
    return e;
}

bool ip_allow_request(ip_entry *e)
{
    return bucket_take(&e->requests, config.requests_per_sec, 2 * config.requests_per_sec);
}

static bool entry_idle(ip_entry *e)
{
    return e->conns == 0 &&
           bucket_full(&e->requests, config.requests_per_sec, 2 * config.requests_per_sec);
}

void ip_table_prune(void)
{
    for (int h = 0; h < IP_BUCKETS; h++) {
        ip_entry **link = &table[h];
        while (*link) {
            ip_entry *e = *link;
            if (entry_idle(e)) {
                *link = e->next;
                free(e);
            } else {
                link = &e->next;
            }
        }
    }
}

void ip_table_free(void)
{
    for (int h = 0; h < IP_BUCKETS; h++) {
        while (table[h]) {
            ip_entry *e = table[h];
            table[h] = e->next;
            free(e);
        }
    }
}

void ip_normalize(const char *raw, char *out, int outlen)
{
    if (strncmp(raw, "::ffff:", 7) == 0 && strchr(raw + 7, '.'))
        raw += 7;
    strncpy(out, raw, (size_t)outlen - 1);
    out[outlen - 1] = 0;
}
