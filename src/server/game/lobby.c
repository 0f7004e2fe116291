/*
 * lobby.c - the games the server holds in memory (see server.h).
 *
 * Every unfinished game is in memory from start to end; a finished one
 * stays while someone watches it and a minute after, then is evicted and
 * reloaded from the store on demand. Games are found through a hash table
 * on their id and listed through a list in creation order.
 *
 * A game is always built the same way, whether new or loaded: from its
 * stored form (configuration, seed, seats) by dealing from the seed and
 * replaying its stored decisions through the engine. A new game is stored
 * first and built second, so what is in memory is always what a restart
 * would rebuild.
 *
 * A seat may be bound to an account: the session's of whoever created or
 * joined with one (its name is then the account's), and in a rated game
 * each computer seat to its level's player. A seat shows its account's
 * current rating in the game's variant, kept in memory and refreshed when
 * a rated game of that account ends; a rated game over shows each seat's
 * change.
 */
#include "../../engine/record.h"
#include "game.h"
#include "json_state.h"
#include "levels.h"
#include "names.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define EVICT_AFTER        60.0 /* seconds a finished game stays without viewers */
#define LIST_BARE_MAX      100  /* GET /api/games without limit or cursor */
#define LIST_LIMIT_DEFAULT 20
#define LIST_LIMIT_MAX     100

_Static_assert(NAME_MAX_LEN >= NAME_BYTES_MAX, "a seat holds the longest name");
_Static_assert(NAME_MAX_LEN >= LEVEL_MAX_LEN + 5, "a seat holds a computer's name, \"LEVEL (AI)\"");

static int api_fail(api_error *err, int http, const char *code, const char *message);

/* Guided first games (docs/server.md#guided-games): a learner against the
 * `random` computer, two players, dealt from a fixed seed per variant that
 * scripts/guided_seeds.py chose so that the ideas the guide explains come
 * early. A game is guided exactly when it was dealt from its variant's seed
 * with two players: no other game gets one of these seeds (create_stored). */
#define GUIDED_LEVEL       "random"
#define GUIDED_SEED_SQUARE 7000000000000000132u
#define GUIDED_SEED_ROTA   7000000000000000009u
#define GUIDED_SEED_HEX    7000000000000000145u
static const uint64_t guided_seeds[] = {
    [AX_SQUARE] = GUIDED_SEED_SQUARE, [AX_ROTA] = GUIDED_SEED_ROTA, [AX_HEX] = GUIDED_SEED_HEX};

static bool is_guided_seed(uint64_t seed)
{
    for (size_t v = 0; v < sizeof guided_seeds / sizeof guided_seeds[0]; v++)
        if (seed == guided_seeds[v])
            return true;
    return false;
}

static bool stored_guided(const stored_game *sg, int variant, int mode)
{
    return sg->players == 2 && mode == AX_STANDARD && sg->seed == guided_seeds[variant];
}

static const char *const status_names[] = {"waiting", "running",   "over",
                                           "expired", "cancelled", "aborted"};

/* The status of a stored game that can no longer be replayed: never in
 * memory, never listed, only described (lobby_damaged). */
static const char damaged_status[] = "damaged";

/* What loading a game from the store gave. */
enum { LOAD_OK, LOAD_MISSING, LOAD_DAMAGED, LOAD_SET_ASIDE, LOAD_FAILED };

const char *lobby_status_name(int status) { return status_names[status]; }

bool lobby_is_open(const game *gm)
{
    return gm->status == GAME_WAITING || gm->status == GAME_RUNNING;
}

game *lobby_first(const service *svc) { return svc->oldest; }

static int status_parse(const char *name)
{
    for (int i = 0; i < (int)(sizeof status_names / sizeof status_names[0]); i++)
        if (strcmp(name, status_names[i]) == 0)
            return i;
    return -1;
}

int lobby_count(const service *svc) { return svc->ngames; }

static unsigned hash_id(const char *id)
{
    unsigned h = 2166136261u; /* FNV-1a */
    for (const unsigned char *p = (const unsigned char *)id; *p; p++)
        h = (h ^ *p) * 16777619u;
    return h % LOBBY_HASH_SIZE;
}

static game *table_get(service *svc, const char *id)
{
    for (game *gm = svc->table[hash_id(id)]; gm; gm = gm->hash_next)
        if (strcmp(gm->id, id) == 0)
            return gm;
    return NULL;
}

static void table_add(service *svc, game *gm)
{
    unsigned h = hash_id(gm->id);
    gm->hash_next = svc->table[h];
    svc->table[h] = gm;
    gm->prev = svc->newest;
    gm->next = NULL;
    if (svc->newest)
        svc->newest->next = gm;
    else
        svc->oldest = gm;
    svc->newest = gm;
    svc->ngames++;
    gm->held_since = service_now(svc);
}

static void table_remove(game *gm)
{
    service *svc = gm->svc;
    game **link = &svc->table[hash_id(gm->id)];
    while (*link != gm)
        link = &(*link)->hash_next;
    *link = gm->hash_next;
    if (gm->prev)
        gm->prev->next = gm->next;
    else
        svc->oldest = gm->next;
    if (gm->next)
        gm->next->prev = gm->prev;
    else
        svc->newest = gm->prev;
    svc->ngames--;
}

static void game_free(game *gm)
{
    for (int i = 0; i < AX_MAX_PLAYERS; i++)
        if (gm->seats[i].ai)
            ax_player_free(gm->seats[i].ai);
    chat_free(gm);
    free(gm->entry_written);
    free(gm->pending);
    free(gm->events);
    free(gm);
}

int lobby_log_events(game *gm, const ax_events *events)
{
    if (gm->nevents + events->n > gm->events_cap) {
        int cap = gm->events_cap ? gm->events_cap : 256;
        while (cap < gm->nevents + events->n)
            cap *= 2;
        ax_event *grown = realloc(gm->events, (size_t)cap * sizeof *grown);
        if (!grown)
            return -1;
        gm->events = grown;
        gm->events_cap = cap;
    }
    memcpy(gm->events + gm->nevents, events->ev, (size_t)events->n * sizeof *events->ev);
    gm->nevents += events->n;
    return 0;
}

/* A seat's account and ratings as stored. */
static void seat_account_from_stored(game_seat *s, const stored_seat *ss)
{
    rt_params p = rt_default_params();
    s->account_id = ss->account_id;
    s->rating = rt_show(ss->has_rating ? ss->rating : rt_initial(&p)).rating;
    s->has_change = ss->rated;
    s->rating_change = ss->rated ? rt_show(ss->after).rating - rt_show(ss->before).rating : 0;
}

