/*
 * pairing.c - how two players get a game without a link passed by hand
 * (docs/accounts.md, "Challenges and quick pairing"): a challenge from one
 * account to another, and a seek that pairs its account with another
 * seeker of a similar rating, or after SEEK_COMPUTER_S with the computer
 * level whose rating is nearest.
 *
 * A challenge may ask two or three accounts at once to a game of 3 or 4
 * seats (issue 49). Each acceptance sets the accepter's bit on the row in
 * one update; the acceptance that finds every bit set makes the game
 * (lobby_create_table, the seats shuffled) and settles the challenge open
 * -> accepted. Two last acceptances at once on two servers both make a
 * game; the settling lets one win, and the other game is dropped and its
 * accepter told the winner's. One decline settles it for all.
 *
 * Both live in the store (store_social.c), so a challenge sent on one
 * server of a site is answered on another, and two seeks made on two
 * servers meet. The game is made as lobby_create_pair makes it: both seats
 * bound to their accounts and played with the session (a.k.a. the seats
 * follow the account), so no token needs to reach the other player.
 * Clients ask again (GET) to learn what became of their challenge or seek;
 * a seek nobody asks about for SEEK_ALIVE_S is no longer paired.
 */
#include "pairing.h"
#include "../../ai/levels.h"
#include "accounts.h"
#include "api.h"
#include "bots.h"
#include "budgets.h"
#include "clock.h"
#include "game.h"
#include "lobby.h"
#include "moderation.h"
#include "play.h"
#include "push.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHALLENGE_TTL_S   600 /* an open challenge expires */
#define SEEK_ALIVE_S      20  /* a seek not asked about for this long pairs no more */
#define SEEK_COMPUTER_S   15  /* then the computer nearest in rating plays */
#define SEEK_WINDOW       100 /* ratings this close meet at once, */
#define SEEK_WIDEN        25  /* and this much more for every second waited, */
#define SEEK_WINDOW_MAX   600 /* up to this */
#define BOT_GAMES_AT_ONCE 50

static const char *const decline_reasons[] = {"generic", "later",  "variant", "timeControl",
                                              "rated",   "casual", "tooFast", "tooSlow"};

static int fail(api_answer *out, int status, const char *code, const char *message)
{
    return api_reply_error(out, status, code, message);
}

static int not_allowed(api_answer *out)
{
    return fail(out, 405, "method_not_allowed", "method not allowed here");
}

/* What a new challenge or seek asks for: the variant, the clock (its
 * settings JSON in out_clock, "" without) and whether rated. */
static int read_terms(service *svc, const json_t *body, int *variant, game_clock *clock,
                      char *clock_text, size_t size, bool *rated, api_error *err)
{
    (void)svc;
    const char *v = json_string_value(json_object_get(body, "variant"));
    const json_t *r = json_object_get(body, "rated");
    *variant = v ? ax_variant_parse(v) : -1;
    *rated = json_is_true(r);
    clock_text[0] = 0;
    if (*variant < 0) {
        err->http = 400, err->code = "bad_message";
        snprintf(err->message, sizeof err->message, "variant must be square, rota or hex");
        return -1;
    }
    if (r && !json_is_boolean(r)) {
        err->http = 400, err->code = "bad_message";
        snprintf(err->message, sizeof err->message, "rated must be true or false");
        return -1;
    }
    if (clock_parse(json_object_get(body, "clock"), clock, err))
        return -1;
    if (*rated && clock->kind == GAME_CLOCK_NONE) {
        err->http = 400, err->code = "bad_message";
        snprintf(err->message, sizeof err->message, "a rated game needs a clock");
        return -1;
    }
    json_t *settings = clock_settings_json(clock);
    char *text = json_is_null(settings) ? NULL : json_dumps(settings, JSON_COMPACT);
    json_decref(settings);
    snprintf(clock_text, size, "%s", text ? text : "");
    free(text);
    return 0;
}

static bool settings_of(const char *clock_text, game_clock *clock)
{
    if (!clock_text[0]) {
        memset(clock, 0, sizeof *clock);
        clock->kind = GAME_CLOCK_NONE;
        return true;
    }
    return clock_from_json_text(clock_text, clock);
}

