/*
 * json_state.c - the protocol JSON of a game (see json_state.h).
 *
 * The public object is built from the full game but reads only public
 * parts of it: the board, the tracks, counts of racks, stacks and bag. The
 * seed appears only once the game is over. Racks come from state_you_json,
 * for their own seat only.
 */
#include "json_state.h"
#include "../../engine/record.h"
#include "clock.h"
#include "game.h"
#include "lobby.h"
#include "play.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistr.h>

static json_t *colors_json(const ax_game *g)
{
    json_t *a = json_array();
    for (int c = 0; c < g->ncolors; c++)
        json_array_append_new(a, json_string(ax_color_name(c)));
    return a;
}

static bool is_field(const ax_game *g, int cell)
{
    for (int f = 0; f < g->nfields; f++)
        if (g->field_cell[f] == cell)
            return true;
    return false;
}

/* --- the board as text ---
 *
 * The board is most of a state, and made with jansson it was hundreds of
 * small allocations per broadcast (at 10,000 connections a third of the
 * loop's time went to malloc). It holds only numbers and colour names, so
 * it is written straight into a buffer and spliced into the state's text. */

typedef struct {
    char *s;
    size_t len, cap;
    bool failed;
} board_buf;

static void bb_put(board_buf *b, const char *t, size_t n)
{
    if (b->failed)
        return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 4096;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *grown = realloc(b->s, cap);
        if (!grown) {
            b->failed = true;
            return;
        }
        b->s = grown;
        b->cap = cap;
    }
    memcpy(b->s + b->len, t, n);
    b->len += n;
    b->s[b->len] = 0;
}

static void bb_str(board_buf *b, const char *t) { bb_put(b, t, strlen(t)); }

static void bb_cell(board_buf *b, const ax_game *g, int cell)
{
    int x, y;
    char t[32];
    ax_cell_coords(g, cell, &x, &y);
    bb_put(b, t, (size_t)snprintf(t, sizeof t, "[%d,%d]", x, y));
}

/* {"cell":[x,y],"color":"red"} */
static void bb_colored_cell(board_buf *b, const ax_game *g, int cell, int color)
{
    bb_str(b, "{\"cell\":");
    bb_cell(b, g, cell);
    bb_str(b, ",\"color\":\"");
    bb_str(b, ax_color_name(color));
    bb_str(b, "\"}");
}

static void grid_board_text(board_buf *b, const ax_game *g)
{
    char t[32];
    bb_put(b, t, (size_t)snprintf(t, sizeof t, "\"area\":%d,\"fields\":[", g->area));
    for (int f = 0; f < g->nfields; f++) {
        if (f)
            bb_str(b, ",");
        bb_colored_cell(b, g, g->field_cell[f], g->field_color[f]);
    }
    bb_str(b, "],\"cells\":[");
    bool first = true;
    for (int i = 0; i < AX_GRID_CELLS; i++) {
        int content = g->cell[i];
        if (content < AX_MAX_COLORS && !is_field(g, i)) {
            if (!first)
                bb_str(b, ",");
            first = false;
            bb_colored_cell(b, g, i, content);
        }
    }
    bb_str(b, "]");
    if (g->variant != AX_SQUARE)
        return;
    for (int kind = 0; kind < 2; kind++) {
        bb_str(b, kind == 0 ? ",\"pyramids\":[" : ",\"dead\":[");
        first = true;
        for (int i = 0; i < AX_GRID_CELLS; i++)
            if (g->cell[i] == (kind == 0 ? AX_PYRAMID : AX_DEAD)) {
                if (!first)
                    bb_str(b, ",");
                first = false;
                bb_cell(b, g, i);
            }
        bb_str(b, "]");
    }
}

