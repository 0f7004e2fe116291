/*
 * cmd_bot.c - `axio bot`: connects an engine speaking axio-engine/1 to a
 * site's Bot API (docs/bot-api.md), as lichess-bot does for lichess. This
 * file reads the options and the token; bot.c runs the bridge.
 *
 * The token comes only from a file, never from the command line or the
 * environment (both are visible to other users of the machine), and a file
 * others may read is refused.
 */
#include "bot.h"
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_GAMES    50 /* the site's limit of a bot's games at once */
#define MAX_ENGINES  64
#define MAX_MOVETIME 3600000
#define MAX_TOKEN    512

static const char *const help =
    "usage: axio bot --url URL --token-file FILE --engine COMMAND [--variants LIST]\n"
    "                [--players LIST] [--clocks LIST] [--rated yes|no|both] [--max-games N]\n"
    "                [--engines N] [--movetime MS]\n"
    "\n"
    "Plays on a site as a bot account (docs/bot-api.md): answers the challenges the account\n"
    "receives, and plays its games with an engine that speaks axio-engine/1\n"
    "(docs/engine-protocol.md), e.g. `axio engine --player strong` or a program of your own.\n"
    "Reconnects after a lost connection or a restart of the site and resumes its games.\n"
    "  --url         the site, e.g. https://axio.example (http:// only for a test site)\n"
    "  --token-file  a file holding the account's API token with the bot:play scope; it must\n"
    "                not be readable by others (chmod 600 FILE)\n"
    "  --engine      the engine's command, run by /bin/sh; it is started again if it dies\n"
    "  --variants    variants to accept, of square,rota,hex (default all)\n"
    "  --players     seats of the games to accept, of 2,3,4 (default all)\n"
    "  --clocks      clocks to accept: none (no clock), daily, MINUTES+SECONDS (base and\n"
    "                increment; each a number, a range A-B or *), e.g. 1-10+0-5,daily\n"
    "                (default none,daily,*+*)\n"
    "  --rated       yes: rated games only; no: casual only; both (default)\n"
    "  --max-games   games at once, at most 50 (default 1); more challenges are declined\n"
    "                `later`\n"
    "  --engines     engine processes at most (default: --max-games)\n"
    "  --movetime    milliseconds per decision without a clock, and at most with one\n"
    "                (default 1000); with a clock the bot shares its time left over the\n"
    "                decisions to come, plus most of the increment\n"
    "A challenge that does not fit is declined with its reason (variant, generic for the\n"
    "seats, rated, casual, timeControl, tooFast, tooSlow, later). An engine that answers\n"
    "garbage or an error, an illegal decision, or too late resigns its game. One line per\n"
    "event goes to stderr. SIGINT or SIGTERM ends the bot (exit 0); its games go on without\n"
    "it and are resumed when it comes back. A refused token ends it with exit 1.\n"
    "Example:\n"
    "  axio bot --url https://axio.example --token-file ~/.axio-token \\\n"
    "           --engine 'axio engine --player strong' --variants hex,square --clocks 3-15+0-10\n";

/* Reads the token: one line of printable ASCII (it goes into a header). */
static bool read_token(const char *path, char *token, size_t size, char *err, size_t errlen)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        snprintf(err, errlen, "cannot read the token file %s: %s", path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return false;
    }
    if (!S_ISREG(st.st_mode) || (st.st_mode & (S_IROTH | S_IWOTH))) {
        snprintf(err, errlen, "the token file %s is %s (chmod 600 %s)", path,
                 S_ISREG(st.st_mode) ? "open to other users" : "not a file", path);
        close(fd);
        return false;
    }
    char buf[MAX_TOKEN + 8];
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n < 0) {
        snprintf(err, errlen, "cannot read the token file %s: %s", path, strerror(errno));
        return false;
    }
    size_t len = (size_t)n;
    while (len && (buf[len - 1] == '\n' || buf[len - 1] == '\r' || buf[len - 1] == ' '))
        len--;
    bool printable = len > 0;
    for (size_t i = 0; i < len; i++)
        printable = printable && buf[i] > 0x20 && buf[i] < 0x7f;
    if (!printable || len >= size) {
        snprintf(err, errlen,
                 "the token file %s must hold the token alone on one line (at most %d "
                 "characters)",
                 path, MAX_TOKEN - 1);
        memset(buf, 0, sizeof buf);
        return false;
    }
    memcpy(token, buf, len);
    token[len] = 0;
    memset(buf, 0, sizeof buf);
    if (st.st_mode & (S_IRGRP | S_IWGRP))
        bot_log("warning: the token file %s is open to its group (chmod 600 %s)", path, path);
    if (strncmp(token, "axio_", 5) != 0)
        bot_log("warning: the token in %s does not start with axio_", path);
    return true;
}

