// events.test.mjs — events on the site (issue 50, item 3 "Pages"; docs/tournaments.md),
// three browsers on a server of the test's own:
// - A Swiss: Ann (desktop, English) creates it from the lobby's Events card (a nameless event
//   is refused, its field marked, in her words); Ann and Bo (touch phone, German) join from
//   its page; Cy (phone, Hungarian, a guest) sees it in the lobby and on its page. Ann starts
//   it: both players' pages open the round's game by themselves, with the turn alert's sound
//   (the Web Audio oscillators counted); Cy's page lists the table and watches it. They play
//   from the pages that opened, Bo resigns: Cy's standings move without a reload (Ann 2
//   points, Bo 0); the finished event keeps its standings, and Ann's result opens the record.
// - An arena of two (created through the API from Ann's page): started, its game opens; Bo
//   resigns and both are paired again at once: Bo's next game opens by itself over the one
//   just ended (the watcher of the other pages, GET /api/me/events); Ann, meanwhile in
//   another game of hers, gets a notice with Open instead, and the sound;
//   the standings count the first; the table being played is Ann's own (Open).
// - An arena: the form's arena fields (duration, a custom clock, team mode only for AXIO Hex
//   at 4 a table), an entry condition the server enforces (Bo has no rated games: refused,
//   said in German), and the organiser's Cancel (asked first): listed as cancelled.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  launch, newPage, startServer, shot, shotBoth, assertNoErrors, signUpHere, gameState, answerSwap,
  pickTile, findLegal, fieldCells, clickAndWait, waitTurnOrEnd, createGame, WIDE_DESKTOP, TOUCH, PHONE,
} from './lib.mjs';
import { MESSAGES } from '../../web/js/messages.js';
import { badField, settingsText, durationText, statusText, eventError } from '../../web/js/events.js';

const M = (lang, key, params) => { const v = MESSAGES[lang][key]; return typeof v === 'function' ? v(params) : v; };

// The Web Audio oscillators a page starts (attention.js beeps with two of them).
const countBeeps = () => {
  window.__oscillators = 0;
  const AC = window.AudioContext || window.webkitAudioContext;
  if (!AC) return;
  const make = AC.prototype.createOscillator;
  AC.prototype.createOscillator = function createOscillator() { window.__oscillators++; return make.call(this); };
};

