/*
 * turn.c - set-up and the one turn flow of all three games.
 *
 * A turn is a chain of decisions by one seat: a placement, then one more
 * placement per bonus move earned (rules 1.1), then the swap decision when
 * the seat is eligible (square, hex), then the refill and the next seat.
 * The game stops at once on an immediate win, when the seat to move cannot
 * place, or (rota) when every stack is played. Everything that differs per
 * variant is asked of board_grid.c or board_rota.c.
 *
 * A leave (rules 6) stands between two decisions and leaves the turn as it
 * is: the same seat is asked next, whoever left. It ends the game only when
 * fewer than two sides still play.
 */
#include "engine.h"

#include <assert.h>
#include <stddef.h>
#include <string.h>

static const char *const variant_names[] = {"square", "rota", "hex"};
static const char *const mode_names[] = {"standard", "solo", "team"};
static const char *const leave_why_names[] = {"resign", "timeout", "absent"};
static const char *const end_reason_names[] = {"none", "blocked", "all-max", "tiles-out", "left"};

const char *ax_leave_why_name(int why) { return why >= 0 && why < 3 ? leave_why_names[why] : "?"; }

int ax_leave_why_parse(const char *name)
{
    for (int w = 0; w < 3; w++)
        if (strcmp(name, leave_why_names[w]) == 0)
            return w;
    return -1;
}

const char *ax_end_reason_name(int reason)
{
    return reason >= 0 && reason <= AX_END_LEFT ? end_reason_names[reason] : "?";
}

int ax_variant_parse(const char *name)
{
    for (int v = 0; v < 3; v++)
        if (strcmp(name, variant_names[v]) == 0)
            return v;
    return -1;
}

const char *ax_variant_name(int variant)
{
    return variant >= 0 && variant < 3 ? variant_names[variant] : "?";
}

int ax_mode_parse(const char *name)
{
    for (int m = 0; m < 3; m++)
        if (strcmp(name, mode_names[m]) == 0)
            return m;
    return -1;
}

const char *ax_mode_name(int mode) { return mode >= 0 && mode < 3 ? mode_names[mode] : "?"; }

const char *ax_error_string(ax_error err)
{
    switch (err) {
    case AX_OK: return "ok";
    case AX_ERR_CONFIG: return "players and mode do not fit the variant";
    case AX_ERR_OVER: return "the game is over";
    case AX_ERR_PHASE: return "not the decision asked for now";
    case AX_ERR_RACK: return "no such tile on the rack";
    case AX_ERR_CELL: return "cell outside the play area or not empty";
    case AX_ERR_ADJACENT: return "the two cells are not neighbours";
    case AX_ERR_FIRST_TILE: return "the first tile must touch a start symbol no tile touches yet";
    case AX_ERR_DISPLAY: return "the cell must be empty and share a side with the display";
    case AX_ERR_ROTATION: return "rotation must be 0..3";
    case AX_ERR_WILD: return "not a colour of this game";
    case AX_ERR_MOVE_KIND: return "unknown kind of decision";
    case AX_ERR_SEAT: return "no such seat";
    case AX_ERR_LEFT: return "the seat has left the game";
    }
    return "unknown error";
}

const char *ax_error_id(ax_error err)
{
    switch (err) {
    case AX_OK: return "ok";
    case AX_ERR_CONFIG: return "config";
    case AX_ERR_OVER: return "over";
    case AX_ERR_PHASE: return "phase";
    case AX_ERR_RACK: return "rack";
    case AX_ERR_CELL: return "cell";
    case AX_ERR_ADJACENT: return "adjacent";
    case AX_ERR_FIRST_TILE: return "first_tile";
    case AX_ERR_DISPLAY: return "display";
    case AX_ERR_ROTATION: return "rotation";
    case AX_ERR_WILD: return "wild";
    case AX_ERR_MOVE_KIND: return "move_kind";
    case AX_ERR_SEAT: return "seat";
    case AX_ERR_LEFT: return "left";
    }
    return "unknown";
}