static json_t *clock_value(const char *text)
{
    json_t *v = text[0] ? json_loads(text, 0, NULL) : NULL;
    return v ? v : json_null();
}

/* --- challenges --- */

/* The challenged accounts' number: players - 1. */
static int invited_count(const stored_challenge *c)
{
    int n = c->players - 1;
    return n < 1 ? 1 : n > STORE_CHALLENGE_TO ? STORE_CHALLENGE_TO : n;
}

/* Which of the challenged the account is: its index, or -1. */
static int invited_index(const stored_challenge *c, int64_t account_id)
{
    for (int i = 0; i < invited_count(c); i++)
        if (c->to_id[i] == account_id)
            return i;
    return -1;
}

json_t *challenge_json(const stored_challenge *c)
{
    bool accepted = strcmp(c->status, "accepted") == 0;
    json_t *invited = json_array();
    const char *declined_by = NULL;
    for (int i = 0; i < invited_count(c); i++) {
        json_t *one = json_pack("{s:s,s:b}", "name", c->to_name[i], "accepted",
                                accepted || (c->accepted >> i & 1u));
        if (one && c->to_bot[i])
            json_object_set_new(one, "bot", json_true());
        json_array_append_new(invited, one);
        if (c->declined_by == c->to_id[i])
            declined_by = c->to_name[i];
    }
    json_t *j = json_pack(
        "{s:s,s:s,s:s,s:s,s:i,s:s,s:b,s:o,s:s,s:o,s:o,s:I,s:I,s:o,s:o}", "id", c->id, "from",
        c->from_name, "to", c->to_name[0], "variant", c->variant, "players", c->players, "mode",
        c->mode[0] ? c->mode : "standard", "rated", c->rated, "clock", clock_value(c->clock),
        "status", c->status, "game", c->game_id[0] ? json_string(c->game_id) : json_null(),
        "reason", c->reason[0] ? json_string(c->reason) : json_null(), "created",
        (json_int_t)c->created, "expires", (json_int_t)c->expires, "invited", invited,
        "declined_by", declined_by ? json_string(declined_by) : json_null());
    if (j && c->from_bot) /* as a seat says it: only when it is one */
        json_object_set_new(j, "from_bot", json_true());
    if (j && c->to_bot[0])
        json_object_set_new(j, "to_bot", json_true());
    return j;
}

/* Replies with the error; 1 (an API_ANSWERED for a caller that goes on
 * otherwise). */
static int refuse(api_answer *out, int status, const char *code, const char *message)
{
    fail(out, status, code, message);
    return 1;
}

/* The challenged of a new challenge: "to" is a name (a two-player game) or
 * a list of one to three names (a game of one seat more); into them[], *n
 * of them. Replies and returns nonzero when refused. */
static int read_invited(service *svc, const json_t *to, const stored_account *me,
                        stored_account them[STORE_CHALLENGE_TO], int *n, api_answer *out)
{
    const char *names[STORE_CHALLENGE_TO];
    *n = 0;
    if (json_is_string(to)) {
        names[(*n)++] = json_string_value(to);
    } else if (json_is_array(to) && json_array_size(to) >= 1 &&
               json_array_size(to) <= STORE_CHALLENGE_TO) {
        for (size_t i = 0; i < json_array_size(to); i++) {
            const char *name = json_string_value(json_array_get(to, i));
            if (!name)
                return refuse(out, 400, "bad_message", "to must be a list of players' names");
            names[(*n)++] = name;
        }
    } else if (json_is_array(to)) {
        return refuse(out, 400, "bad_message",
                      "to names one to three players (a game has at most four seats)");
    } else {
        return refuse(out, 400, "bad_message", "to must be a player's name or a list of them");
    }
    for (int i = 0; i < *n; i++) {
        char why[120];
        int found = accounts_by_name(svc, names[i], &them[i]);
        if (found < 0)
            return refuse(out, 500, "internal", "the players cannot be read");
        if (found > 0) {
            snprintf(why, sizeof why, "no such player: %.40s", names[i]);
            return refuse(out, 404, "not_found", *n == 1 ? "no such player" : why);
        }
        if (them[i].id == me->id)
            return refuse(out, 400, "bad_message", "you cannot challenge yourself");
        if (them[i].computer) {
            snprintf(why, sizeof why,
                     "%.40s is a computer level: it is not challenged, create a game against it",
                     them[i].name);
            return refuse(out, 400, "bad_message",
                          *n == 1 ? "a computer level is not challenged: create a game against it"
                                  : why);
        }
        for (int k = 0; k < i; k++)
            if (them[k].id == them[i].id) {
                snprintf(why, sizeof why, "%.40s is named twice", them[i].name);
                return refuse(out, 400, "bad_message", why);
            }
    }
    return 0;
}

