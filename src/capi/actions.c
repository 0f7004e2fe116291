/*
 * actions.c - the action numbering (axio_capi.h) and the legal set of a
 * decision: built from the engine's compact legal sets, written as a mask,
 * tested, sampled, and translated to and from engine moves.
 *
 * square, hex: the engine gives the legal cell pairs per direction as
 * bitsets over its grid (ax_legal_pairs). Every rack tile that is not a
 * repeat of an earlier slot may lie on each of them in every direction; a
 * double only in the first half of the directions (turned round it is the
 * same decision). The mask of one slot is then the same block of D x C bytes
 * for every slot: it is built once per decision, a window row at a time (a
 * row of the window is a run of consecutive grid cells, so its bits are
 * read at once and spread into bytes through a table), and copied.
 *
 * rota: the legal cells are the display's frontier, numbered in reading
 * order (by y, then x), each with the
 * wild colours the engine offers for each rotation (ax_rota_wild_table).
 */
#include "capi.h"

#include <assert.h>
#include <string.h>

/* spread[b]: the 8 bits of b as 8 bytes of 0 or 1, lowest bit first. */
static uint64_t spread[256];

__attribute__((constructor)) static void spread_init(void)
{
    for (int b = 0; b < 256; b++) {
        uint64_t v = 0;
        for (int i = 0; i < 8; i++)
            v |= (uint64_t)((b >> i) & 1) << (8 * i);
        spread[b] = v;
    }
}

static uint32_t row_bits(const uint64_t *set, int start, int len)
{
    int w = start >> 6, o = start & 63;
    uint64_t v = set[w] >> o;
    if (o + len > 64)
        v |= set[w + 1] << (64 - o);
    return (uint32_t)(v & ((1u << len) - 1));
}

static bool same_tile(ax_tile a, ax_tile b) { return ax_tile_equal(a, b); }

static bool is_double(ax_tile t) { return t.sym[0] == t.sym[1]; }

/* --- rota: the frontier in reading order --- */

#define ROTA_SPAN 128 /* coordinates -64..63: a game reaches at most about +-61 */

static void rota_slots(const ax_game *g, capi_legal *l)
{
    /* keys (y, x, entry) packed so that their order is reading order; an
     * insertion sort of a few dozen is cheaper than anything cleverer */
    uint32_t key[CAPI_MAX_SLOTS];
    const ax_rota_board *b = &g->rota;
    int n = b->nfrontier < CAPI_MAX_SLOTS ? b->nfrontier : CAPI_MAX_SLOTS;
    for (int f = 0; f < n; f++) {
        int id = b->frontier[f], x = b->x[id] + 64, y = b->y[id] + 64;
        assert(x >= 0 && x < ROTA_SPAN && y >= 0 && y < ROTA_SPAN);
        uint32_t k = (uint32_t)y << 15 | (uint32_t)x << 8 | (uint32_t)f;
        int i = f;
        for (; i > 0 && key[i - 1] > k; i--)
            key[i] = key[i - 1];
        key[i] = k;
    }
    for (int i = 0; i < n; i++) {
        l->slot_y[i] = (int16_t)((key[i] >> 15) - 64);
        l->slot_x[i] = (int16_t)(((key[i] >> 8) & 127) - 64);
        l->slot_frontier[i] = (uint8_t)(key[i] & 255);
    }
    l->nslots = (int16_t)n;
}

static void rota_build(const capi_space *s, const ax_game *g, capi_legal *l)
{
    rota_slots(g, l);
    assert(l->nslots <= s->spec.slots); /* the bound of spec.c */
    if (l->nslots > s->spec.slots)
        l->nslots = (int16_t)s->spec.slots;
    if (l->phase != AX_PHASE_PLACE)
        return;
    bool empty_corner = false;
    for (int i = 0; i < 4; i++)
        empty_corner |= g->rack[g->to_move][0].sym[i] == AX_NO_COLOR;
    l->wildless = !empty_corner;
    if (l->wildless) { /* no wild to name anywhere (ax_rota_wild_table gives 0) */
        memset(l->wilds, 1, (size_t)l->nslots * sizeof l->wilds[0]);
        l->count = 4 * l->nslots;
        return;
    }
    uint8_t table[AX_ROTA_CELLS][4]; /* per engine frontier entry */
    ax_rota_wild_table(g, table);
    for (int k = 0; k < l->nslots; k++) {
        const uint8_t *sets = table[l->slot_frontier[k]];
        for (int r = 0; r < 4; r++) {
            uint8_t bits = sets[r] ? (uint8_t)(sets[r] << 1) : 1; /* bit 0: none */
            l->wilds[k][r] = bits;
            l->count += capi_popcount(bits);
        }
    }
}

