/*
 * play.c - viewers and the flow of a game (see game.h, service.h).
 *
 * A viewer (a connection, held by the transport) watches one game, as a
 * seat (proved by its token) or as a spectator. Its messages, whole and
 * rate-limited by the transport, are parsed and checked in a fixed order:
 * shape (bad_message), who may act (unauthorized, game_over,
 * not_your_turn), then legality, which is the engine's. No error changes
 * the game.
 *
 * Every decision, a human's or a computer's, and every leave (a resign, a
 * claim, a clock run out: rules 6), takes the one path of play_decide():
 * checked and applied to a copy by the engine and handed to the store's
 * writer thread; the game keeps its committed position meanwhile and takes
 * no other decision (a leave asked for meanwhile waits its turn). Once the store reports the write
 * committed (play_collect_writes), the copy becomes the game and is
 * broadcast: each event as each viewer may see it, then one fresh state,
 * each distinct text made once (msg.h) and handed to the transport for
 * every viewer that gets it.
 */
#include "play.h"
#include "../../ai/levels.h"
#include "../../engine/position.h"
#include "../../engine/reason.h"
#include "../../engine/record.h"
#include "../base/msg.h"
#include "accounts.h"
#include "analysis_jobs.h"
#include "api.h"
#include "chat.h"
#include "clock.h"
#include "game.h"
#include "hint.h"
#include "json_state.h"
#include "lobby.h"
#include "moderation.h"
#include "owners.h"
#include "push.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct pending_decision {
    ax_game next; /* the game after the decision */
    ax_events events;
    int seat;
    bool decided;  /* a place or swap (a leave is not) */
    void *request; /* a bot's HTTP request answered once it is stored, or NULL */
} pending_decision;

/* --- sending --- */

static void reply_error(viewer *c, msg *m);

/* Queues m (shared: the transport takes its own reference) for a viewer. */
static void queue_msg(viewer *c, msg *m)
{
    if (m && c->reply)
        reply_error(c, m);
    else if (m && !c->closed)
        c->svc->hooks.send(c->conn, m);
}

/* Queues m and releases it. */
static void send_msg(viewer *c, msg *m)
{
    queue_msg(c, m);
    msg_unref(m);
}

/* Sends a JSON message and releases it. */
static void send_json(viewer *c, json_t *msg_json)
{
    char *text = json_dumps(msg_json, JSON_COMPACT);
    json_decref(msg_json);
    if (text)
        send_msg(c, msg_copy(text, strlen(text)));
    free(text);
}

static void send_error(viewer *c, const char *code, const char *message)
{
    send_json(c, json_pack("{s:s,s:s,s:s}", "type", "error", "code", code, "message", message));
}

/* An error of a decision: an illegal_move also says the engine's reason by
 * its id (players tell "not empty" from "first tile" in their language). */
static void send_decision_error(viewer *c, const char *code, const char *message, ax_error ill)
{
    if (strcmp(code, "illegal_move") != 0) {
        send_error(c, code, message);
        return;
    }
    send_json(c, json_pack("{s:s,s:s,s:s,s:s}", "type", "error", "code", code, "message", message,
                           "reason", ax_error_id(ill)));
}

void play_send_json(viewer *c, json_t *msg_json) { send_json(c, msg_json); }

void play_send_error(viewer *c, const char *code, const char *message)
{
    send_error(c, code, message);
}

void play_broadcast_text(game *gm, const char *text)
{
    msg *m = msg_copy(text, strlen(text));
    for (viewer *c = gm->viewers; c; c = c->next)
        queue_msg(c, m);
    msg_unref(m);
}

/* An error that ends the connection once sent. */
static void send_fatal(viewer *c, const char *code, const char *message)
{
    send_error(c, code, message);
    c->closed = true;
    c->svc->hooks.close(c->conn, CLOSE_POLICY);
}

/* --- broadcasting --- */

/* Whose view a connection gets: its seat's, or a spectator's (a player
 * who left sees what a spectator sees: the computer now plays that seat's
 * tiles, and they are no longer theirs to know). */
static int viewer_of(const viewer *c)
{
    return c->seat >= 0 && !c->gm->g.left[c->seat] ? c->seat : AX_VIEWER_SPECTATOR;
}

static char *dump(json_t *v)
{
    char *text = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
    json_decref(v);
    return text;
}

/* One event to every viewer: its owner's view or everyone else's. */
static void broadcast_event(game *gm, const ax_event *e)
{
    uint64_t seq = ++gm->seq;
    msg *others = NULL, *owner = NULL;
    for (viewer *c = gm->viewers; c; c = c->next) {
        bool own = viewer_of(c) == e->player;
        msg **m = own ? &owner : &others;
        if (!*m) {
            char *text = dump(event_json(gm, e, own ? e->player : AX_VIEWER_SPECTATOR));
            char head[64];
            snprintf(head, sizeof head, "{\"type\":\"event\",\"seq\":%" PRIu64 ",\"event\":", seq);
            *m = text ? msg_join(head, text, "}", NULL) : NULL;
            free(text);
        }
        queue_msg(c, *m);
    }
    msg_unref(others);
    msg_unref(owner);
}

