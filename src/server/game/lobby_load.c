/*
 * lobby_load.c - a game built from its stored form (see lobby.h): dealt
 * from its seed, then its stored decisions replayed through the engine, its
 * seats and clock as stored. A game that no longer replays (rules changed,
 * a write half-done by hand) is set aside as damaged, said on stderr, and
 * never loaded again; its players see it described, not played.
 */
#include "../../engine/record.h"
#include "budgets.h"
#include "chat.h"
#include "clock.h"
#include "json_state.h"
#include "levels.h"
#include "lobby.h"
#include "owners.h"
#include "play.h"
#include "push.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A seat's account and ratings as stored. */
void lobby_seat_account_from_stored(game_seat *s, const stored_seat *ss)
{
    rt_params p = rt_default_params();
    s->account_id = ss->account_id;
    s->bot = ss->bot;
    s->rating = rt_show(ss->has_rating ? ss->rating : rt_initial(&p)).rating;
    s->has_change = ss->rated;
    s->rating_change = ss->rated ? rt_show(ss->after).rating - rt_show(ss->before).rating : 0;
}

static int seats_from_stored(game *gm, const stored_game *sg, char *err, size_t n)
{
    for (int i = 0; i < sg->players; i++) {
        const stored_seat *ss = &sg->seats[i];
        game_seat *s = &gm->seats[i];
        lobby_seat_account_from_stored(s, ss);
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
int lobby_build(service *svc, const stored_game *sg, game **out, char *err, size_t n)
{
    *out = NULL;
    if (strcmp(sg->rules, AX_RULES_VERSION) != 0) {
        snprintf(err, n, "played under rules '%s'; this server plays %s", sg->rules,
                 AX_RULES_VERSION);
        return LOAD_DAMAGED;
    }
    int v = ax_variant_parse(sg->variant), m = ax_mode_parse(sg->mode);
    int status = lobby_status_parse(sg->status);
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
    gm->guided = lobby_stored_guided(sg, v, m);
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
        lobby_game_free(gm);
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
    bool marked = rc != 1 && rc != -1 && strcmp(sg.status, GAME_DAMAGED_STATUS) == 0;
    if (rc == 1)
        return LOAD_MISSING;
    if (rc != 0 && !marked) {
        snprintf(err, n, "%s", store_error(svc->db));
        return rc == 2 ? LOAD_DAMAGED : LOAD_FAILED;
    }
    rc = marked ? LOAD_SET_ASIDE : lobby_build(svc, &sg, out, err, n);
    if (*out) {
        (*out)->in_event = store_event_of_game(svc->db, id, (*out)->event_id) == 0;
        if (!(*out)->in_event)
            (*out)->event_id[0] = 0;
        chat_load(*out, &sg);
        lobby_add(svc, *out);
        /* a game's first turn began when it started: its creation, or later */
        push_turn_resumed(*out, sg.ndecisions ? sg.last_decision_at : sg.created);
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

int lobby_hold(service *svc, const char *id, game **out, char holder[STORE_INSTANCE_LEN + 1])
{
    *out = NULL;
    if (holder)
        holder[0] = 0;
    if (!is_base64url(id, GAME_ID_LEN))
        return HOLD_MISSING;
    game *gm = lobby_local(svc, id);
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

int lobby_damaged(service *svc, const char *id, stored_game *out)
{
    if (!is_base64url(id, GAME_ID_LEN) || lobby_local(svc, id))
        return -1;
    if (store_load_summary(svc->db, id, out) != 0)
        return -1;
    if (strcmp(out->status, GAME_DAMAGED_STATUS) == 0)
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
    if (lobby_local(count->svc, id))
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
    if (owners_shared(svc))
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