/* The seats and mode a challenge to n accounts asks for: "players" (n + 1
 * unless given) and "mode" (standard unless given). */
static int read_table(const json_t *body, int variant, int n, int *players, int *mode,
                      api_answer *out)
{
    const json_t *p = json_object_get(body, "players"), *m = json_object_get(body, "mode");
    *players = n + 1;
    *mode = AX_STANDARD;
    if (p && (!json_is_integer(p) || json_integer_value(p) < 2 ||
              json_integer_value(p) > AX_MAX_PLAYERS))
        return refuse(out, 400, "bad_message", "players must be 2, 3 or 4");
    if (p && json_integer_value(p) != n + 1) {
        char why[120];
        snprintf(why, sizeof why, "a game of %d players is a challenge to %d: to names %d",
                 (int)json_integer_value(p), (int)json_integer_value(p) - 1, n);
        return refuse(out, 400, "bad_message", why);
    }
    if (m && (!json_is_string(m) || ax_mode_parse(json_string_value(m)) < 0))
        return refuse(out, 400, "bad_message", "mode must be standard or team");
    if (m)
        *mode = ax_mode_parse(json_string_value(m));
    if (ax_config_check(variant, *players, *mode) != AX_OK)
        return refuse(out, 400, "bad_message",
                      "the variant is not played so (team: hex with 4 players only)");
    return 0;
}

static int challenge_create(service *svc, const api_request *r, const stored_account *me,
                            api_answer *out)
{
    api_error err = {0};
    json_t *body = api_body(r, &err);
    if (!body)
        return api_reply_fail(out, &err);
    stored_challenge c;
    memset(&c, 0, sizeof c);
    int variant, n = 0, mode;
    game_clock clock;
    stored_account them[STORE_CHALLENGE_TO];
    int rc = read_terms(svc, body, &variant, &clock, c.clock, sizeof c.clock, &c.rated, &err);
    if (rc) {
        json_decref(body);
        return api_reply_fail(out, &err);
    }
    if (read_invited(svc, json_object_get(body, "to"), me, them, &n, out) ||
        read_table(body, variant, n, &c.players, &mode, out)) {
        json_decref(body);
        return API_ANSWERED;
    }
    json_decref(body);
    /* an invitee who blocks the sender takes no challenge of theirs, alone or
     * in a group (the others invited see each other and may decline) */
    for (int i = 0; i < n; i++)
        if (moderation_may_challenge(svc, me->id, them[i].id, &err))
            return api_reply_fail(out, &err);
    double wait = 0;
    if (!budget_take(svc, BUDGET_GAMES, r->ip, 1, &wait)) {
        api_error e = {429, "rate_limited", "too many games asked for from this address", "games",
                       (int)wait + 1};
        return api_reply_fail(out, &e);
    }
    if (secret_game_id(c.id))
        return fail(out, 500, "internal", "no randomness available");
    c.from_id = me->id;
    for (int i = 0; i < n; i++)
        c.to_id[i] = them[i].id;
    snprintf(c.variant, sizeof c.variant, "%s", ax_variant_name(variant));
    snprintf(c.mode, sizeof c.mode, "%s", ax_mode_name(mode));
    c.created = unix_ms();
    c.expires = c.created + CHALLENGE_TTL_S * 1000LL;
    if (store_challenge_create(svc->db, &c))
        return fail(out, 500, "internal", "the challenge could not be stored");
    snprintf(c.from_name, sizeof c.from_name, "%s", me->name);
    c.from_bot = me->bot;
    for (int i = 0; i < n; i++) {
        snprintf(c.to_name[i], sizeof c.to_name[i], "%s", them[i].name);
        c.to_bot[i] = them[i].bot;
    }
    snprintf(c.status, sizeof c.status, "open");
    for (int i = 0; i < n; i++)
        push_challenge(svc, them[i].id, me->name, c.variant);
    return api_reply_json(out, 201, json_pack("{s:o}", "challenge", challenge_json(&c)));
}

