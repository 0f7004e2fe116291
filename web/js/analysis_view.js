// analysis_view.js — the post-game analysis in the replay of a finished game. It asks
// the server for the judged decisions of one seat (GET /api/games/{id}/analysis,
// docs/protocol.md), shows the progress while the server works (202), then a chart
// of the value over the game (the move played and the best move found, so mistakes
// show as gaps) with a marker at the replay's step, and the biggest mistakes;
// choosing one moves the replay there and has the board draw the move played and
// the better one. The judging is the engine's, on the server, and so is what counts
// as a mistake: a loss clearly beyond the judge's own uncertainty (the server's
// `mistake`); this lays out numbers, each loss with its ± (the judge's `sigmas`
// standard errors: a mistake is a loss whose lower end is beyond the threshold).
// Computer seats are named by their level in the reader's language.
import { h, s, svgRoot, clear } from './svg.js';
import { api } from './api.js';
import { t } from './messages.js';
import { lang } from './lang.js';
import { tileSvg } from './rack.js';
import { seatLabel } from './variants.js';

export const MISTAKES_SHOWN = 3;
const POLL_FIRST_MS = 700, POLL_MAX_MS = 4000; // polite polling while the server works

// The record's decisions in order (ply = decisions before, leaves included, as the
// analysis counts them), each with the replay step that shows it.
export function decisionSteps(steps) {
  const out = [];
  for (const st of steps) {
    for (const ev of st.events) if (ev.ev === 'place' || ev.ev === 'swap' || ev.ev === 'leave') out.push({ step: st.index, ev });
  }
  return out;
}

const sameCells = (a, b) => JSON.stringify(a) === JSON.stringify(b);

// The replay step of a judged decision, or null when the record does not hold it there.
export function stepOf(d, decs, seat) {
  const at = decs[d.ply];
  if (!at || at.ev.ev !== d.played.ev || at.ev.player !== seat) return null;
  if (d.played.ev === 'place' && !sameCells(at.ev.cells ?? at.ev.cell, d.played.cells ?? d.played.cell)) return null;
  return at.step;
}

export const lossOf = (d) => Math.max(0, d.value_best - d.value_played);

// The value axis: the chance to win from 0 to 1; a solo result from 0 to a round top.
export function valueScale(result) {
  if (result.value !== 'solo_result') return { lo: 0, hi: 1, ticks: [0, 0.25, 0.5, 0.75, 1] };
  const top = Math.max(1, ...result.decisions.flatMap((d) => [d.value_played, d.value_best]));
  const mag = 10 ** Math.floor(Math.log10(top));
  const step = [0.2, 0.25, 0.5, 1, 2, 2.5, 5, 10].map((f) => f * mag).find((st) => Math.ceil(top / st) <= 5);
  const hi = Math.ceil(top / step) * step;
  const ticks = [];
  for (let i = 0; i * step <= hi + step / 2; i++) ticks.push(Math.round(i * step * 1e6) / 1e6);
  return { lo: 0, hi, ticks };
}

// The mistakes the judge found (a loss clearly beyond its uncertainty), largest first
// (earlier first when equal).
export function biggestMistakes(result, n = MISTAKES_SHOWN) {
  return result.decisions.map((d, i) => ({ i, loss: lossOf(d), d }))
    .filter((m) => m.d.mistake).sort((a, b) => b.loss - a.loss || a.i - b.i).slice(0, n)
    .map(({ i, loss }) => ({ i, loss }));
}

// A value as text: the chance to win in whole percent, a solo result with one decimal
// (in the language's way: 7.3, 7,3).
export function valueText(v, kind) {
  if (kind !== 'solo_result') return `${Math.round(v * 100)}%`;
  const digits = Math.abs(v) >= 1000 ? 0 : 1;
  return (Math.round(v * 10 ** digits) / 10 ** digits).toLocaleString(lang(), { maximumFractionDigits: digits, useGrouping: false });
}

// The margin of a loss: `sigmas` standard errors, as the judge counts a mistake (a loss
// whose margin still leaves it beyond the threshold); at least the last digit shown.
export function marginText(se, kind, sigmas = 3) {
  if (kind === 'solo_result') return valueText(sigmas * se, kind);
  return String(Math.max(se > 0 ? 1 : 0, Math.round(sigmas * se * 100)));
}

export const lossText = (d, kind, sigmas = 3) => (kind === 'solo_result'
  ? t('analysis.loss_solo', { n: valueText(lossOf(d), kind), pm: marginText(d.loss_se || 0, kind, sigmas) })
  : t('analysis.loss_win', { n: Math.round(lossOf(d) * 100), pm: marginText(d.loss_se || 0, kind, sigmas) }));

