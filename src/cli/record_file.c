/*
 * record_file.c - a record file through the engine's replay, line by line.
 *
 * The replay (src/engine/replay.c) checks every line against the rules;
 * this file adds what a file brings (unopenable, overlong lines, NUL bytes,
 * read errors) and tells its caller each decision with the game just
 * before it: a line that advanced ax_game.ply made a decision, and is read
 * again as a move in the game it was made in.
 */
#include "record_file.h"

#include "../engine/decision.h"
#include "../engine/reason.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LINE (1 << 20)

/* The decision of a checked line, in the game it was made in. */
static int decision_of_line(const ax_game *before, const char *text, ax_move *m)
{
    json_t *obj = json_loads(text, JSON_REJECT_DUPLICATES, NULL);
    bool reversed;
    char why[200];
    int code = obj ? ax_decision_from_event(before, obj, m, &reversed, why, sizeof why)
                   : AX_REPLAY_MALFORMED;
    json_decref(obj);
    return code; /* the replay accepted this very line: never an error */
}

static int read_lines(FILE *in, const char *path, ax_replay *r, record_decision_fn on_decision,
                      void *ctx, ax_game *before, char *err, size_t errlen)
{
    char why[512];
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    int code = AX_REPLAY_OK;
    while (code == AX_REPLAY_OK && (len = getline(&line, &cap, in)) >= 0) {
        if (len > MAX_LINE) {
            code = ax_fail(err, errlen, AX_REPLAY_MALFORMED, "%s: line %d: longer than %d bytes",
                           path, r->line + 1, MAX_LINE);
            break;
        }
        if ((size_t)len != strlen(line)) {
            code = ax_fail(err, errlen, AX_REPLAY_MALFORMED, "%s: line %d: contains a NUL byte",
                           path, r->line + 1);
            break;
        }
        if (on_decision)
            *before = r->game;
        code = ax_replay_line(r, line, why, sizeof why);
        if (code != AX_REPLAY_OK) {
            ax_fail(err, errlen, code, "%s: %s", path, why);
            break;
        }
        if (on_decision && r->line > 1 && r->game.ply != before->ply) {
            ax_move m;
            code = decision_of_line(before, line, &m);
            if (code == AX_REPLAY_OK)
                code = on_decision(before, &m, ctx);
            if (code != AX_REPLAY_OK)
                ax_fail(err, errlen, code, "%s: line %d: out of memory", path, r->line);
        }
    }
    if (code == AX_REPLAY_OK && ferror(in))
        code =
            ax_fail(err, errlen, AX_REPLAY_MALFORMED, "%s: read error: %s", path, strerror(errno));
    free(line);
    return code;
}

int read_record_file(const char *path, ax_replay *r, record_decision_fn on_decision, void *ctx,
                     int *lines, char *err, size_t errlen)
{
    ax_replay_init(r);
    *lines = 0;
    FILE *in = fopen(path, "r");
    if (!in)
        return ax_fail(err, errlen, AX_REPLAY_MALFORMED, "%s: %s", path, strerror(errno));
    ax_game *before = on_decision ? malloc(sizeof *before) : NULL;
    int code;
    if (on_decision && !before) {
        code = ax_fail(err, errlen, AX_REPLAY_MALFORMED, "out of memory");
    } else {
        code = read_lines(in, path, r, on_decision, ctx, before, err, errlen);
        if (code == AX_REPLAY_OK) {
            char why[512];
            code = ax_replay_finish(r, why, sizeof why);
            if (code != AX_REPLAY_OK)
                ax_fail(err, errlen, code, "%s: %s", path, why);
        }
    }
    *lines = r->line;
    free(before);
    fclose(in);
    return code;
}
