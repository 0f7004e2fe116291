/*
 * spec.c - the spaces of one configuration: how many actions, how large an
 * observation and where each of its sections lies, and the tables that map
 * the observation's board window onto the engine's grid.
 *
 * The board window is the play area: square's A x A cells from its top-left
 * cell; hex's (2R+1) x (2R+1) axial square [q, r] in -R..R, whose cells
 * outside the hexagon are marked off. ROTA has no bounds: the display is
 * drawn in a fixed window of W x W cells around the start tiles (W = 12 for
 * one or two players, 16 for more: it holds the whole frontier at 95-99% of
 * the decisions, docs/python.md), and the legal cells, which it may miss,
 * are numbered (frontier slots) and listed with their coordinates.
 * A display of n tiles, connected and holding the 2x2 start block, has at
 * most 2n empty cells next to it (4n sides, at least n shared pairs), and a
 * game places at most 4 + 12p + 5p of the 60 tiles (stacks, and one bonus
 * move per colour and seat): that bounds the slots.
 */
#include "capi.h"

#include <string.h>

static void add_section(axio_spec *sp, const char *name, int ndim, const int *shape, int low,
                        int high)
{
    axio_section *sec = &sp->sections[sp->nsections++];
    memset(sec, 0, sizeof *sec);
    strncpy(sec->name, name, sizeof sec->name - 1);
    sec->offset = sp->obs_size;
    sec->ndim = ndim;
    sec->size = 1;
    for (int i = 0; i < ndim; i++) {
        sec->shape[i] = shape[i];
        sec->size *= shape[i];
    }
    sec->low = low;
    sec->high = high;
    sp->obs_size += sec->size;
}

#define SECTION(sp, name, low, high, ...)                                                          \
    do {                                                                                           \
        const int shape_[] = {__VA_ARGS__};                                                        \
        add_section(sp, name, (int)(sizeof shape_ / sizeof shape_[0]), shape_, low, high);         \
    } while (0)

/* The sections after the board, shared by all variants. */
static void add_common(capi_space *s)
{
    axio_spec *sp = &s->spec;
    SECTION(sp, "tracks", 0, s->max_score, sp->sides, sp->ncolors);
    SECTION(sp, "to_move", 0, 1, sp->players);
    SECTION(sp, "seat", 0, 1, sp->players);
    SECTION(sp, "phase", 0, 1, CAPI_PHASES);
    SECTION(sp, "bonus", 0, 2 * AX_MAX_COLORS, 1);
}

