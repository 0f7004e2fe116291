/*
 * http.c - HTTP: the API's requests handed to the game service, the web
 * client's static files, cookies, and the checks every request passes.
 *
 * A request is routed when it is complete: at LWS_CALLBACK_HTTP for one
 * without a body, at the body's completion for a POST. An /api request is
 * limited per address, checked for its origin and its body's type, then
 * handed to the game service as a plain api_request (service_api); the
 * answer is built whole (headers written at once, the body from
 * LWS_CALLBACK_HTTP_WRITEABLE in chunks), at once or, for a password
 * check, when the service brings it (http_answer). The session cookie is
 * read and written here: the service sees only its token's SHA-256 coming
 * in and a new token going out. Bodies larger than MSG_MAX are refused from
 * their Content-Length before they are read, and a request with a
 * Transfer-Encoding (a chunked body) at once with 411, then closed; a body that may hold a
 * password is wiped once the service has read it. Static files come from
 * the web directory only: no path with a ".." segment, hidden file or
 * backslash is served.
 */
#include "transport.h"

#include <openssl/crypto.h>

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

#define SESSION_COOKIE "axio_session"

static void reset(http_req *r)
{
    if (r->pending && srv.svc)
        service_api_abandon(srv.svc, r);
    stream_closed(r->stream);
    if (r->relay)
        relay_http_abandon(r->relay);
    free(r->resp);
    memset(r, 0, offsetof(http_req, body));
    r->body[0] = 0;
}

void http_done(http_req *r) { reset(r); }

/* A refusal's Retry-After (RFC 9110), when the service gave one. */
static int add_retry_after(http_req *r, struct lws *wsi, unsigned char **p, unsigned char *end)
{
    if (r->retry_after_s <= 0)
        return 0;
    char v[16];
    int n = snprintf(v, sizeof v, "%d", r->retry_after_s);
    return lws_add_http_header_by_name(
        wsi, (const unsigned char *)"retry-after:", (const unsigned char *)v, n, p, end);
}

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
        add_retry_after(r, wsi, &p, end) || add_security_headers(wsi, &p, end) ||
        lws_finalize_write_http_header(wsi, start, &p, end))
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

