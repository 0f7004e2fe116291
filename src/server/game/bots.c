/*
 * bots.c - bots and the Bot API (docs/bot-api.md).
 *
 * A personal token ("axio_" and 32 base64url characters) is made here and
 * shown once; the store keeps its SHA-256, its scopes and its public id. A
 * request proves its account with the session cookie or, for a program,
 * with `Authorization: Bearer TOKEN`; a token's requests are counted for
 * the whole site (budgets.h). A bot plays through the same paths as a
 * person: its decisions, chat lines and resignations are the messages a
 * player's WebSocket would send, handled for its seat by play.c
 * (play_act), and its game stream is a viewer of the game (play.c) whose
 * messages the transport writes as lines.
 *
 * Event streams read the store, not this server's memory: once a second
 * each asks for its bot's challenges and games and says what changed, so
 * a bot may connect to any server of a site and finds, after a restart,
 * everything it must answer (the transport keeps a silent stream alive
 * with empty lines). A token has one event stream: a newer one
 * marks itself in the store, and an older one, seeing so, ends.
 */
#include "bots.h"
#include "../../engine/decision.h"
#include "accounts.h"
#include "api.h"
#include "budgets.h"
#include "json_state.h"
#include "lobby.h"
#include "names.h"
#include "owners.h"
#include "pairing.h"
#include "people.h"
#include "play.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TOKEN_PREFIX      "axio_"
#define TOKEN_LABEL_CHARS 60
#define ABOUT_CHARS       300
#define TOKENS_MAX        20     /* per account */
#define EVENTS_POLL_S     1.0    /* an event stream reads the store this often */
#define SETTLED_SINCE_MS  600000 /* challenges settled this recently are looked at */
#define GAMES_LISTED      100
#define BOTS_LISTED       100
#define ONLINE_MS         180000 /* seen this recently: online (as people.c says) */

static const struct {
    const char *name;
    unsigned bit;
} scope_names[] = {
    {"bot:play", SCOPE_BOT_PLAY},
    {"challenge:write", SCOPE_CHALLENGE_WRITE},
    {"game:read", SCOPE_GAME_READ},
};
#define NSCOPES (sizeof scope_names / sizeof scope_names[0])

static unsigned scopes_of_text(const char *text)
{
    unsigned bits = 0;
    char copy[STORE_SCOPES_MAX + 1];
    snprintf(copy, sizeof copy, "%s", text);
    for (char *save = NULL, *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save))
        for (size_t i = 0; i < NSCOPES; i++)
            if (strcmp(w, scope_names[i].name) == 0)
                bits |= scope_names[i].bit;
    return bits;
}

static json_t *scopes_json(const char *text)
{
    json_t *list = json_array();
    unsigned bits = scopes_of_text(text);
    for (size_t i = 0; i < NSCOPES; i++)
        if (bits & scope_names[i].bit)
            json_array_append_new(list, json_string(scope_names[i].name));
    return list;
}

static size_t utf8_chars(const char *s)
{
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        n += (*p & 0xc0) != 0x80;
    return n;
}

/* Whether a text typed by a person is plain: no control character. */
static bool plain_text(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (*p < 0x20 || *p == 0x7f)
            return false;
    return true;
}

/* --- who a request is --- */

static int unauthorized(api_error *err, const char *message, const char *reason)
{
    api_fail(err, 401, "unauthorized", message);
    err->reason = reason;
    return -1;
}

/* The token of a request, and its account: 0, or -1 with err. */
static int token_account(service *svc, const api_request *r, unsigned scope, stored_account *me,
                         stored_token *tok, api_error *err)
{
    const char *bearer = r->bearer;
    size_t plen = strlen(TOKEN_PREFIX);
    if (!bearer || strncmp(bearer, TOKEN_PREFIX, plen) != 0 || strlen(bearer + plen) != TOKEN_LEN ||
        !is_base64url(bearer + plen, TOKEN_LEN))
        return unauthorized(err, "send a personal API token: Authorization: Bearer axio_...", NULL);
    char hash[65];
    sha256_hex(bearer, hash);
    int rc = store_token_account(svc->db, hash, unix_ms(), tok, me);
    if (rc < 0) {
        service_log(svc, "reading a token failed: %s", store_error(svc->db));
        return api_fail(err, 500, "internal", "the token cannot be checked now; try again");
    }
    if (rc == 1)
        return unauthorized(err, "this token is unknown or was revoked", NULL);
    if ((scopes_of_text(tok->scopes) & scope) != scope)
        return unauthorized(err, "this token lacks the scope this request needs", "scope");
    double wait = 0;
    if (!budget_take(svc, BUDGET_TOKEN_REQUESTS, tok->id, 1, &wait)) {
        api_fail(err, 429, "rate_limited", "too many requests with this token; slow down");
        err->reason = "requests";
        err->retry_after_s = (int)wait + 1;
        return -1;
    }
    people_seen(svc, me->id);
    return 0;
}

