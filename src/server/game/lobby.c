/*
 * lobby.c - the table of games a server holds in memory (see lobby.h): a
 * hash table on the id, and a list in creation order that the timers walk;
 * a game's seats, tokens and accounts.
 */
#include "lobby.h"
#include "chat.h"
#include "owners.h"
#include "play.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const status_names[] = {"waiting", "running",   "over",
                                           "expired", "cancelled", "aborted"};

const char *lobby_status_name(int status) { return status_names[status]; }

bool lobby_is_open(const game *gm)
{
    return gm->status == GAME_WAITING || gm->status == GAME_RUNNING;
}

game *lobby_first(const service *svc) { return svc->oldest; }

int lobby_status_parse(const char *name)
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

void lobby_add(service *svc, game *gm)
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

void lobby_remove(game *gm)
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

void lobby_game_free(game *gm)
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

game *lobby_local(service *svc, const char *id)
{
    return is_base64url(id, GAME_ID_LEN) ? table_get(svc, id) : NULL;
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
    lobby_remove(gm);
    lobby_game_free(gm);
}

void lobby_free(service *svc)
{
    while (svc->oldest) {
        game *gm = svc->oldest;
        lobby_remove(gm);
        lobby_game_free(gm);
    }
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

bool lobby_seat_needs_session(const game *gm, int seat)
{
    const game_seat *s = &gm->seats[seat];
    return gm->rated && s->kind == SEAT_HUMAN && s->account_id > 0;
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
