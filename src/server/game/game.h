/*
 * game.h - what the game service's modules share (the service's public
 * calls are service.h).
 *
 *   service.c       the service: start, stop, the timers, collecting what
 *                   the worker threads did
 *   api.c           the HTTP API's game endpoints: create, join, list,
 *                   record, analysis, cancel
 *   lobby.c         games in memory: create, join, seats and tokens, load
 *                   from the store (replaying decisions), expire, cancel,
 *                   rematch, evict
 *   play.c          viewers (a game's connections): messages in, decisions
 *                   (leaving too), per-viewer broadcast, computer turns
 *   clock.c         game clocks: settings, charging, running out
 *   chat.c          chat messages: checked, stored, then sent to everyone
 *   hint.c          hints; analysis_jobs.c post-game analyses
 *   json_state.c    the protocol JSON of a game and of decisions
 *   accounts.c      accounts, sessions, profiles, the leaderboard
 *   auth.c          password hashes on worker threads; ai_workers.c the
 *                   computer players' threads; secrets.c ids, tokens, SHA-256
 *
 * Everything lives in a `service` (no global); a game points to its service.
 */
#ifndef AX_SERVER_GAME_H
#define AX_SERVER_GAME_H

#include "../../ai/player.h"
#include "../../engine/axio.h"
#include "../store/store.h"
#include "ai_workers.h"
#include "auth.h"
#include "bucket.h"
#include "secrets.h"
#include "service.h"

#include <jansson.h>
#include <stdbool.h>

#define NAME_MAX_LEN  STORE_NAME_MAX
#define LEVEL_MAX_LEN 23

/* --- games (lobby.c) --- */

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
    int64_t at; /* unix milliseconds */
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

/* Loads every unfinished game from the store; one that can no longer be
 * replayed is set aside (status damaged, a line on stderr). -1 (reason
 * printed) when the store fails. */
int lobby_resume(service *svc);
void lobby_free(service *svc);
/* lobby_hold's game, or NULL wherever else it is. */
game *lobby_find(service *svc, const char *id);
/* A game set aside as damaged: 0 with its stored form (game and seats, no
 * decisions) in out, to release with stored_game_free; -1 for any other id. */
int lobby_damaged(service *svc, const char *id, stored_game *out);
/* GET /api/games: the public list of waiting and running games, people
 * first; each argument is the URL's (NULL when absent). With a limit or a
 * cursor {"games":[...],"next":CURSOR|null}, else the first games as a
 * list. NULL with err for a bad argument. */
json_t *lobby_list_query(service *svc, const char *status, const char *variant, const char *limit,
                         const char *cursor, api_error *err);
/* Creates or joins a game; `account` (NULL for a guest) is the session's:
 * the seat is bound to it and takes its name. A new game draws on the
 * creator's address's budgets (ip): games, games against the strongest
 * computers (the account's too), and games waiting at once. */
int lobby_create(service *svc, const json_t *body, const stored_account *account, const char *ip,
                 game **out, int *seat, char token[TOKEN_LEN + 1], api_error *err);
int lobby_join(game *gm, const json_t *body, const stored_account *account, int *seat,
               char token[TOKEN_LEN + 1], api_error *err);
/* A seat of a game made for two: a person's account (name, id), or a
 * computer level. */
typedef struct {
    int64_t account_id;
    const char *name;
    const char *level; /* a computer's: NULL for a person */
} pair_seat;
/* Creates a running two-player game of the standard mode with these seats,
 * each person's bound to the account (the seat is played with its session:
 * no token is given out); by (NULL: none) pays for it (lobby_create). */
int lobby_create_pair(service *svc, int variant, const game_clock *clock, bool rated,
                      const pair_seat seats[2], const creator *by, game **out, api_error *err);
/* A game just made that will not be played (its challenge or seek was
 * settled otherwise meanwhile): it is cancelled. */