/* The state message for a viewer: `you` per seat and per kind of request
 * (hints, moves), each text made once per broadcast. */
static msg *state_msg(game *gm, uint64_t seq, const char *game_text, viewer *c,
                      msg *made[AX_MAX_PLAYERS + 1][YOU_FLAGS])
{
    int seat = c->seat >= 0 && !gm->g.left[c->seat] ? c->seat : -1;
    unsigned flags = seat >= 0 ? c->flags & (YOU_FLAGS - 1) : 0;
    /* a leaver's `you` says which seat it was and nothing of its tiles */
    int slot = c->seat >= 0 ? c->seat : AX_MAX_PLAYERS;
    msg **m = &made[slot][flags];
    if (!*m) {
        char *you = c->seat >= 0 ? dump(state_you_json(gm, c->seat, flags)) : NULL;
        /* a bot's stream: what its engine is asked with, that seat's only */
        char *position =
            seat >= 0 && (flags & YOU_POSITION) ? dump(ax_position_json(&gm->g, seat)) : NULL;
        char head[64];
        snprintf(head, sizeof head, "{\"type\":\"state\",\"seq\":%" PRIu64 ",\"game\":", seq);
        *m = msg_join(head, game_text, ",\"you\":", you ? you : "null",
                      position ? ",\"position\":" : "", position ? position : "", "}", NULL);
        free(you);
        free(position);
    }
    return *m;
}

static void free_made(msg *made[AX_MAX_PLAYERS + 1][YOU_FLAGS])
{
    for (int s = 0; s <= AX_MAX_PLAYERS; s++)
        for (int f = 0; f < YOU_FLAGS; f++)
            msg_unref(made[s][f]);
}

/* Whether nothing more will happen in a game (a bot's stream ends). */
static bool ended(const game *gm)
{
    return gm->status != GAME_WAITING && gm->status != GAME_RUNNING;
}

void play_broadcast_state(game *gm)
{
    if (!gm->viewers)
        return;
    uint64_t seq = ++gm->seq;
    char *game_text = state_game_text(gm);
    msg *made[AX_MAX_PLAYERS + 1][YOU_FLAGS] = {{0}};
    for (viewer *c = gm->viewers; c && game_text; c = c->next) {
        queue_msg(c, state_msg(gm, seq, game_text, c, made));
        if (c->ends_with_game && ended(gm) && !c->closed) {
            c->closed = true;
            gm->svc->hooks.close(c->conn, 1000);
        }
    }
    free_made(made);
    free(game_text);
}

/* The current state to one connection (its first). */
static void send_state(viewer *c)
{
    game *gm = c->gm;
    char *game_text = state_game_text(gm);
    msg *made[AX_MAX_PLAYERS + 1][YOU_FLAGS] = {{0}};
    if (game_text)
        queue_msg(c, state_msg(gm, gm->seq, game_text, c, made));
    free_made(made);
    free(game_text);
}

/* --- decisions --- */

/* {"reason","ranking","result"} of a game's end, for the lobby's list. */
static void end_summary(const ax_game *g, const ax_events *events, char *out, size_t size)
{
    for (int i = 0; i < events->n; i++) {
        if (events->ev[i].kind != AX_EV_END)
            continue;
        json_t *end = ax_record_event(g, &events->ev[i], AX_VIEWER_ALL);
        json_t *summary =
            json_pack("{s:O,s:O,s:O}", "reason", json_object_get(end, "reason"), "ranking",
                      json_object_get(end, "ranking"), "result", json_object_get(end, "result"));
        json_decref(end);
        char *text = dump(summary);
        if (text && strlen(text) < size)
            memcpy(out, text, strlen(text) + 1);
        free(text);
    }
}

/* The end's places for the store and, in a rated game, the rating's view
 * of it (docs/ratings.md): the engine's final ranking, leavers last. */
static void end_ranking(const game *gm, const ax_game *g, store_write *w)
{
    ax_ranking rank;
    ax_rank(g, &rank);
    for (int k = 0; k < rank.n; k++)
        w->places[rank.order[k]] = rank.place[k] + 1;
    if (!gm->rated)
        return;
    rt_status rs = rt_game_from_ranking(&rank, g->mode, &w->rating_game);
    if (rs != RT_OK) {
        service_log(gm->svc, "game %s cannot be rated: %s", gm->id, rt_status_text(rs));
        return;
    }
    w->rated = true;
    snprintf(w->variant, sizeof w->variant, "%s", ax_variant_name(g->variant));
}

/* A rated game's end is stored with the new ratings: its seats and every
 * other seat of the same players in memory show them. */
