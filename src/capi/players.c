/*
 * players.c - the computer players of src/ai behind the C ABI, by player
 * name or by the server's level name. A player decides for the seat to move
 * from that seat's view (ax_view) only, like everywhere else in axio; its
 * decision comes back as an action number.
 *
 * A level (src/ai/levels.c: random, greedy, strong, expert) may play
 * another player in one variant than in another (Expert: strong-deep, in ROTA
 * strong-whole) and has a think time: the level's table decides both, this
 * file only looks them up, and makes the player of a variant when a game of
 * that variant first asks it for a decision.
 */
#include "../ai/levels.h"
#include "../ai/player.h"
#include "capi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct axio_player {
    const ai_level *level; /* NULL: the player `name` in every variant */
    char name[32];
    uint64_t seed;
    int movetime_ms;
    long playouts;
    ax_player *player[AX_VARIANTS]; /* made when a game of that variant first asks */
};

static ax_player *make_player(const axio_player *p, const char *name)
{
    ax_player *made = ax_player_new(name, p->seed);
    if (!made)
        return NULL;
    int movetime = p->movetime_ms;
    if (!movetime && !p->playouts && p->level)
        movetime = p->level->think_ms; /* the level's time, as the server gives it */
    if (p->playouts > 0) {
        ax_player_set_playouts(made, p->playouts);
        ax_player_set_movetime(made, movetime); /* 0: the playouts alone */
    } else if (movetime > 0) {
        ax_player_set_movetime(made, movetime);
    }
    return made;
}

int axio_player_new(const char *name, uint64_t seed, int movetime_ms, long playouts,
                    axio_player **out)
{
    if (!name || movetime_ms < 0 || playouts < 0 || strlen(name) >= sizeof((axio_player *)0)->name)
        return AXIO_E_CONFIG;
    axio_player *p = calloc(1, sizeof *p);
    if (!p)
        return AXIO_E_MEMORY;
    strcpy(p->name, name);
    p->seed = seed;
    p->movetime_ms = movetime_ms;
    p->playouts = playouts;
    p->level = ai_level_find(name);
    if (!p->level) { /* a player's own name: check it exists now */
        ax_player *probe = ax_player_new(name, seed);
        if (!probe) {
            free(p);
            return AXIO_E_CONFIG;
        }
        ax_player_free(probe);
    }
    *out = p;
    return AXIO_OK;
}

void axio_player_free(axio_player *p)
{
    if (!p)
        return;
    for (int v = 0; v < AX_VARIANTS; v++)
        ax_player_free(p->player[v]);
    free(p);
}

int axio_player_decide(axio_player *p, const axio_game *h, int32_t *action)
{
    const ax_game *g = &h->play.g;
    if (g->phase == AX_PHASE_OVER)
        return AXIO_E_OVER;
    if (h->play.is_view)
        return AXIO_E_VIEW;
    int v = g->variant;
    if (!p->player[v]) {
        p->player[v] = make_player(p, p->level ? ai_level_player(p->level, v) : p->name);
        if (!p->player[v])
            return AXIO_E_MEMORY;
    }
    ax_game *view = malloc(sizeof *view);
    if (!view)
        return AXIO_E_MEMORY;
    ax_move m;
    ax_view(g, g->to_move, view);
    ax_player_decide(p->player[v], view, g->to_move, &m);
    free(view);
    *action = capi_action_encode(&h->space, g, &h->play.legal, &m);
    return *action >= 0 ? AXIO_OK : AXIO_E_ILLEGAL;
}

int axio_level(const char *name, int variant, const char **player, int *think_ms)
{
    const ai_level *level = ai_level_find(name);
    if (!level)
        return AXIO_E_CONFIG;
    if (variant < 0 || variant >= AX_VARIANTS)
        return AXIO_E_CONFIG;
    *player = ai_level_player(level, variant);
    *think_ms = level->think_ms;
    return AXIO_OK;
}

int axio_level_names(char *out, size_t size)
{
    ai_level_list(out, size);
    return AXIO_OK;
}

int axio_player_exists(const char *name)
{
    if (!name)
        return 0;
    if (ai_level_find(name))
        return 1;
    ax_player *probe = ax_player_new(name, 0);
    ax_player_free(probe);
    return probe != NULL;
}
