/*
 * http_api.c - the HTTP side of the server: the /api endpoints of
 * protocol.md and the web client's static files.
 *
 * A request is routed when it is complete: at LWS_CALLBACK_HTTP for one
 * without a body, at the body's completion for a POST. The answer is built
 * whole (headers written at once, the body from LWS_CALLBACK_HTTP_WRITEABLE
 * in chunks). Bodies larger than MSG_MAX are refused from their
 * Content-Length before they are read. Static files come from the web
 * directory only: no path with a ".." segment, hidden file or backslash is
 * served.
 */
#include "../game/game.h"
#include "../game/json_state.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define WRITE_CHUNK 16384

/* Every answer, page or API: the client's own scripts, styles and images
 * only (inline styles: the client sets SVG attributes), connections only to
 * this server, no frames around it (clickjacking), no referrer (a game's
 * page address must not leak), no type sniffing. */
static const struct {
    const char *name, *value;
} security_headers[] = {
    {"content-security-policy:",
     "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
     "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
     "form-action 'self'; frame-ancestors 'none'"},
    {"x-frame-options:", "DENY"},
    {"referrer-policy:", "no-referrer"},
    {"x-content-type-options:", "nosniff"},
    {"cross-origin-opener-policy:", "same-origin"},
};

static int add_security_headers(struct lws *wsi, unsigned char **p, unsigned char *end)
{
    for (size_t i = 0; i < sizeof security_headers / sizeof security_headers[0]; i++) {
        const char *v = security_headers[i].value;
        if (lws_add_http_header_by_name(wsi, (const unsigned char *)security_headers[i].name,
                                        (const unsigned char *)v, (int)strlen(v), p, end))
            return -1;
    }
    return 0;
}

static void reset(http_req *r)
{
    accounts_orphan(r);
    free(r->resp);
    memset(r, 0, offsetof(http_req, body));
    r->body[0] = 0;
}

void http_done(http_req *r) { reset(r); }

/* Writes the headers and keeps the body for http_writeable. */
static int reply(http_req *r, struct lws *wsi, int status, const char *ctype, const char *body,
                 size_t len)
{
    unsigned char hdr[LWS_PRE + 2048], *start = hdr + LWS_PRE, *p = start,
                                       *end = hdr + sizeof hdr - 1;
    r->resp = malloc(LWS_PRE + len + 1);
    if (!r->resp)
        return -1;
    memcpy(r->resp + LWS_PRE, body, len);
    r->resp_len = len;
    r->resp_sent = 0;
    if (lws_add_http_common_headers(wsi, (unsigned)status, ctype, len, &p, end) ||
        (r->set_cookie[0] && lws_add_http_header_by_name(wsi, (const unsigned char *)"set-cookie:",
                                                         (const unsigned char *)r->set_cookie,
                                                         (int)strlen(r->set_cookie), &p, end)) ||
        lws_add_http_header_by_token(wsi, WSI_TOKEN_HTTP_CACHE_CONTROL,
                                     (const unsigned char *)"no-store", 8, &p, end) ||
        add_security_headers(wsi, &p, end) || lws_finalize_write_http_header(wsi, start, &p, end))
        return -1;
    lws_callback_on_writable(wsi);
    return 0;
}

static int reply_json(http_req *r, struct lws *wsi, int status, json_t *body)
{
    char *text = json_dumps(body, JSON_COMPACT | JSON_ENCODE_ANY);
    json_decref(body);
    if (!text)
        return -1;
    int rc = reply(r, wsi, status, "application/json", text, strlen(text));
    free(text);
    return rc;
}

static int reply_error(http_req *r, struct lws *wsi, int status, const char *code,
                       const char *message)
{
    return reply_json(r, wsi, status,
                      json_pack("{s:{s:s,s:s}}", "error", "code", code, "message", message));
}

int http_reply_json(http_req *r, struct lws *wsi, int status, json_t *body)
{
    return reply_json(r, wsi, status, body);
}

int http_reply_error(http_req *r, struct lws *wsi, int status, const char *code,
                     const char *message)
{
    return reply_error(r, wsi, status, code, message);
}