// What the board draws for a placement decision: {played, best, labels} in the shape
// the renderers take ({cells, tile} or ROTA's {cell, tile}); best is null when it is
// the move played. Null for a swap (nothing to draw).
export function boardMarks(d, labels = {}) {
  if (d.played.ev !== 'place' || d.best.ev !== 'place') return null;
  const m = (x) => (x.cells ? { cells: x.cells, tile: x.tile } : { cell: x.cell, tile: x.tile });
  const same = sameCells(d.played.cells ?? d.played.cell, d.best.cells ?? d.best.cell) && sameCells(d.played.tile, d.best.tile);
  return { played: m(d.played), best: same ? null : m(d.best), labels };
}

const W = 360, H = 176, M = { l: 40, r: 12, t: 12, b: 30 };

export class AnalysisView {
  // host: an element for the panel; ctx: {game, seat (the viewer's or null), start
  // (the record's start event), steps (the replay's)}; cb.jump(step, marks).
  constructor(host, ctx, cb) {
    this.host = host;
    this.ctx = ctx;
    this.cb = cb;
    const { start } = ctx;
    this.variant = start.variant;
    this.solo = start.mode === 'solo';
    // A computer by its level in the language (as everywhere on the site), a person by name.
    const seats = ctx.seats || [];
    this.names = Array.from({ length: start.players }, (_, i) => (seats[i] ? seatLabel(seats[i], seats) : null)
      || start.names?.[i] || t('analysis.player_n', { n: i + 1 }));
    this.you = Number.isInteger(ctx.seat) && ctx.seat >= 0 && ctx.seat < start.players ? ctx.seat : null;
    this.seat = this.you ?? 0;
    this.decs = decisionSteps(ctx.steps);
    this.gen = 0;                 // bumps per request: answers for another seat are dropped
    this.asked = false;           // the viewer asked once: a new seat is asked at once
    this.timer = null;
    this.result = null;
    this.step = 0;
    this.selected = null;
    this.build();
  }

  build() {
    this.body = h('div', { class: 'analysis-body' });
    const head = [h('h3', {}, [t('analysis.title')])];
    if (this.names.length > 1) {
      this.select = h('select', { class: 'analysis-seat', 'data-action': 'analysis-seat', onchange: (e) => this.setSeat(Number(e.target.value)) },
        this.names.map((n, i) => h('option', { value: i }, [i === this.you ? t('analysis.you', { name: n }) : n])));
      this.select.value = String(this.seat);
      head.push(h('label', { class: 'analysis-seat-label' }, [t('analysis.seat'), ' ', this.select]));
    }
    this.el = h('section', { class: 'analysis-panel', 'aria-label': t('analysis.title') }, [
      h('header', { class: 'analysis-head' }, head), this.body,
    ]);
    clear(this.host).appendChild(this.el);
    this.renderIdle();
  }

  setState(state) {
    this.el.dataset.state = state;
    this.el.dataset.seat = String(this.seat);
  }

  renderIdle() {
    this.setState('idle');
    clear(this.body).append(
      h('p', { class: 'analysis-intro' }, [t(this.solo ? 'analysis.intro_solo' : 'analysis.intro', { name: this.names[this.seat] })]),
      h('button', { class: 'btn primary', type: 'button', 'data-action': 'analyse', onclick: () => this.ask() }, [t('analysis.start')]),
    );
  }

  setSeat(seat) {
    if (seat === this.seat) return;
    this.seat = seat;
    this.stop();
    this.result = null;
    this.selected = null;
    this.chart = this.nowLine = this.detail = null;
    this.cb.jump(this.step, null); // the old seat's marks go
    if (this.asked) this.ask(); else this.renderIdle();
  }

  stop() {
    clearTimeout(this.timer);
    this.timer = null;
    this.gen++;
  }

  async ask(delay = POLL_FIRST_MS) {
    this.asked = true;
    const gen = this.gen;
    if (this.el.dataset.state !== 'working') this.renderProgress(null);
    let data;
    try {
      data = await api.analysis(this.ctx.game, this.seat);
    } catch (e) {
      if (gen === this.gen && !this.gone) this.renderError(e);
      return;
    }
    if (gen !== this.gen || this.gone) return;
    if (data && data.status === 'working') {
      this.renderProgress(data);
      this.timer = setTimeout(() => this.ask(Math.min(POLL_MAX_MS, delay * 1.4)), delay);
      return;
    }
    this.result = data;
    this.renderResult();
  }

