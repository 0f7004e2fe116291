/*
 * budgets.h - limits counted for the whole site (budgets.c): so many uses
 * of a kind per address, account or name in a window, kept in the store so
 * that every server of a site counts the same (docs/server.md, "Limits").
 */
#ifndef AX_SERVER_BUDGETS_H
#define AX_SERVER_BUDGETS_H

#include "game.h"

enum {
    BUDGET_GAMES,              /* games created, rematches too, per address */
    BUDGET_SIGNUPS,            /* accounts created, per address */
    BUDGET_PASSWORD_CHECKS,    /* logins tried, right or wrong, per address */
    BUDGET_FAILED_LOGINS_IP,   /* wrong passwords per address */
    BUDGET_FAILED_LOGINS_NAME, /* wrong passwords per name */
    BUDGET_LOGINS_ACCOUNT,     /* logins per account */
    BUDGET_HINTS_IP,           /* hints per address */
    BUDGET_HINTS_ACCOUNT,      /* hints per account */
    BUDGET_STRONG_IP,          /* games against strong or expert, per address */
    BUDGET_STRONG_ACCOUNT,     /* the same per account */
    BUDGET_ANALYSES_IP,        /* analyses asked for, per address */
    BUDGET_ANALYSES_ACCOUNT,   /* the same per account */
    BUDGET_TOKEN_REQUESTS,     /* Bot API requests per personal token */
    BUDGET_BOT_GAMES,          /* a bot's games against other bots, per day */
    BUDGET_REPORTS,            /* reports filed, per account (moderation.c) */
    BUDGET_MOD_ACTIONS,        /* moderators' actions and undos, per moderator */
    BUDGET_KINDS
};

#define LOGIN_ATTEMPTS_MAX   5     /* wrong passwords per address, and per name, ... */
#define LOGIN_WINDOW_S       900.0 /* ... in 15 minutes */
#define SESSIONS_PER_ACCOUNT 20    /* the newest stay; a new one revokes the oldest */

/* How many uses of a kind a window allows. */
int budget_max(const service *svc, int kind);
/* Counts `cost` uses for whom (an address, an account id, a name key):
 * true when they fit (a negative cost gives uses back), false (nothing
 * counted; *retry_s, unless NULL: how long until the window ends) when not. */
bool budget_take(service *svc, int kind, const char *who, int cost, double *retry_s);
/* Whether the budget has no use left (*retry_s: until when). */
bool budget_full(service *svc, int kind, const char *who, double *retry_s);
/* budget_take of one use for an account (true without one: id <= 0). */
bool budget_take_account(service *svc, int kind, int64_t account_id, double *retry_s);
/* Forgets budgets long unused (housekeeping). */
void budgets_housekeeping(service *svc);
/* The computer players' lane (ai_workers.h) of an address, and of a hash
 * in hex (a stored game's creator_addr). */
uint64_t address_lane(const service *svc, const char *ip);
uint64_t lane_of_hash(const char *hex);

#endif