static void rota_board_text(board_buf *b, const ax_game *g)
{
    const ax_rota_board *r = &g->rota;
    char t[48];
    bb_str(b, "\"tiles\":[");
    bool first = true;
    for (int i = 0; i < r->ncells; i++) {
        if (r->placed[i].sym[0] == AX_UNSET)
            continue;
        if (!first)
            bb_str(b, ",");
        first = false;
        bb_put(b, t,
               (size_t)snprintf(t, sizeof t, "{\"cell\":[%d,%d],\"tile\":[", r->x[i], r->y[i]));
        for (int k = 0; k < 4; k++) {
            int c = r->placed[i].sym[k];
            if (k)
                bb_str(b, ",");
            if (c >= 0) {
                bb_str(b, "\"");
                bb_str(b, ax_color_name(c));
                bb_str(b, "\"");
            } else {
                bb_str(b, "null");
            }
        }
        bb_str(b, "]}");
    }
    bb_str(b, "],\"frontier\":[");
    for (int k = 0; k < r->nfrontier; k++) {
        int i = r->frontier[k];
        bb_put(b, t, (size_t)snprintf(t, sizeof t, k ? ",[%d,%d]" : "[%d,%d]", r->x[i], r->y[i]));
    }
    bb_str(b, "]");
}

/* The board's keys as JSON text (no braces), malloc'd; NULL out of memory. */
static char *board_text(const ax_game *g)
{
    board_buf b = {0};
    if (g->variant == AX_ROTA)
        rota_board_text(&b, g);
    else
        grid_board_text(&b, g);
    if (b.failed) {
        free(b.s);
        return NULL;
    }
    return b.s;
}

static const ax_event *last_event(const game *gm, int kind)
{
    for (int i = gm->nevents - 1; i >= 0; i--)
        if (gm->events[i].kind == kind)
            return &gm->events[i];
    return NULL;
}

static json_t *last_json(const game *gm)
{
    const ax_event *e = last_event(gm, AX_EV_PLACE);
    if (!e)
        return json_null();
    const ax_game *g = &gm->g;
    if (g->variant == AX_ROTA)
        return json_pack("{s:i,s:[ii]}", "player", e->player, "cell", e->x, e->y);
    return json_pack("{s:i,s:[oo]}", "player", e->player, "cells", ax_cell_json(g, e->cells[0]),
                     ax_cell_json(g, e->cells[1]));
}

static bool seat_connected(const game_seat *s) { return s->kind == SEAT_AI || s->conns > 0; }

/* Milliseconds since a taken human seat lost its last connection; null
 * while connected. */
static json_t *away_json(const game_seat *s, double now)
{
    if (s->kind != SEAT_HUMAN || !s->taken || s->conns > 0)
        return json_null();
    return json_integer((json_int_t)((now - s->away_since) * 1000.0));
}

json_t *seat_presence_json(const game *gm, int seat, double now)
{
    const game_seat *s = &gm->seats[seat];
    return json_pack("{s:b,s:o}", "connected", seat_connected(s), "away_ms", away_json(s, now));
}

static json_t *seats_json(const game *gm)
{
    const ax_game *g = &gm->g;
    json_t *a = json_array();
    double now = service_now(gm->svc);
    for (int i = 0; i < g->players; i++) {
        const game_seat *s = &gm->seats[i];
        json_t *o = json_pack("{s:o,s:s,s:o,s:b,s:b,s:i,s:o}", "name",
                              s->taken ? json_string(s->name) : json_null(), "kind",
                              s->kind == SEAT_AI ? "ai" : "human", "level",
                              s->kind == SEAT_AI ? json_string(s->level) : json_null(), "taken",
                              s->taken, "connected", seat_connected(s), "rack_size", g->rack_n[i],
                              "score", ax_score_json(g, g->track[ax_track_owner(g, i)]));
        if (g->variant == AX_ROTA)
            json_object_set_new(o, "stack", json_integer(g->stack_n[i]));
        json_object_set_new(
            o, "left", g->left[i] ? json_string(ax_leave_why_name(g->left_why[i])) : json_null());
        json_object_set_new(o, "played_by",
                            g->left[i] && s->kind == SEAT_HUMAN && g->phase != AX_PHASE_OVER
                                ? json_string(LEFT_SEAT_LEVEL)
                                : json_null());
        json_object_set_new(o, "away_ms", away_json(s, now));
        lobby_seat_account_json(o, s);
        json_array_append_new(a, o);
    }
    return a;
}

/* The record's `end` without its "ev" key. */
static json_t *end_json(const game *gm)
{
    const ax_event *e = last_event(gm, AX_EV_END);
    if (!e)
        return json_null();
    json_t *o = ax_record_event(&gm->g, e, AX_VIEWER_ALL);
    json_object_del(o, "ev");
    return o;
}

