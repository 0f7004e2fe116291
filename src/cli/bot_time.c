/*
 * bot_time.c - the movetime of `axio bot`'s decisions (bot_time.h).
 */
#include "bot_time.h"

#include <string.h>

#define MIN_MOVETIME   10
#define MAX_RESERVE_MS 1000.0
#define MIN_DECISIONS  4

static double number(json_t *v, double otherwise)
{
    return json_is_number(v) ? json_number_value(v) : otherwise;
}

/* A rack is a list of tiles (one's own) or a count (another's). */
static int rack_count(json_t *rack)
{
    return json_is_array(rack) ? (int)json_array_size(rack) : (int)number(rack, 0);
}

int time_decisions_left(json_t *position, int seat)
{
    json_t *seats = json_object_get(position, "seats");
    const char *variant = json_string_value(json_object_get(position, "variant"));
    int left = 0;
    if (variant && strcmp(variant, "rota") == 0) { /* its own stack and hand */
        json_t *mine = json_array_get(seats, (size_t)seat);
        left = (int)number(json_object_get(mine, "stack"), 0) +
               rack_count(json_object_get(mine, "rack"));
    } else {
        int tiles = (int)number(json_object_get(position, "bag"), 0), playing = 0;
        size_t i;
        json_t *s;
        json_array_foreach(seats, i, s)
        {
            tiles += rack_count(json_object_get(s, "rack"));
            playing += json_is_null(json_object_get(s, "left")) || !json_object_get(s, "left");
        }
        int area = (int)number(json_object_get(position, "area"), 0);
        bool hex = variant && strcmp(variant, "hex") == 0;
        int cells = hex ? 3 * area * (area + 1) + 1 : area * area;
        static const char *const taken[] = {"fields", "cells", "pyramids", "dead"};
        for (size_t k = 0; k < sizeof taken / sizeof taken[0]; k++)
            cells -= (int)json_array_size(json_object_get(position, taken[k]));
        int room = cells / 2 + cells / 8; /* the dominoes that fit, and a quarter more */
        if (tiles > room)
            tiles = room;
        if (playing < 1)
            playing = 1;
        left = (tiles + playing - 1) / playing;
    }
    return left < MIN_DECISIONS ? MIN_DECISIONS : left;
}

int time_movetime(json_t *game, int seat, json_t *position, int cap_ms, bool *clocked)
{
    json_t *clock = json_object_get(game, "clock");
    json_t *ms = json_array_get(json_object_get(game, "clocks"), (size_t)seat);
    *clocked = json_is_object(clock) && json_is_number(ms);
    if (!*clocked)
        return cap_ms;
    double left = json_number_value(ms);
    double reserve = left / 4 < MAX_RESERVE_MS ? left / 4 : MAX_RESERVE_MS;
    double usable = left - reserve, movetime;
    const char *kind = json_string_value(json_object_get(clock, "kind"));
    if (kind && strcmp(kind, "daily") == 0) {
        movetime = usable;
    } else {
        double increment = number(json_object_get(clock, "increment_s"), 0) * 1000.0;
        movetime = usable / time_decisions_left(position, seat) + increment * 0.75;
        if (movetime > usable)
            movetime = usable;
    }
    if (movetime > cap_ms)
        movetime = cap_ms;
    return movetime < MIN_MOVETIME ? MIN_MOVETIME : (int)movetime;
}