/* The site's URL without a trailing slash: http(s)://, no blanks. */
static bool read_url(const char *text, char *url, size_t size)
{
    bool https = strncmp(text, "https://", 8) == 0;
    if (!https && strncmp(text, "http://", 7) != 0)
        return false;
    size_t len = strlen(text);
    while (len > 8 && text[len - 1] == '/')
        len--;
    if (len >= size || len <= (https ? 8u : 7u))
        return false;
    for (size_t i = 0; i < len; i++)
        if ((unsigned char)text[i] <= 0x20 || text[i] == 0x7f || text[i] == '?' || text[i] == '#')
            return false;
    memcpy(url, text, len);
    url[len] = 0;
    if (!https) {
        const char *host = url + 7;
        bool local = strncmp(host, "localhost", 9) == 0 || strncmp(host, "127.", 4) == 0 ||
                     strncmp(host, "[::1]", 5) == 0;
        if (!local)
            bot_log("warning: %s is not https: the token travels unencrypted", url);
    }
    return true;
}

typedef struct {
    const char *url, *token_file, *engine;
    long max_games, engines, movetime;
    bot_filter filter;
} bot_args;

static int parse_options(int argc, char **argv, bot_args *a)
{
    static const struct option opts[] = {
        {"url", required_argument, 0, 'u'},     {"token-file", required_argument, 0, 't'},
        {"engine", required_argument, 0, 'e'},  {"variants", required_argument, 0, 'v'},
        {"players", required_argument, 0, 'p'}, {"clocks", required_argument, 0, 'c'},
        {"rated", required_argument, 0, 'r'},   {"max-games", required_argument, 0, 'g'},
        {"engines", required_argument, 0, 'n'}, {"movetime", required_argument, 0, 'm'},
        {"help", no_argument, 0, 'h'},          {0, 0, 0, 0}};
    *a = (bot_args){.movetime = 1000, .max_games = 1};
    filter_default(&a->filter);
    char err[300];
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 'u': a->url = optarg; break;
        case 't': a->token_file = optarg; break;
        case 'e': a->engine = optarg; break;
        case 'v':
            if (!filter_variants(&a->filter, optarg, err, sizeof err))
                return usage_error("bot", "--variants: %s", err);
            break;
        case 'p':
            if (!filter_players(&a->filter, optarg, err, sizeof err))
                return usage_error("bot", "--players: %s", err);
            break;
        case 'c':
            if (!filter_clocks(&a->filter, optarg, err, sizeof err))
                return usage_error("bot", "--clocks: %s", err);
            break;
        case 'r':
            if (!filter_rated(&a->filter, optarg, err, sizeof err))
                return usage_error("bot", "--rated: %s", err);
            break;
        case 'g':
            if (!parse_long(optarg, 1, MAX_GAMES, &a->max_games))
                return usage_error("bot", "--max-games must be 1 to %d, not '%s'", MAX_GAMES,
                                   optarg);
            break;
        case 'n':
            if (!parse_long(optarg, 1, MAX_ENGINES, &a->engines))
                return usage_error("bot", "--engines must be 1 to %d, not '%s'", MAX_ENGINES,
                                   optarg);
            break;
        case 'm':
            if (!parse_long(optarg, 10, MAX_MOVETIME, &a->movetime))
                return usage_error("bot", "--movetime must be 10 to %d ms, not '%s'", MAX_MOVETIME,
                                   optarg);
            break;
        case 'h': fputs(help, stdout); return -1;
        default: return usage_error("bot", "unknown or incomplete option '%s'", argv[optind - 1]);
        }
    }
    if (optind < argc)
        return usage_error("bot", "unexpected argument '%s'", argv[optind]);
    if (!a->url || !a->token_file || !a->engine)
        return usage_error("bot", "--url, --token-file and --engine are needed");
    if (!a->engine[0])
        return usage_error("bot", "--engine is empty");
    a->filter.max_games = (int)a->max_games;
    if (!a->engines)
        a->engines = a->max_games;
    return 0;
}

int cmd_bot(int argc, char **argv)
{
    bot_args a;
    int rc = parse_options(argc, argv, &a);
    if (rc)
        return rc < 0 ? 0 : rc;
    char url[1024], token[MAX_TOKEN], err[600];
    if (!read_url(a.url, url, sizeof url))
        return usage_error("bot", "--url must be http:// or https:// and a host, not '%s'", a.url);
    if (!read_token(a.token_file, token, sizeof token, err, sizeof err))
        return usage_error("bot", "%s", err);
    bot_options o = {.url = url,
                     .engine = a.engine,
                     .token = token,
                     .filter = a.filter,
                     .engines = (int)a.engines,
                     .movetime_ms = (int)a.movetime};
    rc = bot_run(&o);
    memset(token, 0, sizeof token);
    return rc;
}
