/*
 * bot_referee.c - one game held by the engine, for the fake Bot API site of
 * tests/cli (fake_bot_site.py): the site's rules are the engine's, and the
 * positions it sends a bot are the engine protocol's own (ax_position_json),
 * as the real site's are.
 *
 * One JSON request a line on stdin, one answer a line on stdout:
 *   {"cmd":"new","variant","players","mode","seed":"123","names":[...]}  -> {"ok":true}
 *   {"cmd":"status"}  -> {"phase","to_move","ply","left":[...],"end":{...}|null}
 *   {"cmd":"position","seat":S}  -> {"position":{...}}
 *   {"cmd":"play","move":{record form},"viewers":[S...]}  -> {"ok":true,"views":[[...]...]}
 *        or {"ok":false,"malformed":bool,"reason":"cell","message":"..."}
 *   {"cmd":"ai","viewers":[S...]}  -> {"ok":true,"move":{...},"views":[...]} (greedy decides)
 *   {"cmd":"leave","seat":S,"why":"resign","viewers":[S...]}  -> {"ok":true,"views":[...]}
 *   {"cmd":"record"}  -> {"record":"...the complete record..."}
 * `views` holds the record's events of the decision as each of `viewers` (seats;
 * -1 a spectator) sees them, one list per viewer.
 */
#include "../../src/ai/player.h"
#include "../../src/engine/decision.h"
#include "../../src/engine/position.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static ax_game game, view;
static json_t *record; /* lines of the complete record */
static json_t *end_event;
static ax_player *ai;

/* Adds the events to the record; returns them as each of `viewers` (a list
 * of seats, -1 a spectator) sees them: one list of events per viewer. */
static json_t *take_events(const ax_events *ev, json_t *viewers)
{
    json_t *views = json_array();
    for (size_t v = 0; v < json_array_size(viewers); v++)
        json_array_append_new(views, json_array());
    for (int i = 0; i < ev->n; i++) {
        json_array_append_new(record, ax_record_event(&game, &ev->ev[i], AX_VIEWER_ALL));
        for (size_t v = 0; v < json_array_size(viewers); v++)
            json_array_append_new(
                json_array_get(views, v),
                ax_record_event(&game, &ev->ev[i],
                                (int)json_integer_value(json_array_get(viewers, v))));
        if (ev->ev[i].kind == AX_EV_END) {
            json_decref(end_event);
            end_event = ax_record_event(&game, &ev->ev[i], AX_VIEWER_ALL);
        }
    }
    return views;
}

static json_t *apply(const ax_move *m, json_t *req)
{
    static ax_events ev;
    ax_error e = ax_apply(&game, m, &ev);
    if (e)
        return json_pack("{s:b,s:b,s:s,s:s}", "ok", 0, "malformed", 0, "reason", ax_error_id(e),
                         "message", ax_error_string(e));
    return json_pack("{s:b,s:o}", "ok", 1, "views",
                     take_events(&ev, json_object_get(req, "viewers")));
}