static void show_ratings(game *gm, const store_write *w)
{
    for (int seat = 0; seat < gm->g.players && w->rated; seat++) {
        if (!w->seat_rated[seat])
            continue;
        game_seat *s = &gm->seats[seat];
        int after = rt_show(w->after[seat]).rating;
        s->has_change = true;
        s->rating_change = after - rt_show(w->before[seat]).rating;
        lobby_rating_changed(gm->svc, w->seat_account[seat], gm->g.variant, after);
        owners_tell(gm->svc, "rating %lld %d %d", (long long)w->seat_account[seat],
                    (int)gm->g.variant, after);
    }
    if (w->rated)
        moderation_rated_end(gm, w); /* rating abuse files a report */
}

/* The one path of every decision. Returns NULL when the decision is on its
 * way to the store, or an error code with the reason in why (and, for
 * illegal_move, the engine's error in *ill unless ill is NULL); on error the
 * game is unchanged. */
static const char *play_decide(game *gm, int seat, const ax_move *m, char *why, size_t n,
                               ax_error *ill)
{
    if (gm->pending || gm->taking_back) {
        snprintf(why, n, "the previous decision is still being stored");
        return "not_your_turn";
    }
    ax_error err = ax_check(&gm->g, m);
    if (err != AX_OK) {
        snprintf(why, n, "%s", ax_error_string(err));
        if (ill)
            *ill = err;
        return err == AX_ERR_OVER ? "game_over" : "illegal_move";
    }
    pending_decision *p = malloc(sizeof *p);
    store_write *w = calloc(1, sizeof *w);
    char *text = dump(ax_decision_message(&gm->g, m));
    if (!p || !w || !text) {
        free(p);
        free(w);
        free(text);
        snprintf(why, n, "out of memory");
        return "internal";
    }
    p->next = gm->g;
    p->seat = seat;
    p->request = NULL;
    p->decided = m->kind != AX_MOVE_LEAVE;
    ax_apply(&p->next, m, &p->events);
    w->kind = STORE_DECISION;
    w->owner = gm;
    memcpy(w->game_id, gm->id, sizeof gm->id);
    w->ply = gm->g.ply;
    w->seat = seat;
    w->decision = text;
    if (p->next.phase == AX_PHASE_OVER) {
        w->status = lobby_status_name(GAME_OVER);
        end_summary(&p->next, &p->events, w->end_summary, sizeof w->end_summary);
        end_ranking(gm, &p->next, w);
    }
    if (gm->clock.kind != GAME_CLOCK_NONE)
        clock_text_after(gm, &p->next, seat, p->decided, w->clock_left, sizeof w->clock_left);
    gm->pending = p;
    owners_submit(gm, w);
    return NULL;
}

static void send_state(viewer *c);
static void send_history(viewer *c);
static void took_back(service *svc, store_write *w);

/* A decision is durable: it becomes the game's, and everyone hears of it. */
static void announce(game *gm, pending_decision *p)
{
    gm->g = p->next;
    if (gm->g.phase == AX_PHASE_OVER) {
        gm->status = GAME_OVER;
        gm->ended = (int64_t)time(NULL);
        gm->idle_since = service_now(gm->svc);
    }
    for (int i = 0; i < p->events.n; i++)
        if (p->events.ev[i].kind == AX_EV_LEAVE) {
            gm->leave_queued[p->events.ev[i].player] = 0;
            lobby_seat_left(gm, p->events.ev[i].player);
        }
    clock_after_decision(gm, p->seat, p->decided);
    if (lobby_log_events(gm, &p->events))
        service_log(gm->svc, "game %s: out of memory for the event log", gm->id);
    for (int i = 0; i < p->events.n; i++)
        broadcast_event(gm, &p->events.ev[i]);
    play_broadcast_state(gm);
    if (gm->status == GAME_OVER)
        push_game_over(gm);
    else
        push_turn(gm);
}

/* A leave asked for while another decision was being stored. */
static void play_queued_leaves(game *gm)
{
    for (int seat = 0; seat < gm->g.players && !gm->pending; seat++) {
        int why = gm->leave_queued[seat] - 1;
        if (why < 0)
            continue;
        gm->leave_queued[seat] = 0;
        play_leave(gm, seat, why);
    }
}

void play_leave(game *gm, int seat, int why)
{
    if (gm->status != GAME_RUNNING || gm->g.left[seat])
        return;
    if (gm->pending) {
        gm->leave_queued[seat] = (uint8_t)(why + 1);
        return;
    }
    ax_move m;
    memset(&m, 0, sizeof m);
    m.kind = AX_MOVE_LEAVE;
    m.seat = (uint8_t)seat;
    m.why = (uint8_t)why;
    m.wild = AX_NO_COLOR;
    char reason[160];
    const char *err = play_decide(gm, seat, &m, reason, sizeof reason, NULL);
    if (err)
        service_log(gm->svc, "game %s: seat %d cannot leave: %s", gm->id, seat, reason);
}

/* The answer to the bot's request that made the decision: only now, so that
 * a 200 always means stored (a server killed before its commit answers
 * nothing, and the bot sends the decision again). */
