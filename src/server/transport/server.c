/*
 * server.c - `axio serve`: the libwebsockets context and its one event loop.
 *
 * The loop is libuv's (epoll; lws joins it as a "foreign" loop through
 * Debian's evlib-uv plugin), so a wake-up costs what happened, not the
 * number of open connections as poll() did. One protocol serves both HTTP
 * (http.c) and WebSocket (ws.c) on one port; its callback only
 * dispatches. Around the loop: the store is opened and every unfinished
 * game resumed before the loop serves anyone; the AI workers wake the loop
 * with lws_cancel_service; a housekeeping timer evicts idle finished games
 * and forgets idle client addresses; SIGTERM and SIGINT arrive as libuv
 * signal watchers that stop the loop, after which every connection is
 * closed, the workers stopped and the database closed.
 *
 * A second timer, four times a second, runs the game clocks (clock.c),
 * sends the viewers updates that are due (play.c) and closes connections
 * whose first headers did not arrive in time.
 *
 * The addresses printed at start (the public URL, or this computer's) come
 * from one function, each_address, which also gives GET /api/health its
 * "urls": what is printed is what the web client puts in invite links.
 *
 * Behind a reverse proxy (--trusted-proxy ADDR), a request that comes from
 * that address is counted for the last address of its X-Forwarded-For, and
 * the proxy's own connections are not limited per address.
 *
 * Connections per client address are counted from the socket's creation to
 * its destruction (LWS_CALLBACK_SERVER_NEW_CLIENT_INSTANTIATED, the first
 * callback where the peer is known, to LWS_CALLBACK_WSI_DESTROY; the entry
 * kept as the wsi's opaque user data) and refused at accept time
 * (LWS_CALLBACK_FILTER_NETWORK_CONNECTION) above the limit, as are those of
 * an address with too many connections still sending their headers.
 */
#include <uv.h> /* before libwebsockets.h (via transport.h): lws's libuv helpers need it */

#include "../base/log.h"
#include "transport.h"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#define HOUSEKEEPING_US (5 * LWS_US_PER_SEC)
#define CLOCK_TICK_US   (LWS_US_PER_SEC / 4)

server srv;

static uv_loop_t loop;
static bool loop_started;
static uv_signal_t sigterm_watch, sigint_watch;
static lws_sorted_usec_list_t housekeeping_timer, clock_timer;

typedef struct {
    http_req http;
    ws_conn ws;
} session;

void server_log(const char *fmt, ...)
{
    if (srv.opt.game.quiet)
        return;
    va_list ap;
    va_start(ap, fmt);
    log_line(fmt, ap);
    va_end(ap);
}

static bool is_trusted_proxy(const char *ip)
{
    return srv.opt.trusted_proxy && strcmp(ip, srv.opt.trusted_proxy) == 0;
}

/* The last address of X-Forwarded-For: the one the trusted proxy saw. */
static bool forwarded_for(struct lws *wsi, char *out, int outlen)
{
    char header[256];
    if (lws_hdr_copy(wsi, header, sizeof header, WSI_TOKEN_X_FORWARDED_FOR) <= 0)
        return false;
    char *last = strrchr(header, ',');
    last = last ? last + 1 : header;
    while (*last == ' ' || *last == '\t')
        last++;
    size_t n = strcspn(last, " \t");
    last[n] = 0;
    if (!*last || n >= 48)
        return false;
    ip_normalize(last, out, outlen);
    return true;
}

void client_ip(struct lws *wsi, char *out, int outlen)
{
    char raw[64] = "";
    lws_get_peer_simple(wsi, raw, sizeof raw);
    ip_normalize(raw, out, outlen);
    if (is_trusted_proxy(out) && !forwarded_for(wsi, out, outlen))
        ip_normalize(raw, out, outlen);
}

