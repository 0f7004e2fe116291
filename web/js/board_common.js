// board_common.js — what the three SVG board renderers share: the <svg> with its
// layers (board, tiles, overlay) and the mouse/touch/keyboard plumbing that turns
// pointer positions into cells. A renderer draws what it is given; it knows no rules.
import { s, svgRoot, clear } from './svg.js';

export const TILE_DARK = '#24262c';
export const SYMBOL_DARK = '#1b1c20';

export const key = (cell) => (cell ? `${cell[0]},${cell[1]}` : '');
export const sameCell = (a, b) => (!a && !b) || (a && b && a[0] === b[0] && a[1] === b[1]);

export class BoardBase {
  // host: an HTML element to draw into. Handlers (set later through .on):
  // hover(cell|null, pointerType), click(cell, pointerType), rotate().
  constructor(host, label) {
    this.host = host;
    this.handlers = {};
    this.svg = svgRoot('0 0 100 100', {
      class: 'board-svg', role: 'application', tabindex: '0', 'aria-label': label,
      preserveAspectRatio: 'xMidYMid meet',
    });
    this.layerBoard = s('g', { class: 'layer-board' }, this.svg);
    this.layerTiles = s('g', { class: 'layer-tiles' }, this.svg);
    // Moves pointed out from outside (the replay's analysis: view.marks), under the hover.
    this.layerMarks = s('g', { class: 'layer-marks', 'pointer-events': 'none' }, this.svg);
    this.layerOverlay = s('g', { class: 'layer-overlay', 'pointer-events': 'none' }, this.svg);
    clear(host).appendChild(this.svg);
    this.hoverCell = null;
    this.lastPointerType = 'mouse';
    const sv = this.svg;
    sv.addEventListener('pointerdown', (e) => { this.lastPointerType = e.pointerType || 'mouse'; });
    sv.addEventListener('pointermove', (e) => {
      if (e.pointerType === 'touch') return;
      this.lastPointerType = e.pointerType || 'mouse';
      this.setHover(this.cellFromEvent(e), this.lastPointerType);
    });
    sv.addEventListener('pointerleave', (e) => {
      if (e.pointerType === 'touch') return;
      this.setHover(null, e.pointerType);
    });
    sv.addEventListener('click', (e) => {
      const cell = this.cellFromEvent(e);
      if (cell) this.handlers.click?.(cell, this.lastPointerType);
    });
    sv.addEventListener('contextmenu', (e) => {
      e.preventDefault();
      this.handlers.rotate?.();
    });
  }

  on(handlers) { Object.assign(this.handlers, handlers); return this; }

  setHover(cell, pointerType) {
    if (sameCell(cell, this.hoverCell)) return;
    this.hoverCell = cell;
    this.handlers.hover?.(cell, pointerType);
  }

  svgPoint(e) {
    const ctm = this.svg.getScreenCTM();
    if (!ctm) return null;
    const pt = this.svg.createSVGPoint();
    pt.x = e.clientX; pt.y = e.clientY;
    return pt.matrixTransform(ctm.inverse());
  }

  cellFromEvent(e) {
    const p = this.svgPoint(e);
    return p ? this.cellAt(p.x, p.y) : null;
  }

  // Screen rectangle of a cell (for placing HTML popups next to it).
  cellClientRect(cell) {
    const el = this.svg.querySelector(`[data-cell="${key(cell)}"]`);
    return el ? el.getBoundingClientRect() : this.svg.getBoundingClientRect();
  }

  // A small "+3" badge above a point of the overlay (or of another layer).
  badge(x, y, text, cls, scale = 1, layer = this.layerOverlay) {
    const g = s('g', { class: `badge ${cls}`, transform: `translate(${x} ${y}) scale(${scale})` }, layer);
    const w = 12 + 8 * text.length;
    s('rect', { x: -w / 2, y: -13, width: w, height: 22, rx: 11 }, g);
    s('text', { x: 0, y: 3, 'text-anchor': 'middle', text }, g);
    return g;
  }
}

// A pyramid seen from above: four shaded faces meeting at the apex.
export function drawPyramid(g, cx, cy, half, cls = 'pyramid') {
  const p = s('g', { class: cls }, g);
  const a = [cx - half, cy - half], b = [cx + half, cy - half], c = [cx + half, cy + half], d = [cx - half, cy + half];
  const o = [cx, cy];
  const tri = (p1, p2, fill) => s('polygon', { points: [p1, p2, o].map((q) => q.join(',')).join(' '), fill }, p);
  tri(a, b, '#e4ded2');
  tri(b, c, '#a9a296');
  tri(c, d, '#8c857a');
  tri(d, a, '#cbc4b7');
  s('rect', { x: cx - half, y: cy - half, width: 2 * half, height: 2 * half, fill: 'none', stroke: '#6d675e', 'stroke-width': 1 }, p);
  return p;
}
