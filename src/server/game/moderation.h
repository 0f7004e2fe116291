/*
 * moderation.h - keeping order (moderation.c; docs/moderation.md, issue
 * 51): blocks, reports, the moderators' actions and log, the word lists,
 * and what they change in chat, joins, challenges and logins.
 */
#ifndef AX_SERVER_MODERATION_H
#define AX_SERVER_MODERATION_H

#include "game.h"
#include "play.h"

typedef struct moderation moderation;

moderation *moderation_new(void);
/* Reads the word lists (cfg.word_list_dir); -1 (reason printed) when the
 * directory is given but cannot be read. */
int moderation_start(service *svc);
/* Reads the word lists again when a file changed. */
void moderation_housekeeping(service *svc, double now);
void moderation_free(service *svc);

/* /api/me/blocks[/NAME], /api/me/warnings/seen, /api/reports, /api/mod/...:
 * API_ANSWERED, or API_NOT_MINE. */
int moderation_route(service *svc, const api_request *r, api_answer *out);
/* GET /api/me's moderation part of an account: "moderator" and the
 * warnings not yet seen ("warnings"), added to o. */
void moderation_me(service *svc, int64_t account_id, json_t *o);

/* What becomes of a chat message (its text checked already). */
enum { CHAT_PASS, CHAT_REFUSED, CHAT_SHADOW };
/* CHAT_REFUSED (the error sent) for a timed-out or closed account,
 * CHAT_SHADOW for a shadow-muted one (only its own connections see it). */
int moderation_chat_check(viewer *c);
/* The account whose chat a viewer writes (its session's, else its seat's). */
int64_t moderation_writer(const viewer *c);
/* A chat message was stored as number chat_n: a word of the lists files
 * a report on it. */
void moderation_chat_stored(game *gm, int64_t account_id, int chat_n, const char *text);
/* Whether the viewer's account blocks the writer's. */
bool moderation_hides(const viewer *c, int64_t writer);
/* A viewer opened (its account's blocks are read) or closes. */
void moderation_viewer_open(viewer *c);
void moderation_viewer_close(viewer *c);
/* After its state and history: a timed-out account's connection is told. */
void moderation_viewer_ready(viewer *c);

/* A player about to join a game: -1 (err) when a seated player blocks it. */
int moderation_may_join(game *gm, const stored_account *a, api_error *err);
/* A challenge from one account to another: -1 (err) when `to` blocks `from`. */
int moderation_may_challenge(service *svc, int64_t from, int64_t to, api_error *err);
/* A new account's name (its folded key): true with the reason in err when
 * a word list refuses it or a rename holds it back. */
bool moderation_name_refused(service *svc, const char *key, const char *skeleton, api_error *err);
/* Whether an account is closed (a login is refused). */
bool moderation_closed(service *svc, int64_t account_id);

/* A rated game ended and its ratings were stored (w): its losers are
 * checked for rating abuse, which files a report with the games. */
void moderation_rated_end(game *gm, const store_write *w);
/* Another server said "moderated ACCOUNT" or "blocks ACCOUNT". */
void moderation_heard(service *svc, const char *verb, int64_t account_id);

#endif