typedef struct {
    int64_t me;
    json_t *received, *sent;
} challenge_lists;

static int add_challenge(const stored_challenge *c, void *arg)
{
    challenge_lists *l = arg;
    json_array_append_new(invited_index(c, l->me) >= 0 ? l->received : l->sent, challenge_json(c));
    return 0;
}

static int challenges_of(service *svc, const stored_account *me, api_answer *out)
{
    challenge_lists l = {me->id, json_array(), json_array()};
    int64_t now = unix_ms();
    if (store_each_challenge(svc->db, me->id, now, now - CHALLENGE_TTL_S * 1000LL, add_challenge,
                             &l)) {
        json_decref(l.received);
        json_decref(l.sent);
        return fail(out, 500, "internal", "the challenges cannot be read");
    }
    return api_reply_json(out, 200, json_pack("{s:o,s:o}", "received", l.received, "sent", l.sent));
}

/* A random seat for the first of two: neither begins always. */
static int coin(void)
{
    uint8_t b = 0;
    secret_bytes(&b, 1);
    return b & 1;
}

/* The seats in a random order: nobody begins always, nor sits always
 * before another (Fisher-Yates on fresh random bytes). */
static void shuffle_seats(pair_seat *seats, int n)
{
    uint8_t b[AX_MAX_PLAYERS] = {0};
    secret_bytes(b, sizeof b);
    for (int i = n - 1; i > 0; i--) {
        int j = b[i] % (i + 1);
        pair_seat t = seats[i];
        seats[i] = seats[j];
        seats[j] = t;
    }
}

static int count_game(const stored_game_of *g, void *arg)
{
    (void)g;
    ++*(int *)arg;
    return 0;
}

/* Gives back a bot's day's game against bots taken by bots_may_play. */
static void give_back_bot_game(service *svc, int64_t account_id)
{
    char who[24];
    snprintf(who, sizeof who, "%lld", (long long)account_id);
    budget_take(svc, BUDGET_BOT_GAMES, who, -1, NULL);
}

/* What the bots of a game may still play (docs/bot-api.md, "Limits"): so
 * many games at once each, and so many a day against other bots (each bot
 * of a table with another bot counts one); false with err when refused
 * (nothing counted). */
static bool bots_may_play(service *svc, const stored_account *const *table, int n, api_error *err)
{
    int bots = 0;
    for (int i = 0; i < n; i++) {
        int games = 0;
        bots += table[i]->bot;
        if (table[i]->bot &&
            store_each_game_of(svc->db, table[i]->id, BOT_GAMES_AT_ONCE + 1, count_game, &games) ==
                0 &&
            games >= BOT_GAMES_AT_ONCE) {
            char why[160];
            snprintf(why, sizeof why, "%s plays %d games at once already; later", table[i]->name,
                     games);
            api_fail(err, 429, "rate_limited", why);
            err->reason = "bot_busy";
            err->retry_after_s = 60;
            return false;
        }
    }
    if (bots < 2)
        return true;
    double wait = 0;
    for (int i = 0; i < n; i++) {
        if (!table[i]->bot || budget_take_account(svc, BUDGET_BOT_GAMES, table[i]->id, &wait))
            continue;
        for (int k = 0; k < i; k++) /* those taken are given back */
            if (table[k]->bot)
                give_back_bot_game(svc, table[k]->id);
        char why[160];
        snprintf(why, sizeof why, "%s plays at most 100 games a day against other bots",
                 table[i]->name);
        api_fail(err, 429, "rate_limited",
                 n == 2 ? "a bot plays at most 100 games a day against other bots" : why);
        err->reason = "bot_games";
        err->retry_after_s = (int)wait + 1;
        return false;
    }
    return true;
}

