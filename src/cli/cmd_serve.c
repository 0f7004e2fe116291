/*
 * cmd_serve.c - `axio serve`: options, then the game server (src/server).
 */
#include "../ai/analysis.h"
#include "../server/transport/server.h"
#include "cli.h"
#include "options.h"

#include <arpa/inet.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char usage[] =
    "usage: axio serve [--port N] [--bind ADDR] [--db FILE|URI] [--web DIR] [OPTIONS]\n"
    "\n"
    "Runs the game server: the web client, the HTTP API and WebSocket play of\n"
    "axio-protocol/1 on one port. Every game and decision is kept in a database\n"
    "(SQLite or PostgreSQL); unfinished games resume when the server starts again.\n";

static bool is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* A shipped directory (web, data/wordlist) next to the executable or up to
 * two levels above it (the build directory sits in the source tree), or in
 * ../share/axio/ (installed). */
static bool find_shipped_dir(const char *name, const char *installed, char *out, size_t size)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return false;
    exe[n] = 0;
    const char *dir = dirname(exe);
    static const char *const ups[] = {"", "../", "../../"};
    for (size_t i = 0; i < 4; i++) {
        char path[PATH_MAX + 64];
        if (i < 3)
            snprintf(path, sizeof path, "%s/%s%s", dir, ups[i], name);
        else
            snprintf(path, sizeof path, "%s/../share/axio/%s", dir, installed);
        if (is_dir(path) && realpath(path, out) && strlen(out) < size)
            return true;
    }
    return false;
}

/* A rate per second: a whole number, 1 to 1000000. */
static bool parse_rate(const char *text, void *target)
{
    long v;
    if (!parse_long(text, 1, 1000000, &v))
        return false;
    *(double *)target = (double)v;
    return true;
}

static bool parse_url(const char *text, void *target)
{
    if (strncmp(text, "http://", 7) && strncmp(text, "https://", 8))
        return false;
    *(const char **)target = text;
    return true;
}

/* VAPID's contact (RFC 8292): a mailto: or https: URI. */
static bool parse_contact(const char *text, void *target)
{
    if ((strncmp(text, "mailto:", 7) || !strchr(text, '@')) && strncmp(text, "https://", 8))
        return false;
    for (const char *p = text; *p; p++)
        if ((unsigned char)*p <= ' ' || *p == '"' || *p == '\\')
            return false;
    *(const char **)target = text;
    return true;
}

static bool parse_smtp(const char *text, void *target)
{
    if (strncmp(text, "smtp://", 7) && strncmp(text, "smtps://", 8))
        return false;
    *(const char **)target = text;
    return true;
}

static bool parse_contact_address(const char *text, void *target)
{
    const char *at = strchr(text, '@');
    if (!at || at == text || !at[1] || strchr(at + 1, '@'))
        return false;
    for (const char *p = text; *p; p++)
        if ((unsigned char)*p <= ' ' || strchr("\"<>(),;:\\", *p))
            return false;
    *(const char **)target = text;
    return true;
}

/* An IP address, kept as ip_normalize writes it. */
static bool parse_address(const char *text, void *target)
{
    char norm[48];
    struct in6_addr a6;
    struct in_addr a4;
    if (inet_pton(AF_INET, text, &a4) != 1 && inet_pton(AF_INET6, text, &a6) != 1)
        return false;
    ip_normalize(text, norm, sizeof norm);
    *(const char **)target = strdup(norm);
    return true;
}

