/*
 * tiles.c - colours and the tile sets of the three games.
 *
 * The sets are data built from the counts of rules.md (2.1, 3.1, 4.1); the
 * ROTA set is marked there as an assumption, so it is built by one small
 * function a player owning the game can correct (rota_set); deals copy its
 * tiles written out (rota_tiles), which debug builds check against it.
 */
#include "axio.h"

#include <assert.h>
#include <string.h>

static const char *const color_names[AX_MAX_COLORS] = {"red",    "green",  "blue",
                                                       "orange", "purple", "yellow"};

const char *ax_color_name(int color)
{
    return color >= 0 && color < AX_MAX_COLORS ? color_names[color] : "none";
}

int ax_color_parse(const char *name, int ncolors)
{
    for (int c = 0; c < ncolors; c++)
        if (strcmp(name, color_names[c]) == 0)
            return c;
    return -1;
}

static ax_tile domino(int a, int b)
{
    ax_tile t = {{(int8_t)a, (int8_t)b, AX_NO_COLOR, AX_NO_COLOR}};
    return t;
}

/* `count` (at least 1) copies of a tile, as whole words: the deal's
 * shuffle reads each tile as one 32-bit word, which smaller stores still in
 * flight would stall (no store forwarding). Two at a time (one 64-bit
 * store), the last one stored again (overlapping when count is even). */
static void put_tiles(ax_tile *slots, ax_tile t, int count)
{
    uint32_t word;
    memcpy(&word, t.sym, sizeof word);
    uint64_t two = word | (uint64_t)word << 32;
    for (int k = 0; k + 1 < count; k += 2)
        memcpy(slots[k].sym, &two, sizeof two);
    memcpy(slots[count - 1].sym, &word, sizeof word);
}

/* `ncolors` colours: `per_pair` of each two-colour pair, `per_double` of each
 * double. */
static int domino_set(int ncolors, int per_pair, int per_double, ax_tile *out)
{
    int n = 0;
    for (int a = 0; a < ncolors; a++) {
        put_tiles(&out[n], domino(a, a), per_double);
        n += per_double;
        for (int b = a + 1; b < ncolors; b++) {
            put_tiles(&out[n], domino(a, b), per_pair);
            n += per_pair;
        }
    }
    return n;
}

/* rules.md 3.1 [assumption]: per left-out colour the six cyclic orders of the
 * other four, then the first four again; then each 3-subset with one empty
 * corner. */
#ifndef NDEBUG
static int rota_set(ax_tile *out)
{
    static const int8_t orders[6][4] = {{0, 1, 2, 3}, {0, 1, 3, 2}, {0, 2, 1, 3},
                                        {0, 2, 3, 1}, {0, 3, 1, 2}, {0, 3, 2, 1}};
    static const int8_t order_of[10] = {0, 1, 2, 3, 4, 5, 0, 1, 2, 3}; /* i % 6 */
    /* the other four colours of each left-out colour, in colour order */
    static const int8_t others[5][4] = {
        {1, 2, 3, 4}, {0, 2, 3, 4}, {0, 1, 3, 4}, {0, 1, 2, 4}, {0, 1, 2, 3}};
    /* the 3-subsets a < b < c of the five colours, in order */
    static const int8_t triples[10][3] = {{0, 1, 2}, {0, 1, 3}, {0, 1, 4}, {0, 2, 3}, {0, 2, 4},
                                          {0, 3, 4}, {1, 2, 3}, {1, 2, 4}, {1, 3, 4}, {2, 3, 4}};
    int n = 0;
    for (int left_out = 0; left_out < 5; left_out++)
        for (int i = 0; i < 10; i++) {
            const int8_t *four = others[left_out], *o = orders[order_of[i]];
            ax_tile t = {{four[o[0]], four[o[1]], four[o[2]], four[o[3]]}};
            put_tiles(&out[n++], t, 1);
        }
    for (int k = 0; k < 10; k++) {
        ax_tile t = {{triples[k][0], triples[k][1], triples[k][2], AX_NO_COLOR}};
        put_tiles(&out[n++], t, 1);
    }
    return n;
}
#endif

