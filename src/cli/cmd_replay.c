/*
 * cmd_replay.c - `axio replay FILE`: checks a record against the rules.
 *
 * Exit 0: every event is consistent; 1: the record breaks the rules (the
 * first such line is named); 2: no such file, or a record that cannot be
 * read (malformed JSON, missing keys, cut short).
 */
#include "cli.h"
#include "record_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const help =
    "usage: axio replay FILE\n"
    "\n"
    "Replays a game record (axio-record/1) through the rules engine and says whether every\n"
    "event is consistent; otherwise names the first inconsistent line and why.\n"
    "Exit codes: 0 consistent, 1 inconsistent, 2 unreadable or malformed.\n";

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
    ax_replay *r = malloc(sizeof *r);
    if (!r) {
        fprintf(stderr, "axio replay: out of memory\n");
        return 1;
    }
    char err[1024];
    int events;
    int code = read_record_file(path, r, NULL, NULL, &events, err, sizeof err);
    if (code == 0)
        printf("%s: consistent, %d events, %s %dp %s\n", path, events,
               ax_variant_name(r->game.variant), r->game.players, ax_mode_name(r->game.mode));
    else
        fprintf(stderr, "axio replay: %s\n", err);
    free(r);
    return code;
}
