/*
 * levels.c - the table of computer levels (levels.h).
 *
 * `strong` and `expert` are the same search, judging by the learned
 * evaluation, `expert` with a second a decision and, in AXIO and Hex, its
 * replies searched a ply deeper, twice the candidates (32, in Hex 64) and
 * the whole second spent (`strong-deep`): 300 ms answers feel immediate to a person, and the
 * deeper, wider search is what the extra time pays for there. In ROTA the
 * deeper tree won 0.480 of 400 games against `strong` at the same second,
 * and `strong` stopping early lost to the Expert before, so Expert plays
 * `strong` spending its whole second there (`strong-whole`; docs/ai.md,
 * "Levels").
 * The server's queue may shorten either (src/server/game/ai_workers.c).
 */
#include "levels.h"

#include <stdio.h>
#include <string.h>

/* clang-format off */
const ai_level ai_levels[] = {
    /*          square         rota      hex */
    {"random", {"random",      "random", "random"},      0},
    {"greedy", {"greedy",      "greedy", "greedy"},      0},
    {"strong", {"strong",      "strong", "strong"},      300},
    {"expert", {"strong-deep", "strong-whole", "strong-deep"}, 1000},
    {NULL,     {NULL,          NULL,     NULL},          0},
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
