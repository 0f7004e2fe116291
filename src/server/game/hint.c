/*
 * hint.c - {"type":"hint"}: the engine's advice for the seat to move.
 *
 * A hint is the judge's best decision (src/ai/analysis.c, ai_judge_best),
 * searched on the AI workers from the asking seat's own view (ax_view): it
 * knows no more than the player does. It is the same judge, with the same
 * playouts (serve --judge-playouts) and the same seed (analysis_seed), as
 * the post-game analysis, so a decision taken on a hint is the best one
 * there in the analysis too: the analysis never calls a hint a mistake.
 * The search is a fixed number of playouts, without a clock: the same
 * position always gets the same hint, however busy the server (a guided
 * game followed hint by hint is the same game every time).
 *
 * The answer goes to the connection that asked, as
 * {"type":"hint","move":{...a ready place or swap message}}, and only while
 * the game is still where it was when asked; a seat has at most one hint
 * being searched. Hints exist in casual games only: in a rated game the
 * engine's help would decide the rating.
 *
 * Computers first: hints are searched by a pool of their own, of the
 * lowest priority (ai_workers.h), HINT_QUEUE_MAX waiting at most, one lane
 * per asking address; an address and an account get so many hints a
 * window (budgets.c); a hint whose asker left is dropped, searched or not.
 */
#include "hint.h"
#include "accounts.h"
#include "analysis_jobs.h"
#include "budgets.h"
#include "game.h"
#include "json_state.h"
#include "play.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static viewer *find_viewer(game *gm, uint64_t id)
{
    for (viewer *c = gm->viewers; c; c = c->next)
        if (c->id == id)
            return c;
    return NULL;
}

void hint_handle(viewer *c)
{
    game *gm = c->gm;
    service *svc = gm->svc;
    if (!svc->hints) {
        play_send_error(c, "internal", "this server has no computer players");
        return;
    }
    if (gm->rated) {
        play_send_error(c, "forbidden", "hints are for casual games: this game is rated");
        return;
    }
    if (!play_may_act(c))
        return;
    if (gm->hint_job[c->seat]) {
        play_send_error(c, "rate_limited", "a hint for this seat is being searched already");
        return;
    }
    if (ai_pool_queued(svc->hints) >= HINT_QUEUE_MAX) {
        play_send_error(c, "busy", "the server is busy with other hints; ask again in a moment");
        return;
    }
    stored_account account;
    int64_t account_id = accounts_session_by_hash(svc, c->session_hash, &account) ? account.id : 0;
    double wait = 0;
    if (!budget_take(svc, BUDGET_HINTS_IP, c->ip, 1, &wait) ||
        !budget_take_account(svc, BUDGET_HINTS_ACCOUNT, account_id, &wait)) {
        char message[128];
        snprintf(message, sizeof message, "too many hints asked for; ask again in %d minute%s",
                 (int)(wait + 59) / 60, (int)(wait + 59) / 60 == 1 ? "" : "s");
        play_send_json(c, json_pack("{s:s,s:s,s:s,s:s,s:i}", "type", "error", "code",
                                    "rate_limited", "message", message, "reason", "hints",
                                    "retry_after_s", (int)wait + 1));
        return;
    }
    ai_job *job = calloc(1, sizeof *job);
    ai_analyser *judge = job ? ai_analyser_new() : NULL;
    if (!judge) {
        free(job);
        play_send_error(c, "internal", "out of memory");
        return;
    }
    job->owner = gm;
    job->kind = AI_JOB_HINT;
    job->lane = address_lane(svc, c->ip);
    job->conn_id = c->id;
    job->ply = gm->g.ply;
    job->seat = c->seat;
    job->judge = judge;
    job->playouts = svc->cfg.judge_playouts;
    job->seed = analysis_seed(gm->g.seed, c->seat);
    job->fixed = true;
    ax_view(&gm->g, c->seat, &job->view);
    gm->hint_job[c->seat] = job;
    gm->hints_busy++;
    ai_pool_submit(svc->hints, job);
}

void hint_abandon(viewer *c)
{
    game *gm = c->gm;
    for (int s = 0; gm && s < AX_MAX_PLAYERS; s++)
        if (gm->hint_job[s] && gm->hint_job[s]->conn_id == c->id)
            atomic_store(&gm->hint_job[s]->cancel, true); /* the pool gives it back */
}

void hint_finished(game *gm, ai_job *job)
{
    gm->hints_busy--;
    if (gm->hint_job[job->seat] == job)
        gm->hint_job[job->seat] = NULL;
    viewer *c = find_viewer(gm, job->conn_id);
    if (c && !atomic_load(&job->cancel) && gm->status == GAME_RUNNING && gm->g.ply == job->ply &&
        gm->g.to_move == job->seat && !gm->g.left[job->seat])
        play_send_json(c, json_pack("{s:s,s:o}", "type", "hint", "move",
                                    ax_decision_message(&job->view, &job->move)));
    ai_analyser_free(job->judge);
    job->judge = NULL;
}
