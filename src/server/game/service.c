/*
 * service.c - the game service's life: made over a store, started (its
 * worker threads, the computer levels as players, every unfinished game
 * resumed), driven by the transport's timers and wake-ups, stopped, freed.
 *
 * The worker threads (computer players, password hashing, analyses, the
 * store's writer) each call hooks.wake when they finish something; the
 * transport answers on its loop with service_collect, which takes in
 * everything that is done: committed writes first (so that a computer's
 * turn sees its previous decision), then computer decisions and hints,
 * analyses, password checks.
 */
#include "../../engine/reason.h"
#include "../base/log.h"
#include "accounts.h"
#include "analysis_jobs.h"
#include "bots.h"
#include "clock.h"
#include "events.h"
#include "lobby.h"
#include "owners.h"
#include "people.h"
#include "play.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

service *service_new(const service_config *cfg, const service_hooks *hooks, store *db, char *err,
                     size_t errlen)
{
    service *svc = calloc(1, sizeof *svc);
    if (!svc) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    svc->cfg = *cfg;
    svc->hooks = *hooks;
    svc->db = db;
    svc->owners = owners_new();
    svc->accounts = accounts_new();
    svc->bots = bots_new();
    if (!svc->owners || !svc->accounts || !svc->bots) {
        owners_free(svc->owners);
        free(svc->accounts);
        free(svc->bots);
        free(svc);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    return svc;
}

int service_start(service *svc)
{
    svc->ai = ai_pool_start(svc->cfg.ai_threads, false, svc->hooks.wake, svc->hooks.arg);
    svc->hints = svc->ai ? ai_pool_start(1, true, svc->hooks.wake, svc->hooks.arg) : NULL;
    svc->auth = svc->hints ? auth_start(svc->hooks.wake, svc->hooks.arg) : NULL;
    svc->analyses =
        svc->auth ? analysis_start(svc->cfg.judge_playouts, svc->hooks.wake, svc->hooks.arg) : NULL;
    if (!svc->analyses || store_writer_start(svc->db, svc->hooks.wake, svc->hooks.arg)) {
        fprintf(stderr, "axio serve: cannot start the server's threads%s\n",
                svc->ai && !svc->auth ? " (the password workers: libsodium)" : "");
        return -1;
    }
    owners_start(svc);
    if (owners_shared(svc) && store_listen_start(svc->db, svc->hooks.wake, svc->hooks.arg)) {
        fprintf(stderr, "axio serve: %s\n", store_error(svc->db));
        return -1;
    }
    if (owners_shared(svc))
        service_log(svc, "instance %s, one of the servers of a site", service_instance(svc));
    return accounts_start(svc) || lobby_resume(svc) || owners_adopt_all(svc) ? -1 : 0;
}

/* Threads first: they wake the transport, which goes after this. The
 * store's writer commits what is queued. */
void service_stop(service *svc)
{
    svc->stopping = true;
    ai_pool_stop(svc->ai);
    svc->ai = NULL;
    ai_pool_stop(svc->hints);
    svc->hints = NULL;
    analysis_stop(svc->analyses);
    svc->analyses = NULL;
    if (svc->auth)
        auth_stop_workers(svc->auth);
    if (svc->db)
        store_writer_stop(svc->db);
    if (svc->db)
        owners_stop(svc); /* once */
}

void service_free(service *svc)
{
    if (!svc)
        return;
    service_stop(svc);
    accounts_free(svc); /* every request is gone: their jobs are no one's */
    bots_free(svc);     /* every stream is closed */
    events_free(svc);
    lobby_free(svc);
    owners_free(svc->owners);
    free(svc);
}

json_t *service_queues_json(service *svc)
{
    return json_pack("{s:i,s:i,s:i}", "computers", svc->ai ? ai_pool_busy(svc->ai) : 0, "hints",
                     svc->hints ? ai_pool_busy(svc->hints) : 0, "analyses",
                     analysis_waiting(svc->analyses));
}

void service_collect(service *svc)
{
    play_collect_writes(svc);
    play_collect_ai(svc);
    analysis_collect(svc);
    accounts_collect(svc);
    owners_collect(svc);
}

void *service_stream_open(service *svc, const api_stream *s, const char *ip, void *conn)
{
    return s->kind == STREAM_GAME ? (void *)play_open_stream(svc, s, ip, conn)
                                  : bots_events_open(svc, s, conn);
}

void service_stream_close(service *svc, const api_stream *s, void *stream)
{
    if (s->kind == STREAM_GAME)
        service_close(svc, stream);
    else
        bots_events_close(svc, stream);
}

void service_tick(service *svc, double now)
{
    clock_tick(svc, now);
    bots_tick(svc, now);
    play_flush_viewers(svc, now);
    owners_tick(svc, now);
    events_tick(svc, now);
}

void service_housekeeping(service *svc, double now)
{
    lobby_housekeeping(svc, now);
    accounts_housekeeping(svc, now);
    people_housekeeping(svc);
    events_housekeeping(svc, now);
}

double service_now(const service *svc)
{
    return svc->hooks.now ? svc->hooks.now(svc->hooks.arg) : mono_now();
}

void service_log(const service *svc, const char *fmt, ...)
{
    if (svc->cfg.quiet)
        return;
    va_list ap;
    va_start(ap, fmt);
    log_line(fmt, ap);
    va_end(ap);
}

/* The engine's (ax_json_error_text), for the callers of game.h. */
void json_error_text(const json_error_t *e, char *out, size_t size)
{
    ax_json_error_text(e, out, size);
}