int bots_request_account(service *svc, const api_request *r, unsigned scope, stored_account *me,
                         api_error *err)
{
    if (r->session_hash && r->session_hash[0] && accounts_session_by_hash(svc, r->session_hash, me))
        return 0;
    if (!r->bearer || strncmp(r->bearer, TOKEN_PREFIX, strlen(TOKEN_PREFIX)) != 0)
        return unauthorized(err, "log in first, or send a personal API token", NULL);
    stored_token tok;
    return token_account(svc, r, scope, me, &tok, err);
}

/* A bot's token, for the Bot API's own requests: 0, or -1 with err. */
static int bot_of(service *svc, const api_request *r, stored_account *me, stored_token *tok,
                  api_error *err)
{
    if (token_account(svc, r, SCOPE_BOT_PLAY, me, tok, err))
        return -1;
    if (!me->bot)
        return api_fail(err, 403, "not_a_bot",
                        "this account is not a bot: make it one first (docs/bot-api.md)");
    return 0;
}

/* --- tokens (the profile page) --- */

static json_t *token_json(const stored_token *t)
{
    return json_pack("{s:s,s:s,s:o,s:I,s:o}", "id", t->id, "label", t->label, "scopes",
                     scopes_json(t->scopes), "created", (json_int_t)t->created, "used",
                     t->used ? json_integer(t->used) : json_null());
}

static int add_token(const stored_token *t, void *arg)
{
    json_array_append_new(arg, token_json(t));
    return 0;
}

static int count_token(const stored_token *t, void *arg)
{
    (void)t;
    ++*(int *)arg;
    return 0;
}

static int tokens_list(service *svc, const stored_account *me, api_answer *out)
{
    json_t *list = json_array();
    if (store_each_token(svc->db, me->id, add_token, list)) {
        json_decref(list);
        service_log(svc, "listing tokens failed: %s", store_error(svc->db));
        return api_reply_error(out, 500, "internal", "the tokens cannot be read now");
    }
    return api_reply_json(out, 200, json_pack("{s:o}", "tokens", list));
}

static int token_create(service *svc, const api_request *r, const stored_account *me,
                        api_answer *out)
{
    api_error err = {0};
    json_t *body = api_body(r, &err);
    if (!body)
        return api_reply_fail(out, &err);
    const char *label = json_string_value(json_object_get(body, "label"));
    const json_t *scopes = json_object_get(body, "scopes");
    stored_token t = {.account_id = me->id, .created = unix_ms()};
    unsigned bits = 0;
    bool bad = !json_is_array(scopes) || json_array_size(scopes) == 0;
    for (size_t i = 0; !bad && i < json_array_size(scopes); i++) {
        const char *name = json_string_value(json_array_get(scopes, i));
        unsigned bit = 0;
        for (size_t k = 0; name && k < NSCOPES; k++)
            if (strcmp(name, scope_names[k].name) == 0)
                bit = scope_names[k].bit;
        bad = bit == 0;
        bits |= bit;
    }
    if (bad) {
        json_decref(body);
        return api_reply_error(out, 400, "bad_message",
                               "scopes must be a list of bot:play, challenge:write, game:read");
    }
    if (!label || !label[0] || utf8_chars(label) > TOKEN_LABEL_CHARS ||
        strlen(label) > STORE_LABEL_MAX || !plain_text(label)) {
        json_decref(body);
        return api_reply_error(out, 400, "bad_message",
                               "label must be a text of 1 to 60 characters, no control characters");
    }
    snprintf(t.label, sizeof t.label, "%s", label);
    json_decref(body);
    size_t n = 0;
    for (size_t k = 0; k < NSCOPES; k++)
        if (bits & scope_names[k].bit)
            n += (size_t)snprintf(t.scopes + n, sizeof t.scopes - n, "%s%s", n ? " " : "",
                                  scope_names[k].name);
    int count = 0;
    if (store_each_token(svc->db, me->id, count_token, &count) == 0 && count >= TOKENS_MAX)
        return api_reply_error(out, 409, "too_many_tokens",
                               "an account has at most 20 tokens: revoke one first");
    char secret[TOKEN_LEN + 1], full[sizeof TOKEN_PREFIX + TOKEN_LEN], hash[65], raw[16];
    if (secret_token(secret) || secret_bytes(raw, sizeof raw))
        return api_reply_error(out, 500, "internal", "no randomness available");
    for (size_t i = 0; i < STORE_TOKEN_ID_MAX; i++) /* a public id: hex, not the secret's */
        t.id[i] = "0123456789abcdef"[((unsigned char)raw[i / 2] >> (i % 2 ? 0 : 4)) & 15];
    t.id[STORE_TOKEN_ID_MAX] = 0;
    snprintf(full, sizeof full, "%s%s", TOKEN_PREFIX, secret);
    sha256_hex(full, hash);
    if (store_token_create(svc->db, &t, hash)) {
        service_log(svc, "storing a token failed: %s", store_error(svc->db));
        return api_reply_error(out, 500, "internal", "the token could not be stored");
    }
    int rc =
        api_reply_json(out, 201, json_pack("{s:o,s:s}", "token", token_json(&t), "secret", full));
    memset(full, 0, sizeof full);
    memset(secret, 0, sizeof secret);
    return rc;
}