typedef struct {
    const char *game;
    int seat;
} seat_find;

static int find_seat(const char *id, int seat, void *arg)
{
    seat_find *f = arg;
    if (strcmp(id, f->game) != 0)
        return 0;
    f->seat = seat;
    return 1;
}

/* The answer to the one whose acceptance found the game made: the game
 * and the account's seat there. */
static int reply_game(service *svc, const char *game_id, int64_t account_id, api_answer *out)
{
    seat_find f = {game_id, -1};
    store_each_open_game_of(svc->db, account_id, 100, find_seat, &f);
    return api_reply_json(out, 200,
                          json_pack("{s:s,s:o}", "game", game_id, "seat",
                                    f.seat >= 0 ? json_integer(f.seat) : json_null()));
}

/* Makes the game of a challenge all have accepted: every seat bound to its
 * account, in a random order. */
static int challenge_start(service *svc, const stored_account *me, const stored_challenge *c,
                           int index, api_answer *out)
{
    game_clock clock;
    if (!settings_of(c->clock, &clock))
        return fail(out, 500, "internal", "the challenge's clock cannot be read");
    int n = invited_count(c);
    stored_account accounts[1 + STORE_CHALLENGE_TO];
    const stored_account *table[1 + STORE_CHALLENGE_TO];
    for (int i = 0; i <= n; i++) {
        int64_t id = i == 0 ? c->from_id : c->to_id[i - 1];
        int found =
            id == me->id ? (accounts[i] = *me, 0) : store_account_by_id(svc->db, id, &accounts[i]);
        if (found != 0)
            return found < 0 ? fail(out, 500, "internal", "the players cannot be read")
                             : fail(out, 409, "not_open", "a player's account is gone");
        table[i] = &accounts[i];
    }
    api_error err = {0};
    if (!bots_may_play(svc, table, n + 1, &err)) {
        store_challenge_answer(svc->db, c->id, index, false); /* asked again later */
        return api_reply_fail(out, &err);
    }
    pair_seat seats[1 + STORE_CHALLENGE_TO];
    for (int i = 0; i <= n; i++)
        seats[i] = (pair_seat){accounts[i].id, accounts[i].name, NULL, accounts[i].bot};
    shuffle_seats(seats, n + 1);
    int mine = 0;
    for (int i = 0; i <= n; i++)
        if (seats[i].account_id == me->id)
            mine = i;
    game *gm;
    if (lobby_create_table(svc, ax_variant_parse(c->variant), c->players,
                           ax_mode_parse(c->mode[0] ? c->mode : "standard"), &clock, c->rated,
                           seats, NULL, &gm, &err))
        return api_reply_fail(out, &err);
    int rc = store_challenge_settle(svc->db, c->id, "open", "accepted", gm->id, NULL, 0);
    if (rc == 0)
        return api_reply_json(out, 200, json_pack("{s:s,s:i}", "game", gm->id, "seat", mine));
    /* taken back, expired, or started by another's acceptance meanwhile */
    lobby_abandon_new(gm);
    stored_challenge now;
    if (rc > 0 && store_challenge_get(svc->db, c->id, &now) == 0 &&
        strcmp(now.status, "accepted") == 0 && now.game_id[0])
        return reply_game(svc, now.game_id, me->id, out);
    return rc < 0 ? fail(out, 500, "internal", "the challenge could not be stored")
                  : fail(out, 409, "not_open", "the challenge is no longer open");
}

/* An invited accepts: the game is made once all have (by the last one's
 * acceptance); before, the answer is the challenge with who accepted. */
