// rules_figs.js — the diagrams of the rules pages (#/rules/VARIANT), shared by all
// languages: small hand-made positions drawn by the game's own board renderers
// (board_square.js, board_hex.js, board_rota.js), tiles drawn as in the rack (rack.js),
// score tracks and end-of-game scores drawn with the colours' shapes (colors.js).
// Everything here is data: which tiles lie where, which lines a placement scores along
// and the points the example claims — no rule is computed. The points are checked
// against the rules (docs/rules.md) by tests/web/rules_figs.test.mjs.
import { h, s, svgRoot } from './svg.js';
import { shape, shapeIcon, COLORS } from './colors.js';
import { SquareBoard } from './board_square.js';
import { HexBoard } from './board_hex.js';
import { RotaBoard } from './board_rota.js';
import { tileSvg } from './rack.js';

// The printed symbols (rules.md 2.1 and 4.1).
export const SQUARE_FIELDS = [
  { cell: [2, 6], color: 'red' }, { cell: [6, 10], color: 'green' }, { cell: [10, 6], color: 'blue' },
  { cell: [6, 2], color: 'orange' }, { cell: [6, 6], color: 'purple' },
];
export const HEX_STARTS = [
  { cell: [5, 0], color: 'red' }, { cell: [5, -5], color: 'green' }, { cell: [0, -5], color: 'blue' },
  { cell: [-5, 0], color: 'orange' }, { cell: [-5, 5], color: 'yellow' }, { cell: [0, 5], color: 'purple' },
];
const FIVE = ['red', 'green', 'blue', 'orange', 'purple'];
const SIX = [...FIVE, 'yellow'];

