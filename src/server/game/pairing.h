/*
 * pairing.h - challenges and quick pairing (pairing.c).
 */
#ifndef AX_SERVER_PAIRING_H
#define AX_SERVER_PAIRING_H

#include "game.h"

/* /api/challenges[/ID[/accept|/decline]], /api/me/challenges,
 * /api/seeks[/ID]: API_ANSWERED, or API_NOT_MINE. */
int pairing_route(service *svc, const api_request *r, api_answer *out);
/* A challenge as the API shows it (docs/accounts.md, "Challenges"). */
json_t *challenge_json(const stored_challenge *c);
/* Forgets old seeks and settled challenges (hourly). */
void pairing_housekeeping(service *svc);

#endif