static void answer_stored(game *gm, pending_decision *p, const store_write *w)
{
    if (!p->request)
        return;
    service *svc = gm->svc;
    svc->answers_waiting--;
    api_answer out = {0};
    if (w->result == 0)
        api_reply_json(&out, 200, json_pack("{s:b}", "ok", 1));
    else if (w->lease_lost)
        api_reply_error(&out, 503, "game_moving", "the game is moving; try again in a moment");
    else
        api_reply_error(&out, 500, "internal", "the decision could not be stored; try again");
    svc->hooks.answer(p->request, &out);
}

static void finish_write(store_write *w)
{
    game *gm = w->owner;
    pending_decision *p = gm->pending;
    gm->pending = NULL;
    answer_stored(gm, p, w);
    if (w->result == 0) {
        show_ratings(gm, w);
        announce(gm, p);
        play_queued_leaves(gm);
        play_maybe_ai(gm);
    } else {
        /* the game stays where it was; a computer tries again from the
         * housekeeping timer, a person when told */
        service_log(gm->svc, "game %s: storing decision %d failed: %s", gm->id, w->ply, w->error);
        for (viewer *c = gm->viewers; c; c = c->next)
            if (c->seat == p->seat)
                send_error(c, "internal", "the decision could not be stored; try again");
    }
    free(p);
}

void play_collect_writes(service *svc)
{
    store_write *w = svc->db ? store_writer_done(svc->db) : NULL;
    while (w) {
        store_write *next = w->next;
        game *lost = w->lease_lost ? lobby_local(svc, w->game_id) : NULL;
        if (lost)
            owners_lost(lost);
        if (w->kind == STORE_DECISION)
            finish_write(w);
        else if (w->kind == STORE_CHAT)
            chat_written(svc, w);
        else if (w->kind == STORE_ANALYSIS)
            analysis_written(svc, w);
        else if (w->kind == STORE_TAKE_BACK)
            took_back(svc, w);
        else if (w->result != 0 && !w->lease_lost)
            service_log(svc, "game %s: saving the %s failed: %s", w->game_id,
                        w->kind == STORE_ENTRY ? "lobby entry" : "clocks", w->error);
        store_write_free(w);
        w = next;
    }
}

void play_maybe_ai(game *gm)
{
    const ax_game *g = &gm->g;
    if (gm->status != GAME_RUNNING || gm->ai_busy || gm->pending || g->phase == AX_PHASE_OVER ||
        !gm->seats[g->to_move].ai || !gm->svc->ai || owners_leaving(gm))
        return;
    ai_job *job = calloc(1, sizeof *job); /* every field not set below is zero (not `fixed`) */
    if (!job)
        return; /* the housekeeping timer tries again */
    job->owner = gm;
    job->kind = AI_JOB_DECIDE;
    job->lane = gm->lane;
    job->conn_id = 0;
    job->ply = g->ply;
    job->seat = g->to_move;
    job->player = gm->seats[g->to_move].ai;
    const ai_level *level = ai_level_find(gm->seats[g->to_move].level);
    job->movetime_ms = level ? level->think_ms : AX_DEFAULT_MOVETIME_MS;
    ax_view(g, g->to_move, &job->view);
    gm->ai_busy = true;
    ai_pool_submit(gm->svc->ai, job);
}

static void finish_ai_job(ai_job *job)
{
    game *gm = job->owner;
    if (job->kind == AI_JOB_HINT) {
        hint_finished(gm, job);
        return;
    }
    gm->ai_busy = false;
    if (atomic_load(&job->cancel) || gm->status != GAME_RUNNING || gm->g.ply != job->ply ||
        gm->g.to_move != job->seat)
        return; /* the housekeeping timer starts its turn again */
    /* searching levels only (think time > 0): the others ignore their movetime */
    gm->ai_hurried = job->movetime_ms > 0 && job->think_ms < job->movetime_ms;
    char why[160];
    const char *err = play_decide(gm, job->seat, &job->move, why, sizeof why, NULL);
    if (err && strcmp(err, "illegal_move") == 0) {
        /* a bug in a player; the game must go on */
        service_log(gm->svc, "game %s: computer player %s chose an illegal decision (%s)", gm->id,
                    ax_player_name(job->player), why);
        ax_random_move(&job->view, &gm->hint_rng, &job->move);
        play_decide(gm, job->seat, &job->move, why, sizeof why, NULL);
    }
}

void play_collect_ai(service *svc)
{
    ai_pool *pools[] = {svc->ai, svc->hints};
    for (size_t i = 0; i < sizeof pools / sizeof pools[0]; i++) {
        if (!pools[i])
            continue;
        job_queue done = ai_pool_take_done(pools[i]);
        ai_job *job;
        while ((job = ai_pool_next_done(&done))) {
            finish_ai_job(job);
            free(job);
        }
    }
}

/* --- messages --- */

/* The checks every action passes before the engine sees it; sends the
 * error when one fails. */