// The game page that opened by itself: its id and this page's seat (seated by the session).
async function openedGame(page) {
  await page.waitForURL(/#\/game\/[^/?]+\?seat=\d/, { timeout: 30000 });
  await page.waitForSelector('.game:not(.loading) .score-card.you', { timeout: 20000 });
  const [, id, seat] = /#\/game\/([^/?]+)\?seat=(\d)/.exec(page.url());
  return { id, seat: Number(seat) };
}

// The English texts of the events (fixed ones) that a page in `lang` shows: none may be.
async function englishShown(page, lang) {
  const text = await page.evaluate(() => document.body.innerText);
  return Object.entries(MESSAGES.en).filter(([k, v]) => k.startsWith('event.') && typeof v === 'string' && v.length >= 6
    && MESSAGES[lang][k] !== v && text.includes(v)).map(([k]) => k);
}

const points = (page, name) => page.getAttribute(`#event-standings tr[data-name="${name}"]`, 'data-points').then(Number);

test('events: settings and states read in a line; a refused setting names its field', () => {
  const swiss = { format: 'swiss', variant: 'hex', mode: 'team', seats: 4, clock: { kind: 'daily', per_move_s: 86400 }, rated: true, rounds: 5 };
  assert.equal(settingsText(swiss), 'Swiss · AXIO Hex · team · 4 a table · 1 day per move · rated · 5 rounds');
  assert.equal(settingsText({ format: 'arena', variant: 'rota', mode: 'standard', seats: 2, clock: { kind: 'realtime', base_s: 180, increment_s: 2 }, rated: false, duration_s: 5400 }),
    'Arena · AXIO ROTA · 2 a table · 3+2 · casual · 1 h 30 min');
  assert.equal(durationText(86400 * 3), '3 days');
  assert.equal(durationText(0), '');
  assert.equal(statusText({ ...swiss, status: 'running', round: 2 }), 'round 2 of 5');
  assert.equal(statusText({ ...swiss, status: 'cancelled', cancel_reason: 'too_few_players' }), M('en', 'event.cancelled_few'));
  assert.equal(badField({ code: 'bad_message', message: 'days_per_round must be a whole number from 1 to 14' }), 'days_per_round');
  assert.equal(badField({ code: 'bad_message', message: 'rounds must be a whole number from 1 to 20' }), 'rounds');
  assert.equal(badField({ code: 'bad_message', message: 'format: duration_s is an arena\'s' }), 'format', 'the key named first');
  assert.equal(badField({ code: 'not_open', message: 'name' }), null);
  assert.equal(eventError({ code: 'bad_message', message: 'starts must be a whole number' }), M('en', 'event.bad.starts'));
  assert.equal(eventError({ code: 'forbidden', reason: 'bots', status: 403 }), M('en', 'reason.bots'));
  assert.equal(eventError({ code: 'event_full', status: 409 }), M('en', 'error.event_full'));
});

test('events: a Swiss created, joined by two, started: the game opens by itself, is played, the standings move', { timeout: 400000 }, async () => {
  const srv = await startServer(['--max-games-per-ip', '1000']);
  const browser = await launch();
  try {
    const ann = await newPage(browser, WIDE_DESKTOP);
    const bo = await newPage(browser, PHONE, TOUCH);
    const cy = await newPage(browser, PHONE, TOUCH);
    await ann.addInitScript(countBeeps);
    await bo.addInitScript(countBeeps);
    await signUpHere(ann, srv.base, 'Ann');
    await signUpHere(bo, srv.base, 'Bo', { lang: 'de' });

    // The lobby's card: nothing yet; its link opens the form.
    await ann.waitForSelector('#lobby-events p.muted');
    assert.equal(await ann.textContent('#lobby-events'), M('en', 'event.none_live'));
    await ann.click('.events-box [data-action=new-event]');
    await ann.waitForURL(/#\/events/);
    await ann.waitForSelector('#create-event:not([disabled])');
    // No name: the server's refusal, said by field.
    await ann.click('#create-event');
    await ann.waitForSelector('[data-field=name].bad');
    assert.equal(await ann.textContent('#event-form-msg'), M('en', 'event.create_failed', { msg: M('en', 'event.bad.name') }));
    await shot(ann, 'events-form-error-desktop');

    const name = 'Sunday <b>Swiss</b>';
    await ann.fill('#event-name', name);
    await ann.check('#event-format-swiss', { force: true });
    await ann.check('#event-variant-square', { force: true });
    await ann.check('#event-seats-2', { force: true });
    await ann.check('#event-clock-rapid', { force: true });
    await ann.fill('#event-rounds', '1');
    await ann.click('#create-event');
    await ann.waitForURL(/#\/event\//);
    const eventId = ann.url().split('#/event/')[1];
    await ann.waitForSelector('.event-page[data-status=upcoming] .event-title');
    assert.equal(await ann.textContent('.event-title'), name, 'the name is shown as text');
    assert.equal(await ann.textContent('.event-settings'), 'Swiss · AXIO · 2 a table · 10+5 · casual · 1 round');
    await ann.click('[data-action=join]');
    await ann.waitForSelector('.event-page[data-you=joined]');
    await ann.check('#event-sound'); // the sound of turn alerts, on (a click: audio may start)

    // Bo joins from the page, in German.
    await bo.goto(`${srv.base}/?lang=de#/event/${eventId}`);
    await bo.waitForSelector('.event-page[data-status=upcoming] [data-action=join]');
    assert.equal(await bo.textContent('[data-action=join]'), M('de', 'event.join'));
    await bo.click('[data-action=join]');
    await bo.waitForSelector('.event-page[data-you=joined]');
    await bo.check('#event-sound');
    await bo.waitForSelector('#event-standings tr[data-name=Ann]');
    await shot(bo, 'event-upcoming-de-phone');
    assert.deepEqual(await englishShown(bo, 'de'), [], 'no English on the German page');

    // Cy, a guest in Hungarian: the lobby lists it; its page tells him to log in to join.
    await cy.goto(`${srv.base}/?lang=hu#/`);
    await cy.waitForSelector(`#lobby-events .event-row[data-event="${eventId}"]`);
    await cy.locator('#lobby-events').scrollIntoViewIfNeeded();
    await shot(cy, 'events-lobby-hu-phone');
    await cy.click(`#lobby-events .event-row[data-event="${eventId}"]`);
    await cy.waitForSelector('.event-page[data-status=upcoming]');
    assert.ok((await cy.textContent('.event-actions')).includes(M('hu', 'event.login_to_join')));
    assert.equal(await cy.locator('[data-action=start]').count(), 0, 'only the organiser starts it');
    await ann.waitForFunction(() => document.querySelectorAll('#event-standings tbody tr').length === 2);
    await shot(ann, 'event-upcoming-desktop');

    // Ann starts it: both pages open the game by themselves, with a beep.
    await ann.click('[data-action=start]');
    const a = await openedGame(ann);
    const b = await openedGame(bo);
    assert.equal(a.id, b.id, 'one table');
    assert.notEqual(a.seat, b.seat);
    assert.ok(await ann.evaluate(() => window.__oscillators) > 0, 'Ann heard it');
    assert.ok(await bo.evaluate(() => window.__oscillators) > 0, 'Bo heard it');
    // The game page links back to its event, in the page's language.
    assert.equal(await bo.getAttribute('.game-info .event-link', 'href'), `#/event/${eventId}`);
    assert.equal(await bo.textContent('.game-info .event-link'), M('de', 'event.game_link'));
    await shot(bo, 'event-game-opened-de-phone');

    // Cy's page: the event runs, round 1 of 1, the table listed; a click watches it.
    await cy.waitForSelector(`.event-page[data-status=running] #event-tables [data-game="${a.id}"]`, { timeout: 15000 });
    assert.equal(await cy.textContent('#event-state'), M('hu', 'event.round_of', { n: 1, m: 1 }));
    await shot(cy, 'event-running-hu-phone');
    assert.deepEqual(await englishShown(cy, 'hu'), [], 'no English on the Hungarian page');
    await cy.click(`#event-tables [data-game="${a.id}"]`);
    await cy.waitForURL(new RegExp(`#/watch/${a.id}`));
    await cy.waitForSelector('.game:not(.loading) .board-svg');
    await cy.goBack();
    await cy.waitForSelector('.event-page[data-status=running] #event-standings tr[data-name=Bo]');
    assert.equal(await points(cy, 'Ann'), 0);
    assert.equal(await points(cy, 'Bo'), 0);

    // They play from the pages that opened: two placements each, then Bo resigns.
    const seats = { [a.seat]: ann, [b.seat]: bo };
    const placed = { [a.seat]: 0, [b.seat]: 0 };
    for (let guard = 0; guard < 20 && (placed[a.seat] < 2 || placed[b.seat] < 2); guard++) {
      const st = await gameState(ann);
      const page = seats[st.toMove];
      await waitTurnOrEnd(page, 30000);
      if ((await gameState(page)).phase === 'swap') { await answerSwap(page); continue; }
      await pickTile(page, 0);
      const found = await findLegal(page, { near: placed[st.toMove] ? [] : await fieldCells(page) });
      assert.ok(found, 'a legal place');
      await clickAndWait(page, found.preview.point);
      placed[st.toMove]++;
      await ann.waitForFunction((s) => Number(document.querySelector('.game').dataset.seq) >= s, (await gameState(page)).seq);
    }
    await bo.click('[data-action=resign]');
    await bo.click('.confirm-dialog [data-action=confirm-resign]');
    await ann.waitForSelector('.game[data-status=over]', { timeout: 20000 });

    // Cy's standings move by themselves: Ann won the table (2 points), Bo none.
    await cy.waitForFunction(() => Number(document.querySelector('#event-standings tr[data-name=Ann]')?.dataset.points) > 0, null, { timeout: 20000 });
    assert.equal(await points(cy, 'Ann'), 2);
    assert.equal(await points(cy, 'Bo'), 0);
    await cy.waitForSelector('.event-page[data-status=finished]', { timeout: 20000 });
    assert.equal(await cy.textContent('#event-state'), M('hu', 'event.status.finished'));
    assert.equal(await cy.getAttribute('#event-standings tbody tr:first-child', 'data-name'), 'Ann');

    // The finished event keeps its standings and the link to the record.
    await ann.goto(`${srv.base}/?lang=en#/event/${eventId}`);
    await ann.waitForSelector('.event-page[data-status=finished] #event-standings tr[data-name=Ann] .event-result');
    assert.equal(await ann.textContent('#event-standings tr[data-name=Ann] .event-result'), M('en', 'event.result', { round: 1, place: 1, points: 2 }));
    await shotBoth(ann, 'event-finished');
    await ann.click(`#event-standings tr[data-name=Ann] .event-result[data-game="${a.id}"]`);
    await ann.waitForURL(new RegExp(`#/game/${a.id}/replay`));
    await ann.waitForSelector('.game:not(.loading) .board-svg');
    // And the events page lists it as finished.
    await ann.goto(`${srv.base}/?lang=en#/events`);
    await ann.waitForSelector(`#events-finished .event-row[data-event="${eventId}"]`);
    await shotBoth(ann, 'events-page');
    assertNoErrors(ann);
    assertNoErrors(bo);
    assertNoErrors(cy);
  } finally {
    await browser.close();
    await srv.stop();
  }
});

test('events: an arena\'s form, an entry condition refused in German, the organiser cancels', { timeout: 200000 }, async () => {
  const srv = await startServer();
  const browser = await launch();
  try {
    const ann = await newPage(browser, WIDE_DESKTOP);
    const bo = await newPage(browser, PHONE, TOUCH);
    await signUpHere(ann, srv.base, 'Ann', { hash: '#/events' });
    await signUpHere(bo, srv.base, 'Bo', { lang: 'de' });
    await ann.waitForSelector('#create-event:not([disabled])');

    // Team mode only for AXIO Hex at 4 a table.
    await ann.check('#event-format-arena', { force: true });
    assert.ok(await ann.isVisible('#event-duration'));
    assert.ok(!(await ann.isVisible('#event-rounds')));
    assert.ok(await ann.isDisabled('#event-mode-team'));
    await ann.check('#event-variant-hex', { force: true });
    await ann.check('#event-seats-4', { force: true });
    assert.ok(!(await ann.isDisabled('#event-mode-team')));
    await ann.check('#event-mode-team', { force: true });
    await ann.check('#event-seats-3', { force: true });
    assert.ok(await ann.isDisabled('#event-mode-team'));
    assert.ok(await ann.isChecked('#event-mode-standard'), 'back to standard');

    // A Swiss with a day per move asks for days a round; an arena for its duration.
    await ann.check('#event-format-swiss', { force: true });
    await ann.check('#event-clock-daily', { force: true });
    assert.ok(await ann.isVisible('#event-rounds'));
    assert.ok(await ann.isVisible('#event-days'));
    assert.ok(!(await ann.isVisible('#event-duration')));
    await ann.check('#event-format-arena', { force: true });
    assert.ok(!(await ann.isVisible('#event-days')));
    // A duration the server refuses (0 minutes): said at the field.
    await ann.fill('#event-name', 'Quick arena');
    await ann.check('#event-clock-custom', { force: true });
    await ann.fill('#event-clock-min', '3');
    await ann.fill('#event-clock-inc', '2');
    await ann.fill('#event-duration', '0');
    await ann.fill('#event-min-games', '5');
    await ann.click('#create-event');
    await ann.waitForSelector('[data-field=duration_s].bad');
    assert.equal(await ann.textContent('#event-form-msg'), M('en', 'event.create_failed', { msg: M('en', 'event.bad.duration_s') }));
    await ann.fill('#event-duration', '45');
    await shot(ann, 'events-arena-form-desktop');
    await ann.click('#create-event');
    await ann.waitForURL(/#\/event\//);
    const eventId = ann.url().split('#/event/')[1];
    await ann.waitForSelector('.event-page[data-status=upcoming] .event-settings');
    assert.equal(await ann.textContent('.event-settings'), 'Arena · AXIO Hex · 3 a table · 3+2 · casual · 45 min');

    // Bo has no rated games: the server refuses him, the page says why in German.
    await bo.goto(`${srv.base}/?lang=de#/event/${eventId}`);
    await bo.waitForSelector('[data-action=join]');
    await bo.click('[data-action=join]');
    await bo.waitForSelector('#event-msg[data-reason=min_rated_games]');
    assert.equal(await bo.textContent('#event-msg'), M('de', 'reason.min_rated_games'));
    assert.equal(await bo.getAttribute('.event-page', 'data-you'), 'no', 'nothing changed');
    await shot(bo, 'event-refused-de-phone');

    // Nobody has joined: Start now is refused, and said so.
    await ann.click('[data-action=start]');
    await ann.waitForSelector('#event-msg[data-code=too_few_players]');
    assert.equal(await ann.textContent('#event-msg'), M('en', 'error.too_few_players'));
    assert.equal(await ann.getAttribute('.event-page', 'data-status'), 'upcoming');
    // Ann cancels: asked first; "Keep it" changes nothing.
    await ann.click('[data-action=cancel-event]');
    await ann.click('.confirm-dialog [data-action=cancel]');
    assert.equal(await ann.getAttribute('.event-page', 'data-status'), 'upcoming');
    await ann.click('[data-action=cancel-event]');
    await ann.click('.confirm-dialog [data-action=confirm-cancel-event]');
    await ann.waitForSelector('.event-page[data-status=cancelled]');
    assert.equal(await ann.textContent('#event-state'), M('en', 'event.status.cancelled'));
    assert.equal(await ann.locator('[data-action=join], [data-action=start], [data-action=cancel-event]').count(), 0);
    await bo.waitForSelector('.event-page[data-status=cancelled]', { timeout: 10000 });
    await ann.goto(`${srv.base}/?lang=en#/events`);
    await ann.waitForSelector(`#events-finished .event-row[data-event="${eventId}"][data-status=cancelled]`);
    assertNoErrors(ann);
    assertNoErrors(bo);
  } finally {
    await browser.close();
    await srv.stop();
  }
});

test('events: an arena pairs again at once: the next game opens by itself over the game just ended', { timeout: 300000 }, async () => {
  const srv = await startServer(['--max-games-per-ip', '1000']);
  const browser = await launch();
  try {
    const ann = await newPage(browser, WIDE_DESKTOP);
    const bo = await newPage(browser, PHONE, TOUCH);
    await ann.addInitScript(countBeeps);
    await signUpHere(ann, srv.base, 'Ann');
    await signUpHere(bo, srv.base, 'Bo', { lang: 'hu' });
    const created = await ann.evaluate(async () => (await fetch('/api/events', {
      method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Evening arena', format: 'arena', variant: 'rota', seats: 2, clock: { kind: 'realtime', base_s: 180, increment_s: 2 }, starts: Date.now() + 600000, duration_s: 1800 }),
    })).json());
    const eventId = created.event.id;
    for (const page of [ann, bo]) {
      await page.goto(`${srv.base}/#/event/${eventId}`);
      await page.click('[data-action=join]');
      await page.waitForSelector('.event-page[data-you=joined]');
    }
    await ann.check('#event-sound');
    await ann.click('[data-action=start]');
    const a1 = await openedGame(ann);
    const b1 = await openedGame(bo);
    assert.equal(a1.id, b1.id);

    // Ann looks at another game of hers meanwhile (against the computer).
    const other = await createGame(ann, { variant: 'square', players: 2, seats: ['human', 'ai:random'], name: null }, srv.base);
    // Bo resigns: both are seated again. Bo's page, on the game just ended, opens the next by
    // itself; Ann's, in another game, offers it in a notice (with the sound).
    await ann.evaluate(() => { window.__oscillators = 0; });
    await bo.click('[data-action=resign]');
    await bo.click('.confirm-dialog [data-action=confirm-resign]');
    await bo.waitForURL((u) => !u.hash.includes(b1.id), { timeout: 40000 });
    const b2 = await openedGame(bo);
    await ann.waitForSelector(`#event-notice:not([hidden]) [data-game="${b2.id}"]`, { timeout: 40000 });
    assert.ok(ann.url().includes(other), 'Ann\'s own game stays in front');
    assert.equal(await ann.textContent('#event-notice .challenge-text'), M('en', 'event.next_notice', { name: 'Evening arena' }));
    await shot(ann, 'event-next-notice-desktop');
    await ann.click('#event-notice [data-action=open-event-game]');
    const a2 = await openedGame(ann);
    assert.ok(await ann.isHidden('#event-notice'));
    assert.equal(a2.id, b2.id, 'paired again together');
    assert.notEqual(a2.id, a1.id);
    assert.ok(await ann.evaluate(() => window.__oscillators) > 0, 'announced by sound again');
    await shot(bo, 'event-arena-next-game-hu-phone');

    // The event's page: the first game counted, no Swiss tie-breaks, the table is Ann's own.
    await ann.goto(`${srv.base}/#/event/${eventId}`);
    await ann.waitForSelector(`#event-tables [data-game="${a2.id}"][data-action=open-my-game]`);
    assert.ok(await points(ann, 'Ann') >= 2, 'Ann won the first table');
    assert.equal(await points(ann, 'Bo'), 0);
    assert.equal(await ann.locator('#event-standings th.tb').count(), 0);
    assert.equal(await ann.textContent('#event-standings tr[data-name=Ann] .event-result'), M('en', 'event.result_arena', { n: 1, place: 1, points: 2 }));
    assert.equal(await ann.getAttribute('#event-yours [data-action=open-my-game]', 'href'), `#/game/${a2.id}?seat=${a2.seat}`);
    await shotBoth(ann, 'event-arena-running');
    // Withdrawing: not paired again; the game being played goes on.
    await ann.click('[data-action=withdraw]');
    await ann.waitForSelector('.event-page[data-you=withdrawn] [data-action=join]');
    assertNoErrors(ann);
    assertNoErrors(bo);
  } finally {
    await browser.close();
    await srv.stop();
  }
});
