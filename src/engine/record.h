/*
 * record.h - the game record of docs/record.md, as jansson JSON.
 *
 * record.c turns the engine's events into record lines, whole or as one
 * viewer may see them; replay.c reads a record back through the engine and
 * checks every line. A decision line as a move: decision.h.
 */
#ifndef AX_RECORD_H
#define AX_RECORD_H

#include "axio.h"

#include <jansson.h>

#define AX_VIEWER_ALL       (-2) /* the complete record */
#define AX_VIEWER_SPECTATOR (-1)

/* The `start` line. names: one per seat (NULL: "Seat N"). `seed` is left
 * out for viewers other than AX_VIEWER_ALL. */
json_t *ax_record_start(const ax_game *g, const char *const *names, int viewer);
/* One event as `viewer` may see it. `end` reads the final scores from g. */
json_t *ax_record_event(const ax_game *g, const ax_event *e, int viewer);
/* A tile as JSON: ["red","blue"] or four corners with null. */
json_t *ax_tile_json(const ax_game *g, ax_tile t);
/* A cell as JSON [a, b] from a grid index. */
json_t *ax_cell_json(const ax_game *g, int cell);
/* A score map {"red": n, ...}. */
json_t *ax_score_json(const ax_game *g, const uint8_t *score);
/* The readers of those forms, for records and positions alike: a pair of
 * integers in [-1000, 1000], and a tile's colours as written (null: an empty
 * ROTA corner), not yet checked against the tile set. False when malformed. */
bool ax_pair_from_json(json_t *a, int *x, int *y);
bool ax_tile_from_json(const ax_game *g, json_t *a, ax_tile *t);

/* Replay: feed the record line by line. */
typedef struct {
    ax_game game;
    int line;     /* lines read so far */
    bool started; /* the start line was read */
    bool ended;   /* the end line was read */
    ax_events pending;
    int next;      /* index of the next pending event to compare */
    bool reversed; /* the last place put the rack tile the other way round */
} ax_replay;

/* What every reader of records, positions and decisions returns; STOPPED
 * only ax_replay_decisions (decision.h), when its caller stopped it. */
enum {
    AX_REPLAY_OK = 0,
    AX_REPLAY_INCONSISTENT = 1,
    AX_REPLAY_MALFORMED = 2,
    AX_REPLAY_STOPPED = 3
};

void ax_replay_init(ax_replay *r);
/* Checks one line; returns AX_REPLAY_* and writes the reason to err. */
int ax_replay_line(ax_replay *r, const char *text, char *err, size_t errlen);
/* Checks that the record is complete. */
int ax_replay_finish(ax_replay *r, char *err, size_t errlen);

#endif
