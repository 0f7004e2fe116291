/*
 * events.c - arenas and Swiss tournaments on the site (docs/tournaments.md,
 * "Events on the site"; issue 50): the HTTP API that creates, lists, shows,
 * joins, withdraws from, starts and cancels events, and the runner that
 * plays them.
 *
 * An event lives in the store (store_events.c): its settings, entrants and
 * tables. Nothing of it is kept in memory between two ticks, so any server
 * of a site answers for it, and after a restart it goes on from what is
 * stored. The runner (events_tick, every clock tick) takes each due event's
 * lease in the store - one server at a time runs an event - then records
 * the tables whose game ended (points by place, tn_table_points, from the
 * places the game stored at its end; no-shows score nothing and count a
 * miss), and seats the players due a table (tn_swiss_pair for the next
 * round, tn_arena_pair for the arena's waiting players) at new games, made
 * as any game of two accounts is (lobby_create_table). Standings are
 * always tn_standings of the stored tables: the same stored games give the
 * same standings everywhere.
 *
 * A person who has decided nothing in an event's game and has had no
 * connection to it for --absent-s leaves it (absent) on the server that
 * holds the game (events_housekeeping); a daily clock's own time limit does
 * the same with a day per move.
 */
#include "events.h"
#include "../../tournament/tournament.h"
#include "../base/bucket.h"
#include "accounts.h"
#include "api.h"
#include "bots.h"
#include "clock.h"
#include "lobby.h"
#include "owners.h"
#include "play.h"
#include "push.h"
#include "secrets.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define EVENT_MAX_PLAYERS 2000
#define EVENT_MAX_MISSES  2
#define EVENT_NAME_CHARS  60
#define ORGANISED_MAX     3          /* upcoming or running events an account organises */
#define PER_ADDR_HOUR     10         /* events created from an address in an hour */
#define LEASE_MS          5000       /* a dead runner's events are taken over after this */
#define RUN_EVERY_S       0.25       /* how often the runner looks at its events */
#define DAY_MS            86400000LL /* a day per round */
#define MAX_AHEAD_MS      (90 * DAY_MS)
#define RATING_KEEP_S     60.0 /* a cached rating is read again after this */
#define RATING_SLOTS      4096

struct rating_slot {
    int64_t account_id;
    char variant[8];
    int rating;
    double at;
};

struct events {
    double last_run;
    struct rating_slot ratings[RATING_SLOTS];
};

static struct events *state_of(service *svc)
{
    if (!svc->events)
        svc->events = calloc(1, sizeof *svc->events);
    return svc->events;
}

void events_free(service *svc)
{
    free(svc->events);
    svc->events = NULL;
}

static int fail(api_answer *out, int status, const char *code, const char *message)
{
    return api_reply_error(out, status, code, message);
}

/* An account's rating (rounded R) in a variant, read at most once a
 * RATING_KEEP_S: pairing an arena asks for hundreds at a time. */
static int rating_of(service *svc, int64_t account_id, const char *variant)
{
    struct events *ev = state_of(svc);
    double now = service_now(svc);
    struct rating_slot *slot =
        ev ? &ev->ratings[((uint64_t)account_id * 31u + (uint8_t)variant[0]) % RATING_SLOTS] : NULL;
    if (slot && slot->account_id == account_id && strcmp(slot->variant, variant) == 0 &&
        now - slot->at < RATING_KEEP_S)
        return slot->rating;
    rt_rating r;
    int games;
    if (store_rating(svc->db, account_id, variant, &r, &games)) {
        rt_params p = rt_default_params();
        r = rt_initial(&p);
    }
    int rating = rt_show(r).rating;
    if (slot) {
        slot->account_id = account_id;
        snprintf(slot->variant, sizeof slot->variant, "%s", variant);
        slot->rating = rating;
        slot->at = now;
    }
    return rating;
}

/* --- an event as stored, and its standings --- */

typedef struct {
    stored_event e;
    stored_entrant *ent; /* by joining order: a player's index is its place here */
    int n;
    stored_event_table *tab;
    int nt;
    int64_t *sorted; /* (account id, index) pairs by account id, for index_of */
} event_view;

static int cmp_pair(const void *a, const void *b)
{
    const int64_t *x = a, *y = b;
    return x[0] < y[0] ? -1 : x[0] > y[0];
}

static void view_free(event_view *v)
{
    free(v->ent);
    free(v->tab);
    free(v->sorted);
    memset(v, 0, sizeof *v);
}

/* Reads an event's entrants and tables: 0, -1 on error. */
static int view_read(service *svc, const stored_event *e, event_view *v)
{
    memset(v, 0, sizeof *v);
    v->e = *e;
    if (store_event_entrants(svc->db, e->id, &v->ent, &v->n) ||
        store_event_tables(svc->db, e->id, &v->tab, &v->nt)) {
        view_free(v);
        return -1;
    }
    v->sorted = malloc(sizeof *v->sorted * 2 * (size_t)(v->n ? v->n : 1));
    if (!v->sorted) {
        view_free(v);
        return -1;
    }
    for (int i = 0; i < v->n; i++) {
        v->sorted[2 * i] = v->ent[i].account_id;
        v->sorted[2 * i + 1] = i;
    }
    qsort(v->sorted, (size_t)v->n, 2 * sizeof *v->sorted, cmp_pair);
    return 0;
}

static int index_of(const event_view *v, int64_t account_id)
{
    int64_t key[2] = {account_id, 0};
    const int64_t *hit = bsearch(key, v->sorted, (size_t)v->n, 2 * sizeof *v->sorted, cmp_pair);
    return hit ? (int)hit[1] : -1;
}

static bool is_arena(const stored_event *e) { return strcmp(e->format, "arena") == 0; }

/* The finished tables as tn_standings reads them; *out malloc'd. */
static int finished_tables(const event_view *v, tn_table **out)
{
    tn_table *t = malloc(sizeof *t * (size_t)(v->nt ? v->nt : 1));
    int n = 0;
    for (int i = 0; t && i < v->nt; i++) {
        const stored_event_table *s = &v->tab[i];
        if (s->running)
            continue;
        tn_table *x = &t[n];
        memset(x, 0, sizeof *x);
        x->round = s->round;
        x->seats = s->seats;
        x->counted = s->counted;
        bool known = true;
        for (int k = 0; k < s->seats && k < TN_MAX_SEATS; k++) {
            x->player[k] = index_of(v, s->player[k]);
            x->points[k] = s->points[k];
            known = known && x->player[k] >= 0;
        }
        n += known;
    }
    *out = t;
    return t ? n : -1;
}

