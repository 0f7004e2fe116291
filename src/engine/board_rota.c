/*
 * board_rota.c - the growing display of AXIO ROTA (rules 3.1, 3.3).
 *
 * Cells have no bounds. The display keeps an entry for every cell it
 * knows: placed tiles and the frontier (empty cells sharing a side with a
 * placed tile, the only legal places, also kept as a list, so that a
 * placement neither searches for them nor lists them). Four corners meet at
 * each vertex and form its circle; a placed corner scores one point for
 * each other corner of its circle showing its colour, and the placed tile's
 * empty corner scores as the colour its player names (wild).
 *
 * An entry is found by its coordinates modulo 64 (cell_at), one read. The
 * 60 tiles of a game span at most 60 cells in either direction (a display
 * grows by sides, and ax_position_read refuses a wider one), so the cells
 * within two of them, all that a placement or a circle reads, never share
 * a place there: the eight cells around a known cell are read without
 * checking their coordinates. A cell with no entry reads as entry
 * AX_ROTA_ENTRIES, whose tile is always empty, so a circle is read without
 * a branch.
 */
#include "engine.h"

#include <assert.h>
#include <stddef.h>
#include <string.h>

#define AT_SIDE 64              /* cell_at is AT_SIDE x AT_SIDE */
#define NONE    AX_ROTA_ENTRIES /* the entry of a cell the display does not know */

static unsigned at_index(int x, int y)
{
    return ((unsigned)y % AT_SIDE) * AT_SIDE + (unsigned)x % AT_SIDE;
}

static const ax_tile empty_tile = {{AX_UNSET, AX_UNSET, AX_UNSET, AX_UNSET}};

void ax_rota_start(ax_rota_board *b)
{
    b->ncells = 0;
    b->nfrontier = 0;
    b->placed[NONE] = empty_tile;
}

void ax_rota_clear(ax_rota_board *b)
{
    memset(b->cell_at, 0, sizeof b->cell_at);
    ax_rota_start(b);
}

/* The entry of any cell (x, y), or -1. */
static inline int find(const ax_rota_board *b, int x, int y)
{
    int id = b->cell_at[at_index(x, y)] - 1;
    return id >= 0 && b->x[id] == x && b->y[id] == y ? id : -1;
}

int ax_rota_find(const ax_rota_board *b, int x, int y) { return find(b, x, y); }

static bool entry_placed(const ax_rota_board *b, int id)
{
    return b->placed[id].sym[0] != AX_UNSET;
}

/* The eight cells around a cell, row by row. */
static const int around_dx[8] = {-1, 0, 1, -1, 1, -1, 0, 1};
static const int around_dy[8] = {-1, -1, -1, 0, 0, 1, 1, 1};

/* The sides of a cell, in the order a placement adds its new frontier
 * cells, and their index among the eight around it. */
static const int side_dx[4] = {1, 0, -1, 0}, side_dy[4] = {0, 1, 0, -1};
static const int side_around[4] = {4, 6, 3, 1};

/* The other three corners of the circle of each corner i of a cell, in
 * the order of the cells around the vertex (row by row, the cell itself
 * left out): which of the eight cells around, and which of its corners. */
static const struct {
    uint8_t around, corner;
} circle_members[4][3] = {{{0, 2}, {1, 3}, {3, 1}},
                          {{1, 2}, {2, 3}, {4, 0}},
                          {{4, 3}, {6, 1}, {7, 0}},
                          {{3, 2}, {5, 1}, {6, 0}}};

/* The entries of the eight cells around (x, y), NONE where there is none:
 * cells within the display's span, so their places in cell_at are theirs
 * alone (uint8_t arithmetic: no entry, 0, reads as 255, NONE). Inline: a
 * call left them in eight byte stores that the placement's points read back
 * as one word, which waited for the stores (no store forwarding). */
