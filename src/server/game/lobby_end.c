/*
 * lobby_end.c - games that end without being played out (see lobby.h):
 * a waiting game whose creator left expires, a game nobody can finish
 * makes its absent players leave, a dormant game of people expires, a
 * player aborts before the game is under way, a creator cancels; and a
 * finished game nobody watches is evicted from memory.
 */
#include "api.h"
#include "lobby.h"
#include "owners.h"
#include "play.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#define EVICT_AFTER 60.0 /* seconds a finished game stays without viewers */

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
            lobby_remove(gm);
            lobby_game_free(gm);
        } else {
            play_maybe_ai(gm);
        }
    }
}

void lobby_abandon_new(game *gm) { set_closed_status(gm, GAME_CANCELLED); }

bool lobby_abortable(const game *gm)
{
    if (gm->in_event)
        return false; /* an event's game is played, or its no-shows lose it */
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