static int seats_from_stored(game *gm, const stored_game *sg, char *err, size_t n)
{
    for (int i = 0; i < sg->players; i++) {
        const stored_seat *ss = &sg->seats[i];
        game_seat *s = &gm->seats[i];
        seat_account_from_stored(s, ss);
        snprintf(s->name, sizeof s->name, "%s", ss->name);
        snprintf(s->level, sizeof s->level, "%s", ss->level);
        snprintf(s->token_hash, sizeof s->token_hash, "%s", ss->token_hash);
        s->away_since = service_now(gm->svc);
        if (strcmp(ss->kind, "ai") == 0) {
            /* A guided game's computer is as reproducible as its deal (seeded
             * as `axio selfplay` seeds its players): the same decisions give
             * the same game. */
            uint64_t seed = sg->seed * 31 + (uint64_t)i;
            if (!gm->guided)
                secret_u64(&seed);
            s->kind = SEAT_AI;
            s->taken = true;
            const ai_level *level = ai_level_find(ss->level);
            s->ai = level ? ax_player_new(ai_level_player(level, gm->g.variant), seed) : NULL;
            if (!s->ai) {
                snprintf(err, n, "seat %d: no computer player called '%s'", i, ss->level);
                return -1;
            }
        } else if (strcmp(ss->kind, "human") == 0) {
            s->kind = SEAT_HUMAN;
            s->taken = ss->token_hash[0] != 0;
        } else {
            snprintf(err, n, "seat %d: unknown kind '%s'", i, ss->kind);
            return -1;
        }
    }
    return 0;
}

static int replay_decisions(game *gm, const stored_game *sg, char *err, size_t n)
{
    ax_events events;
    for (int i = 0; i < sg->ndecisions; i++) {
        json_error_t jerr;
        json_t *msg = json_loads(sg->decisions[i], 0, &jerr);
        ax_move m;
        char why[160] = "";
        if (!msg) {
            json_error_text(&jerr, why, sizeof why);
            snprintf(err, n, "decision %d is not JSON: %s", i, why);
            return LOAD_DAMAGED;
        }
        const char *code = decision_from_json(&gm->g, msg, &m, why, sizeof why, NULL);
        json_decref(msg);
        ax_error rc = code ? AX_ERR_MOVE_KIND : ax_apply(&gm->g, &m, &events);
        if (code || rc != AX_OK) {
            snprintf(err, n, "decision %d is rejected by the engine: %s", i,
                     code ? why : ax_error_string(rc));
            return LOAD_DAMAGED;
        }
        if (lobby_log_events(gm, &events)) {
            snprintf(err, n, "out of memory");
            return LOAD_FAILED;
        }
    }
    for (int seat = 0; seat < gm->g.players; seat++)
        if (gm->g.left[seat])
            lobby_seat_left(gm, seat);
    return LOAD_OK;
}

int lobby_rewind(game *gm)
{
    stored_game sg;
    char err[256];
    if (store_load(gm->svc->db, gm->id, &sg) != 0) {
        service_log(gm->svc, "game %s cannot be read again: %s", gm->id, store_error(gm->svc->db));
        return -1;
    }
    ax_events init;
    int v = gm->g.variant, players = gm->g.players, mode = gm->g.mode;
    uint64_t seed = gm->g.seed;
    gm->nevents = 0;
    ax_game_init(&gm->g, v, players, mode, seed, &init);
    int rc = lobby_log_events(gm, &init) ? LOAD_FAILED : replay_decisions(gm, &sg, err, sizeof err);
    stored_game_free(&sg);
    if (rc != LOAD_OK) {
        service_log(gm->svc, "game %s cannot be replayed after a take-back: %s", gm->id, err);
        return -1;
    }
    return 0;
}

void lobby_seat_left(game *gm, int seat)
{
    game_seat *s = &gm->seats[seat];
    if (s->ai)
        return;
    uint64_t seed = 0;
    secret_u64(&seed);
    s->ai = ax_player_new(LEFT_SEAT_LEVEL, seed);
    if (!s->ai)
        service_log(gm->svc, "game %s: no computer player for seat %d (out of memory)", gm->id,
                    seat);
}

/* The clock as stored: settings, and the time left per seat ("" before the
 * game started). A running game's clock runs on from now. */
static int clock_from_stored(game *gm, const stored_game *sg, char *err, size_t n)
{
    if (!clock_from_json_text(sg->clock, &gm->clock)) {
        snprintf(err, n, "unreadable clock %s", sg->clock);
        return -1;
    }
    clock_reset(gm);
    json_t *left = sg->clock_left[0] ? json_loads(sg->clock_left, 0, NULL) : NULL;
    for (int s = 0; s < sg->players && json_is_array(left); s++) {
        json_t *v = json_array_get(left, (size_t)s);
        if (json_is_integer(v))
            gm->clock.left_ms[s] = json_integer_value(v);
    }
    json_decref(left);
    if (gm->status == GAME_RUNNING)
        clock_after_decision(gm, -1, false);
    return 0;
}

/* Builds a game from its stored form: LOAD_OK with *out, LOAD_DAMAGED when
 * the stored form cannot be replayed, LOAD_FAILED when memory ran out; the
 * reason in err. */
static int game_from_stored(service *svc, const stored_game *sg, game **out, char *err, size_t n)
{
    *out = NULL;
    if (strcmp(sg->rules, AX_RULES_VERSION) != 0) {
        snprintf(err, n, "played under rules '%s'; this server plays %s", sg->rules,
                 AX_RULES_VERSION);
        return LOAD_DAMAGED;
    }
    int v = ax_variant_parse(sg->variant), m = ax_mode_parse(sg->mode);
    int status = status_parse(sg->status);
    if (v < 0 || m < 0 || status < 0 || ax_config_check(v, sg->players, m) != AX_OK ||
        !is_base64url(sg->id, GAME_ID_LEN)) {
        snprintf(err, n, "unknown configuration %s/%d/%s/%s", sg->variant, sg->players, sg->mode,
                 sg->status);
        return LOAD_DAMAGED;
    }
    game *gm = calloc(1, sizeof *gm);
    ax_events init;
    if (!gm) {
        snprintf(err, n, "out of memory");
        return LOAD_FAILED;
    }
    gm->svc = svc;
    memcpy(gm->id, sg->id, strlen(sg->id) + 1);
    gm->created = sg->created;
    gm->ended = status == GAME_OVER ? sg->updated : 0;
    gm->creator = sg->creator >= 0 && sg->creator < sg->players ? sg->creator : 0;
    gm->rated = sg->rated;
    gm->guided = stored_guided(sg, v, m);
    if (is_base64url(sg->rematch, GAME_ID_LEN))
        memcpy(gm->rematch, sg->rematch, strlen(sg->rematch) + 1);
    if (is_base64url(sg->rematch_of, GAME_ID_LEN))
        memcpy(gm->rematch_of, sg->rematch_of, strlen(sg->rematch_of) + 1);
    gm->status = status;
    gm->idle_since = service_now(gm->svc);
    gm->aborted_by = -1;
    if (status == GAME_ABORTED) {
        json_t *end = json_loads(sg->end_summary, 0, NULL);
        json_t *by = json_object_get(end, "by");
        gm->aborted_by = json_is_integer(by) ? (int)json_integer_value(by) : -1;
        json_decref(end);
    }
    /* its creator's lane; a game of before schema 8 has one of its own */
    char own[65];
    if (!sg->creator_addr[0])
        sha256_hex(sg->id, own);
    gm->lane = lane_of_hash(sg->creator_addr[0] ? sg->creator_addr : own);
    uint64_t hint_seed = 0;
    secret_u64(&hint_seed);
    ax_rng_seed(&gm->hint_rng, hint_seed);
    char seed[24];
    snprintf(seed, sizeof seed, "%" PRIu64, sg->seed);
    sha256_hex(seed, gm->seed_hash);
    ax_game_init(&gm->g, v, sg->players, m, sg->seed, &init);
    int rc = LOAD_FAILED;
    if (lobby_log_events(gm, &init))
        snprintf(err, n, "out of memory");
    else if (seats_from_stored(gm, sg, err, n))
        rc = LOAD_DAMAGED;
    else
        rc = replay_decisions(gm, sg, err, n);
    if (rc == LOAD_OK && gm->g.phase == AX_PHASE_OVER)
        gm->status = GAME_OVER;
    if (rc == LOAD_OK && clock_from_stored(gm, sg, err, n))
        rc = LOAD_DAMAGED;
    if (rc != LOAD_OK) {
        game_free(gm);
        return rc;
    }
    *out = gm;
    return LOAD_OK;
}