static int challenge_accept(service *svc, const stored_account *me, stored_challenge *c,
                            api_answer *out)
{
    int index = invited_index(c, me->id);
    if (index < 0)
        return fail(out, 403, "forbidden", "only the challenged player accepts");
    int rc = store_challenge_answer(svc->db, c->id, index, true);
    int got = rc < 0 ? -1 : store_challenge_get(svc->db, c->id, c);
    if (got < 0)
        return fail(out, 500, "internal", "the challenge could not be stored");
    if (got > 0 || strcmp(c->status, "open") != 0)
        return strcmp(c->status, "accepted") == 0 && c->game_id[0]
                   ? reply_game(svc, c->game_id, me->id, out)
                   : fail(out, 409, "not_open", "the challenge is no longer open");
    unsigned all = (1u << invited_count(c)) - 1;
    if ((c->accepted & all) == all)
        return challenge_start(svc, me, c, index, out);
    return api_reply_json(
        out, 200, json_pack("{s:n,s:n,s:o}", "game", "seat", "challenge", challenge_json(c)));
}

/* An invited declines: the challenge ends for all, saying who and why. */
static int challenge_decline(service *svc, const api_request *r, const stored_account *me,
                             const stored_challenge *c, api_answer *out)
{
    if (invited_index(c, me->id) < 0)
        return fail(out, 403, "forbidden", "only the challenged player declines");
    api_error err = {0};
    json_t *body = api_body(r, &err);
    if (!body)
        return api_reply_fail(out, &err);
    const char *reason = json_string_value(json_object_get(body, "reason"));
    const char *why = reason ? NULL : "generic";
    for (size_t i = 0; reason && i < sizeof decline_reasons / sizeof decline_reasons[0]; i++)
        if (strcmp(reason, decline_reasons[i]) == 0)
            why = decline_reasons[i];
    json_decref(body);
    if (!why)
        return fail(out, 400, "bad_message",
                    "reason must be generic, later, variant, timeControl, rated, casual, tooFast "
                    "or tooSlow");
    int rc = store_challenge_settle(svc->db, c->id, "open", "declined", NULL, why, me->id);
    if (rc < 0)
        return fail(out, 500, "internal", "the challenge could not be stored");
    if (rc > 0)
        return fail(out, 409, "not_open", "the challenge is no longer open");
    return api_reply_empty(out, 204);
}

static int challenge_route(service *svc, const api_request *r, const stored_account *me,
                           const char *rest, api_answer *out)
{
    char id[GAME_ID_LEN + 1];
    const char *slash = strchr(rest, '/');
    size_t n = slash ? (size_t)(slash - rest) : strlen(rest);
    const char *action = slash ? slash + 1 : "";
    stored_challenge c;
    int rc = 1;
    if (n == GAME_ID_LEN) {
        memcpy(id, rest, n);
        id[n] = 0;
        rc = is_base64url(id, GAME_ID_LEN) ? store_challenge_get(svc->db, id, &c) : 1;
    }
    if (rc < 0)
        return fail(out, 500, "internal", "the challenge cannot be read");
    if (rc > 0 || (c.from_id != me->id && invited_index(&c, me->id) < 0))
        return fail(out, 404, "not_found", "no such challenge");
    bool open = strcmp(c.status, "open") == 0 && c.expires > unix_ms();
    if (strcmp(action, "") == 0 && r->method == API_GET)
        return api_reply_json(out, 200, json_pack("{s:o}", "challenge", challenge_json(&c)));
    if (strcmp(action, "") == 0 && r->method == API_DELETE) {
        if (c.from_id != me->id)
            return fail(out, 403, "forbidden", "only the challenger takes it back");
        rc = open ? store_challenge_settle(svc->db, c.id, "open", "cancelled", NULL, NULL, 0) : 1;
        return rc < 0 ? fail(out, 500, "internal", "the challenge could not be stored")
               : rc   ? fail(out, 409, "not_open", "the challenge is no longer open")
                      : api_reply_empty(out, 204);
    }
    if (strcmp(action, "accept") && strcmp(action, "decline"))
        return fail(out, 404, "not_found", "no such endpoint");
    if (r->method != API_POST)
        return not_allowed(out);
    if (!open)
        return fail(out, 409, "not_open", "the challenge is no longer open");
    return strcmp(action, "accept") == 0 ? challenge_accept(svc, me, &c, out)
                                         : challenge_decline(svc, r, me, &c, out);
}