ax_error ax_config_check(int variant, int players, int mode)
{
    if (variant < AX_SQUARE || variant > AX_HEX || players < 1 || players > 4)
        return AX_ERR_CONFIG;
    switch (mode) {
    case AX_STANDARD: return players >= 2 ? AX_OK : AX_ERR_CONFIG;
    case AX_SOLO: return players == 1 ? AX_OK : AX_ERR_CONFIG;
    case AX_TEAM: return variant == AX_HEX && players == 4 ? AX_OK : AX_ERR_CONFIG;
    }
    return AX_ERR_CONFIG;
}

void ax_shuffle(ax_rng *rng, ax_tile *tiles, int n)
{
    /* the generator in a local copy, tiles moved as words: a tile's bytes
     * may alias anything, so the state would otherwise make a round trip
     * through memory at every draw */
    ax_rng local = *rng;
    for (int i = n - 1; i > 0; i--) {
        int j = (int)ax_rng_below_inline(&local, (uint32_t)i + 1);
        uint32_t a, b;
        memcpy(&a, tiles[i].sym, 4);
        memcpy(&b, tiles[j].sym, 4);
        memcpy(tiles[i].sym, &b, 4);
        memcpy(tiles[j].sym, &a, 4);
    }
    *rng = local;
}

/* rules 1.1: thresholds and bonus moves per variant and mode */
static void set_thresholds(ax_game *g)
{
    int top = g->variant == AX_ROTA ? 12 : 18;
    g->threshold[0] = (uint8_t)top;
    g->threshold_bonus[0] = g->mode != AX_SOLO || g->variant == AX_ROTA; /* ROTA solo too */
    g->nthresholds = 1;
    if (g->variant != AX_ROTA && g->mode != AX_STANDARD) {
        g->threshold[1] = 36;
        g->threshold_bonus[1] = g->mode == AX_TEAM;
        g->nthresholds = 2;
    }
}

/* Moves up to `count` tiles from the top of the bag (its end) to the rack. */
static void draw_from_bag(ax_game *g, int seat, int count, int source, ax_events *out)
{
    ax_event *e = NULL;
    for (int k = 0; k < count && g->bag_n > 0; k++) {
        if (!e)
            e = ax_event_add(out, AX_EV_DRAW, seat);
        ax_tile t = g->bag[--g->bag_n];
        g->rack[seat][g->rack_n[seat]++] = t;
        if (e) {
            e->source = (uint8_t)source;
            e->tiles[e->ntiles++] = t;
        }
    }
}

static void draw_from_stack(ax_game *g, int seat, ax_events *out)
{
    if (g->stack_n[seat] == 0)
        return;
    ax_tile t = g->stack[seat][--g->stack_n[seat]];
    g->rack[seat][g->rack_n[seat]++] = t;
    ax_event *e = ax_event_add(out, AX_EV_DRAW, seat);
    if (e) {
        e->source = AX_FROM_STACK;
        e->tiles[e->ntiles++] = t;
    }
}

static void end_game(ax_game *g, int reason, ax_events *out)
{
    g->phase = AX_PHASE_OVER;
    g->end_reason = (uint8_t)reason;
    g->bonus_pending = 0;
    g->in_bonus = false;
    ax_event *e = ax_event_add(out, AX_EV_END, g->to_move);
    if (e)
        e->reason = (uint8_t)reason;
}

/* rules 3.2: four display tiles, empty corners turned to the centre. */
static void deal_rota(ax_game *g, ax_events *out)
{
    static const int centre_corner[4] = {2, 3, 1, 0};
    ax_tile placed[4];
    for (int k = 0; k < 4; k++) { /* on (0, 0), (1, 0), (0, 1), (1, 1) */
        ax_tile t = g->bag[--g->bag_n];
        int rotation = (int)ax_rng_below_inline(&g->rng, 4);
        for (int i = 0; i < 4; i++)
            if (t.sym[i] == AX_NO_COLOR) /* placed corner c shows printed (c - r) */
                rotation = (centre_corner[k] - i + 4) % 4;
        placed[k] = ax_tile_rotate(t, rotation);
        g->board_tiles[g->board_n++] = t;
    }
    ax_rota_deal(&g->rota, placed); /* ax_game_init zeroed it */
    for (int seat = 0; seat < g->players; seat++)
        for (int k = 0; k < AX_ROTA_STACK; k++)
            g->stack[seat][g->stack_n[seat]++] = g->bag[--g->bag_n];
    for (int seat = 0; seat < g->players; seat++)
        draw_from_stack(g, seat, out);
}