int http_reply_api_error(http_req *r, struct lws *wsi, const api_error *err)
{
    if (!err->reason)
        return reply_error(r, wsi, err->http, err->code, err->message);
    return reply_json(r, wsi, err->http,
                      json_pack("{s:{s:s,s:s,s:s}}", "error", "code", err->code, "message",
                                err->message, "reason", err->reason));
}

int http_reply_empty(http_req *r, struct lws *wsi, int status)
{
    return reply(r, wsi, status, NULL, "", 0);
}

int http_writeable(http_req *r, struct lws *wsi)
{
    if (!r->resp)
        return accounts_answer(r, wsi); /* a request waiting for a password check */
    size_t left = r->resp_len - r->resp_sent, n = left > WRITE_CHUNK ? WRITE_CHUNK : left;
    bool last = n == left;
    /* the bytes before the pointer were sent already: lws may use them as
     * its LWS_PRE headroom */
    unsigned char *from = r->resp + LWS_PRE + r->resp_sent;
    if (lws_write(wsi, from, n, last ? LWS_WRITE_HTTP_FINAL : LWS_WRITE_HTTP) != (int)n)
        return -1;
    r->resp_sent += n;
    if (!last) {
        lws_callback_on_writable(wsi);
        return 0;
    }
    bool close = r->close_after;
    reset(r);
    return close || lws_http_transaction_completed(wsi) ? -1 : 0;
}

/* --- where a request comes from --- */

/* The origin a request addressed: its Host, over https when the trusted
 * proxy says so (X-Forwarded-Proto), else http. A page of another site
 * cannot choose the Host its visitor's browser sends. */
static void request_origin(struct lws *wsi, char *out, size_t size)
{
    char host[256] = "", peer_ip[64] = "", ip[48], proto[16] = "";
    lws_hdr_copy(wsi, host, sizeof host, WSI_TOKEN_HOST);
    lws_get_peer_simple(wsi, peer_ip, sizeof peer_ip);
    ip_normalize(peer_ip, ip, sizeof ip);
    bool https = srv.opt.trusted_proxy && strcmp(ip, srv.opt.trusted_proxy) == 0 &&
                 lws_hdr_custom_copy(wsi, proto, sizeof proto, "x-forwarded-proto:", 18) > 0 &&
                 strcasecmp(proto, "https") == 0;
    snprintf(out, size, "%s://%s", https ? "https" : "http", host);
}

/* The --public-url's scheme, host and port, or "". */
static void public_origin(char *out, size_t size)
{
    const char *url = srv.opt.public_url;
    out[0] = 0;
    if (url && strstr(url, "://")) {
        const char *host = strstr(url, "://") + 3;
        size_t n = (size_t)(host - url) + strcspn(host, "/?#");
        snprintf(out, size, "%.*s", (int)n, url);
    }
}

bool http_foreign_origin(struct lws *wsi)
{
    char fetch_site[32] = "";
    if (lws_hdr_custom_copy(wsi, fetch_site, sizeof fetch_site, "sec-fetch-site:", 15) > 0)
        return strcasecmp(fetch_site, "same-origin") != 0 && strcasecmp(fetch_site, "none") != 0;
    if (lws_hdr_total_length(wsi, WSI_TOKEN_ORIGIN) == 0)
        return false; /* not a browser's request from a page */
    char origin[512], own[512];
    if (lws_hdr_copy(wsi, origin, sizeof origin, WSI_TOKEN_ORIGIN) <= 0)
        return true; /* too long to be ours */
    public_origin(own, sizeof own);
    if (own[0] && strcasecmp(origin, own) == 0)
        return false;
    request_origin(wsi, own, sizeof own);
    return strcasecmp(origin, own) != 0;
}

/* A body a browser sends as a "simple request" (text/plain, a form) needs
 * no preflight: only a body declared application/json is read. A body
 * without a Content-Type is read only from a client that is no browser page
 * (no Origin, no Sec-Fetch-Site). */