/* SIGTERM or SIGINT, delivered on the loop: uv_run returns to server_run. */
static void on_signal(uv_signal_t *watch, int sig)
{
    (void)watch;
    (void)sig;
    uv_stop(&loop);
}

/* hooks.wake, from the service's threads. */
static void wake_loop(void *arg)
{
    (void)arg;
    if (srv.ctx)
        lws_cancel_service(srv.ctx);
}

static void expire_headers(double now);

static void tick_clocks(lws_sorted_usec_list_t *sul)
{
    service_tick(srv.svc, mono_now());
    expire_headers(mono_now());
    ws_check_queues(mono_now());
    stream_keepalive(mono_now());
    lws_sul_schedule(srv.ctx, 0, sul, tick_clocks, CLOCK_TICK_US);
}

static void housekeeping(lws_sorted_usec_list_t *sul)
{
    service_housekeeping(srv.svc, mono_now());
    ip_table_prune();
    lws_sul_schedule(srv.ctx, 0, sul, housekeeping, HOUSEKEEPING_US);
}

/* --- connections per address --- */

/* A client connection as the limits see it, from its socket's creation to
 * its destruction (the wsi's opaque user data). Until its first request's
 * headers are complete it is also on the list of connections sending
 * headers: at most --max-header-waits-per-ip per address, and none for
 * longer than HEADER_TIMEOUT_S (a client that sends its headers a byte at a
 * time holds one of lws's header buffers, which all other clients share). */
#define HEADER_TIMEOUT_S 5.0

typedef struct peer {
    ip_entry *ip;
    struct lws *wsi;
    double since;             /* accepted, mono time */
    bool headers_pending;     /* on the pending list */
    struct peer *prev, *next; /* the pending list */
} peer;

static peer *headers_pending;

static bool accept_allowed(const struct lws_filter_network_conn_args *a)
{
    char raw[64] = "", ip[48];
    const struct sockaddr *sa = (const struct sockaddr *)&a->cli_addr;
    if (sa->sa_family == AF_INET)
        inet_ntop(AF_INET, &((const struct sockaddr_in *)sa)->sin_addr, raw, sizeof raw);
    else if (sa->sa_family == AF_INET6)
        inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)sa)->sin6_addr, raw, sizeof raw);
    ip_normalize(raw, ip, sizeof ip);
    if (is_trusted_proxy(ip) || (srv.svc && service_peer_host(srv.svc, ip)))
        return true;
    ip_entry *e = ip_entry_get(ip);
    return !e || (e->conns < srv.opt.limits.conns_per_ip &&
                  e->headers_pending < srv.opt.limits.headers_per_ip);
}

static void count_connection(struct lws *wsi)
{
    int fd = lws_get_socket_fd(wsi), sndbuf = SNDBUF_BYTES;
    ws_socket_accepted(fd);
    /* a small kernel buffer: one that grows to megabytes for each reader
     * that never reads is memory nobody counts (docs/server.md, Limits) */
    if (fd >= 0)
        setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof sndbuf);
    char raw[64] = "", ip[48];
    lws_get_peer_simple(wsi, raw, sizeof raw);
    ip_normalize(raw, ip, sizeof ip);
    /* not a client connection, or the proxy's (which sends whole headers),
     * or another server's of the site (it passes on connections of clients
     * it counted, which are counted here for them) */
    if (!ip[0] || is_trusted_proxy(ip) || (srv.svc && service_peer_host(srv.svc, ip)))
        return;
    ip_entry *e = ip_entry_get(ip);
    peer *p = e ? calloc(1, sizeof *p) : NULL;
    if (!p)
        return;
    p->ip = e;
    p->wsi = wsi;
    p->since = mono_now();
    p->headers_pending = true;
    p->next = headers_pending;
    if (headers_pending)
        headers_pending->prev = p;
    headers_pending = p;
    e->conns++;
    e->headers_pending++;
    lws_set_opaque_user_data(wsi, p);
}