static int token_delete(service *svc, const stored_account *me, const char *id, api_answer *out)
{
    int rc = strlen(id) == STORE_TOKEN_ID_MAX ? store_token_delete(svc->db, me->id, id) : 1;
    if (rc < 0) {
        service_log(svc, "revoking a token failed: %s", store_error(svc->db));
        return api_reply_error(out, 500, "internal", "the token could not be revoked");
    }
    if (rc == 1)
        return api_reply_error(out, 404, "not_found", "no such token of yours");
    return api_reply_empty(out, 204);
}

static int tokens_route(service *svc, const api_request *r, api_answer *out, const char *rest)
{
    stored_account me;
    if (!accounts_session_by_hash(svc, r->session_hash, &me))
        return api_reply_error(out, 401, "unauthorized", "log in first");
    if (!rest[0]) {
        if (r->method == API_GET)
            return tokens_list(svc, &me, out);
        if (r->method == API_POST)
            return token_create(svc, r, &me, out);
    } else if (rest[0] == '/' && r->method == API_DELETE) {
        return token_delete(svc, &me, rest + 1, out);
    }
    return api_reply_error(out, 405, "method_not_allowed", "method not allowed here");
}

/* --- making an account a bot --- */

static int upgrade(service *svc, const api_request *r, api_answer *out)
{
    api_error err = {0};
    stored_account me;
    if (r->method != API_POST)
        return api_reply_error(out, 405, "method_not_allowed", "method not allowed here");
    if (bots_request_account(svc, r, SCOPE_BOT_PLAY, &me, &err))
        return api_reply_fail(out, &err);
    json_t *body = api_body(r, &err);
    if (!body)
        return api_reply_fail(out, &err);
    const json_t *v = json_object_get(body, "about");
    const char *about = json_is_string(v) ? json_string_value(v) : "";
    if ((v && !json_is_string(v)) || utf8_chars(about) > ABOUT_CHARS ||
        strlen(about) > STORE_ABOUT_MAX || (v && strlen(about) != json_string_length(v)) ||
        !plain_text(about)) { /* no NUL inside */
        json_decref(body);
        return api_reply_error(out, 400, "bad_message",
                               "about must be a text of at most 300 characters");
    }
    char text[STORE_ABOUT_MAX + 1];
    snprintf(text, sizeof text, "%s", about);
    json_decref(body);
    if (me.bot)
        return api_reply_error(out, 409, "already_bot", "this account is a bot already");
    int rc = store_account_make_bot(svc->db, me.id, text);
    if (rc < 0) {
        service_log(svc, "making a bot failed: %s", store_error(svc->db));
        return api_reply_error(out, 500, "internal", "the account could not be changed");
    }
    if (rc == 1)
        return api_reply_error(out, 409, "has_rated_games",
                               "only an account that has played no rated game becomes a bot");
    return api_reply_json(out, 200,
                          json_pack("{s:s,s:b,s:s}", "name", me.name, "bot", 1, "about", text));
}