ax_error ax_game_init(ax_game *g, int variant, int players, int mode, uint64_t seed, ax_events *out)
{
    ax_error err = ax_config_check(variant, players, mode);
    if (err)
        return err;
    memset(g, 0, sizeof *g);
    g->variant = (uint8_t)variant;
    g->players = (uint8_t)players;
    g->mode = (uint8_t)mode;
    g->seed = seed;
    g->ncolors = variant == AX_HEX ? 6 : 5;
    g->rack_size = mode == AX_SOLO || variant == AX_ROTA ? 1 : variant == AX_HEX ? 6 : 5;
    if (variant == AX_SQUARE)
        g->area = (uint8_t)(players <= 2 ? 9 : players == 3 ? 11 : 13);
    else if (variant == AX_HEX)
        g->area = (uint8_t)(players <= 2 ? 5 : players == 3 ? 6 : 7);
    set_thresholds(g);
    ax_rng_seed(&g->rng, seed);
    g->bag_n = (uint8_t)ax_tile_set(variant, g->bag);
    ax_shuffle(&g->rng, g->bag, g->bag_n);
    if (out)
        out->n = 0;
    if (variant == AX_ROTA) {
        deal_rota(g, out);
    } else {
        ax_grid_setup(g);
        for (int seat = 0; seat < players; seat++)
            draw_from_bag(g, seat, g->rack_size, AX_FROM_BAG, out);
    }
    g->phase = AX_PHASE_PLACE;
    return AX_OK;
}

void ax_game_copy(ax_game *dst, const ax_game *src)
{
    if (src->variant == AX_ROTA) {
        memcpy(dst, src, offsetof(ax_game, cell));
        dst->rota = src->rota;
    } else {
        memcpy(dst, src, offsetof(ax_game, rota));
    }
}

static bool can_place(const ax_game *g)
{
    if (g->variant == AX_ROTA)
        return g->rack_n[g->to_move] > 0 && g->rota.nfrontier > 0;
    return ax_grid_can_place(g);
}

/* rules 2.2 step 5: no rack tile shows a colour among the lowest tracks.
 * SPEC: and the bag is not empty (interpretation 3). */
static bool swap_eligible(const ax_game *g)
{
    int seat = g->to_move;
    if (g->variant == AX_ROTA || g->mode == AX_SOLO || g->rack_n[seat] == 0 || g->bag_n == 0)
        return false;
    const uint8_t *track = g->track[ax_track_owner(g, seat)];
    int lowest = 255;
    for (int c = 0; c < g->ncolors; c++)
        if (track[c] < lowest)
            lowest = track[c];
    for (int r = 0; r < g->rack_n[seat]; r++)
        for (int h = 0; h < 2; h++) {
            int sym = g->rack[seat][r].sym[h];
            if (sym < 0 || track[sym] == lowest) /* an unknown tile might */
                return false;
        }
    return true;
}

/* Hands the turn to the next seat that still has a tile to play. */
static void next_seat(ax_game *g, ax_events *out)
{
    g->in_bonus = false;
    g->phase = AX_PHASE_PLACE;
    if (g->variant == AX_ROTA) {
        for (int k = 1; k <= g->players; k++) {
            int seat = (g->to_move + k) % g->players;
            if (g->rack_n[seat] > 0) {
                g->to_move = (uint8_t)seat;
                return;
            }
        }
        end_game(g, AX_END_TILES_OUT, out);
        return;
    }
    g->to_move = (uint8_t)((g->to_move + 1) % g->players);
    if (!can_place(g))
        end_game(g, AX_END_BLOCKED, out);
}

static void refill(ax_game *g, ax_events *out)
{
    int seat = g->to_move;
    if (g->variant == AX_ROTA)
        draw_from_stack(g, seat, out);
    else
        draw_from_bag(g, seat, g->rack_size - g->rack_n[seat], AX_FROM_BAG, out);
}

