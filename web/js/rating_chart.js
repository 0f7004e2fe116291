// rating_chart.js — a player's rating over time in one variant as an SVG line
// chart: x the rated games in order (0 = before the first one listed), y the
// rating with round-numbered grid lines; each game a dot whose tooltip gives the
// date, the rating after it and the change. Built from the profile's games
// (rating_after, rating_change), oldest first; niceTicks() is pure (tested).
import { s, svgRoot } from './svg.js';
import { t } from './messages.js';
import { changeText } from './ratings.js';
import { lang } from './lang.js';

const STEPS = [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000];

// Round grid values covering [min, max] with at most `most` intervals.
export function niceTicks(min, max, most = 5) {
  let lo = Math.floor(min), hi = Math.ceil(max);
  if (hi - lo < 20) { const mid = (lo + hi) / 2; lo = Math.floor(mid - 10); hi = Math.ceil(mid + 10); }
  const step = STEPS.find((st) => Math.ceil(hi / st) - Math.floor(lo / st) <= most) || 2000;
  const a = Math.floor(lo / step) * step, b = Math.ceil(hi / step) * step;
  const ticks = [];
  for (let v = a; v <= b; v += step) ticks.push(v);
  return { lo: a, hi: b, step, ticks };
}

// The points of a chart from the profile's games (newest first, as the server
// lists them) of one variant: the rating before the oldest, then after each game.
export function chartPoints(games, variant) {
  const rated = games.filter((g) => g.variant === variant && g.rated && g.rating_after !== null && g.rating_after !== undefined).reverse();
  if (!rated.length) return [];
  const first = rated[0];
  const start = { rating: first.rating_after - (first.rating_change || 0), at: null, change: null, id: null };
  return [start, ...rated.map((g) => ({ rating: g.rating_after, at: g.ended, change: g.rating_change, id: g.id }))];
}

// In the page's language (lang.js), not the browser's.
const dateText = (unixS) => (unixS ? new Date(unixS * 1000).toLocaleDateString(lang(), { year: 'numeric', month: 'short', day: 'numeric' }) : '');

// The chart as an <svg>, `width` wide in CSS pixels (its text stays readable at
// any width); points from chartPoints().
export function ratingChart(points, { width = 600, height = 220, label = '' } = {}) {
  const W = Math.max(280, Math.round(width)), H = height;
  const m = { l: 46, r: 14, t: 12, b: 34 };
  const svg = svgRoot(`0 0 ${W} ${H}`, { width: W, height: H, class: 'rating-chart', role: 'img', 'aria-label': label });
  const vals = points.map((p) => p.rating);
  const { lo, hi, ticks } = niceTicks(Math.min(...vals), Math.max(...vals));
  const n = Math.max(1, points.length - 1);
  const x = (i) => m.l + ((W - m.l - m.r) * i) / n;
  const y = (v) => m.t + ((H - m.t - m.b) * (hi - v)) / (hi - lo || 1);

  const grid = s('g', { class: 'chart-grid' }, svg);
  for (const v of ticks) {
    s('line', { x1: m.l, x2: W - m.r, y1: y(v), y2: y(v), class: v === lo ? 'axis' : 'grid-line' }, grid);
    s('text', { x: m.l - 6, y: y(v) + 4, 'text-anchor': 'end', class: 'tick', text: String(v) }, grid);
  }
  s('line', { x1: m.l, x2: m.l, y1: m.t, y2: H - m.b, class: 'axis' }, grid);
  // x: game numbers, at most about one label per 50 px.
  const every = Math.max(1, Math.ceil(n / Math.max(1, Math.floor((W - m.l - m.r) / 50))));
  for (let i = 0; i <= n; i += every) {
    s('line', { x1: x(i), x2: x(i), y1: H - m.b, y2: H - m.b + 4, class: 'axis' }, grid);
    s('text', { x: x(i), y: H - m.b + 16, 'text-anchor': 'middle', class: 'tick', text: String(i) }, grid);
  }
  s('text', { x: W - m.r, y: H - 4, 'text-anchor': 'end', class: 'axis-title', text: t('chart.x_title') }, grid);

  const d = points.map((p, i) => `${i ? 'L' : 'M'}${x(i).toFixed(1)},${y(p.rating).toFixed(1)}`).join(' ');
  s('path', { d, class: 'chart-line' }, svg);
  const dots = s('g', { class: 'chart-dots' }, svg);
  points.forEach((p, i) => {
    const dot = s('circle', { cx: x(i), cy: y(p.rating), r: points.length > 40 ? 2.5 : 4, class: `chart-dot${i === 0 ? ' start' : ''}`, 'data-rating': Math.round(p.rating), 'data-game': p.id || '' }, dots);
    const tip = i === 0
      ? t('chart.tip_start', { rating: Math.round(p.rating) })
      : t('chart.tip', { n: i, date: dateText(p.at), rating: Math.round(p.rating), change: changeText(p.change) });
    s('title', { text: tip }, dot);
  });
  return svg;
}
