/*
 * levels.h - the computer levels a game's seat can choose: a name people
 * understand, the player (src/ai) behind it and its think time.
 *
 * A level may play another player in one variant than in the others: what
 * pays at its think time differs (Expert's deeper tree is no better in ROTA).
 *
 * The level names are the protocol's (`{"kind":"ai","level":"strong"}`) and
 * each is a rated player of its own; the web client shows them as Beginner,
 * Casual, Strong and Expert (docs/ai.md has their measured strength). The
 * server seats them, the C ABI (src/capi/players.c) plays them by name.
 */
#ifndef AX_AI_LEVELS_H
#define AX_AI_LEVELS_H

#include <stddef.h>

#include "../engine/axio.h"

typedef struct {
    const char *name;                /* in the protocol, the records' seat names and the ratings */
    const char *player[AX_VARIANTS]; /* an ax_player name per ax_variant */
    int think_ms; /* per decision before the queue shortens it; 0: not searching */
} ai_level;

/* The levels, weakest first, ended by an entry whose name is NULL. */
extern const ai_level ai_levels[];

/* The level called `name`, or NULL. */
const ai_level *ai_level_find(const char *name);
/* The ax_player name the level plays in `variant` (an ax_variant). */
const char *ai_level_player(const ai_level *level, int variant);
/* Writes the names as a list for error messages: "random, greedy, ...". */
void ai_level_list(char *out, size_t size);

#endif
