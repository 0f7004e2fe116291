/*
 * levels.c - the table of computer levels (levels.h).
 *
 * `strong` and `expert` are the same search, judging by the learned
 * evaluation. In AXIO and Hex both search the replies three plies deep
 * over 32 candidates (Hex: 64): Strong for 300 ms, an answer that feels
 * immediate, stopping once its choice is clear (`strong-deep-early`, which
 * issue 53's faster engine made affordable in 300 ms: it beat `strong`
 * 0.675 of 200 games in AXIO), Expert spending a whole second
 * (`strong-deep`). In ROTA the deeper tree won 0.480 of 400 games against
 * `strong` at the same second, so Strong there is `strong`, and Expert
 * `strong` spending its whole second (`strong-whole`: stopping early lost
 * to the Expert before; docs/ai.md, "Levels").
 * The server's queue may shorten either (src/server/game/ai_workers.c).
 */
#include "levels.h"

#include <stdio.h>
#include <string.h>

/* clang-format off */
const ai_level ai_levels[] = {
    /*          square               rota            hex */
    {"random", {"random",            "random",       "random"},            0},
    {"greedy", {"greedy",            "greedy",       "greedy"},            0},
    {"strong", {"strong-deep-early", "strong",       "strong-deep-early"}, 300},
    {"expert", {"strong-deep",       "strong-whole", "strong-deep"},       1000},
    {NULL,     {NULL,                NULL,           NULL},                0},
};
/* clang-format on */

const ai_level *ai_level_find(const char *name)
{
    for (const ai_level *l = ai_levels; name && l->name; l++)
        if (strcmp(l->name, name) == 0)
            return l;
    return NULL;
}

const char *ai_level_player(const ai_level *level, int variant)
{
    return variant >= 0 && variant < AX_VARIANTS ? level->player[variant] : NULL;
}

void ai_level_list(char *out, size_t size)
{
    size_t used = 0;
    if (size)
        out[0] = 0;
    for (const ai_level *l = ai_levels; l->name && used < size; l++) {
        int n = snprintf(out + used, size - used, "%s%s", l == ai_levels ? "" : ", ", l->name);
        if (n < 0)
            return;
        used += (size_t)n;
    }
}