/* --- square, hex --- */

static void grid_build(const capi_space *s, const ax_game *g, capi_legal *l)
{
    if (l->phase != AX_PHASE_PLACE)
        return;
    ax_legal_pairs(g, l->pairs);
    int ndirs = s->spec.ndirs, seat = g->to_move;
    for (int d = 0; d < s->half; d++) { /* a direction and its opposite hold the same pairs */
        int n = 0;
        for (int w = 0; w < AX_GRID_WORDS; w++)
            n += capi_popcount(l->pairs[d][w]);
        l->dir_count[d] = l->dir_count[d + s->half] = n;
    }
    for (int r = 0; r < AX_MAX_RACK; r++) {
        l->slot_dirs[r] = 0;
        if (r >= g->rack_n[seat])
            continue;
        bool repeat = false;
        for (int q = 0; q < r; q++)
            repeat |= same_tile(g->rack[seat][q], g->rack[seat][r]);
        if (repeat)
            continue;
        l->slot_dirs[r] = (uint8_t)(is_double(g->rack[seat][r]) ? s->half : ndirs);
        for (int d = 0; d < l->slot_dirs[r]; d++)
            l->count += l->dir_count[d];
    }
}

void capi_legal_build(const capi_space *s, const ax_game *g, capi_legal *l)
{
    l->phase = g->phase;
    l->count = 0;
    l->nslots = 0;
    l->wildless = false;
    if (g->phase == AX_PHASE_SWAP)
        l->count = 2;
    if (g->variant == AX_ROTA)
        rota_build(s, g, l);
    else
        grid_build(s, g, l);
}

/* --- actions and moves --- */

static int slot_block(const capi_space *s) { return s->spec.ndirs * s->ncells; }

bool capi_legal_contains(const capi_space *s, const capi_legal *l, int32_t action)
{
    const axio_spec *sp = &s->spec;
    if (action < 0 || action >= sp->num_actions)
        return false;
    if (l->phase == AX_PHASE_SWAP)
        return sp->swap_action >= 0 && action >= sp->swap_action;
    if (l->phase != AX_PHASE_PLACE || (sp->swap_action >= 0 && action >= sp->swap_action))
        return false;
    if (sp->variant == AX_ROTA) {
        int w = action % 6, r = (action / 6) % 4, k = action / 24;
        return k < l->nslots && (l->wilds[k][r] >> w) & 1;
    }
    int slot = action / slot_block(s), d = (action / s->ncells) % sp->ndirs;
    int cell = s->cell_of[action % s->ncells];
    return d < l->slot_dirs[slot] && cell >= 0 && (l->pairs[d][cell / 64] >> (cell % 64)) & 1;
}

bool capi_action_decode(const capi_space *s, const ax_game *g, const capi_legal *l, int32_t action,
                        ax_move *m)
{
    const axio_spec *sp = &s->spec;
    memset(m, 0, sizeof *m);
    m->wild = AX_NO_COLOR;
    if (action < 0 || action >= sp->num_actions)
        return false;
    if (sp->swap_action >= 0 && action >= sp->swap_action) {
        m->kind = AX_MOVE_SWAP;
        m->accept = (uint8_t)(action - sp->swap_action);
        return true;
    }
    m->kind = AX_MOVE_PLACE;
    if (sp->variant == AX_ROTA) {
        int w = action % 6, k = action / 24;
        if (k >= l->nslots)
            return false;
        m->x = l->slot_x[k];
        m->y = l->slot_y[k];
        m->rotation = (uint8_t)((action / 6) % 4);
        m->wild = (int8_t)(w - 1);
        return true;
    }
    int slot = action / slot_block(s), d = (action / s->ncells) % sp->ndirs;
    int cell = s->cell_of[action % s->ncells];
    if (cell < 0)
        return false;
    m->rack_index = (uint8_t)slot;
    m->cells[0] = (int16_t)cell;
    m->cells[1] = (int16_t)(cell + ax_direction_offset(g, d));
    return true;
}

