/*
 * game.h - the game service's shared types: a game, its seats and clock, a
 * viewer's place in it, an API error, and the service that holds them all
 * (the service's public calls are service.h). Each module has its header:
 *
 *   service.c        the service: start, stop, the timers, collecting what
 *                    the worker threads did
 *   api.h            the HTTP API's game endpoints, and what every handler
 *                    uses
 *   lobby.h          games in memory: the table, loading, creating and
 *                    joining, ending without a result, the lobby's lists
 *   play.h           viewers: messages in, decisions (leaving too), per-viewer
 *                    broadcast, computer turns
 *   clock.h          game clocks; chat.h chat; hint.h hints;
 *                    analysis_jobs.h post-game analyses
 *   json_state.h     the protocol JSON of a game and of decisions
 *   accounts.h       accounts, sessions, profiles, the leaderboard;
 *                    people.h follows and a player's games; pairing.h
 *                    challenges and quick pairing
 *   budgets.h        limits counted for the whole site
 *   owners.h         the servers of one site: leases, adoption, relays
 *   worker_pool.h    the worker threads: ai_workers.h the computer players
 *                    and hints, auth.h password hashes
 *   names.h, levels.h, secrets.h, bucket.h, msg.h, job_queue.h  the helpers
 *
 * Everything lives in a `service` (no global); a game points to its
 * service. Return codes: 0 for done and -1 for failed (the reason in an
 * api_error or the log); a lookup adds 1 for "none"; anything with more
 * outcomes names them (LOAD_*, HOLD_*, API_*).
 */
#ifndef AX_SERVER_GAME_H
#define AX_SERVER_GAME_H

#include "../../ai/player.h"
#include "../../engine/axio.h"
#include "../base/bucket.h"
#include "../store/store.h"
#include "ai_workers.h"
#include "auth.h"
#include "secrets.h"
#include "service.h"

#include <jansson.h>
#include <stdbool.h>

#define NAME_MAX_LEN  STORE_NAME_MAX
#define LEVEL_MAX_LEN 23

enum { GAME_WAITING, GAME_RUNNING, GAME_OVER, GAME_EXPIRED, GAME_CANCELLED, GAME_ABORTED };
enum { SEAT_HUMAN, SEAT_AI };

#define LEFT_SEAT_LEVEL "greedy" /* the computer that plays for a player who left */
/* chat messages kept in memory: the newest, which a connecting client gets
 * (at most this many, and 16 KiB, chat.c) */
#define CHAT_KEEP       50
#define CHAT_STORED_MAX 1000 /* messages a game's chat may hold in all */

typedef struct {
    uint8_t kind;
    bool taken; /* a human took it (computer seats always are) */
    char name[NAME_MAX_LEN + 1];
    char level[LEVEL_MAX_LEN + 1];
    char token_hash[65];
    int conns;          /* open connections holding this seat */
    double away_since;  /* mono time its last connection closed (or the server started) */
    ax_player *ai;      /* a computer seat's player, or the one playing for a leaver */
    int64_t account_id; /* the account (or rated computer level) it is bound to, or 0 */
    bool bot;           /* that account is a bot's (docs/bot-api.md) */
    int rating;         /* with an account: its current R in the game's variant */
    bool has_change;    /* rated and over: */
    int rating_change;  /* R after the game minus R before */
} game_seat;

enum { GAME_CLOCK_NONE, GAME_CLOCK_REALTIME, GAME_CLOCK_DAILY };

/* A game's clock (clock.c). left_ms counts down only for the seat in
 * `running`, from `since`; every other seat's value is exact. */
typedef struct {
    int kind;
    int base_s, increment_s, per_move_s;
    int64_t left_ms[AX_MAX_PLAYERS];
    int running; /* the seat whose clock runs, or -1 */
    double since;
} game_clock;

typedef struct {
    int seat;
    char name[NAME_MAX_LEN + 1];
    char *text;
    int64_t at;         /* unix milliseconds */
    int64_t account_id; /* who wrote it (blocks hide it, moderation.c), or 0 */
    int n;              /* its number in the game's chat (a report names it) */
} chat_msg;

/* An address's chat allowance in one game (chat.c). */
typedef struct {
    char ip[48];
    bucket rate;
} chat_addr;