static inline __attribute__((always_inline)) void around_entries(const ax_rota_board *b, int x,
                                                                 int y, uint8_t around[8])
{
    unsigned row[3], col[3];
    for (int k = 0; k < 3; k++) {
        row[k] = ((unsigned)(y + k - 1) % AT_SIDE) * AT_SIDE;
        col[k] = (unsigned)(x + k - 1) % AT_SIDE;
    }
    around[0] = (uint8_t)(b->cell_at[row[0] + col[0]] - 1);
    around[1] = (uint8_t)(b->cell_at[row[0] + col[1]] - 1);
    around[2] = (uint8_t)(b->cell_at[row[0] + col[2]] - 1);
    around[3] = (uint8_t)(b->cell_at[row[1] + col[0]] - 1);
    around[4] = (uint8_t)(b->cell_at[row[1] + col[2]] - 1);
    around[5] = (uint8_t)(b->cell_at[row[2] + col[0]] - 1);
    around[6] = (uint8_t)(b->cell_at[row[2] + col[1]] - 1);
    around[7] = (uint8_t)(b->cell_at[row[2] + col[2]] - 1);
}

/* The same for any cell: each found by its coordinates. */
static void around_found(const ax_rota_board *b, int x, int y, uint8_t around[8])
{
    for (int k = 0; k < 8; k++) {
        int id = find(b, x + around_dx[k], y + around_dy[k]);
        around[k] = (uint8_t)(id >= 0 ? id : NONE);
    }
}

void ax_rota_around(const ax_rota_board *b, int id, int around[8])
{
    uint8_t ids[8];
    around_entries(b, b->x[id], b->y[id], ids);
    for (int k = 0; k < 8; k++)
        around[k] = ids[k] == NONE ? -1 : ids[k];
}

/* Adds an empty frontier entry for (x, y), which must be unknown and
 * within the display's span (its place in cell_at free). */