static bool body_type_accepted(struct lws *wsi)
{
    char ctype[128];
    int n = lws_hdr_copy(wsi, ctype, sizeof ctype, WSI_TOKEN_HTTP_CONTENT_TYPE);
    if (n <= 0)
        return lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_CONTENT_TYPE) == 0 &&
               lws_hdr_total_length(wsi, WSI_TOKEN_ORIGIN) == 0 &&
               lws_hdr_custom_length(wsi, "sec-fetch-site:", 15) <= 0;
    size_t len = strcspn(ctype, "; \t");
    return len == 16 && strncasecmp(ctype, "application/json", 16) == 0;
}

/* --- the API --- */

static int api_fail(http_req *r, struct lws *wsi, const api_error *err)
{
    return http_reply_api_error(r, wsi, err);
}

static json_t *parse_body(http_req *r, api_error *err)
{
    if (r->body_len == 0)
        return json_object();
    json_error_t jerr;
    json_t *v = json_loadb(r->body, r->body_len, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &jerr);
    if (!v) {
        err->http = 400;
        err->code =
            json_error_code(&jerr) == json_error_numeric_overflow ? "bad_message" : "bad_json";
        json_error_text(&jerr, err->message, sizeof err->message);
    }
    return v;
}

static int create_game(http_req *r, struct lws *wsi, ip_entry *ip)
{
    api_error err = {0};
    json_t *body = parse_body(r, &err);
    if (!body)
        return api_fail(r, wsi, &err);
    game *gm;
    int seat;
    char token[TOKEN_LEN + 1];
    int rc = -1;
    stored_account account;
    bool logged_in = accounts_session(wsi, &account);
    if (ip && !ip_allow_game(ip)) {
        err = (api_error){429, "rate_limited", "too many games created from this address", NULL};
    } else {
        rc = lobby_create(body, logged_in ? &account : NULL, &gm, &seat, token, &err);
    }
    json_decref(body);
    if (rc)
        return api_fail(r, wsi, &err);
    return reply_json(r, wsi, 201,
                      json_pack("{s:s,s:i,s:s}", "game", gm->id, "seat", seat, "token", token));
}

static int join_game(http_req *r, struct lws *wsi, game *gm)
{
    api_error err = {0};
    json_t *body = parse_body(r, &err);
    if (!body)
        return api_fail(r, wsi, &err);
    int seat;
    char token[TOKEN_LEN + 1];
    stored_account account;
    bool logged_in = accounts_session(wsi, &account);
    int rc = lobby_join(gm, body, logged_in ? &account : NULL, &seat, token, &err);
    json_decref(body);
    if (rc)
        return api_fail(r, wsi, &err);
    return reply_json(r, wsi, 200, json_pack("{s:i,s:s}", "seat", seat, "token", token));
}

static int game_record(http_req *r, struct lws *wsi, game *gm)
{
    if (gm->status != GAME_OVER)
        return reply_error(r, wsi, 403, "forbidden",
                           "the record is available once the game is over");
    size_t len;
    char *text = record_text(gm, &len);
    if (!text)
        return reply_error(r, wsi, 500, "internal", "out of memory");
    int rc = reply(r, wsi, 200, "application/x-ndjson", text, len);
    free(text);
    return rc;
}

/* GET /api/games/{id}/analysis?seat=S: 202 while it is worked on, then 200. */
static int game_analysis(http_req *r, struct lws *wsi, game *gm)
{
    char buf[16];
    const char *v = lws_get_urlarg_by_name(wsi, "seat=", buf, sizeof buf);
    char *end = NULL;
    long seat = v ? strtol(v, &end, 10) : -1;
    if (!v || !*v || *end || seat < 0 || seat >= AX_MAX_PLAYERS)
        return reply_error(r, wsi, 400, "bad_message", "?seat= must be one of the game's seats");
    char *text;
    json_t *progress;
    api_error err = {0};
    if (analysis_request(gm, (int)seat, &text, &progress, &err))
        return api_fail(r, wsi, &err);
    if (progress)
        return reply_json(r, wsi, 202, progress);
    int rc = reply(r, wsi, 200, "application/json", text, strlen(text));
    free(text);
    return rc;
}

static int method_not_allowed(http_req *r, struct lws *wsi)
{
    return reply_error(r, wsi, 405, "method_not_allowed", "method not allowed here");
}