// A domino: [cellA, cellB, colourA, colourB]. A line: [from (the scoring half or the
// pyramid), to (the last cell counted), colour]. ROTA circles: [vertex, colour of the
// placed corner there (null: the wild corner, colour to choose), its points]. units: what each scoring unit gives,
// in the order scored ('tile', 'pyramid'); choice: alternatives (ROTA's wild corner).
export const FIGS = {
  // ---- AXIO (square) ----
  'sq-board': { kind: 'square', area: 9, tiles: [] },
  'sq-first': {
    kind: 'square', area: 9,
    tiles: [[[5, 6], [4, 6], 'green', 'red']],
    placed: [[7, 2], [7, 3], 'orange', 'blue'],
    lines: [[[7, 2], [6, 2], 'orange']],
    units: [{ unit: 'tile', points: { orange: 1 } }],
  },
  'sq-score-1': {
    kind: 'square', area: 9, crop: [3, 2, 7, 7],
    tiles: [[[4, 4], [4, 5], 'blue', 'green']],
    placed: [[5, 4], [6, 4], 'blue', 'red'],
    lines: [[[5, 4], [4, 4], 'blue']],
    units: [{ unit: 'tile', points: { blue: 1 } }],
  },
  'sq-score-2': {
    kind: 'square', area: 9, crop: [2, 2, 8, 7],
    tiles: [
      [[2, 4], [3, 4], 'blue', 'blue'], [[4, 3], [4, 2], 'blue', 'green'], [[6, 4], [7, 4], 'red', 'red'],
    ],
    placed: [[4, 4], [5, 4], 'blue', 'red'],
    lines: [[[4, 4], [2, 4], 'blue'], [[4, 4], [4, 3], 'blue'], [[5, 4], [7, 4], 'red']],
    units: [{ unit: 'tile', points: { blue: 3, red: 2 } }],
  },
  'sq-score-3': {
    kind: 'square', area: 9, crop: [6, 2, 10, 10],
    tiles: [
      [[9, 6], [9, 7], 'blue', 'orange'], [[8, 7], [8, 8], 'blue', 'blue'], [[8, 9], [7, 9], 'green', 'purple'],
      [[8, 4], [8, 3], 'red', 'red'], [[8, 2], [9, 2], 'orange', 'green'],
    ],
    placed: [[8, 5], [8, 6], 'red', 'blue'],
    lines: [[[8, 6], [10, 6], 'blue'], [[8, 6], [8, 8], 'blue'], [[8, 5], [8, 3], 'red']],
    units: [{ unit: 'tile', points: { blue: 4, red: 2 } }],
  },
  'sq-pyramid': {
    kind: 'square', area: 9, crop: [2, 2, 5, 7],
    tiles: [
      [[2, 3], [2, 2], 'green', 'orange'], [[2, 5], [3, 5], 'blue', 'green'],
      [[4, 2], [4, 3], 'blue', 'blue'], [[4, 5], [4, 6], 'blue', 'purple'],
    ],
    placed: [[3, 4], [4, 4], 'red', 'blue'],
    lines: [[[4, 4], [4, 2], 'blue'], [[4, 4], [4, 5], 'blue'],
      [[2, 4], [2, 3], 'green'], [[2, 4], [2, 5], 'blue'], [[2, 4], [3, 4], 'red']],
    newPyramids: [[2, 4]],
    units: [{ unit: 'tile', points: { blue: 3 } }, { unit: 'pyramid', points: { green: 1, red: 1, blue: 1 } }],
  },
  'sq-axio': { kind: 'track', color: 'blue', max: 18, marks: [], from: 16, gain: 4, to: 18, lost: 2 },
  'sq-swap': {
    kind: 'rack', variant: 'square', colors: FIVE,
    score: { red: 7, green: 5, blue: 9, orange: 5, purple: 8 }, lowest: ['green', 'orange'],
    tiles: [['red', 'blue'], ['blue', 'purple'], ['red', 'red'], ['purple', 'blue'], ['red', 'purple']],
  },
  'sq-end-1': {
    kind: 'bars', colors: FIVE, max: 18, marks: [], winner: [0],
    players: [
      { name: 'A', score: { red: 11, green: 14, blue: 13, orange: 18, purple: 12 } },
      { name: 'B', score: { red: 15, green: 12, blue: 8, orange: 16, purple: 18 } },
    ],
  },
  'sq-end-2': {
    kind: 'bars', colors: FIVE, max: 18, marks: [], winner: [2],
    players: [
      { name: 'A', score: { red: 9, green: 11, blue: 16, orange: 13, purple: 14 } },
      { name: 'B', score: { red: 12, green: 9, blue: 12, orange: 17, purple: 15 } },
      { name: 'C', score: { red: 15, green: 12, blue: 9, orange: 16, purple: 18 } },
    ],
  },
  'sq-solo': {
    kind: 'bars', colors: FIVE, max: 36, marks: [18], result: 21,
    players: [{ name: '', score: { red: 24, green: 21, blue: 30, orange: 26, purple: 22 } }],
  },

  // ---- AXIO ROTA ----  tiles: {cell: [x, y], tile: [NW, NE, SE, SW]} as placed.
  'rota-start': {
    kind: 'rota',
    tiles: [
      { cell: [0, 0], tile: ['red', 'green', 'blue', 'orange'] },
      { cell: [1, 0], tile: ['green', 'blue', 'red', 'purple'] },
      { cell: [0, 1], tile: ['blue', 'orange', 'purple', 'green'] },
      { cell: [1, 1], tile: [null, 'green', 'orange', 'purple'] },
    ],
  },
  'rota-turn': {
    kind: 'rota',
    tiles: [
      { cell: [0, 0], tile: ['red', 'green', 'blue', 'orange'] },
      { cell: [1, 0], tile: ['green', 'blue', 'red', 'purple'] },
      { cell: [0, 1], tile: ['blue', 'orange', 'purple', 'green'] },
      { cell: [1, 1], tile: [null, 'green', 'orange', 'purple'] },
    ],
    frontier: [[0, -1], [1, -1], [2, 0], [2, 1], [0, 2], [1, 2], [-1, 0], [-1, 1]],
  },
  'rota-score-1': {
    kind: 'rota',
    tiles: [
      { cell: [0, 0], tile: ['red', 'green', 'blue', 'orange'] },
      { cell: [1, 0], tile: ['green', 'blue', 'red', 'purple'] },
      { cell: [0, 1], tile: ['blue', 'orange', 'purple', 'green'] },
      { cell: [1, 1], tile: ['red', 'orange', 'blue', 'green'] },
      { cell: [2, 0], tile: ['orange', 'blue', 'red', 'purple'] },
    ],
    placed: { cell: [2, 1], tile: ['purple', 'green', 'orange', 'blue'] },
    circles: [[[2, 1], 'purple', 1], [[3, 1], 'green', 0], [[2, 2], 'blue', 1]],
    units: [{ unit: 'tile', points: { purple: 1, blue: 1 } }],
  },
  'rota-score-2': {
    kind: 'rota',
    tiles: [
      { cell: [0, 0], tile: ['orange', 'purple', 'green', 'red'] },
      { cell: [1, 0], tile: ['blue', 'red', 'orange', 'purple'] },
      { cell: [0, 1], tile: ['green', 'purple', 'red', 'blue'] },
      { cell: [1, 1], tile: ['orange', 'blue', 'purple', 'red'] },
    ],
    placed: { cell: [0, 2], tile: ['blue', 'red', 'green', 'orange'] },
    circles: [[[1, 2], 'red', 2], [[0, 2], 'blue', 1]],
    units: [{ unit: 'tile', points: { red: 2, blue: 1 } }],
  },
  'rota-wild-1': {
    kind: 'rota',
    tiles: [
      { cell: [0, 0], tile: ['orange', 'red', 'purple', 'green'] },
      { cell: [1, 0], tile: ['red', 'green', 'blue', 'purple'] },
      { cell: [0, 1], tile: ['green', 'blue', 'red', 'orange'] },
      { cell: [1, 1], tile: ['red', 'orange', 'purple', 'green'] },
      { cell: [2, 0], tile: ['blue', 'orange', null, 'green'] },
    ],
    placed: { cell: [2, 1], tile: [null, 'red', 'orange', 'purple'] },
    wild: { corner: 0, color: 'blue' },
    circles: [[[2, 1], 'blue', 1], [[3, 1], 'red', 0], [[2, 2], 'purple', 1]],
    units: [{ unit: 'tile', points: { blue: 1, purple: 1 } }],
  },
  'rota-wild-2': {
    kind: 'rota',
    tiles: [
      { cell: [0, 0], tile: ['purple', 'orange', 'red', 'green'] },
      { cell: [1, 0], tile: ['blue', 'green', 'red', 'orange'] },
      { cell: [0, 1], tile: ['orange', 'green', 'blue', 'purple'] },
      { cell: [1, 1], tile: ['green', 'purple', 'blue', 'orange'] },
      { cell: [2, 0], tile: ['green', 'blue', 'orange', 'red'] },
    ],
    placed: { cell: [2, 1], tile: [null, 'red', 'green', 'blue'] },
    wild: { corner: 0, color: null },
    circles: [[[2, 1], null, null], [[3, 1], 'red', 0], [[2, 2], 'blue', 1]],
    units: [{ unit: 'tile', points: { blue: 1 } }],
    choice: [{ red: 2 }, { purple: 1 }],
  },
  'rota-axio': { kind: 'track', color: 'red', max: 12, marks: [], from: 10, gain: 3, to: 12, lost: 1 },
  'rota-end-1': {
    kind: 'bars', colors: FIVE, max: 12, marks: [], winner: [0],
    players: [
      { name: 'Anna', score: { red: 8, green: 11, blue: 9, orange: 12, purple: 10 } },
      { name: 'Beate', score: { red: 10, green: 9, blue: 6, orange: 11, purple: 12 } },
    ],
  },
  'rota-end-2': {
    kind: 'bars', colors: FIVE, max: 12, marks: [], winner: [2],
    players: [
      { name: 'Anna', score: { red: 7, green: 8, blue: 10, orange: 12, purple: 11 } },
      { name: 'Beate', score: { red: 9, green: 7, blue: 9, orange: 10, purple: 12 } },
      { name: 'Chris', score: { red: 11, green: 9, blue: 7, orange: 10, purple: 12 } },
    ],
  },
  'rota-solo': {
    kind: 'bars', colors: FIVE, max: 12, marks: [], result: 9,
    players: [{ name: '', score: { red: 11, green: 9, blue: 12, orange: 10, purple: 10 } }],
  },

  // ---- AXIO Hex ----  cells [q, r].
  'hex-board': { kind: 'hex', area: 5, tiles: [] },
  'hex-first': {
    kind: 'hex', area: 5, crop: [[-2, -3], [3, -5], [1, -2], [-1, -4]],
    tiles: [],
    placed: [[0, -4], [1, -5], 'blue', 'purple'],
    lines: [[[0, -4], [0, -5], 'blue']],
    units: [{ unit: 'tile', points: { blue: 1 } }],
  },
  'hex-score-1': {
    kind: 'hex', area: 5,
    tiles: [[[1, -1], [2, -2], 'blue', 'blue'], [[-1, 0], [-2, 0], 'blue', 'green'], [[2, 0], [3, 0], 'yellow', 'yellow']],
    placed: [[0, 0], [1, 0], 'blue', 'yellow'],
    lines: [[[0, 0], [2, -2], 'blue'], [[0, 0], [-1, 0], 'blue'], [[1, 0], [3, 0], 'yellow']],
    units: [{ unit: 'tile', points: { blue: 3, yellow: 2 } }],
  },
  'hex-score-2': {
    kind: 'hex', area: 5,
    tiles: [
      [[-1, 0], [-2, 0], 'orange', 'orange'], [[0, -1], [-1, -1], 'orange', 'green'], [[0, -2], [1, -3], 'orange', 'purple'],
      [[1, 1], [2, 1], 'orange', 'blue'], [[1, 2], [1, 3], 'orange', 'red'],
    ],
    placed: [[0, 0], [1, 0], 'orange', 'orange'],
    lines: [[[0, 0], [-2, 0], 'orange'], [[0, 0], [0, -2], 'orange'], [[1, 0], [1, 2], 'orange']],
    units: [{ unit: 'tile', points: { orange: 6 } }],
  },
  'hex-double-1': {
    kind: 'hex', area: 5, crop: [[-2, 0], [3, 0], [0, -2], [0, 2]],
    tiles: [[[0, 0], [-1, 0], 'green', 'red']],
    placed: [[1, 0], [2, 0], 'green', 'green'],
    lines: [[[1, 0], [0, 0], 'green']],
    units: [{ unit: 'tile', points: { green: 1 } }],
  },
  'hex-double-2': {
    kind: 'hex', area: 5, crop: [[-2, 0], [3, 0], [0, -2], [0, 2]],
    tiles: [[[0, 0], [-1, 0], 'green', 'red']],
    placed: [[1, 0], [1, -1], 'green', 'green'],
    lines: [[[1, 0], [0, 0], 'green'], [[1, -1], [0, 0], 'green']],
    units: [{ unit: 'tile', points: { green: 2 } }],
  },
  'hex-axio': { kind: 'track', color: 'yellow', max: 18, marks: [], from: 15, gain: 5, to: 18, lost: 2 },
  'hex-swap': {
    kind: 'rack', variant: 'hex', colors: SIX,
    score: { red: 9, green: 6, blue: 11, orange: 8, purple: 6, yellow: 10 }, lowest: ['green', 'purple'],
    tiles: [['red', 'blue'], ['orange', 'yellow'], ['blue', 'blue'], ['red', 'orange'], ['yellow', 'blue'], ['red', 'yellow']],
  },
  'hex-end': {
    kind: 'bars', colors: SIX, max: 18, marks: [], winner: [1],
    players: [
      { name: 'A', score: { red: 12, green: 14, blue: 10, orange: 16, purple: 11, yellow: 18 } },
      { name: 'B', score: { red: 13, green: 10, blue: 15, orange: 12, purple: 17, yellow: 14 } },
    ],
  },
  'hex-team': { kind: 'track', color: 'green', max: 36, marks: [18], from: 16, gain: 4, to: 18, lost: 2 },
  'hex-solo': {
    kind: 'bars', colors: SIX, max: 36, marks: [18], result: 121418,
    players: [{ name: '', score: { red: 12, green: 14, blue: 18, orange: 25, purple: 22, yellow: 30 } }],
  },
};