static int parse_options(int argc, char **argv, serve_options *o, const char **web, int *sync)
{
    static const char *const syncs[] = {"normal", "full", NULL};
    limits_config *l = &o->limits;
    service_config *g = &o->game;
    const cli_option options[] = {
        {"port", OPT_INT, &o->port, .min = 0, .max = 65535, .arg = "N",
         .help = "TCP port (default 8080; 0: any free port, printed)"},
        {"bind", OPT_STRING, &o->bind, .arg = "ADDR",
         .help = "address to listen on (default 127.0.0.1)"},
        {"db", OPT_STRING, &o->db_path, .arg = "FILE|URI",
         .help = "the database: an SQLite file (FILE or sqlite:FILE), created\n"
                 "if missing (default axio.db), or a PostgreSQL database as a\n"
                 "libpq URI, postgresql://USER@HOST/DB (or postgres://...)"},
        {"web", OPT_STRING, web, .arg = "DIR",
         .help = "the web client's files (default: web/ of the source tree)"},
        {"word-list", OPT_STRING, &g->word_list_dir, .arg = "DIR",
         .help = "the word lists refusing offensive names and reporting chat\n"
                 "lines: each DIR/*.txt, one word a line (default: data/wordlist\n"
                 "of the source tree; docs/moderation.md)"},
        {"max-conns-per-ip", OPT_INT, &l->conns_per_ip, .min = 1, .max = 1000000, .arg = "N",
         .help = "open connections per client address (default 32)"},
        {"max-games-per-ip", OPT_INT, &g->games_per_hour, .min = 1, .max = 100000000, .arg = "N",
         .help = "games one address may create per hour, rematches too\n"
                 "(default 30; counted for the whole site)"},
        {"max-waiting-per-ip", OPT_INT, &g->waiting_per_ip, .min = 1, .max = 1000000, .arg = "N",
         .help = "games of one address waiting for players at once (default 5)"},
        {"max-strong-games-per-ip", OPT_INT, &g->strong_games_per_hour, .min = 1, .max = 100000000,
         .arg = "N",
         .help = "games against strong or expert one address, and one account,\n"
                 "may create per hour (default 10; counted for the whole site)"},
        {"max-hints-per-ip", OPT_INT, &g->hints_per_10_min, .min = 1, .max = 100000000, .arg = "N",
         .help = "hints one address, and one account, may ask for in 10 minutes\n"
                 "(default 60; counted for the whole site)"},
        {"max-bot-requests", OPT_INT, &g->bot_requests_per_10_s, .min = 1, .max = 100000000,
         .arg = "N",
         .help = "Bot API requests one personal token may make in 10 seconds\n"
                 "(default 60; counted for the whole site)"},
        {"max-analyses-per-ip", OPT_INT, &g->analyses_per_hour, .min = 1, .max = 100000000,
         .arg = "N",
         .help = "analyses one address, and one account, may ask for per hour\n"
                 "(default 10; counted for the whole site)"},
        {"msg-rate", OPT_PARSE, &l->msgs_per_sec, .parse = parse_rate,
         .must = "must be 1 to 1000000", .arg = "N",
         .help = "WebSocket messages per second per connection (default 10)"},
        {"request-rate", OPT_PARSE, &l->requests_per_sec, .parse = parse_rate,
         .must = "must be 1 to 1000000", .arg = "N",
         .help = "API requests per second per address (default 20)"},
        {"max-signups-per-ip", OPT_INT, &g->signups_per_hour, .min = 1, .max = 100000000,
         .arg = "N",
         .help = "accounts one address may create per hour (default 5; counted\n"
                 "for the whole site)"},
        {"max-header-waits-per-ip", OPT_INT, &l->headers_per_ip, .min = 1, .max = 1000000,
         .arg = "N",
         .help = "connections of one address still sending their first\n"
                 "headers (default 16; each is closed after 5 s)"},
        {"ai-threads", OPT_INT, &g->ai_threads, .min = 1, .max = 64, .arg = "N",
         .help = "threads for computer players (default 2)"},
        {"judge-playouts", OPT_LONG, &g->judge_playouts, .min = 100, .max = 1000000, .arg = "N",
         .help = "playouts per decision of the judge behind hints and the\n"
                 "post-game analysis, 100 to 1000000 (default 6000)"},
        {"absent-s", OPT_INT, &g->absent_s, .min = 1, .max = 86400 * 30, .unit = "seconds",
         .arg = "N",
         .help = "a player to move without a connection for N seconds may be\n"
                 "declared absent by the others (default 120)"},
        {"waiting-ttl-s", OPT_INT, &g->waiting_ttl_s, .min = 1, .max = 86400 * 365,
         .unit = "seconds", .arg = "N",
         .help = "a waiting game whose creator has had no connection for N\n"
                 "seconds expires (default 3600)"},
        {"public-url", OPT_PARSE, &o->public_url, .parse = parse_url,
         .must = "must start with http:// or https://", .arg = "URL",
         .help = "the address players use (behind a proxy), printed and used\n"
                 "for invitations"},
        {"trusted-proxy", OPT_PARSE, &o->trusted_proxy, .parse = parse_address,
         .must = "must be an IP address", .arg = "ADDR",
         .help = "requests from ADDR are counted for the last address of their\n"
                 "X-Forwarded-For header (a reverse proxy such as nginx)"},
        {"sync", OPT_CHOICE, sync, .choices = syncs, .arg = "normal|full",
         .help = "SQLite: normal (default): a commit survives the server being\n"
                 "killed; full: also a power cut (an fsync per commit, slower).\n"
                 "PostgreSQL flushes every commit (synchronous_commit on)"},
        {"push-contact", OPT_PARSE, &g->push_contact, .parse = parse_contact,
         .must = "must be a mailto: address or an https:// URL", .arg = "URI",
         .help = "how push services reach the site's operator (VAPID's subject,\n"
                 "docs/notifications.md): mailto:ops@example.org"},
        {"push-http", OPT_FLAG, &g->push_http,
         .help = "allow http:// push endpoints (a push service on this machine,\n"
                 "for tests); without it only https://"},
        {"push-delay-s", OPT_INT, &g->push_delay_s, .min = 1, .max = 3600, .unit = "seconds",
         .arg = "N",
         .help = "\"your turn\" is pushed N seconds after the turn began if no tab\n"
                 "of the player watches the game then (default 10)"},
        {"smtp", OPT_PARSE, &g->smtp_url, .parse = parse_smtp,
         .must = "must be an smtp:// or smtps:// URL", .arg = "URL",
         .help = "the mail server of the daily e-mail digest (docs/notifications.md),\n"
                 "smtp://HOST[:PORT] or smtps://USER:PASSWORD@HOST; needs --public-url"},
        {"mail-from", OPT_PARSE, &g->mail_from, .parse = parse_contact_address,
         .must = "must be an e-mail address", .arg = "ADDR",
         .help = "the digest's sender (default axio@ the --public-url's host)"},
        {"quiet", OPT_FLAG, &g->quiet, .help = "log nothing but fatal errors"},
        {0}};
    const cli_command command = {"serve", usage, options,
                                 25,      true,  "Stops cleanly on SIGTERM or SIGINT.\n"};
    return cli_parse(&command, argc, argv, NULL);
}