bool play_may_act(viewer *c)
{
    game *gm = c->gm;
    if (c->seat < 0)
        send_error(c, "unauthorized", "spectators cannot play");
    else if (gm->g.left[c->seat])
        send_error(c, "unauthorized", "you left this game");
    else if (gm->status == GAME_OVER)
        send_error(c, "game_over", "the game is over");
    else if (gm->status == GAME_WAITING)
        send_error(c, "not_your_turn", "the game has not started: seats are still free");
    else if (gm->status != GAME_RUNNING)
        send_error(c, "game_over", "the game was closed before it began");
    else if (gm->g.to_move != c->seat)
        send_error(c, "not_your_turn", "another seat is to move");
    else if (gm->pending)
        send_error(c, "not_your_turn", "the previous decision is still being stored");
    else
        return true;
    return false;
}

static void handle_action(viewer *c, const json_t *msg, bool preview)
{
    game *gm = c->gm;
    ax_move m;
    char why[160] = "";
    ax_error ill = AX_OK;
    const char *code = decision_from_json(&gm->g, msg, &m, why, sizeof why, &ill);
    if (code && strcmp(code, "bad_message") == 0) {
        send_error(c, code, why);
        return;
    }
    if (!play_may_act(c))
        return;
    if (code) { /* illegal_move found while reading it */
        send_decision_error(c, code, why, ill);
        return;
    }
    if (preview) {
        send_json(c, preview_json(&gm->g, &m));
        return;
    }
    code = play_decide(gm, c->seat, &m, why, sizeof why, &ill);
    if (code)
        send_decision_error(c, code, why, ill);
}

/* The checks of resign and claim: a seated player who has not left, in a
 * running game. */
static bool may_leave(viewer *c)
{
    game *gm = c->gm;
    if (c->seat < 0)
        send_error(c, "unauthorized", "spectators have no seat to leave");
    else if (gm->g.left[c->seat])
        send_error(c, "unauthorized", "you left this game already");
    else if (gm->status == GAME_WAITING)
        send_error(c, "not_started", "the game has not started: seats are still free");
    else if (gm->status != GAME_RUNNING)
        send_error(c, "game_over", "the game is over");
    else
        return true;
    return false;
}

static void handle_resign(viewer *c)
{
    if (may_leave(c))
        play_leave(c->gm, c->seat, AX_LEAVE_RESIGN);
}

/* --- taking back a decision (casual games against the computer) --- */

typedef struct {
    int seat, ply;
} last_of;

static int find_last(int ply, int seat, const char *decision, int64_t at, void *arg)
{
    (void)at;
    last_of *l = arg;
    if (seat == l->seat && !strstr(decision, "\"leave\""))
        l->ply = ply;
    return 0;
}

/* {"type":"undo"}: the person's last decision and everything after it (the
 * computers' replies) are taken back. Only in a casual game without a
 * clock whose other seats are all computers: never with people, never
 * rated (docs/online-play.md, "Taking back"). */
static void handle_undo(viewer *c)
{
    game *gm = c->gm;
    if (!may_leave(c))
        return;
    bool computers_only = true;
    for (int i = 0; i < gm->g.players; i++)
        computers_only &= i == c->seat || gm->seats[i].kind == SEAT_AI;
    if (gm->rated || !computers_only || gm->clock.kind != GAME_CLOCK_NONE) {
        send_error(c, "forbidden",
                   "a take-back is for casual games against the computer without a clock");
        return;
    }
    if (gm->pending || gm->taking_back || gm->ai_busy) {
        send_error(c, "not_your_turn", "a decision is being made; take back after it");
        return;
    }
    last_of last = {c->seat, -1};
    if (store_each_decision(gm->svc->db, gm->id, find_last, &last)) {
        send_error(c, "internal", "the game's decisions cannot be read");
        return;
    }
    store_write *w = last.ply >= 0 ? calloc(1, sizeof *w) : NULL;
    if (!w) {
        send_error(c, "bad_message", "there is no decision of yours to take back");
        return;
    }
    w->kind = STORE_TAKE_BACK;
    w->owner = gm;
    memcpy(w->game_id, gm->id, sizeof gm->id);
    w->ply = last.ply;
    gm->taking_back = true;
    owners_submit(gm, w);
}

/* A take-back is stored: the game is what its decisions before it made,
 * and every viewer gets it again as on connecting. */
static void took_back(service *svc, store_write *w)
{
    game *gm = lobby_local(svc, w->game_id);
    if (!gm || !gm->taking_back)
        return;
    gm->taking_back = false;
    if (w->result != 0) {
        service_log(svc, "game %s: a take-back failed: %s", gm->id, w->error);
        return;
    }
    if (lobby_rewind(gm))
        return;
    for (viewer *c = gm->viewers; c; c = c->next) {
        send_state(c);
        send_history(c);
    }
    play_maybe_ai(gm);
}

/* A game with (almost) no play ends without a result (docs/online-play.md,
 * "Aborting"): no person has placed more than one tile. */
static void handle_abort(viewer *c)
{
    game *gm = c->gm;
    api_error err = {0};
    if (!may_leave(c))
        return;
    if (gm->pending)
        send_error(c, "not_your_turn", "a decision is being stored; abort after it");
    else if (!lobby_abortable(gm))
        send_error(c, "forbidden", "a game in play is resigned, not aborted");
    else if (lobby_abort(gm, c->seat, &err))
        send_error(c, err.code, err.message);
}