/* Standings of every entrant (n of them), best first: -1 on error. */
static int standings_of(const event_view *v, tn_standing *out)
{
    tn_table *t;
    int nt = finished_tables(v, &t);
    if (nt < 0)
        return -1;
    tn_standings(v->n, t, nt, is_arena(&v->e), out);
    free(t);
    return 0;
}

/* The tournament units as the API shows points: a number with a fraction. */
static json_t *points_json(int units)
{
    if (units % TN_UNITS == 0)
        return json_integer(units / TN_UNITS);
    return json_real((double)((long)(units * 10000.0 / TN_UNITS + (units >= 0 ? 0.5 : -0.5))) /
                     10000.0);
}

static json_t *ms_or_null(int64_t ms) { return ms ? json_integer(ms) : json_null(); }

static json_t *event_json(const stored_event *e)
{
    json_t *clock = json_loads(e->clock, 0, NULL);
    bool arena = is_arena(e);
    json_t *j = json_pack(
        "{s:s,s:s,s:s,s:s,s:s,s:s,s:i,s:o,s:b,s:I,s:o,s:o,s:o,s:i,s:b,s:s,s:i,s:o,s:o,s:i,s:I}",
        "id", e->id, "name", e->name, "organiser", e->organiser, "format", e->format, "variant",
        e->variant, "mode", e->mode, "seats", e->seats, "clock", clock ? clock : json_null(),
        "rated", e->rated, "starts", (json_int_t)e->starts, "duration_s",
        arena ? json_integer(e->duration_s) : json_null(), "rounds",
        arena ? json_null() : json_integer(e->rounds), "days_per_round",
        !arena && e->days_per_round ? json_integer(e->days_per_round) : json_null(),
        "min_rated_games", e->min_rated_games, "bots", e->bots, "status", e->status, "round",
        e->round, "round_deadline",
        !arena && strcmp(e->status, "running") == 0 ? ms_or_null(e->round_deadline) : json_null(),
        "ends", arena ? ms_or_null(e->ends) : json_null(), "players", e->players, "created",
        (json_int_t)e->created);
    if (j && strcmp(e->status, "cancelled") == 0)
        json_object_set_new(j, "cancel_reason", json_string(e->cancel_reason));
    return j;
}

/* The caller's part: null for a guest or one who never joined. */
static json_t *you_json(const event_view *v, int64_t account_id)
{
    int me = account_id > 0 ? index_of(v, account_id) : -1;
    if (me < 0)
        return json_null();
    const stored_entrant *p = &v->ent[me];
    json_t *game = json_null(), *seat = json_null();
    for (int i = 0; i < v->nt; i++) {
        const stored_event_table *t = &v->tab[i];
        for (int k = 0; t->running && k < t->seats; k++)
            if (t->player[k] == account_id) {
                json_decref(game);
                json_decref(seat);
                game = json_string(t->game_id);
                seat = json_integer(k);
            }
    }
    return json_pack("{s:b,s:b,s:i,s:o,s:o}", "joined", true, "withdrawn", p->withdrawn, "misses",
                     p->misses, "game", game, "seat", seat);
}

/* One player's finished tables, oldest first. */
static json_t *results_json(const event_view *v, int idx)
{
    json_t *list = json_array();
    int64_t id = v->ent[idx].account_id;
    for (int i = 0; i < v->nt; i++) {
        const stored_event_table *t = &v->tab[i];
        int at = -1;
        for (int k = 0; k < t->seats; k++)
            if (t->player[k] == id)
                at = k;
        if (at < 0 || t->running)
            continue;
        json_t *others = json_array();
        for (int k = 0; k < t->seats; k++) {
            int o = k == at ? -1 : index_of(v, t->player[k]);
            if (o >= 0)
                json_array_append_new(others, json_string(v->ent[o].name));
        }
        bool bye = !t->game_id[0];
        json_array_append_new(
            list,
            json_pack("{s:i,s:o,s:o,s:o,s:o,s:b}", "round", t->round, "game",
                      bye ? json_null() : json_string(t->game_id), "place",
                      bye || !t->places[at] ? json_null() : json_integer(t->places[at]), "points",
                      points_json(t->points[at]), "opponents", others, "counted", t->counted));
    }
    return list;
}

static json_t *standings_json(service *svc, const event_view *v)
{
    tn_standing *s = malloc(sizeof *s * (size_t)(v->n ? v->n : 1));
    if (!s || standings_of(v, s)) {
        free(s);
        return NULL;
    }
    json_t *list = json_array();
    for (int i = 0; i < v->n; i++) {
        const stored_entrant *p = &v->ent[s[i].id];
        json_array_append_new(
            list, json_pack("{s:i,s:s,s:o,s:o,s:o,s:i,s:b,s:b,s:i,s:o}", "place", s[i].place,
                            "name", p->name, "points", points_json(s[i].score), "tiebreak1",
                            points_json(s[i].tiebreak1), "tiebreak2", points_json(s[i].tiebreak2),
                            "games", s[i].games, "withdrawn", p->withdrawn, "bot", p->bot, "rating",
                            rating_of(svc, p->account_id, v->e.variant), "results",
                            results_json(v, s[i].id)));
    }
    free(s);
    return list;
}

static json_t *running_tables_json(const event_view *v)
{
    json_t *list = json_array();
    for (int i = 0; i < v->nt; i++) {
        const stored_event_table *t = &v->tab[i];
        if (!t->running)
            continue;
        json_t *names = json_array();
        for (int k = 0; k < t->seats; k++) {
            int o = index_of(v, t->player[k]);
            json_array_append_new(names, json_string(o >= 0 ? v->ent[o].name : "?"));
        }
        json_array_append_new(list, json_pack("{s:i,s:i,s:s,s:o}", "round", t->round, "table",
                                              t->table, "game", t->game_id, "players", names));
    }
    return list;
}

