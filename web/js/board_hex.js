// board_hex.js — SVG renderer of the AXIO Hex board: 169 hexes in rings of radius
// 5 (light), 6 (light grey) and 7 (grey) as in seed 004, the parts a game does not
// use hatched, the six start symbols, the dominoes and the hover overlay. Cells are
// axial [q, r], pointy-top hexes. Drawing only; no rules.
import { s, clear } from './svg.js';
import { shape } from './colors.js';
import { BoardBase, TILE_DARK, key } from './board_common.js';

const R = 22;                 // hex radius (centre to vertex)
const W = Math.sqrt(3) * R;   // centre to centre
const RING_FILL = ['#f4efe4', '#e3ded3', '#d2cdc2'];
export const HEX_DIRS = [[1, 0], [1, -1], [0, -1], [-1, 0], [-1, 1], [0, 1]];

export const hexDist = ([q, r]) => Math.max(Math.abs(q), Math.abs(r), Math.abs(q + r));
const center = ([q, r]) => [W * (q + r / 2), 1.5 * R * r];
const corners = (x, y, rad) => {
  const pts = [];
  for (let i = 0; i < 6; i++) {
    const a = (Math.PI / 180) * (60 * i - 30);
    pts.push(`${(x + rad * Math.cos(a)).toFixed(2)},${(y + rad * Math.sin(a)).toFixed(2)}`);
  }
  return pts.join(' ');
};

export function drawHexDomino(g, a, b, ca, cb, cls = 'tile') {
  const t = s('g', { class: cls }, g);
  const pa = center(a);
  s('polygon', { points: corners(pa[0], pa[1], R - 1.5), fill: TILE_DARK, class: 'tile-body' }, t);
  if (b) {
    const pb = center(b);
    s('polygon', { points: corners(pb[0], pb[1], R - 1.5), fill: TILE_DARK, class: 'tile-body' }, t);
    // Bridge over the gap between the two hexes, and the seam along their shared edge.
    const mx = (pa[0] + pb[0]) / 2, my = (pa[1] + pb[1]) / 2;
    const ang = (Math.atan2(pb[1] - pa[1], pb[0] - pa[0]) * 180) / Math.PI;
    s('rect', { x: mx - W / 2, y: my - R / 2 + 0.5, width: W, height: R - 1, fill: TILE_DARK, transform: `rotate(${ang} ${mx} ${my})`, class: 'tile-body' }, t);
    s('line', { x1: mx, y1: my - R / 2 + 3, x2: mx, y2: my + R / 2 - 3, transform: `rotate(${ang} ${mx} ${my})`, class: 'tile-seam' }, t);
  }
  const half = (cell, c) => {
    const p = center(cell);
    const u = shape(t, c, p[0], p[1], R * 0.55);
    u.setAttribute('data-half', key(cell));
    u.setAttribute('data-color', c);
  };
  half(a, ca);
  if (b) half(b, cb);
  return t;
}

export class HexBoard extends BoardBase {
  constructor(host) {
    super(host, 'AXIO Hex board');
    const ext = 7;
    const wx = W * ext + R * 1.35 + 4, wy = 1.5 * R * ext + R + 8;
    this.svg.setAttribute('viewBox', `${-wx} ${-wy} ${2 * wx} ${2 * wy}`);
    this.frame = { wx, wy };
    this.area = 7;
  }

  cellAt(x, y) {
    const qf = ((Math.sqrt(3) / 3) * x - y / 3) / R, rf = ((2 / 3) * y) / R, sf = -qf - rf;
    let q = Math.round(qf), r = Math.round(rf), sr = Math.round(sf);
    const dq = Math.abs(q - qf), dr = Math.abs(r - rf), ds = Math.abs(sr - sf);
    if (dq > dr && dq > ds) q = -r - sr; else if (dr > ds) r = -q - sr;
    if (hexDist([q, r]) > this.area) return null;
    return [q, r];
  }

  step(cell, dir) {
    const [q, r] = cell || [0, 0];
    const even = Math.abs(r) % 2 === 0;
    // Up and down alternate between the two neighbours so that the cursor walks straight.
    const m = {
      ArrowRight: [1, 0], ArrowLeft: [-1, 0],
      ArrowUp: even ? [1, -1] : [0, -1], ArrowDown: even ? [-1, 1] : [0, 1],
    }[dir];
    if (!m) return cell;
    const n = [q + m[0], r + m[1]];
    return hexDist(n) <= this.area ? n : cell;
  }

