/*
 * picture.c - draws a game as text (picture.h): one letter per colour
 * (lower case on tiles, upper case on printed fields), '^' a pyramid, '.' an
 * empty cell, 'x' a cell a pyramid left. Hex rows are indented by half a
 * cell per row; a ROTA tile shows its four corners as a 2x2 block. Pure
 * formatting into the caller's buffer, as snprintf does: no I/O.
 */
#include "picture.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* The caller's buffer and how much the picture has needed so far. */
typedef struct {
    char *out;
    size_t size, len;
} canvas;

static void put(canvas *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(canvas *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(c->len < c->size ? c->out + c->len : NULL,
                      c->len < c->size ? c->size - c->len : 0, fmt, ap);
    va_end(ap);
    if (n > 0)
        c->len += (size_t)n;
}

static char color_letter(int color) { return color >= 0 ? "rgbopy"[color] : '-'; }

static bool is_field(const ax_game *g, int cell)
{
    for (int f = 0; f < g->nfields; f++)
        if (g->field_cell[f] == cell)
            return true;
    return false;
}

static char cell_char(const ax_game *g, int cell)
{
    uint8_t c = g->cell[cell];
    if (c < AX_MAX_COLORS)
        return is_field(g, cell) ? (char)toupper(color_letter(c)) : color_letter(c);
    return c == AX_PYRAMID ? '^' : c == AX_DEAD ? 'x' : c == AX_EMPTY ? '.' : ' ';
}

static void draw_square(canvas *c, const ax_game *g)
{
    int margin = (13 - g->area) / 2;
    for (int row = margin; row < 13 - margin; row++) {
        for (int col = margin; col < 13 - margin; col++)
            put(c, " %c", cell_char(g, ax_cell_index(g, row, col)));
        put(c, "\n");
    }
}

static void draw_hex(canvas *c, const ax_game *g)
{
    int n = g->area;
    for (int r = -n; r <= n; r++) {
        put(c, "%*s", r < 0 ? -r : r, "");
        for (int q = -n; q <= n; q++)
            if (q + r >= -n && q + r <= n)
                put(c, "%c ", cell_char(g, ax_cell_index(g, q, r)));
        put(c, "\n");
    }
}

static void draw_rota(canvas *c, const ax_game *g)
{
    const ax_rota_board *b = &g->rota;
    int minx = 0, maxx = 0, miny = 0, maxy = 0;
    for (int id = 0; id < b->ncells; id++) {
        if (b->placed[id].sym[0] == AX_UNSET)
            continue;
        minx = b->x[id] < minx ? b->x[id] : minx;
        maxx = b->x[id] > maxx ? b->x[id] : maxx;
        miny = b->y[id] < miny ? b->y[id] : miny;
        maxy = b->y[id] > maxy ? b->y[id] : maxy;
    }
    for (int y = miny; y <= maxy; y++)
        for (int half = 0; half < 2; half++) {
            for (int x = minx; x <= maxx; x++) {
                int id = ax_rota_find(b, x, y);
                if (id < 0 || b->placed[id].sym[0] == AX_UNSET) {
                    put(c, "   ");
                    continue;
                }
                const int8_t *s = b->placed[id].sym;
                put(c, "%c%c ", color_letter(half ? s[3] : s[0]), color_letter(half ? s[2] : s[1]));
            }
            put(c, "\n");
        }
}

size_t ax_picture(const ax_game *g, char *out, size_t size)
{
    canvas c = {out, size, 0};
    if (size)
        out[0] = 0;
    if (g->variant == AX_SQUARE)
        draw_square(&c, g);
    else if (g->variant == AX_HEX)
        draw_hex(&c, g);
    else
        draw_rota(&c, g);
    int owners = g->mode == AX_TEAM ? 2 : g->players;
    for (int o = 0; o < owners; o++) {
        put(&c, g->mode == AX_TEAM ? "team %d:" : "seat %d:", o);
        for (int col = 0; col < g->ncolors; col++)
            put(&c, " %s %2d", ax_color_name(col), g->track[o][col]);
        put(&c, "\n");
    }
    if (g->phase != AX_PHASE_OVER)
        return c.len;
    ax_ranking rank;
    ax_rank(g, &rank);
    put(&c, "ranking:");
    for (int i = 0; i < rank.n; i++) {
        int seat = rank.order[i];
        put(&c, " %d. seat %d", rank.place[i] + 1, seat);
        if (g->left[seat]) /* rules 6: ranks last whatever its tracks */
            put(&c, " (left: %s)", ax_leave_why_name(g->left_why[seat]));
    }
    put(&c, " (end: %s)\n", ax_end_reason_name(g->end_reason));
    if (g->mode == AX_SOLO)
        put(&c, "solo result: %ld\n", ax_solo_result(g));
    return c.len;
}
