// board_square.js — SVG renderer of the AXIO (square) board: 13x13 cells with the
// 9x9 / 11x11 / 13x13 areas (cells outside the game's area are greyed and hatched),
// the five printed fields, dominoes, pyramids and cells a pyramid left. It is fed a
// plain view of the position and an overlay (the tile under the mouse).
import { s, clear } from './svg.js';
import { shape } from './colors.js';
import { BoardBase, TILE_DARK, drawPyramid, key } from './board_common.js';

const N = 13, CELL = 40, M = 12;
const RING_FILL = ['#f4efe4', '#e3ded3', '#d2cdc2']; // 9x9, the 11x11 ring, the 13x13 ring

const ringOf = (r, c) => Math.max(Math.abs(r - 6), Math.abs(c - 6)); // 0..6
const inArea = (r, c, area) => ringOf(r, c) <= (area - 1) / 2;
const center = ([r, c]) => [M + c * CELL + CELL / 2, M + r * CELL + CELL / 2];

// One domino (or a lone half when b is null): dark piece with the two symbols.
export function drawSquareDomino(g, a, b, ca, cb, cls = 'tile') {
  const t = s('g', { class: cls }, g);
  const pa = center(a);
  const pb = b ? center(b) : pa;
  const h = CELL / 2 - 2.5;
  const x0 = Math.min(pa[0], pb[0]) - h, y0 = Math.min(pa[1], pb[1]) - h;
  s('rect', { x: x0, y: y0, width: Math.abs(pb[0] - pa[0]) + 2 * h, height: Math.abs(pb[1] - pa[1]) + 2 * h, rx: 5, fill: TILE_DARK, class: 'tile-body' }, t);
  if (b) {
    const mx = (pa[0] + pb[0]) / 2, my = (pa[1] + pb[1]) / 2;
    const horiz = pa[1] === pb[1];
    s('line', horiz ? { x1: mx, y1: my - h + 4, x2: mx, y2: my + h - 4 } : { x1: mx - h + 4, y1: my, x2: mx + h - 4, y2: my }, t)
      .setAttribute('class', 'tile-seam');
  }
  const half = (p, c, cell) => {
    const u = shape(t, c, p[0], p[1], CELL * 0.3);
    u.setAttribute('data-half', key(cell));
    u.setAttribute('data-color', c);
  };
  half(pa, ca, a);
  if (b) half(pb, cb, b);
  return t;
}

export class SquareBoard extends BoardBase {
  constructor(host) {
    super(host, 'AXIO board');
    const size = N * CELL + 2 * M;
    this.svg.setAttribute('viewBox', `0 0 ${size} ${size}`);
    this.area = 13;
  }

  cellAt(x, y) {
    const c = Math.floor((x - M) / CELL), r = Math.floor((y - M) / CELL);
    if (r < 0 || c < 0 || r >= N || c >= N || !inArea(r, c, this.area)) return null;
    return [r, c];
  }

  // Keyboard cursor moves; direction: 'ArrowUp' etc.
  step(cell, dir) {
    const lo = (N - this.area) / 2, hi = N - 1 - lo;
    let [r, c] = cell || [6, 6];
    if (dir === 'ArrowUp') r--; if (dir === 'ArrowDown') r++;
    if (dir === 'ArrowLeft') c--; if (dir === 'ArrowRight') c++;
    return [Math.min(hi, Math.max(lo, r)), Math.min(hi, Math.max(lo, c))];
  }

