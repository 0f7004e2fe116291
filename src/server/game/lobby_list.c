/*
 * lobby_list.c - the lobby's entries (see lobby.h): a game as the lobby
 * lists it, from memory or from its stored form; the public list of
 * waiting and running games, a page at a time, with the entries the site's
 * other servers wrote; the entries of named games (?ids=); the newest
 * finished games. Every read here only looks: nothing is loaded or moved.
 */
#include "../../engine/record.h"
#include "api.h"
#include "clock.h"
#include "json_state.h"
#include "lobby.h"
#include "owners.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LIST_BARE_MAX      100 /* GET /api/games without limit or cursor */
#define LIST_LIMIT_DEFAULT 20
#define LIST_LIMIT_MAX     100

void lobby_seat_account_json(json_t *o, const game_seat *s)
{
    if (s->bot)
        json_object_set_new(o, "bot", json_true());
    json_object_set_new(o, "account", json_boolean(s->account_id > 0));
    json_object_set_new(o, "rating", s->account_id > 0 ? json_integer(s->rating) : json_null());
    json_object_set_new(o, "rating_change",
                        s->has_change ? json_integer(s->rating_change) : json_null());
}

static json_t *seat_entry_json(const game_seat *s, const ax_game *g, int i)
{
    json_t *o = json_pack(
        "{s:o,s:s,s:o,s:b,s:b,s:o}", "name", s->taken ? json_string(s->name) : json_null(), "kind",
        s->kind == SEAT_AI ? "ai" : "human", "level",
        s->kind == SEAT_AI ? json_string(s->level) : json_null(), "taken", s->taken, "connected",
        s->kind == SEAT_AI || s->conns > 0, "left",
        g->left[i] ? json_string(ax_leave_why_name(g->left_why[i])) : json_null());
    lobby_seat_account_json(o, s);
    return o;
}

/* A game as the lobby lists it. */
json_t *lobby_entry_json(const game *gm)
{
    const ax_game *g = &gm->g;
    json_t *seats = json_array();
    for (int i = 0; i < g->players; i++)
        json_array_append_new(seats, seat_entry_json(&gm->seats[i], g, i));
    bool moving = gm->status == GAME_RUNNING && g->phase != AX_PHASE_OVER;
    json_t *o = json_pack(
        "{s:s,s:s,s:i,s:s,s:s,s:o,s:I,s:o,s:o,s:o}", "id", gm->id, "variant",
        ax_variant_name(g->variant), "players", g->players, "mode", ax_mode_name(g->mode), "status",
        lobby_status_name(gm->status), "seats", seats, "created", (json_int_t)gm->created, "clock",
        clock_settings_json(&gm->clock), "to_move", moving ? json_integer(g->to_move) : json_null(),
        "rematch_of", gm->rematch_of[0] ? json_string(gm->rematch_of) : json_null());
    json_object_set_new(o, "rated", json_boolean(gm->rated));
    json_object_set_new(o, "dormant", json_boolean(lobby_dormant(gm)));
    if (gm->status == GAME_ABORTED) {
        json_object_set_new(o, "ended", json_integer(gm->ended));
        json_object_set_new(o, "end",
                            json_pack("{s:s,s:i}", "reason", "aborted", "by", gm->aborted_by));
    }
    if (gm->status == GAME_OVER) {
        json_object_set_new(o, "ended", json_integer(gm->ended));
        const ax_event *end = gm->nevents ? &gm->events[gm->nevents - 1] : NULL;
        if (end && end->kind == AX_EV_END) {
            json_t *e = ax_record_event(g, end, AX_VIEWER_ALL);
            json_object_set_new(o, "end",
                                json_pack("{s:O,s:O}", "reason", json_object_get(e, "reason"),
                                          "ranking", json_object_get(e, "ranking")));
            json_decref(e);
        }
    }
    return o;
}

/* --- the public list: GET /api/games (docs/protocol.md, "The lobby") ---
 *
 * Waiting and running games, guided ones never: games with a person
 * connected first, then the others, newest first within each; filtered by
 * status and variant; a page at a time. A page ends at the key of its last
 * game, (group, created, id); the next starts after that key, so a game
 * that moves between the groups meanwhile may be seen twice or not at all,
 * as in any live list, but paging never loops. */

typedef struct {
    int group; /* 0: a person is connected; 1: nobody */
    int64_t created;
    const char *id;
} list_key;

static list_key key_of(const game *gm)
{
    list_key k = {1, gm->created, gm->id};
    for (int i = 0; i < gm->g.players; i++)
        if (gm->seats[i].kind == SEAT_HUMAN && !gm->g.left[i] && gm->seats[i].conns > 0)
            k.group = 0;
    return k;
}

/* <0 when a comes first. */
static int key_compare(list_key a, list_key b)
{
    if (a.group != b.group)
        return a.group < b.group ? -1 : 1;
    if (a.created != b.created)
        return a.created > b.created ? -1 : 1;
    return -strcmp(a.id, b.id);
}

