/*
 * analysis_jobs.h - post-game analysis on request (analysis_jobs.c).
 */
#ifndef AX_SERVER_ANALYSIS_JOBS_H
#define AX_SERVER_ANALYSIS_JOBS_H

#include "game.h"

typedef struct analysis_queue analysis_queue;

/* Starts the analysing thread, judging with `playouts` per decision;
 * notify(arg) after each finished analysis. NULL on failure. */
analysis_queue *analysis_start(long playouts, void (*notify)(void *), void *arg);
/* The judge's seed for a seat of a game: the same for its hints and its
 * analysis, so that a hinted decision is the judge's best there too; made
 * from the game's secret seed through SHA-256, so hints reveal nothing of it. */
uint64_t analysis_seed(uint64_t game_seed, int seat);
/* Cancels what runs and frees every request (and the queue). */
void analysis_stop(analysis_queue *aq);
/* Analyses waiting or being made. */
int analysis_waiting(analysis_queue *aq);
/* GET /api/games/{id}/analysis?seat=S asked by `by`: 0 with *text (the
 * result, malloc'd: 200) or *progress ({"status":"working","judged",
 * "total"}: 202), or -1 with err. */
int analysis_request(game *gm, int seat, const creator *by, char **text, json_t **progress,
                     api_error *err);
/* Stores finished analyses (on the loop thread). */
void analysis_collect(service *svc);
/* A stored analysis came back from the writer. */
void analysis_written(service *svc, store_write *w);

#endif