/* rules 6: the player to move is absent when nobody holds their seat's
 * connection for --absent-s. */
static void handle_claim(viewer *c)
{
    game *gm = c->gm;
    if (!may_leave(c))
        return;
    int seat = gm->g.to_move;
    const game_seat *s = &gm->seats[seat];
    double away = s->conns > 0 ? 0 : service_now(gm->svc) - s->away_since;
    char why[160];
    if (seat == c->seat)
        send_error(c, "bad_message", "you cannot declare yourself absent; resign instead");
    else if (s->kind != SEAT_HUMAN || gm->g.left[seat])
        send_error(c, "not_absent", "the computer plays this seat");
    else if (s->conns > 0)
        send_error(c, "not_absent", "the player to move is connected");
    else if (away < gm->svc->cfg.absent_s) {
        snprintf(why, sizeof why, "the player to move has been away for %d of %d seconds",
                 (int)away, gm->svc->cfg.absent_s);
        send_error(c, "not_absent", why);
    } else
        play_leave(gm, seat, AX_LEAVE_ABSENT);
}

static void handle_rematch(viewer *c)
{
    if (c->seat < 0) {
        send_error(c, "unauthorized", "spectators have no seat for a rematch");
        return;
    }
    game *next;
    int seat;
    char token[TOKEN_LEN + 1];
    api_error err = {0};
    stored_account account;
    /* the session as it is now: it may have ended since the connection opened */
    int64_t session_account =
        accounts_session_by_hash(c->svc, c->session_hash, &account) ? account.id : 0;
    if (lobby_rematch(c->gm, c->seat, session_account, c->ip, &next, &seat, token, &err)) {
        send_error(c, err.code, err.message);
        return;
    }
    send_json(c, json_pack("{s:s,s:s,s:i,s:s}", "type", "rematch", "game", next->id, "seat", seat,
                           "token", token));
}

static void handle_message(viewer *c, const char *text, size_t len)
{
    json_error_t jerr;
    json_t *msg = json_loadb(text, len, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &jerr);
    if (!msg) {
        if (json_error_code(&jerr) == json_error_numeric_overflow)
            send_error(c, "bad_message", "a number is out of range");
        else {
            char text[160];
            ax_json_error_text(&jerr, text, sizeof text);
            send_error(c, "bad_json", text);
        }
        return;
    }
    const char *type = json_string_value(json_object_get(msg, "type"));
    if (!json_is_object(msg) || !type)
        send_error(c, "bad_message", "a message is an object with a string \"type\"");
    else if (strcmp(type, "ping") == 0)
        send_msg(c, msg_printf("{\"type\":\"pong\"}"));
    else if (strcmp(type, "place") == 0 || strcmp(type, "swap") == 0)
        handle_action(c, msg, false);
    else if (strcmp(type, "preview") == 0)
        handle_action(c, msg, true);
    else if (strcmp(type, "resign") == 0)
        handle_resign(c);
    else if (strcmp(type, "abort") == 0)
        handle_abort(c);
    else if (strcmp(type, "undo") == 0)
        handle_undo(c);
    else if (strcmp(type, "claim") == 0)
        handle_claim(c);
    else if (strcmp(type, "chat") == 0)
        chat_handle(c, msg);
    else if (strcmp(type, "rematch") == 0)
        handle_rematch(c);
    else if (strcmp(type, "hint") == 0)
        hint_handle(c);
    else
        send_error(c, "bad_message", "unknown message type");
    json_decref(msg);
}

void play_message(viewer *c, const char *text, size_t len)
{
    if (c->gm && !c->closed)
        handle_message(c, text, len);
}

/* --- a seat's player without a connection (the Bot API, bots.c) --- */

/* The HTTP status of a protocol error, for a bot's request. */
static int status_of(const char *code)
{
    static const struct {
        const char *code;
        int status;
    } statuses[] = {{"bad_message", 400},  {"bad_json", 400},  {"illegal_move", 400},
                    {"unauthorized", 403}, {"forbidden", 403}, {"rate_limited", 429},
                    {"internal", 500},     {"busy", 503},      {"not_found", 404}};
    for (size_t i = 0; i < sizeof statuses / sizeof statuses[0]; i++)
        if (strcmp(code, statuses[i].code) == 0)
            return statuses[i].status;
    return 409; /* not_your_turn, game_over, not_started, not_absent, chat_full, ... */
}

/* What a connection would have been sent, for a bot's request: the first
 * error, into its api_error; anything else is not the request's answer. */
