/*
 * owners.h - the servers of one site (owners.c; docs/server.md, "Several
 * servers").
 *
 * With a store shared by several servers (PostgreSQL), a game is held by
 * one server at a time through a lease (store.h); a connection or request
 * for a game held elsewhere is passed on to its holder (lobby_hold says
 * where, the transport relays), and games no live server holds are
 * adopted. Without a shared store every call here is a no-op but
 * owners_submit, which submits. The state is owners.c's own (struct
 * owners): other files ask through these calls.
 */
#ifndef AX_SERVER_OWNERS_H
#define AX_SERVER_OWNERS_H

#include "game.h"

typedef struct owners owners;

/* The state of a server that may be one of a site's; NULL out of memory. */
owners *owners_new(void);
void owners_free(owners *o);
/* Names this server (a new instance id), reads the site's key, and with a
 * shared store registers the server and its address. */
void owners_start(service *svc);
/* Whether the store is shared by the servers of a site. */
bool owners_shared(const service *svc);
/* Takes a game's lease before it is loaded or created: 0 (or not shared),
 * 1 held by another server (its id in holder unless NULL), -1 on error. */
int owners_take(service *svc, const char *id, char holder[STORE_INSTANCE_LEN + 1]);
/* Asks the holder of a game to let it go (for a change that must be made
 * here: a rematch's seat); it does once the game is idle. */
void owners_ask_release(service *svc, const char *id);
/* Where the site's other servers reach a server of the site: 0 with its
 * address, -1 when not known. */
int owners_address(service *svc, const char *instance, char address[STORE_ADDRESS_MAX + 1]);
/* A game could not be loaded after all: its lease goes. */
void owners_release(service *svc, const char *id);
/* Submits a write of a held game, fenced by its lease. */
void owners_submit(game *gm, store_write *w);
/* A write of the game failed because another server holds it now. */
void owners_lost(game *gm);
/* Whether a game is on its way out (no new computer turns). */
bool owners_leaving(const game *gm);
/* At the start: adopts every game nobody holds; -1 (reason printed) when
 * the store fails. */
int owners_adopt_all(service *svc);
/* Four times a second: renews leases, adopts orphans, lets games go,
 * writes changed lobby entries. */
void owners_tick(service *svc, double now);
/* What the other servers said (after hooks.wake). */
void owners_collect(service *svc);
/* Tells the other servers of a rating or a deleted account. */
void owners_tell(service *svc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The lobby's list adds the games other servers hold: fn for each. */
void owners_each_remote_entry(service *svc,
                              void (*fn)(const char *id, int64_t created, int group, json_t *entry,
                                         void *arg),
                              void *arg);
/* A game held elsewhere: its lobby entry as written (a new reference), or
 * NULL. */
json_t *owners_remote_entry(service *svc, const char *id);
/* At shutdown (SIGTERM): lets every game go at once, for the others;
 * once. */
void owners_stop(service *svc);

#endif