/* --- reading settings --- */

static const char *const setting_keys[] = {
    "name",   "format",     "variant", "mode",           "seats",           "clock", "rated",
    "starts", "duration_s", "rounds",  "days_per_round", "min_rated_games", "bots",  NULL};

static int bad(api_error *err, const char *fmt, const char *key)
{
    char text[160];
    snprintf(text, sizeof text, fmt, key);
    return api_fail(err, 400, "bad_message", text);
}

/* An integer setting in [lo, hi]; absent or null: *out = dflt (or an
 * error when required). */
static int int_setting(const json_t *body, const char *key, long long lo, long long hi,
                       bool required, long long dflt, long long *out, api_error *err)
{
    const json_t *v = json_object_get(body, key);
    if (!v || json_is_null(v)) {
        if (required)
            return bad(err, "%s is required", key);
        *out = dflt;
        return 0;
    }
    if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi) {
        char text[160];
        snprintf(text, sizeof text, "%s must be a whole number from %lld to %lld", key, lo, hi);
        return api_fail(err, 400, "bad_message", text);
    }
    *out = json_integer_value(v);
    return 0;
}

static int bool_setting(const json_t *body, const char *key, bool *out, api_error *err)
{
    const json_t *v = json_object_get(body, key);
    if (v && !json_is_boolean(v) && !json_is_null(v))
        return bad(err, "%s must be true or false", key);
    *out = json_is_true(v);
    return 0;
}

/* The name: 1 to EVENT_NAME_CHARS characters without control characters
 * (JSON text is valid UTF-8 already). */
static int name_setting(const json_t *body, char *out, size_t size, api_error *err)
{
    const char *name = json_string_value(json_object_get(body, "name"));
    if (!name)
        return bad(err, "%s must be the event's name", "name");
    size_t len = json_string_length(json_object_get(body, "name"));
    int chars = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)name[i];
        if (c < 0x20 || c == 0x7f)
            return bad(err, "%s must not hold control characters", "name");
        if (c == 0xc2 && i + 1 < len && (unsigned char)name[i + 1] >= 0x80 &&
            (unsigned char)name[i + 1] <= 0x9f)
            return bad(err, "%s must not hold control characters", "name");
        chars += (c & 0xc0) != 0x80;
    }
    bool blank = true;
    for (size_t i = 0; i < len; i++)
        blank = blank && name[i] == ' ';
    if (chars < 1 || chars > EVENT_NAME_CHARS || blank || len >= size)
        return bad(err, "%s must be 1 to 60 characters", "name");
    memcpy(out, name, len + 1);
    return 0;
}

static int read_settings(const json_t *body, stored_event *e, api_error *err)
{
    if (!json_is_object(body))
        return api_fail(err, 400, "bad_message", "the settings must be a JSON object");
    const char *key;
    const json_t *value;
    json_object_foreach((json_t *)body, key, value)
    {
        bool known = false;
        for (int i = 0; setting_keys[i]; i++)
            known = known || strcmp(key, setting_keys[i]) == 0;
        if (!known)
            return bad(err, "unknown setting %s", key);
    }
    if (name_setting(body, e->name, sizeof e->name, err))
        return -1;
    const char *format = json_string_value(json_object_get(body, "format"));
    if (!format || (strcmp(format, "arena") && strcmp(format, "swiss")))
        return bad(err, "%s must be arena or swiss", "format");
    snprintf(e->format, sizeof e->format, "%s", format);
    const char *variant = json_string_value(json_object_get(body, "variant"));
    int var = variant ? ax_variant_parse(variant) : -1;
    if (var < 0)
        return bad(err, "%s must be square, rota or hex", "variant");
    snprintf(e->variant, sizeof e->variant, "%s", ax_variant_name(var));
    const json_t *m = json_object_get(body, "mode");
    const char *mode = m && !json_is_null(m) ? json_string_value(m) : "standard";
    if (!mode || (strcmp(mode, "standard") && strcmp(mode, "team")))
        return bad(err, "%s must be standard or team", "mode");
    snprintf(e->mode, sizeof e->mode, "%s", mode);
    long long v;
    if (int_setting(body, "seats", 2, TN_MAX_SEATS, true, 0, &v, err))
        return -1;
    e->seats = (int)v;
    if (ax_config_check(var, e->seats, ax_mode_parse(mode)) != AX_OK)
        return bad(err, "%s: the team mode is two against two (seats 4), in a variant that has it",
                   "mode");
    const json_t *c = json_object_get(body, "clock");
    game_clock clock;
    if (!c || json_is_null(c))
        return bad(err, "%s is required: an event's games are timed", "clock");
    if (clock_parse(c, &clock, err))
        return -1;
    json_t *settings = clock_settings_json(&clock);
    char *text = json_dumps(settings, JSON_COMPACT);
    json_decref(settings);
    if (!text || strlen(text) >= sizeof e->clock) {
        free(text);
        return api_fail(err, 500, "internal", "out of memory");
    }
    snprintf(e->clock, sizeof e->clock, "%s", text);
    free(text);
    if (bool_setting(body, "rated", &e->rated, err) || bool_setting(body, "bots", &e->bots, err))
        return -1;
    int64_t now = unix_ms();
    if (int_setting(body, "starts", now - 60000, now + MAX_AHEAD_MS, true, 0, &v, err))
        return -1;
    e->starts = v;
    bool arena = strcmp(e->format, "arena") == 0, daily = clock.kind == GAME_CLOCK_DAILY;
    if (arena) {
        if (int_setting(body, "duration_s", 60, MAX_AHEAD_MS / 1000, true, 0, &v, err))
            return -1;
        e->duration_s = (int)v;
        if (json_object_get(body, "rounds") || json_object_get(body, "days_per_round"))
            return bad(err, "%s: rounds and days_per_round are a Swiss event's", "format");
    } else {
        if (int_setting(body, "rounds", 1, 20, true, 0, &v, err))
            return -1;
        e->rounds = (int)v;
        if (json_object_get(body, "duration_s"))
            return bad(err, "%s: duration_s is an arena's", "format");
        if (int_setting(body, "days_per_round", 1, 14, daily, 0, &v, err))
            return -1;
        if (!daily && v)
            return bad(err, "%s goes with a daily clock only", "days_per_round");
        e->days_per_round = (int)v;
    }
    if (int_setting(body, "min_rated_games", 0, 1000, false, 0, &v, err))
        return -1;
    e->min_rated_games = (int)v;
    return 0;
}