  // view: {area, fields:[{cell,color}], cells:[{cell,color}], pyramids, dead, last, pairs: Map}
  render(view) {
    this.area = view.area || 9;
    // On a narrow screen, show only the play area (and a sliver around it).
    const size = N * CELL + 2 * M;
    if (this.compact && this.area < N) {
      const o = M + ((N - this.area) / 2) * CELL - 10;
      this.svg.setAttribute('viewBox', `${o} ${o} ${this.area * CELL + 20} ${this.area * CELL + 20}`);
    } else this.svg.setAttribute('viewBox', `0 0 ${size} ${size}`);
    const gb = clear(this.layerBoard), gt = clear(this.layerTiles);
    s('rect', { x: 0, y: 0, width: N * CELL + 2 * M, height: N * CELL + 2 * M, rx: 10, class: 'board-frame' }, gb);
    for (let r = 0; r < N; r++) {
      for (let c = 0; c < N; c++) {
        const ring = ringOf(r, c);
        const fill = RING_FILL[ring <= 4 ? 0 : ring - 4];
        const used = inArea(r, c, this.area);
        s('rect', {
          x: M + c * CELL + 1, y: M + r * CELL + 1, width: CELL - 2, height: CELL - 2, rx: 3,
          fill, class: used ? 'cell' : 'cell off', 'data-cell': used ? `${r},${c}` : null,
        }, gb);
        if (!used) s('rect', { x: M + c * CELL + 1, y: M + r * CELL + 1, width: CELL - 2, height: CELL - 2, rx: 3, fill: 'url(#hatch)', class: 'off-hatch' }, gb);
      }
    }
    // Area borders: the 9x9 and 11x11 outlines, as printed.
    for (const a of [9, 11]) {
      const o = M + ((N - a) / 2) * CELL;
      s('rect', { x: o, y: o, width: a * CELL, height: a * CELL, class: 'area-line' }, gb);
    }
    for (const f of view.fields || []) {
      const [x, y] = center(f.cell);
      const g = s('g', { class: 'field', 'data-field': key(f.cell), 'data-color': f.color }, gb);
      s('circle', { cx: x, cy: y, r: CELL * 0.44, class: 'field-disc' }, g);
      shape(g, f.color, x, y, CELL * 0.3);
    }
    for (const d of view.dead || []) {
      const [x, y] = center(d);
      s('path', { d: `M${x - 5},${y - 5}L${x + 5},${y + 5}M${x + 5},${y - 5}L${x - 5},${y + 5}`, class: 'dead', 'data-dead': key(d) }, gb);
    }
    const byKey = new Map((view.cells || []).map((c) => [key(c.cell), c]));
    const done = new Set();
    for (const c of view.cells || []) {
      const k = key(c.cell);
      if (done.has(k)) continue;
      done.add(k);
      const pk = view.pairs?.get(k);
      const other = pk && !done.has(pk) ? byKey.get(pk) : null;
      if (other) done.add(pk);
      drawSquareDomino(gt, c.cell, other ? other.cell : null, c.color, other ? other.color : null);
    }
    for (const p of view.pyramids || []) {
      const [x, y] = center(p);
      drawPyramid(gt, x, y, CELL / 2 - 4).setAttribute('data-pyramid', key(p));
    }
    const last = view.last ? (view.last.cells || (view.last.cell ? [view.last.cell] : [])) : [];
    if (last.length) {
      const ps = last.map(center);
      const xs = ps.map((p) => p[0]), ys = ps.map((p) => p[1]);
      const h = CELL / 2 - 1;
      s('rect', { x: Math.min(...xs) - h, y: Math.min(...ys) - h, width: Math.max(...xs) - Math.min(...xs) + 2 * h, height: Math.max(...ys) - Math.min(...ys) + 2 * h, rx: 6, class: 'last-move' }, gt);
    }
    this.drawMarks(view.marks);
  }

  // marks: {played: {cells, tile}, best: {cells, tile} | null, labels: {played, best}}:
  // the move played outlined, the better one as a ghost domino, each with its label.
  drawMarks(m) {
    const g = clear(this.layerMarks);
    if (!m) return;
    const span = (cells) => {
      const ps = cells.map(center);
      const xs = ps.map((p) => p[0]), ys = ps.map((p) => p[1]);
      return { x0: Math.min(...xs), x1: Math.max(...xs), y0: Math.min(...ys), y1: Math.max(...ys) };
    };
    const h = CELL / 2 - 1;
    if (m.best) {
      const [a, b] = m.best.cells;
      const t = drawSquareDomino(g, a, b, m.best.tile[0], m.best.tile[1], 'ghost mark-best');
      t.setAttribute('data-mark', `${key(a)};${key(b)}`);
      const r = span(m.best.cells);
      if (m.labels?.best) this.badge((r.x0 + r.x1) / 2, Math.max(16, r.y0 - CELL * 0.62), m.labels.best, 'badge-best', 1, g);
    }
    if (m.played) {
      const r = span(m.played.cells);
      s('rect', { x: r.x0 - h, y: r.y0 - h, width: r.x1 - r.x0 + 2 * h, height: r.y1 - r.y0 + 2 * h, rx: 6, class: 'mark-played', 'data-mark': m.played.cells.map(key).join(';') }, g);
      if (m.labels?.played) this.badge((r.x0 + r.x1) / 2, Math.min(N * CELL + 2 * M - 12, r.y1 + CELL * 0.62 + 4), m.labels.played, 'badge-played', 1, g);
    }
  }

  // ov: {cells:[a,b], tile:[c0,c1], state:'pending'|'legal'|'illegal', pyramids, label} | null
  overlay(ov, cursor = null) {
    const g = clear(this.layerOverlay);
    if (cursor) {
      const [x, y] = center(cursor);
      s('rect', { x: x - CELL / 2 + 1, y: y - CELL / 2 + 1, width: CELL - 2, height: CELL - 2, rx: 4, class: 'kbd-cursor' }, g);
    }
    if (!ov) return;
    const [a, b] = ov.cells;
    const onBoard = (cell) => cell[0] >= 0 && cell[1] >= 0 && cell[0] < N && cell[1] < N;
    if (!onBoard(a)) return;
    const t = drawSquareDomino(g, a, onBoard(b) ? b : null, ov.tile[0], ov.tile[1], `ghost ghost-${ov.state}`);
    if (ov.state === 'illegal') {
      const [x, y] = center(a);
      s('path', { d: `M${x - 9},${y - 9}L${x + 9},${y + 9}M${x + 9},${y - 9}L${x - 9},${y + 9}`, class: 'ghost-x' }, t);
    }
    for (const p of ov.pyramids || []) {
      const [x, y] = center(p);
      drawPyramid(g, x, y, CELL / 2 - 4, 'pyramid ghost-pyramid');
    }
    if (ov.label) {
      const pa = center(a), pb = onBoard(b) ? center(b) : pa;
      this.badge((pa[0] + pb[0]) / 2, Math.max(16, Math.min(pa[1], pb[1]) - CELL * 0.62), ov.label, `badge-${ov.state}`);
    }
  }
}