static json_t *handle(json_t *req)
{
    const char *cmd = json_string_value(json_object_get(req, "cmd"));
    if (!cmd)
        return json_pack("{s:s}", "error", "no cmd");
    if (strcmp(cmd, "new") == 0) {
        int v = ax_variant_parse(json_string_value(json_object_get(req, "variant")));
        int m = ax_mode_parse(json_string_value(json_object_get(req, "mode")));
        int players = (int)json_integer_value(json_object_get(req, "players"));
        uint64_t seed = strtoull(json_string_value(json_object_get(req, "seed")), NULL, 10);
        static ax_events ev;
        if (v < 0 || m < 0 || ax_game_init(&game, v, players, m, seed, &ev) != AX_OK)
            return json_pack("{s:s}", "error", "bad game");
        const char *names[AX_MAX_PLAYERS];
        json_t *jn = json_object_get(req, "names");
        for (int s = 0; s < players; s++)
            names[s] = json_string_value(json_array_get(jn, (size_t)s));
        json_decref(record);
        record = json_array();
        json_array_append_new(record, ax_record_start(&game, names, AX_VIEWER_ALL));
        json_decref(take_events(&ev, NULL));
        ax_player_free(ai);
        ai = ax_player_new("greedy", seed);
        return json_pack("{s:b}", "ok", 1);
    }
    if (strcmp(cmd, "status") == 0) {
        static const char *const phases[] = {"place", "swap", "over"};
        json_t *left = json_array();
        for (int s = 0; s < game.players; s++)
            json_array_append_new(left, game.left[s]
                                            ? json_string(ax_leave_why_name(game.left_why[s]))
                                            : json_null());
        return json_pack("{s:s,s:i,s:i,s:o,s:O}", "phase", phases[game.phase], "to_move",
                         game.to_move, "ply", game.ply, "left", left, "end",
                         end_event ? end_event : json_null());
    }
    if (strcmp(cmd, "position") == 0)
        return json_pack(
            "{s:o}", "position",
            ax_position_json(&game, (int)json_integer_value(json_object_get(req, "seat"))));
    if (strcmp(cmd, "play") == 0) {
        ax_move m;
        char why[256];
        int rc = ax_decision_read(&game, json_object_get(req, "move"), &m, why, sizeof why);
        if (rc == AX_REPLAY_MALFORMED)
            return json_pack("{s:b,s:b,s:s,s:s}", "ok", 0, "malformed", 1, "reason", "message",
                             "message", why);
        if (rc != AX_REPLAY_OK) {
            bool reversed;
            char ignored[256];
            ax_error e = ax_decision_from_event(&game, json_object_get(req, "move"), &m, &reversed,
                                                ignored, sizeof ignored) == AX_REPLAY_OK
                             ? ax_check(&game, &m)
                             : AX_ERR_SEAT;
            return json_pack("{s:b,s:b,s:s,s:s}", "ok", 0, "malformed", 0, "reason",
                             ax_error_id(e ? e : AX_ERR_SEAT), "message", why);
        }
        return apply(&m, req);
    }
    if (strcmp(cmd, "ai") == 0) {
        ax_move m;
        int seat = game.to_move;
        ax_view(&game, seat, &view);
        ax_player_decide(ai, &view, seat, &m);
        json_t *decision = ax_decision_json(&game, &m);
        json_t *out = apply(&m, req);
        json_object_set_new(out, "move", decision);
        return out;
    }
    if (strcmp(cmd, "leave") == 0) {
        ax_move m = {.kind = AX_MOVE_LEAVE, .wild = AX_NO_COLOR};
        m.seat = (uint8_t)json_integer_value(json_object_get(req, "seat"));
        int why = ax_leave_why_parse(json_string_value(json_object_get(req, "why")));
        m.why = (uint8_t)(why < 0 ? AX_LEAVE_RESIGN : why);
        return apply(&m, req);
    }
    if (strcmp(cmd, "record") == 0) {
        size_t len = 0, cap = 1 << 16, i;
        char *text = malloc(cap);
        json_t *line;
        json_array_foreach(record, i, line)
        {
            char *s = json_dumps(line, JSON_COMPACT);
            size_t n = strlen(s);
            while (len + n + 2 > cap)
                text = realloc(text, cap *= 2);
            memcpy(text + len, s, n);
            text[len + n] = '\n';
            len += n + 1;
            free(s);
        }
        text[len] = 0;
        json_t *out = json_pack("{s:s}", "record", text);
        free(text);
        return out;
    }
    return json_pack("{s:s}", "error", "unknown cmd");
}

int main(void)
{
    char *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, stdin) > 0) {
        json_error_t jerr;
        json_t *req = json_loads(line, 0, &jerr);
        json_t *out = req ? handle(req) : json_pack("{s:s}", "error", "not JSON");
        char *text = json_dumps(out, JSON_COMPACT);
        printf("%s\n", text);
        fflush(stdout);
        free(text);
        json_decref(out);
        json_decref(req);
    }
    free(line);
    json_decref(record);
    json_decref(end_event);
    ax_player_free(ai);
    return 0;
}
