/*
 * harness.c - the game service's unit tests' stand-in for the transport
 * (see harness.h): the hooks record, the helpers make plain calls.
 */
#include "harness.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* --- the hooks --- */

static void hook_send(void *arg, msg *m)
{
    conn *c = arg;
    assert_false(c->closed); /* nothing is queued after the close */
    if (c->n == c->cap) {
        c->cap = c->cap ? 2 * c->cap : 16;
        c->texts = realloc(c->texts, (size_t)c->cap * sizeof *c->texts);
        assert_non_null(c->texts);
    }
    c->texts[c->n] = strndup(msg_text(m), m->len);
    assert_non_null(c->texts[c->n]);
    c->n++;
}

static void hook_close(void *arg, int code)
{
    ((conn *)arg)->closed = true;
    ((conn *)arg)->close_code = code;
}

static void hook_answer(void *request, api_answer *a)
{
    harness *h = request;
    free(h->answered.body);
    h->answered = *a;
    h->has_answer = true;
}

static void hook_wake(void *arg) { atomic_fetch_add(&((harness *)arg)->wakes, 1); }

static double hook_now(void *arg) { return ((harness *)arg)->now; }

/* --- the service --- */

harness *h_new(store *db, int absent_s)
{
    harness *h = calloc(1, sizeof *h);
    assert_non_null(h);
    h->db = db ? db : fake_store_new();
    h->now = 1000.0;
    service_config cfg = {.ai_threads = 1,
                          .absent_s = absent_s,
                          .waiting_ttl_s = 600,
                          .judge_playouts = 20,
                          .quiet = true,
                          .games_per_hour = 1000,
                          .waiting_per_ip = 1000,
                          .strong_games_per_hour = 1000,
                          .hints_per_10_min = 1000,
                          .analyses_per_hour = 1000,
                          .signups_per_hour = 1000};
    service_hooks hooks = {.send = hook_send,
                           .close = hook_close,
                           .answer = hook_answer,
                           .wake = hook_wake,
                           .now = hook_now,
                           .arg = h};
    char err[128];
    h->svc = service_new(&cfg, &hooks, h->db, err, sizeof err);
    assert_non_null(h->svc);
    assert_int_equal(service_start(h->svc), 0);
    return h;
}

void h_free(harness *h, bool keep_store)
{
    service_free(h->svc);
    if (!keep_store)
        fake_store_free(h->db);
    free(h->answered.body);
    free(h);
}

void h_advance(harness *h, double seconds)
{
    h->now += seconds;
    service_tick(h->svc, h->now);
}

void h_housekeeping(harness *h) { service_housekeeping(h->svc, h->now); }

void h_pump(harness *h)
{
    fake_store_commit(h->db);
    atomic_store(&h->wakes, 0); /* this collect takes in whatever woke it */
    service_collect(h->svc);
}

bool h_wait_wake(harness *h)
{
    for (int i = 0; i < 2000; i++) {
        if (atomic_exchange(&h->wakes, 0) > 0) {
            service_collect(h->svc);
            return true;
        }
        nanosleep(&(struct timespec){0, 5000000}, NULL);
    }
    return false;
}

/* --- the API --- */

/* An API request as the transport makes it; a pending one is waited for. */
static json_t *h_request(harness *h, int method, const char *path, const char *body,
                         const char *bearer, const char *session, int *status, char session_out[65])
{
    api_request r = {.method = method,
                     .path = path,
                     .body = body ? body : "",
                     .body_len = body ? strlen(body) : 0,
                     .session_hash = session,
                     .bearer = bearer,
                     .ip = "192.0.2.1",
                     .request = h};
    api_answer a;
    int rc = service_api(h->svc, &r, &a);
    if (rc == API_PENDING) { /* a password worker answers through hooks.answer */
        h->has_answer = false;
        while (!h->has_answer)
            assert_true(h_wait_wake(h));
        a = h->answered;
        memset(&h->answered, 0, sizeof h->answered);
        rc = API_ANSWERED;
    }
    assert_int_equal(rc, API_ANSWERED);
    *status = a.status;
    if (session_out && a.session == SESSION_SET)
        sha256_hex(a.session_token, session_out);
    json_t *v = a.body ? json_loadb(a.body, a.len, 0, NULL) : NULL;
    free(a.body);
    return v;
}

json_t *h_api(harness *h, int method, const char *path, const char *body, int *status)
{
    return h_request(h, method, path, body, NULL, "", status, NULL);
}

json_t *h_api_bearer(harness *h, int method, const char *path, const char *body, const char *bearer,
                     int *status)
{
    return h_request(h, method, path, body, bearer, "", status, NULL);
}

json_t *h_api_session(harness *h, int method, const char *path, const char *body,
                      const char *session, int *status, char session_out[65])
{
    return h_request(h, method, path, body, NULL, session, status, session_out);
}

void h_create(harness *h, const char *body, char id[GAME_ID_LEN + 1], int *seat,
              char token[TOKEN_LEN + 1])
{
    int status;
    json_t *v = h_api(h, API_POST, "/games", body, &status);
    assert_int_equal(status, 201);
    snprintf(id, GAME_ID_LEN + 1, "%s", json_string_value(json_object_get(v, "game")));
    snprintf(token, TOKEN_LEN + 1, "%s", json_string_value(json_object_get(v, "token")));
    *seat = (int)json_integer_value(json_object_get(v, "seat"));
    assert_int_equal(strlen(id), GAME_ID_LEN);
    assert_int_equal(strlen(token), TOKEN_LEN);
    json_decref(v);
}

