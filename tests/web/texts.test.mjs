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