/* --- the API --- */

typedef struct {
    json_t *list;
    int64_t account_id;
    service *svc;
} event_list;

static int add_event(const stored_event *e, void *arg)
{
    event_list *l = arg;
    json_t *j = event_json(e);
    if (l->account_id > 0) {
        event_view v;
        if (view_read(l->svc, e, &v) == 0) {
            json_object_set_new(j, "you", you_json(&v, l->account_id));
            view_free(&v);
        }
    }
    json_array_append_new(l->list, j);
    return 0;
}

static int list_events(service *svc, const api_request *r, api_answer *out)
{
    char status[32];
    bool given = api_query_arg(r, "status", status, sizeof status) != NULL;
    for (int i = 0; i < r->nargs; i++)
        if (strncmp(r->args[i], "status=", 7) != 0)
            return fail(out, 400, "bad_message", "the only argument is status");
    if (!given && r->nargs)
        return fail(out, 400, "bad_message", "status must be upcoming, running or finished");
    if (given && strcmp(status, "upcoming") && strcmp(status, "running") &&
        strcmp(status, "finished"))
        return fail(out, 400, "bad_message", "status must be upcoming, running or finished");
    event_list l = {json_array(), 0, svc};
    int rc = 0;
    if (given)
        rc = store_each_event(svc->db, status, 100, add_event, &l);
    else
        rc = store_each_event(svc->db, "upcoming", 100, add_event, &l) ||
             store_each_event(svc->db, "running", 100, add_event, &l) ||
             store_each_event(svc->db, "finished", 20, add_event, &l);
    if (rc) {
        json_decref(l.list);
        return fail(out, 500, "internal", "the events cannot be read");
    }
    return api_reply_json(out, 200, json_pack("{s:o}", "events", l.list));
}

static int create_event(service *svc, const api_request *r, const stored_account *me,
                        api_answer *out)
{
    api_error err = {0};
    json_t *body = api_body(r, &err);
    if (!body)
        return api_reply_fail(out, &err);
    stored_event e;
    memset(&e, 0, sizeof e);
    int rc = read_settings(body, &e, &err);
    json_decref(body);
    if (rc)
        return api_reply_fail(out, &err);
    hmac_sha256_hex(service_site_key(svc), r->ip, e.creator_addr);
    int organised = 0, by_addr = 0;
    int64_t now = unix_ms();
    if (store_events_organised(svc->db, me->id, e.creator_addr, now - 3600 * 1000LL, &organised,
                               &by_addr))
        return fail(out, 500, "internal", "the events cannot be read");
    if (organised >= ORGANISED_MAX || by_addr >= PER_ADDR_HOUR) {
        api_error e429 = {429, "rate_limited", "", "events",
                          organised >= ORGANISED_MAX ? 600 : 3600};
        snprintf(e429.message, sizeof e429.message, "%s",
                 organised >= ORGANISED_MAX
                     ? "you organise 3 upcoming or running events already"
                     : "too many events created from this address in the last hour");
        return api_reply_fail(out, &e429);
    }
    if (secret_game_id(e.id))
        return fail(out, 500, "internal", "no randomness available");
    e.organiser_id = me->id;
    snprintf(e.organiser, sizeof e.organiser, "%s", me->name);
    snprintf(e.status, sizeof e.status, "upcoming");
    e.created = now;
    if (store_event_create(svc->db, &e)) {
        service_log(svc, "storing an event failed: %s", store_error(svc->db));
        return fail(out, 500, "internal", "the event could not be stored");
    }
    return api_reply_json(out, 201, json_pack("{s:o}", "event", event_json(&e)));
}

static int show_event(service *svc, const api_request *r, const stored_event *e, api_answer *out)
{
    stored_account me;
    int64_t account_id = accounts_session_by_hash(svc, r->session_hash, &me) ? me.id : 0;
    event_view v;
    if (view_read(svc, e, &v))
        return fail(out, 500, "internal", "the event cannot be read");
    json_t *standings = standings_json(svc, &v);
    if (!standings) {
        view_free(&v);
        return fail(out, 500, "internal", "out of memory");
    }
    json_t *body = json_pack("{s:o,s:o,s:o,s:o}", "event", event_json(e), "standings", standings,
                             "tables", running_tables_json(&v), "you", you_json(&v, account_id));
    view_free(&v);
    return api_reply_json(out, 200, body);
}

static int you_answer(service *svc, const char *id, int64_t account_id, api_answer *out)
{
    stored_event e;
    event_view v;
    if (store_event_get(svc->db, id, &e) != 0 || view_read(svc, &e, &v))
        return fail(out, 500, "internal", "the event cannot be read");
    json_t *you = you_json(&v, account_id);
    view_free(&v);
    return api_reply_json(out, 200, json_pack("{s:o}", "you", you));
}

static int join_event(service *svc, const stored_event *e, const stored_account *me,
                      api_answer *out)
{
    if (me->bot && !e->bots) {
        api_error err;
        api_fail(&err, 403, "forbidden", "this event is for people: bots may not join");
        err.reason = "bots";
        return api_reply_fail(out, &err);
    }
    if (e->min_rated_games > 0) {
        rt_rating r;
        int games = 0;
        if (store_rating(svc->db, me->id, e->variant, &r, &games))
            return fail(out, 500, "internal", "the ratings cannot be read");
        if (games < e->min_rated_games) {
            api_error err;
            char text[160];
            snprintf(text, sizeof text, "this event needs %d rated games of %s; you have played %d",
                     e->min_rated_games, e->variant, games);
            api_fail(&err, 403, "forbidden", text);
            err.reason = "min_rated_games";
            return api_reply_fail(out, &err);
        }
    }
    int rc = store_event_join(svc->db, e->id, me->id, unix_ms(), is_arena(e), EVENT_MAX_PLAYERS);
    if (rc < 0)
        return fail(out, 500, "internal", "the event could not be stored");
    if (rc == 1)
        return fail(out, 409, "not_open",
                    is_arena(e) ? "the event is over" : "the event has started or is over");
    if (rc == 2)
        return fail(out, 409, "event_full", "2000 players have joined already");
    return you_answer(svc, e->id, me->id, out);
}