/* After a placement: a bonus move, the swap decision, or the next seat. */
static void continue_turn(ax_game *g, ax_events *out)
{
    if (g->bonus_pending > 0 && g->variant == AX_ROTA && g->bag_n == 0)
        g->bonus_pending = 0; /* rules 3.3: no bonus once the supply is empty */
    if (g->bonus_pending > 0) {
        g->bonus_pending--;
        g->in_bonus = true;
        if (g->variant == AX_ROTA)
            draw_from_bag(g, g->to_move, 1, AX_FROM_SUPPLY, out);
        if (!can_place(g)) /* SPEC: interpretation 2 */
            end_game(g, AX_END_BLOCKED, out);
        return;
    }
    g->in_bonus = false;
    if (swap_eligible(g)) {
        g->phase = AX_PHASE_SWAP;
        return;
    }
    refill(g, out);
    next_seat(g, out);
}

/* rules 6: any seat that has not left, in any phase, for a known reason */
static ax_error check_leave(const ax_game *g, const ax_move *m)
{
    if (m->seat >= g->players)
        return AX_ERR_SEAT;
    if (g->left[m->seat])
        return AX_ERR_LEFT;
    if (m->why > AX_LEAVE_ABSENT)
        return AX_ERR_MOVE_KIND;
    return AX_OK;
}

ax_error ax_check(const ax_game *g, const ax_move *m)
{
    if (g->phase == AX_PHASE_OVER)
        return AX_ERR_OVER;
    if (m->kind == AX_MOVE_LEAVE)
        return check_leave(g, m);
    if (m->kind == AX_MOVE_SWAP)
        return g->phase == AX_PHASE_SWAP ? AX_OK : AX_ERR_PHASE;
    if (m->kind != AX_MOVE_PLACE)
        return AX_ERR_MOVE_KIND;
    if (g->phase != AX_PHASE_PLACE)
        return AX_ERR_PHASE;
    return g->variant == AX_ROTA ? ax_rota_check(g, m) : ax_grid_check(g, m);
}

static void apply_swap(ax_game *g, bool accept, ax_events *out)
{
    int seat = g->to_move;
    ax_event *e = ax_event_add(out, AX_EV_SWAP, seat);
    if (e)
        e->accepted = accept;
    if (!accept) {
        refill(g, out);
        next_seat(g, out);
        return;
    }
    ax_tile shown[AX_MAX_RACK];
    int nshown = g->rack_n[seat];
    memcpy(shown, g->rack[seat], sizeof shown);
    g->rack_n[seat] = 0;
    for (int k = 0; k < g->rack_size && g->bag_n > 0; k++) {
        ax_tile t = g->bag[--g->bag_n];
        g->rack[seat][g->rack_n[seat]++] = t;
        if (e)
            e->tiles[e->ntiles++] = t;
    }
    for (int k = 0; k < nshown; k++) {
        g->bag[g->bag_n++] = shown[k];
        if (e)
            e->returned[e->nreturned++] = shown[k];
    }
    ax_shuffle(&g->rng, g->bag, g->bag_n);
    next_seat(g, out);
}

int ax_sides(const ax_game *g) { return g->mode == AX_TEAM ? 2 : g->players; }

int ax_side_left(const ax_game *g, int side)
{
    int first = 0; /* a side has left when any of its seats has: the earliest counts */
    for (int s = 0; s < g->players; s++)
        if (ax_track_owner(g, s) == side && g->left[s] && (!first || g->left[s] < first))
            first = g->left[s];
    return first;
}

/* SPEC: interpretation 12: a leave keeps the turn (seat, phase, bonus moves
 * owed) as it was; the leaver's seat is asked for the same decision. */
static void apply_leave(ax_game *g, const ax_move *m, ax_events *out)
{
    g->left[m->seat] = ++g->nleft;
    g->left_why[m->seat] = m->why;
    ax_event *e = ax_event_add(out, AX_EV_LEAVE, m->seat);
    if (e)
        e->why = m->why;
    int staying = 0;
    for (int side = 0; side < ax_sides(g); side++)
        staying += ax_side_left(g, side) == 0;
    /* solo: none stays; two sides: one; three or four: the last one plays alone */
    if (staying <= 1)
        end_game(g, AX_END_LEFT, out);
}