int h_join(harness *h, const char *id, const char *name, char token[TOKEN_LEN + 1], int *status)
{
    char path[64], body[128];
    snprintf(path, sizeof path, "/games/%s/join", id);
    snprintf(body, sizeof body, "{\"name\":\"%s\"}", name);
    json_t *v = h_api(h, API_POST, path, body, status);
    int seat = -1;
    if (*status == 200) {
        seat = (int)json_integer_value(json_object_get(v, "seat"));
        snprintf(token, TOKEN_LEN + 1, "%s", json_string_value(json_object_get(v, "token")));
    }
    json_decref(v);
    return seat;
}

/* --- connections --- */

static conn *h_open_as(harness *h, const char *id, const char *token, bool moves, const char *ip,
                       const char *session)
{
    conn *c = calloc(1, sizeof *c);
    assert_non_null(c);
    viewer_args a = {.game_id = id,
                     .token = token,
                     .session_hash = session,
                     .ip = ip,
                     .moves = moves,
                     .conn = c};
    c->v = service_open(h->svc, &a);
    assert_non_null(c->v);
    return c;
}

conn *h_open_from(harness *h, const char *id, const char *token, bool moves, const char *ip)
{
    return h_open_as(h, id, token, moves, ip, "");
}

conn *h_open_session(harness *h, const char *id, const char *token, const char *session)
{
    return h_open_as(h, id, token, false, "192.0.2.200", session);
}

conn *h_open(harness *h, const char *id, const char *token, bool moves)
{
    char ip[48];
    snprintf(ip, sizeof ip, "192.0.2.%d", ++h->nconns % 250 + 1);
    return h_open_from(h, id, token, moves, ip);
}

void h_send(harness *h, conn *c, const char *text)
{
    service_message(h->svc, c->v, text, strlen(text));
}

void conn_clear(conn *c)
{
    for (int i = 0; i < c->n; i++)
        free(c->texts[i]);
    c->n = 0;
}

void h_close(harness *h, conn *c)
{
    service_close(h->svc, c->v);
    conn_clear(c);
    free(c->texts);
    free(c);
}

static bool of_type(const char *text, const char *type, json_t **out)
{
    json_t *v = json_loads(text, 0, NULL);
    assert_non_null(v); /* every message is JSON */
    bool match = !type || strcmp(json_string_value(json_object_get(v, "type")), type) == 0;
    if (match && out)
        *out = v;
    else
        json_decref(v);
    return match;
}

int conn_count(const conn *c, const char *type)
{
    int n = 0;
    for (int i = 0; i < c->n; i++)
        n += of_type(c->texts[i], type, NULL);
    return n;
}

json_t *conn_last(const conn *c, const char *type)
{
    json_t *v = NULL;
    for (int i = c->n - 1; i >= 0 && !v; i--)
        of_type(c->texts[i], type, &v);
    return v;
}

json_t *jpath(json_t *v, const char *path)
{
    char key[64];
    while (v && *path) {
        size_t n = strcspn(path, ".");
        assert_true(n < sizeof key);
        memcpy(key, path, n);
        key[n] = 0;
        v = json_object_get(v, key);
        path += n + (path[n] == '.');
    }
    return v;
}

/* --- a game at a table --- */

void table_open(table *t, harness *h, const char *body)
{
    memset(t, 0, sizeof *t);
    t->h = h;
    int seat, status;
    h_create(h, body, t->id, &seat, t->token[0]);
    assert_int_equal(seat, 0);
    assert_int_equal(h_join(h, t->id, "Bob", t->token[1], &status), 1);
    for (int s = 0; s < 2; s++)
        t->seat[s] = h_open(h, t->id, t->token[s], true);
    t->spectator = h_open(h, t->id, NULL, false);
}

void table_close(table *t)
{
    for (int s = 0; s < 2; s++)
        if (t->seat[s])
            h_close(t->h, t->seat[s]);
    if (t->spectator)
        h_close(t->h, t->spectator);
}

void table_clear(table *t)
{
    for (int s = 0; s < 2; s++)
        if (t->seat[s])
            conn_clear(t->seat[s]);
    if (t->spectator)
        conn_clear(t->spectator);
}

game *h_held(service *svc, const char *id)
{
    game *gm;
    return lobby_hold(svc, id, &gm, NULL) == HOLD_HERE ? gm : NULL;
}

game *game_of(table *t) { return h_held(t->h->svc, t->id); }

int to_move(table *t) { return game_of(t)->g.to_move; }

/* The first of the legal moves the seat to move was sent, as message text. */
char *first_move(table *t)
{
    json_t *state = conn_last(t->seat[to_move(t)], "state");
    json_t *moves = json_object_get(json_object_get(state, "you"), "moves");
    assert_true(json_array_size(moves) > 0);
    char *text = json_dumps(json_array_get(moves, 0), JSON_COMPACT);
    json_decref(state);
    return text;
}

/* The seat to move plays its first legal move, stored and announced. */
void play_one(table *t)
{
    char *text = first_move(t);
    h_send(t->h, t->seat[to_move(t)], text);
    h_pump(t->h);
    free(text);
}

/* The last error a connection got: its code, or "" (static). */
const char *last_error(const conn *c)
{
    static char code[64];
    json_t *e = conn_last(c, "error");
    snprintf(code, sizeof code, "%s", e ? json_string_value(json_object_get(e, "code")) : "");
    json_decref(e);
    return code;
}