// The sections of each page and the diagrams that go with them (the prose is in rules/LANG.js).
export const LAYOUT = {
  square: [
    ['goal', []], ['setup', ['sq-board']], ['turn', ['sq-first']],
    ['scoring', ['sq-score-1', 'sq-score-2', 'sq-score-3']], ['axio', ['sq-axio']],
    ['pyramids', ['sq-pyramid']], ['swap', ['sq-swap']], ['end', ['sq-end-1', 'sq-end-2']], ['solo', ['sq-solo']],
  ],
  rota: [
    ['goal', []], ['setup', ['rota-start']], ['turn', ['rota-turn']], ['scoring', ['rota-score-1', 'rota-score-2']],
    ['wild', ['rota-wild-1', 'rota-wild-2']], ['axio', ['rota-axio']], ['end', ['rota-end-1', 'rota-end-2']], ['solo', ['rota-solo']],
  ],
  hex: [
    ['goal', []], ['setup', ['hex-board']], ['turn', ['hex-first']],
    ['scoring', ['hex-score-1', 'hex-score-2', 'hex-double-1', 'hex-double-2']], ['axio', ['hex-axio']],
    ['swap', ['hex-swap']], ['end', ['hex-end']], ['team', ['hex-team']], ['solo', ['hex-solo']],
  ],
};

