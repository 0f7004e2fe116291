// clock.js — game clocks as the browser shows them. The server sends each seat's
// time left (state.game.clocks, ms at the moment it sent the state) and keeps the
// real clocks itself; the page only counts down the seat to move from the moment
// the state arrived. Also the clock presets of the lobby and their short names.
import { t } from './messages.js';

export const CLOCK_PRESETS = {
  none: null,
  blitz: { kind: 'realtime', base_s: 180, increment_s: 2 },
  rapid: { kind: 'realtime', base_s: 600, increment_s: 5 },
  daily: { kind: 'daily', per_move_s: 86400 },
};

// Milliseconds left for a seat now, or null without a clock. Only the seat to move
// runs, and only while the server charges it (deadline set).
export function clockLeft(game, arrivedAt, seat, now = Date.now()) {
  const c = game?.clocks?.[seat];
  if (c === null || c === undefined) return null;
  return isRunning(game, seat) ? Math.max(0, c - (now - arrivedAt)) : Math.max(0, c);
}

export const isRunning = (game, seat) => game.status === 'running' && seat === game.to_move && game.deadline !== null && game.deadline !== undefined;

const pad = (n) => String(n).padStart(2, '0');

// 4:59, 1:02:03, 9.4 (under 10 s); daily clocks: 1d 4h, 5h 12m, 12m 30s, 42s.
export function formatClock(ms, kind = 'realtime') {
  if (kind === 'daily') {
    const s = ms >= 60000 ? Math.floor(ms / 1000) : Math.ceil(ms / 1000);
    const d = Math.floor(s / 86400), hh = Math.floor((s % 86400) / 3600), mm = Math.floor((s % 3600) / 60);
    if (d > 0) return t('clock.fmt_dh', { d, h: hh });
    if (hh > 0) return t('clock.fmt_hm', { h: hh, m: pad(mm) });
    if (mm > 0) return t('clock.fmt_ms', { m: mm, s: pad(s % 60) });
    return t('clock.fmt_s', { s });
  }
  if (ms < 10000) return (Math.floor(ms / 100) / 10).toFixed(1);
  const s = Math.ceil(ms / 1000);
  const hh = Math.floor(s / 3600), mm = Math.floor((s % 3600) / 60);
  return hh > 0 ? `${hh}:${pad(mm)}:${pad(s % 60)}` : `${mm}:${pad(s % 60)}`;
}

// '' | 'low' | 'critical': how urgent the time left looks.
export function urgency(ms, kind = 'realtime') {
  if (ms === null) return '';
  if (kind === 'daily') return ms < 600000 ? 'critical' : ms < 3 * 3600000 ? 'low' : '';
  return ms < 10000 ? 'critical' : ms < 30000 ? 'low' : '';
}

// "3+2", "0:05+0", "1 day per move", "12 h per move".
export function clockName(clock) {
  if (!clock) return t('clock.none');
  if (clock.kind === 'daily') {
    const s = clock.per_move_s;
    const per = s % 86400 === 0 ? t('clock.days', { n: s / 86400 }) : s % 3600 === 0 ? t('clock.hours', { n: s / 3600 }) : t('clock.minutes', { n: Math.round(s / 60) });
    return t('clock.daily_desc', { per });
  }
  const b = clock.base_s;
  const base = b % 60 === 0 ? String(b / 60) : `${Math.floor(b / 60)}:${pad(b % 60)}`;
  return `${base}+${clock.increment_s}`;
}

// Writes the time left into every .seat-clock[data-seat] under host.
export function paintClocks(host, game, arrivedAt, now = Date.now()) {
  if (!game?.clock) return;
  const kind = game.clock.kind;
  for (const el of host.querySelectorAll('.seat-clock[data-seat]')) {
    const seat = Number(el.dataset.seat);
    const ms = clockLeft(game, arrivedAt, seat, now);
    if (ms === null) { el.hidden = true; continue; }
    el.hidden = false;
    const text = formatClock(ms, kind);
    if (el.textContent !== text) el.textContent = text;
    const run = isRunning(game, seat);
    el.dataset.ms = String(Math.round(ms));
    el.classList.toggle('running', run);
    const u = run || ms < 30000 ? urgency(ms, kind) : '';
    el.classList.toggle('low', u === 'low');
    el.classList.toggle('critical', u === 'critical');
  }
}
