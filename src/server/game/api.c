/*
 * api.c - the HTTP API of the game service (docs/protocol.md#http).
 *
 * The transport routes every /api request but /api/health here, already
 * limited per address and checked for its origin and body type, as a plain
 * api_request (method, path, query arguments, body, the session cookie's
 * hash, the client's address); the answer is a status and a body
 * (api_answer), or pending while a password worker checks a password
 * (accounts.c). Games: create, join, cancel, describe, list, the record
 * and the analysis; accounts, sessions, players and the leaderboard are
 * accounts.c's.
 */
#include "api.h"
#include "../../engine/reason.h"
#include "accounts.h"
#include "analysis_jobs.h"
#include "bots.h"
#include "events.h"
#include "game.h"
#include "json_state.h"
#include "lobby.h"
#include "mail.h"
#include "moderation.h"
#include "owners.h"
#include "pairing.h"
#include "people.h"
#include "play.h"
#include "push.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- answers --- */

int api_reply_text(api_answer *a, int status, const char *type, char *text, size_t len)
{
    a->status = status;
    a->content_type = type;
    a->body = text;
    a->len = len;
    return 0;
}

int api_reply_json(api_answer *a, int status, json_t *body)
{
    char *text = json_dumps(body, JSON_COMPACT | JSON_ENCODE_ANY);
    json_decref(body);
    if (!text) {
        static const char oom[] =
            "{\"error\":{\"code\":\"internal\",\"message\":\"out of memory\"}}";
        char *copy = strdup(oom);
        return api_reply_text(a, 500, "application/json", copy, copy ? sizeof oom - 1 : 0);
    }
    return api_reply_text(a, status, "application/json", text, strlen(text));
}

int api_reply_error(api_answer *a, int status, const char *code, const char *message)
{
    return api_reply_json(a, status,
                          json_pack("{s:{s:s,s:s}}", "error", "code", code, "message", message));
}

int api_fail(api_error *err, int http, const char *code, const char *message)
{
    err->http = http;
    err->code = code;
    snprintf(err->message, sizeof err->message, "%s", message);
    err->reason = NULL;
    return -1;
}

int api_reply_fail(api_answer *a, const api_error *err)
{
    a->retry_after_s = err->retry_after_s;
    if (!err->reason)
        return api_reply_error(a, err->http, err->code, err->message);
    json_t *body = json_pack("{s:{s:s,s:s,s:s}}", "error", "code", err->code, "message",
                             err->message, "reason", err->reason);
    if (err->retry_after_s > 0)
        json_object_set_new(json_object_get(body, "error"), "retry_after_s",
                            json_integer(err->retry_after_s));
    return api_reply_json(a, err->http, body);
}

int api_reply_empty(api_answer *a, int status) { return api_reply_text(a, status, NULL, NULL, 0); }

const char *api_query_arg(const api_request *r, const char *name, char *out, size_t size)
{
    size_t n = strlen(name);
    for (int i = 0; i < r->nargs; i++) {
        const char *arg = r->args[i];
        if (strncmp(arg, name, n) != 0 || arg[n] != '=')
            continue;
        if (strlen(arg + n + 1) >= size)
            return NULL;
        strcpy(out, arg + n + 1);
        return out;
    }
    return NULL;
}

/* --- games --- */

json_t *api_body(const api_request *r, api_error *err)
{
    if (r->body_len == 0)
        return json_object();
    json_error_t jerr;
    json_t *v = json_loadb(r->body, r->body_len, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &jerr);
    if (!v) {
        err->http = 400;
        err->code =
            json_error_code(&jerr) == json_error_numeric_overflow ? "bad_message" : "bad_json";
        ax_json_error_text(&jerr, err->message, sizeof err->message);
    }
    return v;
}

static int create_game(service *svc, const api_request *r, api_answer *out)
{
    api_error err = {0};
    json_t *body = api_body(r, &err);
    if (!body)
        return api_reply_fail(out, &err);
    game *gm;
    int seat;
    char token[TOKEN_LEN + 1];
    stored_account account;
    bool logged_in = accounts_session_by_hash(svc, r->session_hash, &account);
    int rc = lobby_create(svc, body, logged_in ? &account : NULL, r->ip, &gm, &seat, token, &err);
    json_decref(body);
    if (rc)
        return api_reply_fail(out, &err);
    return api_reply_json(out, 201,
                          json_pack("{s:s,s:i,s:s}", "game", gm->id, "seat", seat, "token", token));
}

