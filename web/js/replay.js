// replay.js — stepping through a finished game from its record: a bar with
// first / back / forward / last buttons and a slider; each step is one placement
// with what followed it. Positions come from position.js (replayed record facts).
import { h, clear } from './svg.js';
import { replaySteps, toView } from './position.js';

export class Replay {
  // host: element for the bar; events: the record; cb.show(step), cb.close()
  constructor(host, events, cb) {
    this.host = host;
    this.cb = cb;
    const { start, steps } = replaySteps(events);
    this.start = start;
    this.steps = steps.map((st) => ({
      ...st, view: toView(st.pos), scores: st.pos.scores.map((s) => s || {}),
    }));
    this.i = 0;
    this.slider = h('input', {
      type: 'range', min: 0, max: this.steps.length - 1, value: 0, class: 'replay-slider', 'aria-label': 'Move',
      oninput: (e) => this.go(Number(e.target.value)),
    });
    this.label = h('span', { class: 'replay-label', 'aria-live': 'polite' });
    const btn = (txt, title, fn, act) => h('button', { class: 'btn small', type: 'button', title, 'aria-label': title, 'data-action': act, onclick: fn }, [txt]);
    this.bar = h('div', { class: 'replay-bar', role: 'toolbar', 'aria-label': 'Step through the game' }, [
      btn('«', 'First', () => this.go(0), 'first'),
      btn('◀', 'Back (left arrow)', () => this.go(this.i - 1), 'back'),
      this.slider,
      btn('▶', 'Forward (right arrow)', () => this.go(this.i + 1), 'forward'),
      btn('»', 'Last', () => this.go(this.steps.length - 1), 'last'),
      this.label,
      btn('✕ Close', 'Back to the game', () => cb.close(), 'close-replay'),
    ]);
    clear(host).appendChild(this.bar);
    this.go(0);
  }

  go(i) {
    this.i = Math.max(0, Math.min(this.steps.length - 1, i));
    this.slider.value = String(this.i);
    const st = this.steps[this.i];
    const last = this.steps.length - 1;
    const what = this.i === 0 ? 'start' : st.events.some((e) => e.ev === 'end') && this.i === last ? 'end' : `move ${this.i}`;
    this.label.textContent = `${what} · ${this.i} / ${last}`;
    this.bar.dataset.step = String(this.i);
    this.cb.show(st);
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

  destroy() { clear(this.host); }
}
