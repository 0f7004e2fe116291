/*
 * people.h - a player's people and games (people.c): follows, who is
 * online, a player's games on every device.
 */
#ifndef AX_SERVER_PEOPLE_H
#define AX_SERVER_PEOPLE_H

#include "game.h"

/* The account was seen now (written to the store at most once a minute). */
void people_seen(service *svc, int64_t account_id);
/* Every connection's account is seen (housekeeping). */
void people_housekeeping(service *svc);
/* /api/me/games, /api/me/follows[/NAME], /api/players?q=: API_ANSWERED,
 * or API_NOT_MINE. */
int people_route(service *svc, const api_request *r, api_answer *out);

#endif
