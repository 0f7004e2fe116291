/*
 * cmd_serve.c - `axio serve`: options, then the game server (src/server).
 */
#include "../ai/analysis.h"
#include "../server/transport/server.h"
#include "cli.h"

#include <arpa/inet.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const help =
    "usage: axio serve [--port N] [--bind ADDR] [--db FILE|URI] [--web DIR] [OPTIONS]\n"
    "\n"
    "Runs the game server: the web client, the HTTP API and WebSocket play of\n"
    "axio-protocol/1 on one port. Every game and decision is kept in a database\n"
    "(SQLite or PostgreSQL); unfinished games resume when the server starts again.\n"
    "  --port N               TCP port (default 8080; 0: any free port, printed)\n"
    "  --bind ADDR            address to listen on (default 127.0.0.1)\n"
    "  --db FILE|URI          the database: an SQLite file (FILE or sqlite:FILE), created\n"
    "                         if missing (default axio.db), or a PostgreSQL database as a\n"
    "                         libpq URI, postgresql://USER@HOST/DB (or postgres://...)\n"
    "  --web DIR              the web client's files (default: web/ of the source tree)\n"
    "  --max-conns-per-ip N   open connections per client address (default 32)\n"
    "  --max-games-per-ip N   games one address may create per hour, rematches too\n"
    "                         (default 30; counted for the whole site)\n"
    "  --max-waiting-per-ip N games of one address waiting for players at once (default 5)\n"
    "  --max-strong-games-per-ip N\n"
    "                         games against strong or expert one address, and one account,\n"
    "                         may create per hour (default 10; counted for the whole site)\n"
    "  --max-hints-per-ip N   hints one address, and one account, may ask for in 10 minutes\n"
    "                         (default 60; counted for the whole site)\n"
    "  --max-analyses-per-ip N\n"
    "                         analyses one address, and one account, may ask for per hour\n"
    "                         (default 10; counted for the whole site)\n"
    "  --msg-rate N           WebSocket messages per second per connection (default 10)\n"
    "  --request-rate N       API requests per second per address (default 20)\n"
    "  --max-signups-per-ip N accounts one address may create per hour (default 5; counted\n"
    "                         for the whole site)\n"
    "  --max-header-waits-per-ip N\n"
    "                         connections of one address still sending their first\n"
    "                         headers (default 16; each is closed after 5 s)\n"
    "  --ai-threads N         threads for computer players (default 2)\n"
    "  --judge-playouts N     playouts per decision of the judge behind hints and the\n"
    "                         post-game analysis, 100 to 1000000 (default 6000)\n"
    "  --absent-s N           a player to move without a connection for N seconds may be\n"
    "                         declared absent by the others (default 120)\n"
    "  --waiting-ttl-s N      a waiting game whose creator has had no connection for N\n"
    "                         seconds expires (default 3600)\n"
    "  --public-url URL       the address players use (behind a proxy), printed and used\n"
    "                         for invitations\n"
    "  --trusted-proxy ADDR   requests from ADDR are counted for the last address of their\n"
    "                         X-Forwarded-For header (a reverse proxy such as nginx)\n"
    "  --sync normal|full     SQLite: normal (default): a commit survives the server being\n"
    "                         killed; full: also a power cut (an fsync per commit, slower).\n"
    "                         PostgreSQL flushes every commit (synchronous_commit on)\n"
    "  --quiet                log nothing but fatal errors\n"
    "Stops cleanly on SIGTERM or SIGINT.\n";

static bool is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* web/ next to the executable or up to two levels above it (the build
 * directory sits in the source tree). */
static bool find_web_dir(char *out, size_t size)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return false;
    exe[n] = 0;
    const char *dir = dirname(exe);
    static const char *const candidates[] = {"web", "../web", "../../web", "../share/axio/web"};
    for (size_t i = 0; i < sizeof candidates / sizeof candidates[0]; i++) {
        char path[PATH_MAX + 32];
        snprintf(path, sizeof path, "%s/%s", dir, candidates[i]);
        if (is_dir(path) && realpath(path, out) && strlen(out) < size)
            return true;
    }
    return false;
}

static bool parse_positive(const char *s, long max, long *out)
{
    return parse_long(s, 1, max, out);
}

