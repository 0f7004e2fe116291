// guide.js — the guided first game. #/learn/square|rota|hex (LearnPage) asks the server
// for a guided game (POST /api/games {variant, guided: true}: a fixed deal, you against
// the computer) and opens it. On its page a Guide explains each idea the first time it
// matters, in a bubble that points at the thing — an arrow, and a highlight on the board
// or the panel — and goes away with "Got it": the start symbols, the lines that scored,
// the weakest colour, AXIO! and the bonus move, the swap, the end. It is never modal: play
// goes on under it, and a tip nobody answers goes with the player's next placement. A tip
// about a dialog (the swap offer, the end card) sits inside it; the others float beside
// what they point at, wait while a dialog is open and keep off the tile the Hint (or a
// first tap) shows. What is legal and what scored come from the server (the preview's
// lines, the events, the state); the guide only shows them.
import { h, s, clear } from './svg.js';
import { api, tokens, prefs } from './api.js';
import { session } from './account.js';
import { t } from './messages.js';
import { VARIANTS, trackScale } from './variants.js';
import { shapeIcon } from './colors.js';
import { key } from './board_common.js';

export const GUIDE_VARIANTS = ['square', 'rota', 'hex'];
// The tips about a dialog: they come before a bubble already open, and sit inside it.
const URGENT = new Set(['swap', 'end']);
const CORNER = [[0, 0], [1, 0], [1, 1], [0, 1]]; // ROTA corner i: the vertex of a tile's box
const near = (max) => max - Math.floor(max / 3); // "AXIO! comes near": 12 of 18, 8 of 12
const colorName = (c) => t(`guide.color.${c}`);

// The lobby's "Learn to play" line: a guided game per variant.
export function learnLinks() {
  return h('div', { class: 'lobby-learn', 'data-section': 'learn' }, [
    h('b', {}, [t('guide.learn')]), ' ', h('span', { class: 'muted' }, [t('guide.learn_lead')]), ' ',
    ...GUIDE_VARIANTS.flatMap((v, i) => [i ? ' · ' : '', h('a', { href: `#/learn/${v}`, 'data-action': 'learn', 'data-variant': v }, [VARIANTS[v].name])]),
  ]);
}

// The rules page's way into the guided game of its variant.
export const learnButton = (variant) => h('a', { class: 'btn learn-btn', href: `#/learn/${variant}`, 'data-action': 'learn', 'data-variant': variant }, [t('guide.learn_this')]);

// #/learn/VARIANT: deals the guided game and opens it (the address is replaced, so
// that "back" from the game does not deal another one).
export class LearnPage {
  constructor(root, variant) {
    this.dead = false;
    if (!GUIDE_VARIANTS.includes(variant)) { this.unknown(root, variant); return; }
    this.variant = variant;
    this.msg = h('p', { class: 'learn-msg', role: 'status' });
    clear(root).append(h('div', { class: 'learn-page' }, [h('section', { class: 'card learn-card', 'data-variant': this.variant }, [
      h('h2', {}, [t('guide.title', { game: VARIANTS[this.variant].name })]), this.msg,
    ])]));
    this.start();
  }

  destroy() { this.dead = true; }

  // #/learn/chess: no such game. Nothing is dealt; the three guided games and the lobby instead.
  unknown(root, asked) {
    const links = GUIDE_VARIANTS.flatMap((v, i) => [i ? ' · ' : '', h('a', { href: `#/learn/${v}`, 'data-action': 'learn', 'data-variant': v }, [VARIANTS[v].name])]);
    clear(root).append(h('div', { class: 'learn-page' }, [h('section', { class: 'card learn-card missing', 'data-state': 'unknown' }, [
      h('h2', {}, [t('guide.unknown_title')]),
      h('p', {}, [t('guide.unknown_text', { variant: String(asked ?? '') })]),
      h('p', { class: 'learn-others' }, [t('guide.unknown_choose'), ' ', ...links]),
      h('a', { href: '#/', class: 'btn primary', 'data-action': 'lobby' }, [t('guide.lobby')]),
    ])]));
  }