const keyOf = (c) => `${c[0]},${c[1]}`;

// ---- board diagrams ----------------------------------------------------------

// The renderer's board as a still picture: no focus, no pointer, a text alternative.
function still(board, label) {
  const sv = board.svg;
  sv.removeAttribute('tabindex');
  sv.setAttribute('role', 'img');
  sv.setAttribute('aria-label', label);
  sv.setAttribute('pointer-events', 'none');
  sv.classList.add('rules-board');
  return sv;
}

function dominoView(f, fields) {
  const all = [...(f.tiles || []), ...(f.placed ? [f.placed] : [])];
  const cells = [], pairs = new Map();
  for (const [a, b, ca, cb] of all) {
    cells.push({ cell: a, color: ca }, { cell: b, color: cb });
    pairs.set(keyOf(a), keyOf(b)); pairs.set(keyOf(b), keyOf(a));
  }
  return {
    area: f.area, fields, cells, pairs, pyramids: [...(f.pyramids || []), ...(f.newPyramids || [])],
    last: f.placed ? { cells: [f.placed[0], f.placed[1]] } : null,
  };
}

// Centre of a drawn cell: the middle of its rect or polygon.
function cellCentre(sv, cell) {
  const el = sv.querySelector(`[data-cell="${keyOf(cell)}"]`);
  if (!el) return null;
  if (el.tagName === 'rect') {
    const n = (a) => Number(el.getAttribute(a));
    return [n('x') + n('width') / 2, n('y') + n('height') / 2];
  }
  const pts = el.getAttribute('points').trim().split(/\s+/).map((p) => p.split(',').map(Number));
  return [pts.reduce((a, p) => a + p[0], 0) / pts.length, pts.reduce((a, p) => a + p[1], 0) / pts.length];
}

