/*
 * analysis_jobs.c - post-game analysis on request:
 * GET /api/games/{id}/analysis?seat=S.
 *
 * A finished game's decisions for one seat are judged by the judge
 * (src/ai/analysis.c: the `strong` search picks the best, then it and the
 * decision played are measured in pairs for the loss and its uncertainty)
 * on one background worker of their own (worker_pool.h), so that
 * an analysis never holds up a computer player's move for long and several
 * requests cannot take every core. The first request queues the work and is
 * answered 202 with the progress; later ones get the progress until the
 * result is there, then 200 with it. A result is kept in the store with the
 * game (table analyses), so it is computed once, survives restarts, and is
 * the same for everyone who asks. A finished game is public, so the
 * analysis of any seat is too. The judge is the hints' (hint.c): the same
 * playouts and, per seat, the same seed, so a hinted decision is the best
 * one here. A result stored by an earlier judge (no "judge" in it) is
 * judged again when asked for.
 *
 * Computers first: the thread has the lowest priority (it runs only on a
 * core nothing else wants), an address and an account get so many analyses
 * a window (budgets.c), ANALYSIS_QUEUE_MAX requests of others wait at most,
 * ANALYSIS_PER_ADDRESS of one address, and a player's own game (an account
 * bound to one of its seats) goes before them all and is not refused for
 * their sake.
 *
 * The loop thread owns the request list; the worker touches only the job it
 * runs, and the progress counter, an atomic.
 */
#include "analysis_jobs.h"
#include "../../ai/analysis.h"
#include "api.h"
#include "budgets.h"
#include "game.h"
#include "json_state.h"
#include "play.h"
#include "worker_pool.h"

#include <inttypes.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ANALYSIS_QUEUE_MAX   8  /* others' requests waiting or running; more get 503 */
#define ANALYSIS_OWN_MAX     16 /* players' own games' requests */
#define ANALYSIS_PER_ADDRESS 2  /* requests of one address waiting or running */

typedef struct analysis_job {
    char game_id[GAME_ID_LEN + 1];
    int seat;
    ax_game start;
    ax_move *moves;
    int nmoves, total; /* total: decisions of the seat to judge */
    atomic_int judged;
    atomic_bool cancel;
    bool own;          /* asked for by a player of the game: goes first */
    bool running;      /* the worker has it */
    uint64_t by;       /* the asking address (address_lane) */
    json_t *decisions; /* built on the worker */
    bool done, failed;
    char *text; /* the result as stored and served */
    struct analysis_job *next;
} analysis_job;

struct analysis_queue {
    worker_pool *worker; /* one thread, in the background */
    long playouts; /* per decision (serve --judge-playouts): 6000 judges a 2-player game in ~10 s */
    analysis_job *jobs; /* every request in memory, the loop's list */
};

static void on_judgement(const ai_judgement *j, void *ctx)
{
    analysis_job *job = ctx;
    json_t *o = ai_judgement_json(&job->start, j);
    if (o)
        json_array_append_new(job->decisions, o);
    atomic_fetch_add(&job->judged, 1);
}

static void run(void *user, void *arg, int worker)
{
    (void)worker;
    analysis_queue *aq = user;
    analysis_job *job = arg;
    ai_analyser *a = ai_analyser_new();
    ai_judgement *out = malloc(sizeof *out * (size_t)(job->nmoves + 1));
    job->decisions = json_array();
    int n = -1;
    if (a && out && job->decisions) {
        ai_analysis_options opt = {.playouts = aq->playouts,
                                   .seed = analysis_seed(job->start.seed, job->seat),
                                   .cancel = &job->cancel,
                                   .on_judgement = on_judgement,
                                   .ctx = job};
        n = ai_analyse_game(a, &job->start, job->moves, job->nmoves, job->seat, &opt, out,
                            job->nmoves + 1);
    }
    free(out);
    ai_analyser_free(a);
    job->failed = n < 0;
    if (!job->failed) {
        json_t *judge =
            json_pack("{s:I,s:f,s:f}", "playouts", (json_int_t)aq->playouts, "threshold",
                      ai_mistake_threshold(&job->start), "sigmas", AI_MISTAKE_SIGMAS);
        json_t *result =
            json_pack("{s:s,s:i,s:s,s:o,s:O}", "game", job->game_id, "seat", job->seat, "value",
                      job->start.mode == AX_SOLO ? "solo_result" : "win_chance", "judge", judge,
                      "decisions", job->decisions);
        job->text = result ? json_dumps(result, JSON_COMPACT | JSON_REAL_PRECISION(6)) : NULL;
        json_decref(result);
        job->failed = job->text == NULL;
    }
    json_decref(job->decisions);
    job->decisions = NULL;
}

