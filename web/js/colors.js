// colors.js — the colours of the games and the shape that goes with each colour,
// so that every symbol can be told apart without seeing colour (rules.md: the
// physical game is made for colour-blind players). Shapes are SVG <symbol>s in
// one hidden <svg> added to the document; everything else draws them with <use>.
import { s, SVG_NS } from './svg.js';
import { t } from './messages.js';

export const COLORS = {
  red:    { shape: 'circle',   fill: '#e5383b' },
  green:  { shape: 'triangle', fill: '#2fa84f' },
  blue:   { shape: 'square',   fill: '#2f7de1' },
  orange: { shape: 'diamond',  fill: '#f28c18' },
  purple: { shape: 'star',     fill: '#9b4dca' },
  yellow: { shape: 'hexagon',  fill: '#f2c418' },
};
export const ALL_COLORS = ['red', 'green', 'blue', 'orange', 'purple', 'yellow'];

// "red", "rot", "piros"; and with its shape: "red circle" (for those who do not see colour).
export const colorName = (c) => (COLORS[c] ? t(`color.${c}`) : String(c));
export const colorLabel = (c) => (COLORS[c] ? t('color.with_shape', { color: colorName(c), shape: t(`shape.${COLORS[c].shape}`) }) : String(c));

function polygon(n, r, rot, inner = null) {
  const pts = [];
  const k = inner ? 2 * n : n;
  for (let i = 0; i < k; i++) {
    const a = rot + (i * 2 * Math.PI) / k;
    const rr = inner && i % 2 ? inner : r;
    pts.push(`${(rr * Math.cos(a)).toFixed(3)},${(rr * Math.sin(a)).toFixed(3)}`);
  }
  return pts.join(' ');
}

// Shapes in a -1..1 box; filled with currentColor so that <use style="color:..."> tints them.
const SHAPES = {
  circle:   (g) => s('circle', { r: 0.8 }, g),
  triangle: (g) => s('polygon', { points: polygon(3, 1.0, -Math.PI / 2), transform: 'translate(0 0.14)' }, g),
  square:   (g) => s('rect', { x: -0.72, y: -0.72, width: 1.44, height: 1.44, rx: 0.08 }, g),
  diamond:  (g) => s('polygon', { points: polygon(4, 0.98, -Math.PI / 2) }, g),
  star:     (g) => s('polygon', { points: polygon(5, 1.0, -Math.PI / 2, 0.45), transform: 'translate(0 0.06)' }, g),
  hexagon:  (g) => s('polygon', { points: polygon(6, 0.9, 0) }, g),
};

// Adds the hidden <svg> with one <symbol id="shape-<colour>"> per colour (once).
export function ensureShapeDefs() {
  if (document.getElementById('axio-shape-defs')) return;
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('id', 'axio-shape-defs');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('style', 'position:absolute;width:0;height:0;overflow:hidden');
  const defs = s('defs', {}, svg);
  for (const [id, c] of Object.entries(COLORS)) {
    const sym = s('symbol', { id: `shape-${id}`, viewBox: '-1 -1 2 2', overflow: 'visible' }, defs);
    const g = s('g', { fill: 'currentColor', stroke: 'rgba(0,0,0,0.35)', 'stroke-width': 0.08, 'stroke-linejoin': 'round' }, sym);
    SHAPES[c.shape](g);
  }
  // Hatching for the parts of a board that a game does not use.
  const pat = s('pattern', { id: 'hatch', width: 8, height: 8, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' }, defs);
  s('rect', { width: 8, height: 8, fill: 'rgba(0,0,0,0)' }, pat);
  s('line', { x1: 0, y1: 0, x2: 0, y2: 8, stroke: 'rgba(60,55,50,0.22)', 'stroke-width': 3 }, pat);
  document.body.prepend(svg);
}

// Draws the shape of colour c centred at (x, y) with half-size r into parent.
// tint: 'color' fills it with the colour (default), or any CSS colour.
export function shape(parent, c, x, y, r, tint = 'color', cls = 'shape') {
  const u = s('use', { href: `#shape-${c}`, x: x - r, y: y - r, width: 2 * r, height: 2 * r, class: `${cls} c-${c}` }, parent);
  u.style.color = tint === 'color' ? COLORS[c].fill : tint;
  return u;
}

// A small inline <svg> icon of a colour's shape, for HTML text (legend, scores, log).
export function shapeIcon(c, size = 14, title = true) {
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('viewBox', '-1.1 -1.1 2.2 2.2');
  svg.setAttribute('width', size);
  svg.setAttribute('height', size);
  svg.setAttribute('class', `shape-icon c-${c}`);
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', colorLabel(c));
  if (title) s('title', { text: colorLabel(c) }, svg);
  const u = s('use', { href: `#shape-${c}`, x: -1, y: -1, width: 2, height: 2 }, svg);
  u.style.color = COLORS[c].fill;
  return svg;
}