static int grid_space(capi_space *s, const ax_game *g)
{
    axio_spec *sp = &s->spec;
    int window = g->variant == AX_SQUARE ? g->area : 2 * g->area + 1;
    /* the mask spreads a window row from 16 bits, a batch compares one in two 8-byte loads */
    if (window < 8 || window > CAPI_MAX_WINDOW)
        return AXIO_E_CONFIG;
    sp->window = window;
    sp->ndirs = ax_direction_count(g);
    s->half = sp->ndirs / 2;
    s->ncells = window * window;
    int first_a = g->variant == AX_SQUARE ? (13 - g->area) / 2 : -g->area; /* row, or r */
    int first_b = first_a;                                                 /* col, or q */
    for (int i = 0; i < AX_GRID_CELLS; i++)
        s->window_of[i] = -1;
    for (int row = 0; row < window; row++) {
        s->row_start[row] = -1;
        for (int col = 0; col < window; col++) {
            int a = g->variant == AX_SQUARE ? first_a + row : first_b + col; /* row or q */
            int b = g->variant == AX_SQUARE ? first_b + col : first_a + row; /* col or r */
            int cell = ax_cell_index(g, a, b);
            s->cell_of[row * window + col] = (int16_t)cell;
            if (cell < 0)
                continue;
            s->window_of[cell] = (int16_t)(row * window + col);
            /* a window row must be consecutive grid cells: the mask reads it as bits */
            if (s->row_start[row] < 0)
                s->row_start[row] = (int16_t)(cell - col);
            else if (s->row_start[row] != cell - col)
                return AXIO_E_CONFIG;
        }
        if (s->row_start[row] < 0 || s->row_start[row] + window > AX_GRID_CELLS)
            return AXIO_E_CONFIG;
    }
    for (int f = 0; f < g->nfields; f++)
        s->field_window[f] = s->window_of[g->field_cell[f]];
    /* board planes (observation.c): square 0-4 colours, 5 empty, 6 pyramid,
     * 7 dead; hex 0-5 colours, 6 empty, 7 off the play area */
    for (int content = 0; content < 16; content++) {
        int plane = content < g->ncolors    ? content
                    : content == AX_EMPTY   ? g->ncolors
                    : content == AX_PYRAMID ? 6
                                            : 7; /* dead (square), off (hex) */
        s->plane_at[content] = (int16_t)(plane * s->ncells);
    }
    s->off_cell = -1;
    for (int i = 0; i < AX_GRID_CELLS && s->off_cell < 0; i++)
        if (g->cell[i] == AX_OFF)
            s->off_cell = (int16_t)i;
    for (int c = 0; c < s->ncells; c++) /* window cells beyond the board read as off */
        s->obs_cell[c] = s->cell_of[c] >= 0 ? s->cell_of[c] : s->off_cell;
    sp->swap_action = -1;
    sp->num_actions = sp->rack_size * sp->ndirs * s->ncells;
    if (sp->mode != AX_SOLO) { /* keep, swap */
        sp->swap_action = sp->num_actions;
        sp->num_actions += 2;
    }
    SECTION(sp, "board", 0, 1, 9, window, window);
    SECTION(sp, "rack", 0, 1, sp->rack_size, 2, sp->ncolors);
    add_common(s);
    SECTION(sp, "bag", 0, AX_MAX_TILES, 1);
    SECTION(sp, "racks", 0, sp->rack_size, sp->players);
    SECTION(sp, "first_tile", 0, 1, sp->players);
    return AXIO_OK;
}

static void rota_space(capi_space *s)
{
    axio_spec *sp = &s->spec;
    int p = sp->players, placed = 4 + 17 * p;
    placed = placed < AX_ROTA_TILES ? placed : AX_ROTA_TILES;
    sp->slots = 2 * placed;
    sp->window = p <= 2 ? 12 : 16;
    sp->x0 = sp->y0 = -(sp->window / 2 - 1);
    sp->ndirs = 0;
    sp->swap_action = -1;
    sp->num_actions = sp->slots * 4 * (1 + sp->ncolors);
    SECTION(sp, "display", 0, 1, 7, 2 * sp->window, 2 * sp->window);
    SECTION(sp, "frontier", -64, 64, sp->slots, 3);
    SECTION(sp, "hand", 0, 1, 1, 4, sp->ncolors);
    add_common(s);
    SECTION(sp, "supply", 0, AX_ROTA_TILES, 1);
    SECTION(sp, "hands", 0, 1, p);
    SECTION(sp, "stacks", 0, AX_ROTA_STACK, p);
}

int capi_space_init(capi_space *s, int variant, int players, int mode)
{
    memset(s, 0, sizeof *s);
    ax_game *g = &(ax_game){0};
    if (ax_game_init(g, variant, players, mode, 0, NULL) != AX_OK)
        return AXIO_E_CONFIG;
    axio_spec *sp = &s->spec;
    sp->variant = variant;
    sp->players = players;
    sp->mode = mode;
    sp->ncolors = g->ncolors;
    sp->rack_size = g->rack_size;
    sp->sides = ax_sides(g);
    s->max_score = ax_max_score(g);
    if (variant == AX_ROTA) {
        rota_space(s);
        return AXIO_OK;
    }
    return grid_space(s, g);
}

int axio_abi_version(void) { return AXIO_ABI_VERSION; }

int axio_spec_get(const char *variant, int players, const char *mode, axio_spec *out)
{
    int v = variant ? ax_variant_parse(variant) : -1;
    int m = mode ? ax_mode_parse(mode) : players == 1 ? AX_SOLO : AX_STANDARD;
    if (v < 0 || m < 0 || ax_config_check(v, players, m) != AX_OK)
        return AXIO_E_CONFIG;
    capi_space s;
    int err = capi_space_init(&s, v, players, m);
    if (err == AXIO_OK)
        *out = s.spec;
    return err;
}
