/*
 * engine_client.h - the asking side of the engine protocol
 * (docs/engine-protocol.md): runs an external engine, a shell command, and
 * asks it for decisions, each answer within a time limit.
 *
 * Everything sent is built from the asking seat's view, so an engine is
 * never told another seat's tiles. Every answer is checked: a decision must
 * be one the rules allow for that seat. A failed engine is stopped; the
 * caller decides what the failure costs (`axio arena`: the seat leaves).
 */
#ifndef AX_ENGINE_CLIENT_H
#define AX_ENGINE_CLIENT_H

#include "../engine/axio.h"

#include <stddef.h>
#include <sys/types.h>

typedef struct engine_client engine_client;

typedef enum {
    ENGINE_OK,
    ENGINE_BAD_ANSWER, /* not the answer the protocol asks for, or an `error` */
    ENGINE_ILLEGAL,    /* a decision the rules forbid */
    ENGINE_LATE,       /* no answer within the time limit */
    ENGINE_GONE        /* the engine ended, closed its output or never started */
} engine_status;

/* What the engine said about one decision (-1: it did not say). */
typedef struct {
    double seconds; /* wall clock from the request to the answer, as measured here */
    double cpu_ms;  /* the engine's own "info", when given */
    long playouts;
} engine_timing;

/* Runs `command` with /bin/sh -c in a process group of its own (the group's
 * id is the returned pid), its stdin and stdout the non-blocking pipes *to
 * and *from (close-on-exec), its stderr ours. -1 with the reason in err. */
pid_t engine_spawn(const char *command, int *to, int *from, char *err, size_t errlen);
/* Starts `command` with /bin/sh -c in a process group of its own, with its
 * stdin and stdout as the protocol's pipes (stderr is shared), and waits up
 * to limit_ms for the answer to `hello`. NULL with the reason in err. */
engine_client *engine_start(const char *command, int limit_ms, char *err, size_t errlen);
/* The name the engine gave in `ready`. */
const char *engine_name(const engine_client *e);
/* Tells the engine a game begins: configuration, its seat, the seat names
 * and, when `seed` is not NULL, a seed for its random choices. */
engine_status engine_newgame(engine_client *e, const ax_game *view, int seat,
                             const char *const *names, const uint64_t *seed, int limit_ms,
                             char *err, size_t errlen);
/* Asks for the decision of `seat`, which is to move in `view` (the seat's
 * view: ax_view). movetime_ms and playouts go into the request; the answer
 * must come within limit_ms. ENGINE_OK: *out is a legal decision. */
engine_status engine_go(engine_client *e, const ax_game *view, int seat, int movetime_ms,
                        long playouts, int limit_ms, ax_move *out, engine_timing *timing, char *err,
                        size_t errlen);
/* Ends the engine: `quit` and a short wait when `gently`, then its process
 * group is killed and reaped. NULL is allowed. */
void engine_stop(engine_client *e, bool gently);

#endif
