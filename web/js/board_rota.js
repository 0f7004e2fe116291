// board_rota.js — SVG renderer of the AXIO ROTA display: square tiles whose four
// corners are quarter circles, so that the corners meeting at a vertex form a
// circle. The display grows freely; the view box follows it. Frontier cells (given
// by the server) are drawn as dashed places. Drawing only; no rules.
import { s, clear } from './svg.js';
import { shape } from './colors.js';
import { BoardBase, TILE_DARK, SYMBOL_DARK, key } from './board_common.js';

const CELL = 60, GAP = 1.5, RQ = 0.41 * CELL;
// Corner i (NW, NE, SE, SW): the vertex offset and the inward direction.
const CORNERS = [[0, 0, 1, 1], [1, 0, -1, 1], [1, 1, -1, -1], [0, 1, 1, -1]];

// Draws a ROTA tile (corners as placed) at cell [x, y].
export function drawRotaTile(g, cell, corners, cls = 'tile', size = CELL) {
  const t = s('g', { class: cls, 'data-tile': key(cell) }, g);
  const x0 = cell[0] * size + GAP, y0 = cell[1] * size + GAP, w = size - 2 * GAP;
  const rq = (RQ / CELL) * size;
  s('rect', { x: x0, y: y0, width: w, height: w, rx: 2, fill: TILE_DARK, class: 'tile-body' }, t);
  corners.forEach((c, i) => {
    const [ox, oy, dx, dy] = CORNERS[i];
    const vx = x0 + ox * w, vy = y0 + oy * w;
    const sweep = dx * dy > 0 ? 1 : 0;
    const d = `M${vx},${vy}L${vx + dx * rq},${vy}A${rq},${rq} 0 0 ${sweep} ${vx},${vy + dy * rq}Z`;
    if (c) {
      s('path', { d, fill: `var(--c-${c})`, class: `corner c-${c}`, 'data-corner': i, 'data-color': c }, t);
      shape(t, c, vx + dx * rq * 0.45, vy + dy * rq * 0.45, rq * 0.24, SYMBOL_DARK, 'corner-shape');
    } else {
      s('path', { d: `M${vx + dx * rq},${vy}A${rq},${rq} 0 0 ${sweep} ${vx},${vy + dy * rq}`, class: 'corner-empty', 'data-corner': i, 'data-color': 'none' }, t);
    }
  });
  return t;
}

export class RotaBoard extends BoardBase {
  constructor(host) {
    super(host, 'AXIO ROTA display');
    this.bounds = { x0: -2, y0: -2, x1: 4, y1: 4 };
  }

  cellAt(x, y) { return [Math.floor(x / CELL), Math.floor(y / CELL)]; }

  step(cell, dir) {
    const [x, y] = cell || [0, 0];
    const m = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[dir];
    return m ? [x + m[0], y + m[1]] : cell;
  }

  // view: {tiles:[{cell,tile}], frontier:[[x,y]], last:{cell}}
  render(view) {
    const gb = clear(this.layerBoard), gt = clear(this.layerTiles);
    const marked = [view.marks?.played?.cell, view.marks?.best?.cell].filter(Boolean);
    const all = [...(view.tiles || []).map((t) => t.cell), ...(view.frontier || []), ...marked];
    let x0 = 0, y0 = 0, x1 = 2, y1 = 2;
    for (const [x, y] of all) { x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x + 1); y1 = Math.max(y1, y + 1); }
    // At least 6x6 cells, with one cell of margin, centred on the display.
    x0 -= 1; y0 -= 1; x1 += 1; y1 += 1;
    const grow = (lo, hi) => { const d = 6 - (hi - lo); return d > 0 ? [lo - Math.floor(d / 2), hi + Math.ceil(d / 2)] : [lo, hi]; };
    [x0, x1] = grow(x0, x1); [y0, y1] = grow(y0, y1);
    this.bounds = { x0, y0, x1, y1 };
    this.aspect = (x1 - x0) / (y1 - y0);
    this.svg.setAttribute('viewBox', `${x0 * CELL} ${y0 * CELL} ${(x1 - x0) * CELL} ${(y1 - y0) * CELL}`);
    s('rect', { x: x0 * CELL, y: y0 * CELL, width: (x1 - x0) * CELL, height: (y1 - y0) * CELL, class: 'rota-table' }, gb);
    for (const [x, y] of view.frontier || []) {
      s('rect', { x: x * CELL + 4, y: y * CELL + 4, width: CELL - 8, height: CELL - 8, rx: 6, class: 'frontier', 'data-cell': `${x},${y}` }, gb);
    }
    for (const t of view.tiles || []) drawRotaTile(gt, t.cell, t.tile).setAttribute('data-cell', key(t.cell));
    const last = view.last?.cell;
    if (last) s('rect', { x: last[0] * CELL, y: last[1] * CELL, width: CELL, height: CELL, rx: 3, class: 'last-move' }, gt);
    this.drawMarks(view.marks);
  }

  // marks: {played: {cell, tile}, best: {cell, tile} | null, labels: {played, best}}:
  // the tile played outlined, the better one as a ghost tile, each with its label.
  drawMarks(m) {
    const g = clear(this.layerMarks);
    if (!m) return;
    if (m.best) {
      const t = drawRotaTile(g, m.best.cell, m.best.tile, 'ghost mark-best');
      t.removeAttribute('data-tile');
      t.setAttribute('data-mark', key(m.best.cell));
      const y = Math.max(this.bounds.y0 * CELL + 16, m.best.cell[1] * CELL - 12);
      if (m.labels?.best) this.badge(m.best.cell[0] * CELL + CELL / 2, y, m.labels.best, 'badge-best', 1, g);
    }
    if (m.played) {
      const [x, y] = m.played.cell;
      s('rect', { x: x * CELL - 1, y: y * CELL - 1, width: CELL + 2, height: CELL + 2, rx: 4, class: 'mark-played', 'data-mark': key(m.played.cell) }, g);
      const by = Math.min(this.bounds.y1 * CELL - 16, (y + 1) * CELL + 14);
      if (m.labels?.played) this.badge(x * CELL + CELL / 2, by, m.labels.played, 'badge-played', 1, g);
    }
  }

  // ov: {cell, corners, state, label} | null
  overlay(ov, cursor = null) {
    const g = clear(this.layerOverlay);
    if (cursor) s('rect', { x: cursor[0] * CELL + 2, y: cursor[1] * CELL + 2, width: CELL - 4, height: CELL - 4, rx: 4, class: 'kbd-cursor' }, g);
    if (!ov) return;
    const t = drawRotaTile(g, ov.cell, ov.corners, `ghost ghost-${ov.state}`);
    if (ov.state === 'illegal') {
      const x = ov.cell[0] * CELL + CELL / 2, y = ov.cell[1] * CELL + CELL / 2;
      s('path', { d: `M${x - 12},${y - 12}L${x + 12},${y + 12}M${x + 12},${y - 12}L${x - 12},${y + 12}`, class: 'ghost-x' }, t);
    }
    if (ov.label) {
      const y = Math.max(this.bounds.y0 * CELL + 16, ov.cell[1] * CELL - 12);
      this.badge(ov.cell[0] * CELL + CELL / 2, y, ov.label, `badge-${ov.state}`, 1.2);
    }
  }
}

// Corners of a printed tile turned r quarter turns clockwise (rules 3.1:
// placed corner i = printed corner (i - r) mod 4). Pure geometry, for drawing.
export const rotateCorners = (tile, r) => [0, 1, 2, 3].map((i) => tile[(((i - r) % 4) + 4) % 4]);