/* --- a bot's game: decisions, chat, resigning, claiming, aborting --- */

static int game_action(service *svc, const api_request *r, api_answer *out, const char *id,
                       const char *action)
{
    game *gm = NULL;
    char holder[STORE_INSTANCE_LEN + 1];
    int held = is_base64url(id, GAME_ID_LEN) ? lobby_hold(svc, id, &gm, holder) : HOLD_MISSING;
    if (held == HOLD_ELSEWHERE && !r->relayed && owners_address(svc, holder, out->relay_to) == 0)
        return API_RELAY; /* its holder answers */
    if (held == HOLD_ELSEWHERE)
        return api_reply_error(out, 503, "game_moving",
                               "the game is moving; try again in a moment");
    if (held == HOLD_FAILED)
        return api_reply_error(out, 500, "internal", "the game cannot be read now; try again");
    stored_account me;
    stored_token tok;
    api_error err = {0};
    if (bot_of(svc, r, &me, &tok, &err))
        return api_reply_fail(out, &err);
    if (!gm)
        return api_reply_error(out, 404, "not_found", "no such game");
    int seat = lobby_seat_of_account(gm, me.id, -1);
    if (strcmp(action, "stream") == 0) {
        if (r->method != API_GET)
            return api_reply_error(out, 405, "method_not_allowed", "method not allowed here");
        if (seat < 0)
            return api_reply_error(out, 403, "unauthorized", "the bot holds no seat of this game");
        out->stream = (api_stream){.kind = STREAM_GAME, .account_id = me.id};
        snprintf(out->stream.token_id, sizeof out->stream.token_id, "%s", tok.id);
        snprintf(out->stream.game_id, sizeof out->stream.game_id, "%s", gm->id);
        return API_STREAM;
    }
    if (r->method != API_POST)
        return api_reply_error(out, 405, "method_not_allowed", "method not allowed here");
    if (seat < 0)
        return api_reply_error(out, 403, "unauthorized", "the bot holds no seat of this game");
    json_t *msg = NULL;
    if (strcmp(action, "move") == 0) {
        json_t *body = api_body(r, &err);
        if (!body)
            return api_reply_fail(out, &err);
        json_t *engine_move = json_object_get(body, "move");
        json_t *ply = json_object_get(body, "ply");
        if (ply && !json_is_integer(ply)) {
            json_decref(body);
            return api_reply_error(out, 400, "bad_message", "ply is the position's ply");
        }
        if (ply && json_integer_value(ply) != gm->g.ply) {
            /* a decision sent again after a lost answer: taken already, or no longer due */
            char why[160];
            snprintf(why, sizeof why, "the decision for ply %lld is not due: the game is at ply %d",
                     (long long)json_integer_value(ply), gm->g.ply);
            json_decref(body);
            return api_reply_error(out, 409, "not_your_turn", why);
        }
        if (engine_move) {
            /* the engine protocol's decision (docs/engine-protocol.md) as the
             * message a player would send, once the seat may decide at all */
            ax_move m;
            char why[160];
            int rc = play_check_act(gm, seat, &err)
                         ? -1
                         : ax_decision_read(&gm->g, engine_move, &m, why, sizeof why);
            json_decref(body);
            if (rc < 0)
                return api_reply_fail(out, &err);
            if (rc != AX_REPLAY_OK)
                return api_reply_error(
                    out, 400, rc == AX_REPLAY_MALFORMED ? "bad_message" : "illegal_move", why);
            msg = ax_decision_message(&gm->g, &m);
        } else {
            json_object_del(body, "ply");
            msg = body;
        }
        const char *type = json_string_value(json_object_get(msg, "type"));
        if (!type || (strcmp(type, "place") != 0 && strcmp(type, "swap") != 0)) {
            json_decref(msg);
            return api_reply_error(out, 400, "bad_message",
                                   "a move is a place or swap message, or {\"move\": an engine's "
                                   "decision}");
        }
    } else if (strcmp(action, "chat") == 0) {
        json_t *body = api_body(r, &err);
        if (!body)
            return api_reply_fail(out, &err);
        msg =
            json_pack("{s:s,s:O}", "type", "chat", "text",
                      json_object_get(body, "text") ? json_object_get(body, "text") : json_null());
        json_decref(body);
    } else if (strcmp(action, "resign") == 0 || strcmp(action, "claim") == 0 ||
               strcmp(action, "abort") == 0) {
        msg = json_pack("{s:s}", "type", action);
    } else {
        return api_reply_error(out, 404, "not_found", "no such endpoint");
    }
    const struct pending_decision *storing = gm->pending;
    int rc = play_act(gm, seat, me.id, r->ip, msg, &err);
    json_decref(msg);
    if (rc)
        return api_reply_fail(out, &err);
    /* a decision this request made (a move, a resignation) is answered once
     * stored: a 200 is never lost with a server killed before its commit */
    if (gm->pending != storing && play_answer_when_stored(gm, seat, r->request))
        return API_PENDING;
    return api_reply_json(out, 200, json_pack("{s:b}", "ok", 1));
}