  renderProgress(p) {
    this.setState('working');
    const judged = p?.judged ?? 0, total = p?.total ?? 0;
    if (!this.progress) {
      this.progressText = h('span', { class: 'analysis-progress-text' });
      this.progressBar = h('progress', { class: 'analysis-progress-bar', max: 1, value: 0 });
      this.progress = h('div', { class: 'analysis-progress', role: 'status', 'aria-live': 'polite' }, [
        h('span', { class: 'spinner small' }), this.progressText, this.progressBar,
      ]);
    }
    this.progressText.textContent = ` ${p ? t('analysis.working', { judged, total }) : t('analysis.asking')}`;
    this.progressBar.max = Math.max(1, total);
    this.progressBar.value = judged;
    this.progress.dataset.judged = String(judged);
    this.progress.dataset.total = String(total);
    if (this.progress.parentNode !== this.body) clear(this.body).append(this.progress);
  }

  renderError(e) {
    this.setState('error');
    const code = e.code || '';
    const key = e.status === 409 ? 'damaged'
      : e.status === 503 && code === 'busy' ? 'busy'
        : e.status === 503 ? 'unavailable'
          : e.status === 403 ? 'not_over'
            : e.status === 404 ? 'not_found'
              : e.status === 400 ? 'bad_seat'
                : e.status === 429 ? 'rate'
                  : code === 'network' ? 'network' : 'other';
    this.el.dataset.error = key;
    const again = ['busy', 'rate', 'network', 'other'].includes(key);
    clear(this.body).append(
      h('p', { class: 'analysis-error', role: 'alert' }, [key === 'other' ? t('analysis.err_other', { msg: e.message || code }) : t(`analysis.err_${key}`)]),
      again ? h('button', { class: 'btn small', type: 'button', 'data-action': 'analysis-retry', onclick: () => this.ask() }, [t('analysis.retry')]) : null,
    );
  }

  renderResult() {
    const r = this.result;
    this.setState('done');
    delete this.el.dataset.error;
    const ds = r.decisions || [];
    if (!ds.length) {
      clear(this.body).append(h('p', { class: 'analysis-empty' }, [t('analysis.no_decisions', { name: this.names[this.seat] })]));
      return;
    }
    this.stepOfDecision = ds.map((d) => stepOf(d, this.decs, this.seat));
    this.mistakes = biggestMistakes(r);
    this.chart = this.buildChart(r);
    const lines = h('div', { class: 'analysis-lines' }, [
      h('span', { class: 'line-key played' }, [t('analysis.line_played')]),
      h('span', { class: 'line-key best' }, [t('analysis.line_best')]),
    ]);
    this.detail = h('div', { class: 'analysis-detail', 'aria-live': 'polite' });
    clear(this.body).append(this.chart, lines, this.buildMistakes(r), this.detail,
      h('p', { class: 'analysis-note muted' }, [this.noteText(r)]));
    this.follow(this.step, false);
  }

  // How the judge judged: its playouts, and what counts as a mistake.
  noteText(r) {
    const j = r.judge || {};
    const solo = r.value === 'solo_result';
    const n = solo ? valueText(j.threshold || 0, r.value) : Math.round((j.threshold || 0) * 100);
    return t(solo ? 'analysis.note_solo' : 'analysis.note', { playouts: (j.playouts || 0).toLocaleString(lang()), n });
  }

  moveNo(k) {
    const st = this.stepOfDecision[k];
    return st === null ? this.result.decisions[k].ply + 1 : st;
  }