static json_t *clocks_json(const game *gm)
{
    if (gm->clock.kind == GAME_CLOCK_NONE)
        return json_null();
    json_t *a = json_array();
    for (int s = 0; s < gm->g.players; s++)
        json_array_append_new(a, json_integer(clock_left_now(gm, s)));
    return a;
}

/* The old game's seats whose players took their seat in the rematch. */
static json_t *rematch_seats_json(const game *gm)
{
    json_t *a = json_array();
    if (!gm->rematch[0])
        return a;
    /* the rematch is here, or read as stored (another server may hold it) */
    game *next = lobby_local(gm->svc, gm->rematch);
    stored_game sg;
    bool stored = !next && store_load_summary(gm->svc->db, gm->rematch, &sg) == 0;
    for (int s = 0; (next || stored) && s < gm->g.players; s++) {
        int there = (s + 1) % gm->g.players;
        bool taken = next ? next->seats[there].taken : sg.seats[there].token_hash[0] != 0;
        if (gm->seats[s].kind == SEAT_HUMAN && taken)
            json_array_append_new(a, json_integer(s));
    }
    if (stored)
        stored_game_free(&sg);
    return a;
}

/* What online play adds (docs/online-play.md). */
static void add_online(json_t *o, const game *gm)
{
    int64_t deadline = clock_deadline(gm);
    json_object_set_new(o, "created", json_integer(gm->created));
    json_object_set_new(o, "rated", json_boolean(gm->rated));
    json_object_set_new(o, "event", gm->in_event ? json_string(gm->event_id) : json_null());
    json_object_set_new(o, "guided", json_boolean(gm->guided));
    json_object_set_new(o, "creator", json_integer(gm->creator));
    json_object_set_new(o, "clock", clock_settings_json(&gm->clock));
    json_object_set_new(o, "clocks", clocks_json(gm));
    json_object_set_new(o, "deadline", deadline >= 0 ? json_integer(deadline) : json_null());
    json_object_set_new(o, "absent_s", json_integer(gm->svc->cfg.absent_s));
    json_object_set_new(o, "rematch", gm->rematch[0] ? json_string(gm->rematch) : json_null());
    json_object_set_new(o, "rematch_seats", rematch_seats_json(gm));
    json_object_set_new(o, "rematch_of",
                        gm->rematch_of[0] ? json_string(gm->rematch_of) : json_null());
}

static const char *phase_name(const game *gm)
{
    switch (gm->g.phase) {
    case AX_PHASE_SWAP: return "swap";
    case AX_PHASE_OVER: return "over";
    default: return "place";
    }
}

/* Everything of the state but the board. */
static json_t *state_without_board(const game *gm)
{
    const ax_game *g = &gm->g;
    bool over = g->phase == AX_PHASE_OVER;
    json_t *o =
        json_pack("{s:s,s:s,s:i,s:s,s:s,s:s,s:s,s:o,s:b,s:i,s:o}", "id", gm->id, "variant",
                  ax_variant_name(g->variant), "players", g->players, "mode", ax_mode_name(g->mode),
                  "rules", AX_RULES_VERSION, "status", lobby_status_name(gm->status), "phase",
                  phase_name(gm), "to_move", over ? json_null() : json_integer(g->to_move), "bonus",
                  g->in_bonus, "ply", g->ply, "colors", colors_json(g));
    json_object_set_new(o, "last", last_json(gm));
    json_object_set_new(o, "seats", seats_json(gm));
    json_object_set_new(o, "spectators", json_integer(gm->nspectators));
    json_object_set_new(o, "bag", json_integer(g->bag_n));
    json_object_set_new(o, "seed_hash", json_string(gm->seed_hash));
    json_object_set_new(o, "end", over ? end_json(gm) : json_null());
    json_object_set_new(o, "aborted_by",
                        gm->status == GAME_ABORTED ? json_integer(gm->aborted_by) : json_null());
    add_online(o, gm);
    /* the computer's last decision had less than its time: the server is busy */
    json_object_set_new(o, "ai_hurried", json_boolean(gm->ai_hurried && !over));
    if (over) {
        char seed[24];
        snprintf(seed, sizeof seed, "%" PRIu64, g->seed);
        json_object_set_new(o, "seed", json_string(seed));
    }
    return o;
}

