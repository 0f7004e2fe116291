/* fixtures.c - see fixtures.h. */
#include "fixtures.h"

#include <assert.h>
#include <string.h>

void fixture_game(ax_game *g, int variant, int players, int mode)
{
    ax_error err = ax_game_init(g, variant, players, mode, 1, NULL);
    assert(err == AX_OK);
    (void)err;
}

void fixture_put(ax_game *g, int a, int b, int color)
{
    int cell = ax_cell_index(g, a, b);
    assert(cell >= 0 && g->cell[cell] == AX_EMPTY);
    ax_grid_put(g, cell, color);
}

void fixture_rack(ax_game *g, int seat, int n, const int pairs[][2])
{
    g->rack_n[seat] = (uint8_t)n;
    for (int i = 0; i < n; i++) {
        ax_tile t = {{(int8_t)pairs[i][0], (int8_t)pairs[i][1], AX_NO_COLOR, AX_NO_COLOR}};
        g->rack[seat][i] = t;
    }
}

ax_move fixture_domino(const ax_game *g, int rack_index, int a0, int b0, int a1, int b1)
{
    ax_move m;
    memset(&m, 0, sizeof m);
    m.kind = AX_MOVE_PLACE;
    m.rack_index = (uint8_t)rack_index;
    m.wild = AX_NO_COLOR;
    m.cells[0] = (int16_t)ax_cell_index(g, a0, b0);
    m.cells[1] = (int16_t)ax_cell_index(g, a1, b1);
    return m;
}

void fixture_after_first_round(ax_game *g)
{
    for (int s = 0; s < g->players; s++)
        g->placed_by[s] = 1;
}

char *fixture_dump(json_t *value)
{
    char *text = json_dumps(value, JSON_COMPACT);
    json_decref(value);
    return text;
}