static void headers_done(peer *p)
{
    if (!p || !p->headers_pending)
        return;
    p->headers_pending = false;
    p->ip->headers_pending--;
    if (p->prev)
        p->prev->next = p->next;
    else
        headers_pending = p->next;
    if (p->next)
        p->next->prev = p->prev;
    p->prev = p->next = NULL;
}

static void uncount_connection(struct lws *wsi)
{
    peer *p = lws_get_opaque_user_data(wsi);
    if (!p)
        return;
    headers_done(p);
    p->ip->conns--;
    lws_set_opaque_user_data(wsi, NULL);
    free(p);
}

/* Closes connections whose first headers are not complete in time. */
static void expire_headers(double now)
{
    for (peer *p = headers_pending; p; p = p->next)
        if (now - p->since > HEADER_TIMEOUT_S && p->since > 0) {
            p->since = 0; /* once */
            lws_set_timeout(p->wsi, PENDING_TIMEOUT_AWAITING_PROXY_RESPONSE, LWS_TO_KILL_ASYNC);
        }
}

/* A WebSocket upgrade: only to /ws/{id}, from this site (a page elsewhere
 * must not use a visitor's session cookie), and counted like an API
 * request of its address, so that connecting in a loop is limited. */
static int upgrade_allowed(struct lws *wsi)
{
    char uri[128] = "", ip[48];
    headers_done(lws_get_opaque_user_data(wsi));
    lws_hdr_copy(wsi, uri, sizeof uri, WSI_TOKEN_GET_URI);
    if (strncmp(uri, "/ws/", 4) != 0)
        return 1;
    if (http_foreign_origin(wsi)) {
        lws_return_http_status(wsi, HTTP_STATUS_FORBIDDEN, "not from this site");
        return 1;
    }
    relay_origin from;
    if (relay_client(wsi, "GET", uri, &from))
        snprintf(ip, sizeof ip, "%s", from.ip);
    else
        client_ip(wsi, ip, sizeof ip);
    ip_entry *e = ip_entry_get(ip);
    if (e && !ip_allow_request(e)) {
        lws_return_http_status(wsi, 429, "too many connections; slow down");
        return 1;
    }
    return 0;
}

/* The hooks, for either kind of connection the service is handed. */
static void conn_send(void *conn, msg *m)
{
    if (*(int *)conn == CONN_STREAM)
        stream_send(conn, m);
    else
        ws_send(conn, m);
}

static void conn_close(void *conn, int code)
{
    if (*(int *)conn == CONN_STREAM)
        stream_end(conn);
    else
        ws_close(conn, code);
}

static void conn_relay(void *conn, const char *address)
{
    if (*(int *)conn == CONN_STREAM)
        stream_end(conn); /* a stream is never passed on: the service answers API_RELAY first */
    else
        ws_relay(conn, address);
}

static int callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
                    size_t len)
{
    session *s = user;
    switch (reason) {
    case LWS_CALLBACK_FILTER_NETWORK_CONNECTION: return accept_allowed(user) ? 0 : 1;
    case LWS_CALLBACK_SERVER_NEW_CLIENT_INSTANTIATED: count_connection(wsi); return 0;
    case LWS_CALLBACK_WSI_DESTROY:
        if (s)
            ws_destroyed(&s->ws);
        uncount_connection(wsi);
        return 0;
    case LWS_CALLBACK_FILTER_HTTP_CONNECTION: headers_done(lws_get_opaque_user_data(wsi)); return 0;
    case LWS_CALLBACK_HTTP:
        headers_done(lws_get_opaque_user_data(wsi));
        return http_request(&s->http, wsi, in);
    case LWS_CALLBACK_HTTP_BODY: return http_body(&s->http, wsi, in, len);
    case LWS_CALLBACK_HTTP_BODY_COMPLETION: return http_body_done(&s->http, wsi);
    case LWS_CALLBACK_HTTP_WRITEABLE: return http_writeable(&s->http, wsi);
    case LWS_CALLBACK_CLOSED_HTTP:
        if (s)
            http_done(&s->http);
        return 0;
    case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION: return upgrade_allowed(wsi);
    case LWS_CALLBACK_ESTABLISHED:
        http_done(&s->http);
        memset(&s->ws, 0, offsetof(ws_conn, rx));
        return ws_open(&s->ws, wsi);
    case LWS_CALLBACK_RECEIVE: return ws_receive(&s->ws, in, len);
    case LWS_CALLBACK_SERVER_WRITEABLE: return ws_writeable(&s->ws);
    case LWS_CALLBACK_CLOSED: ws_closed(&s->ws); return 0;
    case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
        if (srv.svc)
            service_collect(srv.svc);
        return 0;
    default: break;
    }
    return lws_callback_http_dummy(wsi, reason, user, in, len);
}

