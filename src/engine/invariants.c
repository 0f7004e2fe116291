/*
 * invariants.c - re-checks a game's internal consistency.
 *
 * Debug builds (and so the sanitizer test run) assert it after every
 * decision, in the manner of chess engines' board checks: every tile of the
 * set is in exactly one place, the empty-cell bitset matches the cells,
 * tracks stay within the last threshold, pyramids stand where the ring says.
 */
#include "engine.h"

bool ax_game_consistent(const ax_game *g)
{
    ax_tile set[AX_MAX_TILES];
    int total = g->bag_n + g->board_n;
    for (int s = 0; s < g->players; s++)
        total += g->rack_n[s] + g->stack_n[s];
    if (total != ax_tile_set(g->variant, set))
        return false;
    for (int o = 0; o < g->players; o++)
        for (int c = 0; c < g->ncolors; c++)
            if (g->track[o][c] > ax_max_score(g))
                return false;
    if (g->to_move >= g->players || g->rack_n[g->to_move] > g->rack_size)
        return false;
    if (g->variant == AX_ROTA)
        return g->rota.ncells <= AX_ROTA_CELLS && g->rota.nfrontier > 0;
    for (int i = 0; i < AX_GRID_CELLS; i++) {
        bool bit = (g->empty[i / 64] >> (i % 64)) & 1;
        if (bit != (g->cell[i] == AX_EMPTY))
            return false;
    }
    for (int p = 0; p < g->pyramids_n; p++)
        if (g->cell[g->pyramid_cell[p]] != AX_PYRAMID)
            return false;
    return true;
}