static int join_game(service *svc, const api_request *r, api_answer *out, game *gm)
{
    api_error err = {0};
    json_t *body = api_body(r, &err);
    if (!body)
        return api_reply_fail(out, &err);
    int seat;
    char token[TOKEN_LEN + 1];
    stored_account account;
    bool logged_in = accounts_session_by_hash(svc, r->session_hash, &account);
    int rc = moderation_may_join(gm, logged_in ? &account : NULL, &err);
    if (rc == 0)
        rc = lobby_join(gm, body, logged_in ? &account : NULL, &seat, token, &err);
    json_decref(body);
    if (rc)
        return api_reply_fail(out, &err);
    return api_reply_json(out, 200, json_pack("{s:i,s:s}", "seat", seat, "token", token));
}

static int game_record(api_answer *out, game *gm)
{
    if (gm->status != GAME_OVER)
        return api_reply_error(out, 403, "forbidden",
                               "the record is available once the game is over");
    size_t len;
    char *text = record_text(gm, &len);
    if (!text)
        return api_reply_error(out, 500, "internal", "out of memory");
    return api_reply_text(out, 200, "application/x-ndjson", text, len);
}

/* GET /api/games/{id}/analysis?seat=S: 202 while it is worked on, then 200. */
static int game_analysis(service *svc, const api_request *r, api_answer *out, game *gm)
{
    char buf[16];
    const char *v = api_query_arg(r, "seat", buf, sizeof buf);
    char *end = NULL;
    long seat = v ? strtol(v, &end, 10) : -1;
    if (!v || !*v || *end || seat < 0 || seat >= AX_MAX_PLAYERS)
        return api_reply_error(out, 400, "bad_message", "?seat= must be one of the game's seats");
    char *text;
    json_t *progress;
    api_error err = {0};
    stored_account account;
    creator by = {r->ip, accounts_session_by_hash(svc, r->session_hash, &account) ? account.id : 0};
    if (analysis_request(gm, (int)seat, &by, &text, &progress, &err))
        return api_reply_fail(out, &err);
    if (progress)
        return api_reply_json(out, 202, progress);
    return api_reply_text(out, 200, "application/json", text, strlen(text));
}

static int method_not_allowed(api_answer *out)
{
    return api_reply_error(out, 405, "method_not_allowed", "method not allowed here");
}

static int cancel_game(const api_request *r, api_answer *out, game *gm)
{
    api_error err = {0};
    if (lobby_cancel(gm, r->bearer, &err))
        return api_reply_fail(out, &err);
    return api_reply_json(out, 200, json_pack("{s:s}", "status", "cancelled"));
}

/* A game set aside as damaged: described and its stored decisions served,
 * never joined, cancelled or played. */
static int damaged_route(service *svc, const api_request *r, api_answer *out, const stored_game *sg,
                         const char *action)
{
    if (r->method == API_DELETE || strcmp(action, "join") == 0) {
        if (r->method != API_POST && r->method != API_DELETE)
            return method_not_allowed(out);
        return api_reply_error(out, 409, "damaged",
                               "the game is damaged: its stored decisions can no longer be "
                               "replayed");
    }
    if (r->method != API_GET)
        return method_not_allowed(out);
    if (strcmp(action, "") == 0)
        return api_reply_json(out, 200, damaged_game_json(sg));
    if (strcmp(action, "analysis") == 0)
        return api_reply_error(out, 409, "damaged",
                               "the game is damaged: its decisions cannot be analysed");
    size_t len;
    char *text = damaged_record_text(svc->db, sg, &len);
    if (!text)
        return api_reply_error(out, 500, "internal", "the stored decisions cannot be read");
    return api_reply_text(out, 200, "application/x-ndjson", text, len);
}