static int withdraw_event(service *svc, const stored_event *e, const stored_account *me,
                          api_answer *out)
{
    if (strcmp(e->status, "upcoming") && strcmp(e->status, "running"))
        return fail(out, 409, "not_open", "the event is over");
    int rc = store_event_withdraw(svc->db, e->id, me->id);
    if (rc < 0)
        return fail(out, 500, "internal", "the event could not be stored");
    if (rc > 0)
        return fail(out, 409, "not_joined", "you have not joined this event");
    return you_answer(svc, e->id, me->id, out);
}

/* The moment an event starts: running, an arena's end set. */
static int start_now(service *svc, stored_event *e)
{
    stored_event next = *e;
    snprintf(next.status, sizeof next.status, "running");
    next.round = 0;
    next.round_deadline = 0;
    next.ends = is_arena(e) ? unix_ms() + e->duration_s * 1000LL : 0;
    int rc = store_event_set_status(svc->db, &next, "upcoming");
    if (rc == 0)
        *e = next;
    return rc;
}

static int organise_event(service *svc, stored_event *e, const stored_account *me, bool start,
                          api_answer *out)
{
    if (e->organiser_id != me->id)
        return fail(out, 403, "forbidden", "only the event's organiser does that");
    if (strcmp(e->status, "upcoming"))
        return fail(out, 409, "not_open", "the event is not upcoming");
    int rc;
    if (start) {
        if (e->players < 2)
            return fail(out, 409, "too_few_players", "an event needs two players to start");
        rc = start_now(svc, e);
    } else {
        stored_event next = *e;
        snprintf(next.status, sizeof next.status, "cancelled");
        snprintf(next.cancel_reason, sizeof next.cancel_reason, "organiser");
        rc = store_event_set_status(svc->db, &next, "upcoming");
        if (rc == 0)
            *e = next;
    }
    if (rc < 0)
        return fail(out, 500, "internal", "the event could not be stored");
    if (rc > 0)
        return fail(out, 409, "not_open", "the event is not upcoming");
    if (store_event_get(svc->db, e->id, e) != 0)
        return fail(out, 500, "internal", "the event cannot be read");
    return api_reply_json(out, 200, json_pack("{s:o}", "event", event_json(e)));
}

static int my_events(service *svc, const stored_account *me, api_answer *out)
{
    event_list l = {json_array(), me->id, svc};
    if (store_each_event_of(svc->db, me->id, add_event, &l)) {
        json_decref(l.list);
        return fail(out, 500, "internal", "the events cannot be read");
    }
    return api_reply_json(out, 200, json_pack("{s:o}", "events", l.list));
}

static int event_route(service *svc, const api_request *r, const char *rest, api_answer *out)
{
    const char *slash = strchr(rest, '/');
    size_t n = slash ? (size_t)(slash - rest) : strlen(rest);
    const char *action = slash ? slash + 1 : "";
    char id[GAME_ID_LEN + 1];
    stored_event e;
    int rc = 1;
    if (n == GAME_ID_LEN) {
        memcpy(id, rest, n);
        id[n] = 0;
        rc = is_base64url(id, GAME_ID_LEN) ? store_event_get(svc->db, id, &e) : 1;
    }
    if (rc < 0)
        return fail(out, 500, "internal", "the event cannot be read");
    if (rc > 0)
        return fail(out, 404, "not_found", "no such event");
    bool join = strcmp(action, "join") == 0, withdraw = strcmp(action, "withdraw") == 0;
    bool start = strcmp(action, "start") == 0, cancel = strcmp(action, "cancel") == 0;
    if (strcmp(action, "") == 0)
        return r->method == API_GET
                   ? show_event(svc, r, &e, out)
                   : fail(out, 405, "method_not_allowed", "method not allowed here");
    if (!join && !withdraw && !start && !cancel)
        return fail(out, 404, "not_found", "no such endpoint");
    if (r->method != API_POST)
        return fail(out, 405, "method_not_allowed", "method not allowed here");
    stored_account me;
    api_error err = {0};
    if (join || withdraw) { /* a session, or a bot's token with bot:play */
        if (bots_request_account(svc, r, SCOPE_BOT_PLAY, &me, &err))
            return api_reply_fail(out, &err);
        return join ? join_event(svc, &e, &me, out) : withdraw_event(svc, &e, &me, out);
    }
    if (!accounts_session_by_hash(svc, r->session_hash, &me))
        return fail(out, 401, "unauthorized", "log in first");
    return organise_event(svc, &e, &me, start, out);
}

int events_route(service *svc, const api_request *r, api_answer *out)
{
    const char *path = r->path;
    if (strcmp(path, "/me/events") == 0) {
        stored_account me;
        api_error err = {0};
        if (r->method != API_GET)
            return fail(out, 405, "method_not_allowed", "method not allowed here");
        if (bots_request_account(svc, r, SCOPE_GAME_READ, &me, &err))
            return api_reply_fail(out, &err);
        return my_events(svc, &me, out);
    }
    if (strcmp(path, "/events") == 0) {
        if (r->method == API_GET)
            return list_events(svc, r, out);
        if (r->method != API_POST)
            return fail(out, 405, "method_not_allowed", "method not allowed here");
        stored_account me;
        if (!accounts_session_by_hash(svc, r->session_hash, &me))
            return fail(out, 401, "unauthorized", "log in first");
        return create_event(svc, r, &me, out);
    }
    if (strncmp(path, "/events/", 8) == 0)
        return event_route(svc, r, path + 8, out);
    return API_NOT_MINE;
}

/* --- the runner --- */

/* A finished game's ranking as the engine gave it at the end (its stored
 * places: ties share one, leavers last), and its no-shows: seats that left
 * absent or by their clock without a decision of their own. */
typedef struct {
    bool decided[AX_MAX_PLAYERS], gone[AX_MAX_PLAYERS], left[AX_MAX_PLAYERS];
    int64_t last_at; /* unix seconds of the last decision: the game's end */
} decisions_seen;