static const struct lws_protocols protocols[] = {
    {"axio-protocol-1", callback, sizeof(session), MSG_MAX, 0, NULL, 0},
    /* our connections to the servers of the site that hold games (relay.c) */
    {RELAY_PROTOCOL, relay_callback, 0, 65536, 0, NULL, 0},
    {NULL, NULL, 0, 0, 0, NULL, 0},
};

/* No validity timers of lws's: they re-sort a list of every connection on
 * each frame received (a pong included), which at 10,000 connections was
 * most of the loop's time. A dead peer is found by TCP keepalive instead
 * (ka_* below), which the kernel runs; browsers also ping every 15 s. */
static const lws_retry_bo_t no_validity_timers = {
    .secs_since_valid_ping = 0,
    .secs_since_valid_hangup = 0,
};

static struct lws_context *create_context(const serve_options *opt)
{
    struct lws_context_creation_info info;
    void *loops[1] = {&loop};
    memset(&info, 0, sizeof info);
    info.port = opt->port;
    info.iface = opt->bind;
    info.protocols = protocols;
    info.vhost_name = "axio";
    info.server_string = "axio/" AXIO_VERSION;
    /* libuv (epoll): poll() over every connection on every wake-up was the
     * loop's largest cost at a few thousand connections */
    info.options = LWS_SERVER_OPTION_FAIL_UPON_UNABLE_TO_BIND |
                   LWS_SERVER_OPTION_DISABLE_OS_CA_CERTS | LWS_SERVER_OPTION_LIBUV;
    info.foreign_loops = loops;
    info.pcontext = &srv.ctx; /* NULL once lws has finished closing */
    if (!strchr(opt->bind, ':'))
        info.options |= LWS_SERVER_OPTION_DISABLE_IPV6;
    info.retry_and_idle_policy = &no_validity_timers;
    /* a peer silent for 30 s gets a TCP keepalive probe every 10 s; after 4
     * unanswered ones the connection is closed (about 70 s in all) */
    info.ka_time = 30;
    info.ka_interval = 10;
    info.ka_probes = 4;
    info.timeout_secs = 20;
    /* header buffers: enough that the per-address cap of connections still
     * sending headers leaves plenty for everyone else */
    info.max_http_header_pool = 1024;
    return lws_create_context(&info);
}

static int start_loop(void)
{
    signal(SIGPIPE, SIG_IGN);
    if (uv_loop_init(&loop) || uv_signal_init(&loop, &sigterm_watch) ||
        uv_signal_init(&loop, &sigint_watch))
        return -1;
    uv_signal_start(&sigterm_watch, on_signal, SIGTERM);
    uv_signal_start(&sigint_watch, on_signal, SIGINT);
    loop_started = true;
    return 0;
}

/* After lws_context_destroy: our handles close, and the loop runs until
 * lws has closed every connection of its own. */