  // view: {area, fields, cells, last, pairs}
  render(view) {
    this.area = view.area || 5;
    // On a narrow screen, only the play area, in a frame of its own: a whole hexagon,
    // no cell cut at the edges, its corners free (the "?" sits in the top right one).
    const a = this.compact ? this.area : 7;
    const rad = W * a + R * 1.35;
    const wx = a === 7 ? this.frame.wx : rad + 4, wy = a === 7 ? this.frame.wy : rad * Math.sin(Math.PI / 3) + 4;
    this.svg.setAttribute('viewBox', `${-wx} ${-wy} ${2 * wx} ${2 * wy}`);
    const gb = clear(this.layerBoard), gt = clear(this.layerTiles);
    const fr = [];
    for (let i = 0; i < 6; i++) {
      const ang = (Math.PI / 3) * i;
      fr.push(`${(rad * Math.cos(ang)).toFixed(1)},${(rad * Math.sin(ang)).toFixed(1)}`);
    }
    s('polygon', { points: fr.join(' '), class: 'board-frame', 'stroke-linejoin': 'round' }, gb);
    for (let q = -7; q <= 7; q++) {
      for (let r = -7; r <= 7; r++) {
        const d = hexDist([q, r]);
        if (d > a) continue;
        const [x, y] = center([q, r]);
        const used = d <= this.area;
        const fill = RING_FILL[d <= 5 ? 0 : d - 5];
        s('polygon', { points: corners(x, y, R - 1), fill, class: used ? 'cell' : 'cell off', 'data-cell': used ? `${q},${r}` : null }, gb);
        if (!used) s('polygon', { points: corners(x, y, R - 1), fill: 'url(#hatch)', class: 'off-hatch' }, gb);
      }
    }
    for (const f of view.fields || []) {
      const [x, y] = center(f.cell);
      const g = s('g', { class: 'field', 'data-field': key(f.cell), 'data-color': f.color }, gb);
      s('circle', { cx: x, cy: y, r: R * 0.8, class: 'field-disc' }, g);
      shape(g, f.color, x, y, R * 0.55);
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
      drawHexDomino(gt, c.cell, other ? other.cell : null, c.color, other ? other.color : null);
    }
    const last = view.last ? (view.last.cells || []) : [];
    for (const cell of last) {
      const [x, y] = center(cell);
      s('polygon', { points: corners(x, y, R - 0.5), class: 'last-move' }, gt);
    }
    this.drawMarks(view.marks);
  }

  // marks: {played: {cells, tile}, best: {cells, tile} | null, labels: {played, best}}:
  // the move played outlined, the better one as a ghost domino, each with its label.
  drawMarks(m) {
    const g = clear(this.layerMarks);
    if (!m) return;
    const mid = (cells) => { const ps = cells.map(center); return [(ps[0][0] + ps[1][0]) / 2, ps.map((p) => p[1])]; };
    if (m.best) {
      const [a, b] = m.best.cells;
      drawHexDomino(g, a, b, m.best.tile[0], m.best.tile[1], 'ghost mark-best').setAttribute('data-mark', `${key(a)};${key(b)}`);
      const [x, ys] = mid(m.best.cells);
      if (m.labels?.best) this.badge(x, Math.max(-this.frame.wy + 16, Math.min(...ys) - R * 1.3), m.labels.best, 'badge-best', 1, g);
    }
    if (m.played) {
      const p = s('g', { class: 'mark-played', 'data-mark': m.played.cells.map(key).join(';') }, g);
      for (const cell of m.played.cells) {
        const [x, y] = center(cell);
        s('polygon', { points: corners(x, y, R + 0.5) }, p);
      }
      const [x, ys] = mid(m.played.cells);
      if (m.labels?.played) this.badge(x, Math.min(this.frame.wy - 12, Math.max(...ys) + R * 1.3 + 4), m.labels.played, 'badge-played', 1, g);
    }
  }

  overlay(ov, cursor = null) {
    const g = clear(this.layerOverlay);
    if (cursor) {
      const [x, y] = center(cursor);
      s('polygon', { points: corners(x, y, R - 1), class: 'kbd-cursor' }, g);
    }
    if (!ov) return;
    const [a, b] = ov.cells;
    const okB = hexDist(b) <= 7;
    const t = drawHexDomino(g, a, okB ? b : null, ov.tile[0], ov.tile[1], `ghost ghost-${ov.state}`);
    if (ov.state === 'illegal') {
      const [x, y] = center(a);
      s('path', { d: `M${x - 9},${y - 9}L${x + 9},${y + 9}M${x + 9},${y - 9}L${x - 9},${y + 9}`, class: 'ghost-x' }, t);
    }
    if (ov.label) {
      const pa = center(a), pb = okB ? center(b) : pa;
      this.badge((pa[0] + pb[0]) / 2, Math.max(-this.frame.wy + 16, Math.min(pa[1], pb[1]) - R * 1.3), ov.label, `badge-${ov.state}`);
    }
  }
}
