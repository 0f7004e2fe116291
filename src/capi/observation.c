/*
 * observation.c - one seat's observation as a flat int8 array, laid out in
 * the sections spec.c names (docs/python.md draws them).
 *
 * It reads only what the seat may know (rules 1.3): the board or display,
 * its own rack, the tracks, whose turn and the phase, and counts that every
 * player sees (tiles in the bag, in each rack and stack). It never reads
 * another seat's tiles, the bag's or a stack's contents, the seed or the
 * generator, so the observation of a game and of the seat's view of it
 * (ax_view) are the same; tests/python checks that, and that two deals that
 * differ only in hidden tiles look the same.
 *
 * Seats are listed from the observer on (the observer, then the next seat
 * to play, ...), so a policy sees every game from its own chair; `seat`
 * gives its absolute place at the table.
 */
#include "capi.h"

#include <string.h>

static int8_t *section(const capi_space *s, int8_t *obs, int k)
{
    return obs + s->spec.sections[k].offset;
}

static void one_hot_tile(int8_t *dst, ax_tile t, int corners, int ncolors)
{
    for (int i = 0; i < corners; i++)
        if (t.sym[i] >= 0 && t.sym[i] < ncolors)
            dst[i * ncolors + t.sym[i]] = 1;
}

static int grid_board(const capi_space *s, const ax_game *g, int8_t *obs)
{
    int8_t *board = section(s, obs, 0);
    const int ncells = s->ncells;
    memset(board, 0, (size_t)s->spec.sections[0].size);
    for (int c = 0; c < ncells; c++)
        board[s->plane_at[g->cell[s->obs_cell[c]] & 15] + c] = 1;
    for (int f = 0; f < g->nfields; f++)
        if (!(g->fields_touched & (1u << f)) && s->field_window[f] >= 0)
            board[8 * ncells + s->field_window[f]] = 1;
    return 1;
}

/* The board section of a row that shows `shown`: the planes of the cells
 * that changed since (a placement changes two, a pyramid a few more).
 * `shown` mirrors the grid's cells a window row at a time (a row is a run
 * of consecutive grid cells, spec.c; a window is 9 to 15 cells wide), so a
 * row is compared in two overlapping 8-byte loads. */
static int grid_board_update(const capi_space *s, const ax_game *g, int8_t *obs, capi_shown *shown)
{
    const int window = s->spec.window;
    if (!shown->board_valid) {
        grid_board(s, g, obs);
        for (int row = 0; row < window; row++)
            memcpy(shown->cell + row * window, g->cell + s->row_start[row], (size_t)window);
        shown->fields_touched = g->fields_touched;
        shown->board_valid = true;
        return 1;
    }
    int8_t *board = section(s, obs, 0);
    for (int row = 0; row < window; row++) {
        const uint8_t *now = g->cell + s->row_start[row];
        uint8_t *then = shown->cell + row * window;
        uint64_t a, b, c, d;
        memcpy(&a, now, 8);
        memcpy(&b, then, 8);
        memcpy(&c, now + window - 8, 8);
        memcpy(&d, then + window - 8, 8);
        if (a == b && c == d)
            continue;
        for (int col = 0; col < window; col++) {
            if (now[col] == then[col])
                continue;
            int cell = row * window + col;
            if (s->cell_of[cell] >= 0) {
                board[s->plane_at[then[col] & 15] + cell] = 0;
                board[s->plane_at[now[col] & 15] + cell] = 1;
            }
            then[col] = now[col];
        }
    }
    unsigned changed = (unsigned)(g->fields_touched ^ shown->fields_touched);
    for (int f = 0; f < g->nfields; f++)
        if ((changed >> f) & 1 && s->field_window[f] >= 0)
            board[8 * s->ncells + s->field_window[f]] = !(g->fields_touched & (1u << f));
    shown->fields_touched = g->fields_touched;
    return 1;
}

/* The display at corner resolution: cell (x, y) of the window covers rows
 * 2(y - y0) .. +1 and columns 2(x - x0) .. +1, corner NW top-left, NE
 * top-right, SE bottom-right, SW bottom-left, so the four corners of a circle
 * form a 2x2 block. Planes: 0-4 colours, 5 the empty corner of a tile, 6 a
 * frontier cell. */