/* --- event streams --- */

typedef struct {
    char id[24];
    char status[12];
} seen_item;

typedef struct bot_events {
    service *svc;
    void *conn;
    int64_t account_id;
    char token_id[STORE_TOKEN_ID_MAX + 1];
    char stream[33]; /* this stream's id in the store: the token's newest */
    double next_poll;
    bool ended;
    seen_item *challenges, *games; /* what was said: their status then */
    int nchallenges, ngames;
    struct bot_events *prev, *next;
} bot_events;

struct bots {
    bot_events *streams;
};

struct bots *bots_new(void) { return calloc(1, sizeof(struct bots)); }

static void say(bot_events *e, json_t *line)
{
    char *text = json_dumps(line, JSON_COMPACT);
    json_decref(line);
    msg *m = text ? msg_copy(text, strlen(text)) : NULL;
    free(text);
    if (m)
        e->svc->hooks.send(e->conn, m);
    msg_unref(m);
}

static seen_item *seen_find(seen_item *list, int n, const char *id)
{
    for (int i = 0; i < n; i++)
        if (strcmp(list[i].id, id) == 0)
            return &list[i];
    return NULL;
}

/* What one poll found, before it is compared with what was said. */
typedef struct {
    bot_events *e;
    seen_item *items;
    int n, cap;
    bool failed;
    json_t *news; /* new challenges' lines: said after the ends, oldest first */
} poll_list;

static seen_item *poll_add(poll_list *l, const char *id, const char *status)
{
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 16;
        seen_item *grown = realloc(l->items, (size_t)cap * sizeof *grown);
        if (!grown) {
            l->failed = true;
            return NULL;
        }
        l->items = grown;
        l->cap = cap;
    }
    seen_item *s = &l->items[l->n++];
    snprintf(s->id, sizeof s->id, "%s", id);
    snprintf(s->status, sizeof s->status, "%s", status);
    return s;
}

static json_t *clock_json(const char *text)
{
    json_t *v = text[0] ? json_loads(text, 0, NULL) : NULL;
    return v ? v : json_null();
}

static json_t *challenge_line(const char *type, const stored_challenge *c)
{
    return json_pack("{s:s,s:o}", "type", type, "challenge", challenge_json(c));
}

static int poll_challenge(const stored_challenge *c, void *arg)
{
    poll_list *l = arg;
    bot_events *e = l->e;
    poll_add(l, c->id, c->status);
    seen_item *was = seen_find(e->challenges, e->nchallenges, c->id);
    bool to_me = false, open = strcmp(c->status, "open") == 0;
    for (int i = 0; i < STORE_CHALLENGE_TO && i < c->players - 1; i++)
        to_me = to_me || c->to_id[i] == e->account_id;
    if (to_me && open && !was)
        json_array_insert_new(l->news, 0, challenge_line("challenge", c));
    else if (to_me && was && strcmp(was->status, "open") == 0 &&
             (strcmp(c->status, "cancelled") == 0 || strcmp(c->status, "expired") == 0))
        say(e, challenge_line("challengeCanceled", c));
    else if (strcmp(c->status, "declined") == 0 && c->declined_by != e->account_id &&
             (to_me ? was && strcmp(was->status, "open") == 0
                    : !was || strcmp(was->status, "declined")))
        /* the challenger's, and the other invited's of a group (issue 49) */
        say(e, challenge_line("challengeDeclined", c));
    return 0;
}