  buildChart(r) {
    const kind = r.value, ds = r.decisions, n = ds.length;
    const { lo, hi, ticks } = valueScale(r);
    const x = (i) => M.l + (n === 1 ? (W - M.l - M.r) / 2 : ((W - M.l - M.r) * i) / (n - 1));
    const y = (v) => M.t + ((H - M.t - M.b) * (hi - Math.max(lo, Math.min(hi, v)))) / (hi - lo);
    const name = this.names[this.seat];
    const svg = svgRoot(`0 0 ${W} ${H}`, {
      class: 'analysis-chart', role: 'img', 'data-points': n, 'data-value': kind,
      'aria-label': t(kind === 'solo_result' ? 'analysis.chart_label_solo' : 'analysis.chart_label', { name }),
    });
    const grid = s('g', { class: 'chart-grid' }, svg);
    for (const v of ticks) {
      s('line', { x1: M.l, x2: W - M.r, y1: y(v), y2: y(v), class: v === lo ? 'axis' : 'grid-line' }, grid);
      s('text', { x: M.l - 5, y: y(v) + 4, 'text-anchor': 'end', class: 'tick', text: valueText(v, kind) }, grid);
    }
    s('line', { x1: M.l, x2: M.l, y1: M.t, y2: H - M.b, class: 'axis' }, grid);
    const every = Math.max(1, Math.ceil(n / 7));
    for (let i = 0; i < n; i += every) {
      s('line', { x1: x(i), x2: x(i), y1: H - M.b, y2: H - M.b + 4, class: 'axis' }, grid);
      s('text', { x: x(i), y: H - M.b + 15, 'text-anchor': 'middle', class: 'tick', text: String(this.moveNo(i)) }, grid);
    }
    s('text', { x: W - M.r, y: H - 3, 'text-anchor': 'end', class: 'axis-title', text: t('analysis.axis_move') }, grid);
    s('text', { x: M.l + 4, y: M.t + 9, class: 'axis-title', text: t(kind === 'solo_result' ? 'analysis.axis_solo' : 'analysis.axis_win') }, grid);

    const pts = (key) => ds.map((d, i) => [x(i), y(d[key])]);
    const best = pts('value_best'), played = pts('value_played');
    const path = (p) => p.map(([a, b], i) => `${i ? 'L' : 'M'}${a.toFixed(1)},${b.toFixed(1)}`).join(' ');
    s('path', { d: `${path(best)} ${[...played].reverse().map(([a, b]) => `L${a.toFixed(1)},${b.toFixed(1)}`).join(' ')} Z`, class: 'gap' }, svg);
    s('path', { d: path(best), class: 'line-best' }, svg);
    s('path', { d: path(played), class: 'line-played' }, svg);
    this.nowLine = s('line', { x1: 0, x2: 0, y1: M.t, y2: H - M.b, class: 'now-line', visibility: 'hidden' }, svg);
    const dots = s('g', { class: 'chart-dots' }, svg);
    this.dots = ds.map((d, i) => {
      const dot = s('circle', { cx: played[i][0], cy: played[i][1], r: n > 40 ? 2.2 : 3.2, class: `pt kind-${d.kind}`, 'data-i': i, 'data-loss': lossOf(d).toFixed(4) }, dots);
      s('title', { text: t('analysis.tip', { move: this.moveNo(i), played: valueText(d.value_played, kind), best: valueText(d.value_best, kind) }) }, dot);
      return dot;
    });
    const marks = s('g', { class: 'mistake-marks' }, svg);
    // Numbered above the point (below it near the top), the point itself ringed.
    this.mistakes.forEach((m, rank) => {
      const [px, py] = played[m.i];
      const dy = py - M.t < 20 ? 13 : -13;
      s('circle', { cx: px, cy: py, r: 5, class: 'mistake-ring' }, marks);
      const g = s('g', { class: 'mistake-mark', 'data-mistake': rank, transform: `translate(${px.toFixed(1)} ${(py + dy).toFixed(1)})` }, marks);
      s('circle', { r: 7 }, g);
      s('text', { y: 3.5, 'text-anchor': 'middle', text: String(rank + 1) }, g);
    });
    // A click picks the nearest decision, as a mistake's button does.
    svg.addEventListener('click', (e) => {
      const ctm = svg.getScreenCTM();
      if (!ctm) return;
      const p = svg.createSVGPoint();
      p.x = e.clientX; p.y = e.clientY;
      const px = p.matrixTransform(ctm.inverse()).x;
      let k = 0;
      for (let i = 1; i < n; i++) if (Math.abs(x(i) - px) < Math.abs(x(k) - px)) k = i;
      this.choose(k);
    });
    this.xOf = x;
    return svg;
  }

  buildMistakes(r) {
    const kind = r.value;
    const box = h('div', { class: 'analysis-mistakes' }, [h('h4', {}, [t('analysis.mistakes')])]);
    if (!this.mistakes.length) {
      const min = r.judge?.threshold || 0;
      box.append(h('p', { class: 'no-mistakes' }, [kind === 'solo_result'
        ? t('analysis.no_mistakes_solo', { n: valueText(min, kind) })
        : t('analysis.no_mistakes_win', { n: Math.round(min * 100) })]));
      this.mistakeBtns = [];
      return box;
    }
    this.mistakeBtns = this.mistakes.map((m, rank) => {
      const d = r.decisions[m.i];
      const tag = d.kind === 'place' ? null : h('span', { class: 'kind-tag' }, [t(`analysis.kind_${d.kind}`)]);
      const st = this.stepOfDecision[m.i];
      return h('button', {
        class: 'mistake', type: 'button', title: t('analysis.show_title'), 'aria-pressed': 'false',
        'data-mistake': rank, 'data-decision': m.i, 'data-step': st ?? '', disabled: st === null,
        onclick: () => this.choose(m.i),
      }, [
        h('span', { class: 'mistake-no' }, [String(rank + 1)]),
        h('span', { class: 'mistake-text' }, [tag, tag ? ' ' : null, this.valuesText(d), ' ', h('span', { class: 'loss' }, [lossText(d, kind, r.judge?.sigmas)])]),
      ]);
    });
    box.append(h('ol', { class: 'mistakes' }, this.mistakeBtns.map((b) => h('li', {}, [b]))));
    return box;
  }

