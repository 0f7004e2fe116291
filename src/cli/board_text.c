/*
 * board_text.c - draws a game in a terminal: one letter per colour
 * (lower case on tiles, upper case on printed fields), '^' a pyramid, '.' an
 * empty cell, 'x' a cell a pyramid left. Hex rows are indented by half a
 * cell per row; a ROTA tile shows its four corners as a 2x2 block.
 */
#include "board_text.h"

#include <ctype.h>
#include <string.h>

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

static void print_square(FILE *out, const ax_game *g)
{
    int margin = (13 - g->area) / 2;
    for (int row = margin; row < 13 - margin; row++) {
        for (int col = margin; col < 13 - margin; col++)
            fprintf(out, " %c", cell_char(g, ax_cell_index(g, row, col)));
        fputc('\n', out);
    }
}

static void print_hex(FILE *out, const ax_game *g)
{
    int n = g->area;
    for (int r = -n; r <= n; r++) {
        fprintf(out, "%*s", r < 0 ? -r : r, "");
        for (int q = -n; q <= n; q++)
            if (q + r >= -n && q + r <= n)
                fprintf(out, "%c ", cell_char(g, ax_cell_index(g, q, r)));
        fputc('\n', out);
    }
}

static void print_rota(FILE *out, const ax_game *g)
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
                    fputs("   ", out);
                    continue;
                }
                const int8_t *s = b->placed[id].sym;
                fprintf(out, "%c%c ", color_letter(half ? s[3] : s[0]),
                        color_letter(half ? s[2] : s[1]));
            }
            fputc('\n', out);
        }
}

void print_game(FILE *out, const ax_game *g)
{
    if (g->variant == AX_SQUARE)
        print_square(out, g);
    else if (g->variant == AX_HEX)
        print_hex(out, g);
    else
        print_rota(out, g);
    int owners = g->mode == AX_TEAM ? 2 : g->players;
    for (int o = 0; o < owners; o++) {
        fprintf(out, g->mode == AX_TEAM ? "team %d:" : "seat %d:", o);
        for (int c = 0; c < g->ncolors; c++)
            fprintf(out, " %s %2d", ax_color_name(c), g->track[o][c]);
        fputc('\n', out);
    }
    if (g->phase != AX_PHASE_OVER)
        return;
    ax_ranking rank;
    ax_rank(g, &rank);
    fprintf(out, "ranking:");
    for (int i = 0; i < rank.n; i++) {
        int seat = rank.order[i];
        fprintf(out, " %d. seat %d", rank.place[i] + 1, seat);
        if (g->left[seat]) /* rules 6: ranks last whatever its tracks */
            fprintf(out, " (left: %s)", ax_leave_why_name(g->left_why[seat]));
    }
    fprintf(out, " (end: %s)\n", ax_end_reason_name(g->end_reason));
    if (g->mode == AX_SOLO)
        fprintf(out, "solo result: %ld\n", ax_solo_result(g));
}