int32_t capi_action_encode(const capi_space *s, const ax_game *g, const capi_legal *l,
                           const ax_move *m)
{
    const axio_spec *sp = &s->spec;
    int32_t action = -1;
    if (m->kind == AX_MOVE_SWAP) {
        action = sp->swap_action >= 0 ? sp->swap_action + (m->accept ? 1 : 0) : -1;
    } else if (m->kind == AX_MOVE_PLACE && sp->variant == AX_ROTA) {
        for (int k = 0; k < l->nslots && action < 0; k++)
            if (l->slot_x[k] == m->x && l->slot_y[k] == m->y && m->rotation < 4) {
                int w = m->wild >= 0 && m->wild < sp->ncolors ? m->wild + 1 : 0;
                if (!((l->wilds[k][m->rotation] >> w) & 1))
                    w = 0; /* a colour that matches nothing names none */
                action = (k * 4 + m->rotation) * 6 + w;
            }
    } else if (m->kind == AX_MOVE_PLACE && m->rack_index < g->rack_n[g->to_move]) {
        int seat = g->to_move, slot = 0, a = m->cells[0], b = m->cells[1];
        while (!same_tile(g->rack[seat][slot], g->rack[seat][m->rack_index]))
            slot++; /* the first copy of an identical tile */
        int d = 0;
        while (d < sp->ndirs && a >= 0 && a + ax_direction_offset(g, d) != b)
            d++;
        if (d >= s->half && is_double(g->rack[seat][slot])) { /* the same, turned round */
            d -= s->half;
            a = b;
        }
        if (d < sp->ndirs && a >= 0 && a < AX_GRID_CELLS && s->window_of[a] >= 0)
            action = (slot * sp->ndirs + d) * s->ncells + s->window_of[a];
    }
    return action >= 0 && capi_legal_contains(s, l, action) ? action : -1;
}

/* --- the mask --- */

/* The mask of a placement. zero_from (NULL: unknown): per slot, the first
 * direction from which the slot's block in `mask` is already all 0, so that
 * only the directions the slot closed since are cleared. */
static void grid_mask(const capi_space *s, const capi_legal *l, int8_t *mask,
                      const uint8_t *zero_from)
{
    const axio_spec *sp = &s->spec;
    /* locals: the int8 stores below may alias anything, so fields read in
     * the loops would be read again after every store */
    const int window = sp->window, ncells = s->ncells, ndirs = sp->ndirs;
    const int block_size = ndirs * ncells, rack_size = sp->rack_size;
    /* one slot's block, built on the stack (in the first level cache) a
     * window row at a time; a row's write may spill up to 16 bytes into the
     * next, which is written after it. Then copied into the slots: whole
     * lines into the row, which is out of the cache by the time a batch
     * comes back to it. */
    int8_t block[6 * CAPI_MAX_WINDOW * CAPI_MAX_WINDOW + 16];
    for (int d = 0; d < ndirs; d++) {
        const uint64_t *pairs = l->pairs[d];
        int8_t *dst = block + d * ncells;
        for (int row = 0; row < window; row++, dst += window) {
            uint32_t bits = row_bits(pairs, s->row_start[row], window);
            memcpy(dst, &spread[bits & 255], 8);
            memcpy(dst + 8, &spread[(bits >> 8) & 255], 8);
        }
    }
    for (int slot = 0; slot < rack_size; slot++) {
        int8_t *dst = mask + slot * block_size;
        int open = l->slot_dirs[slot] * ncells;
        int zero = zero_from ? zero_from[slot] * ncells : block_size;
        memcpy(dst, block, (size_t)open);
        if (zero > open)
            memset(dst + open, 0, (size_t)(zero - open));
    }
    if (sp->swap_action >= 0)
        mask[sp->swap_action] = mask[sp->swap_action + 1] = 0;
}