// Cells from a (exclusive) to b (inclusive) along a straight line of the grid.
function cellsBetween(a, b) {
  const d = [b[0] - a[0], b[1] - a[1]];
  const n = Math.max(Math.abs(d[0]), Math.abs(d[1]));
  const out = [];
  for (let i = 1; i <= n; i++) out.push([a[0] + (d[0] / n) * i, a[1] + (d[1] / n) * i]);
  return out;
}

// The scoring lines: from the scoring half to the last symbol counted, a ring round
// every symbol counted, joined by short strokes (the symbols stay visible).
function drawLines(board, lines, unit) {
  const sv = board.svg;
  const g = s('g', { class: 'rules-lines' }, board.layerOverlay);
  const ring = unit * 0.36;
  for (const [from, to, c] of lines || []) {
    const pts = [from, ...cellsBetween(from, to)].map((cell) => cellCentre(sv, cell));
    if (pts.some((p) => !p)) continue;
    const line = s('g', { class: `rules-line c-${c}`, 'data-line': `${keyOf(from)}>${keyOf(to)}` }, g);
    for (let i = 1; i < pts.length; i++) {
      const [a, b] = [pts[i - 1], pts[i]];
      const d = Math.hypot(b[0] - a[0], b[1] - a[1]);
      const ux = (b[0] - a[0]) / d, uy = (b[1] - a[1]) / d;
      const seg = { x1: a[0] + ux * ring, y1: a[1] + uy * ring, x2: b[0] - ux * ring, y2: b[1] - uy * ring };
      s('line', { ...seg, class: 'rules-line-halo' }, line);
      s('line', { ...seg, class: 'rules-line-stroke', stroke: COLORS[c].fill }, line);
      s('circle', { cx: b[0], cy: b[1], r: ring, class: 'rules-count', stroke: COLORS[c].fill }, line);
    }
  }
}

function cropTo(sv, cells, pad) {
  const pts = cells.map((c) => cellCentre(sv, c)).filter(Boolean);
  const xs = pts.map((p) => p[0]), ys = pts.map((p) => p[1]);
  const x0 = Math.min(...xs) - pad, y0 = Math.min(...ys) - pad;
  sv.setAttribute('viewBox', `${x0} ${y0} ${Math.max(...xs) + pad - x0} ${Math.max(...ys) + pad - y0}`);
}

