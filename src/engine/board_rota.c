/*
 * board_rota.c - the growing display of AXIO ROTA (rules 3.1, 3.3).
 *
 * Cells have no bounds, so the display is a hash of the cells it knows:
 * placed tiles and the frontier (empty cells sharing a side with a placed
 * tile, the only legal places). Four corners meet at each vertex and form its
 * circle; a placed corner scores one point for each other corner of its
 * circle showing its colour, and the placed tile's empty corner scores as
 * the colour its player names (wild).
 */
#include "engine.h"

#include <assert.h>
#include <string.h>

static unsigned hash_cell(int x, int y)
{
    return ((unsigned)x * 73856093u ^ (unsigned)y * 19349663u) & (AX_ROTA_SLOTS - 1);
}

void ax_rota_clear(ax_rota_board *b)
{
    b->ncells = 0;
    b->nfrontier = 0;
    memset(b->slot, 0xff, sizeof b->slot);
}

int ax_rota_find(const ax_rota_board *b, int x, int y)
{
    for (unsigned h = hash_cell(x, y);; h = (h + 1) & (AX_ROTA_SLOTS - 1)) {
        int id = b->slot[h];
        if (id < 0)
            return -1;
        if (b->x[id] == x && b->y[id] == y)
            return id;
    }
}

static bool entry_placed(const ax_rota_board *b, int id)
{
    return b->placed[id].sym[0] != AX_UNSET;
}

/* Adds an empty frontier entry for (x, y), which must be unknown. */
static int add_frontier(ax_rota_board *b, int x, int y)
{
    assert(b->ncells < AX_ROTA_CELLS);
    int id = b->ncells++;
    b->x[id] = (int16_t)x;
    b->y[id] = (int16_t)y;
    memset(b->placed[id].sym, AX_UNSET, 4);
    b->frontier_pos[id] = b->nfrontier;
    b->frontier[b->nfrontier++] = (int16_t)id;
    unsigned h = hash_cell(x, y);
    while (b->slot[h] >= 0)
        h = (h + 1) & (AX_ROTA_SLOTS - 1);
    b->slot[h] = (int16_t)id;
    return id;
}

static void remove_frontier(ax_rota_board *b, int id)
{
    int pos = b->frontier_pos[id];
    if (pos < 0)
        return;
    int last = b->frontier[--b->nfrontier];
    b->frontier[pos] = (int16_t)last;
    b->frontier_pos[last] = (int16_t)pos;
    b->frontier_pos[id] = -1;
}

static const int side_dx[4] = {1, 0, -1, 0}, side_dy[4] = {0, 1, 0, -1};

void ax_rota_put(ax_rota_board *b, int x, int y, ax_tile placed)
{
    int id = ax_rota_find(b, x, y);
    if (id < 0)
        id = add_frontier(b, x, y);
    remove_frontier(b, id);
    b->placed[id] = placed;
    for (int s = 0; s < 4; s++)
        if (ax_rota_find(b, x + side_dx[s], y + side_dy[s]) < 0)
            add_frontier(b, x + side_dx[s], y + side_dy[s]);
}

bool ax_rota_is_frontier(const ax_rota_board *b, int x, int y)
{
    int id = ax_rota_find(b, x, y);
    return id >= 0 && !entry_placed(b, id);
}

/* The other three corners of the circle of corner `i` of cell (x, y):
 * their colours, AX_NO_COLOR where empty or no tile. */
static void circle_others(const ax_rota_board *b, int x, int y, int i, int8_t others[3])
{
    static const int corner_vx[4] = {0, 1, 1, 0}, corner_vy[4] = {0, 0, 1, 1};
    /* the cells around a vertex (vx, vy) and which of their corners meets it */
    static const int member_dx[4] = {-1, 0, -1, 0}, member_dy[4] = {-1, -1, 0, 0};
    static const int member_corner[4] = {2, 3, 1, 0};
    int vx = x + corner_vx[i], vy = y + corner_vy[i], n = 0;
    for (int k = 0; k < 4; k++) {
        int cx = vx + member_dx[k], cy = vy + member_dy[k];
        if (cx == x && cy == y)
            continue;
        int id = ax_rota_find(b, cx, cy);
        others[n++] = id >= 0 && entry_placed(b, id) ? b->placed[id].sym[member_corner[k]]
                                                     : (int8_t)AX_NO_COLOR;
    }
}

static int empty_corner(ax_tile t)
{
    for (int i = 0; i < 4; i++)
        if (t.sym[i] == AX_NO_COLOR)
            return i;
    return -1;
}

/* The points of corner `i` of a tile placed on (x, y) showing `color` (a
 * colour, or a negative number for none): the other corners of its circle
 * that show the same colour (rules 3.3 step 2). */
