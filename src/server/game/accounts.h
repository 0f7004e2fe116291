/*
 * accounts.h - accounts, sessions, profiles and the leaderboard
 * (accounts.c); password hashes on the workers of auth.c.
 */
#ifndef AX_SERVER_ACCOUNTS_H
#define AX_SERVER_ACCOUNTS_H

#include "game.h"

typedef struct accounts accounts;

/* The accounts' state of a service (jobs whose request waits, when
 * sessions were last pruned); NULL out of memory. */
accounts *accounts_new(void);
/* Makes sure every computer level is a player and every account has its
 * look-alike key; -1 (reason printed) on failure. */
int accounts_start(service *svc);
/* Collects finished password jobs (on the loop thread). */
void accounts_collect(service *svc);
/* The /api paths of accounts, sessions, players and the leaderboard:
 * API_ANSWERED, API_PENDING (a password job), or API_NOT_MINE. */
int accounts_route(service *svc, const api_request *r, api_answer *out);
/* A pending request's connection closed: its job, if any, is dropped. */
void accounts_abandon(service *svc, void *request);
/* The account of a session by its hash, if the session is still valid
 * (it is then seen: people_seen). */
bool accounts_session_by_hash(service *svc, const char *hash, stored_account *out);
/* The account of a name as people type it: 0, 1 when there is none, -1. */
int accounts_by_name(service *svc, const char *name, stored_account *out);
/* Forgets old login failures and expired sessions. */
void accounts_housekeeping(service *svc, double now);
/* Frees the jobs left once the workers stopped, and the state. */
void accounts_free(service *svc);
/* {"rating","deviation","games"} */
json_t *rating_json(rt_rating r, int games);

#endif
