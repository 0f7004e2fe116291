/*
 * replay.c - checks a record by playing it again through the engine.
 *
 * The start line gives variant, players, mode and seed, so the engine deals
 * the same game. Each `place`, `swap` or `leave` line is a decision: it is
 * applied, and every line after it must equal, key by key, the event the
 * engine produced (keys the engine does not write are ignored, as record.md
 * allows). The first difference names its line and what differs. A `leave`
 * may come from any seat; only the seat to move places or swaps.
 */
#include "decision.h"
#include "reason.h"
#include "record.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ax_replay_init(ax_replay *r) { memset(r, 0, sizeof *r); }

static bool parse_seed(json_t *v, uint64_t *seed)
{
    const char *s = json_string_value(v);
    if (!s || !*s || strlen(s) > 20)
        return false;
    for (const char *p = s; *p; p++)
        if (*p < '0' || *p > '9')
            return false;
    errno = 0;
    unsigned long long x = strtoull(s, NULL, 10);
    if (errno)
        return false;
    *seed = (uint64_t)x;
    return true;
}

/* Compares every key the engine wrote with the record's line. */
static int compare_event(json_t *expected, json_t *actual, int line, char *err, size_t errlen)
{
    const char *key;
    json_t *value;
    const char *ev = json_string_value(json_object_get(expected, "ev"));
    json_object_foreach(expected, key, value)
    {
        json_t *got = json_object_get(actual, key);
        if (got && json_equal(got, value))
            continue;
        char *want = json_dumps(value, JSON_COMPACT | JSON_ENCODE_ANY);
        char *have = got ? json_dumps(got, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
        int code = ax_fail(err, errlen, AX_REPLAY_INCONSISTENT,
                           "line %d: %s: \"%s\" is %s, the rules give %s", line, ev, key,
                           have ? have : "missing", want ? want : "?");
        free(want);
        free(have);
        return code;
    }
    return AX_REPLAY_OK;
}

static int read_start(ax_replay *r, json_t *obj, char *err, size_t errlen)
{
    const char *format = json_string_value(json_object_get(obj, "format"));
    const char *variant = json_string_value(json_object_get(obj, "variant"));
    const char *mode = json_string_value(json_object_get(obj, "mode"));
    json_t *players = json_object_get(obj, "players");
    uint64_t seed;
    if (!format || strcmp(format, "axio-record/1") != 0)
        return ax_fail(err, errlen, AX_REPLAY_MALFORMED, "line 1: not an axio-record/1 record");
    if (!variant || !mode || !json_is_integer(players))
        return ax_fail(err, errlen, AX_REPLAY_MALFORMED,
                       "line 1: start needs variant, players and mode");
    if (!parse_seed(json_object_get(obj, "seed"), &seed))
        return ax_fail(err, errlen, AX_REPLAY_MALFORMED,
                       "line 1: start needs the seed as a string of digits");
    int v = ax_variant_parse(variant), m = ax_mode_parse(mode);
    json_int_t np = json_integer_value(players);
    if (v < 0 || m < 0 || np < 1 || np > 4 || ax_config_check(v, (int)np, m) != AX_OK)
        return ax_fail(err, errlen, AX_REPLAY_MALFORMED,
                       "line 1: no game is %s with %" JSON_INTEGER_FORMAT " players in mode %s",
                       variant, np, mode);
    ax_game_init(&r->game, v, (int)np, m, seed, &r->pending);
    r->next = 0;
    r->started = true;
    json_t *expected = ax_record_start(&r->game, NULL, AX_VIEWER_ALL);
    json_object_del(expected, "names");
    int code = compare_event(expected, obj, 1, err, errlen);
    json_decref(expected);
    return code;
}

/* The engine's event as the record writes it; a place whose rack tile lay
 * the other way round is written in the record's order. */
static json_t *expected_event(ax_replay *r, const ax_event *e)
{
    json_t *o = ax_record_event(&r->game, e, AX_VIEWER_ALL);
    if (e->kind == AX_EV_PLACE && r->reversed) {
        json_array_insert(json_object_get(o, "tile"), 0,
                          json_array_get(json_object_get(o, "tile"), 1));
        json_array_remove(json_object_get(o, "tile"), 2);
        json_array_insert(json_object_get(o, "cells"), 0,
                          json_array_get(json_object_get(o, "cells"), 1));
        json_array_remove(json_object_get(o, "cells"), 2);
    }
    return o;
}

static int apply_decision(ax_replay *r, json_t *obj, const char *ev, char *err, size_t errlen)
{
    if (r->game.phase == AX_PHASE_OVER)
        return ax_fail(err, errlen, AX_REPLAY_INCONSISTENT, "line %d: %s after the game is over",
                       r->line, ev);
    bool leave = strcmp(ev, "leave") == 0;
    if (strcmp(ev, "place") != 0 && strcmp(ev, "swap") != 0 && !leave)
        return ax_fail(err, errlen, AX_REPLAY_INCONSISTENT,
                       "line %d: %s, but the rules wait for seat %d to %s", r->line, ev,
                       r->game.to_move,
                       r->game.phase == AX_PHASE_SWAP ? "decide the swap" : "place");
    json_t *player = json_object_get(obj, "player");
    if (!json_is_integer(player))
        return ax_fail(err, errlen, AX_REPLAY_MALFORMED, "line %d: %s needs a player", r->line, ev);
    if (!leave && json_integer_value(player) != r->game.to_move)
        return ax_fail(err, errlen, AX_REPLAY_INCONSISTENT,
                       "line %d: seat %" JSON_INTEGER_FORMAT " acts, but seat %d is to move",
                       r->line, json_integer_value(player), r->game.to_move);
    char why[200];
    ax_move m;
    int code = ax_decision_from_event(&r->game, obj, &m, &r->reversed, why, sizeof why);
    if (code)
        return ax_fail(err, errlen, code, "line %d: %s", r->line, why);
    ax_error e = ax_apply(&r->game, &m, &r->pending);
    if (e)
        return ax_fail(err, errlen, AX_REPLAY_INCONSISTENT, "line %d: illegal %s: %s", r->line, ev,
                       ax_error_string(e));
    r->next = 0;
    return AX_REPLAY_OK;
}

int ax_replay_line(ax_replay *r, const char *text, char *err, size_t errlen)
{
    r->line++;
    json_error_t jerr;
    json_t *obj = json_loads(text, JSON_REJECT_DUPLICATES, &jerr);
    if (!obj || !json_is_object(obj)) {
        json_decref(obj);
        return ax_fail(err, errlen, AX_REPLAY_MALFORMED, "line %d: not a JSON object (%s)", r->line,
                       obj ? "other JSON value" : jerr.text);
    }
    int code = AX_REPLAY_OK;
    const char *ev = json_string_value(json_object_get(obj, "ev"));
    if (!ev) {
        code = ax_fail(err, errlen, AX_REPLAY_MALFORMED, "line %d: no \"ev\" key", r->line);
    } else if (!r->started) {
        code = strcmp(ev, "start") == 0 ? read_start(r, obj, err, errlen)
                                        : ax_fail(err, errlen, AX_REPLAY_MALFORMED,
                                                  "line 1: the first event must be start");
    } else if (r->ended) {
        code = ax_fail(err, errlen, AX_REPLAY_INCONSISTENT, "line %d: %s after end", r->line, ev);
    } else {
        if (r->next >= r->pending.n)
            code = apply_decision(r, obj, ev, err, errlen);
        if (code == AX_REPLAY_OK) {
            const ax_event *e = &r->pending.ev[r->next++];
            json_t *expected = expected_event(r, e);
            code = compare_event(expected, obj, r->line, err, errlen);
            json_decref(expected);
            r->ended = e->kind == AX_EV_END;
        }
    }
    json_decref(obj);
    return code;
}

int ax_replay_finish(ax_replay *r, char *err, size_t errlen)
{
    if (!r->started)
        return ax_fail(err, errlen, AX_REPLAY_MALFORMED, "empty record");
    if (!r->ended)
        return ax_fail(err, errlen, AX_REPLAY_MALFORMED,
                       "line %d: the record stops before the game is over", r->line);
    return AX_REPLAY_OK;
}
