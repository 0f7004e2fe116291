// devices.test.mjs — a signed-in player's seats follow the account (issue 54, item 1;
// docs/accounts.md "Your games on every device"): Ann creates a rated game against the
// computer on her desktop (1366×800) and plays her first tile; on a second device (a
// touch phone, another browser context: nothing in its localStorage) she logs in, finds
// the game in My games (from GET /api/me/games, with Resume, not Watch), opens it — the
// page holds no seat token and offers none, the session takes her seat — and places a
// tile there, which the desktop sees. My games lists the game once where the browser
// has a token too; a guest opening the game only watches. The phone in German.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  launch, newPage, startServer, shot, assertNoErrors, createGame, placeOne, waitTurnOrEnd,
  signUpHere, logInHere, WIDE_DESKTOP, TOUCH, PHONE,
} from './lib.mjs';
import { MESSAGES } from '../../web/js/messages.js';

test('devices: the second device resumes the seat of a rated game with the session alone and moves', { timeout: 300000 }, async () => {
  const srv = await startServer(['--max-games-per-ip', '1000']);
  const browser = await launch();
  try {
    // The desktop: Ann signs up and creates a rated game against the computer.
    const desk = await newPage(browser, WIDE_DESKTOP);
    await signUpHere(desk, srv.base, 'Ann');
    const id = await createGame(desk, { variant: 'square', players: 2, seats: ['human', 'ai:random'], name: null, clock: 'daily', rated: true }, srv.base);
    const mySeat = Number(await desk.getAttribute('.score-card.you', 'data-seat'));
    await placeOne(desk, { firstMove: true });
    const pub = await (await fetch(`${srv.base}/api/games/${id}`)).json();
    assert.equal(pub.rated, true);
    assert.equal(pub.seats[mySeat].account, true, 'the seat is bound to the account');
    // On the desktop, My games has it once (token and account alike).
    await desk.goto(`${srv.base}/?lang=en#/`);
    await desk.waitForSelector(`#my-games .game-row[data-game="${id}"]`);
    assert.equal(await desk.locator(`#my-games .game-row[data-game="${id}"]`).count(), 1, 'listed once');

    // The phone: another browser, nothing stored; Ann logs in there.
    const phone = await newPage(browser, PHONE, TOUCH);
    await logInHere(phone, srv.base, 'Ann', { lang: 'de' });
    await phone.goto(`${srv.base}/?lang=de#/`);
    const row = phone.locator(`#my-games .game-row[data-game="${id}"]`);
    await row.waitFor({ timeout: 15000 });
    assert.equal(await row.getAttribute('data-seat'), String(mySeat), 'the account\'s seat');
    assert.equal(await row.locator('[data-action=resume]').count(), 1, 'Resume');
    assert.equal(await row.locator('[data-action=watch]').count(), 0, 'not Watch: it is her game');
    assert.equal(await row.locator('[data-action=resume]').textContent(), MESSAGES.de['lobby.resume']);
    await row.scrollIntoViewIfNeeded();
    await shot(phone, 'devices-my-games-phone');
    // The public Running list offers her own game to resume too, not to watch.
    const pubRow = phone.locator(`#running-games .game-row[data-game="${id}"]`);
    await pubRow.waitFor();
    assert.equal(await pubRow.locator('[data-action=watch]').count(), 0);
    assert.equal(await pubRow.locator('[data-action=resume]').count(), 1);

    await row.locator('[data-action=resume]').click();
    await phone.waitForURL(new RegExp(`#/game/${id}\\?seat=${mySeat}$`));
    await phone.waitForSelector('.game:not(.loading) .score-card.you');
    assert.equal(Number(await phone.getAttribute('.score-card.you', 'data-seat')), mySeat, 'her seat, not a spectator\'s view');
    assert.equal(await phone.evaluate((g) => localStorage.getItem(`axio.token.${g}`), id), null, 'no seat token on this device');
    assert.equal(await phone.locator('.watch-note:not([hidden])').count(), 0, 'not watching');
    assert.ok(await phone.locator('.rack-tile').count() > 0, 'her rack');
    const mine = (page) => page.locator(`#log .log-place[data-player="${mySeat}"]`).count();
    assert.equal(await mine(phone), 1, 'the first tile, placed on the desktop, in the log');
    await desk.goto(`${srv.base}/?lang=en#/game/${id}`);
    await desk.waitForSelector('.game:not(.loading) .score-card.you');
    const seqBefore = Number(await desk.getAttribute('.game', 'data-seq'));
    await waitTurnOrEnd(phone);
    await shot(phone, 'devices-resumed-phone');
    await placeOne(phone);
    await phone.waitForFunction((s) => document.querySelectorAll(`#log .log-place[data-player="${s}"]`).length >= 2, mySeat);
    // The desktop sees it.
    await desk.waitForFunction((b) => Number(document.querySelector('.game').dataset.seq) > b, seqBefore, { timeout: 15000 });
    await desk.waitForFunction((s) => document.querySelectorAll(`#log .log-place[data-player="${s}"]`).length >= 2, mySeat);
    await shot(desk, 'devices-desktop-after');

    // A guest with no token only watches.
    const guest = await newPage(browser, WIDE_DESKTOP);
    await guest.goto(`${srv.base}/?lang=en#/game/${id}`);
    await guest.waitForSelector('.game:not(.loading) .board-svg');
    await guest.waitForSelector('.watch-note:not([hidden])');
    assert.equal(await guest.locator('.score-card.you').count(), 0);

    assertNoErrors(desk);
    assertNoErrors(phone);
    assertNoErrors(guest);
  } finally {
    await browser.close();
    await srv.stop();
  }
});