static int see_decision(int ply, int seat, const char *decision, int64_t at, void *arg)
{
    (void)ply;
    decisions_seen *d = arg;
    if (at > d->last_at)
        d->last_at = at;
    if (seat < 0 || seat >= AX_MAX_PLAYERS)
        return 0;
    json_t *j = json_loads(decision, 0, NULL);
    const char *type = json_string_value(json_object_get(j, "type"));
    const char *why = json_string_value(json_object_get(j, "why"));
    if (type && strcmp(type, "leave") == 0) {
        d->left[seat] = true;
        if (why && (strcmp(why, "absent") == 0 || strcmp(why, "timeout") == 0))
            d->gone[seat] = true;
    } else if (type && !d->left[seat]) { /* after a leave, the computer plays for it */
        d->decided[seat] = true;
    }
    json_decref(j);
    return 0;
}

/* Points of a table whose game ended; its no-shows' accounts in missed.
 * -1 when the game cannot be read (tried again later). */
static int score_table(service *svc, const stored_event *e, stored_event_table *t, int64_t *missed,
                       int *n_missed)
{
    stored_game sg;
    if (store_load_summary(svc->db, t->game_id, &sg) != 0)
        return -1;
    decisions_seen d;
    memset(&d, 0, sizeof d);
    if (store_each_decision(svc->db, t->game_id, see_decision, &d))
        return -1;
    bool over = strcmp(sg.status, "over") == 0;
    /* an event's game is aborted only by the runner, when nobody came */
    bool nobody_came = strcmp(sg.status, "aborted") == 0;
    bool absent[TN_MAX_SEATS] = {false};
    ax_ranking rank;
    memset(&rank, 0, sizeof rank);
    rank.n = t->seats;
    /* the seats by place, ties kept in seat order */
    int k = 0;
    for (int place = 1; place <= AX_MAX_PLAYERS && over; place++)
        for (int s = 0; s < t->seats; s++)
            if (sg.seats[s].place == place) {
                rank.order[k] = s;
                rank.place[k++] = place - 1;
            }
    for (int s = 0; s < t->seats && k < t->seats; s++)
        if (!over || sg.seats[s].place < 1 || sg.seats[s].place > AX_MAX_PLAYERS) {
            rank.order[k] = s;
            rank.place[k++] = t->seats - 1;
        }
    *n_missed = 0;
    for (int s = 0; s < t->seats; s++) {
        absent[s] = (d.gone[s] || nobody_came) && !d.decided[s];
        if (absent[s])
            missed[(*n_missed)++] = t->player[s];
        t->places[s] = over && !absent[s] ? sg.seats[s].place : 0;
    }
    if (over)
        tn_table_points(t->seats, &rank, absent, t->points);
    else /* ended without a result (expired, damaged): nobody scores */
        memset(t->points, 0, sizeof t->points);
    /* the end as stored is to the second; seen now at the latest */
    int64_t now = unix_ms(), end_s = d.last_at > 0 ? d.last_at : sg.updated;
    t->ended = end_s > 0 && end_s * 1000 + 999 < now ? end_s * 1000 + 999 : now;
    if (is_arena(e))
        t->counted = t->ended <= e->ends;
    else
        t->counted = !t->deadline || t->ended <= t->deadline;
    stored_game_free(&sg);
    return 0;
}

static void record_ended(service *svc, const stored_event *e)
{
    stored_event_table *ended;
    int n;
    if (store_event_tables_ended(svc->db, e->id, &ended, &n)) {
        service_log(svc, "event %s: its tables cannot be read: %s", e->id, store_error(svc->db));
        return;
    }
    for (int i = 0; i < n; i++) {
        int64_t missed[TN_MAX_SEATS];
        int n_missed = 0;
        if (score_table(svc, e, &ended[i], missed, &n_missed))
            continue;
        if (store_event_end_table(svc->db, e->id, service_instance(svc), &ended[i], missed,
                                  n_missed, EVENT_MAX_MISSES) < 0)
            service_log(svc, "event %s: a table's end cannot be stored: %s", e->id,
                        store_error(svc->db));
    }
    free(ended);
}

/* A Swiss round's deadline (docs/tournaments.md). */
static int64_t round_deadline(const stored_event *e, int64_t now)
{
    game_clock c;
    if (!clock_from_json_text(e->clock, &c))
        return now + DAY_MS;
    if (c.kind == GAME_CLOCK_DAILY)
        return now + e->days_per_round * DAY_MS;
    return now + ((int64_t)e->seats * (c.base_s + 50LL * c.increment_s) + 120) * 1000;
}

/* Makes the games of new tables (members[t][k]: indexes into the view, -1
 * ends a table) and stores them with the event's round; byes are tables of
 * one without a game. The games are cancelled if the tables cannot be
 * stored (another server took the event over meanwhile). */