static void reply_error(viewer *c, msg *m)
{
    json_t *v = json_loads(msg_text(m), 0, NULL);
    const char *type = json_string_value(json_object_get(v, "type"));
    const char *code = json_string_value(json_object_get(v, "code"));
    if (type && strcmp(type, "error") == 0 && code && c->reply->http == 0) {
        static const char *const codes[] = {
            "bad_message",  "bad_json",    "illegal_move", "unauthorized", "forbidden",
            "rate_limited", "internal",    "busy",         "not_found",    "not_your_turn",
            "game_over",    "not_started", "not_absent",   "chat_full",    "not_over"};
        const char *known = "internal";
        for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++)
            if (strcmp(code, codes[i]) == 0)
                known = codes[i]; /* a static text: err outlives the message */
        const char *reason = json_string_value(json_object_get(v, "reason"));
        api_fail(c->reply, status_of(known), known,
                 json_string_value(json_object_get(v, "message"))
                     ? json_string_value(json_object_get(v, "message"))
                     : code);
        c->reply->reason = NULL;
        for (int e = AX_OK; reason && e <= AX_ERR_LEFT; e++)
            if (strcmp(reason, ax_error_id((ax_error)e)) == 0)
                c->reply->reason = ax_error_id((ax_error)e); /* static, as err needs */
    }
    json_decref(v);
}

int play_check_act(game *gm, int seat, api_error *err)
{
    viewer c = {.svc = gm->svc, .gm = gm, .seat = seat, .reply = err};
    err->http = 0;
    return play_may_act(&c) ? 0 : -1;
}

int play_act(game *gm, int seat, int64_t account_id, const char *ip, const json_t *message,
             api_error *err)
{
    viewer c = {.svc = gm->svc, .gm = gm, .seat = seat, .account_id = account_id, .reply = err};
    snprintf(c.ip, sizeof c.ip, "%s", ip ? ip : "");
    err->http = 0;
    char *text = json_dumps(message, JSON_COMPACT);
    if (!text)
        return api_fail(err, 500, "internal", "out of memory");
    handle_message(&c, text, strlen(text));
    free(text);
    return err->http ? -1 : 0;
}

bool play_answer_when_stored(game *gm, int seat, void *request)
{
    pending_decision *p = gm->pending;
    if (!p || p->seat != seat || p->request || !request || !gm->svc->hooks.answer)
        return false;
    p->request = request;
    gm->svc->answers_waiting++;
    return true;
}

void play_abandon(service *svc, void *request)
{
    for (game *gm = lobby_first(svc); gm && svc->answers_waiting > 0; gm = gm->next)
        if (gm->pending && gm->pending->request == request) {
            gm->pending->request = NULL;
            svc->answers_waiting--;
        }
}

/* --- connections --- */

static void send_history(viewer *c)
{
    char *events = dump(history_json(c->gm, viewer_of(c)));
    if (events)
        send_msg(c, msg_printf("{\"type\":\"history\",\"seq\":%" PRIu64 ",\"events\":%s}",
                               c->gm->seq, events));
    free(events);
    send_msg(c, chat_history_for(c)); /* shared unless its account blocks someone */
}

/* --- who watches: a small update, never everyone's whole state --- */

/* Viewers updates of one game at most this often: a client that connects
 * and disconnects in a loop costs the others a few small messages a
 * second, whatever its rate. */
#define VIEWERS_INTERVAL_S 0.5

static void send_viewers(game *gm, double now)
{
    json_t *seats = json_array();
    for (int i = 0; i < gm->g.players; i++)
        json_array_append_new(seats, seat_presence_json(gm, i, now));
    char *text =
        dump(json_pack("{s:s,s:I,s:i,s:o}", "type", "viewers", "seq", (json_int_t)++gm->seq,
                       "spectators", gm->nspectators, "seats", seats));
    if (text)
        play_broadcast_text(gm, text);
    free(text);
    gm->viewers_sent = now;
    gm->viewers_dirty = false;
}

static void viewers_changed(game *gm)
{
    double now = service_now(gm->svc);
    if (gm->svc->stopping)
        return;
    if (now - gm->viewers_sent >= VIEWERS_INTERVAL_S)
        send_viewers(gm, now);
    else
        gm->viewers_dirty = true;
}

void play_flush_viewers(service *svc, double now)
{
    for (game *gm = lobby_first(svc); gm; gm = gm->next)
        if (gm->viewers_dirty && now - gm->viewers_sent >= VIEWERS_INTERVAL_S)
            send_viewers(gm, now);
}

/* --- connections --- */

static void attach(viewer *c, game *gm, int seat)
{
    c->gm = gm;
    c->seat = seat;
    c->attached = true;
    c->prev = NULL;
    c->next = gm->viewers;
    if (gm->viewers)
        gm->viewers->prev = c;
    gm->viewers = c;
    gm->nviewers++;
    if (seat >= 0)
        gm->seats[seat].conns++;
    else
        gm->nspectators++;
}

/* The seat a token proves for this connection, or -1 with the error sent
 * (the connection closes after it). A rated seat of a person's account
 * also needs that account's session: a seat token is a secret of the
 * game, the session one of the person. */
