/*
 * cmd_token.c - `axio token`: a site account's personal API tokens
 * (docs/bot-api.md) from the command line: made, listed and revoked through
 * the site's own API, as the profile page does, so that a bot's owner never
 * needs a browser and the site keeps its one way of making tokens.
 *
 * It logs in with the account's name and password (read from a file or
 * from standard input, never from the command line), then sends the
 * session cookie with each request. A new token's secret goes to standard
 * output or to a file made readable by its owner only (what `axio bot
 * --token-file` asks for).
 */
#include "cli.h"

#include <curl/curl.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#define PASSWORD_MAX 1024
#define ANSWER_MAX   (1 << 20)

static const char *const help =
    "usage: axio token create --url URL --name NAME [--password-file FILE] [--label TEXT]\n"
    "                         [--scopes LIST] [--output FILE]\n"
    "       axio token list   --url URL --name NAME [--password-file FILE]\n"
    "       axio token revoke --url URL --name NAME [--password-file FILE] ID\n"
    "\n"
    "An account's personal API tokens on a site (docs/bot-api.md), as its profile page\n"
    "makes them: logs in as NAME, then makes a token, lists them, or revokes one.\n"
    "  --url            the site, e.g. https://axio.example\n"
    "  --name           the account's name\n"
    "  --password-file  a file whose first line is the password (default: standard input;\n"
    "                   not echoed on a terminal)\n"
    "  --label          what the token is for (default \"axio bot\")\n"
    "  --scopes         of bot:play,challenge:write,game:read (default bot:play)\n"
    "  --output         write the new token to FILE (made readable by you only) instead of\n"
    "                   standard output; the site shows a token's secret once\n"
    "list prints a line per token: its id, scopes, when made and last used, and its label.\n"
    "Example:\n"
    "  axio token create --url https://axio.example --name MyBot --output ~/.axio-token\n"
    "  axio bot --url https://axio.example --token-file ~/.axio-token --engine 'axio engine'\n";

typedef struct {
    char *data;
    size_t len;
    bool too_long;
} answer;

static size_t collect(char *p, size_t size, size_t n, void *arg)
{
    answer *a = arg;
    size_t len = size * n;
    if (a->len + len > ANSWER_MAX) {
        a->too_long = true;
        return 0;
    }
    char *grown = realloc(a->data, a->len + len + 1);
    if (!grown)
        return 0;
    memcpy(grown + a->len, p, len);
    a->data = grown;
    a->len += len;
    a->data[a->len] = 0;
    return len;
}

typedef struct {
    const char *url;
    char cookie[160]; /* "axio_session=..." once logged in */
} site;

/* Keeps the session cookie of a Set-Cookie header. */
static size_t header(char *p, size_t size, size_t n, void *arg)
{
    site *s = arg;
    size_t len = size * n;
    static const char name[] = "set-cookie: axio_session=";
    if (len > sizeof name - 1 && strncasecmp(p, name, sizeof name - 1) == 0) {
        size_t value = 12, end = value;
        while (end < len && p[end] != ';' && p[end] != '\r' && p[end] != '\n')
            end++;
        if (end - value < sizeof s->cookie)
            snprintf(s->cookie, sizeof s->cookie, "%.*s", (int)(end - value), p + value);
    }
    return len;
}

/* A request and its JSON answer (NULL when it has none); the HTTP status,
 * or 0 with a reason in err when no answer came. */
static long request(site *s, const char *method, const char *path, json_t *body, json_t **out,
                    char *err, size_t errlen)
{
    char url[2048];
    snprintf(url, sizeof url, "%s%s", s->url, path);
    answer a = {0};
    char *text = body ? json_dumps(body, JSON_COMPACT) : NULL;
    CURL *curl = curl_easy_init();
    struct curl_slist *headers = curl_slist_append(NULL, "Content-Type: application/json");
    long status = 0;
    if (!curl || !headers) {
        snprintf(err, errlen, "out of memory");
        goto done;
    }
    curl_easy_setopt(curl, CURLOPT_URL, url);
    curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, method);
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, collect);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &a);
    curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, header);
    curl_easy_setopt(curl, CURLOPT_HEADERDATA, s);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT, 30L);
    curl_easy_setopt(curl, CURLOPT_USERAGENT, "axio-token");
    if (s->cookie[0])
        curl_easy_setopt(curl, CURLOPT_COOKIE, s->cookie);
    if (text)
        curl_easy_setopt(curl, CURLOPT_POSTFIELDS, text);
    CURLcode rc = curl_easy_perform(curl);
    if (rc != CURLE_OK)
        snprintf(err, errlen, "%s: %s", s->url, curl_easy_strerror(rc));
    else
        curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
