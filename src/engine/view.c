/*
 * view.c - hidden information (rules 1.3).
 *
 * A view is an ax_game with every tile its seat may not see replaced by an
 * unknown tile, and no seed or generator state: what a seat can know and
 * nothing more. A determinization refills the unknowns with a random deal of
 * the tiles the seat has not seen, for search that reasons by sampling.
 */
#include "engine.h"

#include <string.h>

static const ax_tile unknown_tile = {{AX_UNSET, AX_UNSET, AX_UNSET, AX_UNSET}};

static void hide(ax_tile *tiles, int n)
{
    for (int i = 0; i < n; i++)
        tiles[i] = unknown_tile;
}

void ax_view(const ax_game *g, int seat, ax_game *view)
{
    *view = *g;
    if (g->phase == AX_PHASE_OVER)
        return; /* the record reveals everything once the game is over */
    view->seed = 0;
    ax_rng_seed(&view->rng, 0); /* hides the real state, yet stays a working generator */
    hide(view->bag, view->bag_n);
    for (int s = 0; s < g->players; s++) {
        hide(view->stack[s], view->stack_n[s]);
        if (s != seat)
            hide(view->rack[s], view->rack_n[s]);
    }
}

/* Removes one tile equal to t from the list; returns whether it was there. */
static bool take_tile(ax_tile *tiles, int *n, ax_tile t)
{
    for (int i = 0; i < *n; i++)
        if (ax_tile_equal(tiles[i], t)) {
            tiles[i] = tiles[--*n];
            return true;
        }
    return false;
}

static void fill_unknown(ax_tile *tiles, int n, const ax_tile *pool, int *used)
{
    for (int i = 0; i < n; i++)
        if (tiles[i].sym[0] == AX_UNSET)
            tiles[i] = pool[(*used)++];
}

void ax_determinize(const ax_game *view, uint64_t seed, ax_game *out)
{
    *out = *view;
    ax_tile unseen[AX_MAX_TILES];
    int n = ax_tile_set(view->variant, unseen);
    for (int i = 0; i < view->board_n; i++)
        take_tile(unseen, &n, view->board_tiles[i]);
    for (int s = 0; s < view->players; s++)
        for (int r = 0; r < view->rack_n[s]; r++)
            if (view->rack[s][r].sym[0] != AX_UNSET)
                take_tile(unseen, &n, view->rack[s][r]);
    ax_rng_seed(&out->rng, seed);
    out->seed = seed;
    ax_shuffle(&out->rng, unseen, n);
    int used = 0;
    for (int s = 0; s < view->players; s++) {
        fill_unknown(out->rack[s], out->rack_n[s], unseen, &used);
        fill_unknown(out->stack[s], out->stack_n[s], unseen, &used);
    }
    fill_unknown(out->bag, out->bag_n, unseen, &used);
}