int http_writeable(http_req *r, struct lws *wsi)
{
    if (r->stream)
        return stream_writeable(r->stream);
    if (!r->resp)
        return 0; /* a request waiting for a password check */
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

/* --- cookies --- */

/* The session token of the request's cookie: "" when there is none or its
 * value cannot be a token. */
static void cookie_token(struct lws *wsi, char token[TOKEN_LEN + 1])
{
    char header[4096];
    token[0] = 0;
    if (lws_hdr_copy(wsi, header, sizeof header, WSI_TOKEN_HTTP_COOKIE) <= 0)
        return;
    const size_t name_len = strlen(SESSION_COOKIE);
    for (char *p = header; *p;) {
        while (*p == ' ' || *p == ';')
            p++;
        size_t n = strcspn(p, ";");
        if (strncmp(p, SESSION_COOKIE "=", name_len + 1) == 0) {
            const char *value = p + name_len + 1;
            size_t len = n - name_len - 1;
            while (len && value[len - 1] == ' ')
                len--;
            if (len == TOKEN_LEN) {
                memcpy(token, value, len);
                token[len] = 0;
                if (!is_base64url(token, TOKEN_LEN))
                    token[0] = 0;
            }
            break;
        }
        p += n;
    }
    OPENSSL_cleanse(header, sizeof header);
}

void http_session_hash(struct lws *wsi, char hash[65])
{
    char token[TOKEN_LEN + 1];
    hash[0] = 0;
    cookie_token(wsi, token);
    if (token[0])
        sha256_hex(token, hash);
    OPENSSL_cleanse(token, sizeof token);
}

static bool secure_cookies(void)
{
    return srv.opt.public_url && strncasecmp(srv.opt.public_url, "https://", 8) == 0;
}

/* The Set-Cookie the answer asks for: a new session, or one cleared. */
static void session_cookie(http_req *r, const api_answer *a)
{
    if (a->session == SESSION_KEEP)
        return;
    bool set = a->session == SESSION_SET;
    snprintf(r->set_cookie, sizeof r->set_cookie,
             SESSION_COOKIE "=%s; HttpOnly; SameSite=Lax; Path=/; Max-Age=%d%s",
             set ? a->session_token : "", set ? SESSION_TTL_S : 0,
             secure_cookies() ? "; Secure" : "");
}

/* --- the API --- */

/* The game service's answer as the HTTP answer (its body taken over). */
static int send_answer(http_req *r, struct lws *wsi, api_answer *a)
{
    session_cookie(r, a);
    r->retry_after_s = a->retry_after_s;
    int rc = reply(r, wsi, a->status, a->content_type, a->body ? a->body : "", a->len);
    OPENSSL_cleanse(r->set_cookie, sizeof r->set_cookie);
    free(a->body);
    a->body = NULL;
    return rc;
}

void http_relay_answer(http_req *r, struct lws *wsi, int status, const char *ctype,
                       const char *body, size_t len)
{
    r->pending = false;
    if (reply(r, wsi, status, ctype, body, len))
        lws_set_timeout(wsi, PENDING_TIMEOUT_CLOSE_SEND, LWS_TO_KILL_ASYNC);
}

void http_answer(void *request, api_answer *a)
{
    http_req *r = request;
    r->pending = false;
    if (send_answer(r, r->wsi, a))
        lws_set_timeout(r->wsi, PENDING_TIMEOUT_CLOSE_SEND, LWS_TO_KILL_ASYNC);
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

#define API_ARGS_MAX 16
#define API_ARG_MAX  1024

static int api_route(http_req *r, struct lws *wsi)
{
    char addr[48];
    /* passed on by another server of the site: the client's own address
     * and session, as that server saw them */
    relay_origin from;
    bool relayed = relay_client(wsi,
                                r->method == HTTP_POST     ? "POST"
                                : r->method == HTTP_DELETE ? "DELETE"
                                                           : "GET",
                                r->path, &from);
    if (relayed)
        snprintf(addr, sizeof addr, "%s", from.ip);
    else
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
    /* RFC 8058: a mail program's one-click unsubscribe is a form's POST
     * (List-Unsubscribe=One-Click); its link's token is all it needs */
    bool one_click = strcmp(r->path, "/api/email/unsubscribe") == 0;
    if (r->body_len > 0 && !one_click && !body_type_accepted(wsi))
        return reply_error(r, wsi, 415, "unsupported_media_type",
                           "a request body must be sent as Content-Type: application/json");
    const char *path = r->path + 4; /* after "/api" */
    if (strcmp(path, "/health") == 0) {
        if (r->method != HTTP_GET)
            return reply_error(r, wsi, 405, "method_not_allowed", "method not allowed here");
        return reply_json(r, wsi, 200,
                          json_pack("{s:b,s:s,s:s,s:o,s:o}", "ok", 1, "version", AXIO_VERSION,
                                    "instance", service_instance(srv.svc), "urls",
                                    server_urls_json(), "queues", service_queues_json(srv.svc)));
    }
    /* the query's pieces, URL-decoded by lws (?ids= of 50 games is the
     * longest the client sends) */
    char frags[API_ARGS_MAX][API_ARG_MAX];
    const char *args[API_ARGS_MAX];
    int nargs = 0;
    for (int i = 0; i < API_ARGS_MAX; i++) {
        int len = lws_hdr_fragment_length(wsi, WSI_TOKEN_HTTP_URI_ARGS, i);
        if (len <= 0)
            break;
        if (len >= API_ARG_MAX)
            return reply_error(r, wsi, 414, "too_large",
                               "a query argument may have at most 1023 bytes");
        if (lws_hdr_copy_fragment(wsi, frags[nargs], sizeof frags[nargs], WSI_TOKEN_HTTP_URI_ARGS,
                                  i) < 0)
            break;
        args[nargs] = frags[nargs];
        nargs++;
    }
    char session_hash[65], auth[256];
    if (relayed)
        snprintf(session_hash, sizeof session_hash, "%s", from.session_hash);
    else
        http_session_hash(wsi, session_hash);
    api_request req = {
        .method = r->method == HTTP_GET      ? API_GET
                  : r->method == HTTP_POST   ? API_POST
                  : r->method == HTTP_DELETE ? API_DELETE
                                             : API_OTHER,
        .path = path,
        .args = args,
        .nargs = nargs,
        .body = r->body,
        .body_len = r->body_len,
        .session_hash = session_hash,
        .bearer = bearer_token(wsi, auth, sizeof auth),
        .ip = addr,
        .request = r,
        .relayed = relayed,
    };
    api_answer a;
    r->wsi = wsi;
    int rc = service_api(srv.svc, &req, &a);
    if (rc == API_RELAY) {
        r->pending = true;
        relay_http_start(r, wsi, a.relay_to, &req);
    }
    OPENSSL_cleanse(r->body, r->body_len); /* it may hold a password */
    OPENSSL_cleanse(auth, sizeof auth);
    if (rc == API_RELAY)
        return 0;
    if (rc == API_NOT_MINE)
        return reply_error(r, wsi, 404, "not_found", "no such endpoint");
    if (rc == API_STREAM) {
        r->stream = stream_start(wsi, &a.stream, addr);
        return r->stream ? 0 : -1;
    }
    if (rc == API_PENDING) {
        r->pending = true;
        return 0;
    }
    return send_answer(r, wsi, &a);
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
        return reply_error(r, wsi, 405, "method_not_allowed", "method not allowed here");
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
    if (lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_TRANSFER_ENCODING) > 0) {
        /* lws reads no chunked body: it would be taken as empty and its
         * bytes as the next request. Refused at once, unread, and closed */
        r->routed = true;
        r->close_after = true;
        return reply_error(r, wsi, 411, "length_required",
                           "a request body needs a Content-Length; chunked bodies are not read");
    }
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
