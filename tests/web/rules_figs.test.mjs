// rules_figs.test.mjs — the rules pages without a browser: every number a diagram of
// web/js/rules_figs.js shows is recomputed here from its position by the rules of
// docs/rules.md (an independent little scorer, for the test only: the client computes
// nothing), every placement is legal, and the prose (web/js/rules/{en,de,hu}.js) has
// every section and caption in every language.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FIGS, LAYOUT, SQUARE_FIELDS, HEX_STARTS } from '../../web/js/rules_figs.js';
import EN from '../../web/js/rules/en.js';
import DE from '../../web/js/rules/de.js';
import HU from '../../web/js/rules/hu.js';

const K = (c) => `${c[0]},${c[1]}`;
const ORDER = ['red', 'green', 'blue', 'orange', 'purple', 'yellow'];
const clean = (o) => Object.fromEntries(Object.entries(o).filter(([, v]) => v > 0).sort(([a], [b]) => ORDER.indexOf(a) - ORDER.indexOf(b)));
const sorted = (o) => clean(o);

// ---- square and hex: dominoes -------------------------------------------------
const GEO = {
  square: {
    dirs: [[-1, 0], [1, 0], [0, -1], [0, 1]],
    inArea: ([r, c], area) => Math.max(Math.abs(r - 6), Math.abs(c - 6)) <= (area - 1) / 2,
    fields: SQUARE_FIELDS,
  },
  hex: {
    dirs: [[1, 0], [1, -1], [0, -1], [-1, 0], [-1, 1], [0, 1]],
    inArea: ([q, r], area) => Math.max(Math.abs(q), Math.abs(r), Math.abs(q + r)) <= area,
    fields: HEX_STARTS,
  },
};
const add = (a, d) => [a[0] + d[0], a[1] + d[1]];
const adjacent = (g, a, b) => g.dirs.some((d) => K(add(a, d)) === K(b));

function dominoBoard(f, g, withPlaced) {
  const sym = new Map(g.fields.map((x) => [K(x.cell), x.color]));
  const tiles = [...f.tiles, ...(withPlaced && f.placed ? [f.placed] : [])];
  for (const [a, b, ca, cb] of tiles) {
    for (const c of [a, b]) {
      assert.ok(g.inArea(c, f.area), `${K(c)} is in the play area`);
      assert.ok(!sym.has(K(c)), `${K(c)} is free for a tile`);
    }
    assert.ok(adjacent(g, a, b), `${K(a)}-${K(b)} are neighbours`);
    sym.set(K(a), ca); sym.set(K(b), cb);
  }
  return sym;
}

// rules.md 2.2 step 2 / 4.2: each half walks every direction but the one to its other
// half, counting its own symbol until something else, an empty cell, a pyramid or the edge.
function scoreDomino(f, g, sym, pyramids) {
  const [a, b, ca, cb] = f.placed;
  const pts = {};
  const walks = [];
  for (const [half, other, c] of [[a, b, ca], [b, a, cb]]) {
    for (const d of g.dirs) {
      if (K(add(half, d)) === K(other)) continue;
      let cell = add(half, d), n = 0;
      while (g.inArea(cell, f.area) && !pyramids.has(K(cell)) && sym.get(K(cell)) === c) { n++; cell = add(cell, d); }
      if (n) { pts[c] = (pts[c] || 0) + n; walks.push(`${K(half)}>${K(add(half, [d[0] * n, d[1] * n]))}:${c}`); }
    }
  }
  return { pts: sorted(pts), walks };
}

function checkDominoFig(id, f, g) {
  const before = dominoBoard(f, g, false);
  const sym = dominoBoard(f, g, true);
  const [a, b] = f.placed;
  assert.ok(!before.has(K(a)) && !before.has(K(b)), `${id}: the placed tile goes on empty cells`);
  const pyr = new Set((f.pyramids || []).map(K));
  const { pts, walks } = scoreDomino(f, g, sym, pyr);
  assert.deepEqual(sorted(f.units[0].points), pts, `${id}: the tile's points`);
  // Pyramids (square): every empty cell the placement made single, row-major.
  const single = (s, cell) => g.dirs.every((d) => { const n = add(cell, d); return !g.inArea(n, f.area) || s.has(K(n)) || pyr.has(K(n)); });
  const made = [];
  if (g === GEO.square) {
    for (let r = 0; r < 13; r++) for (let c = 0; c < 13; c++) {
      const cell = [r, c];
      if (!g.inArea(cell, f.area) || sym.has(K(cell)) || pyr.has(K(cell))) continue;
      if (single(sym, cell) && !single(before, cell)) made.push(cell);
    }
  }
  assert.deepEqual((f.newPyramids || []).map(K), made.map(K), `${id}: the pyramids the placement makes`);
  made.forEach((p, i) => {
    const pp = {};
    for (const d of g.dirs) { const c = sym.get(K(add(p, d))); if (c) pp[c] = (pp[c] || 0) + 1; }
    assert.deepEqual(sorted(f.units[1 + i].points), sorted(pp), `${id}: pyramid ${K(p)}'s points`);
  });
  assert.equal(f.units.length, 1 + made.length, `${id}: one unit per tile and pyramid`);
  // The lines drawn are exactly the tile's walks (pyramid lines: one per neighbouring symbol).
  const drawn = f.lines.filter(([from]) => !made.some((p) => K(p) === K(from))).map(([from, to, c]) => `${K(from)}>${K(to)}:${c}`).sort();
  assert.deepEqual(drawn, walks.sort(), `${id}: the scoring lines`);
  for (const [from, to, c] of f.lines.filter(([fr]) => made.some((p) => K(p) === K(fr)))) {
    assert.ok(adjacent(g, from, to) && sym.get(K(to)) === c, `${id}: a pyramid line to a ${c} neighbour`);
  }
}