int cmd_serve(int argc, char **argv)
{
    serve_options opt = {.port = 8080,
                         .bind = "127.0.0.1",
                         .db_path = "axio.db",
                         .limits = {.conns_per_ip = 32,
                                    .msgs_per_sec = 10,
                                    .requests_per_sec = 20,
                                    .headers_per_ip = 16},
                         .game = {.ai_threads = 2,
                                  .judge_playouts = AI_JUDGE_PLAYOUTS,
                                  .absent_s = 120,
                                  .waiting_ttl_s = 3600,
                                  .games_per_hour = 30,
                                  .waiting_per_ip = 5,
                                  .strong_games_per_hour = 10,
                                  .hints_per_10_min = 60,
                                  .bot_requests_per_10_s = 60,
                                  .analyses_per_hour = 10,
                                  .signups_per_hour = 5,
                                  .push_delay_s = 10}};
    static char web[PATH_MAX];
    const char *web_arg = NULL;
    int sync = 0;
    int rc = parse_options(argc, argv, &opt, &web_arg, &sync);
    if (rc != CLI_GO_ON)
        return rc;
    opt.sync_full = sync == 1;
    static char mail_from[320];
    opt.game.public_url = opt.public_url;
    if (opt.game.smtp_url && !opt.public_url)
        return usage_error("serve", "--smtp needs --public-url (the digest's links)");
    if (opt.game.smtp_url && !opt.game.mail_from) {
        const char *host = strstr(opt.public_url, "://") + 3;
        size_t n = strcspn(host, ":/");
        snprintf(mail_from, sizeof mail_from, "axio@%.*s", (int)n, host);
        opt.game.mail_from = mail_from;
    }
    if (!*opt.bind)
        return usage_error("serve", "--bind needs an address");
    if (!*opt.db_path || strcmp(opt.db_path, "sqlite:") == 0)
        return usage_error("serve", "--db needs a file name or a postgresql:// URI");
    if (web_arg) {
        if (!is_dir(web_arg))
            return usage_error("serve", "--web: '%s' is not a directory", web_arg);
        if (!realpath(web_arg, web))
            return usage_error("serve", "--web: cannot resolve '%s'", web_arg);
        opt.web_dir = web;
    } else if (find_shipped_dir("web", "web", web, sizeof web)) {
        opt.web_dir = web;
    } else {
        fprintf(stderr, "axio serve: no web/ directory found (see --web); serving the API only\n");
    }
    static char words[PATH_MAX];
    if (opt.game.word_list_dir) {
        if (!is_dir(opt.game.word_list_dir))
            return usage_error("serve", "--word-list: '%s' is not a directory",
                               opt.game.word_list_dir);
        if (!realpath(opt.game.word_list_dir, words))
            return usage_error("serve", "--word-list: cannot resolve '%s'", opt.game.word_list_dir);
        opt.game.word_list_dir = words;
    } else if (find_shipped_dir("data/wordlist", "wordlist", words, sizeof words)) {
        opt.game.word_list_dir = words;
    } else {
        fprintf(stderr, "axio serve: no data/wordlist directory found (see --word-list); no "
                        "word lists\n");
    }
    return server_run(&opt);
}