  async start() {
    clear(this.msg).append(h('span', { class: 'spinner' }), ` ${t('guide.starting')}`);
    await session.ready();
    const body = { variant: this.variant, guided: true };
    if (!session.me && prefs.name) body.name = prefs.name;
    let res;
    try {
      res = await api.createGame(body).catch((e) => {
        // A remembered name the server refuses: play under its default name instead.
        if (body.name && e.code === 'bad_message') { delete body.name; return api.createGame(body); }
        throw e;
      });
    } catch (e) {
      if (this.dead) return;
      clear(this.msg).append(t('guide.failed', { msg: e.message }), ' ',
        h('button', { class: 'btn small', type: 'button', 'data-action': 'retry', onclick: () => this.start() }, [t('guide.retry')]), ' ',
        h('a', { href: '#/' }, [t('guide.lobby')]));
      return;
    }
    if (this.dead) return;
    tokens.set(res.game, res.seat, res.token);
    location.replace(`#/game/${res.game}`);
  }
}

// Screen rectangles.
const rectOf = (els) => {
  let r = null;
  for (const el of els) {
    const b = el?.getBoundingClientRect?.();
    if (!b || (!b.width && !b.height)) continue;
    r = r ? { left: Math.min(r.left, b.left), top: Math.min(r.top, b.top), right: Math.max(r.right, b.right), bottom: Math.max(r.bottom, b.bottom) } : { left: b.left, top: b.top, right: b.right, bottom: b.bottom };
  }
  return r;
};
const overlap = (a, b) => Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left)) * Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));
const box = (left, top, w, hgt) => ({ left, top, right: left + w, bottom: top + hgt });
// An element's box as laid out, without its transform (the AXIO! banner pops in scaled
// about its centre): the centre from the screen, the size from the layout.
const layoutRect = (el) => {
  const b = el.getBoundingClientRect();
  const cx = (b.left + b.right) / 2, cy = (b.top + b.bottom) / 2;
  return box(cx - el.offsetWidth / 2, cy - el.offsetHeight / 2, el.offsetWidth, el.offsetHeight);
};