/* A listed game: held here (gm), or by another server (its entry). */
typedef struct {
    list_key k;
    const game *gm;
    json_t *entry;
} list_item;

static int item_order(const void *a, const void *b)
{
    return key_compare(((const list_item *)a)->k, ((const list_item *)b)->k);
}

typedef struct {
    list_item *items;
    int n, cap, only, variant;
    bool after_set;
    list_key after;
} list_found;

static void add_item(list_found *f, list_key k, const game *gm, json_t *entry)
{
    if (f->n == f->cap) {
        int cap = f->cap ? 2 * f->cap : 256;
        list_item *grown = realloc(f->items, (size_t)cap * sizeof *grown);
        if (!grown)
            return; /* a shorter list */
        f->items = grown;
        f->cap = cap;
    }
    f->items[f->n++] = (list_item){k, gm, entry};
}

static void add_remote(const char *id, int64_t created, int group, json_t *entry, void *arg)
{
    list_found *f = arg;
    const char *status = json_string_value(json_object_get(entry, "status"));
    const char *variant = json_string_value(json_object_get(entry, "variant"));
    list_key k = {group, created, id};
    if (!status || !variant || json_is_true(json_object_get(entry, "dormant")) ||
        (f->only >= 0 && lobby_status_parse(status) != f->only) ||
        (f->variant >= 0 && ax_variant_parse(variant) != f->variant) ||
        (f->after_set && key_compare(k, f->after) <= 0))
        return;
    add_item(f, k, NULL, entry);
}

/* "G.CREATED.ID", as list_query writes it; 0 or -1. */
static int cursor_parse(const char *text, list_key *k, char id[GAME_ID_LEN + 1])
{
    char *end;
    if ((text[0] != '0' && text[0] != '1') || text[1] != '.')
        return -1;
    k->group = text[0] - '0';
    long long created = strtoll(text + 2, &end, 10);
    if (end == text + 2 || *end != '.' || created < 0 || strlen(end + 1) != GAME_ID_LEN ||
        !is_base64url(end + 1, GAME_ID_LEN))
        return -1;
    memcpy(id, end + 1, GAME_ID_LEN + 1);
    k->created = created;
    k->id = id;
    return 0;
}

json_t *lobby_list_query(service *svc, const char *status, const char *variant, const char *limit,
                         const char *cursor, api_error *err)
{
    bool paged = limit || cursor;
    int want = paged ? LIST_LIMIT_DEFAULT : LIST_BARE_MAX, v = -1, only = -1;
    if (status && strcmp(status, "open") != 0) {
        only = lobby_status_parse(status);
        if (only != GAME_WAITING && only != GAME_RUNNING) {
            api_fail(err, 400, "bad_message", "status must be waiting, running, open or over");
            return NULL;
        }
    }
    if (variant && (v = ax_variant_parse(variant)) < 0) {
        api_fail(err, 400, "bad_message", "variant must be square, rota or hex");
        return NULL;
    }
    if (limit) {
        char *end;
        long n = strtol(limit, &end, 10);
        if (end == limit || *end || n < 1 || n > LIST_LIMIT_MAX) {
            api_fail(err, 400, "bad_message", "limit must be an integer 1..100");
            return NULL;
        }
        want = (int)n;
    }
    list_key after = {0};
    char after_id[GAME_ID_LEN + 1];
    if (cursor && cursor_parse(cursor, &after, after_id)) {
        api_fail(err, 400, "bad_message", "cursor must be the next of an earlier answer");
        return NULL;
    }
    list_found f = {NULL, 0, 0, only, v, cursor != NULL, after};
    for (game *gm = svc->oldest; gm; gm = gm->next)
        if (lobby_is_open(gm) && !gm->guided && !gm->lost && !lobby_dormant(gm) &&
            (only < 0 || gm->status == only) && (v < 0 || (int)gm->g.variant == v) &&
            (!cursor || key_compare(key_of(gm), after) > 0))
            add_item(&f, key_of(gm), gm, NULL);
    owners_each_remote_entry(svc, add_remote, &f);
    if (f.n)
        qsort(f.items, (size_t)f.n, sizeof *f.items, item_order);
    json_t *list = json_array();
    for (int i = 0; i < f.n && i < want; i++)
        json_array_append_new(list, f.items[i].gm ? lobby_entry_json(f.items[i].gm)
                                                  : json_incref(f.items[i].entry));
    if (!paged) {
        free(f.items);
        return list;
    }
    json_t *next = json_null();
    if (f.n > want) {
        list_key k = f.items[want - 1].k;
        char text[64];
        snprintf(text, sizeof text, "%d.%" PRId64 ".%s", k.group, k.created, k.id);
        next = json_string(text);
    }
    free(f.items);
    return json_pack("{s:o,s:o}", "games", list, "next", next);
}