/* The token of "Authorization: Bearer TOKEN", or NULL. */
static const char *bearer_token(struct lws *wsi, char *buf, size_t size)
{
    if (lws_hdr_copy(wsi, buf, (int)size, WSI_TOKEN_HTTP_AUTHORIZATION) <= 0)
        return NULL;
    if (strncasecmp(buf, "Bearer ", 7) != 0)
        return NULL;
    const char *token = buf + 7;
    while (*token == ' ')
        token++;
    return *token ? token : NULL;
}

static int cancel_game(http_req *r, struct lws *wsi, game *gm)
{
    char auth[256];
    api_error err = {0};
    if (lobby_cancel(gm, bearer_token(wsi, auth, sizeof auth), &err))
        return api_fail(r, wsi, &err);
    return reply_json(r, wsi, 200, json_pack("{s:s}", "status", "cancelled"));
}

/* A game set aside as damaged: described and its stored decisions served,
 * never joined, cancelled or played. */
static int damaged_route(http_req *r, struct lws *wsi, const stored_game *sg, const char *action)
{
    if (r->method == HTTP_DELETE || strcmp(action, "join") == 0) {
        if (r->method != HTTP_POST && r->method != HTTP_DELETE)
            return method_not_allowed(r, wsi);
        return reply_error(r, wsi, 409, "damaged",
                           "the game is damaged: its stored decisions can no longer be replayed");
    }
    if (r->method != HTTP_GET)
        return method_not_allowed(r, wsi);
    if (strcmp(action, "") == 0)
        return reply_json(r, wsi, 200, damaged_game_json(sg));
    if (strcmp(action, "analysis") == 0)
        return reply_error(r, wsi, 409, "damaged",
                           "the game is damaged: its decisions cannot be analysed");
    size_t len;
    char *text = damaged_record_text(sg, &len);
    if (!text)
        return reply_error(r, wsi, 500, "internal", "the stored decisions cannot be read");
    int rc = reply(r, wsi, 200, "application/x-ndjson", text, len);
    free(text);
    return rc;
}

/* /api/games/{id}[/join|/record|/analysis] */
static int game_route(http_req *r, struct lws *wsi, const char *rest)
{
    char id[GAME_ID_LEN + 1];
    const char *slash = strchr(rest, '/');
    size_t n = slash ? (size_t)(slash - rest) : strlen(rest);
    const char *action = slash ? slash + 1 : "";
    game *gm = NULL;
    if (n <= GAME_ID_LEN) {
        memcpy(id, rest, n);
        id[n] = 0;
        gm = lobby_find(id);
    }
    if (strcmp(action, "") && strcmp(action, "join") && strcmp(action, "record") &&
        strcmp(action, "analysis"))
        return reply_error(r, wsi, 404, "not_found", "no such endpoint");
    stored_game damaged;
    if (!gm && n <= GAME_ID_LEN && lobby_damaged(id, &damaged) == 0) {
        int rc = damaged_route(r, wsi, &damaged, action);
        stored_game_free(&damaged);
        return rc;
    }
    if (!gm)
        return reply_error(r, wsi, 404, "not_found", "no such game");
    if (strcmp(action, "") == 0 && r->method == HTTP_DELETE)
        return cancel_game(r, wsi, gm);
    if (strcmp(action, "join") == 0)
        return r->method == HTTP_POST ? join_game(r, wsi, gm) : method_not_allowed(r, wsi);
    if (r->method != HTTP_GET)
        return method_not_allowed(r, wsi);
    if (strcmp(action, "record") == 0)
        return game_record(r, wsi, gm);
    if (strcmp(action, "analysis") == 0)
        return game_analysis(r, wsi, gm);
    return reply_json(r, wsi, 200, state_game_json(gm));
}