done:
    *out = a.data ? json_loads(a.data, 0, NULL) : NULL;
    if (text) {
        memset(text, 0, strlen(text)); /* it may hold the password */
        free(text);
    }
    free(a.data);
    curl_slist_free_all(headers);
    if (curl)
        curl_easy_cleanup(curl);
    return status;
}

/* The error's message of an answer, or its status. */
static void answer_error(long status, json_t *j, char *err, size_t errlen)
{
    const char *message =
        json_string_value(json_object_get(json_object_get(j, "error"), "message"));
    snprintf(err, errlen, "the site answered %ld%s%s", status, message ? ": " : "",
             message ? message : "");
}

static bool read_password(const char *file, char *out, size_t size, char *err, size_t errlen)
{
    FILE *f = file ? fopen(file, "r") : stdin;
    if (!f) {
        snprintf(err, errlen, "%s: %s", file, strerror(errno));
        return false;
    }
    struct termios old, quiet;
    bool tty = !file && isatty(STDIN_FILENO) && tcgetattr(STDIN_FILENO, &old) == 0;
    if (tty) {
        fprintf(stderr, "password: ");
        quiet = old;
        quiet.c_lflag &= ~(tcflag_t)ECHO;
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet);
    }
    bool ok = fgets(out, (int)size, f) != NULL;
    if (tty) {
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &old);
        fputc('\n', stderr);
    }
    if (file)
        fclose(f);
    out[strcspn(out, "\r\n")] = 0;
    if (!ok || !out[0]) {
        snprintf(err, errlen, "no password read%s%s", file ? " from " : "", file ? file : "");
        return false;
    }
    return true;
}

static bool log_in(site *s, const char *name, const char *password, char *err, size_t errlen)
{
    json_t *body = json_pack("{s:s,s:s}", "name", name, "password", password);
    json_t *j = NULL;
    long status = request(s, "POST", "/api/login", body, &j, err, errlen);
    json_decref(body);
    bool ok = status == 200 && s->cookie[0];
    if (status && !ok)
        answer_error(status, j, err, errlen);
    json_decref(j);
    return ok;
}

/* "bot:play,game:read" as a JSON array. */
static json_t *scopes_json(const char *list)
{
    json_t *a = json_array();
    char copy[256];
    snprintf(copy, sizeof copy, "%s", list);
    for (char *save, *p = strtok_r(copy, ",", &save); p; p = strtok_r(NULL, ",", &save))
        json_array_append_new(a, json_string(p));
    return a;
}

static int write_secret(const char *output, const char *secret, char *err, size_t errlen)
{
    if (!output) {
        printf("%s\n", secret);
        return 0;
    }
    int fd = open(output, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0 || fchmod(fd, 0600) != 0 || dprintf(fd, "%s\n", secret) < 0 || close(fd) != 0) {
        snprintf(err, errlen, "%s: %s", output, strerror(errno));
        return -1;
    }
    return 0;
}

static void print_time(long long ms)
{
    if (ms <= 0) {
        printf("%-21s", "never");
        return;
    }
    time_t t = (time_t)(ms / 1000);
    struct tm tm;
    char text[32];
    gmtime_r(&t, &tm);
    strftime(text, sizeof text, "%Y-%m-%d %H:%M UTC", &tm);
    printf("%-21s", text);
}