static void seat_tables(service *svc, const event_view *v, stored_event *next, int n_tables,
                        int (*members)[TN_MAX_SEATS], int64_t deadline)
{
    stored_event_table *tabs = calloc((size_t)(n_tables ? n_tables : 1), sizeof *tabs);
    game **games = calloc((size_t)(n_tables ? n_tables : 1), sizeof *games);
    if (!tabs || !games) {
        free(tabs);
        free(games);
        return;
    }
    game_clock clock;
    if (!clock_from_json_text(v->e.clock, &clock))
        memset(&clock, 0, sizeof clock);
    int variant = ax_variant_parse(v->e.variant), mode = ax_mode_parse(v->e.mode);
    int64_t now = unix_ms();
    int base = 0; /* arena: tables are numbered on within one pairing count */
    bool ok = true;
    for (int t = 0; t < n_tables && ok; t++) {
        stored_event_table *x = &tabs[t];
        int seats = 0;
        while (seats < TN_MAX_SEATS && members[t][seats] >= 0)
            seats++;
        /* who sits where is drawn: nobody always begins */
        for (int k = seats - 1; k > 0; k--) {
            uint8_t b = 0;
            secret_bytes(&b, 1);
            int j = b % (k + 1), tmp = members[t][k];
            members[t][k] = members[t][j];
            members[t][j] = tmp;
        }
        x->round = next->round;
        x->table = base + t + 1;
        x->seats = seats;
        x->created = now;
        x->deadline = deadline;
        for (int k = 0; k < seats; k++)
            x->player[k] = v->ent[members[t][k]].account_id;
        if (seats == 1) { /* a bye: what a table pays on average, at once */
            x->points[0] = tn_bye_points(v->e.seats);
            x->counted = true;
            x->ended = now;
            continue;
        }
        pair_seat ps[TN_MAX_SEATS];
        for (int k = 0; k < seats; k++) {
            const stored_entrant *p = &v->ent[members[t][k]];
            ps[k] = (pair_seat){p->account_id, p->name, NULL, p->bot};
        }
        int table_mode = mode == AX_TEAM && seats != 4 ? AX_STANDARD : mode;
        api_error err = {0};
        if (lobby_create_table(svc, variant, seats, table_mode, &clock, v->e.rated, ps, NULL,
                               &games[t], &err)) {
            service_log(svc, "event %s: a table's game cannot be made: %s", v->e.id, err.message);
            ok = false;
            break;
        }
        games[t]->in_event = true;
        snprintf(games[t]->event_id, sizeof games[t]->event_id, "%s", v->e.id);
        snprintf(x->game_id, sizeof x->game_id, "%s", games[t]->id);
        x->running = true;
    }
    int rc = ok ? store_event_add_tables(svc->db, next, service_instance(svc), tabs, n_tables) : 1;
    if (rc != 0) {
        if (ok && rc < 0)
            service_log(svc, "event %s: its tables cannot be stored: %s", v->e.id,
                        store_error(svc->db));
        for (int t = 0; t < n_tables; t++)
            if (games[t])
                lobby_abandon_new(games[t]);
    } else {
        for (int t = 0; t < n_tables; t++)
            if (games[t])
                push_event_game(games[t], v->e.name);
    }
    free(tabs);
    free(games);
}

/* The players as the pairing sees them, with their standings so far. */
static tn_player *pairing_players(service *svc, const event_view *v)
{
    tn_player *p = calloc((size_t)(v->n ? v->n : 1), sizeof *p);
    tn_standing *s = malloc(sizeof *s * (size_t)(v->n ? v->n : 1));
    if (!p || !s || standings_of(v, s)) {
        free(p);
        free(s);
        return NULL;
    }
    for (int i = 0; i < v->n; i++) {
        p[i].id = i;
        p[i].rating = rating_of(svc, v->ent[i].account_id, v->e.variant);
        p[i].withdrawn = v->ent[i].withdrawn;
    }
    for (int i = 0; i < v->n; i++)
        p[s[i].id].score = s[i].score;
    /* a bye, or a short table (tn_swiss_layout), counts as a bye */
    for (int i = 0; i < v->nt; i++)
        if (v->tab[i].seats < v->e.seats) {
            int o = index_of(v, v->tab[i].player[0]);
            if (o >= 0)
                p[o].byes++;
        }
    free(s);
    return p;
}

static void pair_swiss(service *svc, const event_view *v)
{
    int n = v->n;
    tn_player *p = pairing_players(svc, v);
    uint16_t *met = calloc((size_t)n * (size_t)n, sizeof *met);
    int *table = malloc(sizeof *table * (size_t)n);
    int(*members)[TN_MAX_SEATS] = malloc(sizeof *members * (size_t)n);
    if (!p || !met || !table || !members)
        goto done;
    for (int i = 0; i < v->nt; i++) {
        const stored_event_table *t = &v->tab[i];
        for (int a = 0; a < t->seats; a++)
            for (int b = 0; b < t->seats; b++) {
                int x = index_of(v, t->player[a]), y = index_of(v, t->player[b]);
                if (a != b && x >= 0 && y >= 0 && met[x * n + y] < UINT16_MAX)
                    met[x * n + y]++;
            }
    }
    double t0 = mono_now(); /* the real clock, not the tests' */
    int tables = tn_swiss_pair(p, n, met, v->e.seats, table);
    double t1 = mono_now();
    if (tables < 0) {
        service_log(svc, "event %s: round %d cannot be paired", v->e.id, v->e.round + 1);
        goto done;
    }
    int n_tables = tables;
    for (int t = 0; t < n_tables; t++)
        for (int k = 0; k < TN_MAX_SEATS; k++)
            members[t][k] = -1;
    for (int i = 0; i < n; i++) {
        if (p[i].withdrawn)
            continue;
        if (table[i] < 0) { /* a bye: a table of one of its own */
            for (int k = 0; k < TN_MAX_SEATS; k++)
                members[n_tables][k] = -1;
            members[n_tables++][0] = i;
            continue;
        }
        for (int k = 0; k < TN_MAX_SEATS; k++)
            if (members[table[i]][k] < 0) {
                members[table[i]][k] = i;
                break;
            }
    }
    stored_event next = v->e;
    next.round = v->e.round + 1;
    int64_t deadline = round_deadline(&v->e, unix_ms());
    next.round_deadline = deadline;
    seat_tables(svc, v, &next, n_tables, members, deadline);
    /* what an operator (and bench/events.py) reads of a round's pairing */
    service_log(svc,
                "event %s: round %d of %d players paired: %d tables in %.1f ms "
                "(pairing %.1f ms, games %.1f ms)",
                v->e.id, next.round, n, n_tables, (service_now(svc) - t0) * 1000, (t1 - t0) * 1000,
                (service_now(svc) - t1) * 1000);
done:
    free(p);
    free(met);
    free(table);
    free(members);
}

