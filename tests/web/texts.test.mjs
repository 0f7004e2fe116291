// texts.test.mjs — the browser client's pure helpers, without a browser: clock
// formatting and urgency, the clock names of the lobby, the message table's t(),
// and the lobby's "3 min ago"; errors said by code and reason, messages with nodes,
// seat names (computers numbered), the hex solo result, a game's own words.
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

test('i18n helpers: errors by code and reason, nodes in messages, seat names, solo results, a game\'s own words', async () => {
  const { errorText, tn, tv } = await import('../../web/js/messages.js');
  const { setLangForTest } = await import('../../web/js/lang.js');
  const { seatLabel, kindLabel, modeName } = await import('../../web/js/variants.js');
  const { soloResult } = await import('../../web/js/dialogs.js');
  const { colorLabel } = await import('../../web/js/colors.js');
  // The reason (the engine's, a refused name's) says most; then the code; the server's English last.
  assert.equal(errorText({ code: 'illegal_move', reason: 'first_tile', message: 'x' }), 'Your first tile must touch a start symbol that no tile touches yet.');
  assert.equal(errorText({ code: 'illegal_move', reason: 'no_such_reason', message: 'x' }), 'That move is not allowed.');
  assert.equal(errorText({ code: 'bad_message', reason: 'name_length', message: 'name must be 1 to 24 characters' }), 'A name has 1 to 24 characters.');
  assert.equal(errorText({ code: 'full', message: 'the game has no free seat' }), 'The game has no free seat.');
  assert.equal(errorText({ code: 'brand_new_code', message: 'what the server said' }), 'what the server said');
  assert.equal(errorText({ code: 'http', status: 502, message: 'HTTP 502' }), 'The server answered with an error (HTTP 502).');
  assert.equal(errorText(new Error('The server cannot be reached.')), 'The server cannot be reached.');
  // {placeholders} take nodes (here stand-ins) and lists of them.
  const icon = { node: 'icon' };
  assert.deepEqual(tn('axio.reached', { name: 'Ann', score: 18, color: [icon, 'red'] }), ['Ann', ' reached ', '18', ' in ', icon, 'red']);
  // Computers by their level; two of one level numbered; a free seat; people as named.
  const seats = [{ kind: 'human', name: 'Ann', taken: true }, { kind: 'ai', level: 'greedy', name: 'greedy (AI)' },
    { kind: 'ai', level: 'strong', name: 'strong (AI)' }, { kind: 'ai', level: 'greedy', name: 'greedy (AI)' }, { kind: 'human', taken: false, name: null }];
  assert.deepEqual(seats.map((s) => seatLabel(s, seats)), ['Ann', 'Casual 1', 'Strong', 'Casual 2', 'free seat']);
  assert.equal(seatLabel({ kind: 'ai', name: 'random (AI)' }), 'Beginner', 'the level read from the name');
  assert.equal(kindLabel(seats[1]), 'computer, casual');
  // A guest who gave no name has the server's "Player N", said in the language; an account keeps its name.
  assert.equal(seatLabel({ kind: 'human', name: 'Player 2', taken: true }), 'Player 2');
  assert.equal(seatLabel({ kind: 'human', name: 'Player 2', taken: true, account: true }), 'Player 2');
  // Hex solo: the three lowest tracks, not 30910.
  assert.equal(soloResult('hex', 30910), '3 · 9 · 10');
  assert.equal(soloResult('hex', 121418), '12 · 14 · 18');
  assert.equal(soloResult('square', 21), '21');
  try {
    setLangForTest('de');
    assert.equal(seatLabel(seats[3], seats), 'Hobbyspieler 2');
    assert.equal(seatLabel({ kind: 'human', name: 'Player 2', taken: true }), 'Spieler 2');
    assert.equal(seatLabel({ kind: 'human', name: 'Player 2', taken: true, account: true }), 'Player 2');
    assert.equal(modeName('solo'), 'Solo');
    assert.equal(colorLabel('purple'), 'Lila (Stern)');
    assert.equal(tv('rack.none', 'rota'), 'kein Plättchen', 'German ROTA says Plättchen');
    assert.equal(tv('rack.none', 'hex'), 'keine Steine');
    assert.equal(errorText({ code: 'illegal_move', reason: 'cell' }), 'Diese Stelle liegt außerhalb des Spielbereichs oder ist nicht frei.');
    assert.equal(formatClock(86400000, 'daily'), '1 T 0 h');
    setLangForTest('hu');
    assert.equal(seatLabel(seats[1], seats), 'Hobbi 1');
    assert.equal(tv('rack.none', 'rota'), 'nincs lapka', 'no ROTA word of its own: the common one');
    assert.equal(t('info.you_seat', { n: 1 }), 'az 1. helyen játszol');
    assert.equal(t('info.you_seat', { n: 2 }), 'a 2. helyen játszol');
  } finally {
    setLangForTest('en');
  }
});
