/*
 * players.c - the computer players of src/ai behind the C ABI. A player
 * decides for the seat to move from that seat's view (ax_view) only, like
 * everywhere else in axio; its decision comes back as an action number.
 */
#include "../ai/player.h"
#include "capi.h"

#include <stdlib.h>

struct axio_player {
    ax_player *player;
};

int axio_player_new(const char *name, uint64_t seed, int movetime_ms, long playouts,
                    axio_player **out)
{
    if (!name || movetime_ms < 0 || playouts < 0)
        return AXIO_E_CONFIG;
    axio_player *p = malloc(sizeof *p);
    if (!p)
        return AXIO_E_MEMORY;
    p->player = ax_player_new(name, seed);
    if (!p->player) {
        free(p);
        return AXIO_E_CONFIG; /* no player of that name */
    }
    if (playouts > 0) {
        ax_player_set_playouts(p->player, playouts);
        ax_player_set_movetime(p->player, movetime_ms); /* 0: the playouts alone */
    } else if (movetime_ms > 0) {
        ax_player_set_movetime(p->player, movetime_ms);
    }
    *out = p;
    return AXIO_OK;
}

void axio_player_free(axio_player *p)
{
    if (!p)
        return;
    ax_player_free(p->player);
    free(p);
}

int axio_player_decide(axio_player *p, const axio_game *h, int32_t *action)
{
    const ax_game *g = &h->play.g;
    if (g->phase == AX_PHASE_OVER)
        return AXIO_E_OVER;
    if (h->play.is_view)
        return AXIO_E_VIEW;
    ax_game *view = malloc(sizeof *view);
    if (!view)
        return AXIO_E_MEMORY;
    ax_move m;
    ax_view(g, g->to_move, view);
    ax_player_decide(p->player, view, g->to_move, &m);
    free(view);
    *action = capi_action_encode(&h->space, g, &h->play.legal, &m);
    return *action >= 0 ? AXIO_OK : AXIO_E_ILLEGAL;
}
