/*
 * cmd_replay.c - `axio replay FILE`: checks a record against the rules.
 *
 * Exit 0: every event is consistent; 1: the record breaks the rules (the
 * first such line is named); 2: no such file, or a record that cannot be
 * read (malformed JSON, missing keys, cut short).
 */
#include "../engine/record.h"
#include "cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const help =
    "usage: axio replay FILE\n"
    "\n"
    "Replays a game record (axio-record/1) through the rules engine and says whether every\n"
    "event is consistent; otherwise names the first inconsistent line and why.\n"
    "Exit codes: 0 consistent, 1 inconsistent, 2 unreadable or malformed.\n";

#define MAX_LINE (1 << 20)

int cmd_replay(int argc, char **argv)
{
    if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        fputs(help, stdout);
        return 0;
    }
    if (argc != 2)
        return usage_error("replay", "takes exactly one record file");
    if (argv[1][0] == '-' && argv[1][1])
        return usage_error("replay", "unknown option '%s'", argv[1]);
    const char *path = argv[1];
    FILE *in = fopen(path, "r");
    if (!in) {
        fprintf(stderr, "axio replay: %s: %s\n", path, strerror(errno));
        return EXIT_USAGE;
    }
    ax_replay *r = malloc(sizeof *r);
    if (!r) {
        fclose(in);
        fprintf(stderr, "axio replay: out of memory\n");
        return 1;
    }
    ax_replay_init(r);
    char err[512];
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    int code = 0, events = 0;
    while (code == 0 && (len = getline(&line, &cap, in)) >= 0) {
        if (len > MAX_LINE) {
            snprintf(err, sizeof err, "line %d: longer than %d bytes", r->line + 1, MAX_LINE);
            code = AX_REPLAY_MALFORMED;
            break;
        }
        if ((size_t)len != strlen(line)) {
            snprintf(err, sizeof err, "line %d: contains a NUL byte", r->line + 1);
            code = AX_REPLAY_MALFORMED;
            break;
        }
        code = ax_replay_line(r, line, err, sizeof err);
        events++;
    }
    if (code == 0 && ferror(in)) {
        snprintf(err, sizeof err, "read error: %s", strerror(errno));
        code = AX_REPLAY_MALFORMED;
    }
    if (code == 0)
        code = ax_replay_finish(r, err, sizeof err);
    free(line);
    fclose(in);
    if (code == 0)
        printf("%s: consistent, %d events, %s %dp %s\n", path, events,
               ax_variant_name(r->game.variant), r->game.players, ax_mode_name(r->game.mode));
    else
        fprintf(stderr, "axio replay: %s: %s\n", path, err);
    free(r);
    return code;
}