static int corner_points(const ax_game *g, int x, int y, int i, int color)
{
    if (color < 0)
        return 0;
    int8_t others[3];
    int n = 0;
    circle_others(&g->rota, x, y, i, others);
    for (int k = 0; k < 3; k++)
        n += others[k] == color;
    return n;
}

void ax_rota_points(const ax_game *g, ax_tile placed, int x, int y, int wild,
                    uint8_t points[AX_MAX_COLORS], bool *wild_scored)
{
    memset(points, 0, AX_MAX_COLORS);
    *wild_scored = false;
    for (int i = 0; i < 4; i++) {
        int color = placed.sym[i] == AX_NO_COLOR ? wild : placed.sym[i];
        int n = corner_points(g, x, y, i, color);
        if (n == 0)
            continue;
        points[color] = (uint8_t)(points[color] + n);
        if (placed.sym[i] == AX_NO_COLOR)
            *wild_scored = true;
    }
}

int ax_rota_lines(const ax_game *g, const ax_move *m, ax_line lines[AX_MAX_LINES])
{
    ax_tile placed = ax_tile_rotate(g->rack[g->to_move][0], m->rotation);
    int n = 0;
    for (int i = 0; i < 4; i++) {
        int color = placed.sym[i] == AX_NO_COLOR ? m->wild : placed.sym[i];
        int run = corner_points(g, m->x, m->y, i, color);
        if (run > 0)
            lines[n++] = (ax_line){.color = (int8_t)color,
                                   .points = (uint8_t)run,
                                   .dir = -1,
                                   .corner = (int8_t)i,
                                   .cell = -1};
    }
    return n;
}

ax_error ax_rota_check(const ax_game *g, const ax_move *m)
{
    if (m->rack_index != 0 || g->rack_n[g->to_move] == 0)
        return AX_ERR_RACK;
    if (m->rotation > 3)
        return AX_ERR_ROTATION;
    if (m->wild < AX_NO_COLOR || m->wild >= g->ncolors)
        return AX_ERR_WILD;
    if (!ax_rota_is_frontier(&g->rota, m->x, m->y))
        return AX_ERR_DISPLAY;
    return AX_OK;
}

int ax_rota_place(ax_game *g, const ax_move *m, bool *all_max, ax_events *out)
{
    int seat = g->to_move;
    ax_tile tile = g->rack[seat][0];
    ax_tile placed = ax_tile_rotate(tile, m->rotation);
    int wild = empty_corner(placed) >= 0 ? m->wild : AX_NO_COLOR;
    uint8_t points[AX_MAX_COLORS];
    bool wild_scored;
    ax_rota_points(g, placed, m->x, m->y, wild, points, &wild_scored);
    ax_rota_put(&g->rota, m->x, m->y, placed);
    g->rack_n[seat] = 0;
    g->board_tiles[g->board_n++] = tile;

    ax_unit_result res;
    ax_score_unit(g, seat, points, &res);
    ax_event *e = ax_event_add(out, AX_EV_PLACE, seat);
    if (e) {
        e->tile = placed;
        e->x = m->x;
        e->y = m->y;
        e->wild = (int8_t)(wild_scored ? wild : AX_NO_COLOR);
        e->bonus = g->in_bonus;
        memcpy(e->points, points, AX_MAX_COLORS);
        memcpy(e->score, g->track[ax_track_owner(g, seat)], AX_MAX_COLORS);
    }
    ax_emit_axio(g, seat, &res, out);
    *all_max = res.all_max;
    return res.bonus_moves;
}

/* Colours that the empty corner `i` of a tile on (x, y) could match. */
static int wild_options(const ax_game *g, int x, int y, int i, int8_t colors[3])
{
    int8_t others[3];
    int n = 0;
    circle_others(&g->rota, x, y, i, others);
    for (int k = 0; k < 3; k++) {
        bool seen = others[k] < 0;
        for (int q = 0; q < n; q++)
            seen |= colors[q] == others[k];
        if (!seen)
            colors[n++] = others[k];
    }
    return n;
}

static void rota_move(ax_move *m, int x, int y, int rotation, int wild)
{
    memset(m, 0, sizeof *m);
    m->kind = AX_MOVE_PLACE;
    m->x = (int16_t)x;
    m->y = (int16_t)y;
    m->rotation = (uint8_t)rotation;
    m->wild = (int8_t)wild;
}

/* Wild choices that name no matching colour are the same decision as none,
 * so each placement lists the matching colours, or none when there are none. */
int ax_rota_wild_choices(const ax_game *g, int x, int y, int rotation, int8_t colors[3])
{
    int e = empty_corner(g->rack[g->to_move][0]); /* as printed: turned, it is corner e + r */
    return e >= 0 ? wild_options(g, x, y, (e + rotation) & 3, colors) : 0;
}