static json_t *game_of_json(const stored_game_of *g)
{
    return json_pack("{s:s,s:i,s:s,s:i,s:s,s:b,s:o,s:s}", "id", g->id, "seat", g->seat, "variant",
                     g->variant, "players", g->players, "mode", g->mode, "rated", g->rated, "clock",
                     clock_json(g->clock), "status", g->status);
}

static int poll_game(const stored_game_of *g, void *arg)
{
    poll_list *l = arg;
    bot_events *e = l->e;
    poll_add(l, g->id, g->status);
    seen_item *was = seen_find(e->games, e->ngames, g->id);
    if (strcmp(g->status, "running") == 0 && (!was || strcmp(was->status, "running") != 0))
        say(e, json_pack("{s:s,s:o}", "type", "gameStart", "game", game_of_json(g)));
    return 0;
}

/* A game that was running when last looked at and is no longer open. */
static void game_finished(bot_events *e, const char *id)
{
    stored_game sg;
    if (store_load_summary(e->svc->db, id, &sg) != 0)
        return;
    int seat = -1;
    for (int i = 0; i < sg.players; i++)
        if (sg.seats[i].account_id == e->account_id)
            seat = i;
    json_t *end = sg.end_summary[0] ? json_loads(sg.end_summary, 0, NULL) : NULL;
    json_t *g =
        json_pack("{s:s,s:i,s:s,s:i,s:s,s:b,s:o,s:s,s:o}", "id", sg.id, "seat", seat, "variant",
                  sg.variant, "players", sg.players, "mode", sg.mode, "rated", sg.rated, "clock",
                  clock_json(sg.clock), "status", sg.status, "end", end ? end : json_null());
    stored_game_free(&sg);
    say(e, json_pack("{s:s,s:o}", "type", "gameFinish", "game", g));
}

static void events_poll(bot_events *e, double now)
{
    service *svc = e->svc;
    e->next_poll = now + EVENTS_POLL_S;
    people_seen(svc, e->account_id); /* a bot listening is online, with games or not */
    int mine = store_token_stream(svc->db, e->token_id, e->stream);
    if (mine == 1) { /* a newer stream of the token (or the token revoked) */
        e->ended = true;
        svc->hooks.close(e->conn, 1000);
        return;
    }
    people_seen(svc, e->account_id); /* a bot listening is online */
    /* a challenge that ended is said before a new one: a bridge counting
     * the one it accepted as a game then has room for the next */
    poll_list ch = {.e = e, .news = json_array()}, gs = {.e = e};
    int64_t now_ms = unix_ms();
    if (mine < 0 ||
        store_each_challenge(svc->db, e->account_id, now_ms, now_ms - SETTLED_SINCE_MS,
                             poll_challenge, &ch) ||
        store_each_game_of(svc->db, e->account_id, GAMES_LISTED, poll_game, &gs)) {
        service_log(svc, "a bot's event stream cannot read the store: %s", store_error(svc->db));
        free(ch.items);
        free(gs.items);
        json_decref(ch.news);
        return; /* tried again at the next poll */
    }
    for (size_t i = 0; i < json_array_size(ch.news); i++)
        say(e, json_incref(json_array_get(ch.news, i)));
    json_decref(ch.news);
    if (!ch.failed) {
        free(e->challenges);
        e->challenges = ch.items;
        e->nchallenges = ch.n;
    } else {
        free(ch.items);
    }
    if (!gs.failed) {
        for (int i = 0; i < e->ngames; i++)
            if (strcmp(e->games[i].status, "running") == 0 &&
                !seen_find(gs.items, gs.n, e->games[i].id))
                game_finished(e, e->games[i].id);
        free(e->games);
        e->games = gs.items;
        e->ngames = gs.n;
    } else {
        free(gs.items);
    }
}

void *bots_events_open(service *svc, const api_stream *s, void *conn)
{
    bot_events *e = calloc(1, sizeof *e);
    unsigned char raw[16];
    if (!e || secret_bytes(raw, sizeof raw)) {
        free(e);
        return NULL;
    }
    for (int i = 0; i < 32; i++)
        e->stream[i] = "0123456789abcdef"[(raw[i / 2] >> (i % 2 ? 0 : 4)) & 15];
    e->svc = svc;
    e->conn = conn;
    e->account_id = s->account_id;
    snprintf(e->token_id, sizeof e->token_id, "%s", s->token_id);
    if (store_token_stream_set(svc->db, e->token_id, e->stream))
        service_log(svc, "marking an event stream failed: %s", store_error(svc->db));
    e->next = svc->bots->streams;
    if (e->next)
        e->next->prev = e;
    svc->bots->streams = e;
    /* what is pending now comes at once */
    events_poll(e, service_now(svc));
    return e;
}

