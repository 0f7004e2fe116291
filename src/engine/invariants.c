/*
 * invariants.c - re-checks a game's internal consistency.
 *
 * Debug builds (and so the sanitizer test run) assert it after every
 * decision, in the manner of chess engines' board checks: every tile of the
 * set is in exactly one place, the empty-cell bitset matches the cells,
 * tracks stay within the last threshold, pyramids stand where the ring says,
 * the leaving order numbers the seats that left 1..nleft, a game that
 * goes on still has two sides that play, and what the boards keep up to
 * date as cells change (open pairs, potentials, the ROTA frontier and the
 * cells around each entry) is what the cells give when made again.
 */
#include "engine.h"

static bool leaves_consistent(const ax_game *g)
{
    int seen = 0; /* bit k: leaving order k+1 given out */
    for (int s = 0; s < g->players; s++) {
        int order = g->left[s];
        if (!order) {
            if (g->left_why[s])
                return false;
            continue;
        }
        if (order > g->nleft || (seen >> (order - 1)) & 1 || g->left_why[s] > AX_LEAVE_ABSENT)
            return false;
        seen |= 1 << (order - 1);
    }
    if (seen != (1 << g->nleft) - 1)
        return false;
    for (int s = g->players; s < AX_MAX_PLAYERS; s++)
        if (g->left[s] || g->left_why[s])
            return false;
    int staying = 0;
    for (int side = 0; side < ax_sides(g); side++)
        staying += ax_side_left(g, side) == 0;
    return g->phase == AX_PHASE_OVER || g->nleft == 0 || staying >= 2;
}

bool ax_game_consistent(const ax_game *g)
{
    if (g->nleft > g->players || !leaves_consistent(g))
        return false;
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
        return g->rota.ncells <= AX_ROTA_CELLS && g->rota.nfrontier > 0 &&
               ax_rota_board_consistent(&g->rota);
    for (int i = 0; i < AX_GRID_CELLS; i++) {
        bool bit = (g->empty[i / 64] >> (i % 64)) & 1;
        if (bit != (g->cell[i] == AX_EMPTY))
            return false;
    }
    for (int p = 0; p < g->pyramids_n; p++)
        if (g->cell[g->pyramid_cell[p]] != AX_PYRAMID)
            return false;
    return ax_grid_state_consistent(g);
}