/* The oldest request not made yet (the list is in the order to make them). */
static void *take(void *user, int worker)
{
    (void)worker;
    analysis_queue *aq = user;
    for (analysis_job *j = aq->jobs; j; j = j->next)
        if (!j->done && !j->text && !j->failed) {
            j->running = true;
            return j;
        }
    return NULL;
}

static void finish(void *user, void *arg, int worker)
{
    (void)user, (void)worker;
    analysis_job *job = arg;
    job->done = true;
}

uint64_t analysis_seed(uint64_t game_seed, int seat)
{
    char text[64], hash[65];
    snprintf(text, sizeof text, "axio judge %" PRIu64 " %d", game_seed, seat);
    sha256_hex(text, hash);
    hash[16] = 0;
    return strtoull(hash, NULL, 16);
}

analysis_queue *analysis_start(long playouts, void (*notify)(void *), void *arg)
{
    analysis_queue *aq = calloc(1, sizeof *aq);
    if (!aq)
        return NULL;
    aq->playouts = playouts;
    worker_ops ops = {take, run, finish, notify, arg};
    aq->worker = worker_pool_start(1, true, &ops, aq);
    if (!aq->worker) {
        free(aq);
        return NULL;
    }
    return aq;
}

static void job_free(analysis_job *job)
{
    free(job->moves);
    free(job->text);
    json_decref(job->decisions);
    free(job);
}

void analysis_stop(analysis_queue *aq)
{
    if (!aq)
        return;
    worker_pool_lock(aq->worker);
    for (analysis_job *j = aq->jobs; j; j = j->next)
        atomic_store(&j->cancel, true);
    worker_pool_unlock(aq->worker);
    worker_pool_free(aq->worker);
    while (aq->jobs) {
        analysis_job *next = aq->jobs->next;
        job_free(aq->jobs);
        aq->jobs = next;
    }
    free(aq);
}

int analysis_waiting(analysis_queue *aq)
{
    if (!aq)
        return 0;
    int n = 0;
    worker_pool_lock(aq->worker);
    for (analysis_job *j = aq->jobs; j; j = j->next)
        n += !j->done;
    worker_pool_unlock(aq->worker);
    return n;
}

/* --- on the loop thread --- */

static void store_result(service *svc, analysis_job *job)
{
    store_write *w = calloc(1, sizeof *w);
    if (!w)
        return;
    w->kind = STORE_ANALYSIS;
    snprintf(w->game_id, sizeof w->game_id, "%s", job->game_id);
    w->seat = job->seat;
    w->decision = strdup(job->text);
    if (!w->decision) {
        free(w);
        return;
    }
    store_writer_submit(svc->db, w);
}

void analysis_collect(service *svc)
{
    analysis_queue *aq = svc->analyses;
    if (!aq)
        return;
    analysis_job **p = &aq->jobs;
    worker_pool_lock(aq->worker);
    while (*p) {
        analysis_job *job = *p;
        if (job->done && job->failed) {
            service_log(svc, "game %s: analysing seat %d failed", job->game_id, job->seat);
            *p = job->next;
            job_free(job);
            continue;
        }
        if (job->done && job->text && job->nmoves >= 0) {
            store_result(svc, job);
            job->nmoves = -1; /* stored; served from memory until the write is back */
        }
        p = &job->next;
    }
    worker_pool_unlock(aq->worker);
}

void analysis_written(service *svc, store_write *w)
{
    analysis_queue *aq = svc->analyses;
    if (!aq)
        return;
    worker_pool_lock(aq->worker);
    for (analysis_job **p = &aq->jobs; *p; p = &(*p)->next) {
        analysis_job *job = *p;
        if (job->seat == w->seat && strcmp(job->game_id, w->game_id) == 0 && job->done) {
            if (w->result != 0) {
                service_log(svc, "game %s: storing the analysis of seat %d failed: %s", w->game_id,
                            w->seat, w->error);
                break; /* kept in memory: it is still served while the server runs */
            }
            *p = job->next;
            job_free(job);
            break;
        }
    }
    worker_pool_unlock(aq->worker);
}

/* The game's start and every decision, from the store (as lobby.c loads a
 * game); the seat's decisions to judge counted in *total. */
