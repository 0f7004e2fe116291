/*
 * hint.c - {"type":"hint"}: the engine's advice for the seat to move.
 *
 * A hint is searched like a computer player's decision, by a fresh `strong`
 * player on the AI workers, from the asking seat's own view (ax_view): it
 * knows no more than the player does. The answer goes to the connection
 * that asked, as {"type":"hint","move":{...a ready place or swap message}},
 * and only while the game is still where it was when asked; a seat has at
 * most one hint being searched. Hints exist in casual games only: in a
 * rated game the engine's help would decide the rating.
 *
 * In a guided first game the advice is reproducible: a fixed number of
 * playouts from a seed of the position, without a clock, so the same
 * position always gets the same hint, however busy the server, and a lesson
 * followed hint by hint is the same game every time.
 */
#include "json_state.h"
#include "server.h"

#include <stdlib.h>
#include <string.h>

#define GUIDED_HINT_PLAYOUTS 6000

static uint64_t guided_hint_seed(const ax_game *g, int seat)
{
    return (uint64_t)(g->ply + 1) * 0x9E3779B97F4A7C15ull + (uint64_t)seat;
}

static conn *find_conn(game *gm, uint64_t id)
{
    for (conn *c = gm->viewers; c; c = c->next)
        if (c->id == id)
            return c;
    return NULL;
}

void hint_handle(conn *c)
{
    game *gm = c->gm;
    if (!srv.ai) {
        play_send_error(c, "internal", "this server has no computer players");
        return;
    }
    if (gm->rated) {
        play_send_error(c, "forbidden", "hints are for casual games: this game is rated");
        return;
    }
    if (!play_may_act(c))
        return;
    if (gm->hint_asked[c->seat]) {
        play_send_error(c, "rate_limited", "a hint for this seat is being searched already");
        return;
    }
    ai_job *job = calloc(1, sizeof *job);
    uint64_t seed = gm->guided ? guided_hint_seed(&gm->g, c->seat) : ax_rng_next(&gm->hint_rng);
    ax_player *p = job ? ax_player_new("strong", seed) : NULL;
    if (!p) {
        free(job);
        play_send_error(c, "internal", "out of memory");
        return;
    }
    job->owner = gm;
    job->kind = AI_JOB_HINT;
    job->conn_id = c->id;
    job->ply = gm->g.ply;
    job->seat = c->seat;
    job->player = p;
    job->movetime_ms = HINT_MOVETIME_MS;
    if (gm->guided) {
        ax_player_set_playouts(p, GUIDED_HINT_PLAYOUTS);
        job->movetime_ms = 0;
        job->fixed = true;
    }
    ax_view(&gm->g, c->seat, &job->view);
    gm->hint_asked[c->seat] = true;
    gm->hints_busy++;
    ai_pool_submit(srv.ai, job);
}

void hint_finished(game *gm, ai_job *job)
{
    gm->hints_busy--;
    gm->hint_asked[job->seat] = false;
    conn *c = find_conn(gm, job->conn_id);
    if (c && gm->status == GAME_RUNNING && gm->g.ply == job->ply && gm->g.to_move == job->seat &&
        !gm->g.left[job->seat])
        play_send_json(c, json_pack("{s:s,s:o}", "type", "hint", "move",
                                    decision_to_json(&job->view, &job->move)));
    ax_player_free(job->player);
    job->player = NULL;
}