static int rota_display(const capi_space *s, const ax_game *g, const capi_legal *l, int8_t *obs)
{
    const axio_spec *sp = &s->spec;
    const int side = 2 * sp->window, plane = side * side, window = sp->window;
    int8_t *display = section(s, obs, 0);
    memset(display, 0, (size_t)sp->sections[0].size);
    /* where each corner's byte lies from the cell's top-left one: NW, NE, SE, SW */
    const int corner_at[4] = {0, 1, side + 1, side};
    /* the plane of a corner: AX_UNSET (a frontier cell) 6, AX_NO_COLOR 5, colours 0-4 */
    const int plane_at[7] = {6 * plane, 5 * plane, 0, plane, 2 * plane, 3 * plane, 4 * plane};
    const ax_rota_board *b = &g->rota;
    for (int id = 0; id < b->ncells; id++) {
        int wx = b->x[id] - sp->x0, wy = b->y[id] - sp->y0;
        if ((unsigned)wx >= (unsigned)window || (unsigned)wy >= (unsigned)window)
            continue;
        int8_t *at = display + 2 * wy * side + 2 * wx;
        const int8_t *sym = b->placed[id].sym;
        for (int i = 0; i < 4; i++)
            at[plane_at[sym[i] + 2] + corner_at[i]] = 1;
    }
    int8_t *frontier = section(s, obs, 1);
    memset(frontier, 0, (size_t)sp->sections[1].size);
    for (int k = 0; k < l->nslots; k++) {
        frontier[3 * k] = 1;
        frontier[3 * k + 1] = (int8_t)l->slot_x[k];
        frontier[3 * k + 2] = (int8_t)l->slot_y[k];
    }
    return 2;
}

/* The sections after the board or display, from section k on. */
static void observe_rest(const capi_space *s, const ax_game *g, int seat, int8_t *obs, int k)
{
    const axio_spec *sp = &s->spec;
    const int p = sp->players, ncolors = sp->ncolors, sides = sp->sides;
    /* the sections follow one another to the end: cleared in one call, then
     * the ones set (rather than one small call per one-hot section) */
    int8_t *rack = section(s, obs, k);
    memset(rack, 0, (size_t)(sp->obs_size - sp->sections[k].offset));
    /* own rack (rota: the hand tile as printed) */
    const int corners = sp->variant == AX_ROTA ? 4 : 2, nrack = g->rack_n[seat];
    for (int r = 0; r < nrack; r++)
        one_hot_tile(rack + r * corners * ncolors, g->rack[seat][r], corners, ncolors);
    k++;

    /* from the observer's chair: seat + i, wrapped (no division in the hot path) */
    int8_t *tracks = section(s, obs, k++);
    int owner = ax_track_owner(g, seat);
    for (int row = 0; row < sides; row++, owner = owner + 1 == sides ? 0 : owner + 1)
        for (int c = 0; c < ncolors; c++)
            tracks[row * ncolors + c] = (int8_t)g->track[owner][c];

    int8_t *to_move = section(s, obs, k++), *seat_hot = section(s, obs, k++);
    int ahead = g->to_move - seat;
    to_move[ahead < 0 ? ahead + p : ahead] = 1;
    seat_hot[seat] = 1;

    int8_t *phase = section(s, obs, k++);
    phase[g->phase == AX_PHASE_OVER ? 3 : g->phase == AX_PHASE_SWAP ? 2 : g->in_bonus ? 1 : 0] = 1;
    *section(s, obs, k++) = (int8_t)g->bonus_pending;
    *section(s, obs, k++) = (int8_t)g->bag_n; /* the bag, or rota's supply */

    int8_t *racks = section(s, obs, k++), *third = section(s, obs, k++);
    const bool rota = sp->variant == AX_ROTA;
    for (int i = 0, other = seat; i < p; i++, other = other + 1 == p ? 0 : other + 1) {
        racks[i] = (int8_t)g->rack_n[other];
        third[i] = (int8_t)(rota ? g->stack_n[other] : g->placed_by[other] == 0);
    }
}

void capi_observe(const capi_space *s, const ax_game *g, const capi_legal *l, int seat, int8_t *obs)
{
    int k = s->spec.variant == AX_ROTA ? rota_display(s, g, l, obs) : grid_board(s, g, obs);
    observe_rest(s, g, seat, obs, k);
}

void capi_observe_row(const capi_space *s, const ax_game *g, const capi_legal *l, int seat,
                      int8_t *obs, capi_shown *shown)
{
    int k = s->spec.variant == AX_ROTA ? rota_display(s, g, l, obs)
                                       : grid_board_update(s, g, obs, shown);
    observe_rest(s, g, seat, obs, k);
}
