/*
 * lobby_create.c - new games and seats taken (see lobby.h): a game created
 * from a request (POST /api/games), a guided first game, a game made for
 * two (a challenge accepted, a seek paired), a rematch; a free seat joined.
 * A new game is stored first and built second (lobby_build), so what is in
 * memory is always what a restart would rebuild; it is charged to its
 * creator's address and account first (budgets.h).
 */
#include "api.h"
#include "budgets.h"
#include "clock.h"
#include "levels.h"
#include "lobby.h"
#include "names.h"
#include "owners.h"
#include "play.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

_Static_assert(NAME_MAX_LEN >= NAME_BYTES_MAX, "a seat holds the longest name");
_Static_assert(NAME_MAX_LEN >= LEVEL_MAX_LEN + 5, "a seat holds a computer's name, \"LEVEL (AI)\"");

/* Guided first games (docs/server.md#guided-first-games): a learner against the
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

bool lobby_stored_guided(const stored_game *sg, int variant, int mode)
{
    return sg->players == 2 && mode == AX_STANDARD && sg->seed == guided_seeds[variant];
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
    hmac_sha256_hex(service_site_key(svc), by->ip, sg->creator_addr);
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
    if (lobby_build(svc, sg, &gm, why, sizeof why) != LOAD_OK) {
        service_log(svc, "a new game cannot be built: %s", why);
        return api_fail(err, 500, "internal", "the game could not be built");
    }
    for (int i = 0; i < gm->g.players; i++)
        if (gm->seats[i].account_id > 0)
            gm->seats[i].rating = account_rating(svc, gm->seats[i].account_id, sg->variant);
    lobby_add(svc, gm);
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
    if (account && account->bot)
        return api_fail(err, 403, "forbidden",
                        "a bot plays through the Bot API: it accepts challenges (docs/bot-api.md)");
    bool guided;
    creator by = {ip, account ? account->id : 0};
    if (read_guided(body, &guided, err))
        return -1;
    if (guided)
        return create_guided(svc, body, account, &by, out, seat_out, token, err);
    stored_game sg;
    memset(&sg, 0, sizeof sg);
    int v = 0, players = 0, m = 0;
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
static int take_seat(game *gm, int seat, const char *name, int64_t account_id, bool bot,
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
    s->bot = bot;
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
    if (account && account->bot)
        return api_fail(err, 403, "forbidden",
                        "a bot plays through the Bot API: it accepts challenges (docs/bot-api.md)");
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
    if (take_seat(gm, seat, name, account ? account->id : 0, account && account->bot, token, err))
        return -1;
    *seat_out = seat;
    return 0;
}

int lobby_create_pair(service *svc, int variant, const game_clock *clock, bool rated,
                      const pair_seat seats[2], const creator *by, game **out, api_error *err)
{
    return lobby_create_table(svc, variant, 2, AX_STANDARD, clock, rated, seats, by, out, err);
}

int lobby_create_table(service *svc, int variant, int players, int mode, const game_clock *clock,
                       bool rated, const pair_seat *seats, const creator *by, game **out,
                       api_error *err)
{
    if (players < 2 || players > AX_MAX_PLAYERS || ax_config_check(variant, players, mode) != AX_OK)
        return api_fail(err, 400, "bad_message", "the variant is not played so");
    stored_game sg;
    memset(&sg, 0, sizeof sg);
    sg.players = players;
    sg.rated = rated;
    snprintf(sg.variant, sizeof sg.variant, "%s", ax_variant_name(variant));
    snprintf(sg.mode, sizeof sg.mode, "%s", ax_mode_name(mode));
    clock_text(clock, sg.clock, sizeof sg.clock);
    int creator_seat = -1;
    for (int i = 0; i < players; i++) {
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
        ss->bot = seats[i].bot;
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
    sg.seats[(seat + 1) % g->players].bot = gm->seats[seat].bot;
    if (create_stored(gm->svc, &sg, false, (seat + 1) % g->players, by, token, out, err))
        return -1;
    if (store_set_rematch(gm->svc->db, gm->id, (*out)->id))
        service_log(gm->svc, "game %s: storing its rematch failed: %s", gm->id,
                    store_error(gm->svc->db));
    memcpy(gm->rematch, (*out)->id, sizeof gm->rematch);
    return 0;
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
        if (take_seat(next, target, gm->seats[seat].name, gm->seats[seat].account_id,
                      gm->seats[seat].bot, token, err))
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
