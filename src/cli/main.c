/*
 * main.c - the `axio` command: dispatches to one subcommand per file.
 */
#include "cli.h"

#include <stdio.h>
#include <string.h>

static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} commands[] = {
    {"selfplay", cmd_selfplay, "play games between computer players and write their records"},
    {"replay", cmd_replay, "check a game record against the rules"},
    {"bench", cmd_bench, "measure the engine's speed"},
    {"serve", cmd_serve, "run the game server (web client, HTTP API, WebSocket play)"},
    {"arena", cmd_arena, "measure computer players against each other in duplicate games"},
    {"analyse", cmd_analyse, "judge each decision of one seat in a game record"},
    {"engine", cmd_engine, "answer for a computer player over the engine protocol (stdin/stdout)"},
    {"db", cmd_db, "copy a server's database to another (SQLite, PostgreSQL)"},
    {"train", cmd_train, "make the learned evaluation's weights by self-play from a seed"},
    {"bot", cmd_bot, "play on a site as a bot account with an engine (the Bot API)"},
    {"token", cmd_token, "make, list or revoke an account's API tokens on a site"},
    {"admin", cmd_admin, "grant or revoke a site's roles (moderator) in its database"},
};

static void print_help(FILE *out)
{
    fprintf(out, "usage: axio COMMAND [OPTIONS]\n\nAXIO, AXIO ROTA and AXIO Hex: the rules "
                 "engine, computer players and tools.\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(out, "\n'axio COMMAND --help' describes each command.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "axio: no command given (see axio --help)\n");
        return EXIT_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        print_help(stdout);
        return 0;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(argv[1], commands[i].name) == 0)
            return commands[i].run(argc - 1, argv + 1);
    fprintf(stderr, "axio: unknown command '%s' (see axio --help)\n", argv[1]);
    return EXIT_USAGE;
}