  valuesText(d) {
    const kind = this.result.value;
    const k = this.result.decisions.indexOf(d);
    return t(kind === 'solo_result' ? 'analysis.mistake_solo' : 'analysis.mistake_win', {
      move: this.moveNo(k), played: valueText(d.value_played, kind), best: valueText(d.value_best, kind),
    });
  }

  // Decision k: the replay goes to its step and the board shows the move played and the better one.
  // showBest: false draws only the move played (the better one may cover its cells).
  choose(k, showBest = true) {
    const st = this.stepOfDecision?.[k];
    if (st === null || st === undefined) return;
    const d = this.result.decisions[k];
    const marks = boardMarks(d, { played: t('analysis.board_played'), best: t('analysis.board_best') });
    if (marks && !showBest) marks.best = null;
    this.selected = k;
    this.showBest = showBest;
    this.cb.jump(st, marks || {});
    this.renderDetail();
  }

  renderDetail() {
    const k = this.selected;
    for (const b of this.mistakeBtns || []) b.setAttribute('aria-pressed', String(Number(b.dataset.decision) === k));
    this.dots?.forEach((dot, i) => dot.classList.toggle('selected', i === k));
    if (!this.detail) return;
    clear(this.detail);
    delete this.detail.dataset.decision;
    if (k === null) return;
    const d = this.result.decisions[k];
    this.detail.dataset.decision = String(k);
    const kind = this.result.value;
    const lost = lossOf(d) > 0;
    this.detail.append(h('p', { class: 'detail-values' }, [this.valuesText(d), lost ? ' ' : null, lost ? h('span', { class: 'loss' }, [lossText(d, kind, this.result.judge?.sigmas)]) : null]));
    if (lost && !d.mistake) {
      const min = this.result.judge?.threshold || 0;
      this.detail.append(h('p', { class: 'not-clear muted' }, [kind === 'solo_result'
        ? t('analysis.not_clear_solo', { n: valueText(min, kind) }) : t('analysis.not_clear_win', { n: Math.round(min * 100) })]));
    }
    if (d.played.ev === 'swap') {
      const what = (m) => t(m.accepted ? 'analysis.swap_swapped' : 'analysis.swap_kept');
      this.detail.append(h('p', {}, [d.played.accepted === d.best.accepted ? t('analysis.same') : t('analysis.swap_detail', { played: what(d.played), best: what(d.best) })]));
      return;
    }
    const marks = boardMarks(d);
    const parts = (label, tile) => [h('span', { class: 'swatch' }), label, tileSvg(this.variant, tile, 0, 40)];
    // The better move is a switch: off, the board shows the move played alone.
    this.detail.append(h('div', { class: 'analysis-legend' }, [
      h('span', { class: 'legend-mark played' }, parts(t('analysis.legend_played'), d.played.tile)),
      marks.best ? h('button', {
        class: 'legend-mark best', type: 'button', 'data-action': 'toggle-best', 'aria-pressed': String(this.showBest),
        title: t('analysis.toggle_best'), onclick: () => this.choose(k, !this.showBest),
      }, parts(t('analysis.legend_best'), d.best.tile)) : h('span', {}, [t('analysis.same')]),
    ]));
  }

  // The replay shows step i: the marker follows; keep: the step came from choose().
  follow(i, keep) {
    this.step = i;
    if (!keep && this.selected !== null) { this.selected = null; this.renderDetail(); }
    if (!this.nowLine) return;
    let k = -1;
    this.stepOfDecision.forEach((st, j) => { if (st !== null && st <= i) k = j; });
    this.nowLine.setAttribute('visibility', k < 0 ? 'hidden' : 'visible');
    if (k >= 0) { this.nowLine.setAttribute('x1', this.xOf(k)); this.nowLine.setAttribute('x2', this.xOf(k)); }
    this.chart.dataset.now = String(k);
  }

  destroy() {
    this.gone = true;
    this.stop();
    clear(this.host);
  }
}