/* /api/games/{id}[/join|/record|/analysis] */
static int game_route(service *svc, const api_request *r, api_answer *out, const char *rest)
{
    char id[GAME_ID_LEN + 1];
    const char *slash = strchr(rest, '/');
    size_t n = slash ? (size_t)(slash - rest) : strlen(rest);
    const char *action = slash ? slash + 1 : "";
    game *gm = NULL;
    int held = HOLD_MISSING;
    char holder[STORE_INSTANCE_LEN + 1];
    if (n <= GAME_ID_LEN) {
        memcpy(id, rest, n);
        id[n] = 0;
        held = lobby_hold(svc, id, &gm, holder);
    }
    /* its holder answers: the transport passes the request on */
    if (held == HOLD_ELSEWHERE && !r->relayed && r->method != API_OTHER &&
        owners_address(svc, holder, out->relay_to) == 0)
        return API_RELAY;
    if (held == HOLD_ELSEWHERE)
        return api_reply_error(out, 503, "game_moving",
                               "the game is moving to this server; try again in a moment");
    if (held == HOLD_FAILED)
        return api_reply_error(out, 500, "internal", "the game cannot be read now; try again");
    if (strcmp(action, "") && strcmp(action, "join") && strcmp(action, "record") &&
        strcmp(action, "analysis"))
        return api_reply_error(out, 404, "not_found", "no such endpoint");
    stored_game damaged;
    if (!gm && n <= GAME_ID_LEN && lobby_damaged(svc, id, &damaged) == 0) {
        int rc = damaged_route(svc, r, out, &damaged, action);
        stored_game_free(&damaged);
        return rc;
    }
    if (!gm)
        return api_reply_error(out, 404, "not_found", "no such game");
    if (strcmp(action, "") == 0 && r->method == API_DELETE)
        return cancel_game(r, out, gm);
    if (strcmp(action, "join") == 0)
        return r->method == API_POST ? join_game(svc, r, out, gm) : method_not_allowed(out);
    if (r->method != API_GET)
        return method_not_allowed(out);
    if (strcmp(action, "record") == 0)
        return game_record(out, gm);
    if (strcmp(action, "analysis") == 0)
        return game_analysis(svc, r, out, gm);
    char *text = state_game_text(gm);
    if (!text)
        return api_reply_error(out, 500, "internal", "out of memory");
    return api_reply_text(out, 200, "application/json", text, strlen(text));
}

/* GET /api/games[?status=over|?ids=A,B|?status=&variant=&limit=&cursor=] */
static int list_games(service *svc, const api_request *r, api_answer *out)
{
    char buf[64 * (GAME_ID_LEN + 1) + 8], variant[256], limit[256], cursor[256];
    const char *status = api_query_arg(r, "status", buf, sizeof buf);
    if (status && strcmp(status, "over") == 0)
        return api_reply_json(out, 200, lobby_finished_json(svc));
    const char *ids = status ? NULL : api_query_arg(r, "ids", buf, sizeof buf);
    if (ids)
        return api_reply_json(out, 200, lobby_entries_json(svc, ids));
    api_error err = {0};
    json_t *list =
        lobby_list_query(svc, status, api_query_arg(r, "variant", variant, sizeof variant),
                         api_query_arg(r, "limit", limit, sizeof limit),
                         api_query_arg(r, "cursor", cursor, sizeof cursor), &err);
    return list ? api_reply_json(out, 200, list) : api_reply_fail(out, &err);
}

int service_api(service *svc, const api_request *r, api_answer *out)
{
    memset(out, 0, sizeof *out);
    int rc = moderation_route(svc, r, out);
    if (rc == API_NOT_MINE)
        rc = people_route(svc, r, out);
    if (rc == API_NOT_MINE)
        rc = bots_route(svc, r, out);
    if (rc == API_NOT_MINE)
        rc = pairing_route(svc, r, out);
    if (rc == API_NOT_MINE)
        rc = events_route(svc, r, out);
    if (rc == API_NOT_MINE)
        rc = accounts_route(svc, r, out);
    if (rc == API_NOT_MINE)
        rc = push_route(svc, r, out);
    if (rc == API_NOT_MINE)
        rc = mail_route(svc, r, out);
    if (rc != API_NOT_MINE)
        return rc;
    if (strcmp(r->path, "/games") == 0) {
        if (r->method == API_GET)
            return list_games(svc, r, out);
        if (r->method == API_POST)
            return create_game(svc, r, out);
        return method_not_allowed(out);
    }
    if (strncmp(r->path, "/games/", 7) == 0)
        return game_route(svc, r, out, r->path + 7);
    return API_NOT_MINE;
}

void service_api_abandon(service *svc, void *request)
{
    accounts_abandon(svc, request);
    play_abandon(svc, request);
}
