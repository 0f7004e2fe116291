/*
 * people.c - a signed-in player's people and games (docs/accounts.md,
 * "Friends, search, my games"): the games the account plays (on every
 * device: its seats follow the account, not the browser), the players it
 * follows and whether they are online, and the search for players by name.
 *
 * Online is "seen within ONLINE_S": an account is seen when its session is
 * used (a request, a connection opened, every minute while a connection of
 * its stays open), written to the store at most once a SEEN_WRITE_S per
 * account, so every server of a site shows the same.
 */
#include "people.h"
#include "accounts.h"
#include "api.h"
#include "bots.h"
#include "game.h"
#include "lobby.h"
#include "names.h"
#include "play.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ONLINE_S     180 /* seen this recently: online */
#define SEEN_WRITE_S 60  /* an account's seen_at is written at most this often */
#define SEARCH_MAX   20
#define MY_GAMES_MAX 50

/* --- seen --- */

void people_seen(service *svc, int64_t account_id)
{
    if (account_id <= 0)
        return;
    double now = service_now(svc);
    struct seen_slot *slot = &svc->seen[(uint64_t)account_id % SEEN_SLOTS];
    if (slot->account_id == account_id && now - slot->at < SEEN_WRITE_S)
        return;
    slot->account_id = account_id;
    slot->at = now;
    if (store_account_seen(svc->db, account_id, unix_ms()))
        service_log(svc, "cannot say an account was seen: %s", store_error(svc->db));
}

void people_housekeeping(service *svc)
{
    /* a player on a game page is online however long it stays there */
    for (game *gm = lobby_first(svc); gm; gm = gm->next)
        for (viewer *c = gm->viewers; c; c = c->next)
            people_seen(svc, c->account_id);
}

static bool online(int64_t seen_at) { return seen_at > 0 && unix_ms() - seen_at < ONLINE_S * 1000; }

static json_t *person_json(const stored_person *p)
{
    json_t *j = json_pack("{s:s,s:b,s:b}", "name", p->name, "computer", p->computer, "online",
                          p->computer || online(p->seen_at));
    if (j && p->bot)
        json_object_set_new(j, "bot", json_true());
    return j;
}

static int add_person(const stored_person *p, void *arg)
{
    json_array_append_new(arg, person_json(p));
    return 0;
}

/* --- routes --- */

static int unauthorized(api_answer *out)
{
    return api_reply_error(out, 401, "unauthorized", "log in first");
}

/* GET /api/me/games: the account's open games, each its lobby entry and the
 * seat the account plays (the first, when it plays several). */
typedef struct {
    char ids[MY_GAMES_MAX][GAME_ID_LEN + 1];
    int seats[MY_GAMES_MAX];
    int n;
} my_games;

static int add_my_game(const char *id, int seat, void *arg)
{
    my_games *m = arg;
    for (int i = 0; i < m->n; i++)
        if (strcmp(m->ids[i], id) == 0)
            return 0;
    if (m->n < MY_GAMES_MAX && strlen(id) == GAME_ID_LEN) {
        memcpy(m->ids[m->n], id, GAME_ID_LEN + 1);
        m->seats[m->n++] = seat;
    }
    return 0;
}

static int my_games_json(service *svc, const stored_account *me, api_answer *out)
{
    my_games m = {.n = 0};
    if (store_each_open_game_of(svc->db, me->id, MY_GAMES_MAX, add_my_game, &m))
        return api_reply_error(out, 500, "internal", "the games cannot be read");
    char ids[MY_GAMES_MAX * (GAME_ID_LEN + 1) + 1] = "";
    for (int i = 0; i < m.n; i++) {
        strcat(ids, m.ids[i]);
        strcat(ids, ",");
    }
    json_t *list = lobby_entries_json(svc, ids);
    size_t i;
    json_t *e;
    json_array_foreach(list, i, e)
    {
        const char *id = json_string_value(json_object_get(e, "id"));
        for (int k = 0; id && k < m.n; k++)
            if (strcmp(m.ids[k], id) == 0)
                json_object_set_new(e, "seat", json_integer(m.seats[k]));
    }
    return api_reply_json(out, 200, json_pack("{s:o}", "games", list));
}