/* GET /api/games[?status=over|?ids=A,B|?status=&variant=&limit=&cursor=] */
static int list_games(http_req *r, struct lws *wsi)
{
    char buf[64 * (GAME_ID_LEN + 1) + 8], variant[256], limit[256], cursor[256];
    const char *status = lws_get_urlarg_by_name(wsi, "status=", buf, sizeof buf);
    if (status && strcmp(status, "over") == 0)
        return reply_json(r, wsi, 200, lobby_finished_json());
    const char *ids = status ? NULL : lws_get_urlarg_by_name(wsi, "ids=", buf, sizeof buf);
    if (ids)
        return reply_json(r, wsi, 200, lobby_entries_json(ids));
    api_error err = {0};
    json_t *list =
        lobby_list_query(status, lws_get_urlarg_by_name(wsi, "variant=", variant, sizeof variant),
                         lws_get_urlarg_by_name(wsi, "limit=", limit, sizeof limit),
                         lws_get_urlarg_by_name(wsi, "cursor=", cursor, sizeof cursor), &err);
    return list ? reply_json(r, wsi, 200, list) : http_reply_api_error(r, wsi, &err);
}

static int api_route(http_req *r, struct lws *wsi)
{
    char addr[48];
    client_ip(wsi, addr, sizeof addr);
    ip_entry *ip = ip_entry_get(addr);
    if (ip && !ip_allow_request(ip))
        return reply_error(r, wsi, 429, "rate_limited", "too many requests; slow down");
    if (r->body_too_large)
        return reply_error(r, wsi, 413, "too_large", "a request body may have at most 4096 bytes");
    if ((r->method == HTTP_POST || r->method == HTTP_DELETE) && http_foreign_origin(wsi))
        return reply_error(r, wsi, 403, "forbidden",
                           "a request that changes something must come "
                           "from this site");
    if (r->body_len > 0 && !body_type_accepted(wsi))
        return reply_error(r, wsi, 415, "unsupported_media_type",
                           "a request body must be sent as Content-Type: application/json");
    const char *path = r->path + 4; /* after "/api" */
    int rc = accounts_route(r, wsi, path);
    if (rc != -2)
        return rc;
    if (strcmp(path, "/health") == 0) {
        if (r->method != HTTP_GET)
            return method_not_allowed(r, wsi);
        return reply_json(r, wsi, 200,
                          json_pack("{s:b,s:s,s:o}", "ok", 1, "version", AXIO_VERSION, "urls",
                                    server_urls_json()));
    }
    if (strcmp(path, "/games") == 0) {
        if (r->method == HTTP_GET)
            return list_games(r, wsi);
        if (r->method == HTTP_POST)
            return create_game(r, wsi, ip);
        return method_not_allowed(r, wsi);
    }
    if (strncmp(path, "/games/", 7) == 0)
        return game_route(r, wsi, path + 7);
    return reply_error(r, wsi, 404, "not_found", "no such endpoint");
}

/* --- static files --- */

static const struct {
    const char *ext, *type;
} mime_types[] = {
    {".html", "text/html; charset=utf-8"},
    {".js", "text/javascript; charset=utf-8"},
    {".mjs", "text/javascript; charset=utf-8"},
    {".css", "text/css; charset=utf-8"},
    {".json", "application/json"},
    {".map", "application/json"},
    {".webmanifest", "application/manifest+json"},
    {".svg", "image/svg+xml"},
    {".png", "image/png"},
    {".jpg", "image/jpeg"},
    {".jpeg", "image/jpeg"},
    {".gif", "image/gif"},
    {".webp", "image/webp"},
    {".ico", "image/x-icon"},
    {".woff", "font/woff"},
    {".woff2", "font/woff2"},
    {".ttf", "font/ttf"},
    {".wasm", "application/wasm"},
    {".txt", "text/plain; charset=utf-8"},
    {".md", "text/plain; charset=utf-8"},
};

static const char *mime_type(const char *path)
{
    const char *dot = strrchr(path, '.');
    if (dot && !strchr(dot, '/'))
        for (size_t i = 0; i < sizeof mime_types / sizeof mime_types[0]; i++)
            if (strcmp(dot, mime_types[i].ext) == 0)
                return mime_types[i].type;
    return "application/octet-stream";
}

/* A path inside the web directory: absolute, no "." or ".." segment, no
 * hidden file, no backslash or control character. */
