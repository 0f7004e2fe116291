/*
 * mail.h - the daily e-mail digest (mail.c; issue 52, docs/notifications.md):
 * an account's confirmed address, at most one e-mail a day listing the
 * games waiting for its move, RFC 8058 one-click unsubscribe.
 */
#ifndef AX_SERVER_MAIL_H
#define AX_SERVER_MAIL_H

#include "game.h"

/* The /api paths of e-mail (/me/email, /email/verify, /email/unsubscribe):
 * API_ANSWERED or API_NOT_MINE. */
int mail_route(service *svc, const api_request *r, api_answer *out);
/* From the housekeeping timer: digests that are due go out. */
void mail_tick(service *svc, double now);

#endif
