/*
 * options.h - a subcommand's options as a table: one row per option (its
 * name, the kind of value, where the value goes, its range, its lines in
 * --help), from which cli_parse reads the command line and cli_help writes
 * the help.
 *
 * cli_parse is getopt_long over the table, so every command reads its
 * options the same way: `--name VALUE` or `--name=VALUE`, a unique prefix
 * of a name for the name, options and operands in any order, `--` ending the
 * options, --help anywhere. A bad option or value ends the command with one
 * line on stderr ("axio CMD: --players must be 1 to 4, not '5' (see axio
 * CMD --help)") and the exit code EXIT_USAGE; what the options mean together
 * (required ones, a variant with its number of players) is the command's to
 * check afterwards.
 */
#ifndef AX_CLI_OPTIONS_H
#define AX_CLI_OPTIONS_H

#include <stdbool.h>
#include <stdio.h>

typedef enum {
    OPT_FLAG,   /* --name: true into a bool */
    OPT_INT,    /* --name N: a whole number from min to max into an int */
    OPT_LONG,   /* ... into a long */
    OPT_U64,    /* --name N: any whole number from 0 into a uint64_t (a seed) */
    OPT_STRING, /* --name TEXT: the text into a const char * */
    OPT_CHOICE, /* --name WORD: one of `choices`, its index into an int */
    OPT_PARSE,  /* --name TEXT: parse(TEXT, target) says whether it is good */
} opt_kind;

typedef struct {
    const char *name; /* without its "--" */
    opt_kind kind;
    void *target;
    long min, max;              /* OPT_INT, OPT_LONG */
    const char *unit;           /* said after the range when a value is refused: "ms" */
    const char *const *choices; /* OPT_CHOICE, ended by NULL */
    bool (*parse)(const char *text, void *target); /* OPT_PARSE */
    const char *must; /* what a value must be, instead of the range ("must be an IP address") */
    bool *given;      /* set when the option is given (may be NULL) */
    const char *arg;  /* the value's name in --help: "N", "FILE|URI" (NULL: none shown) */
    const char *help; /* its text in --help, lines after the first indented (NULL: not listed) */
} cli_option;

typedef struct {
    const char *name;          /* the subcommand, as reasons name it */
    const char *usage;         /* the help before the options */
    const cli_option *options; /* ended by a row whose name is NULL */
    int column;                /* where an option's help text starts */
    bool own_line;             /* a name too long for the column stands on a line of its own
                                * (else its text follows two spaces after it) */
    const char *footer;        /* the help after the options (may be NULL) */
} cli_command;

/* cli_parse's "the options are good: go on". */
#define CLI_GO_ON (-1)

/* Reads argv[1..] by the table. Returns CLI_GO_ON with *operands the index
 * of the first operand (getopt_long moves them to the end; operands NULL:
 * the command takes none, and one is a usage error); 0 after printing the
 * help for --help; EXIT_USAGE after printing why the options are bad. */
int cli_parse(const cli_command *cmd, int argc, char **argv, int *operands);
/* Writes the command's --help. */
void cli_help(const cli_command *cmd, FILE *out);

#endif