static bool safe_path(const char *path)
{
    if (path[0] != '/')
        return false;
    for (const char *p = path; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == '\\' || *p == 0x7f)
            return false;
    return !strstr(path, "/.") && !strstr(path, "//");
}

static int serve_file(http_req *r, struct lws *wsi)
{
    char file[4096];
    struct stat st;
    const char *dir = srv.opt.web_dir;
    if (r->method != HTTP_GET)
        return method_not_allowed(r, wsi);
    if (!dir || !safe_path(r->path))
        return reply_error(r, wsi, 404, "not_found", "no such file");
    const char *index = r->path[strlen(r->path) - 1] == '/' ? "index.html" : "";
    int n = snprintf(file, sizeof file, "%s%s%s", dir, r->path, index);
    if (n < 0 || (size_t)n >= sizeof file)
        return reply_error(r, wsi, 404, "not_found", "no such file");
    if (stat(file, &st) == 0 && S_ISDIR(st.st_mode) &&
        (size_t)n + 11 < sizeof file) { /* a directory without its slash */
        strcat(file, "/index.html");
    }
    if (stat(file, &st) != 0 || !S_ISREG(st.st_mode))
        return reply_error(r, wsi, 404, "not_found", "no such file");
    unsigned char extra[1024], *p = extra, *end = extra + sizeof extra;
    if (add_security_headers(wsi, &p, end) ||
        lws_add_http_header_by_token(wsi, WSI_TOKEN_HTTP_CACHE_CONTROL,
                                     (const unsigned char *)"no-cache", 8, &p, end))
        return -1;
    int rc = lws_serve_http_file(wsi, file, mime_type(file), (const char *)extra, (int)(p - extra));
    if (rc < 0 || (rc > 0 && lws_http_transaction_completed(wsi)))
        return -1;
    return 0;
}

/* --- requests --- */

static int method_of(struct lws *wsi)
{
    if (lws_hdr_total_length(wsi, WSI_TOKEN_GET_URI))
        return HTTP_GET;
    if (lws_hdr_total_length(wsi, WSI_TOKEN_POST_URI))
        return HTTP_POST;
    if (lws_hdr_total_length(wsi, WSI_TOKEN_DELETE_URI))
        return HTTP_DELETE;
    return HTTP_OTHER;
}

static long content_length(struct lws *wsi)
{
    char buf[32];
    if (lws_hdr_copy(wsi, buf, sizeof buf, WSI_TOKEN_HTTP_CONTENT_LENGTH) <= 0)
        return 0;
    char *end;
    long n = strtol(buf, &end, 10);
    return *end || n < 0 ? -1 : n;
}

static int route(http_req *r, struct lws *wsi)
{
    if (r->routed)
        return 0;
    r->routed = true;
    if (strncmp(r->path, "/api/", 5) == 0)
        return api_route(r, wsi);
    if (strcmp(r->path, "/ws") == 0 || strncmp(r->path, "/ws/", 4) == 0)
        return reply_error(r, wsi, 400, "bad_message", "this is a WebSocket endpoint");
    return serve_file(r, wsi);
}

int http_request(http_req *r, struct lws *wsi, const char *uri)
{
    reset(r);
    r->method = method_of(wsi);
    if (!uri || strlen(uri) >= sizeof r->path)
        return reply_error(r, wsi, 404, "not_found", "no such file");
    strcpy(r->path, uri);
    if (r->method != HTTP_POST)
        return route(r, wsi);
    long len = content_length(wsi);
    if (len < 0 || len > MSG_MAX) {
        /* answer without reading it, then close: the body is not wanted */
        r->body_too_large = true;
        r->close_after = true;
        return route(r, wsi);
    }
    if (len == 0)
        return route(r, wsi);
    return 0; /* wait for the body */
}

int http_body(http_req *r, struct lws *wsi, const void *in, size_t len)
{
    (void)wsi;
    if (len == 0)
        return 0;
    if (r->body_len + len > MSG_MAX) {
        r->body_too_large = true;
        return 0;
    }
    memcpy(r->body + r->body_len, in, len);
    r->body_len += len;
    r->body[r->body_len] = 0;
    return 0;
}

int http_body_done(http_req *r, struct lws *wsi) { return route(r, wsi); }