typedef struct game {
    service *svc;
    char id[GAME_ID_LEN + 1];
    int status;
    int64_t created, ended; /* unix seconds */
    int creator;            /* the seat of the player who created it */
    int aborted_by;         /* GAME_ABORTED: the seat that aborted it */
    bool rated;             /* ratings change when it ends */
    bool guided;            /* a guided first game: dealt from its variant's fixed seed */
    bool in_event;          /* a table of an event (events.c): never aborted; no-shows leave */
    char event_id[24];      /* in_event: the event's id (a game page links back to it) */
    char rematch[GAME_ID_LEN + 1], rematch_of[GAME_ID_LEN + 1];
    double viewers_sent; /* mono time of the last viewers update */
    bool viewers_dirty;  /* one is due (play_flush_viewers) */
    ax_game g;
    game_seat seats[AX_MAX_PLAYERS];
    game_clock clock;
    uint8_t leave_queued[AX_MAX_PLAYERS]; /* 1 + why of a leave waiting for a store write */
    chat_msg chat[CHAT_KEEP];             /* a ring, the oldest at chat_first */
    int nchat, chat_first, chat_next;     /* chat_next: the number of the next message */
    int chat_writes;                      /* chat messages being stored */
    msg *chat_history;                    /* its chat_history message, made once per change */
    chat_addr *chat_addrs;                /* per address (chat.c), made on first chat */
    int nchat_addrs;
    char seed_hash[65];
    ax_event *events; /* every event since the deal, in order */
    int nevents, events_cap;
    uint64_t seq;    /* messages sent on this game's channel */
    viewer *viewers; /* connections watching, players and spectators */
    int nviewers, nspectators;
    uint64_t lane;   /* its computers' turn among the queued: its creator's address */
    bool ai_busy;    /* a worker is deciding for this game */
    bool ai_hurried; /* the last computer decision got less than its time: the server is busy */
    int hints_busy;  /* hint jobs in flight (hint.c); the game stays in memory */
    struct ai_job *hint_job[AX_MAX_PLAYERS]; /* a seat's hint being searched (hint.c) */
    struct pending_decision *pending;        /* a decision being stored (play.c) */
    bool taking_back;                        /* a take-back is being stored (play.c) */
    ax_rng hint_rng;
    double idle_since; /* when the last viewer left */
    /* the servers of one site (owners.c) */
    double held_since;    /* mono time this server took the game */
    double release_asked; /* mono time another server asked for it, or 0 */
    bool lost;            /* another server holds it now: dropped once idle */
    char *entry_written;  /* the lobby entry last handed to the store */
    struct game *hash_next, *prev, *next;
} game;

typedef struct {
    int http; /* status */
    const char *code;
    char message[160];
    const char *reason; /* a machine-readable detail of the code (a refused name's), or NULL */
    int retry_after_s;  /* 429: when to ask again (Retry-After), or 0 */
} api_error;

/* Who creates a game: the budgets it draws on (budgets.c). */
typedef struct {
    const char *ip;
    int64_t account_id; /* 0: a guest */
} creator;

typedef struct analysis_queue analysis_queue;

#define LOBBY_HASH_SIZE 4096
#define SEEN_SLOTS      1024

struct service {
    service_config cfg;
    service_hooks hooks;
    store *db;
    ai_pool *ai;    /* the computers' decisions */
    ai_pool *hints; /* hints, in the background */
    auth_pool *auth;
    analysis_queue *analyses;
    bool stopping;
    uint64_t last_viewer_id; /* play.c */
    double last_clock_save;  /* clock.c */
    /* the games in memory (lobby.c): a hash table on the id, a list in
     * creation order */
    game *table[LOBBY_HASH_SIZE];
    game *oldest, *newest;
    int ngames;
    int answers_waiting;           /* play.c: bots' requests waiting for their decision's commit */
    struct accounts *accounts;     /* accounts.c's */
    struct owners *owners;         /* owners.c's: the servers of one site */
    struct bots *bots;             /* bots.c's: the bots' event streams */
    struct moderation *moderation; /* moderation.c's: the word lists */
    struct push_state *push;       /* push.c's: notifications (issue 52) */
    double mail_checked;           /* mail.c: when digests were last looked for */
    struct events *events;         /* events.c's: the runner's state */
    ax_game scratch_view;          /* a seat's view for `you` (json_state.c) */
    /* accounts seen lately (people.c) */
    struct seen_slot {
        int64_t account_id;
        double at;
    } seen[SEEN_SLOTS];
};

/* Unix milliseconds. */
int64_t unix_ms(void);
/* The JSON library's error text made safe to send: its text can end in
 * half a UTF-8 character (the input's bytes), which no JSON string may.
 * The engine's ax_json_error_text (src/engine/reason.h); only lobby_load.c's
 * replay still calls it by this name. */
void json_error_text(const json_error_t *e, char *out, size_t size);

#endif
