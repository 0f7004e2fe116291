/*
 * hint.h - hints (hint.c): the judge's best decision for the seat to move,
 * searched in the background.
 */
#ifndef AX_SERVER_HINT_H
#define AX_SERVER_HINT_H

#include "game.h"

/* {"type":"hint"} from the seat to move: the judge's best, searched on a
 * worker from that seat's view. */
void hint_handle(viewer *c);
/* A hint job is back (on the loop thread): answers its asker if the
 * position is still the one it was asked for; frees the job's judge. */
void hint_finished(game *gm, ai_job *job);
/* A viewer goes: the hint it asked for is not searched further. */
void hint_abandon(viewer *c);
/* Hints waiting for the hint worker, at most (more are refused: busy). */
#define HINT_QUEUE_MAX 16

#endif