static int add_frontier(ax_rota_board *b, int x, int y)
{
    assert(b->ncells < AX_ROTA_ENTRIES && b->cell_at[at_index(x, y)] == 0);
    int id = b->ncells++;
    b->x[id] = (int16_t)x;
    b->y[id] = (int16_t)y;
    b->placed[id] = empty_tile;
    b->frontier_pos[id] = b->nfrontier;
    b->frontier[b->nfrontier++] = (int16_t)id;
    b->cell_at[at_index(x, y)] = (uint8_t)(id + 1);
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

/* Puts a tile on entry id at (x, y), whose neighbours are around[]: the
 * sides the display did not know join the frontier (which sides is as
 * random as the game: no branch to mispredict). Each side is written in
 * the first free slot, and counted, and found by cell_at, only when fresh;
 * a known side's place in cell_at receives its own entry again (around[]),
 * so that nothing is read back. A slot past ncells holds nothing. */
static void put_entry(ax_rota_board *b, int id, int x, int y, ax_tile placed,
                      const uint8_t around[8])
{
    remove_frontier(b, id);
    b->placed[id] = placed;
    int ncells = b->ncells, nfrontier = b->nfrontier, fresh_before = 0;
#pragma GCC unroll 4
    for (int s = 0; s < 4; s++) {
        int cx = x + side_dx[s], cy = y + side_dy[s];
        unsigned known = around[side_around[s]]; /* NONE when fresh */
        int fresh = known == NONE, slot = ncells + fresh_before, pos = nfrontier + fresh_before;
        assert(slot <= AX_ROTA_ENTRIES && (!fresh || slot < AX_ROTA_ENTRIES));
        assert(!fresh == (b->cell_at[at_index(cx, cy)] != 0));
        b->x[slot] = (int16_t)cx;
        b->y[slot] = (int16_t)cy;
        b->placed[slot] = empty_tile;
        b->frontier_pos[slot] = (int16_t)pos;
        b->frontier[pos] = (int16_t)slot;
        /* NONE + 1 wraps to 0 */
        b->cell_at[at_index(cx, cy)] =
            (uint8_t)(known + 1 + ((unsigned)(slot + 1) & -(unsigned)fresh));
        fresh_before += fresh;
    }
    b->ncells = (int16_t)(ncells + fresh_before);
    b->nfrontier = (int16_t)(nfrontier + fresh_before);
}

void ax_rota_put(ax_rota_board *b, int x, int y, ax_tile placed)
{
    int id = find(b, x, y);
    if (id < 0)
        id = add_frontier(b, x, y);
    uint8_t around[8];
    around_entries(b, x, y, around);
    put_entry(b, id, x, y, placed, around);
}

/* The display the deal leaves, written out: the four tiles on (0, 0),
 * (1, 0), (0, 1), (1, 1) and the eight frontier cells around them, entry by
 * entry as ax_rota_put leaves them one tile after the other (entry 12 too,
 * the slot its last call wrote without counting). Debug builds compare the
 * whole display with those calls'. */
enum { DEAL_ENTRIES = 13 };
static const int16_t deal_x[DEAL_ENTRIES] = {0, 1, 0, -1, 0, 2, 1, 1, 0, -1, 2, 1, 1};
static const int16_t deal_y[DEAL_ENTRIES] = {0, 0, 1, 0, -1, 0, 1, -1, 2, 1, 1, 2, 0};
static const int16_t deal_frontier_pos[DEAL_ENTRIES] = {-1, -1, -1, 2, 0, 3, -1, 1, 5, 4, 6, 7, 8};
static const int16_t deal_frontier[9] = {4, 7, 3, 5, 9, 8, 10, 11, 12};
static const uint8_t deal_tile_entry[4] = {0, 1, 2, 6};

void ax_rota_deal(ax_rota_board *b, const ax_tile placed[4])
{
    assert(b->ncells == 0 && b->cell_at[0] == 0); /* a game just zeroed */
    b->ncells = 12;
    b->nfrontier = 8;
    memcpy(b->x, deal_x, sizeof deal_x);
    memcpy(b->y, deal_y, sizeof deal_y);
    memcpy(b->frontier_pos, deal_frontier_pos, sizeof deal_frontier_pos);
    memcpy(b->frontier, deal_frontier, sizeof deal_frontier);
    for (int id = 0; id < DEAL_ENTRIES; id++)
        b->placed[id] = empty_tile;
    b->placed[NONE] = empty_tile;
    for (int k = 0; k < 4; k++)
        b->placed[deal_tile_entry[k]] = placed[k];
    /* cell_at: rows y = 0, 1, 2 and 63 (y = -1), entry id + 1 */
    static const uint8_t row0[3] = {1, 2, 6}, row1[4] = {4, 3, 7, 11}, row2[3] = {10, 9, 12},
                         row63[2] = {5, 8};
    memcpy(b->cell_at + 0, row0, sizeof row0);
    memcpy(b->cell_at + 63, row1, sizeof row1);
    memcpy(b->cell_at + 127, row2, sizeof row2);
    memcpy(b->cell_at + 4032, row63, sizeof row63);
#ifndef NDEBUG
    static const int cells[4][2] = {{0, 0}, {1, 0}, {0, 1}, {1, 1}};
    ax_rota_board built;
    memset(&built, 0, sizeof built);
    ax_rota_start(&built);
    for (int k = 0; k < 4; k++)
        ax_rota_put(&built, cells[k][0], cells[k][1], placed[k]);
    assert(memcmp(&built, b, sizeof *b) == 0);
#endif
}

bool ax_rota_is_frontier(const ax_rota_board *b, int x, int y)
{
    int id = find(b, x, y);
    return id >= 0 && !entry_placed(b, id);
}

bool ax_rota_board_consistent(const ax_rota_board *b)
{
    if (b->ncells < 0 || b->ncells > AX_ROTA_ENTRIES || b->nfrontier < 0 ||
        b->nfrontier > b->ncells || !ax_tile_equal(b->placed[NONE], empty_tile))
        return false;
    int known = 0;
    for (int i = 0; i < AT_SIDE * AT_SIDE; i++)
        known += b->cell_at[i] != 0;
    if (known != b->ncells)
        return false;
    for (int id = 0; id < b->ncells; id++) {
        if (find(b, b->x[id], b->y[id]) != id)
            return false;
        bool placed = entry_placed(b, id), frontier = b->frontier_pos[id] >= 0;
        if (placed == frontier || (frontier && (b->frontier_pos[id] >= b->nfrontier ||
                                                b->frontier[b->frontier_pos[id]] != id)))
            return false;
        for (int s = 0; s < 4 && placed; s++) /* a placed tile's sides are known */
            if (find(b, b->x[id] + side_dx[s], b->y[id] + side_dy[s]) < 0)
                return false;
    }
    return true;
}

/* The corner `corner` of the tile on entry id: negative where empty, on
 * an empty frontier cell or with no entry (NONE). */
static int8_t corner_of(const ax_rota_board *b, uint8_t id, int corner)
{
    return b->placed[id].sym[corner];
}

/* The other three corners of the circle of corner `i` of entry id. */
static void corner_circle(const ax_rota_board *b, int id, int i, int8_t others[3])
{
    for (int k = 0; k < 3; k++) {
        int a = circle_members[i][k].around;
        uint8_t n =
            (uint8_t)(b->cell_at[at_index(b->x[id] + around_dx[a], b->y[id] + around_dy[a])] - 1);
        others[k] = corner_of(b, n, circle_members[i][k].corner);
    }
}

static int empty_corner(ax_tile t)
{
    int e = -1;
    for (int i = 3; i >= 0; i--) /* the first, no branch */
        e = t.sym[i] == AX_NO_COLOR ? i : e;
    return e;
}

/* The other three corners of the circle of every corner of a cell with
 * the entries around[] (circle_members, written out). */
static void circles_of(const ax_rota_board *b, const uint8_t around[8], int8_t o[4][3])
{
#define AT(k, corner) b->placed[around[k]].sym[corner]
    o[0][0] = AT(0, 2), o[0][1] = AT(1, 3), o[0][2] = AT(3, 1);
    o[1][0] = AT(1, 2), o[1][1] = AT(2, 3), o[1][2] = AT(4, 0);
    o[2][0] = AT(4, 3), o[2][1] = AT(6, 1), o[2][2] = AT(7, 0);
    o[3][0] = AT(3, 2), o[3][1] = AT(5, 1), o[3][2] = AT(6, 0);
#undef AT
}

/* The same for any cell (x, y). */
static void cell_circles(const ax_rota_board *b, int x, int y, int8_t others[4][3])
{
    uint8_t around[8];
    around_found(b, x, y, around);
    circles_of(b, around, others);
}

/* The points of each corner of a tile turned `placed` among the entries
 * around[] (rules 3.3 step 2): the other corners of its circle that show
 * its colour, or the colour `wild` names for its empty corner (none: 0). */
static void corner_points(const ax_rota_board *b, const uint8_t around[8], ax_tile placed, int wild,
                          int8_t color[4], uint8_t points[4])
{
    int8_t o[4][3];
    circles_of(b, around, o);
#pragma GCC unroll 4
    for (int i = 0; i < 4; i++) {
        int c = placed.sym[i] == AX_NO_COLOR ? wild : placed.sym[i];
        color[i] = (int8_t)c;
        int same = (o[i][0] == c) + (o[i][1] == c) + (o[i][2] == c);
        points[i] = (uint8_t)(c >= 0 ? same : 0);
    }
}

/* The same by colour, in byte lanes (ax_score_lanes); whether the wild
 * corner scored. */
static uint64_t unit_points(const ax_rota_board *b, const uint8_t around[8], ax_tile placed,
                            int wild, bool *wild_scored)
{
    int8_t color[4];
    uint8_t corner[4];
    corner_points(b, around, placed, wild, color, corner);
    uint64_t lanes = 0; /* lane 7: the corners of no colour, which score 0 */
    bool scored = false;
    for (int i = 0; i < 4; i++) { /* no branch to mispredict; a lane sums at most 12 */
        lanes += (uint64_t)corner[i] << (8 * (color[i] & 7));
        scored |= (placed.sym[i] == AX_NO_COLOR) & (corner[i] != 0);
    }
    *wild_scored = scored;
    return lanes & ((1ULL << (8 * AX_MAX_COLORS)) - 1);
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* Bit 7 of each byte lane: the bytes of a and b are equal. */
static inline uint32_t bytes_equal(uint32_t a, uint32_t b)
{
    const uint32_t low7 = 0x7f7f7f7fu;
    uint32_t x = a ^ b; /* 0 where equal; the sum below carries into no other lane */
    return ~(((x & low7) + low7) | x) & 0x80808080u;
}

/* unit_points with the four corners in the byte lanes of a word (corner i
 * in byte i, as a tile's bytes lie): each circle's other corners in three
 * words, compared with the placed colours at once (no loop over corners). */
static uint64_t unit_points_lanes(const ax_rota_board *b, const uint8_t around[8], ax_tile placed,
                                  int wild, bool *wild_scored)
{
    uint32_t t[8], p;
    for (int k = 0; k < 8; k++)
        memcpy(&t[k], b->placed[around[k]].sym, 4);
    memcpy(&p, placed.sym, 4);
    /* the empty corner (AX_NO_COLOR, 0xff) names `wild` */
    uint32_t empty = bytes_equal(p, 0xffffffffu), empty_lanes = (empty >> 7) * 0xffu;
    uint32_t c = (p & ~empty_lanes) | ((uint32_t)(uint8_t)wild * 0x01010101u & empty_lanes);
#define CORNER(k, j, i) (((t[k] >> (8 * (j))) & 0xffu) << (8 * (i)))
    /* member m of the circle of corner i in byte i: circle_members, written out */
    uint32_t m0 = CORNER(0, 2, 0) | CORNER(1, 2, 1) | CORNER(4, 3, 2) | CORNER(3, 2, 3);
    uint32_t m1 = CORNER(1, 3, 0) | CORNER(2, 3, 1) | CORNER(6, 1, 2) | CORNER(5, 1, 3);
    uint32_t m2 = CORNER(3, 1, 0) | CORNER(4, 0, 1) | CORNER(7, 0, 2) | CORNER(6, 0, 3);
#undef CORNER
    uint32_t same =
        (bytes_equal(m0, c) >> 7) + (bytes_equal(m1, c) >> 7) + (bytes_equal(m2, c) >> 7);
    same &= ((~c & 0x80808080u) >> 7) * 0xffu; /* a corner of no colour scores 0 */
    uint64_t lanes = 0;                        /* lane 7: the corners of no colour, which score 0 */
#pragma GCC unroll 4
    for (int i = 0; i < 4; i++)
        lanes += (uint64_t)((same >> (8 * i)) & 0xffu) << (8 * ((c >> (8 * i)) & 7));
    *wild_scored = (same & empty_lanes) != 0;
    return lanes & ((1ULL << (8 * AX_MAX_COLORS)) - 1);
}
#else
static uint64_t unit_points_lanes(const ax_rota_board *b, const uint8_t around[8], ax_tile placed,
                                  int wild, bool *wild_scored)
{
    return unit_points(b, around, placed, wild, wild_scored);
}
#endif

void ax_rota_points(const ax_game *g, ax_tile placed, int x, int y, int wild,
                    uint8_t points[AX_MAX_COLORS], bool *wild_scored)
{
    uint8_t around[8];
    around_found(&g->rota, x, y, around);
    ax_lanes_points(unit_points(&g->rota, around, placed, wild, wild_scored), points);
}

int ax_rota_lines(const ax_game *g, const ax_move *m, ax_line lines[AX_MAX_LINES])
{
    ax_tile placed = ax_tile_rotate(g->rack[g->to_move][0], m->rotation);
    uint8_t around[8];
    around_found(&g->rota, m->x, m->y, around);
    int8_t color[4];
    uint8_t corner[4];
    corner_points(&g->rota, around, placed, m->wild, color, corner);
    int n = 0;
    for (int i = 0; i < 4; i++)
        if (corner[i] > 0)
            lines[n++] = (ax_line){
                .color = color[i], .points = corner[i], .dir = -1, .corner = (int8_t)i, .cell = -1};
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
    int wild = m->wild; /* named for an empty corner, else unused */
    uint8_t around[8];
    bool wild_scored;
    around_entries(&g->rota, m->x, m->y, around); /* a frontier cell: within the span */
    /* checked: a frontier cell, whose place in cell_at is its own */
    int id = g->rota.cell_at[at_index(m->x, m->y)] - 1;
    assert(id == find(&g->rota, m->x, m->y));
    uint64_t points = unit_points_lanes(&g->rota, around, placed, wild, &wild_scored);
#ifndef NDEBUG
    bool scored;
    assert(points == unit_points(&g->rota, around, placed,
                                 empty_corner(placed) >= 0 ? wild : AX_NO_COLOR, &scored) &&
           scored == wild_scored);
#endif
    put_entry(&g->rota, id, m->x, m->y, placed, around);
    g->rack_n[seat] = 0;
    g->board_tiles[g->board_n++] = tile;

    ax_unit_result res;
    ax_score_lanes(g, seat, points, &res);
    ax_event *e = ax_event_add(out, AX_EV_PLACE, seat);
    if (e) {
        e->tile = placed;
        e->x = m->x;
        e->y = m->y;
        e->wild = (int8_t)(wild_scored ? wild : AX_NO_COLOR);
        e->bonus = g->in_bonus;
        ax_lanes_points(points, e->points);
        memcpy(e->score, g->track[ax_track_owner(g, seat)], AX_MAX_COLORS);
    }
    ax_emit_axio(g, seat, &res, out);
    *all_max = res.all_max;
    return res.bonus_moves;
}

/* Colours that an empty corner could match, given the other corners of
 * its circle: each once, in the order they appear. */
static int wild_options(const int8_t others[3], int8_t colors[3])
{
    int n = 0;
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
    /* x and y in one store: ax_rota_place reads them as one word, which
     * two half-word stores still in flight would stall (no forwarding) */
    _Static_assert(offsetof(ax_move, y) == offsetof(ax_move, x) + 2, "x, y side by side");
    const int16_t xy[2] = {(int16_t)x, (int16_t)y};
    memcpy((char *)m + offsetof(ax_move, x), xy, sizeof xy);
    m->rotation = (uint8_t)rotation;
    m->wild = (int8_t)wild;
}

/* Wild choices that name no matching colour are the same decision as none,
 * so each placement lists the matching colours, or none when there are none. */
int ax_rota_wild_choices(const ax_game *g, int x, int y, int rotation, int8_t colors[3])
{
    int e = empty_corner(g->rack[g->to_move][0]); /* as printed: turned, it is corner e + r */
    if (e < 0)
        return 0;
    int8_t others[4][3];
    cell_circles(&g->rota, x, y, others);
    return wild_options(others[(e + rotation) & 3], colors);
}

void ax_rota_wild_table(const ax_game *g, uint8_t (*sets)[4])
{
    const ax_rota_board *b = &g->rota;
    memset(sets, 0, (size_t)b->nfrontier * sizeof *sets);
    int e = empty_corner(g->rack[g->to_move][0]);
    if (e < 0)
        return;
    for (int f = 0; f < b->nfrontier; f++)
        for (int r = 0; r < 4; r++) {
            int8_t others[3];
            corner_circle(b, b->frontier[f], (e + r) & 3, others); /* the empty corner turned r */
            for (int k = 0; k < 3; k++)
                if (others[k] >= 0)
                    sets[f][r] |= (uint8_t)(1u << others[k]);
        }
}

int ax_rota_moves(const ax_game *g, ax_move *moves, int max)
{
    int n = 0, e = empty_corner(g->rack[g->to_move][0]);
    for (int f = 0; f < g->rota.nfrontier; f++) {
        int id = g->rota.frontier[f], x = g->rota.x[id], y = g->rota.y[id];
        for (int r = 0; r < 4; r++) {
            int8_t others[3], colors[3];
            int nw = 0;
            if (e >= 0) {
                corner_circle(&g->rota, id, (e + r) & 3, others);
                nw = wild_options(others, colors);
            }
            for (int w = 0; w < (nw ? nw : 1) && n < max; w++)
                rota_move(&moves[n++], x, y, r, nw ? colors[w] : AX_NO_COLOR);
        }
    }
    return n;
}

void ax_rota_random_move(const ax_game *g, ax_rng *rng, ax_move *m)
{
    assert(g->rota.nfrontier > 0);
    int id = g->rota.frontier[ax_rng_below_inline(rng, (uint32_t)g->rota.nfrontier)];
    int x = g->rota.x[id], y = g->rota.y[id], r = (int)ax_rng_below_inline(rng, 4);
    int e = empty_corner(g->rack[g->to_move][0]);
    int8_t others[3], colors[3];
    int nw = 0;
    if (e >= 0) {
        corner_circle(&g->rota, id, (e + r) & 3, others);
        nw = wild_options(others, colors);
    }
    rota_move(m, x, y, r, nw ? colors[ax_rng_below_inline(rng, (uint32_t)nw)] : AX_NO_COLOR);
}

void ax_rota_frontier_circles(const ax_rota_board *b, int8_t (*circles)[4][3])
{
    for (int f = 0; f < b->nfrontier; f++) {
        int id = b->frontier[f];
        uint8_t around[8];
        around_entries(b, b->x[id], b->y[id], around); /* a frontier cell: within the span */
        circles_of(b, around, circles[f]);
    }
}