char *state_game_text(const game *gm)
{
    json_t *o = state_without_board(gm);
    char *rest = json_dumps(o, JSON_COMPACT);
    json_decref(o);
    char *board = board_text(&gm->g);
    size_t n = rest ? strlen(rest) : 0;
    char *text = rest && board ? malloc(n + strlen(board) + 2) : NULL;
    if (text) { /* rest ends in '}': the board's keys go before it */
        memcpy(text, rest, n - 1);
        text[n - 1] = ',';
        strcpy(text + n, board);
        strcat(text + n, "}");
    }
    free(rest);
    free(board);
    return text;
}

json_t *state_game_json(const game *gm)
{
    char *text = state_game_text(gm);
    json_t *o = text ? json_loads(text, 0, NULL) : NULL;
    free(text);
    return o;
}

static json_t *legal_moves_json(const ax_game *view)
{
    ax_move *moves = malloc(sizeof *moves * AX_MAX_MOVES);
    int n = moves ? ax_legal_moves(view, moves, AX_MAX_MOVES) : 0;
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, ax_decision_message(view, &moves[i]));
    free(moves);
    return a;
}

json_t *state_you_json(game *gm, int seat, unsigned flags)
{
    const ax_game *g = &gm->g;
    if (seat < 0 || seat >= g->players)
        return json_null();
    if (g->left[seat]) /* a leaver sees what a spectator sees, and which seat was theirs */
        return json_pack("{s:i,s:b}", "seat", seat, "left", 1);
    json_t *rack = json_array();
    for (int i = 0; i < g->rack_n[seat]; i++)
        json_array_append_new(rack, ax_tile_json(g, g->rack[seat][i]));
    json_t *o = json_pack("{s:i,s:o}", "seat", seat, "rack", rack);
    bool to_move = gm->status == GAME_RUNNING && g->phase != AX_PHASE_OVER && g->to_move == seat;
    if (to_move && (flags & (YOU_HINT | YOU_MOVES))) {
        ax_game *view = &gm->svc->scratch_view; /* too large for comfort on the stack */
        ax_view(g, seat, view);
        if (flags & YOU_HINT) {
            ax_move m;
            ax_random_move(view, &gm->hint_rng, &m);
            json_object_set_new(o, "hint", ax_decision_message(g, &m));
        }
        if (flags & YOU_MOVES)
            json_object_set_new(o, "moves", legal_moves_json(view));
    }
    return o;
}

static void seat_names(const game *gm, const char *names[AX_MAX_PLAYERS])
{
    for (int i = 0; i < AX_MAX_PLAYERS; i++)
        names[i] = gm->seats[i].taken ? gm->seats[i].name : NULL;
}

json_t *event_json(const game *gm, const ax_event *e, int viewer)
{
    return ax_record_event(&gm->g, e, viewer);
}

/* The record's start line, with the rules the game is played under (a key
 * record.md allows to be added). */
static json_t *record_start(const game *gm, int viewer)
{
    const char *names[AX_MAX_PLAYERS];
    seat_names(gm, names);
    json_t *o = ax_record_start(&gm->g, names, viewer);
    json_object_set_new(o, "rules", json_string(AX_RULES_VERSION));
    return o;
}

json_t *history_json(const game *gm, int viewer)
{
    json_t *a = json_array();
    json_array_append_new(a, record_start(gm, viewer));
    for (int i = 0; i < gm->nevents; i++)
        json_array_append_new(a, ax_record_event(&gm->g, &gm->events[i], viewer));
    return a;
}

static int append_line(char **buf, size_t *len, size_t *cap, json_t *line)
{
    char *text = json_dumps(line, JSON_COMPACT);
    json_decref(line);
    if (!text)
        return -1;
    size_t n = strlen(text);
    if (*len + n + 2 > *cap) {
        size_t want = (*len + n + 2) * 2;
        char *grown = realloc(*buf, want);
        if (!grown) {
            free(text);
            return -1;
        }
        *buf = grown;
        *cap = want;
    }
    memcpy(*buf + *len, text, n);
    *len += n;
    (*buf)[(*len)++] = '\n';
    (*buf)[*len] = 0;
    free(text);
    return 0;
}