/* --- seeks --- */

static json_t *seek_json(const stored_seek *k)
{
    bool matched = strcmp(k->status, "matched") == 0;
    return json_pack("{s:s,s:s,s:s,s:b,s:o,s:o,s:o}", "id", k->id, "status",
                     strcmp(k->status, "open") == 0 ? "waiting" : k->status, "variant", k->variant,
                     "rated", k->rated, "clock", clock_value(k->clock), "game",
                     matched ? json_string(k->game_id) : json_null(), "seat",
                     matched ? json_integer(k->seat) : json_null());
}

static int rating_of(service *svc, int64_t account_id, const char *variant)
{
    rt_rating r;
    int games;
    if (store_rating(svc->db, account_id, variant, &r, &games)) {
        rt_params p = rt_default_params();
        r = rt_initial(&p);
    }
    return rt_show(r).rating;
}

/* The computer level whose rating in the variant is nearest. */
static const ai_level *nearest_level(service *svc, const char *variant, int rating)
{
    const ai_level *best = NULL;
    int best_gap = 0;
    for (const ai_level *l = ai_levels; l->name; l++) {
        stored_account level;
        char key[64];
        snprintf(key, sizeof key, "%s", l->name);
        if (store_account_by_key(svc->db, key, &level) != 0)
            continue;
        int gap = abs(rating_of(svc, level.id, variant) - rating);
        if (!best || gap < best_gap) {
            best = l;
            best_gap = gap;
        }
    }
    return best;
}

/* Pairs seek k (open) with a person, or after SEEK_COMPUTER_S with a
 * computer; k is read again after. */
static void try_pairing(service *svc, stored_seek *k)
{
    int64_t now = unix_ms();
    long waited = (long)((now - k->created) / 1000);
    int window = SEEK_WINDOW + SEEK_WIDEN * (int)waited;
    if (window > SEEK_WINDOW_MAX)
        window = SEEK_WINDOW_MAX;
    stored_seek them;
    int found = store_seek_partner(svc->db, k, window, now - SEEK_ALIVE_S * 1000LL, &them);
    const ai_level *level = NULL;
    if (found != 0 && waited >= SEEK_COMPUTER_S)
        level = nearest_level(svc, k->variant, k->rating);
    if (found != 0 && !level)
        return;
    game_clock clock;
    if (!settings_of(k->clock, &clock))
        return;
    int first = coin();
    pair_seat seats[2];
    seats[first] = (pair_seat){k->account_id, k->name, NULL, false};
    seats[1 - first] = found == 0 ? (pair_seat){them.account_id, them.name, NULL, false}
                                  : (pair_seat){0, NULL, level->name, false};
    game *gm;
    api_error err = {0};
    if (lobby_create_pair(svc, ax_variant_parse(k->variant), &clock, k->rated, seats, NULL, &gm,
                          &err)) {
        service_log(svc, "pairing a seek failed: %s", err.message);
        return;
    }
    int rc =
        store_seek_match(svc->db, k->id, first, found == 0 ? them.id : NULL, 1 - first, gm->id);
    if (rc != 0)
        lobby_abandon_new(gm); /* the other was paired meanwhile */
    store_seek_get(svc->db, k->id, k);
}