/* Loads a game from the store into memory (*out); LOAD_SET_ASIDE for a
 * game stored as damaged, which is not built. */
static int load_game(service *svc, const char *id, game **out, char *err, size_t n)
{
    stored_game sg;
    *out = NULL;
    int rc = store_load(svc->db, id, &sg);
    bool marked = rc != 1 && rc != -1 && strcmp(sg.status, damaged_status) == 0;
    if (rc == 1)
        return LOAD_MISSING;
    if (rc != 0 && !marked) {
        snprintf(err, n, "%s", store_error(svc->db));
        return rc == 2 ? LOAD_DAMAGED : LOAD_FAILED;
    }
    rc = marked ? LOAD_SET_ASIDE : game_from_stored(svc, &sg, out, err, n);
    if (*out) {
        chat_load(*out, &sg);
        table_add(svc, *out);
    }
    stored_game_free(&sg);
    return rc;
}

/* A game that can no longer be replayed is set aside, not resumed: its
 * players lose it, so this is said even with --quiet. */
static int set_aside(service *svc, const char *id, const char *why)
{
    fprintf(stderr, "axio serve: game %s is damaged and set aside: %s\n", id, why);
    if (store_set_damaged(svc->db, id, why) == 0)
        return 0;
    fprintf(stderr, "axio serve: game %s cannot be set aside: %s\n", id, store_error(svc->db));
    return -1;
}

game *lobby_local(service *svc, const char *id)
{
    return is_base64url(id, GAME_ID_LEN) ? table_get(svc, id) : NULL;
}

int lobby_hold(service *svc, const char *id, game **out, char holder[STORE_INSTANCE_LEN + 1])
{
    *out = NULL;
    if (holder)
        holder[0] = 0;
    if (!is_base64url(id, GAME_ID_LEN))
        return HOLD_MISSING;
    game *gm = table_get(svc, id);
    if (gm && gm->lost)
        return HOLD_ELSEWHERE; /* dropped once idle; its new holder is not known here */
    if (gm) {
        *out = gm;
        return HOLD_HERE;
    }
    /* held before it is read: nobody else writes to it from then on */
    int held = owners_take(svc, id, holder);
    if (held != 0)
        return held == 1 ? HOLD_ELSEWHERE : HOLD_FAILED;
    char err[256];
    int rc = load_game(svc, id, &gm, err, sizeof err);
    if (rc == LOAD_DAMAGED)
        set_aside(svc, id, err);
    else if (rc == LOAD_FAILED)
        service_log(svc, "game %s cannot be loaded: %s", id, err);
    if (!gm) {
        owners_release(svc, id);
        return rc == LOAD_FAILED ? HOLD_FAILED : HOLD_MISSING;
    }
    play_maybe_ai(gm);
    *out = gm;
    return HOLD_HERE;
}

game *lobby_find(service *svc, const char *id)
{
    game *gm;
    return lobby_hold(svc, id, &gm, NULL) == HOLD_HERE ? gm : NULL;
}

bool lobby_idle(const game *gm)
{
    return !gm->ai_busy && gm->hints_busy == 0 && !gm->pending && !gm->taking_back &&
           gm->chat_writes == 0;
}

void lobby_drop(game *gm, int close_code)
{
    while (gm->viewers) {
        viewer *c = gm->viewers;
        gm->viewers = c->next;
        /* the client reconnects at once: nginx sends it where the game goes */
        play_send_json(c, json_pack("{s:s,s:i}", "type", "moving", "retry_ms", 0));
        c->attached = false;
        c->closed = true;
        c->gm = NULL;
        gm->svc->hooks.close(c->conn, close_code);
    }
    table_remove(gm);
    game_free(gm);
}

int lobby_damaged(service *svc, const char *id, stored_game *out)
{
    if (!is_base64url(id, GAME_ID_LEN) || table_get(svc, id))
        return -1;
    if (store_load_summary(svc->db, id, out) != 0)
        return -1;
    if (strcmp(out->status, damaged_status) == 0)
        return 0;
    stored_game_free(out);
    return -1;
}

typedef struct {
    service *svc;
    int resumed, set_aside;
} resume_count;

static int resume_one(const char *id, void *arg)
{
    resume_count *count = arg;
    char err[256];
    game *gm;
    if (table_get(count->svc, id))
        return 0;
    switch (load_game(count->svc, id, &gm, err, sizeof err)) {
    case LOAD_OK: count->resumed++; return 0;
    case LOAD_MISSING: return 0;
    case LOAD_DAMAGED: count->set_aside++; return set_aside(count->svc, id, err);
    default:
        fprintf(stderr, "axio serve: game %s in the database cannot be resumed: %s\n", id, err);
        return -1;
    }
}

int lobby_resume(service *svc)
{
    if (svc->shared)
        return 0; /* the games nobody holds are adopted (owners.c) */
    resume_count count = {svc, 0, 0};
    if (store_each_unfinished(svc->db, resume_one, &count) != 0) {
        if (*store_error(svc->db))
            fprintf(stderr, "axio serve: %s\n", store_error(svc->db));
        return -1;
    }
    for (game *gm = svc->oldest; gm; gm = gm->next)
        play_maybe_ai(gm);
    if (count.resumed)
        service_log(svc, "resumed %d unfinished game%s", count.resumed,
                    count.resumed == 1 ? "" : "s");
    if (count.set_aside)
        service_log(svc, "set %d damaged game%s aside", count.set_aside,
                    count.set_aside == 1 ? "" : "s");
    return 0;
}

void lobby_free(service *svc)
{
    while (svc->oldest) {
        game *gm = svc->oldest;
        table_remove(gm);
        game_free(gm);
    }
}