/* rota_set's tiles written out: every deal copies them (the builder's
 * table look-ups cost a deal as much as a few placements). Debug builds
 * check them against the builder, the one to correct. */
static const ax_tile rota_tiles[AX_ROTA_TILES] = {
    {{1, 2, 3, 4}},           {{1, 2, 4, 3}},           {{1, 3, 2, 4}},
    {{1, 3, 4, 2}},           {{1, 4, 2, 3}},           {{1, 4, 3, 2}},
    {{1, 2, 3, 4}},           {{1, 2, 4, 3}},           {{1, 3, 2, 4}},
    {{1, 3, 4, 2}},           {{0, 2, 3, 4}},           {{0, 2, 4, 3}},
    {{0, 3, 2, 4}},           {{0, 3, 4, 2}},           {{0, 4, 2, 3}},
    {{0, 4, 3, 2}},           {{0, 2, 3, 4}},           {{0, 2, 4, 3}},
    {{0, 3, 2, 4}},           {{0, 3, 4, 2}},           {{0, 1, 3, 4}},
    {{0, 1, 4, 3}},           {{0, 3, 1, 4}},           {{0, 3, 4, 1}},
    {{0, 4, 1, 3}},           {{0, 4, 3, 1}},           {{0, 1, 3, 4}},
    {{0, 1, 4, 3}},           {{0, 3, 1, 4}},           {{0, 3, 4, 1}},
    {{0, 1, 2, 4}},           {{0, 1, 4, 2}},           {{0, 2, 1, 4}},
    {{0, 2, 4, 1}},           {{0, 4, 1, 2}},           {{0, 4, 2, 1}},
    {{0, 1, 2, 4}},           {{0, 1, 4, 2}},           {{0, 2, 1, 4}},
    {{0, 2, 4, 1}},           {{0, 1, 2, 3}},           {{0, 1, 3, 2}},
    {{0, 2, 1, 3}},           {{0, 2, 3, 1}},           {{0, 3, 1, 2}},
    {{0, 3, 2, 1}},           {{0, 1, 2, 3}},           {{0, 1, 3, 2}},
    {{0, 2, 1, 3}},           {{0, 2, 3, 1}},           {{0, 1, 2, AX_NO_COLOR}},
    {{0, 1, 3, AX_NO_COLOR}}, {{0, 1, 4, AX_NO_COLOR}}, {{0, 2, 3, AX_NO_COLOR}},
    {{0, 2, 4, AX_NO_COLOR}}, {{0, 3, 4, AX_NO_COLOR}}, {{1, 2, 3, AX_NO_COLOR}},
    {{1, 2, 4, AX_NO_COLOR}}, {{1, 3, 4, AX_NO_COLOR}}, {{2, 3, 4, AX_NO_COLOR}},
};

int ax_tile_set(int variant, ax_tile *out)
{
    switch (variant) {
    case AX_SQUARE: return domino_set(5, 8, 4, out);
    case AX_HEX: return domino_set(6, 6, 5, out);
    case AX_ROTA: {
#ifndef NDEBUG
        ax_tile built[AX_ROTA_TILES];
        assert(rota_set(built) == AX_ROTA_TILES && memcmp(built, rota_tiles, sizeof built) == 0);
#endif
        memcpy(out, rota_tiles, sizeof rota_tiles);
        return AX_ROTA_TILES;
    }
    }
    return 0;
}

bool ax_tile_equal(ax_tile a, ax_tile b) { return memcmp(a.sym, b.sym, 4) == 0; }

ax_tile ax_tile_rotate(ax_tile t, int r)
{
    ax_tile out;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* corner i is byte i: turned r, byte i - r moves to i, a rotation left */
    uint32_t u;
    unsigned bits = 8u * (unsigned)(r & 3);
    memcpy(&u, t.sym, 4);
    u = bits ? u << bits | u >> (32 - bits) : u;
    memcpy(out.sym, &u, 4);
#else
    for (int i = 0; i < 4; i++)
        out.sym[i] = t.sym[((i - r) % 4 + 4) % 4];
#endif
    return out;
}
