/*
 * cli.h - what the `axio` subcommands share: usage errors and number parsing
 * (their options and --help: options.h).
 *
 * Every subcommand is `int cmd_NAME(int argc, char **argv)` with argv[0] the
 * subcommand's name; it returns the process exit code (0 ok, 1 failure,
 * 2 bad usage or bad input).
 */
#ifndef AX_CLI_H
#define AX_CLI_H

#include <stdbool.h>
#include <stdint.h>

#define EXIT_USAGE 2

/* Prints "axio CMD: message" and returns EXIT_USAGE. */
int usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Parses a whole decimal number in [min, max]. */
bool parse_long(const char *s, long min, long max, long *out);
bool parse_u64(const char *s, uint64_t *out);
/* Parses variant, mode and players options; a missing mode is solo for one
 * player and standard otherwise. */
bool parse_game_options(const char *cmd, const char *variant, const char *mode, long players,
                        int *v, int *m);
double now_seconds(void);

int cmd_selfplay(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_serve(int argc, char **argv);
int cmd_arena(int argc, char **argv);
int cmd_analyse(int argc, char **argv);
int cmd_engine(int argc, char **argv);
int cmd_db(int argc, char **argv);
int cmd_train(int argc, char **argv);
int cmd_bot(int argc, char **argv);
int cmd_token(int argc, char **argv);
int cmd_admin(int argc, char **argv);

#endif