void bots_events_close(service *svc, void *stream)
{
    bot_events *e = stream;
    if (!e)
        return;
    if (e->prev)
        e->prev->next = e->next;
    else
        svc->bots->streams = e->next;
    if (e->next)
        e->next->prev = e->prev;
    free(e->challenges);
    free(e->games);
    free(e);
}

void bots_tick(service *svc, double now)
{
    for (bot_events *e = svc->bots->streams; e; e = e->next)
        if (!e->ended && now >= e->next_poll)
            events_poll(e, now);
}

void bots_free(service *svc)
{
    if (!svc->bots)
        return;
    while (svc->bots->streams)
        bots_events_close(svc, svc->bots->streams);
    free(svc->bots);
    svc->bots = NULL;
}

/* --- the routes --- */

/* --- the bots people may challenge (the lobby) --- */

static int add_bot(const stored_bot *b, void *arg)
{
    service *svc = ((void **)arg)[0];
    json_t *list = ((void **)arg)[1];
    json_t *ratings = json_object();
    for (int v = 0; v < AX_VARIANTS; v++) {
        rt_rating r;
        int games = 0;
        if (store_rating(svc->db, b->id, ax_variant_name(v), &r, &games) == 0 && games > 0)
            json_object_set_new(
                ratings, ax_variant_name(v),
                json_pack("{s:i,s:i}", "rating", rt_show(r).rating, "games", games));
    }
    json_array_append_new(list, json_pack("{s:s,s:s,s:b,s:b,s:o}", "name", b->name, "about",
                                          b->about, "bot", 1, "online",
                                          b->seen_at > 0 && unix_ms() - b->seen_at < ONLINE_MS,
                                          "ratings", ratings));
    return 0;
}

static int bots_list(service *svc, const api_request *r, api_answer *out)
{
    if (r->method != API_GET)
        return api_reply_error(out, 405, "method_not_allowed", "method not allowed here");
    json_t *list = json_array();
    void *arg[2] = {svc, list};
    if (store_each_bot(svc->db, BOTS_LISTED, add_bot, arg)) {
        json_decref(list);
        return api_reply_error(out, 500, "internal", "the bots cannot be read now");
    }
    return api_reply_json(out, 200, json_pack("{s:o}", "bots", list));
}

int bots_route(service *svc, const api_request *r, api_answer *out)
{
    const char *path = r->path;
    if (strcmp(path, "/bots") == 0)
        return bots_list(svc, r, out);
    if (strncmp(path, "/me/tokens", 10) == 0 && (path[10] == 0 || path[10] == '/'))
        return tokens_route(svc, r, out, path + 10);
    if (strncmp(path, "/bot/", 5) != 0)
        return API_NOT_MINE;
    path += 5;
    if (strcmp(path, "account/upgrade") == 0)
        return upgrade(svc, r, out);
    if (strcmp(path, "stream/event") == 0) {
        if (r->method != API_GET)
            return api_reply_error(out, 405, "method_not_allowed", "method not allowed here");
        stored_account me;
        stored_token tok;
        api_error err = {0};
        if (bot_of(svc, r, &me, &tok, &err))
            return api_reply_fail(out, &err);
        out->stream = (api_stream){.kind = STREAM_EVENTS, .account_id = me.id};
        snprintf(out->stream.token_id, sizeof out->stream.token_id, "%s", tok.id);
        return API_STREAM;
    }
    if (strncmp(path, "game/stream/", 12) == 0)
        return game_action(svc, r, out, path + 12, "stream");
    if (strncmp(path, "game/", 5) == 0) {
        const char *id = path + 5, *slash = strchr(id, '/');
        char gid[GAME_ID_LEN + 1];
        if (slash && (size_t)(slash - id) <= GAME_ID_LEN) {
            memcpy(gid, id, (size_t)(slash - id));
            gid[slash - id] = 0;
            return game_action(svc, r, out, gid, slash + 1);
        }
    }
    return api_reply_error(out, 404, "not_found", "no such endpoint");
}