void lobby_abandon_new(game *gm);
/* An account was deleted: its seats in memory take the neutral name. */
void lobby_account_deleted(service *svc, int64_t account_id);
/* A rated game ended: every seat in memory bound to the account shows its
 * new rating in the variant. */
void lobby_rating_changed(service *svc, int64_t account_id, int variant, int rating);
/* The seat a token proves, or -1. */
int lobby_seat_of_token(const game *gm, const char *token);
/* A seat of a person's account that has not left (`wanted` when it is one,
 * else the first), or -1. */
int lobby_seat_of_account(const game *gm, int64_t account_id, int wanted);
/* Appends a decision's events to the game's log. */
int lobby_log_events(game *gm, const ax_events *events);
const char *lobby_status_name(int status);
/* Frees finished games nobody watches, expires waiting games whose creator
 * is gone, makes the players of a game nobody can finish leave (every
 * person away for --absent-s, a computer in it, no clock), and restarts
 * computer players whose turn was lost to a failed write; called by the
 * housekeeping timer. */
void lobby_housekeeping(service *svc, double now);
int lobby_count(const service *svc);
/* Whether a game is waiting or running. */
bool lobby_is_open(const game *gm);
/* Whether a running game of people only, without a clock, has had nobody
 * connected for --absent-s: not listed publicly (it expires after
 * --waiting-ttl-s). */
bool lobby_dormant(const game *gm);
/* GET /api/games?status=over: the newest finished games. */
json_t *lobby_finished_json(service *svc);
/* GET /api/games?ids=...: the lobby entries of these games, any status. */
json_t *lobby_entries_json(service *svc, const char *ids);
/* Whether a running game may still be aborted: no person has placed more
 * than one tile (docs/online-play.md, "Aborting"). */
bool lobby_abortable(const game *gm);
/* A seat aborts the game: it ends without a result, no rating changes. */
int lobby_abort(game *gm, int seat, api_error *err);
/* DELETE /api/games/{id}: the creator cancels a waiting game. */
int lobby_cancel(game *gm, const char *token, api_error *err);
/* The follow-up game of a finished one, created on first ask (a game
 * created from the asker's address ip); `seat` of the old game takes its
 * seat there. In a rated game a seat bound to a person's account needs that
 * account's session (session_account, 0 for none). */
int lobby_rematch(game *gm, int seat, int64_t session_account, const char *ip, game **out,
                  int *new_seat, char token[TOKEN_LEN + 1], api_error *err);
/* Whether a seat may be played only with its account's session: a rated
 * game's seat bound to a person's account. */
bool lobby_seat_needs_session(const game *gm, int seat);
/* Adds a seat's "account", "rating" and "rating_change" to its JSON. */
void lobby_seat_account_json(json_t *o, const game_seat *s);
/* Builds the game again from its stored decisions (after a take-back). */
int lobby_rewind(game *gm);
/* Gives a seat whose player left a computer player. */
void lobby_seat_left(game *gm, int seat);
/* Every game in memory, for the timers. */
game *lobby_first(const service *svc);

/* Where a game is, for a place that means to use it here (a connection, a
 * request about the game, a rematch, an adoption): HOLD_HERE with *out
 * when this server holds it, taking its lease and loading it from the
 * store if it was held nowhere; HOLD_ELSEWHERE when another server holds
 * it (its instance id in holder, unless NULL or not known); HOLD_MISSING
 * for an unknown or damaged game (one found damaged now is set aside);
 * HOLD_FAILED when the store failed. Reads that only look (lists, ?ids=)
 * never call it: they use lobby_local and the store's entries. */
enum { HOLD_HERE, HOLD_ELSEWHERE, HOLD_MISSING, HOLD_FAILED };
int lobby_hold(service *svc, const char *id, game **out, char holder[STORE_INSTANCE_LEN + 1]);
/* A game in memory here (lost ones too), or NULL; nothing is loaded. */
game *lobby_local(service *svc, const char *id);
/* The lobby entry of a game (JSON), as the list shows it. */
json_t *lobby_entry_json(const game *gm);
/* Takes a game out of memory: its viewers are closed with the code (1012:
 * it moved to another server) and it is freed. Only when it is idle: no
 * decision, chat or hint in flight, no computer thinking. */