function squareFig(f, host, label) {
  const board = new SquareBoard(host);
  board.render(dominoView(f, SQUARE_FIELDS));
  drawLines(board, f.lines, 40);
  if (f.crop) {
    const [r0, c0, r1, c1] = f.crop;
    cropTo(board.svg, [[r0, c0], [r1, c1]], 23);
  } else if (f.tiles.length || f.placed) {
    const lo = (13 - f.area) / 2, hi = 13 - 1 - lo;
    cropTo(board.svg, [[lo, lo], [hi, hi]], 23);
  }
  return still(board, label);
}

function hexFig(f, host, label) {
  const board = new HexBoard(host);
  board.render(dominoView(f, HEX_STARTS));
  drawLines(board, f.lines, 38);
  if (f.tiles.length || f.placed) {
    const cells = f.crop || [...f.tiles.flatMap((t) => [t[0], t[1]]), f.placed[0], f.placed[1]];
    cropTo(board.svg, cells, 48);
  }
  return still(board, label);
}

function rotaFig(f, host, label) {
  const board = new RotaBoard(host);
  const tiles = [...f.tiles, ...(f.placed ? [f.placed] : [])];
  board.render({ tiles, frontier: f.frontier || [], last: f.placed ? { cell: f.placed.cell } : null });
  const vb = board.svg.getAttribute('viewBox').split(' ').map(Number);
  const size = vb[2] / (board.bounds.x1 - board.bounds.x0);
  const g = s('g', { class: 'rules-circles' }, board.layerOverlay);
  // The circles of the corners that are scored: a ring round the vertex in the corner's
  // colour (dashed when it scores 0; dark when the wild corner's colour is to be chosen).
  for (const [[vx, vy], c, pts] of f.circles || []) {
    s('circle', {
      cx: vx * size, cy: vy * size, r: size * 0.47, class: `rules-circle${c ? '' : ' any'}${pts === 0 ? ' zero' : ''}`,
      stroke: c ? COLORS[c].fill : '#22242a', 'data-vertex': `${vx},${vy}`,
    }, g);
  }
  // The wild corner: the colour named, drawn faintly on the empty corner ("?" when to choose).
  if (f.wild && f.placed) {
    const [x, y] = f.placed.cell;
    const off = [[0.2, 0.2], [0.8, 0.2], [0.8, 0.8], [0.2, 0.8]][f.wild.corner];
    const cx = (x + off[0]) * size, cy = (y + off[1]) * size;
    if (f.wild.color) shape(g, f.wild.color, cx, cy, size * 0.11, 'color', 'rules-wild');
    else s('text', { x: cx, y: cy + size * 0.07, 'text-anchor': 'middle', class: 'rules-wild-q', text: '?' }, g);
  }
  // A little margin only: the picture is about the tiles.
  const b = board.bounds;
  const xs = tiles.map((t) => t.cell[0]).concat((f.frontier || []).map((c) => c[0]));
  const ys = tiles.map((t) => t.cell[1]).concat((f.frontier || []).map((c) => c[1]));
  const x0 = Math.max(b.x0, Math.min(...xs)), x1 = Math.min(b.x1, Math.max(...xs) + 1);
  const y0 = Math.max(b.y0, Math.min(...ys)), y1 = Math.min(b.y1, Math.max(...ys) + 1);
  const pad = 0.5 * size;
  board.svg.setAttribute('viewBox', `${x0 * size - pad} ${y0 * size - pad} ${(x1 - x0) * size + 2 * pad} ${(y1 - y0) * size + 2 * pad}`);
  return still(board, label);
}

// ---- tracks, racks and final scores -------------------------------------------