#define WILD_GRID_CELLS (40 * 40) /* larger than nearly every display */

void ax_rota_wild_table(const ax_game *g, uint8_t (*sets)[4])
{
    const ax_rota_board *b = &g->rota;
    memset(sets, 0, (size_t)b->nfrontier * sizeof *sets);
    int e = empty_corner(g->rack[g->to_move][0]);
    if (e < 0)
        return;
    /* The display copied into a dense grid with a border of one empty cell,
     * so that every frontier cell's neighbours are array reads: a hash
     * lookup per neighbour and corner costs far more. */
    int minx = b->x[0], maxx = b->x[0], miny = b->y[0], maxy = b->y[0];
    for (int id = 1; id < b->ncells; id++) {
        minx = b->x[id] < minx ? b->x[id] : minx;
        maxx = b->x[id] > maxx ? b->x[id] : maxx;
        miny = b->y[id] < miny ? b->y[id] : miny;
        maxy = b->y[id] > maxy ? b->y[id] : maxy;
    }
    int width = maxx - minx + 3, height = maxy - miny + 3;
    int8_t grid[WILD_GRID_CELLS][4];
    if (width * height > WILD_GRID_CELLS) { /* a display too large for it: cell by cell */
        for (int f = 0; f < b->nfrontier; f++) {
            int id = b->frontier[f];
            for (int r = 0; r < 4; r++) {
                int8_t colors[3];
                int n = ax_rota_wild_choices(g, b->x[id], b->y[id], r, colors);
                for (int w = 0; w < n; w++)
                    sets[f][r] |= (uint8_t)(1u << colors[w]);
            }
        }
        return;
    }
    memset(grid, AX_NO_COLOR, (size_t)(width * height) * sizeof *grid);
    for (int id = 0; id < b->ncells; id++)
        if (entry_placed(b, id))
            memcpy(grid[(b->y[id] - miny + 1) * width + b->x[id] - minx + 1], b->placed[id].sym, 4);
    /* for each corner of a cell, the three other corners of its circle:
     * their cell as a grid offset, and which corner of it */
    static const int corner_vx[4] = {0, 1, 1, 0}, corner_vy[4] = {0, 0, 1, 1};
    static const int member_dx[4] = {-1, 0, -1, 0}, member_dy[4] = {-1, -1, 0, 0};
    static const int member_corner[4] = {2, 3, 1, 0};
    int other_at[4][3], other_corner[4][3];
    for (int i = 0; i < 4; i++)
        for (int k = 0, n = 0; k < 4; k++) {
            int dx = corner_vx[i] + member_dx[k], dy = corner_vy[i] + member_dy[k];
            if (dx || dy) {
                other_at[i][n] = dy * width + dx;
                other_corner[i][n++] = member_corner[k];
            }
        }
    for (int f = 0; f < b->nfrontier; f++) {
        int id = b->frontier[f];
        int at = (b->y[id] - miny + 1) * width + b->x[id] - minx + 1;
        for (int r = 0; r < 4; r++) {
            int i = (e + r) & 3; /* where the empty corner lies when turned r */
            unsigned bits = 0;
            for (int k = 0; k < 3; k++) {
                int color = grid[at + other_at[i][k]][other_corner[i][k]];
                bits |= (1u << (color & 7)) & -(unsigned)(color >= 0); /* no branch */
            }
            sets[f][r] = (uint8_t)bits;
        }
    }
}

int ax_rota_moves(const ax_game *g, ax_move *moves, int max)
{
    int n = 0;
    for (int f = 0; f < g->rota.nfrontier; f++) {
        int id = g->rota.frontier[f], x = g->rota.x[id], y = g->rota.y[id];
        for (int r = 0; r < 4; r++) {
            int8_t colors[3];
            int nw = ax_rota_wild_choices(g, x, y, r, colors);
            for (int w = 0; w < (nw ? nw : 1) && n < max; w++)
                rota_move(&moves[n++], x, y, r, nw ? colors[w] : AX_NO_COLOR);
        }
    }
    return n;
}

void ax_rota_random_move(const ax_game *g, ax_rng *rng, ax_move *m)
{
    assert(g->rota.nfrontier > 0);
    int id = g->rota.frontier[ax_rng_below(rng, (uint32_t)g->rota.nfrontier)];
    int x = g->rota.x[id], y = g->rota.y[id], r = (int)ax_rng_below(rng, 4);
    int e = empty_corner(ax_tile_rotate(g->rack[g->to_move][0], r));
    int8_t colors[3];
    int nw = e >= 0 ? wild_options(g, x, y, e, colors) : 0;
    rota_move(m, x, y, r, nw ? colors[ax_rng_below(rng, (uint32_t)nw)] : AX_NO_COLOR);
}