test('rules diagrams: square and hex placements score what their pictures say', () => {
  let n = 0;
  for (const [id, f] of Object.entries(FIGS)) {
    if ((f.kind !== 'square' && f.kind !== 'hex') || !f.placed) continue;
    checkDominoFig(id, f, GEO[f.kind]);
    n++;
  }
  assert.ok(n >= 9);
  // A first tile touches a printed symbol that no other tile touches (rules 2.2, 4.2).
  for (const id of ['sq-first', 'hex-first']) {
    const f = FIGS[id], g = GEO[f.kind];
    const touches = (t, fld) => [t[0], t[1]].some((c) => adjacent(g, c, fld.cell));
    const fld = g.fields.filter((x) => touches(f.placed, x));
    assert.ok(fld.length >= 1, `${id} touches a printed symbol`);
    assert.ok(fld.some((x) => !f.tiles.some((t) => touches(t, x))), `${id}: that symbol is free`);
  }
});

// ---- ROTA ------------------------------------------------------------------------
const VERT = [[0, 0], [1, 0], [1, 1], [0, 1]]; // corner i's vertex offset (NW, NE, SE, SW)
// The cells around vertex v and which of their corners lies there.
const around = ([vx, vy]) => [[[vx - 1, vy - 1], 2], [[vx, vy - 1], 3], [[vx - 1, vy], 1], [[vx, vy], 0]];

function validRotaTile(t) {
  const cols = t.filter(Boolean);
  assert.equal(new Set(cols).size, cols.length, `${t}: different colours`);
  if (cols.length === 4) return;
  assert.equal(cols.length, 3, `${t}: four colours or three and an empty corner`);
  const e = t.indexOf(null);
  const seq = [1, 2, 3].map((k) => ORDER.indexOf(t[(e + k) % 4]));
  assert.ok(seq[0] < seq[1] && seq[1] < seq[2], `${t}: the three colours clockwise in colour order after the empty corner`);
}

test('rules diagrams: ROTA placements score what their pictures say', () => {
  for (const [id, f] of Object.entries(FIGS)) {
    if (f.kind !== 'rota') continue;
    const at = new Map(f.tiles.map((t) => [K(t.cell), t.tile]));
    f.tiles.forEach((t) => validRotaTile(t.tile));
    // The start display: an empty corner lies at the centre vertex (1, 1).
    for (const t of f.tiles.filter((x) => x.cell[0] <= 1 && x.cell[1] <= 1 && x.cell[0] >= 0 && x.cell[1] >= 0)) {
      const e = t.tile.indexOf(null);
      if (e >= 0) assert.equal(K(add(t.cell, VERT[e])), '1,1', `${id}: a start tile's empty corner is in the middle`);
    }
    for (const c of f.frontier || []) {
      assert.ok(!at.has(K(c)) && [[1, 0], [-1, 0], [0, 1], [0, -1]].some((d) => at.has(K(add(c, d)))), `${id}: ${K(c)} is a place next to the display`);
    }
    if (!f.placed) continue;
    validRotaTile(f.placed.tile);
    const cell = f.placed.cell;
    assert.ok(!at.has(K(cell)) && [[1, 0], [-1, 0], [0, 1], [0, -1]].some((d) => at.has(K(add(cell, d)))), `${id}: placed next to the display`);
    const pts = {}, circles = [], options = {};
    f.placed.tile.forEach((col, i) => {
      const v = add(cell, VERT[i]);
      const others = around(v).filter(([c]) => K(c) !== K(cell) && at.has(K(c))).map(([c, j]) => at.get(K(c))[j]);
      if (!others.length) return; // no earlier corner in the circle: not scored
      if (col === null) {
        if (f.wild.color) {
          const n = others.filter((o) => o === f.wild.color).length;
          if (n) pts[f.wild.color] = (pts[f.wild.color] || 0) + n;
          circles.push([K(v), f.wild.color, n]);
        } else {
          for (const o of others.filter(Boolean)) options[o] = (options[o] || 0) + 1;
          circles.push([K(v), null, null]);
        }
        return;
      }
      const n = others.filter((o) => o === col).length;
      if (n) pts[col] = (pts[col] || 0) + n;
      circles.push([K(v), col, n]);
    });
    assert.deepEqual(sorted(f.units[0].points), sorted(pts), `${id}: points`);
    assert.deepEqual(f.circles.map(([v, c, n]) => [K(v), c, n]).sort(), circles.sort(), `${id}: the circles drawn`);
    if (f.choice) assert.deepEqual(f.choice.map((o) => Object.entries(o)[0].join(':')).sort(), Object.entries(options).map((e) => e.join(':')).sort(), `${id}: the choices of the wild corner`);
  }
});

