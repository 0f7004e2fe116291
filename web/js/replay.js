// replay.js — stepping through a finished game from its record: a bar with
// first / back / forward / last buttons and a slider; each step is one placement
// with what followed it. Positions come from position.js (replayed record facts).
// With opts.analysis it also holds the post-game analysis panel (analysis_view.js),
// which follows the step shown and may move it, with moves to mark on the board.
import { h, clear } from './svg.js';
import { replaySteps, toView } from './position.js';
import { t } from './messages.js';
import { AnalysisView } from './analysis_view.js';

export class Replay {
  // host: element for the bar; events: the record; cb.show(step), cb.close();
  // opts.analysis: {host, game, seat, seats} (seat: the viewer's, or null for a spectator;
  // seats: the game's, to name them).
  constructor(host, events, cb, opts = {}) {
    this.host = host;
    this.cb = cb;
    const { start, steps } = replaySteps(events);
    this.start = start;
    this.steps = steps.map((st) => ({
      ...st, view: toView(st.pos), scores: st.pos.scores.map((s) => s || {}),
    }));
    this.i = 0;
    this.slider = h('input', {
      type: 'range', min: 0, max: this.steps.length - 1, value: 0, class: 'replay-slider', 'aria-label': t('replay.slider'),
      oninput: (e) => this.go(Number(e.target.value)),
    });
    this.label = h('span', { class: 'replay-label', 'aria-live': 'polite' });
    const btn = (txt, title, fn, act) => h('button', { class: 'btn small', type: 'button', title, 'aria-label': title, 'data-action': act, onclick: fn }, [txt]);
    this.bar = h('div', { class: 'replay-bar', role: 'toolbar', 'aria-label': t('replay.toolbar') }, [
      btn('«', t('replay.first'), () => this.go(0), 'first'),
      btn('◀', t('replay.back'), () => this.go(this.i - 1), 'back'),
      this.slider,
      btn('▶', t('replay.forward'), () => this.go(this.i + 1), 'forward'),
      btn('»', t('replay.last'), () => this.go(this.steps.length - 1), 'last'),
      this.label,
      btn(t('replay.close'), t('replay.close_title'), () => cb.close(), 'close-replay'),
    ]);
    clear(host).appendChild(this.bar);
    const a = opts.analysis;
    if (a) {
      this.analysis = new AnalysisView(a.host, {
        game: a.game, seat: a.seat, seats: a.seats, start, steps: this.steps,
      }, { jump: (i, marks) => this.go(i, marks) });
    }
    this.go(0);
  }

  // Shows step i; marks: moves the board draws over it ({played, best}, from the
  // analysis; null: none). Without marks, the same step (a redraw) keeps its marks.
  go(i, marks) {
    const to = Math.max(0, Math.min(this.steps.length - 1, i));
    if (marks === undefined) marks = to === this.i ? this.marks || null : null;
    this.marks = marks;
    this.i = to;
    this.slider.value = String(this.i);
    const st = this.steps[this.i];
    const last = this.steps.length - 1;
    const what = this.i === 0 ? t('replay.start')
      : st.events.some((e) => e.ev === 'end') && this.i === last ? t('replay.end') : t('replay.move', { n: this.i });
    this.label.textContent = `${what} · ${this.i} / ${last}`;
    this.bar.dataset.step = String(this.i);
    this.cb.show(marks ? { ...st, view: { ...st.view, marks } } : st);
    this.analysis?.follow(this.i, !!marks);
  }

  onKey(e) {
    const map = { ArrowLeft: -1, ArrowRight: 1 };
    if (e.target && e.target.closest && e.target.closest('.board-svg')) return false;
    if (e.key in map) { this.go(this.i + map[e.key]); e.preventDefault(); return true; }
    if (e.key === 'Home') { this.go(0); e.preventDefault(); return true; }
    if (e.key === 'End') { this.go(this.steps.length - 1); e.preventDefault(); return true; }
    if (e.key === 'Escape') { this.cb.close(); return true; }
    return false;
  }

  destroy() {
    this.analysis?.destroy();
    clear(this.host);
  }
}