ax_error ax_apply(ax_game *g, const ax_move *m, ax_events *out)
{
    ax_error err = ax_check(g, m);
    if (err)
        return err;
#ifndef NDEBUG
    /* hand-built test positions may start inconsistent; a decision must
     * never make a consistent game inconsistent */
    bool was_consistent = ax_game_consistent(g);
#endif
    if (out)
        out->n = 0;
    g->ply++;
    if (m->kind == AX_MOVE_LEAVE) {
        apply_leave(g, m, out);
        assert(!was_consistent || ax_game_consistent(g));
        return AX_OK;
    }
    if (m->kind == AX_MOVE_SWAP) {
        apply_swap(g, m->accept != 0, out);
        assert(!was_consistent || ax_game_consistent(g));
        return AX_OK;
    }
    bool all_max = false;
    int bonus = g->variant == AX_ROTA ? ax_rota_place(g, m, &all_max, out)
                                      : ax_grid_place(g, m, &all_max, out);
    g->placed_by[g->to_move]++;
    if (all_max) {
        end_game(g, AX_END_ALL_MAX, out);
        return AX_OK;
    }
    g->bonus_pending = (uint8_t)(g->bonus_pending + bonus);
    continue_turn(g, out);
    assert(!was_consistent || ax_game_consistent(g));
    return AX_OK;
}

int ax_legal_moves(const ax_game *g, ax_move *moves, int max)
{
    if (g->phase == AX_PHASE_OVER)
        return 0;
    if (g->phase == AX_PHASE_SWAP) {
        int n = 0;
        for (int accept = 1; accept >= 0 && n < max; accept--) {
            memset(&moves[n], 0, sizeof moves[n]);
            moves[n].kind = AX_MOVE_SWAP;
            moves[n].accept = (uint8_t)accept;
            moves[n].wild = AX_NO_COLOR;
            n++;
        }
        return n;
    }
    return g->variant == AX_ROTA ? ax_rota_moves(g, moves, max) : ax_grid_moves(g, moves, max);
}

void ax_random_move(const ax_game *g, ax_rng *rng, ax_move *m)
{
    assert(g->phase != AX_PHASE_OVER);
    if (g->phase == AX_PHASE_SWAP) {
        memset(m, 0, sizeof *m);
        m->kind = AX_MOVE_SWAP;
        m->wild = AX_NO_COLOR;
        m->accept = (uint8_t)ax_rng_below_inline(rng, 2);
        return;
    }
    if (g->variant == AX_ROTA)
        ax_rota_random_move(g, rng, m);
    else
        ax_grid_random_move(g, rng, m);
}

void ax_preview_move(const ax_game *g, const ax_move *m, ax_preview *out)
{
    memset(out, 0, sizeof *out);
    out->legal = ax_check(g, m);
    if (out->legal || m->kind != AX_MOVE_PLACE)
        return;
    ax_game copy;
    ax_game_copy(&copy, g);
    ax_events events;
    ax_apply(&copy, m, &events);
    for (int i = 0; i < events.n; i++) {
        const ax_event *e = &events.ev[i];
        if (e->player != g->to_move)
            continue;
        if (e->kind == AX_EV_PLACE || e->kind == AX_EV_PYRAMID) {
            for (int c = 0; c < AX_MAX_COLORS; c++)
                out->points[c] = (uint8_t)(out->points[c] + e->points[c]);
            memcpy(out->score, e->score, AX_MAX_COLORS);
        }
        if (e->kind == AX_EV_PYRAMID && out->npyramids < 6)
            out->pyramid_cell[out->npyramids++] = e->cells[0];
    }
}

int ax_preview_lines(const ax_game *g, const ax_move *m, ax_line lines[AX_MAX_LINES])
{
    if (m->kind != AX_MOVE_PLACE || ax_check(g, m) != AX_OK)
        return 0;
    return g->variant == AX_ROTA ? ax_rota_lines(g, m, lines) : ax_grid_lines(g, m, lines);
}