static int load_decisions(const game *gm, int seat, analysis_job *job, api_error *err)
{
    stored_game sg;
    if (store_load(gm->svc->db, gm->id, &sg) != 0) {
        err->http = 500, err->code = "internal";
        snprintf(err->message, sizeof err->message, "the game cannot be read");
        return -1;
    }
    ax_events ev;
    ax_game g;
    job->nmoves = 0;
    ax_game_init(&job->start, gm->g.variant, gm->g.players, gm->g.mode, gm->g.seed, &ev);
    g = job->start;
    job->moves = malloc(sizeof *job->moves * (size_t)(sg.ndecisions + 1));
    int rc = job->moves ? 0 : -1;
    for (int i = 0; rc == 0 && i < sg.ndecisions; i++) {
        json_t *msg = json_loads(sg.decisions[i], 0, NULL);
        char why[160];
        ax_move *m = &job->moves[job->nmoves];
        /* judged: the seat's own placements and swap answers while it stays */
        bool judged = g.to_move == seat && !g.left[seat];
        rc = msg && !decision_from_json(&g, msg, m, why, sizeof why, NULL) &&
                     ax_apply(&g, m, &ev) == AX_OK
                 ? 0
                 : -1;
        json_decref(msg);
        if (rc == 0) {
            job->total += judged && m->kind != AX_MOVE_LEAVE;
            job->nmoves++;
        }
    }
    stored_game_free(&sg);
    if (rc) {
        err->http = 500, err->code = "internal";
        snprintf(err->message, sizeof err->message, "the game's decisions cannot be replayed");
    }
    return rc;
}

static analysis_job *find_job(analysis_queue *aq, const char *id, int seat)
{
    for (analysis_job *j = aq->jobs; j; j = j->next)
        if (j->seat == seat && strcmp(j->game_id, id) == 0)
            return j;
    return NULL;
}

static int busy(api_error *err, const char *message)
{
    api_fail(err, 503, "busy", message);
    err->retry_after_s = 30;
    return -1;
}

int analysis_request(game *gm, int seat, const creator *by, char **text, json_t **progress,
                     api_error *err)
{
    *text = NULL;
    *progress = NULL;
    if (gm->status != GAME_OVER)
        return api_fail(err, 403, "forbidden", "the analysis is available once the game is over");
    if (seat < 0 || seat >= gm->g.players)
        return api_fail(err, 400, "bad_message", "seat must be one of the game's seats");
    analysis_queue *aq = gm->svc->analyses;
    if (!aq)
        return api_fail(err, 503, "unavailable", "this server does not analyse games");
    worker_pool_lock(aq->worker);
    analysis_job *job = find_job(aq, gm->id, seat);
    int rc = 0;
    if (job && job->text)
        *text = strdup(job->text);
    else if (job)
        *progress = json_pack("{s:s,s:i,s:i}", "status", "working", "judged",
                              atomic_load(&job->judged), "total", job->total);
    worker_pool_unlock(aq->worker);
    if (job)
        return *text || *progress ? 0 : api_fail(err, 500, "internal", "out of memory");
    if ((rc = store_get_analysis(gm->svc->db, gm->id, seat, text)) < 0)
        return api_fail(err, 500, "internal", "the stored analysis cannot be read");
    if (rc == 0 && strstr(*text, "\"judge\":"))
        return 0;
    free(*text); /* none, or an earlier judge's: judged (again) */
    *text = NULL;
    bool own = false;
    for (int i = 0; i < gm->g.players; i++)
        own |= by->account_id > 0 && gm->seats[i].account_id == by->account_id;
    uint64_t address = address_lane(gm->svc, by->ip);
    int queued = 0, mine = 0;
    for (analysis_job *j = aq->jobs; j; j = j->next) {
        queued += !j->done && j->own == own;
        mine += !j->done && j->by == address;
    }
    if (queued >= (own ? ANALYSIS_OWN_MAX : ANALYSIS_QUEUE_MAX))
        return busy(err, "the server is analysing other games; ask again soon");
    if (mine >= ANALYSIS_PER_ADDRESS)
        return busy(err, "your other analyses are being made; ask again when they are done");
    double wait = 0;
    if (!budget_take(gm->svc, BUDGET_ANALYSES_IP, by->ip, 1, &wait) ||
        !budget_take_account(gm->svc, BUDGET_ANALYSES_ACCOUNT, by->account_id, &wait)) {
        api_fail(err, 429, "rate_limited", "too many analyses asked for; ask again later");
        err->reason = "analyses";
        err->retry_after_s = (int)wait + 1;
        return -1;
    }
    job = calloc(1, sizeof *job);
    if (!job)
        return api_fail(err, 500, "internal", "out of memory");
    memcpy(job->game_id, gm->id, sizeof job->game_id);
    job->seat = seat;
    job->own = own;
    job->by = address;
    if (load_decisions(gm, seat, job, err)) {
        job_free(job);
        return -1;
    }
    *progress = json_pack("{s:s,s:i,s:i}", "status", "working", "judged", 0, "total", job->total);
    worker_pool_lock(aq->worker);
    /* first come, first analysed; a player's own game before the others'
     * that wait */
    analysis_job **at = &aq->jobs;
    while (*at && (!own || (*at)->done || (*at)->running || (*at)->own))
        at = &(*at)->next;
    job->next = *at;
    *at = job;
    worker_pool_signal(aq->worker);
    worker_pool_unlock(aq->worker);
    return 0;
}