static void close_loop(void)
{
    /* a context that failed to start may leave handles on the loop whose
     * callbacks were in the event library's plugin, unloaded since: the
     * loop must not run again (the process ends) */
    if (!loop_started || !srv.port)
        return;
    loop_started = false;
    uv_close((uv_handle_t *)&sigterm_watch, NULL);
    uv_close((uv_handle_t *)&sigint_watch, NULL);
    uv_run(&loop, UV_RUN_DEFAULT);
    uv_loop_close(&loop);
}

static int open_store(const serve_options *opt)
{
    char err[512], shown[512];
    srv.db = store_open_server(opt->db_path, opt->sync_full, err, sizeof err);
    if (!srv.db) {
        store_target_text(opt->db_path, shown, sizeof shown);
        fprintf(stderr, "axio serve: cannot use database %s: %s (it was left unchanged)\n", shown,
                err);
        return -1;
    }
    return 0;
}

/* The service's threads first (they wake the loop through the context),
 * then the connections (each viewer closed with the service), then the
 * games and the store. */
static void shut_down(void)
{
    if (srv.svc)
        service_stop(srv.svc); /* the store's writer commits what is queued */
    if (srv.ctx)
        lws_context_destroy(srv.ctx); /* closes every connection */
    close_loop();
    srv.ctx = NULL;
    service_free(srv.svc);
    srv.svc = NULL;
    ip_table_free();
    store_close(srv.db);
    srv.db = NULL;
}

/* The addresses players can open, by kind. */
enum { URL_PUBLIC, URL_HERE, URL_NETWORK };

/* Calls fn with each address where players can open the game: the public
 * URL alone when there is one; else the address on this computer
 * (localhost, or the one address listened on), then, when the server
 * listens on all addresses, this computer's own addresses on the network,
 * which friends use. */
static void each_address(const serve_options *opt, int port,
                         void (*fn)(int kind, const char *url, void *arg), void *arg)
{
    if (opt->public_url) {
        fn(URL_PUBLIC, opt->public_url, arg);
        return;
    }
    char url[INET6_ADDRSTRLEN + 32];
    bool any = strcmp(opt->bind, "0.0.0.0") == 0 || strcmp(opt->bind, "::") == 0;
    const char *host = any || strcmp(opt->bind, "127.0.0.1") == 0 ? "localhost" : opt->bind;
    snprintf(url, sizeof url, strchr(host, ':') ? "http://[%s]:%d/" : "http://%s:%d/", host, port);
    fn(URL_HERE, url, arg);
    struct ifaddrs *list;
    if (!any || getifaddrs(&list) != 0)
        return;
    for (struct ifaddrs *a = list; a; a = a->ifa_next) {
        char ip[INET6_ADDRSTRLEN];
        if (!a->ifa_addr || (a->ifa_flags & IFF_LOOPBACK) || !(a->ifa_flags & IFF_UP))
            continue;
        if (a->ifa_addr->sa_family == AF_INET)
            inet_ntop(AF_INET, &((struct sockaddr_in *)a->ifa_addr)->sin_addr, ip, sizeof ip);
        else
            continue; /* IPv6 link-local addresses need a zone: not worth sharing */
        snprintf(url, sizeof url, "http://%s:%d/", ip, port);
        fn(URL_NETWORK, url, arg);
    }
    freeifaddrs(list);
}

static void print_address(int kind, const char *url, void *arg)
{
    (void)arg;
    if (kind == URL_PUBLIC)
        printf("axio serve: players open %s\n", url);
    else if (kind == URL_HERE)
        printf("axio serve: open %s on this computer\n", url);
    else
        printf("axio serve: friends on your network open %s\n", url);
}

typedef struct {
    json_t *urls;
    char here[INET6_ADDRSTRLEN + 32];
} url_list;

static void add_address(int kind, const char *url, void *arg)
{
    url_list *list = arg;
    if (kind == URL_HERE)
        snprintf(list->here, sizeof list->here, "%s", url);
    else
        json_array_append_new(list->urls, json_string(url));
}