// A score track (the part of it around the move, "…" where it goes on): the marker
// moves from `from` by `gain` and stops at `to` (a threshold: AXIO!); `lost` points are
// struck out beyond it.
function trackFig(f, label, tx) {
  const W = 24, H = 28, y0 = 30;
  const lo = Math.max(0, f.from - 5), hi = Math.min(f.max, f.to + f.lost + 4);
  const x0 = lo > 0 ? 26 : 6;
  const X = (v) => x0 + (v - lo) * W;
  const end = X(hi + 1);
  const lostText = `−${f.lost} ${tx('lost')}`;
  const full = end + (hi < f.max ? 44 : f.to === f.max && f.lost ? 12 + 8 * lostText.length : 8);
  const height = y0 + H + 38;
  const sv = svgRoot(`0 0 ${full} ${height}`, { class: 'rules-track', role: 'img', 'aria-label': label, width: full, height });
  const fill = COLORS[f.color].fill;
  const num = (x, v, cls = 'track-num') => s('text', { x, y: y0 + H + 16, 'text-anchor': 'middle', class: cls, text: String(v) }, sv);
  if (lo > 0) s('text', { x: x0 - 12, y: y0 + H / 2 + 5, 'text-anchor': 'middle', class: 'track-more', text: '…' }, sv);
  for (let v = lo; v <= hi; v++) {
    const cls = v <= f.from ? 'had' : v <= f.to ? 'gain' : 'rest';
    s('rect', { x: X(v) + 1, y: y0, width: W - 2, height: H, rx: 3, class: `track-cell ${cls}`, 'data-value': v, fill: cls === 'rest' ? null : fill }, sv);
    if (v === lo || v === hi || (f.marks || []).includes(v) || v === f.from || v === f.to) num(X(v) + W / 2, v);
  }
  if (hi < f.max) {
    s('text', { x: end + 12, y: y0 + H / 2 + 5, 'text-anchor': 'middle', class: 'track-more', text: '…' }, sv);
    num(end + 30, f.max);
  }
  for (const m of f.marks || []) if (m >= lo && m <= hi) s('line', { x1: X(m + 1), y1: y0 - 4, x2: X(m + 1), y2: y0 + H + 4, class: 'track-mark' }, sv);
  shape(sv, f.color, X(f.from) + W / 2, y0 + H / 2, W * 0.34, '#fff');
  // The marker's way, and the points that do not fit.
  const ax = X(f.from) + W / 2, bx = X(f.to) + W / 2;
  s('path', { d: `M${ax},${y0 - 5} Q${(ax + bx) / 2},${y0 - 22} ${bx},${y0 - 5}`, class: 'track-arrow' }, sv);
  s('text', { x: (ax + bx) / 2, y: y0 - 16, 'text-anchor': 'middle', class: 'track-gain', text: `+${f.gain}` }, sv);
  s('text', { x: bx, y: y0 + H + 33, 'text-anchor': 'middle', class: 'track-axio', text: 'AXIO!' }, sv);
  if (f.lost) {
    for (let i = 0; i < f.lost && f.to + 1 + i <= hi; i++) {
      const x = X(f.to + 1 + i);
      s('path', { d: `M${x + 6},${y0 + 6}L${x + W - 6},${y0 + H - 6}M${x + W - 6},${y0 + 6}L${x + 6},${y0 + H - 6}`, class: 'track-lost' }, sv);
    }
    if (f.to === f.max) s('text', { x: end + 5, y: y0 + H / 2 + 5, class: 'track-lost-text', text: lostText }, sv);
    else s('text', { x: X(f.to + 1) + (f.lost * W) / 2, y: y0 + H + 16, 'text-anchor': 'middle', class: 'track-lost-text', text: lostText }, sv);
  }
  return sv;
}

// A player's rack (with the tracks above): which colours are lowest, which tiles show them.
function rackFig(f, label, tx) {
  const box = h('div', { class: 'rules-rack', role: 'img', 'aria-label': label });
  const chips = h('div', { class: 'rules-rack-scores' }, f.colors.map((c) => h('span', {
    class: `rules-chip${f.lowest.includes(c) ? ' lowest' : ''}`, 'data-color': c,
  }, [shapeIcon(c, 16, false), String(f.score[c])])));
  const tiles = h('div', { class: 'rules-rack-tiles' }, f.tiles.map((t) => tileSvg(f.variant, t, 0, 46)));
  box.append(h('div', { class: 'rules-rack-label' }, [tx('tracks')]), chips, h('div', { class: 'rules-rack-label' }, [tx('rack')]), tiles);
  return box;
}