char *record_text(const game *gm, size_t *len)
{
    char *buf = NULL;
    size_t cap = 0;
    *len = 0;
    if (append_line(&buf, len, &cap, record_start(gm, AX_VIEWER_ALL)))
        goto fail;
    for (int i = 0; i < gm->nevents; i++)
        if (append_line(&buf, len, &cap, ax_record_event(&gm->g, &gm->events[i], AX_VIEWER_ALL)))
            goto fail;
    return buf;
fail:
    free(buf);
    return NULL;
}

/* --- damaged games --- */

/* A text from the store as a JSON string: a damaged database may hold any
 * bytes, and whatever is not UTF-8 becomes U+FFFD. */
static json_t *text_json(const char *s)
{
    json_t *v = json_string(s);
    if (v)
        return v;
    size_t n = strlen(s);
    char *clean = malloc(3 * n + 1), *p = clean;
    for (size_t i = 0; clean && i < n;) {
        ucs4_t c;
        int len = u8_mbtoucr(&c, (const uint8_t *)s + i, n - i);
        if (len > 0) {
            memcpy(p, s + i, (size_t)len);
            p += len;
            i += (size_t)len;
        } else {
            memcpy(p, "\xef\xbf\xbd", 3);
            p += 3;
            i++;
        }
    }
    if (clean)
        *p = 0;
    v = json_string(clean ? clean : "");
    free(clean);
    return v;
}

static int stored_players(const stored_game *sg)
{
    return sg->players < 0 ? 0 : sg->players > AX_MAX_PLAYERS ? AX_MAX_PLAYERS : sg->players;
}

static bool stored_seat_taken(const stored_seat *ss)
{
    return strcmp(ss->kind, "ai") == 0 || ss->token_hash[0];
}

static json_t *damaged_seats_json(const stored_game *sg)
{
    json_t *a = json_array();
    for (int i = 0; i < stored_players(sg); i++) {
        const stored_seat *ss = &sg->seats[i];
        bool ai = strcmp(ss->kind, "ai") == 0, taken = stored_seat_taken(ss);
        json_array_append_new(
            a, json_pack("{s:o,s:o,s:o,s:b}", "name", taken ? text_json(ss->name) : json_null(),
                         "kind", text_json(ss->kind), "level",
                         ai ? text_json(ss->level) : json_null(), "taken", taken));
    }
    return a;
}

json_t *damaged_game_json(const stored_game *sg)
{
    json_t *clock = sg->clock[0] ? json_loads(sg->clock, 0, NULL) : NULL;
    if (!json_is_object(clock)) {
        json_decref(clock);
        clock = json_null();
    }
    return json_pack(
        "{s:s,s:o,s:i,s:o,s:s,s:o,s:I,s:i,s:o,s:o,s:o,s:o,s:o}", "id", sg->id, "variant",
        text_json(sg->variant), "players", sg->players, "mode", text_json(sg->mode), "status",
        "damaged", "rules", text_json(sg->rules), "created", (json_int_t)sg->created, "creator",
        sg->creator, "clock", clock, "to_move", json_null(), "rematch_of",
        sg->rematch_of[0] ? text_json(sg->rematch_of) : json_null(), "damaged",
        sg->damage[0] ? text_json(sg->damage) : json_null(), "seats", damaged_seats_json(sg));
}

/* The start line of a damaged game's record: what was stored of its
 * configuration. No seed: an operator who repairs the game can resume it,
 * so the seed stays the server's secret; its hash identifies the deal. */