void lobby_drop(game *gm, int close_code);
/* Whether nothing of a game is in flight (it may be dropped). */
bool lobby_idle(const game *gm);

/* --- budgets: limits counted for the whole site (budgets.c) --- */

enum {
    BUDGET_GAMES,              /* games created, rematches too, per address */
    BUDGET_SIGNUPS,            /* accounts created, per address */
    BUDGET_PASSWORD_CHECKS,    /* logins tried, right or wrong, per address */
    BUDGET_FAILED_LOGINS_IP,   /* wrong passwords per address */
    BUDGET_FAILED_LOGINS_NAME, /* wrong passwords per name */
    BUDGET_LOGINS_ACCOUNT,     /* logins per account */
    BUDGET_HINTS_IP,           /* hints per address */
    BUDGET_HINTS_ACCOUNT,      /* hints per account */
    BUDGET_STRONG_IP,          /* games against strong or expert, per address */
    BUDGET_STRONG_ACCOUNT,     /* the same per account */
    BUDGET_ANALYSES_IP,        /* analyses asked for, per address */
    BUDGET_ANALYSES_ACCOUNT,   /* the same per account */
    BUDGET_KINDS
};

#define LOGIN_ATTEMPTS_MAX   5     /* wrong passwords per address, and per name, ... */
#define LOGIN_WINDOW_S       900.0 /* ... in 15 minutes */
#define SESSIONS_PER_ACCOUNT 20    /* the newest stay; a new one revokes the oldest */

/* How many uses of a kind a window allows. */
int budget_max(const service *svc, int kind);
/* Counts `cost` uses for whom (an address, an account id, a name key):
 * true when they fit (a negative cost gives uses back), false (nothing
 * counted; *retry_s, unless NULL: how long until the window ends) when not. */
bool budget_take(service *svc, int kind, const char *who, int cost, double *retry_s);
/* Whether the budget has no use left (*retry_s: until when). */
bool budget_full(service *svc, int kind, const char *who, double *retry_s);
/* budget_take of one use for an account (true without one: id <= 0). */
bool budget_take_account(service *svc, int kind, int64_t account_id, double *retry_s);
/* Forgets budgets long unused (housekeeping). */
void budgets_housekeeping(service *svc);
/* The computer players' lane (ai_workers.h) of an address, and of a hash
 * in hex (a stored game's creator_addr). */
uint64_t address_lane(const service *svc, const char *ip);
uint64_t lane_of_hash(const char *hex);

/* --- the servers of one site (owners.c) ---
 *
 * With a store shared by several servers (PostgreSQL), a game is held by
 * one server at a time through a lease (store.h); a request for a game
 * held elsewhere asks its holder to let it go and is answered "moving"
 * (HTTP 503 game_moving, a WebSocket closed 1013), which clients retry.
 * Games no live server holds are adopted. docs/server.md, "Several
 * servers". Without a shared store every call here is a no-op but
 * owners_submit, which submits. */

void owners_start(service *svc);
/* Takes a game's lease before it is loaded or created: 0 (or not shared),
 * 1 held by another server (its id in holder unless NULL), -1 on error. */
int owners_take(service *svc, const char *id, char holder[STORE_INSTANCE_LEN + 1]);
/* Asks the holder of a game to let it go (for a change that must be made
 * here: a rematch's seat); it does once the game is idle. */
void owners_ask_release(service *svc, const char *id);
/* Where the site's other servers reach a server of the site: 0 with its
 * address, -1 when not known. */