// Final scores: a bar per colour and player, each player's tracks from the lowest up,
// the winner marked (solo: the result).
function barsFig(f, label, tx) {
  const n = f.colors.length, BW = 18, GAP = 4, BH = 84, PADX = 12;
  const blockW = n * (BW + GAP) - GAP + 2 * PADX;
  const top = 20, base = top + 16 + BH, height = base + 52;
  const width = f.players.length * (blockW + 10) - 10;
  const sv = svgRoot(`0 0 ${width} ${height}`, { class: 'rules-bars', role: 'img', 'aria-label': label, width, height });
  f.players.forEach((p, i) => {
    const bx = i * (blockW + 10);
    const win = (f.winner || []).includes(i);
    const g = s('g', { class: `rules-player${win ? ' winner' : ''}`, 'data-player': p.name || 'solo' }, sv);
    s('rect', { x: bx + 1, y: 1, width: blockW - 2, height: height - 2, rx: 8, class: 'rules-player-box' }, g);
    const vals = f.colors.map((c) => p.score[c]);
    const low = Math.min(...vals);
    const title = p.name ? (win ? `${p.name} — ${tx('wins')}` : p.name) : `${tx('result')}: ${f.result}`;
    s('text', { x: bx + blockW / 2, y: top - 3, 'text-anchor': 'middle', class: 'rules-player-name', text: title }, g);
    f.colors.forEach((c, k) => {
      const v = p.score[c];
      const x = bx + PADX + k * (BW + GAP);
      const hgt = (BH * v) / f.max;
      s('rect', { x, y: top + 16, width: BW, height: BH, rx: 3, class: 'rules-bar-track' }, g);
      for (const m of f.marks || []) s('line', { x1: x - 2, x2: x + BW + 2, y1: top + 16 + BH - (BH * m) / f.max, y2: top + 16 + BH - (BH * m) / f.max, class: 'rules-bar-mark' }, g);
      s('rect', { x, y: base - hgt, width: BW, height: hgt, rx: 3, fill: COLORS[c].fill, class: `rules-bar${v === low ? ' lowest' : ''}`, 'data-color': c, 'data-value': v }, g);
      s('text', { x: x + BW / 2, y: base - hgt - 3, 'text-anchor': 'middle', class: `rules-bar-num${v === low ? ' lowest' : ''}`, text: String(v) }, g);
      shape(g, c, x + BW / 2, base + 11, 7);
    });
    const sorted = [...vals].sort((a, b) => a - b);
    s('text', { x: bx + blockW / 2, y: base + 38, 'text-anchor': 'middle', class: 'rules-sorted', text: sorted.join(' · ') }, g);
  });
  return sv;
}

// The points of an example under its picture: "tile: ● +3 ▲ +2", a pyramid's own, a choice.
function pointsRow(f, tx) {
  if (!f.units) return null;
  const chip = (c, v) => h('span', { class: 'rules-chip', 'data-color': c, 'data-points': v }, [shapeIcon(c, 16, false), `+${v}`]);
  const row = h('p', { class: 'rules-points' });
  f.units.forEach((u, i) => {
    const part = h('span', { class: 'rules-unit', 'data-unit': u.unit }, [h('span', { class: 'rules-unit-name' }, [tx(u.unit)]),
      ...Object.entries(u.points).map(([c, v]) => chip(c, v))]);
    if (i) row.append(' ');
    row.append(part);
  });
  if (f.choice) {
    row.append(' ', h('span', { class: 'rules-unit', 'data-unit': 'choice' }, [h('span', { class: 'rules-unit-name' }, [tx('wild')]),
      ...f.choice.flatMap((alt, i) => [i ? h('span', { class: 'rules-or' }, [tx('or')]) : null, ...Object.entries(alt).map(([c, v]) => chip(c, v))])]));
  }
  return row;
}

// The figure of diagram `id` with its caption (already in the page's language);
// tx(key) gives the page's short labels (tile, pyramid, lost, wins, ...).
export function figure(id, caption, tx) {
  const f = FIGS[id];
  const fig = h('figure', { class: `rules-fig kind-${f.kind}`, 'data-fig': id });
  const pic = h('div', { class: 'rules-pic' });
  fig.append(pic);
  if (f.kind === 'square') squareFig(f, pic, caption);
  else if (f.kind === 'hex') hexFig(f, pic, caption);
  else if (f.kind === 'rota') rotaFig(f, pic, caption);
  else if (f.kind === 'track') pic.append(trackFig(f, caption, tx));
  else if (f.kind === 'rack') pic.append(rackFig(f, caption, tx));
  else if (f.kind === 'bars') pic.append(barsFig(f, caption, tx));
  const pts = pointsRow(f, tx);
  fig.append(h('figcaption', {}, [h('span', { class: 'rules-caption' }, [caption]), pts]));
  return fig;
}