static int seat_for_token(viewer *c, const char *token)
{
    game *gm = c->gm;
    int seat = token ? lobby_seat_of_token(gm, token) : -1;
    if (seat < 0) {
        send_fatal(c, "unauthorized", "the token does not belong to a seat of this game");
        return -1;
    }
    stored_account account;
    if (lobby_seat_needs_session(gm, seat) &&
        (!accounts_session_by_hash(c->svc, c->session_hash, &account) ||
         account.id != gm->seats[seat].account_id)) {
        send_fatal(c, "unauthorized", "this rated seat is played logged in to its account");
        return -1;
    }
    return seat;
}

viewer *service_open(service *svc, const viewer_args *a)
{
    viewer *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->id = ++svc->last_viewer_id;
    c->svc = svc;
    c->conn = a->conn;
    c->seat = -1;
    snprintf(c->ip, sizeof c->ip, "%s", a->ip);
    snprintf(c->session_hash, sizeof c->session_hash, "%s", a->session_hash);
    snprintf(c->relayed_by, sizeof c->relayed_by, "%s", a->relayed_by ? a->relayed_by : "");
    game *gm;
    char holder[STORE_INSTANCE_LEN + 1], address[STORE_ADDRESS_MAX + 1];
    int held = lobby_hold(svc, a->game_id, &gm, holder);
    if (held == HOLD_ELSEWHERE && !a->relayed_by && svc->hooks.relay &&
        owners_address(svc, holder, address) == 0) {
        /* its holder serves it: the transport passes the connection on */
        c->closed = true;
        svc->hooks.relay(c->conn, address);
        return c;
    }
    if (held == HOLD_ELSEWHERE) {
        /* on its way to another server (or passed on to one that lost it
         * meanwhile): the client comes back soon */
        play_send_json(c, json_pack("{s:s,s:i}", "type", "moving", "retry_ms", 300));
        c->closed = true;
        svc->hooks.close(c->conn, CLOSE_RETRY);
        return c;
    }
    if (held == HOLD_FAILED) {
        send_fatal(c, "internal", "the game cannot be read now; try again");
        return c;
    }
    stored_game damaged;
    if (!gm && lobby_damaged(svc, a->game_id, &damaged) == 0) {
        stored_game_free(&damaged);
        send_fatal(c, "damaged",
                   "the game is damaged: its stored decisions can no longer be replayed");
        return c;
    }
    if (!gm) {
        send_fatal(c, "not_found", "no such game");
        return c;
    }
    c->gm = gm;
    stored_account account;
    bool signed_in = accounts_session_by_hash(svc, a->session_hash, &account);
    c->account_id = signed_in ? account.id : 0;
    int seat = -1;
    if (a->token || a->token_too_long) {
        seat = seat_for_token(c, a->token);
        if (seat < 0) {
            c->gm = NULL;
            return c;
        }
    } else if (signed_in && !account.bot) {
        /* a signed-in player's seats follow the account, on every device (a
         * bot's are played through the Bot API only) */
        seat = lobby_seat_of_account(gm, account.id, a->seat);
    }
    c->flags = (a->hint ? YOU_HINT : 0) | (a->moves ? YOU_MOVES : 0);
    attach(c, gm, seat);
    moderation_viewer_open(c);
    send_state(c);
    send_history(c);
    moderation_viewer_ready(c);
    viewers_changed(gm);
    return c;
}

viewer *play_open_stream(service *svc, const api_stream *s, const char *ip, void *conn)
{
    viewer *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->id = ++svc->last_viewer_id;
    c->svc = svc;
    c->conn = conn;
    c->seat = -1;
    c->account_id = s->account_id;
    c->ends_with_game = true;
    snprintf(c->ip, sizeof c->ip, "%s", ip);
    game *gm;
    /* the route found it here a moment ago, on this loop */
    int seat = lobby_hold(svc, s->game_id, &gm, NULL) == HOLD_HERE
                   ? lobby_seat_of_account(gm, s->account_id, -1)
                   : -1;
    if (seat < 0) {
        send_fatal(c, "moving", "the game is no longer here; open its stream again");
        return c;
    }
    c->flags = YOU_POSITION;
    attach(c, gm, seat);
    moderation_viewer_open(c);
    send_state(c);
    send_history(c);
    viewers_changed(gm);
    if (ended(gm)) {
        c->closed = true;
        svc->hooks.close(conn, 1000);
    }
    return c;
}

void service_message(service *svc, viewer *c, const char *text, size_t len)
{
    (void)svc;
    play_message(c, text, len);
}

void service_close(service *svc, viewer *c)
{
    (void)svc;
    game *gm = c->gm;
    if (c->attached) {
        hint_abandon(c);
        c->attached = false;
        if (c->prev)
            c->prev->next = c->next;
        else
            gm->viewers = c->next;
        if (c->next)
            c->next->prev = c->prev;
        gm->nviewers--;
        if (c->seat >= 0 && --gm->seats[c->seat].conns == 0)
            gm->seats[c->seat].away_since = service_now(gm->svc);
        else if (c->seat < 0)
            gm->nspectators--;
        if (gm->nviewers == 0)
            gm->idle_since = service_now(gm->svc);
        viewers_changed(gm);
    }
    moderation_viewer_close(c);
    free(c);
}