// ---- tracks, racks, final scores -----------------------------------------------------
test('rules diagrams: tracks stop at the threshold, swaps are allowed, winners and results are right', () => {
  for (const [id, f] of Object.entries(FIGS)) {
    if (f.kind === 'track') {
      const T = [...(f.marks || []), f.max].filter((t) => t > f.from).sort((a, b) => a - b)[0];
      assert.equal(f.to, Math.min(f.from + f.gain, T), `${id}: where the marker stops`);
      assert.equal(f.lost, f.from + f.gain - f.to, `${id}: the points lost`);
      assert.ok(f.to === T, `${id}: an AXIO! example reaches a threshold`);
    }
    if (f.kind === 'rack') {
      const low = Math.min(...f.colors.map((c) => f.score[c]));
      assert.deepEqual(f.lowest, f.colors.filter((c) => f.score[c] === low), `${id}: the lowest colours`);
      assert.ok(f.tiles.every((t) => !t.some((c) => f.lowest.includes(c))), `${id}: no tile shows a lowest colour`);
      assert.equal(f.tiles.length, f.variant === 'hex' ? 6 : 5);
    }
    if (f.kind === 'bars') {
      const seqs = f.players.map((p) => f.colors.map((c) => p.score[c]).sort((a, b) => a - b));
      for (const p of f.players) for (const c of f.colors) assert.ok(p.score[c] >= 0 && p.score[c] <= f.max, `${id}: ${c} within the track`);
      if (f.players.length > 1) {
        const cmp = (a, b) => { for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i]; return 0; };
        const best = seqs.reduce((m, s) => (cmp(s, m) > 0 ? s : m));
        assert.deepEqual(f.winner, seqs.map((s, i) => (cmp(s, best) === 0 ? i : -1)).filter((i) => i >= 0), `${id}: the winner`);
      } else {
        const s = seqs[0];
        const expect = f.colors.length === 6 ? s[0] * 10000 + s[1] * 100 + s[2] : s[0];
        assert.equal(f.result, expect, `${id}: the solo result`);
      }
    }
  }
  // The rulebooks' end examples (rules.md 5).
  const lows = (id) => FIGS[id].players.map((p) => FIGS[id].colors.map((c) => p.score[c]).sort((a, b) => a - b));
  assert.deepEqual(lows('sq-end-1').map((s) => s[0]), [11, 8]);
  assert.deepEqual(lows('sq-end-2').map((s) => s.slice(0, 3)), [[9, 11, 13], [9, 12, 12], [9, 12, 15]]);
  assert.deepEqual(lows('rota-end-1').map((s) => s[0]), [8, 6]);
  assert.deepEqual(lows('rota-end-2').map((s) => s.slice(0, 3)), [[7, 8, 10], [7, 9, 9], [7, 9, 10]]);
});

// ---- the prose -------------------------------------------------------------------
test('rules prose: every section and caption in English, German and Hungarian', () => {
  for (const [code, T] of Object.entries({ en: EN, de: DE, hu: HU })) {
    for (const k of Object.keys(EN.ui)) assert.ok(T.ui[k], `${code}: ui.${k}`);
    for (const [v, layout] of Object.entries(LAYOUT)) {
      assert.ok(T[v].title && T[v].lead, `${code} ${v}: title and lead`);
      for (const [sec, figs] of layout) {
        const s = T[v].sections[sec];
        assert.ok(s && s.title && s.body.length, `${code} ${v}: section ${sec}`);
        for (const id of figs) assert.ok(T[v].figs[id], `${code} ${v}: caption of ${id}`);
        const text = JSON.stringify(s.body);
        assert.equal((text.match(/\*\*/g) || []).length % 2, 0, `${code} ${v} ${sec}: ** balanced`);
        for (const m of text.matchAll(/\[\[(\w+)\]\]/g)) assert.ok(ORDER.includes(m[1]), `${code}: [[${m[1]}]]`);
      }
      assert.deepEqual(Object.keys(T[v].sections).sort(), layout.map(([s]) => s).sort(), `${code} ${v}: no extra sections`);
      assert.deepEqual(Object.keys(T[v].figs).sort(), layout.flatMap(([, f]) => f).sort(), `${code} ${v}: no extra captions`);
    }
  }
});