/* A waiting game whose creator has been gone for --waiting-ttl-s. */
static bool waiting_expired(const game *gm, double now)
{
    const game_seat *creator = &gm->seats[gm->creator];
    return gm->status == GAME_WAITING && creator->conns == 0 &&
           now - creator->away_since >= gm->svc->cfg.waiting_ttl_s;
}

/* A running game nobody can finish (docs/online-play.md, "Games nobody
 * finishes"): a computer plays one of its seats, and every person still in
 * it has had no connection for --absent-s. A game with a clock is left to
 * its clock, which makes an absent player leave (timeout) in its own time:
 * a day per move means a player may be away for a day. */
static bool abandoned(const game *gm, double now)
{
    if (gm->status != GAME_RUNNING || gm->clock.kind != GAME_CLOCK_NONE || gm->pending)
        return false;
    bool computer = false, person = false;
    for (int i = 0; i < gm->g.players; i++) {
        const game_seat *s = &gm->seats[i];
        if (s->kind == SEAT_AI || gm->g.left[i]) {
            computer = true;
            continue;
        }
        if (s->conns > 0 || now - s->away_since < gm->svc->cfg.absent_s)
            return false;
        person = true;
    }
    return computer && person;
}

/* A running game of people only, without a clock, that nobody has been
 * connected to for --absent-s: nobody can finish it but its people, who
 * may come back; it is not listed publicly meanwhile, and it expires after
 * --waiting-ttl-s (docs/online-play.md, "Games nobody finishes"). */
static double dormant_for(const game *gm, double now)
{
    if (gm->status != GAME_RUNNING || gm->clock.kind != GAME_CLOCK_NONE)
        return 0;
    double away = -1;
    for (int i = 0; i < gm->g.players; i++) {
        const game_seat *s = &gm->seats[i];
        if (s->kind == SEAT_AI || gm->g.left[i])
            return 0; /* a computer plays there: abandoned() ends it */
        if (s->conns > 0)
            return 0;
        double a = now - s->away_since;
        if (away < 0 || a < away)
            away = a;
    }
    return away > 0 ? away : 0;
}

bool lobby_dormant(const game *gm)
{
    return dormant_for(gm, service_now(gm->svc)) >= gm->svc->cfg.absent_s;
}

/* Each person of an abandoned game leaves as absent (rules 6), through the
 * one decision path: a 2-sided game ends at once; with 3 or 4 sides the
 * computers take the leavers' seats and the game ends when one side is
 * left, or is played out by the computers. */
static void end_abandoned(game *gm)
{
    service_log(gm->svc, "game %s: every player has been away for %d s; they leave as absent",
                gm->id, gm->svc->cfg.absent_s);
    for (int i = 0; i < gm->g.players; i++)
        if (gm->seats[i].kind == SEAT_HUMAN && !gm->g.left[i])
            play_leave(gm, i, AX_LEAVE_ABSENT);
}

static void set_closed_status(game *gm, int status)
{
    if (store_set_status(gm->svc->db, gm->id, lobby_status_name(status))) {
        service_log(gm->svc, "game %s: storing status %s failed: %s", gm->id,
                    lobby_status_name(status), store_error(gm->svc->db));
        return;
    }
    gm->status = status;
    gm->idle_since = service_now(gm->svc);
    play_broadcast_state(gm);
}

void lobby_housekeeping(service *svc, double now)
{
    game *next;
    for (game *gm = svc->oldest; gm; gm = next) {
        next = gm->next;
        if (waiting_expired(gm, now) || dormant_for(gm, now) >= svc->cfg.waiting_ttl_s)
            set_closed_status(gm, GAME_EXPIRED);
        if (abandoned(gm, now))
            end_abandoned(gm);
        if (!lobby_is_open(gm) && gm->nviewers == 0 && lobby_idle(gm) &&
            now - gm->idle_since > EVICT_AFTER) {
            owners_release(svc, gm->id);
            table_remove(gm);
            game_free(gm);
        } else {
            play_maybe_ai(gm);
        }
    }
}

void lobby_abandon_new(game *gm) { set_closed_status(gm, GAME_CANCELLED); }

bool lobby_abortable(const game *gm)
{
    int placed[AX_MAX_PLAYERS] = {0};
    for (int i = 0; i < gm->nevents; i++)
        if (gm->events[i].kind == AX_EV_PLACE)
            placed[gm->events[i].player]++;
    for (int i = 0; i < gm->g.players; i++)
        if (gm->seats[i].kind == SEAT_HUMAN && placed[i] > 1)
            return false;
    return gm->status == GAME_RUNNING;
}

int lobby_abort(game *gm, int seat, api_error *err)
{
    char summary[64];
    snprintf(summary, sizeof summary, "{\"reason\":\"aborted\",\"by\":%d}", seat);
    if (store_set_end(gm->svc->db, gm->id, lobby_status_name(GAME_ABORTED), summary)) {
        service_log(gm->svc, "game %s: storing its abort failed: %s", gm->id,
                    store_error(gm->svc->db));
        return api_fail(err, 500, "internal", "the game could not be aborted");
    }
    gm->aborted_by = seat;
    gm->ended = (int64_t)time(NULL);
    gm->status = GAME_ABORTED;
    gm->idle_since = service_now(gm->svc);
    play_broadcast_state(gm);
    return 0;
}

int lobby_cancel(game *gm, const char *token, api_error *err)
{
    int seat = token ? lobby_seat_of_token(gm, token) : -1;
    if (seat < 0 || seat != gm->creator)
        return api_fail(err, 401, "unauthorized", "only the creator's seat token cancels a game");
    if (gm->status != GAME_WAITING)
        return api_fail(err, 409, "not_waiting", "only a game that waits for players is cancelled");
    set_closed_status(gm, GAME_CANCELLED);
    if (gm->status != GAME_CANCELLED)
        return api_fail(err, 500, "internal", "the game could not be cancelled");
    return 0;
}