static int follows_json(service *svc, const stored_account *me, api_answer *out)
{
    json_t *list = json_array();
    if (store_each_followed(svc->db, me->id, add_person, list)) {
        json_decref(list);
        return api_reply_error(out, 500, "internal", "the players cannot be read");
    }
    return api_reply_json(out, 200, json_pack("{s:o}", "follows", list));
}

static int follow(service *svc, const stored_account *me, const char *name, bool on,
                  api_answer *out)
{
    stored_account them;
    int rc = accounts_by_name(svc, name, &them);
    if (rc < 0)
        return api_reply_error(out, 500, "internal", "the players cannot be read");
    if (rc != 0)
        return api_reply_error(out, 404, "not_found", "no such player");
    if (them.id == me->id)
        return api_reply_error(out, 400, "bad_message", "you cannot follow yourself");
    rc = on ? store_follow(svc->db, me->id, them.id, unix_ms())
            : store_unfollow(svc->db, me->id, them.id);
    if (rc < 0)
        return api_reply_error(out, 500, "internal", "the change could not be stored");
    return api_reply_empty(out, 204);
}

/* GET /api/players?q=PREFIX: players whose name begins so, as names.c folds
 * names (any case, any script). */
static int search(service *svc, const api_request *r, api_answer *out)
{
    char q[STORE_NAME_MAX + 1], normalized[STORE_NAME_MAX + 1], key[NAME_FOLD_MAX + 1], why[128];
    if (!api_query_arg(r, "q", q, sizeof q))
        return api_reply_error(out, 400, "bad_message", "q= must be the start of a name");
    /* a prefix is no name: trailing spaces are kept out of the fold */
    size_t n = strlen(q);
    while (n && q[n - 1] == ' ')
        q[--n] = 0;
    if (!n || name_normalize(q, normalized, why, sizeof why) ||
        name_fold(normalized, key, sizeof key))
        return api_reply_json(out, 200, json_pack("{s:[]}", "players"));
    json_t *list = json_array();
    if (store_search_players(svc->db, key, SEARCH_MAX, add_person, list)) {
        json_decref(list);
        return api_reply_error(out, 500, "internal", "the players cannot be read");
    }
    return api_reply_json(out, 200, json_pack("{s:o}", "players", list));
}

int people_route(service *svc, const api_request *r, api_answer *out)
{
    const char *path = r->path;
    if (strcmp(path, "/players") == 0)
        return r->method == API_GET
                   ? search(svc, r, out)
                   : api_reply_error(out, 405, "method_not_allowed", "method not allowed here");
    bool games = strcmp(path, "/me/games") == 0, follows = strcmp(path, "/me/follows") == 0;
    bool one = strncmp(path, "/me/follows/", 12) == 0;
    if (!games && !follows && !one)
        return API_NOT_MINE;
    stored_account me;
    api_error err = {0};
    if (games && r->method == API_GET) { /* a session, or a token with game:read */
        if (bots_request_account(svc, r, SCOPE_GAME_READ, &me, &err))
            return api_reply_fail(out, &err);
        return my_games_json(svc, &me, out);
    }
    if (!accounts_session_by_hash(svc, r->session_hash, &me))
        return unauthorized(out);
    if (games)
        return r->method == API_GET
                   ? my_games_json(svc, &me, out)
                   : api_reply_error(out, 405, "method_not_allowed", "method not allowed here");
    if (follows && r->method == API_GET)
        return follows_json(svc, &me, out);
    if (follows && r->method == API_POST) {
        json_t *body = api_body(r, &err);
        if (!body)
            return api_reply_fail(out, &err);
        const char *name = json_string_value(json_object_get(body, "name"));
        int rc = name ? follow(svc, &me, name, true, out)
                      : api_reply_error(out, 400, "bad_message", "name must be a player's name");
        json_decref(body);
        return rc;
    }
    if (one && r->method == API_DELETE)
        return follow(svc, &me, path + 12, false, out);
    return api_reply_error(out, 405, "method_not_allowed", "method not allowed here");
}