/* --- ?ids=: the entries of named games, wherever they are ---
 *
 * Only looks: a game held here is listed from memory; any other from the
 * store in one read for all of them (the entry its holder last wrote while
 * it is open, else its stored summary), without taking a lease, so that a
 * page polling its player's games never moves one. */

typedef struct {
    const char *ids[STORE_LIST_MAX];
    json_t *found[STORE_LIST_MAX]; /* each id's entry, NULL when not found */
    int n;
} listed_games;

static json_t *summary_entry_json(const stored_game *sg);

static int listed_entry(const stored_game *sg, const char *entry, void *arg)
{
    listed_games *l = arg;
    bool open = strcmp(sg->status, "waiting") == 0 || strcmp(sg->status, "running") == 0;
    json_t *e = NULL;
    if (strcmp(sg->status, GAME_DAMAGED_STATUS) == 0)
        e = damaged_game_json(sg);
    else if (open && entry)
        e = json_loads(entry, 0, NULL);
    if (!json_is_object(e)) {
        json_decref(e);
        e = summary_entry_json(sg);
    }
    for (int i = 0; i < l->n; i++)
        if (!l->found[i] && strcmp(l->ids[i], sg->id) == 0) {
            l->found[i] = e;
            return 0;
        }
    json_decref(e);
    return 0;
}

json_t *lobby_entries_json(service *svc, const char *ids)
{
    listed_games l = {.n = 0};
    char id[STORE_LIST_MAX][GAME_ID_LEN + 1];
    for (const char *p = ids; *p && l.n < STORE_LIST_MAX;) {
        size_t n = strcspn(p, ",");
        if (n == GAME_ID_LEN) {
            memcpy(id[l.n], p, n);
            id[l.n][n] = 0;
            if (is_base64url(id[l.n], GAME_ID_LEN)) {
                l.ids[l.n] = id[l.n];
                l.n++;
            }
        }
        p += n + (p[n] == ',');
    }
    const char *stored[STORE_LIST_MAX];
    int nstored = 0;
    for (int i = 0; i < l.n; i++) {
        game *gm = lobby_local(svc, l.ids[i]);
        if (gm && !gm->lost)
            l.found[i] = lobby_entry_json(gm);
        else
            stored[nstored++] = l.ids[i];
    }
    if (nstored && store_each_listed(svc->db, stored, nstored, listed_entry, &l))
        service_log(svc, "reading games for ?ids= failed: %s", store_error(svc->db));
    json_t *list = json_array();
    for (int i = 0; i < l.n; i++)
        if (l.found[i])
            json_array_append_new(list, l.found[i]);
    return list;
}

/* A game as the lobby lists it, from its stored form (a finished game's,
 * or one that no server holds now). */
static json_t *summary_entry_json(const stored_game *sg)
{
    json_t *seats = json_array();
    for (int i = 0; i < sg->players; i++) {
        const stored_seat *ss = &sg->seats[i];
        bool ai = strcmp(ss->kind, "ai") == 0;
        json_t *o = json_pack("{s:s,s:s,s:o}", "name", ss->name, "kind", ai ? "ai" : "human",
                              "level", ai ? json_string(ss->level) : json_null());
        game_seat seat = {0};
        lobby_seat_account_from_stored(&seat, ss);
        lobby_seat_account_json(o, &seat);
        json_array_append_new(seats, o);
    }
    json_t *clock = sg->clock[0] ? json_loads(sg->clock, 0, NULL) : NULL;
    json_t *end = sg->end_summary[0] ? json_loads(sg->end_summary, 0, NULL) : NULL;
    bool open = strcmp(sg->status, "waiting") == 0 || strcmp(sg->status, "running") == 0;
    json_t *o = json_pack("{s:s,s:s,s:i,s:s,s:s,s:o,s:I,s:o,s:o,s:o}", "id", sg->id, "variant",
                          sg->variant, "players", sg->players, "mode", sg->mode, "status",
                          sg->status, "seats", seats, "created", (json_int_t)sg->created, "ended",
                          open ? json_null() : json_integer(sg->updated), "clock",
                          clock ? clock : json_null(), "end", end ? end : json_null());
    json_object_set_new(o, "rated", json_boolean(sg->rated));
    return o;
}

static int finished_entry(const stored_game *sg, void *arg)
{
    int v = ax_variant_parse(sg->variant), m = ax_mode_parse(sg->mode);
    if (v >= 0 && lobby_stored_guided(sg, v, m))
        return 0; /* a lesson: never listed */
    json_array_append_new(arg, summary_entry_json(sg));
    return 0;
}

json_t *lobby_finished_json(service *svc)
{
    json_t *list = json_array();
    if (store_each_finished(svc->db, 100, finished_entry, list))
        service_log(svc, "listing finished games failed: %s", store_error(svc->db));
    return list;
}