void lobby_seat_account_json(json_t *o, const game_seat *s)
{
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
        (f->only >= 0 && status_parse(status) != f->only) ||
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
        only = status_parse(status);
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
    if (strcmp(sg->status, damaged_status) == 0)
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
        seat_account_from_stored(&seat, ss);
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
    if (v >= 0 && stored_guided(sg, v, m))
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

/* --- creating and joining --- */

static int api_fail(api_error *err, int http, const char *code, const char *message)
{
    err->http = http;
    err->code = code;
    snprintf(err->message, sizeof err->message, "%s", message);
    err->reason = NULL;
    return -1;
}

/* A player's name in its normalized form (names.c), or refused with the
 * reason; absent, null or empty gives the fallback. */
static int read_name(const json_t *body, const char *fallback, char out[NAME_MAX_LEN + 1],
                     api_error *err)
{
    const json_t *v = json_object_get(body, "name");
    if (!v || json_is_null(v) || (json_is_string(v) && json_string_length(v) == 0)) {
        snprintf(out, NAME_MAX_LEN + 1, "%s", fallback);
        return 0;
    }
    if (!json_is_string(v))
        return api_fail(err, 400, "bad_message", "name must be a string");
    char why[128];
    if (strlen(json_string_value(v)) != json_string_length(v)) { /* a \u0000 inside */
        api_fail(err, 400, "bad_message", "name may hold letters, digits, spaces and _ - . only");
        err->reason = name_refusal_id(NAME_REFUSED_CHARS);
        return -1;
    }
    int refused = name_normalize(json_string_value(v), out, why, sizeof why);
    if (refused) {
        api_fail(err, refused == NAME_REFUSED_MEMORY ? 500 : 400,
                 refused == NAME_REFUSED_MEMORY ? "internal" : "bad_message", why);
        err->reason = name_refusal_id(refused);
        return -1;
    }
    return 0;
}

static int read_config(const json_t *body, int *v, int *players, int *m, api_error *err)
{
    const char *variant = json_string_value(json_object_get(body, "variant"));
    if (!variant || (*v = ax_variant_parse(variant)) < 0)
        return api_fail(err, 400, "bad_message", "variant must be square, rota or hex");
    const json_t *jp = json_object_get(body, "players"), *seats = json_object_get(body, "seats");
    if (jp && !json_is_integer(jp))
        return api_fail(err, 400, "bad_message", "players must be an integer 1..4");
    json_int_t p = jp                     ? json_integer_value(jp)
                   : json_is_array(seats) ? (json_int_t)json_array_size(seats)
                                          : 0;
    if (p < 1 || p > AX_MAX_PLAYERS)
        return api_fail(err, 400, "bad_message", "players must be an integer 1..4");
    *players = (int)p;
    const json_t *jm = json_object_get(body, "mode");
    if (jm && !json_is_null(jm) && !json_is_string(jm))
        return api_fail(err, 400, "bad_message", "mode must be standard, solo or team");
    const char *mode = json_string_value(jm);
    *m = mode ? ax_mode_parse(mode) : p == 1 ? AX_SOLO : AX_STANDARD;
    if (*m < 0)
        return api_fail(err, 400, "bad_message", "mode must be standard, solo or team");
    if (ax_config_check(*v, *players, *m) != AX_OK)
        return api_fail(err, 400, "bad_message",
                        "players and mode do not fit the variant (solo: 1; team: hex with 4)");
    return 0;
}

static int read_seat(const json_t *js, int i, stored_seat *ss, api_error *err)
{
    const char *kind = json_string_value(json_object_get(js, "kind"));
    if (!json_is_object(js) || !kind || (strcmp(kind, "human") && strcmp(kind, "ai")))
        return api_fail(err, 400, "bad_message", "each seat needs kind human or ai");
    snprintf(ss->kind, sizeof ss->kind, "%s", kind);
    if (strcmp(kind, "human") == 0)
        return 0;
    const char *level = json_string_value(json_object_get(js, "level"));
    if (!ai_level_find(level) || strlen(level) > LEVEL_MAX_LEN) {
        char names[80];
        ai_level_list(names, sizeof names);
        snprintf(err->message, sizeof err->message, "seat %d: level must be one of %s", i, names);
        err->http = 400;
        err->code = "bad_message";
        return -1;
    }
    snprintf(ss->level, sizeof ss->level, "%s", level);
    snprintf(ss->name, sizeof ss->name, "%s (AI)", level);
    return 0;
}

static int read_seats(const json_t *body, stored_game *sg, api_error *err)
{
    const json_t *seats = json_object_get(body, "seats");
    if (seats && !json_is_array(seats))
        return api_fail(err, 400, "bad_message", "seats must be a list");
    if (seats && (int)json_array_size(seats) != sg->players)
        return api_fail(err, 400, "bad_message", "seats must have one entry per player");
    int humans = 0;
    for (int i = 0; i < sg->players; i++) {
        stored_seat *ss = &sg->seats[i];
        if (!seats)
            snprintf(ss->kind, sizeof ss->kind, "human");
        else if (read_seat(json_array_get(seats, (size_t)i), i, ss, err))
            return -1;
        humans += strcmp(ss->kind, "human") == 0;
    }
    if (humans == 0)
        return api_fail(err, 400, "bad_message", "at least one seat must be human");
    return 0;
}

static int first_free_human(const stored_game *sg)
{
    for (int i = 0; i < sg->players; i++)
        if (strcmp(sg->seats[i].kind, "human") == 0 && !sg->seats[i].token_hash[0])
            return i;
    return -1;
}

/* The current R of an account in a variant (1500 before its first rated
 * game there, or when the store cannot tell). */
static int account_rating(service *svc, int64_t account_id, const char *variant)
{
    rt_params p = rt_default_params();
    rt_rating r = rt_initial(&p);
    int games;
    if (store_rating(svc->db, account_id, variant, &r, &games))
        service_log(svc, "reading a rating failed: %s", store_error(svc->db));
    return rt_show(r).rating;
}

/* Stores a new game and builds it; `seat` is taken with a new token. A
 * guided game keeps the seed it was given; every other gets a secret one,
 * never a guided game's. */
/* Whether a computer seat searches (strong, expert): such games cost the
 * server the most. */
static bool has_searching_computer(const stored_game *sg)
{
    for (int i = 0; i < sg->players; i++) {
        const ai_level *level = ai_level_find(sg->seats[i].level);
        if (strcmp(sg->seats[i].kind, "ai") == 0 && level && level->think_ms > 0)
            return true;
    }
    return false;
}

static int too_many(api_error *err, const char *reason, const char *message, double retry_s)
{
    api_fail(err, 429, "rate_limited", message);
    err->reason = reason;
    err->retry_after_s = (int)retry_s + 1;
    return -1;
}

/* What a new game costs its creator's address and account, counted for the
 * whole site (budgets.c): a game; a game against a searching computer; and
 * no more than --max-waiting-per-ip waiting at once. Nothing is counted
 * when one is refused. */
static int charge_creation(service *svc, stored_game *sg, const creator *by, api_error *err)
{
    double wait = 0;
    if (!by || !by->ip)
        return 0; /* paid for when it was asked for (a challenge, a seek) */
    hmac_sha256_hex(svc->site_key, by->ip, sg->creator_addr);
    int waiting = 0;
    if (strcmp(sg->status, "waiting") == 0 &&
        store_waiting_by(svc->db, sg->creator_addr, &waiting) == 0 &&
        waiting >= svc->cfg.waiting_per_ip)
        return too_many(err, "waiting",
                        "too many games from this address are waiting for players; start or "
                        "cancel one first",
                        0);
    if (!budget_take(svc, BUDGET_GAMES, by->ip, 1, &wait))
        return too_many(err, "games", "too many games created from this address; try later", wait);
    if (!has_searching_computer(sg))
        return 0;
    if (!budget_take(svc, BUDGET_STRONG_IP, by->ip, 1, &wait)) {
        budget_take(svc, BUDGET_GAMES, by->ip, -1, NULL);
        return too_many(err, "strong_games",
                        "too many games against the strongest computers from this address; try "
                        "later",
                        wait);
    }
    if (!budget_take_account(svc, BUDGET_STRONG_ACCOUNT, by->account_id, &wait)) {
        budget_take(svc, BUDGET_GAMES, by->ip, -1, NULL);
        budget_take(svc, BUDGET_STRONG_IP, by->ip, -1, NULL);
        return too_many(err, "strong_games",
                        "too many games against the strongest computers for this account; try "
                        "later",
                        wait);
    }
    return 0;
}

static int create_stored(service *svc, stored_game *sg, bool guided, int seat, const creator *by,
                         char token[TOKEN_LEN + 1], game **out, api_error *err)
{
    bool failed = secret_game_id(sg->id) || secret_token(token);
    while (!guided && !failed && (!sg->seed || is_guided_seed(sg->seed)))
        failed = secret_u64(&sg->seed);
    if (failed)
        return api_fail(err, 500, "internal", "no randomness available");
    sha256_hex(token, sg->seats[seat].token_hash);
    sg->creator = seat;
    snprintf(sg->status, sizeof sg->status, "%s", first_free_human(sg) < 0 ? "running" : "waiting");
    sg->created = (int64_t)time(NULL);
    snprintf(sg->rules, sizeof sg->rules, "%s", AX_RULES_VERSION);
    if (charge_creation(svc, sg, by, err))
        return -1;
    if (owners_take(svc, sg->id, NULL) != 0)
        return api_fail(err, 503, "unavailable", "the game could not be stored");
    if (store_create_game(svc->db, sg)) {
        owners_release(svc, sg->id);
        service_log(svc, "storing a new game failed: %s", store_error(svc->db));
        return api_fail(err, 500, "internal", "the game could not be stored");
    }
    char why[256];
    game *gm;
    if (game_from_stored(svc, sg, &gm, why, sizeof why) != LOAD_OK) {
        service_log(svc, "a new game cannot be built: %s", why);
        return api_fail(err, 500, "internal", "the game could not be built");
    }
    for (int i = 0; i < gm->g.players; i++)
        if (gm->seats[i].account_id > 0)
            gm->seats[i].rating = account_rating(svc, gm->seats[i].account_id, sg->variant);
    table_add(svc, gm);
    *out = gm;
    play_maybe_ai(gm);
    return 0;
}

static void clock_text(const game_clock *c, char *out, size_t size)
{
    json_t *settings = clock_settings_json(c);
    char *text = json_dumps(settings, JSON_COMPACT | JSON_ENCODE_ANY);
    json_decref(settings);
    snprintf(out, size, "%s", text && c->kind != GAME_CLOCK_NONE ? text : "");
    free(text);
}

/* "rated": absent or a boolean. */
static int read_rated(const json_t *body, bool *rated, api_error *err)
{
    const json_t *v = json_object_get(body, "rated");
    if (v && !json_is_boolean(v))
        return api_fail(err, 400, "bad_message", "rated must be true or false");
    *rated = json_is_true(v);
    return 0;
}

/* Binds each computer seat of a rated game to its level's player; a level
 * plays one seat of a rated game at most (it is one player). */
static int bind_computers(service *svc, stored_game *sg, api_error *err)
{
    for (int i = 0; i < sg->players; i++) {
        stored_seat *ss = &sg->seats[i];
        if (strcmp(ss->kind, "ai") != 0)
            continue;
        for (int k = 0; k < i; k++)
            if (strcmp(sg->seats[k].kind, "ai") == 0 && strcmp(sg->seats[k].level, ss->level) == 0)
                return api_fail(err, 400, "bad_message",
                                "a computer level plays one seat of a rated game at most");
        char key[NAME_FOLD_MAX + 1];
        stored_account level;
        if (name_fold(ss->level, key, sizeof key) ||
            store_account_by_key(svc->db, key, &level) != 0 || !level.computer)
            return api_fail(err, 500, "internal", "the computer player's rating cannot be read");
        ss->account_id = level.id;
    }
    return 0;
}

/* What a rated game needs (docs/ratings.md): a clock, more than one side,
 * an account on the creator's seat. */
static int check_rated(const stored_game *sg, const game_clock *clock,
                       const stored_account *account, api_error *err)
{
    if (clock->kind == GAME_CLOCK_NONE)
        return api_fail(err, 400, "bad_message", "a rated game needs a clock");
    if (strcmp(sg->mode, "solo") == 0)
        return api_fail(err, 400, "bad_message", "a solo game cannot be rated");
    if (!account)
        return api_fail(err, 400, "bad_message", "log in to create a rated game");
    return 0;
}

/* "guided": absent or a boolean; a guided game takes its players, mode,
 * seats and clock from the server and is never rated, so a body that asks
 * for anything else is refused. */
static int read_guided(const json_t *body, bool *guided, api_error *err)
{
    const json_t *v = json_object_get(body, "guided");
    if (v && !json_is_boolean(v))
        return api_fail(err, 400, "bad_message", "guided must be true or false");
    *guided = json_is_true(v);
    if (!*guided)
        return 0;
    const json_t *players = json_object_get(body, "players"), *mode = json_object_get(body, "mode");
    const json_t *clock = json_object_get(body, "clock");
    if (players && !(json_is_integer(players) && json_integer_value(players) == 2))
        return api_fail(err, 400, "bad_message", "a guided game has two players");
    if (mode && !(json_is_string(mode) && strcmp(json_string_value(mode), "standard") == 0))
        return api_fail(err, 400, "bad_message", "a guided game is played in mode standard");
    if (json_object_get(body, "seats"))
        return api_fail(err, 400, "bad_message",
                        "a guided game chooses its seats: you against the computer");
    if (clock && !json_is_null(clock))
        return api_fail(err, 400, "bad_message", "a guided game has no clock");
    if (json_is_true(json_object_get(body, "rated")))
        return api_fail(err, 400, "bad_message", "a guided game cannot be rated");
    return 0;
}

/* A guided first game of the body's variant: the learner on seat 0 (who
 * begins), the computer on seat 1. */
static int create_guided(service *svc, const json_t *body, const stored_account *account,
                         const creator *by, game **out, int *seat_out, char token[TOKEN_LEN + 1],
                         api_error *err)
{
    const char *variant = json_string_value(json_object_get(body, "variant"));
    int v = variant ? ax_variant_parse(variant) : -1;
    if (v < 0)
        return api_fail(err, 400, "bad_message", "variant must be square, rota or hex");
    stored_game sg;
    memset(&sg, 0, sizeof sg);
    sg.players = 2;
    sg.seed = guided_seeds[v];
    snprintf(sg.variant, sizeof sg.variant, "%s", ax_variant_name(v));
    snprintf(sg.mode, sizeof sg.mode, "%s", ax_mode_name(AX_STANDARD));
    snprintf(sg.seats[0].kind, sizeof sg.seats[0].kind, "human");
    snprintf(sg.seats[1].kind, sizeof sg.seats[1].kind, "ai");
    snprintf(sg.seats[1].level, sizeof sg.seats[1].level, "%s", GUIDED_LEVEL);
    snprintf(sg.seats[1].name, sizeof sg.seats[1].name, "%s (AI)", GUIDED_LEVEL);
    if (account) {
        snprintf(sg.seats[0].name, sizeof sg.seats[0].name, "%s", account->name);
        sg.seats[0].account_id = account->id;
    } else if (read_name(body, "Player 1", sg.seats[0].name, err)) {
        return -1;
    }
    *seat_out = 0;
    return create_stored(svc, &sg, true, 0, by, token, out, err);
}

int lobby_create(service *svc, const json_t *body, const stored_account *account, const char *ip,
                 game **out, int *seat_out, char token[TOKEN_LEN + 1], api_error *err)
{
    if (!json_is_object(body))
        return api_fail(err, 400, "bad_message", "the body must be a JSON object");
    bool guided;
    creator by = {ip, account ? account->id : 0};
    if (read_guided(body, &guided, err))
        return -1;
    if (guided)
        return create_guided(svc, body, account, &by, out, seat_out, token, err);
    stored_game sg;
    memset(&sg, 0, sizeof sg);
    int v, players, m;
    game_clock clock;
    if (read_config(body, &v, &players, &m, err) ||
        clock_parse(json_object_get(body, "clock"), &clock, err) ||
        read_rated(body, &sg.rated, err))
        return -1;
    sg.players = players;
    snprintf(sg.variant, sizeof sg.variant, "%s", ax_variant_name(v));
    snprintf(sg.mode, sizeof sg.mode, "%s", ax_mode_name(m));
    clock_text(&clock, sg.clock, sizeof sg.clock);
    if (read_seats(body, &sg, err) ||
        (sg.rated && (check_rated(&sg, &clock, account, err) || bind_computers(svc, &sg, err))))
        return -1;
    int seat = first_free_human(&sg);
    if (account) {
        snprintf(sg.seats[seat].name, sizeof sg.seats[seat].name, "%s", account->name);
        sg.seats[seat].account_id = account->id;
    } else if (read_name(body, "Player 1", sg.seats[seat].name, err)) {
        return -1;
    }
    *seat_out = seat;
    return create_stored(svc, &sg, false, seat, &by, token, out, err);
}

/* A game starts when its last human seat is taken. */
static void start_game(game *gm)
{
    gm->status = GAME_RUNNING;
    clock_reset(gm);
    clock_after_decision(gm, -1, false);
}

/* Takes a free seat of a waiting game (stored first) with a new token,
 * for an account (account_id) or a guest (0). */
static int take_seat(game *gm, int seat, const char *name, int64_t account_id,
                     char token[TOKEN_LEN + 1], api_error *err)
{
    int free_after = 0;
    for (int i = 0; i < gm->g.players; i++)
        free_after += i != seat && gm->seats[i].kind == SEAT_HUMAN && !gm->seats[i].taken;
    char hash[65];
    if (secret_token(token))
        return api_fail(err, 500, "internal", "no randomness available");
    sha256_hex(token, hash);
    int status = free_after ? GAME_WAITING : GAME_RUNNING;
    if (store_take_seat(gm->svc->db, gm->id, seat, name, hash, account_id,
                        lobby_status_name(status))) {
        service_log(gm->svc, "storing a join failed: %s", store_error(gm->svc->db));
        return api_fail(err, 500, "internal", "the seat could not be stored");
    }
    game_seat *s = &gm->seats[seat];
    s->taken = true;
    snprintf(s->name, sizeof s->name, "%s", name);
    memcpy(s->token_hash, hash, sizeof s->token_hash);
    s->account_id = account_id;
    if (account_id > 0)
        s->rating = account_rating(gm->svc, account_id, ax_variant_name(gm->g.variant));
    if (status == GAME_RUNNING)
        start_game(gm);
    play_broadcast_state(gm);
    play_maybe_ai(gm);
    return 0;
}

static int closed_game(const game *gm, api_error *err)
{
    if (gm->status == GAME_EXPIRED)
        return api_fail(err, 409, "expired", "the game expired: its creator left before it began");
    if (gm->status == GAME_CANCELLED)
        return api_fail(err, 409, "cancelled", "the game was cancelled by its creator");
    return api_fail(err, 409, "full", "the game has no free seat");
}

/* Whether the account holds a seat of the game already. */
static bool seated(const game *gm, int64_t account_id)
{
    for (int i = 0; i < gm->g.players; i++)
        if (gm->seats[i].account_id == account_id)
            return true;
    return false;
}

int lobby_join(game *gm, const json_t *body, const stored_account *account, int *seat_out,
               char token[TOKEN_LEN + 1], api_error *err)
{
    if (body && !json_is_object(body))
        return api_fail(err, 400, "bad_message", "the body must be a JSON object");
    int seat = -1;
    for (int i = 0; i < gm->g.players && seat < 0; i++)
        if (gm->seats[i].kind == SEAT_HUMAN && !gm->seats[i].taken)
            seat = i;
    if (seat < 0 || gm->status != GAME_WAITING || gm->rematch_of[0])
        return closed_game(gm, err);
    if (gm->rated && !account)
        return api_fail(err, 401, "unauthorized", "log in to join a rated game");
    if (gm->rated && seated(gm, account->id))
        return api_fail(err, 409, "already_seated", "you hold a seat of this rated game already");
    char name[NAME_MAX_LEN + 1], fallback[24];
    snprintf(fallback, sizeof fallback, "Player %d", seat + 1);
    if (account)
        snprintf(name, sizeof name, "%s", account->name);
    else if (read_name(body, fallback, name, err))
        return -1;
    if (take_seat(gm, seat, name, account ? account->id : 0, token, err))
        return -1;
    *seat_out = seat;
    return 0;
}

void lobby_account_deleted(service *svc, int64_t account_id)
{
    for (game *gm = svc->oldest; gm; gm = gm->next) {
        bool changed = false;
        for (int i = 0; i < gm->g.players; i++) {
            game_seat *s = &gm->seats[i];
            if (s->account_id != account_id)
                continue;
            snprintf(s->name, sizeof s->name, "%s", STORE_NEUTRAL_NAME);
            s->account_id = 0;
            s->has_change = false;
            changed = true;
        }
        if (changed)
            play_broadcast_state(gm);
    }
}

void lobby_rating_changed(service *svc, int64_t account_id, int variant, int rating)
{
    for (game *gm = svc->oldest; gm; gm = gm->next)
        for (int i = 0; i < gm->g.players && gm->g.variant == variant; i++)
            if (gm->seats[i].account_id == account_id)
                gm->seats[i].rating = rating;
}

int lobby_create_pair(service *svc, int variant, const game_clock *clock, bool rated,
                      const pair_seat seats[2], const creator *by, game **out, api_error *err)
{
    stored_game sg;
    memset(&sg, 0, sizeof sg);
    sg.players = 2;
    sg.rated = rated;
    snprintf(sg.variant, sizeof sg.variant, "%s", ax_variant_name(variant));
    snprintf(sg.mode, sizeof sg.mode, "%s", ax_mode_name(AX_STANDARD));
    clock_text(clock, sg.clock, sizeof sg.clock);
    int creator_seat = -1;
    for (int i = 0; i < 2; i++) {
        stored_seat *ss = &sg.seats[i];
        if (seats[i].level) {
            snprintf(ss->kind, sizeof ss->kind, "ai");
            snprintf(ss->level, sizeof ss->level, "%s", seats[i].level);
            snprintf(ss->name, sizeof ss->name, "%s (AI)", seats[i].level);
            continue;
        }
        snprintf(ss->kind, sizeof ss->kind, "human");
        snprintf(ss->name, sizeof ss->name, "%s", seats[i].name);
        ss->account_id = seats[i].account_id;
        if (creator_seat < 0) {
            creator_seat = i; /* its token is made by create_stored */
            continue;
        }
        /* the other person's seat is taken too: it is played with the session */
        char token[TOKEN_LEN + 1];
        if (secret_token(token))
            return api_fail(err, 500, "internal", "no randomness available");
        sha256_hex(token, ss->token_hash);
    }
    if (creator_seat < 0)
        return api_fail(err, 400, "bad_message", "a game needs a person");
    if (rated && (clock->kind == GAME_CLOCK_NONE || bind_computers(svc, &sg, err)))
        return clock->kind == GAME_CLOCK_NONE
                   ? api_fail(err, 400, "bad_message", "a rated game needs a clock")
                   : -1;
    char token[TOKEN_LEN + 1];
    return create_stored(svc, &sg, false, creator_seat, by, token, out, err);
}

/* The follow-up of a finished game: same settings and computer seats, each
 * seat moved on by one, a new seed; `seat` of the old game takes its seat. */
static int create_rematch(game *gm, int seat, const creator *by, char token[TOKEN_LEN + 1],
                          game **out, api_error *err)
{
    const ax_game *g = &gm->g;
    stored_game sg;
    memset(&sg, 0, sizeof sg);
    sg.players = g->players;
    snprintf(sg.variant, sizeof sg.variant, "%s", ax_variant_name(g->variant));
    snprintf(sg.mode, sizeof sg.mode, "%s", ax_mode_name(g->mode));
    clock_text(&gm->clock, sg.clock, sizeof sg.clock);
    memcpy(sg.rematch_of, gm->id, sizeof gm->id);
    sg.rated = gm->rated;
    for (int i = 0; i < g->players; i++) {
        const game_seat *old = &gm->seats[i];
        stored_seat *ss = &sg.seats[(i + 1) % g->players];
        snprintf(ss->kind, sizeof ss->kind, "%s", old->kind == SEAT_AI ? "ai" : "human");
        if (old->kind == SEAT_AI) {
            snprintf(ss->level, sizeof ss->level, "%s", old->level);
            snprintf(ss->name, sizeof ss->name, "%s", old->name);
            ss->account_id = old->account_id;
        }
    }
    snprintf(sg.seats[(seat + 1) % g->players].name, STORE_NAME_MAX + 1, "%s",
             gm->seats[seat].name);
    sg.seats[(seat + 1) % g->players].account_id = gm->seats[seat].account_id;
    if (create_stored(gm->svc, &sg, false, (seat + 1) % g->players, by, token, out, err))
        return -1;
    if (store_set_rematch(gm->svc->db, gm->id, (*out)->id))
        service_log(gm->svc, "game %s: storing its rematch failed: %s", gm->id,
                    store_error(gm->svc->db));
    memcpy(gm->rematch, (*out)->id, sizeof gm->rematch);
    return 0;
}

bool lobby_seat_needs_session(const game *gm, int seat)
{
    const game_seat *s = &gm->seats[seat];
    return gm->rated && s->kind == SEAT_HUMAN && s->account_id > 0;
}

int lobby_rematch(game *gm, int seat, int64_t session_account, const char *ip, game **out,
                  int *new_seat, char token[TOKEN_LEN + 1], api_error *err)
{
    if (gm->status != GAME_OVER)
        return api_fail(err, 409, "not_over", "a rematch follows a finished game");
    if (gm->rated && gm->seats[seat].account_id <= 0)
        return api_fail(err, 401, "unauthorized", "a rated rematch needs the seat's account");
    /* the old seat's token alone does not bind a rated seat to the account */
    if (lobby_seat_needs_session(gm, seat) && session_account != gm->seats[seat].account_id)
        return api_fail(err, 401, "unauthorized",
                        "a rated rematch needs you logged in to the seat's account");
    int target = (seat + 1) % gm->g.players;
    *new_seat = target;
    if (!gm->rematch[0]) {
        creator by = {ip, session_account};
        if (create_rematch(gm, seat, &by, token, out, err))
            return -1;
        play_broadcast_state(gm);
        return 0;
    }
    game *next;
    int held = lobby_hold(gm->svc, gm->rematch, &next, NULL);
    if (held == HOLD_ELSEWHERE) {
        /* its seat is taken here: its holder lets it come */
        owners_ask_release(gm->svc, gm->rematch);
        return api_fail(err, 503, "game_moving", "the rematch is moving; try again in a moment");
    }
    if (held != HOLD_HERE)
        return api_fail(err, 500, "internal", "the rematch cannot be loaded");
    *out = next;
    if (next->status != GAME_WAITING && next->status != GAME_RUNNING && !next->seats[target].taken)
        return closed_game(next, err);
    if (!next->seats[target].taken) {
        if (take_seat(next, target, gm->seats[seat].name, gm->seats[seat].account_id, token, err))
            return -1;
    } else {
        char hash[65];
        if (secret_token(token))
            return api_fail(err, 500, "internal", "no randomness available");
        sha256_hex(token, hash);
        if (store_set_token(gm->svc->db, next->id, target, hash))
            return api_fail(err, 500, "internal", "the seat could not be stored");
        memcpy(next->seats[target].token_hash, hash, sizeof hash);
    }
    play_broadcast_state(gm);
    return 0;
}

int lobby_seat_of_account(const game *gm, int64_t account_id, int wanted)
{
    int first = -1;
    for (int i = 0; i < gm->g.players; i++) {
        const game_seat *s = &gm->seats[i];
        if (account_id <= 0 || s->kind != SEAT_HUMAN || !s->taken || s->account_id != account_id ||
            gm->g.left[i])
            continue;
        if (i == wanted)
            return i;
        if (first < 0)
            first = i;
    }
    return first;
}

int lobby_seat_of_token(const game *gm, const char *token)
{
    if (!is_base64url(token, 64))
        return -1;
    for (int i = 0; i < gm->g.players; i++) {
        const game_seat *s = &gm->seats[i];
        if (s->kind == SEAT_HUMAN && s->taken && token_matches(token, s->token_hash))
            return i;
    }
    return -1;
}