int owners_address(service *svc, const char *instance, char address[STORE_ADDRESS_MAX + 1]);
/* A game could not be loaded after all: its lease goes. */
void owners_release(service *svc, const char *id);
/* Submits a write of a held game, fenced by its lease. */
void owners_submit(game *gm, store_write *w);
/* A write of the game failed because another server holds it now. */
void owners_lost(game *gm);
/* Whether a game is on its way out (no new computer turns). */
bool owners_leaving(const game *gm);
/* At the start: adopts every game nobody holds; -1 (reason printed) when
 * the store fails. */
int owners_adopt_all(service *svc);
/* Four times a second: renews leases, adopts orphans, lets games go,
 * writes changed lobby entries. */
void owners_tick(service *svc, double now);
/* What the other servers said (after hooks.wake). */
void owners_collect(service *svc);
/* Tells the other servers of a rating or a deleted account. */
void owners_tell(service *svc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The lobby's list adds the games other servers hold: fn for each. */
void owners_each_remote_entry(service *svc,
                              void (*fn)(const char *id, int64_t created, int group, json_t *entry,
                                         void *arg),
                              void *arg);
/* A game held elsewhere: its lobby entry as written (a new reference), or
 * NULL. */
json_t *owners_remote_entry(service *svc, const char *id);
/* At shutdown (SIGTERM): lets every game go at once, for the others. */
void owners_stop(service *svc);

/* --- play (play.c) --- */

/* A connection watching a game, as the service sees it: which game, which
 * seat (or none), who (address, session). The transport holds the socket
 * (`conn`) and sends what the service hands it. */
struct viewer {
    uint64_t id; /* unique while the service runs: hints find their asker by it */
    service *svc;
    void *conn; /* the transport's, for the hooks */
    game *gm;   /* NULL: an error was sent, the connection closes */
    int seat;   /* -1: spectator */
    unsigned flags;
    bool attached, closed;
    char ip[48];                             /* the client's address (limits per address) */
    char session_hash[65];                   /* SHA-256 of the session cookie it came with, or "" */
    char relayed_by[STORE_INSTANCE_LEN + 1]; /* the server that passed it on, or "" */
    int64_t account_id;                      /* its session's account when it opened, or 0 */
    bucket chat_rate;                        /* chat messages (chat.c) */
    viewer *prev, *next;                     /* the game's viewers */
};

/* Sends pending viewers updates (a spectator or a seat came or went) of
 * games whose last one is old enough; called by the clock timer. */
void play_flush_viewers(service *svc, double now);

/* Sends the fresh state to everyone watching (after a join or a
 * connection change). */
void play_broadcast_state(game *gm);
/* Starts a computer player's turn if it is one. */
void play_maybe_ai(game *gm);
/* Collects finished computer decisions (on the loop thread). */
void play_collect_ai(service *svc);
/* Announces the decisions the store has committed (on the loop thread). */
void play_collect_writes(service *svc);
/* Makes `seat` leave (rules 6) through the one decision path; when another
 * decision is being stored, the leave waits for it. */
void play_leave(game *gm, int seat, int why);
/* The checks every decision passes (a seated player who has not left, to
 * move in a running game, nothing being stored); sends the error when one
 * fails. */
bool play_may_act(viewer *c);
/* Sends a message (JSON text) to everyone watching a game. */
void play_broadcast_text(game *gm, const char *text);
/* Queues a message (JSON, released) for one connection. */
void play_send_json(viewer *c, json_t *msg);
void play_send_error(viewer *c, const char *code, const char *message);
/* A viewer's text message (service_message). */
void play_message(viewer *c, const char *text, size_t len);

/* --- hints (hint.c) --- */

/* {"type":"hint"} from the seat to move: the judge's best, searched on a
 * worker from that seat's view. */
void hint_handle(viewer *c);
/* A hint job is back (on the loop thread): answers its asker if the
 * position is still the one it was asked for; frees the job's judge. */
void hint_finished(game *gm, ai_job *job);
/* A viewer goes: the hint it asked for is not searched further. */
void hint_abandon(viewer *c);
/* Hints waiting for the hint worker, at most (more are refused: busy). */
#define HINT_QUEUE_MAX 16

/* --- post-game analysis (analysis_jobs.c) --- */

typedef struct analysis_queue analysis_queue;

/* Starts the analysing thread, judging with `playouts` per decision;
 * notify(arg) after each finished analysis. NULL on failure. */
analysis_queue *analysis_start(long playouts, void (*notify)(void *), void *arg);
/* The judge's seed for a seat of a game: the same for its hints and its
 * analysis, so that a hinted decision is the judge's best there too; made
 * from the game's secret seed through SHA-256, so hints reveal nothing of it. */
uint64_t analysis_seed(uint64_t game_seed, int seat);
/* Cancels what runs and frees every request (and the queue). */
void analysis_stop(analysis_queue *aq);
/* Analyses waiting or being made. */
int analysis_waiting(analysis_queue *aq);
/* GET /api/games/{id}/analysis?seat=S asked by `by`: 0 with *text (the
 * result, malloc'd: 200) or *progress ({"status":"working","judged",
 * "total"}: 202), or -1 with err. */
int analysis_request(game *gm, int seat, const creator *by, char **text, json_t **progress,
                     api_error *err);
/* Stores finished analyses (on the loop thread). */
void analysis_collect(service *svc);
/* A stored analysis came back from the writer. */
void analysis_written(service *svc, store_write *w);

/* --- clocks (clock.c) --- */

/* Reads POST /api/games "clock" (absent or null: none); -1 with err set. */
int clock_parse(const json_t *v, game_clock *out, api_error *err);
/* The settings as JSON (null without a clock). */
json_t *clock_settings_json(const game_clock *c);
/* Settings from their stored JSON; false when unreadable. */
bool clock_from_json_text(const char *text, game_clock *out);
/* Puts every seat's clock at its start (the game starts). */
void clock_reset(game *gm);
/* Milliseconds left of a seat now. */
int64_t clock_left_now(const game *gm, int seat);
/* After a decision of `seat` (or at a start or load): charges the clock
 * that ran, adds the increment or the daily allowance, and starts the
 * clock of the seat to move if a person plays it. decided: a place or
 * swap of `seat` (not a leave). */
void clock_after_decision(game *gm, int seat, bool decided);
/* The clocks as they will be after such a decision led to game `next`,
 * as stored (see clock_left_text). */
void clock_text_after(const game *gm, const ax_game *next, int seat, bool decided, char *out,
                      size_t size);
/* The clocks as stored: a JSON list of milliseconds per seat now. */
void clock_left_text(const game *gm, char *out, size_t size);
/* Unix milliseconds by which the seat to move must decide, or -1. */
int64_t clock_deadline(const game *gm);
/* The timer: runs out clocks, and saves running ones once a second. */
void clock_tick(service *svc, double now);

/* --- chat (chat.c) --- */

void chat_handle(viewer *c, const json_t *msg);
/* The chat_history message a connecting client gets (the newest messages:
 * at most CHAT_KEEP, and CHAT_HISTORY_BYTES of them), made once after each
 * change and shared; the game keeps its reference. NULL out of memory. */
msg *chat_history_msg(game *gm);
/* Takes over the chat a stored game was loaded with. */
void chat_load(game *gm, stored_game *sg);
void chat_free(game *gm);
/* A written chat message is durable: send it to everyone. */
void chat_written(service *svc, store_write *w);

/* Unix milliseconds. */
int64_t unix_ms(void);

/* --- the HTTP API (api.c, accounts.c) --- */

/* Answers (each returns 0): JSON (the value released), an error, an
 * api_error (with its reason when it has one), text of a type, or none. */
int api_reply_json(api_answer *a, int status, json_t *body);
int api_reply_error(api_answer *a, int status, const char *code, const char *message);
int api_reply_fail(api_answer *a, const api_error *err);
int api_reply_text(api_answer *a, int status, const char *type, char *text, size_t len);
int api_reply_empty(api_answer *a, int status);
/* The request's JSON body ({} when empty); NULL with err (400) when it is
 * not JSON. */
json_t *api_body(const api_request *r, api_error *err);
/* The value of a query argument `name` (copied into out), NULL when it is
 * absent or longer than out. */
const char *api_query_arg(const api_request *r, const char *name, char *out, size_t size);

/* --- accounts (accounts.c) --- */

/* Makes sure every computer level is a player and every account has its
 * look-alike key; -1 (reason printed) on failure. */
int accounts_start(service *svc);
/* Collects finished password jobs (on the loop thread). */
void accounts_collect(service *svc);
/* The /api paths of accounts, sessions, players and the leaderboard: 0
 * answered, 1 pending (a password job), -2 for another path. */
int accounts_route(service *svc, const api_request *r, api_answer *out);
/* A pending request's connection closed: its job, if any, is dropped. */
void accounts_abandon(service *svc, void *request);
/* The account of a session by its hash, if the session is still valid
 * (it is then seen: people_seen). */
bool accounts_session_by_hash(service *svc, const char *hash, stored_account *out);
/* The account of a name as people type it: 0, 1 when there is none, -1. */
int accounts_by_name(service *svc, const char *name, stored_account *out);
/* Forgets old login failures and expired sessions. */
void accounts_housekeeping(service *svc, double now);
/* Frees the jobs left once the workers stopped. */
void accounts_free(service *svc);
/* {"rating","deviation","games"} */
json_t *rating_json(rt_rating r, int games);

/* --- a player's people and games (people.c) --- */

/* The account was seen now (written to the store at most once a minute). */
void people_seen(service *svc, int64_t account_id);
/* Every connection's account is seen (housekeeping). */
void people_housekeeping(service *svc);
/* /api/me/games, /api/me/follows[/NAME], /api/players?q=: 0 answered, -2
 * for another path. */
int people_route(service *svc, const api_request *r, api_answer *out);

/* --- challenges and quick pairing (pairing.c) --- */

/* /api/challenges[/ID[/accept|/decline]], /api/me/challenges,
 * /api/seeks[/ID]: 0 answered, -2 for another path. */
int pairing_route(service *svc, const api_request *r, api_answer *out);
/* Forgets old seeks and settled challenges (hourly). */
void pairing_housekeeping(service *svc);

/* --- the service (service.c) --- */

#define LOBBY_HASH_SIZE 4096
#define SEEN_SLOTS      1024

struct account_job;

struct service {
    service_config cfg;
    service_hooks hooks;
    store *db;
    ai_pool *ai;    /* the computers' decisions */
    ai_pool *hints; /* hints, in the background */
    auth_pool *auth;
    analysis_queue *analyses;
    bool stopping;
    uint64_t last_viewer_id;
    double last_clock_save; /* clock.c */
    /* the games in memory (lobby.c): a hash table on the id, a list in
     * creation order */
    game *table[LOBBY_HASH_SIZE];
    game *oldest, *newest;
    int ngames;
    /* accounts (accounts.c) */
    double last_session_prune;
    struct account_job *pending_jobs; /* password jobs whose request waits */
    ax_game scratch_view;             /* a seat's view for `you` (json_state.c) */
    /* accounts seen lately (people.c) */
    struct seen_slot {
        int64_t account_id;
        double at;
    } seen[SEEN_SLOTS];
    /* the servers of one site (owners.c) */
    bool shared, released;
    char instance[STORE_INSTANCE_LEN + 1];
    char site_key[65]; /* the site's secret: signs passed-on requests, keys stored addresses */
    struct peer_server *peers; /* the site's live servers and their addresses */
    int npeers;
    double next_renew, next_orphans, next_entries, leases_ok_until;
    struct remote_entry *remote; /* the other servers' lobby entries, cached */
    int nremote;
    double remote_at;
};

/* The JSON library's error text made safe to send: its text can end in
 * half a UTF-8 character (the input's bytes), which no JSON string may. */
void json_error_text(const json_error_t *e, char *out, size_t size);

#endif