static void pair_arena(service *svc, const event_view *v)
{
    int n = v->n;
    bool *busy = calloc((size_t)(n ? n : 1), sizeof *busy);
    int *last = malloc(sizeof *last * (size_t)(n ? n : 1) * TN_MAX_SEATS);
    int *waiting = malloc(sizeof *waiting * (size_t)(n ? n : 1));
    int *table = malloc(sizeof *table * (size_t)(n ? n : 1));
    tn_player *p = NULL;
    int(*members)[TN_MAX_SEATS] = malloc(sizeof *members * (size_t)(n ? n : 1));
    if (!busy || !last || !waiting || !table || !members)
        goto done;
    for (int i = 0; i < n * TN_MAX_SEATS; i++)
        last[i] = -1;
    for (int i = 0; i < v->nt; i++) { /* tables by creation: the last one of each wins */
        const stored_event_table *t = &v->tab[i];
        for (int a = 0; a < t->seats; a++) {
            int x = index_of(v, t->player[a]);
            if (x < 0)
                continue;
            if (t->running)
                busy[x] = true;
            int k = 0;
            for (int b = 0; b < t->seats; b++) {
                int y = index_of(v, t->player[b]);
                if (b != a && y >= 0 && k < TN_MAX_SEATS)
                    last[x * TN_MAX_SEATS + k++] = y;
            }
            while (k < TN_MAX_SEATS)
                last[x * TN_MAX_SEATS + k++] = -1;
        }
    }
    int n_waiting = 0;
    for (int i = 0; i < n; i++)
        if (!busy[i] && !v->ent[i].withdrawn)
            waiting[n_waiting++] = i;
    if (n_waiting < v->e.seats)
        goto done;
    p = pairing_players(svc, v);
    if (!p)
        goto done;
    int tables = tn_arena_pair(p, n, last, waiting, n_waiting, v->e.seats, table);
    if (tables <= 0)
        goto done;
    for (int t = 0; t < tables; t++)
        for (int k = 0; k < TN_MAX_SEATS; k++)
            members[t][k] = -1;
    for (int w = 0; w < n_waiting; w++) {
        if (table[w] < 0 || table[w] >= tables)
            continue;
        for (int k = 0; k < TN_MAX_SEATS; k++)
            if (members[table[w]][k] < 0) {
                members[table[w]][k] = waiting[w];
                break;
            }
    }
    stored_event next = v->e;
    next.round = v->e.round + 1; /* the arena's pairing count */
    seat_tables(svc, v, &next, tables, members, 0);
done:
    free(busy);
    free(last);
    free(waiting);
    free(table);
    free(members);
    free(p);
}

static void finish(service *svc, const stored_event *e)
{
    stored_event next = *e;
    snprintf(next.status, sizeof next.status, "finished");
    next.round_deadline = 0;
    if (store_event_set_status(svc->db, &next, "running") < 0)
        service_log(svc, "event %s: cannot be finished: %s", e->id, store_error(svc->db));
}

static void run_event(service *svc, stored_event *e)
{
    int64_t now = unix_ms();
    if (strcmp(e->status, "upcoming") == 0) {
        if (e->players < 2) {
            stored_event next = *e;
            snprintf(next.status, sizeof next.status, "cancelled");
            snprintf(next.cancel_reason, sizeof next.cancel_reason, "too_few_players");
            store_event_set_status(svc->db, &next, "upcoming");
            return;
        }
        if (start_now(svc, e) != 0)
            return;
    }
    record_ended(svc, e);
    if (store_event_get(svc->db, e->id, e) != 0 || strcmp(e->status, "running"))
        return;
    event_view v;
    if (view_read(svc, e, &v)) {
        service_log(svc, "event %s: cannot be read: %s", e->id, store_error(svc->db));
        return;
    }
    int running = 0, running_now = 0;
    for (int i = 0; i < v.nt; i++) {
        running += v.tab[i].running;
        running_now += v.tab[i].running && v.tab[i].round == e->round;
    }
    if (is_arena(e)) {
        if (now < e->ends)
            pair_arena(svc, &v);
        else if (!running)
            finish(svc, e);
    } else if (e->round == 0 ||
               (e->round < e->rounds &&
                (!running_now || (e->round_deadline && now >= e->round_deadline)))) {
        pair_swiss(svc, &v);
    } else if (e->round >= e->rounds && !running) {
        finish(svc, e);
    }
    view_free(&v);
}

static int run_due(const stored_event *due, void *arg)
{
    service *svc = arg;
    int64_t now = unix_ms();
    if (store_event_lease(svc->db, due->id, service_instance(svc), now, now + LEASE_MS) != 0)
        return 0;
    stored_event e = *due;
    run_event(svc, &e);
    return 0;
}

void events_tick(service *svc, double now)
{
    struct events *ev = state_of(svc);
    if (!ev || !svc->db || svc->stopping || now - ev->last_run < RUN_EVERY_S)
        return;
    ev->last_run = now;
    if (store_each_due_event(svc->db, unix_ms(), run_due, svc))
        service_log(svc, "the events cannot be read: %s", store_error(svc->db));
}

/* --- no-shows --- */

void events_housekeeping(service *svc, double now)
{
    for (game *gm = lobby_first(svc); gm; gm = gm->next) {
        if (!gm->in_event || gm->status != GAME_RUNNING || gm->pending || gm->lost ||
            gm->clock.kind != GAME_CLOCK_REALTIME)
            continue;
        bool decided[AX_MAX_PLAYERS] = {false};
        for (int i = 0; i < gm->nevents; i++)
            if (gm->events[i].kind == AX_EV_PLACE || gm->events[i].kind == AX_EV_SWAP)
                decided[gm->events[i].player] = true;
        bool all_missing = true;
        for (int s = 0; s < gm->g.players; s++) {
            const game_seat *seat = &gm->seats[s];
            all_missing &= seat->kind == SEAT_HUMAN && !decided[s] && seat->conns == 0 &&
                           now - seat->away_since >= svc->cfg.absent_s;
        }
        if (all_missing) {
            /* Nobody came: one leaving after another would hand the last a win
             * it never played for. The game ends without a result, and every
             * seat is a no-show (score_table). */
            api_error err = {0};
            service_log(svc, "game %s: nobody came: it ends without a result (an event's no-shows)",
                        gm->id);
            if (lobby_abort(gm, -1, &err))
                service_log(svc, "game %s: %s", gm->id, err.message);
            continue;
        }
        for (int s = 0; s < gm->g.players; s++) {
            const game_seat *seat = &gm->seats[s];
            if (seat->kind == SEAT_HUMAN && !gm->g.left[s] && !decided[s] && seat->conns == 0 &&
                now - seat->away_since >= svc->cfg.absent_s) {
                service_log(svc, "game %s: seat %d never came: it leaves (an event's no-show)",
                            gm->id, s);
                play_leave(gm, s, AX_LEAVE_ABSENT);
                break; /* one at a time: the next after this one is stored */
            }
        }
    }
}
