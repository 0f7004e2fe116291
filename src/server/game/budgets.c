/*
 * budgets.c - what one address, name or account may ask of the site
 * (docs/server.md, "Limits").
 *
 * Each kind of budget is a number of uses in a window of time, per key:
 * the client's address, an account, a name. The uses are counted in the
 * store (store_budget_take), so on a site of several servers every server
 * counts the same uses: three servers allow what one does. A store that
 * cannot be reached allows the use (and it is logged): the request then
 * meets the same store anyway.
 *
 * Counted here: games created (rematches too), accounts created, password
 * checks, failed logins per address and per name, logins per account,
 * hints, games against the strongest computers, analyses, the Bot API's
 * requests per token and a bot's games against bots. Not here, but
 * per server and at the edge: connections and requests per address (the
 * transport's table; behind nginx, limit_conn and limit_req count them for
 * the whole site) and messages per connection.
 */
#include "budgets.h"
#include "game.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *key; /* the store's key: this, a space, whose */
    int max;         /* uses in a window (0: the server's option, budget_max) */
    double window_s;
} budget_rule;

static const budget_rule rules[BUDGET_KINDS] = {
    [BUDGET_GAMES] = {"games ip", 0, 3600},
    [BUDGET_SIGNUPS] = {"signups ip", 0, 3600},
    [BUDGET_PASSWORD_CHECKS] = {"password checks ip", 20, 900},
    [BUDGET_FAILED_LOGINS_IP] = {"failed logins ip", LOGIN_ATTEMPTS_MAX, LOGIN_WINDOW_S},
    [BUDGET_FAILED_LOGINS_NAME] = {"failed logins name", LOGIN_ATTEMPTS_MAX, LOGIN_WINDOW_S},
    [BUDGET_LOGINS_ACCOUNT] = {"logins account", 10, 900},
    [BUDGET_HINTS_IP] = {"hints ip", 0, 600},
    [BUDGET_HINTS_ACCOUNT] = {"hints account", 0, 600},
    [BUDGET_STRONG_IP] = {"strong games ip", 0, 3600},
    [BUDGET_STRONG_ACCOUNT] = {"strong games account", 0, 3600},
    [BUDGET_ANALYSES_IP] = {"analyses ip", 0, 3600},
    [BUDGET_ANALYSES_ACCOUNT] = {"analyses account", 0, 3600},
    [BUDGET_TOKEN_REQUESTS] = {"requests token", 60, 10},
    [BUDGET_BOT_GAMES] = {"bot games account", 100, 86400},
    [BUDGET_REPORTS] = {"reports account", 5, 3600},
    [BUDGET_MOD_ACTIONS] = {"moderation account", 120, 3600},
};

int budget_max(const service *svc, int kind)
{
    if (kind == BUDGET_GAMES)
        return svc->cfg.games_per_hour;
    if (kind == BUDGET_SIGNUPS)
        return svc->cfg.signups_per_hour;
    if (kind == BUDGET_STRONG_IP || kind == BUDGET_STRONG_ACCOUNT)
        return svc->cfg.strong_games_per_hour;
    if (kind == BUDGET_HINTS_IP || kind == BUDGET_HINTS_ACCOUNT)
        return svc->cfg.hints_per_10_min;
    if (kind == BUDGET_ANALYSES_IP || kind == BUDGET_ANALYSES_ACCOUNT)
        return svc->cfg.analyses_per_hour;
    if (kind == BUDGET_TOKEN_REQUESTS && svc->cfg.bot_requests_per_10_s > 0)
        return svc->cfg.bot_requests_per_10_s;
    return rules[kind].max;
}

bool budget_take(service *svc, int kind, const char *who, int cost, double *retry_s)
{
    char key[192];
    int64_t retry_ms = 0;
    if (retry_s)
        *retry_s = 0;
    snprintf(key, sizeof key, "%s %s", rules[kind].key, who);
    int rc = store_budget_take(svc->db, key, budget_max(svc, kind),
                               (int64_t)(rules[kind].window_s * 1000), cost, unix_ms(), &retry_ms);
    if (rc < 0) {
        service_log(svc, "a budget cannot be counted (allowed): %s", store_error(svc->db));
        return true;
    }
    if (retry_s)
        *retry_s = retry_ms > 0 ? (double)retry_ms / 1000.0 : 0;
    return rc == 1;
}

bool budget_full(service *svc, int kind, const char *who, double *retry_s)
{
    double wait = 0;
    bool granted = budget_take(svc, kind, who, 0, &wait);
    if (retry_s)
        *retry_s = wait;
    return !granted || wait > 0;
}

bool budget_take_account(service *svc, int kind, int64_t account_id, double *retry_s)
{
    char who[24];
    snprintf(who, sizeof who, "%lld", (long long)account_id);
    return account_id <= 0 || budget_take(svc, kind, who, 1, retry_s);
}

uint64_t lane_of_hash(const char *hex)
{
    uint64_t v = 0;
    for (int i = 0; i < 16 && hex[i]; i++) {
        char c = hex[i];
        v = v << 4 | (uint64_t)(c >= 'a' ? c - 'a' + 10 : c >= 'A' ? c - 'A' + 10 : c - '0');
    }
    return v;
}

uint64_t address_lane(const service *svc, const char *ip)
{
    char hash[65];
    hmac_sha256_hex(service_site_key(svc), ip, hash);
    return lane_of_hash(hash);
}

void budgets_housekeeping(service *svc)
{
    /* the longest window is an hour: a budget untouched for a day is gone */
    if (store_budgets_prune(svc->db, unix_ms() - 24 * 3600 * 1000LL))
        service_log(svc, "cannot forget old budgets: %s", store_error(svc->db));
}