/* Where the site's other servers reach this one (HOST:PORT): the address
 * it listens on, or, listening on every address, its first network
 * address (docs/deploy.md: bind each instance to its private address). */
static void peer_address(const serve_options *opt, int port, char *out, size_t size)
{
    bool any = strcmp(opt->bind, "0.0.0.0") == 0 || strcmp(opt->bind, "::") == 0;
    char host[INET6_ADDRSTRLEN] = "127.0.0.1";
    struct ifaddrs *list;
    if (!any) {
        snprintf(host, sizeof host, "%s", opt->bind);
    } else if (getifaddrs(&list) == 0) {
        for (struct ifaddrs *a = list; a; a = a->ifa_next)
            if (a->ifa_addr && !(a->ifa_flags & IFF_LOOPBACK) && (a->ifa_flags & IFF_UP) &&
                a->ifa_addr->sa_family == AF_INET) {
                inet_ntop(AF_INET, &((struct sockaddr_in *)a->ifa_addr)->sin_addr, host,
                          sizeof host);
                break;
            }
        freeifaddrs(list);
    }
    snprintf(out, size, strchr(host, ':') ? "[%s]:%d" : "%s:%d", host, port);
}

json_t *server_urls_json(void)
{
    url_list list = {json_array(), ""};
    each_address(&srv.opt, srv.port, add_address, &list);
    if (json_array_size(list.urls) == 0 && list.here[0]) /* nothing but this computer */
        json_array_append_new(list.urls, json_string(list.here));
    return list.urls;
}

int server_run(const serve_options *opt)
{
    memset(&srv, 0, sizeof srv);
    srv.opt = *opt;
    limits_configure(&opt->limits);
    lws_set_log_level(LLL_ERR, lwsl_emit_stderr_notimestamp);
    if (start_loop()) {
        fprintf(stderr, "axio serve: cannot start the event loop (libuv)\n");
        return 1;
    }
    if (open_store(opt)) {
        shut_down();
        return 1;
    }
    srv.ctx = create_context(opt);
    /* on an event library, a port that cannot be bound leaves a context
     * without its vhost */
    struct lws_vhost *vhost = srv.ctx ? lws_get_vhost_by_name(srv.ctx, "axio") : NULL;
    int port = vhost ? lws_get_vhost_listen_port(vhost) : 0;
    if (port <= 0) {
        fprintf(stderr, "axio serve: cannot listen on %s port %d\n", opt->bind, opt->port);
        shut_down();
        return 1;
    }
    service_hooks hooks = {
        .send = conn_send,
        .close = conn_close,
        .relay = conn_relay,
        .answer = http_answer,
        .wake = wake_loop,
        .arg = NULL,
    };
    char err[256], address[STORE_ADDRESS_MAX + 1];
    peer_address(opt, port, address, sizeof address);
    service_config cfg = opt->game;
    cfg.address = address;
    srv.svc = service_new(&cfg, &hooks, srv.db, err, sizeof err);
    if (!srv.svc) {
        fprintf(stderr, "axio serve: %s\n", err);
        shut_down();
        return 1;
    }
    if (service_start(srv.svc)) {
        shut_down();
        return 1;
    }
    srv.port = port;
    char db_shown[512];
    store_target_text(opt->db_path, db_shown, sizeof db_shown);
    printf("axio serve: listening on http://%s:%d/ (database %s, web %s)\n", opt->bind, port,
           db_shown, opt->web_dir ? opt->web_dir : "none");
    each_address(opt, port, print_address, NULL);
    fflush(stdout);
    lws_sul_schedule(srv.ctx, 0, &housekeeping_timer, housekeeping, HOUSEKEEPING_US);
    lws_sul_schedule(srv.ctx, 0, &clock_timer, tick_clocks, CLOCK_TICK_US);
    uv_run(&loop, UV_RUN_DEFAULT);
    server_log("shutting down");
    shut_down();
    return 0;
}
