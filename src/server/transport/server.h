/*
 * server.h - `axio serve` as the command line starts it: the options, and
 * the one call that runs the server until SIGTERM or SIGINT.
 *
 * The transport (this folder) owns the event loop and every socket: HTTP
 * routing, static files, cookies, client addresses and the limits per
 * address, WebSocket connections. It opens the store (src/server/store/store.h),
 * makes the game service over it (src/server/game/service.h) and drives it
 * with plain calls; the service answers through hooks. docs/server.md has
 * the picture.
 */
#ifndef AX_SERVER_TRANSPORT_SERVER_H
#define AX_SERVER_TRANSPORT_SERVER_H

#include "../game/service.h"
#include "ratelimit.h"

#include <stdbool.h>

#define AXIO_VERSION "0.1.0"

typedef struct {
    int port;
    const char *bind;
    const char *db_path;
    const char *web_dir;       /* NULL: no static files */
    const char *public_url;    /* NULL: the addresses listened on */
    const char *trusted_proxy; /* NULL: no proxy's X-Forwarded-For is believed */
    limits_config limits;
    service_config game; /* the game service's settings */
    bool sync_full;
} serve_options;

/* Runs the server until SIGTERM or SIGINT; returns the exit code. */
int server_run(const serve_options *opt);

#endif
