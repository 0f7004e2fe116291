/*
 * ratelimit.h - how much one client may ask of the server.
 *
 * A token bucket per connection bounds its message rate; a small table keyed
 * by client IP bounds the connections one address holds open and its HTTP
 * API requests on this server (behind nginx, its limit_conn and limit_req
 * count them for the whole site; what an address may create is counted for
 * the whole site by the game service: budgets.c). Everything runs on the
 * event loop thread.
 */
#ifndef AX_SERVER_RATELIMIT_H
#define AX_SERVER_RATELIMIT_H

#include "../base/bucket.h"

#include <stdbool.h>

typedef struct {
    int conns_per_ip;        /* open connections, HTTP and WebSocket */
    double msgs_per_sec;     /* WebSocket messages per connection (burst: twice) */
    double requests_per_sec; /* HTTP API requests per address (burst: twice) */
    int headers_per_ip;      /* connections still sending their first headers, per address */
} limits_config;

void limits_configure(const limits_config *c);
const limits_config *limits_get(void);

/* A full message bucket for a new connection; takes one message token. */
void msg_bucket_init(bucket *b);
bool msg_bucket_take(bucket *b);

typedef struct ip_entry {
    char ip[48];
    int conns;
    int headers_pending; /* of conns: their first request's headers still arriving */
    bucket requests;
    struct ip_entry *next;
} ip_entry;

/* The entry of an address, created on first use; NULL when out of memory. */
ip_entry *ip_entry_get(const char *ip);
bool ip_allow_request(ip_entry *e);
/* Forgets entries that hold no connection and whose buckets are full again,
 * so that the table does not grow with every address ever seen. */
void ip_table_prune(void);
void ip_table_free(void);
/* Writes the canonical text of an address: IPv4-mapped IPv6 as plain IPv4. */
void ip_normalize(const char *raw, char *out, int outlen);

#endif
