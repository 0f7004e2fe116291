/*
 * options.c - a subcommand's options read by its table, and its --help
 * written from it (options.h).
 *
 * The table becomes getopt_long's: row i answers 256 + i, past every
 * character getopt_long itself may answer ('?' for an unknown option or a
 * missing value), and --help, which every command has, the row after the
 * last.
 */
#include "options.h"

#include "cli.h"

#include <getopt.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define FIRST_ROW 256

/* The reason a value is refused: "--NAME must be ..., not 'VALUE'". */
static int refuse(const cli_command *cmd, const cli_option *o, const char *value)
{
    char must[160];
    if (o->must) {
        snprintf(must, sizeof must, "%s", o->must);
    } else if (o->kind == OPT_INT || o->kind == OPT_LONG) {
        snprintf(must, sizeof must, "must be %ld to %ld%s%s", o->min, o->max, o->unit ? " " : "",
                 o->unit ? o->unit : "");
    } else if (o->kind == OPT_CHOICE) {
        size_t len = (size_t)snprintf(must, sizeof must, "must be");
        for (int i = 0; o->choices[i] && len < sizeof must; i++)
            len += (size_t)snprintf(must + len, sizeof must - len, "%s%s",
                                    i == 0              ? " "
                                    : o->choices[i + 1] ? ", "
                                                        : " or ",
                                    o->choices[i]);
    } else {
        snprintf(must, sizeof must, "must be a number");
    }
    return usage_error(cmd->name, "--%s %s, not '%s'", o->name, must, value);
}

/* Puts one option's value where it goes: CLI_GO_ON, or EXIT_USAGE. */
static int take(const cli_command *cmd, const cli_option *o, const char *value)
{
    long number;
    switch (o->kind) {
    case OPT_FLAG: *(bool *)o->target = true; break;
    case OPT_INT:
    case OPT_LONG:
        if (!parse_long(value, o->min, o->max, &number))
            return refuse(cmd, o, value);
        if (o->kind == OPT_INT)
            *(int *)o->target = (int)number;
        else
            *(long *)o->target = number;
        break;
    case OPT_U64:
        if (!parse_u64(value, (uint64_t *)o->target))
            return refuse(cmd, o, value);
        break;
    case OPT_STRING: *(const char **)o->target = value; break;
    case OPT_CHOICE: {
        int i = 0;
        while (o->choices[i] && strcmp(o->choices[i], value) != 0)
            i++;
        if (!o->choices[i])
            return refuse(cmd, o, value);
        *(int *)o->target = i;
        break;
    }
    case OPT_PARSE:
        if (!o->parse(value, o->target))
            return refuse(cmd, o, value);
        break;
    }
    if (o->given)
        *o->given = true;
    return CLI_GO_ON;
}

int cli_parse(const cli_command *cmd, int argc, char **argv, int *operands)
{
    int rows = 0;
    while (cmd->options[rows].name)
        rows++;
    struct option *table = calloc((size_t)rows + 2, sizeof *table);
    if (!table) {
        fprintf(stderr, "axio %s: out of memory\n", cmd->name);
        return 1;
    }
    for (int i = 0; i < rows; i++) {
        const cli_option *o = &cmd->options[i];
        table[i] = (struct option){o->name, o->kind == OPT_FLAG ? no_argument : required_argument,
                                   NULL, FIRST_ROW + i};
    }
    table[rows] = (struct option){"help", no_argument, NULL, FIRST_ROW + rows};
    int c, rc = CLI_GO_ON;
    optind = 1;
    opterr = 0;
    while (rc == CLI_GO_ON && (c = getopt_long(argc, argv, "", table, NULL)) != -1) {
        if (c == FIRST_ROW + rows) {
            cli_help(cmd, stdout);
            rc = 0;
        } else if (c >= FIRST_ROW && c < FIRST_ROW + rows) {
            rc = take(cmd, &cmd->options[c - FIRST_ROW], optarg);
        } else {
            rc = usage_error(cmd->name, "unknown or incomplete option '%s'", argv[optind - 1]);
        }
    }
    free(table);
    if (rc != CLI_GO_ON)
        return rc;
    if (!operands && optind < argc)
        return usage_error(cmd->name, "unexpected argument '%s'", argv[optind]);
    if (operands)
        *operands = optind;
    return CLI_GO_ON;
}

/* Writes text with every line after the first indented to `column`. */
static void indented(FILE *out, const char *text, int column)
{
    for (const char *line = text; *line;) {
        size_t len = strcspn(line, "\n");
        if (line != text)
            fprintf(out, "%*s", column, "");
        fprintf(out, "%.*s\n", (int)len, line);
        line += len + (line[len] == '\n');
    }
}

void cli_help(const cli_command *cmd, FILE *out)
{
    fputs(cmd->usage, out);
    for (const cli_option *o = cmd->options; o->name; o++) {
        if (!o->help)
            continue;
        char left[96];
        int len = snprintf(left, sizeof left, "  --%s%s%s", o->name, o->arg ? " " : "",
                           o->arg ? o->arg : "");
        if (len < cmd->column)
            fprintf(out, "%-*s", cmd->column, left);
        else if (cmd->own_line)
            fprintf(out, "%s\n%*s", left, cmd->column, "");
        else
            fprintf(out, "%s  ", left);
        indented(out, o->help, cmd->column);
    }
    if (cmd->footer)
        fputs(cmd->footer, out);
}