void capi_legal_mask(const capi_space *s, const capi_legal *l, int8_t *mask)
{
    const axio_spec *sp = &s->spec;
    if (l->phase == AX_PHASE_PLACE && sp->variant != AX_ROTA) {
        grid_mask(s, l, mask, NULL);
        return;
    }
    memset(mask, 0, (size_t)sp->num_actions);
    if (l->phase == AX_PHASE_SWAP) {
        mask[sp->swap_action] = mask[sp->swap_action + 1] = 1;
    } else if (l->phase == AX_PHASE_PLACE) {
        for (int k = 0; k < l->nslots; k++)
            for (int r = 0; r < 4; r++)
                for (unsigned bits = l->wilds[k][r]; bits; bits &= bits - 1)
                    mask[(k * 4 + r) * 6 + __builtin_ctz(bits)] = 1;
    }
}

void capi_legal_mask_row(const capi_space *s, const capi_legal *l, int8_t *mask, capi_shown *shown)
{
    const axio_spec *sp = &s->spec;
    if (sp->variant == AX_ROTA) {
        capi_legal_mask(s, l, mask);
        return;
    }
    if (l->phase == AX_PHASE_PLACE) {
        grid_mask(s, l, mask, shown->mask_known ? shown->zero_from : NULL);
        memcpy(shown->zero_from, l->slot_dirs, sizeof shown->zero_from);
    } else {
        capi_legal_mask(s, l, mask); /* all 0 but a swap decision's two */
        memset(shown->zero_from, 0, sizeof shown->zero_from);
    }
    shown->mask_known = true;
}

void capi_mask_row_clear(const capi_space *s, int8_t *mask, capi_shown *shown)
{
    memset(mask, 0, (size_t)s->spec.num_actions);
    memset(shown->zero_from, 0, sizeof shown->zero_from);
    shown->mask_known = true;
}

/* The k-th set bit (from 0) of a bitset of AX_GRID_WORDS words. */
static int nth_bit(const uint64_t *set, int k)
{
    for (int w = 0; w < AX_GRID_WORDS; w++) {
        int n = capi_popcount(set[w]);
        if (k >= n) {
            k -= n;
            continue;
        }
        uint64_t bits = set[w];
        while (k-- > 0)
            bits &= bits - 1;
        return w * 64 + __builtin_ctzll(bits);
    }
    return -1;
}

int32_t capi_legal_sample(const capi_space *s, const capi_legal *l, ax_rng *rng)
{
    const axio_spec *sp = &s->spec;
    if (l->count <= 0)
        return -1;
    int k = (int)ax_rng_below(rng, (uint32_t)l->count);
    if (l->phase == AX_PHASE_SWAP)
        return sp->swap_action + k;
    if (sp->variant == AX_ROTA && l->wildless)
        return k * 6; /* slot k / 4, rotation k % 4, no wild */
    if (sp->variant == AX_ROTA) {
        for (int slot = 0; slot < l->nslots; slot++)
            for (int r = 0; r < 4; r++) {
                int n = capi_popcount(l->wilds[slot][r]);
                if (k >= n) {
                    k -= n;
                    continue;
                }
                unsigned bits = l->wilds[slot][r];
                while (k-- > 0)
                    bits &= bits - 1;
                return (slot * 4 + r) * 6 + __builtin_ctz(bits);
            }
        return -1;
    }
    for (int slot = 0; slot < sp->rack_size; slot++)
        for (int d = 0; d < l->slot_dirs[slot]; d++) {
            if (k >= l->dir_count[d]) {
                k -= l->dir_count[d];
                continue;
            }
            int cell = nth_bit(l->pairs[d], k);
            return (slot * sp->ndirs + d) * s->ncells + s->window_of[cell];
        }
    return -1;
}
