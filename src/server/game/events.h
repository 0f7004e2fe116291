/*
 * events.h - arenas and Swiss tournaments on the site (events.c;
 * docs/tournaments.md, "Events on the site").
 */
#ifndef AX_SERVER_EVENTS_H
#define AX_SERVER_EVENTS_H

#include "game.h"

/* /api/events[/ID[/join|/withdraw|/start|/cancel]], /api/me/events:
 * API_ANSWERED, or API_NOT_MINE. */
int events_route(service *svc, const api_request *r, api_answer *out);
/* Runs the events due (the timer, a few times a second): starts them,
 * records the tables whose game ended, pairs the next tables. */
void events_tick(service *svc, double now);
/* The no-shows of events' games held here leave them (housekeeping). */
void events_housekeeping(service *svc, double now);
void events_free(service *svc);

#endif
