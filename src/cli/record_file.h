/*
 * record_file.h - reads a record file (docs/record.md) line by line through
 * the engine's replay (record.h), for every command that takes a record.
 */
#ifndef AX_RECORD_FILE_H
#define AX_RECORD_FILE_H

#include "../engine/record.h"

/* Called for each decision the record makes (placements, swap answers and
 * leaves), after its line was checked: the game just before it and the
 * decision. A non-zero return (out of memory) stops the reading with that
 * code. */
typedef int (*record_decision_fn)(const ax_game *before, const ax_move *m, void *ctx);

/* Replays the record at `path` into r and checks it to the end. Returns
 * AX_REPLAY_OK, AX_REPLAY_INCONSISTENT (the rules are broken: err names
 * the line), AX_REPLAY_MALFORMED (no such file, or not a complete record),
 * or what on_decision returned. *lines counts the lines read. on_decision
 * may be NULL. err is "PATH: reason". */
int read_record_file(const char *path, ax_replay *r, record_decision_fn on_decision, void *ctx,
                     int *lines, char *err, size_t errlen);

#endif