static int run(site *s, const char *what, const char *label, const char *scopes, const char *output,
               const char *id, char *err, size_t errlen)
{
    json_t *j = NULL, *body = NULL;
    long status;
    if (strcmp(what, "create") == 0) {
        body = json_pack("{s:s,s:o}", "label", label, "scopes", scopes_json(scopes));
        status = request(s, "POST", "/api/me/tokens", body, &j, err, errlen);
        json_decref(body);
        const char *secret = json_string_value(json_object_get(j, "secret"));
        int rc = status == 201 && secret ? write_secret(output, secret, err, errlen) : -1;
        if (status && !(status == 201 && secret))
            answer_error(status, j, err, errlen);
        else if (rc == 0)
            fprintf(stderr, "axio token: made %s (%s)\n",
                    json_string_value(json_object_get(json_object_get(j, "token"), "id")), scopes);
        json_decref(j);
        return rc;
    }
    if (strcmp(what, "list") == 0) {
        status = request(s, "GET", "/api/me/tokens", NULL, &j, err, errlen);
        if (status != 200) {
            if (status)
                answer_error(status, j, err, errlen);
            json_decref(j);
            return -1;
        }
        size_t i;
        json_t *t;
        json_array_foreach(json_object_get(j, "tokens"), i, t)
        {
            printf("%-17s ", json_string_value(json_object_get(t, "id")));
            json_t *sc = json_object_get(t, "scopes"), *one;
            size_t k;
            char list[128] = "";
            json_array_foreach(sc, k, one) snprintf(list + strlen(list), sizeof list - strlen(list),
                                                    "%s%s", k ? "," : "", json_string_value(one));
            printf("%-36s ", list);
            print_time((long long)json_integer_value(json_object_get(t, "created")));
            print_time((long long)json_integer_value(json_object_get(t, "used")));
            printf("%s\n", json_string_value(json_object_get(t, "label")));
        }
        json_decref(j);
        return 0;
    }
    char path[128];
    snprintf(path, sizeof path, "/api/me/tokens/%s", id);
    status = request(s, "DELETE", path, NULL, &j, err, errlen);
    if (status != 204) {
        if (status)
            answer_error(status, j, err, errlen);
        json_decref(j);
        return -1;
    }
    json_decref(j);
    fprintf(stderr, "axio token: revoked %s\n", id);
    return 0;
}

int cmd_token(int argc, char **argv)
{
    static const struct option opts[] = {{"url", required_argument, 0, 'u'},
                                         {"name", required_argument, 0, 'n'},
                                         {"password-file", required_argument, 0, 'p'},
                                         {"label", required_argument, 0, 'l'},
                                         {"scopes", required_argument, 0, 's'},
                                         {"output", required_argument, 0, 'o'},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    const char *url = NULL, *name = NULL, *password_file = NULL, *label = "axio bot",
               *scopes = "bot:play", *output = NULL;
    if (argc >= 2 && strcmp(argv[1], "--help") == 0) {
        fputs(help, stdout);
        return 0;
    }
    if (argc < 2 || (strcmp(argv[1], "create") != 0 && strcmp(argv[1], "list") != 0 &&
                     strcmp(argv[1], "revoke") != 0))
        return usage_error("token", "say create, list or revoke");
    const char *what = argv[1];
    argc--;
    argv++;
    optind = 1;
    opterr = 0; /* one line of our own */
    int c;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 'u': url = optarg; break;
        case 'n': name = optarg; break;
        case 'p': password_file = optarg; break;
        case 'l': label = optarg; break;
        case 's': scopes = optarg; break;
        case 'o': output = optarg; break;
        case 'h': fputs(help, stdout); return 0;
        default: return usage_error("token", "unknown or incomplete option '%s'", argv[optind - 1]);
        }
    }
    bool revoke = strcmp(what, "revoke") == 0;
    if (!url || !name)
        return usage_error("token", "--url and --name are required");
    if (optind != argc - (revoke ? 1 : 0))
        return usage_error("token", revoke ? "revoke takes one token id" : "unexpected argument");
    if (strncmp(url, "http://", 7) != 0 && strncmp(url, "https://", 8) != 0)
        return usage_error("token", "--url must start with http:// or https://");
    char base[1024];
    snprintf(base, sizeof base, "%s", url);
    size_t n = strlen(base);
    while (n && base[n - 1] == '/')
        base[--n] = 0;
    char password[PASSWORD_MAX], err[512] = "";
    if (!read_password(password_file, password, sizeof password, err, sizeof err)) {
        fprintf(stderr, "axio token: %s\n", err);
        return 1;
    }
    curl_global_init(CURL_GLOBAL_DEFAULT);
    site s = {.url = base};
    int rc = 1;
    if (log_in(&s, name, password, err, sizeof err) &&
        run(&s, what, label, scopes, output, revoke ? argv[argc - 1] : NULL, err, sizeof err) == 0)
        rc = 0;
    memset(password, 0, sizeof password);
    memset(s.cookie, 0, sizeof s.cookie);
    if (rc)
        fprintf(stderr, "axio token: %s\n", err[0] ? err : "failed");
    curl_global_cleanup();
    return rc;
}
