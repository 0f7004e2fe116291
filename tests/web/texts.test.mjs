// texts.test.mjs — the browser client's pure helpers, without a browser: clock
// formatting and urgency, the clock names of the lobby, the message table's t(),
// and the lobby's "3 min ago".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatClock, urgency, clockName, clockLeft, CLOCK_PRESETS } from '../../web/js/clock.js';
import { t, joinNames } from '../../web/js/messages.js';
import { ageText } from '../../web/js/lobby_lists.js';

test('clock: formatting, urgency, names, countdown of the seat to move only', () => {
  assert.equal(formatClock(180000), '3:00');
  assert.equal(formatClock(59001), '1:00');
  assert.equal(formatClock(10000), '0:10');
  assert.equal(formatClock(9999), '9.9');
  assert.equal(formatClock(0), '0.0');
  assert.equal(formatClock(3723000), '1:02:03');
  assert.equal(formatClock(86400000, 'daily'), '1d 0h');
  assert.equal(formatClock(86399900, 'daily'), '23h 59m');
  assert.equal(formatClock(754000, 'daily'), '12m 34s');
  assert.equal(formatClock(41200, 'daily'), '42s');
  assert.equal(urgency(5000), 'critical');
  assert.equal(urgency(25000), 'low');
  assert.equal(urgency(60000), '');
  assert.equal(urgency(7200000, 'daily'), 'low');
  assert.equal(clockName(CLOCK_PRESETS.blitz), '3+2');
  assert.equal(clockName(CLOCK_PRESETS.rapid), '10+5');
  assert.equal(clockName(CLOCK_PRESETS.daily), '1 day per move');
  assert.equal(clockName({ kind: 'realtime', base_s: 5, increment_s: 0 }), '0:05+0');
  assert.equal(clockName(null), 'No clock');
  const g = { status: 'running', to_move: 1, deadline: 1, clocks: [5000, 8000] };
  assert.equal(clockLeft(g, 1000, 0, 3000), 5000, 'a seat not to move keeps its time');
  assert.equal(clockLeft(g, 1000, 1, 3000), 6000, 'the seat to move counts down from arrival');
  assert.equal(clockLeft({ ...g, deadline: null }, 1000, 1, 3000), 8000, 'not charged: no countdown');
  assert.equal(clockLeft({ ...g, clocks: null }, 1000, 1, 3000), null);
});

test('messages: t() fills parameters; names are joined', () => {
  assert.equal(t('leave.not_connected', { name: 'Bo' }), 'Bo is not connected');
  assert.equal(t('leave.played_by', { level: 'greedy', name: 'Bo' }), 'the computer (greedy) plays for Bo');
  assert.equal(t('rematch.wants', { names: 'Ann', n: 1 }), 'Ann wants a rematch');
  assert.equal(t('turn.title', { game: 'AXIO' }), '▶ Your turn · AXIO');
  assert.equal(t('no.such.key'), 'no.such.key');
  assert.equal(joinNames(['Ann', 'Bo', 'Cy']), 'Ann, Bo and Cy');
  const now = 1700000000000;
  assert.equal(ageText(now / 1000 - 20, now), 'just now');
  assert.equal(ageText(now / 1000 - 180, now), '3 min ago');
  assert.equal(ageText(now / 1000 - 7200, now), '2 h ago');
  assert.equal(ageText(now / 1000 - 86400 * 3, now), '3 days ago');
});

test('ratings: R with "?" while provisional, changes, places, chart ticks and points, next pages', async () => {
  const { ratingText, changeText, changeClass, withRating, placeText, deviationText } = await import('../../web/js/ratings.js');
  const { niceTicks, chartPoints } = await import('../../web/js/rating_chart.js');
  const { safeNext, authHash, profileHash } = await import('../../web/js/account.js');
  assert.equal(ratingText({ rating: 1657.6, deviation: 120, games: 9 }), '1658');
  assert.equal(ratingText({ rating: 1500, deviation: 500, games: 0 }), '1500?');
  assert.equal(ratingText({ rating: 1500, deviation: 200, games: 9 }), '1500', 'D = 200 is not provisional');
  assert.equal(ratingText(1642), '1642');
  assert.equal(ratingText(null), '');
  assert.equal(deviationText({ rating: 1, deviation: 87.4 }), '±87');
  assert.equal(changeText(12), '+12');
  assert.equal(changeText(-8), '\u22128');
  assert.equal(changeText(0), '±0');
  assert.equal(changeText(null), '');
  assert.deepEqual([changeClass(3), changeClass(-1), changeClass(0), changeClass(null)], ['up', 'down', 'same', '']);
  assert.equal(withRating('Ann', 1658), 'Ann (1658)');
  assert.equal(withRating('Ann', null), 'Ann');
  assert.equal(placeText(1, 3), '1st of 3');
  assert.equal(placeText(2, 2), '2nd of 2');
  assert.equal(placeText(3, 4), '3rd of 4');
  assert.equal(placeText(4, 4), '4th of 4');
  const tk = niceTicks(1488, 1712);
  assert.deepEqual(tk.ticks, [1400, 1500, 1600, 1700, 1800]);
  assert.ok(niceTicks(1500, 1500).ticks.length >= 2, 'a flat line still has an axis');
  // Newest first from the server; the chart runs oldest first from the rating before the oldest.
  const games = [
    { id: 'c', variant: 'square', rated: true, rating_change: -8, rating_after: 1524 },
    { id: 'x', variant: 'hex', rated: true, rating_change: 30, rating_after: 1530 },
    { id: 'b', variant: 'square', rated: false, rating_change: null, rating_after: null },
    { id: 'a', variant: 'square', rated: true, rating_change: 32, rating_after: 1532 },
  ];
  assert.deepEqual(chartPoints(games, 'square').map((p) => [p.id, p.rating]), [[null, 1500], ['a', 1532], ['c', 1524]]);
  assert.deepEqual(chartPoints(games, 'rota'), []);
  assert.equal(safeNext('#/game/abc'), '#/game/abc');
  assert.equal(safeNext('https://evil.example/'), '#/');
  assert.equal(safeNext('#/login?next=x'), '#/');
  assert.equal(safeNext(null), '#/');
  assert.equal(authHash('login', '#/game/abc'), `#/login?next=${encodeURIComponent('#/game/abc')}`);
  assert.equal(authHash('signup', `#/login?next=${encodeURIComponent('#/player/Ann')}`), `#/signup?next=${encodeURIComponent('#/player/Ann')}`);
  assert.equal(authHash('login', '#/'), '#/login');
  assert.equal(profileHash('Ádám Kovács'), '#/player/%C3%81d%C3%A1m%20Kov%C3%A1cs');
});