static int seek_create(service *svc, const api_request *r, const stored_account *me,
                       api_answer *out)
{
    api_error err = {0};
    json_t *body = api_body(r, &err);
    if (!body)
        return api_reply_fail(out, &err);
    stored_seek k;
    memset(&k, 0, sizeof k);
    int variant;
    game_clock clock;
    int rc = read_terms(svc, body, &variant, &clock, k.clock, sizeof k.clock, &k.rated, &err);
    json_decref(body);
    if (rc)
        return api_reply_fail(out, &err);
    double wait = 0;
    if (!budget_take(svc, BUDGET_GAMES, r->ip, 1, &wait)) {
        api_error e = {429, "rate_limited", "too many games asked for from this address", "games",
                       (int)wait + 1};
        return api_reply_fail(out, &e);
    }
    if (secret_game_id(k.id))
        return fail(out, 500, "internal", "no randomness available");
    k.account_id = me->id;
    snprintf(k.name, sizeof k.name, "%s", me->name);
    snprintf(k.variant, sizeof k.variant, "%s", ax_variant_name(variant));
    k.rating = rating_of(svc, me->id, k.variant);
    k.created = k.polled = unix_ms();
    snprintf(k.status, sizeof k.status, "open");
    if (store_seek_create(svc->db, &k))
        return fail(out, 500, "internal", "the seek could not be stored");
    try_pairing(svc, &k);
    return api_reply_json(out, 201, json_pack("{s:o}", "seek", seek_json(&k)));
}

static int seek_route(service *svc, const api_request *r, const stored_account *me, const char *id,
                      api_answer *out)
{
    stored_seek k;
    int rc = strlen(id) == GAME_ID_LEN && is_base64url(id, GAME_ID_LEN)
                 ? store_seek_get(svc->db, id, &k)
                 : 1;
    if (rc < 0)
        return fail(out, 500, "internal", "the seek cannot be read");
    if (rc > 0 || k.account_id != me->id)
        return fail(out, 404, "not_found", "no such seek");
    if (r->method == API_DELETE) {
        rc = store_seek_cancel(svc->db, k.id);
        return rc < 0 ? fail(out, 500, "internal", "the seek could not be stored")
               : rc   ? fail(out, 409, "not_open", "the seek was paired already")
                      : api_reply_empty(out, 204);
    }
    if (r->method != API_GET)
        return not_allowed(out);
    if (strcmp(k.status, "open") == 0) {
        store_seek_poll(svc->db, k.id, unix_ms());
        try_pairing(svc, &k);
    }
    return api_reply_json(out, 200, json_pack("{s:o}", "seek", seek_json(&k)));
}

int pairing_route(service *svc, const api_request *r, api_answer *out)
{
    const char *path = r->path;
    bool challenges = strcmp(path, "/challenges") == 0, mine = strcmp(path, "/me/challenges") == 0;
    bool challenge = strncmp(path, "/challenges/", 12) == 0, seeks = strcmp(path, "/seeks") == 0;
    bool seek = strncmp(path, "/seeks/", 7) == 0;
    if (!challenges && !mine && !challenge && !seeks && !seek)
        return API_NOT_MINE;
    /* a program's personal token may stand for the session: sending and
     * taking back challenges, answering them (a bot), reading them */
    unsigned scope = 0;
    if (challenges || (challenge && r->method == API_DELETE))
        scope = SCOPE_CHALLENGE_WRITE;
    else if (challenge && r->method == API_POST)
        scope = SCOPE_BOT_PLAY;
    else if (mine || challenge)
        scope = SCOPE_GAME_READ;
    stored_account me;
    api_error err = {0};
    if (scope ? bots_request_account(svc, r, scope, &me, &err) != 0
              : !accounts_session_by_hash(svc, r->session_hash, &me))
        return scope ? api_reply_fail(out, &err) : fail(out, 401, "unauthorized", "log in first");
    if ((seeks || seek) && me.bot)
        return fail(out, 403, "forbidden", "a bot does not seek: it is challenged");
    if (challenges)
        return r->method == API_POST ? challenge_create(svc, r, &me, out) : not_allowed(out);
    if (mine)
        return r->method == API_GET ? challenges_of(svc, &me, out) : not_allowed(out);
    if (challenge)
        return challenge_route(svc, r, &me, path + 12, out);
    if (seeks)
        return r->method == API_POST ? seek_create(svc, r, &me, out) : not_allowed(out);
    return seek_route(svc, r, &me, path + 7, out);
}

void pairing_housekeeping(service *svc)
{
    int64_t now = unix_ms();
    if (store_social_prune(svc->db, now - 3600 * 1000LL, now - 24 * 3600 * 1000LL))
        service_log(svc, "cannot forget old seeks and challenges: %s", store_error(svc->db));
}