int cmd_serve(int argc, char **argv)
{
    static const struct option opts[] = {{"port", required_argument, 0, 'p'},
                                         {"bind", required_argument, 0, 'b'},
                                         {"db", required_argument, 0, 'd'},
                                         {"web", required_argument, 0, 'w'},
                                         {"max-conns-per-ip", required_argument, 0, 'c'},
                                         {"max-games-per-ip", required_argument, 0, 'g'},
                                         {"msg-rate", required_argument, 0, 'm'},
                                         {"request-rate", required_argument, 0, 'r'},
                                         {"max-signups-per-ip", required_argument, 0, 'S'},
                                         {"max-waiting-per-ip", required_argument, 0, 'V'},
                                         {"max-strong-games-per-ip", required_argument, 0, 'X'},
                                         {"max-hints-per-ip", required_argument, 0, 'Y'},
                                         {"max-analyses-per-ip", required_argument, 0, 'Z'},
                                         {"max-header-waits-per-ip", required_argument, 0, 'H'},
                                         {"ai-threads", required_argument, 0, 't'},
                                         {"judge-playouts", required_argument, 0, 'M'},
                                         {"sync", required_argument, 0, 's'},
                                         {"absent-s", required_argument, 0, 'A'},
                                         {"waiting-ttl-s", required_argument, 0, 'W'},
                                         {"public-url", required_argument, 0, 'U'},
                                         {"trusted-proxy", required_argument, 0, 'P'},
                                         {"quiet", no_argument, 0, 'q'},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
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
                                  .analyses_per_hour = 10,
                                  .signups_per_hour = 5},
                         .sync_full = false};
    static char web[PATH_MAX];
    const char *web_arg = NULL;
    long v;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 'p':
            if (!parse_long(optarg, 0, 65535, &v))
                return usage_error("serve", "--port must be 0 to 65535, not '%s'", optarg);
            opt.port = (int)v;
            break;
        case 'b': opt.bind = optarg; break;
        case 'd': opt.db_path = optarg; break;
        case 'w': web_arg = optarg; break;
        case 'c':
            if (!parse_positive(optarg, 1000000, &v))
                return usage_error("serve", "--max-conns-per-ip must be a positive number");
            opt.limits.conns_per_ip = (int)v;
            break;
        case 'g':
            if (!parse_positive(optarg, 100000000, &v))
                return usage_error("serve", "--max-games-per-ip must be a positive number");
            opt.game.games_per_hour = (int)v;
            break;
        case 'm':
            if (!parse_positive(optarg, 1000000, &v))
                return usage_error("serve", "--msg-rate must be a positive number");
            opt.limits.msgs_per_sec = (double)v;
            break;
        case 'r':
            if (!parse_positive(optarg, 1000000, &v))
                return usage_error("serve", "--request-rate must be a positive number");
            opt.limits.requests_per_sec = (double)v;
            break;
        case 'Y':
            if (!parse_positive(optarg, 100000000, &v))
                return usage_error("serve", "--max-hints-per-ip must be a positive number");
            opt.game.hints_per_10_min = (int)v;
            break;
        case 'Z':
            if (!parse_positive(optarg, 100000000, &v))
                return usage_error("serve", "--max-analyses-per-ip must be a positive number");
            opt.game.analyses_per_hour = (int)v;
            break;
        case 'X':
            if (!parse_positive(optarg, 100000000, &v))
                return usage_error("serve", "--max-strong-games-per-ip must be a positive number");
            opt.game.strong_games_per_hour = (int)v;
            break;
        case 'V':
            if (!parse_positive(optarg, 1000000, &v))
                return usage_error("serve", "--max-waiting-per-ip must be a positive number");
            opt.game.waiting_per_ip = (int)v;
            break;
        case 'S':
            if (!parse_positive(optarg, 100000000, &v))
                return usage_error("serve", "--max-signups-per-ip must be a positive number");
            opt.game.signups_per_hour = (int)v;
            break;
        case 'H':
            if (!parse_positive(optarg, 1000000, &v))
                return usage_error("serve", "--max-header-waits-per-ip must be a positive number");
            opt.limits.headers_per_ip = (int)v;
            break;
        case 't':
            if (!parse_positive(optarg, 64, &v))
                return usage_error("serve", "--ai-threads must be 1 to 64");
            opt.game.ai_threads = (int)v;
            break;
        case 'M':
            if (!parse_positive(optarg, 1000000, &v) || v < 100)
                return usage_error("serve", "--judge-playouts must be 100 to 1000000, not '%s'",
                                   optarg);
            opt.game.judge_playouts = v;
            break;
        case 's':
            if (strcmp(optarg, "full") && strcmp(optarg, "normal"))
                return usage_error("serve", "--sync must be normal or full, not '%s'", optarg);
            opt.sync_full = strcmp(optarg, "full") == 0;
            break;
        case 'A':
            if (!parse_positive(optarg, 86400 * 30, &v))
                return usage_error("serve", "--absent-s must be 1 to 2592000 seconds");
            opt.game.absent_s = (int)v;
            break;
        case 'W':
            if (!parse_positive(optarg, 86400 * 365, &v))
                return usage_error("serve", "--waiting-ttl-s must be 1 to 31536000 seconds");
            opt.game.waiting_ttl_s = (int)v;
            break;
        case 'U':
            if (strncmp(optarg, "http://", 7) && strncmp(optarg, "https://", 8))
                return usage_error("serve", "--public-url must start with http:// or https://");
            opt.public_url = optarg;
            break;
        case 'P': {
            char norm[48];
            struct in6_addr a6;
            struct in_addr a4;
            if (inet_pton(AF_INET, optarg, &a4) != 1 && inet_pton(AF_INET6, optarg, &a6) != 1)
                return usage_error("serve", "--trusted-proxy must be an IP address, not '%s'",
                                   optarg);
            ip_normalize(optarg, norm, sizeof norm);
            opt.trusted_proxy = strdup(norm);
            break;
        }
        case 'q': opt.game.quiet = true; break;
        case 'h': fputs(help, stdout); return 0;
        default: return usage_error("serve", "unknown or incomplete option '%s'", argv[optind - 1]);
        }
    }
    if (optind < argc)
        return usage_error("serve", "unexpected argument '%s'", argv[optind]);
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
    } else if (find_web_dir(web, sizeof web)) {
        opt.web_dir = web;
    } else {
        fprintf(stderr, "axio serve: no web/ directory found (see --web); serving the API only\n");
    }
    return server_run(&opt);
}