static json_t *damaged_start_json(const stored_game *sg)
{
    char seed[24], seed_hash[65];
    snprintf(seed, sizeof seed, "%" PRIu64, sg->seed);
    sha256_hex(seed, seed_hash);
    json_t *names = json_array();
    for (int i = 0; i < stored_players(sg); i++) {
        char fallback[24]; /* "Seat " and any int */
        snprintf(fallback, sizeof fallback, "Seat %d", i + 1);
        const stored_seat *ss = &sg->seats[i];
        json_array_append_new(names,
                              stored_seat_taken(ss) ? text_json(ss->name) : json_string(fallback));
    }
    return json_pack("{s:s,s:s,s:o,s:o,s:i,s:o,s:o,s:s,s:s,s:o}", "ev", "start", "format",
                     "axio-record/1", "rules", text_json(sg->rules), "variant",
                     text_json(sg->variant), "players", sg->players, "mode", text_json(sg->mode),
                     "names", names, "seed_hash", seed_hash, "status", "damaged", "damaged",
                     sg->damage[0] ? text_json(sg->damage) : json_null());
}

typedef struct {
    char *buf;
    size_t len, cap;
} text_buf;

/* One stored decision as a line: the message as stored, or its text when
 * it is not JSON. */
static int append_decision(int ply, int seat, const char *text, int64_t at, void *arg)
{
    text_buf *out = arg;
    json_t *decision = json_loads(text, 0, NULL);
    if (!decision)
        decision = text_json(text);
    return append_line(&out->buf, &out->len, &out->cap,
                       json_pack("{s:s,s:i,s:i,s:I,s:o}", "ev", "decision", "ply", ply, "seat",
                                 seat, "at", (json_int_t)at, "decision", decision));
}

char *damaged_record_text(store *db, const stored_game *sg, size_t *len)
{
    text_buf out = {NULL, 0, 0};
    if (append_line(&out.buf, &out.len, &out.cap, damaged_start_json(sg)) ||
        store_each_decision(db, sg->id, append_decision, &out)) {
        free(out.buf);
        return NULL;
    }
    *len = out.len;
    return out.buf;
}

/* --- decisions --- */

const char *decision_from_json(const ax_game *g, const json_t *msg, ax_move *m, char *why,
                               size_t whylen, ax_error *ill)
{
    int rc = ax_decision_from_message(g, msg, m, why, whylen, ill);
    return rc == AX_REPLAY_OK ? NULL : rc == AX_REPLAY_MALFORMED ? "bad_message" : "illegal_move";
}

/* The lines the placement scores (ax_preview_lines): square and hex the
 * half's cell and the cells counted beyond it, rota the placed tile's
 * corner whose circle scores. */
static json_t *lines_json(const ax_game *g, const ax_move *m)
{
    ax_line lines[AX_MAX_LINES];
    int n = ax_preview_lines(g, m, lines);
    json_t *a = json_array();
    for (int i = 0; i < n; i++) {
        const ax_line *l = &lines[i];
        json_t *o = json_pack("{s:s,s:i}", "color", ax_color_name(l->color), "points", l->points);
        if (g->variant == AX_ROTA) {
            json_object_set_new(o, "cell", json_pack("[ii]", m->x, m->y));
            json_object_set_new(o, "corner", json_integer(l->corner));
        } else {
            json_t *cells = json_array();
            for (int k = 0, c = l->cell; k <= l->points; k++, c += g->dir_offset[l->dir])
                json_array_append_new(cells, ax_cell_json(g, c));
            json_object_set_new(o, "cells", cells);
        }
        json_array_append_new(a, o);
    }
    return a;
}

json_t *preview_json(const ax_game *g, const ax_move *m)
{
    ax_preview pv;
    ax_preview_move(g, m, &pv);
    bool legal = pv.legal == AX_OK;
    json_t *pyramids = json_array();
    for (int i = 0; legal && i < pv.npyramids; i++)
        json_array_append_new(pyramids, ax_cell_json(g, pv.pyramid_cell[i]));
    uint8_t zero[AX_MAX_COLORS] = {0};
    return json_pack("{s:s,s:b,s:o,s:o,s:o,s:o,s:o,s:o}", "type", "preview", "legal", legal,
                     "points", ax_score_json(g, legal ? pv.points : zero), "score",
                     ax_score_json(g, legal ? pv.score : zero), "pyramids", pyramids, "lines",
                     legal ? lines_json(g, m) : json_array(), "error",
                     legal ? json_null() : json_string(ax_error_string(pv.legal)), "reason",
                     legal ? json_null() : json_string(ax_error_id(pv.legal)));
}