export class Guide {
  constructor(view) {
    this.view = view;
    this.variant = view.game.variant;
    this.max = trackScale(this.variant, view.game.mode).max;
    this.storeKey = `axio.guide.${view.id}`;
    let saved = {};
    try { saved = JSON.parse(localStorage.getItem(this.storeKey) || '{}') || {}; } catch { saved = {}; }
    this.seen = new Set(Array.isArray(saved.seen) ? saved.seen : []);
    this.off = !!saved.off;
    this.queue = [];
    this.current = null;
    this.lastSent = null;   // the placement sent and the preview it had
    this.pending = {};      // facts from events, shown with the next state: lines, axio
    this.toggle = h('button', { class: 'btn small subtle guide-toggle', type: 'button', 'data-action': 'guide-toggle', onclick: () => this.setOff(!this.off) });
    this.tag = h('div', { class: 'guide-tag', 'data-guided': '1' }, [h('b', {}, [t('guide.badge')]), ' ', this.toggle]);
    view.scoresHost.before(this.tag);
    this.arrow = s('svg', { class: 'guide-arrow', 'aria-hidden': 'true' });
    s('marker', { id: 'guide-head', viewBox: '0 0 10 10', refX: 8, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' }, s('defs', {}, this.arrow))
      .append(s('path', { d: 'M0,0L10,5L0,10z' }));
    this.arrowPath = s('path', { 'marker-end': 'url(#guide-head)' }, this.arrow);
    this.arrow.style.display = 'none';
    document.body.append(this.arrow);
    this.onMove = () => this.position();
    window.addEventListener('resize', this.onMove);
    document.addEventListener('scroll', this.onMove, true);
    view.el.classList.add('guided');
    this.renderToggle();
  }

  destroy() {
    window.removeEventListener('resize', this.onMove);
    document.removeEventListener('scroll', this.onMove, true);
    this.closeCurrent();
    this.arrow.remove();
    this.tag.remove();
  }

  save() {
    try { localStorage.setItem(this.storeKey, JSON.stringify({ seen: [...this.seen], off: this.off })); } catch { /* private mode */ }
  }

  setOff(off) {
    this.off = off;
    this.save();
    this.renderToggle();
    if (off) { this.closeCurrent(); this.queue = []; } else this.onState();
  }

  renderToggle() { this.toggle.textContent = this.off ? t('guide.tips_on') : t('guide.tips_off'); }

  // ---- what happens in the game ---------------------------------------------------
  me() { return this.view.you?.seat ?? -1; }

  // Whether my first tile is down. The learner has seat 0, whose placement is the
  // game's first decision; `ply` counts decisions (the history may not be here yet).
  placedByMe() {
    const ply = this.view.game?.ply;
    if (typeof ply === 'number' && this.me() === 0) return ply > 0;
    return this.view.history.some((e) => e.ev === 'place' && e.player === this.me());
  }

  // A placement sent: the lines it scores are known from its preview; and a floating tip
  // nobody answered has had its moment (it would otherwise stay for the rest of the game,
  // holding up the next ones): it counts as seen.
  onSend(move) {
    if (move.type !== 'place') return;
    const v = this.view;
    this.lastSent = { move, answer: v.cache.get(JSON.stringify(v.previewOf(move))) || null };
    // The next tip comes with the state that answers the placement, not before it.
    if (this.current && !URGENT.has(this.current.step)) { this.closeCurrent(true); this.save(); }
  }

  onEvent(ev) {
    if (ev.ev === 'place' && ev.player === this.me() && !this.seen.has('lines')) {
      const total = Object.values(ev.points || {}).reduce((a, b) => a + b, 0);
      const sent = this.lastSent?.move;
      const same = sent && key(sent.cell || sent.cells[0]) === key(ev.cell || ev.cells[0]);
      if (total > 0) this.pending.lines = { ev, lines: same ? this.lastSent.answer?.lines || null : null };
    }
    if (ev.ev === 'axio' && !this.seen.has('axio') && !this.pending.axio) this.pending.axio = ev;
  }

  // After every state: drop bubbles whose moment has passed, want the ideas that
  // matter now, show the next one, and keep the drawing in place.
  onState() {
    const v = this.view, g = v.game;
    if (!g || v.replay) { this.closeCurrent(); this.refresh(); return; }
    const mine = v.you ? g.seats[this.me()] : null;
    const myTurn = v.myTurn();
    const cur = this.current?.step;
    if ((cur === 'start' && this.placedByMe()) || (cur === 'swap' && !(myTurn && g.phase === 'swap'))) this.done();
    if (g.status === 'over') {
      this.queue = this.queue.filter((q) => q.step === 'end');
      if (cur && cur !== 'end') this.closeCurrent(true);
      this.want('end');
    } else if (g.status === 'running' && mine) {
      if (myTurn && g.phase === 'swap') this.want('swap');
      if (myTurn && g.phase === 'place' && !this.placedByMe()) this.want('start');
      if (this.pending.lines) this.want('lines', this.pending.lines);
      if (this.pending.axio) this.want('axio', this.pending.axio);
      const score = mine.score || {};
      const high = g.colors.filter((c) => (score[c] ?? 0) >= near(this.max) && (score[c] ?? 0) < this.max)
        .sort((a, b) => score[b] - score[a])[0];
      if (high && !this.pending.axio) this.want('near', { color: high, n: score[high] });
      if (this.seen.has('lines') && g.colors.some((c) => (score[c] ?? 0) > 0)) this.want('weakest');
    }
    this.pending = {};
    this.pump();
    this.refresh();
  }

  want(step, data = null) {
    if (this.off || this.seen.has(step) || this.current?.step === step || this.queue.some((q) => q.step === step)) return;
    const item = { step, data };
    if (URGENT.has(step) && this.current && !URGENT.has(this.current.step)) {
      this.queue.unshift({ step: this.current.step, data: this.current.data });
      this.closeCurrent();
    }
    if (URGENT.has(step)) this.queue.unshift(item); else this.queue.push(item);
  }

  // The next tip, if one may come now: one floating beside the board waits while a
  // dialog is open (the swap offer, the colour of an empty corner, a confirmation).
  pump() {
    if (this.current || this.off || this.view.replay) return;
    const i = this.queue.findIndex((q) => URGENT.has(q.step) || !this.held());
    if (i >= 0) this.show(this.queue.splice(i, 1)[0]);
  }

  // A dialog is open over the game (not the end card docked beside the board).
  held() {
    const d = this.view.dialog;
    return !!(d && d.isConnected && !d.classList.contains('docked'));
  }

  // "Got it": this idea is known; the next one may come at once.
  done() {
    if (!this.current) return;
    this.seen.add(this.current.step);
    this.save();
    this.closeCurrent();
    if (this.view.game) this.onState();
  }

  closeCurrent(forget = false) {
    const c = this.current;
    if (!c) return;
    if (forget) this.seen.add(c.step);
    c.el.remove();
    for (const el of document.querySelectorAll('.guide-target')) el.classList.remove('guide-target');
    this.layer()?.replaceChildren();
    this.arrow.style.display = 'none';
    this.current = null;
  }

  // ---- one bubble ---------------------------------------------------------------------
  show(item) {
    const spec = this.spec(item);
    if (!spec) { this.seen.add(item.step); this.pump(); return; }
    const buttons = [];
    if (spec.hint) buttons.push(h('button', { class: 'btn small', type: 'button', 'data-action': 'guide-hint', onclick: () => this.view.askHint() }, [spec.hint]));
    if (spec.link) buttons.push(h('a', { class: 'btn small', href: spec.link.href, 'data-action': 'guide-link' }, [spec.link.text]));
    buttons.push(h('button', { class: 'btn small primary', type: 'button', 'data-action': 'guide-ok', onclick: () => this.done() }, [t('guide.got_it')]));
    const el = h('div', { class: 'guide-bubble', role: 'note', 'aria-live': 'polite', 'data-step': item.step, 'data-variant': this.variant }, [
      h('div', { class: 'guide-title' }, [spec.icon ? shapeIcon(spec.icon, 18) : null, h('b', {}, [spec.title])]),
      ...spec.body.map((p) => h('p', {}, [].concat(p))),
      h('div', { class: 'guide-buttons' }, buttons),
    ]);
    // A tip about a dialog sits inside it, above its choice: over the dialog it would
    // cover what it explains (a phone has no room beside it), and an arrow across it
    // would cross its text.
    const host = spec.inside?.();
    if (host) { el.classList.add('inline'); host.parent.insertBefore(el, host.before); } else document.body.append(el);
    this.current = { ...item, el, spec };
    this.refresh();
    // On a phone the target may be scrolled away: bring it (and so the bubble) in.
    const target = rectOf(spec.target());
    if (target && (target.bottom < 48 || target.top > window.innerHeight)) spec.target()[0]?.scrollIntoView({ block: 'center' });
    this.position();
  }

  // What a step says and what it points at; target() and avoid() give the elements
  // as they are now (the panels are drawn anew with every state).
  spec({ step, data }) {
    const v = this.view, g = v.game, me = this.me();
    const card = () => v.scoresHost.querySelector(`.score-card[data-seat="${me}"]`);
    const grid = this.variant !== 'rota';
    const layerEls = () => [...(this.layer()?.children || [])];
    switch (step) {
      case 'start':
        // A touch screen has no mouse, no R key and no pointing: the tip speaks of
        // tapping, as the panel's help and the preview do (game.js touchFirst()).
        return {
          title: t(grid ? 'guide.start.title' : 'guide.start.title_rota'), hint: t('guide.show_move'),
          body: [t(`guide.start.${this.variant}${v.touchFirst?.() ? '_touch' : ''}`)],
          draw: () => (grid ? this.drawFields() : this.drawFrontier()),
          target: () => (grid ? [this.layer()?.querySelector('.guide-ring')] : layerEls()),
          avoid: () => layerEls(), board: true,
        };
      case 'lines': {
        const pts = Object.entries(data.ev.points || {}).filter(([, n]) => n > 0)
          .map(([c, n]) => h('span', { class: 'guide-pts', 'data-color': c }, [`+${n}`, shapeIcon(c, 14)]));
        const text = data.lines ? t(grid ? 'guide.lines.grid' : 'guide.lines.rota') : t('guide.lines.none');
        // The tile itself stays in sight too.
        const tile = () => (data.ev.cells || [data.ev.cell]).map((c) => v.board?.svg.querySelector(`.layer-tiles [data-half="${key(c)}"], .layer-tiles [data-tile="${key(c)}"]`));
        return {
          title: t('guide.lines.title'), body: [[text, ' ', ...pts]],
          draw: () => this.drawLines(data), board: true,
          target: () => layerEls(), avoid: () => [...layerEls(), ...tile().map((el) => ({ el, weight: 10 }))],
        };
      }
      case 'weakest':
        return {
          title: t('guide.weakest.title'), body: [t('guide.weakest.text')],
          mark: () => [...(card()?.querySelectorAll('.bar-col.lowest') || [])],
          target: () => [...(card()?.querySelectorAll('.bar-col.lowest') || [])], avoid: () => [card()],
        };
      case 'near':
        return {
          title: t('guide.near.title'), icon: data.color,
          body: [t(grid ? 'guide.near.grid' : 'guide.near.rota', { color: colorName(data.color), n: data.n, max: this.max })],
          mark: () => [card()?.querySelector(`.bar-col[data-color="${data.color}"]`)],
          target: () => [card()?.querySelector(`.bar-col[data-color="${data.color}"]`)], avoid: () => [card()],
        };
      case 'axio': {
        const mineToo = data.player === me;
        const other = v.scoresHost.querySelector(`.score-card[data-seat="${data.player}"]`);
        const bar = () => (mineToo ? card() : other)?.querySelector(`.bar-col[data-color="${data.color}"]`);
        const keyName = mineToo ? (grid ? 'guide.axio.you' : 'guide.axio.you_rota') : 'guide.axio.other';
        return {
          title: t('guide.axio.title'), icon: data.color,
          body: [t(keyName, { color: colorName(data.color), max: data.score })],
          mark: () => [bar(), mineToo && g.bonus ? v.statusLine : null],
          target: () => [bar()], avoid: () => [mineToo ? card() : other],
        };
      }
      case 'swap':
        // Inside the swap dialog, whose own Hint asks "what would the computer do?".
        return {
          title: t('guide.swap.title'), body: [t('guide.swap.text')],
          inside: () => { const d = document.querySelector('.swap-dialog'); return d && { parent: d, before: d.firstChild }; },
          mark: () => [document.querySelector('.swap-dialog .swap-rack')],
          target: () => [document.querySelector('.swap-dialog .swap-rack')],
        };
      case 'end': {
        if (!g.end) return null;
        const low = (seat) => Math.min(...g.colors.map((c) => g.end.scores?.[seat]?.[c] ?? 0));
        const mine = low(me), theirs = low(1 - me);
        const won = (g.end.ranking?.[0] || []).includes(me);
        const others = GUIDE_VARIANTS.filter((w) => w !== this.variant)
          .flatMap((w, i) => [i ? ' · ' : '', h('a', { href: `#/learn/${w}`, 'data-action': 'learn', 'data-variant': w }, [VARIANTS[w].name])]);
        const body = [mine === theirs ? t('guide.end.tied', { mine }) : t(won ? 'guide.end.won' : 'guide.end.lost', { mine, theirs }),
          [t('guide.end.next'), ' ', ...others]];
        // In the end card, under the ranking it explains: beside the card it covered the
        // final board (and on a phone the card's heading).
        const ranking = () => document.querySelector('.end-dialog .ranking');
        return {
          title: t('guide.end.title'), body, link: { href: '#/', text: t('guide.real_game') },
          inside: () => { const r = ranking(); return r && { parent: r.parentElement, before: r.nextSibling }; },
          mark: () => [ranking()], target: () => [ranking()],
        };
      }
      default:
        return null;
    }
  }

  // ---- drawing on the board -----------------------------------------------------
  // The guide's own layer of the board's SVG, on top, never catching the pointer.
  layer() {
    const svg = this.view.board?.svg;
    if (!svg) return null;
    let g = svg.querySelector(':scope > .layer-guide');
    if (!g) g = s('g', { class: 'layer-guide', 'pointer-events': 'none' }, svg);
    else svg.append(g); // stays last, over the tiles and the hover preview
    return g;
  }

  // Redraws the current bubble's highlights (the board and the panels are drawn anew
  // with every state) and puts the bubble and its arrow in place. A floating tip is put
  // away while a dialog is open and comes back after it; a tip that waited for the dialog
  // comes once it is closed.
  refresh() {
    const c = this.current;
    const layer = this.layer();
    layer?.replaceChildren();
    for (const el of document.querySelectorAll('.guide-target')) el.classList.remove('guide-target');
    if (!c) { if (this.view.game && !this.view.replay) this.pump(); return; }
    if (this.view.replay) { this.closeCurrent(); return; }
    c.el.hidden = !c.el.classList.contains('inline') && this.held();
    if (c.el.hidden) { this.arrow.style.display = 'none'; return; }
    c.spec.draw?.();
    for (const el of c.spec.mark?.() || []) el?.classList.add('guide-target');
    this.position();
  }

  bboxOf(sel) {
    const el = this.view.board?.svg.querySelector(sel);
    return el ? el.getBBox() : null;
  }

  drawFields() {
    const layer = this.layer();
    for (const f of this.view.game.fields || []) {
      const b = this.bboxOf(`[data-field="${key(f.cell)}"]`);
      if (!b) continue;
      s('circle', { cx: b.x + b.width / 2, cy: b.y + b.height / 2, r: b.width * 0.72, class: 'guide-ring', 'data-cell': key(f.cell) }, layer);
    }
  }

  drawFrontier() {
    const layer = this.layer();
    for (const c of this.view.game.frontier || []) {
      const b = this.bboxOf(`.frontier[data-cell="${key(c)}"]`);
      if (b) s('rect', { x: b.x - 2, y: b.y - 2, width: b.width + 4, height: b.height + 4, rx: 8, class: 'guide-spot', 'data-cell': key(c) }, layer);
    }
  }

  // The lines (square, hex) or circles (ROTA) that scored, as the preview of the
  // placement named them; without them, a frame round the tile.
  drawLines({ ev, lines }) {
    const layer = this.layer();
    const center = (cell) => {
      const b = this.bboxOf(`.layer-board [data-cell="${key(cell)}"]`);
      return b ? [b.x + b.width / 2, b.y + b.height / 2, b.width] : null;
    };
    // "+n" where a line ends; lines ending at one point share one label (their sum).
    const labels = new Map();
    const label = (x, y, n, size) => {
      const k = `${Math.round(x)},${Math.round(y)}`;
      const had = labels.get(k);
      if (had) { had.n += n; had.text.textContent = `+${had.n}`; return; }
      const g = s('g', { class: 'guide-label', transform: `translate(${x} ${y})` }, layer);
      s('circle', { r: size * 0.3, class: 'guide-label-disc' }, g);
      labels.set(k, { n, text: s('text', { 'text-anchor': 'middle', dy: '0.35em', 'font-size': size * 0.32, text: `+${n}` }, g) });
    };
    if (!lines) {
      for (const cell of ev.cells || [ev.cell]) {
        const p = center(cell) || this.tileBox(cell);
        if (p) s('circle', { cx: p[0], cy: p[1], r: p[2] * 0.55, class: 'guide-ring' }, layer);
      }
      return;
    }
    for (const l of lines) {
      if (l.cells) {
        const pts = l.cells.map(center).filter(Boolean);
        if (pts.length < 2) continue;
        const d = pts.map((p, i) => `${i ? 'L' : 'M'}${p[0]},${p[1]}`).join('');
        const w = pts[0][2];
        s('path', { d, class: 'guide-line-under', 'stroke-width': w * 0.34 }, layer);
        s('path', { d, class: `guide-line c-${l.color}`, stroke: `var(--c-${l.color})`, 'stroke-width': w * 0.2, 'data-color': l.color }, layer);
        for (const p of pts.slice(1)) s('circle', { cx: p[0], cy: p[1], r: w * 0.14, class: 'guide-dot', fill: `var(--c-${l.color})` }, layer);
        const end = pts[pts.length - 1];
        label(end[0], end[1] - w * 0.55, l.points, w);
      } else {
        const b = this.tileBox(l.cell);
        if (!b) continue;
        const [ox, oy] = CORNER[l.corner];
        const x = b[3] + ox * b[2], y = b[4] + oy * b[2];
        s('circle', { cx: x, cy: y, r: b[2] * 0.42, class: `guide-circle c-${l.color}`, stroke: `var(--c-${l.color})`, 'stroke-width': b[2] * 0.07, 'data-color': l.color }, layer);
        label(x + (ox ? 1 : -1) * b[2] * 0.4, y + (oy ? 1 : -1) * b[2] * 0.4, l.points, b[2] * 0.55);
      }
    }
  }

  // A ROTA tile's box: [cx, cy, size, x0, y0].
  tileBox(cell) {
    const b = this.bboxOf(`.layer-tiles [data-tile="${key(cell)}"]`);
    return b ? [b.x + b.width / 2, b.y + b.height / 2, b.width, b.x, b.y] : null;
  }

  // ---- the bubble's place and its arrow ------------------------------------------
  // Beside the target where it covers the least of what it must not (weighted: the tile
  // the Hint shows most of all), inside the window below the header; the arrow runs from
  // the bubble to the target. An AXIO!
  // banner being shown is never covered: the bubble goes beside or below it (game.js
  // places the bubble again when a banner comes and goes). Nor is "Hide the tips": of
  // the places that leave it free the cheapest is taken, and without one (a tiny
  // window) the bubble goes below the "Guided game" line. On a phone a tip about the
  // board (the first tile, the lines that scored) goes above the board if it can.
  position() {
    const c = this.current;
    if (!c) return;
    const el = c.el;
    const target = rectOf(c.spec.target());
    // A tip about a dialog ends with the dialog (answered, closed, or a replay opened).
    if (!target && URGENT.has(c.step)) { this.done(); return; }
    if (el.classList.contains('inline') || el.hidden) { this.arrow.style.display = 'none'; return; } // in its dialog's flow, or away
    const W = window.innerWidth, H = window.innerHeight, TOP = 56, M = 8;
    const bw = el.offsetWidth, bh = el.offsetHeight;
    // Never over the rack and the status line: the next move is made there; nor over the
    // tile the Hint or a first tap shows on the board (to be placed by a click or tap on
    // it), nor over the hint's note.
    const play = [{ el: this.view.rackPanel, weight: 20 }, { el: this.view.statusLine, weight: 5 },
      { el: this.view.shownTile?.(), weight: 200 }, { el: this.view.hintNote, weight: 20 }];
    const avoid = [...(c.spec.avoid?.() || []), ...(c.spec.target() || []), ...play]
      .map((a) => (a && a.el !== undefined ? { r: rectOf([a.el]), w: a.weight } : { r: rectOf([a]), w: 1 }))
      .filter((a) => a.r);
    const banner = this.view.axioShown?.el;
    const bannerBox = banner?.isConnected ? layoutRect(banner) : null;
    if (bannerBox) avoid.push({ r: bannerBox, w: 100 });
    const tagBox = rectOf([this.tag]), toggleBox = rectOf([this.toggle]);
    if (tagBox) avoid.push({ r: tagBox, w: 5 });
    // A phone's board takes the whole width: a tip about the board keeps off it where it
    // can — above it, over the score panel (which the tip is not about), just below the
    // "Guided game" line — and points at the places from there.
    const phone = this.view.isCompact?.() ?? W <= 600;
    const boardBox = phone && c.spec.board ? rectOf([this.view.boardWrap]) : null;
    if (boardBox) avoid.push({ r: boardBox, w: 2 });
    const fit = (b) => box(Math.min(Math.max(M, b.left), W - bw - M), Math.min(Math.max(TOP, b.top), H - bh - M), bw, bh);
    const cands = [];
    if (target) {
      const cx = (target.left + target.right) / 2 - bw / 2, cy = (target.top + target.bottom) / 2 - bh / 2, g = 18;
      cands.push(box(target.right + g, cy, bw, bh), box(target.left - g - bw, cy, bw, bh),
        box(cx, target.bottom + g, bw, bh), box(cx, target.top - g - bh, bw, bh),
        box(target.right + g, target.top, bw, bh), box(target.left - g - bw, target.top, bw, bh),
        box(target.right + g, target.bottom - bh, bw, bh), box(target.left - g - bw, target.bottom - bh, bw, bh));
    }
    if (bannerBox) cands.push(box((bannerBox.left + bannerBox.right) / 2 - bw / 2, bannerBox.bottom + M, bw, bh));
    if (boardBox && tagBox) {
      const top = Math.max(tagBox.bottom + M, boardBox.top - M - bh);
      cands.push(box((W - bw) / 2, top, bw, bh), box(M, top, bw, bh), box((W - bw) / 2, boardBox.bottom + M, bw, bh));
    }
    cands.push(box(M, TOP, bw, bh), box(W - bw - M, TOP, bw, bh), box(M, H - bh - M, bw, bh), box(W - bw - M, H - bh - M, bw, bh));
    const blocks = (b) => toggleBox && overlap(b, toggleBox) > 0;
    let best = null, bestCost = Infinity;
    for (const raw of cands) {
      const b = fit(raw);
      const moved = Math.abs(b.left - raw.left) + Math.abs(b.top - raw.top);
      const cost = avoid.reduce((sum, a) => sum + a.w * overlap(b, a.r), 0) + moved * 2 + (blocks(b) ? 1e12 : 0);
      if (cost < bestCost) { best = b; bestCost = cost; }
    }
    // Still over the banner (a small window): below it, whatever else that covers.
    if (bannerBox && overlap(best, bannerBox) > 0) best = box(best.left, Math.max(TOP, bannerBox.bottom + M), bw, bh);
    // Still over "Hide the tips": below the line it is on.
    if (blocks(best)) best = box(best.left, Math.max(best.top, (tagBox || toggleBox).bottom + M), bw, bh);
    el.style.left = `${Math.round(best.left)}px`;
    el.style.top = `${Math.round(best.top)}px`;
    this.drawArrow(best, target);
  }

  drawArrow(b, target) {
    if (!target || overlap(b, target) > 0) { this.arrow.style.display = 'none'; return; }
    const tx = (target.left + target.right) / 2, ty = (target.top + target.bottom) / 2;
    const clamp = (v, lo, hi) => Math.min(Math.max(v, lo), hi);
    // From the bubble's edge nearest the target to the target's edge nearest the bubble.
    const sx = clamp(tx, b.left + 12, b.right - 12), sy = clamp(ty, b.top + 12, b.bottom - 12);
    const fromX = tx < b.left ? b.left : tx > b.right ? b.right : sx;
    const fromY = ty < b.top ? b.top : ty > b.bottom ? b.bottom : sy;
    const ex = clamp(fromX, target.left, target.right), ey = clamp(fromY, target.top, target.bottom);
    const len = Math.hypot(ex - fromX, ey - fromY);
    if (len < 10) { this.arrow.style.display = 'none'; return; }
    const back = Math.min(6, len / 3);
    const toX = ex - ((ex - fromX) / len) * back, toY = ey - ((ey - fromY) / len) * back;
    const bend = 0.18;
    const mx = (fromX + toX) / 2 - (toY - fromY) * bend, my = (fromY + toY) / 2 + (toX - fromX) * bend;
    this.arrowPath.setAttribute('d', `M${fromX},${fromY}Q${mx},${my} ${toX},${toY}`);
    this.arrow.style.display = '';
  }
}
