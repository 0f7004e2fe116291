// undo.test.mjs — taking back a move against the computer (issue 54, item 7; docs/online-
// play.md "Taking back"): in a casual game against the computer without a clock, Undo
// (after one's first decision) takes back one's last move and the computer's reply: the
// page redraws the lower ply's board, rack and move log from the server's state and
// history, with nothing of the later position left (no pick, no preview, no decision
// being sent), and play goes on from there. Desktop in English, a touch phone in German
// (tapping). Never offered in a rated game, with a clock, or with another person.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  launch, newPage, startServer, shot, assertNoErrors, createGame, placeOne, waitTurnOrEnd, cellInSight,
  signUpHere, WIDE_DESKTOP, TOUCH, PHONE,
} from './lib.mjs';
import { MESSAGES } from '../../web/js/messages.js';

const rack = (page) => page.$$eval('.rack-tile', (els) => els.map((e) => e.dataset.tile));
const tilesOnBoard = (page) => page.locator('.layer-tiles [data-half]').count();
const logRows = (page) => page.$$eval('#log li', (lis) => lis.map((li) => li.className));

// A move by tapping on a touch phone: the Hint's tile, tapped where it is shown.
async function tapHinted(page) {
  const st = await waitTurnOrEnd(page);
  await page.click('[data-action=hint]');
  const key = await (await page.waitForFunction(() => { const el = document.getElementById('preview'); return el?.dataset.state === 'legal' ? el.dataset.key : null; }, null, { timeout: 30000 })).jsonValue();
  // In the middle of the screen first (the page may be scrolled down to Undo): a tap off
  // the screen is lost, and so is one at its top edge, under the page's sticky header.
  const p = await cellInSight(page, key);
  await page.touchscreen.tap(p.x, p.y);
  await page.waitForFunction((b) => Number(document.querySelector('.game').dataset.seq) > b, st.seq, { timeout: 15000 });
}

for (const [lang, size, viewport, extra] of [['en', 'desktop', WIDE_DESKTOP, {}], ['de', 'phone', PHONE, TOUCH]]) {
  test(`undo: a casual game against the computer takes back the last move and redraws it (${lang}, ${size})`, { timeout: 240000 }, async () => {
    const srv = await startServer(['--max-games-per-ip', '1000']);
    const browser = await launch();
    try {
      const page = await newPage(browser, viewport, extra);
      await page.goto(`${srv.base}/?lang=${lang}#/`);
      await createGame(page, { variant: 'square', players: 2, seats: ['human', 'ai:greedy'], name: 'Ann' }, srv.base);
      const me = Number(await page.getAttribute('.score-card.you', 'data-seat'));
      await waitTurnOrEnd(page);
      assert.ok(await page.locator('[data-action=undo]').isHidden(), 'nothing to take back yet');
      const rack0 = await rack(page);
      const log0 = await logRows(page);
      // Ann places a tile; the computer answers.
      if (size === 'phone') await tapHinted(page); else await placeOne(page, { firstMove: true });
      await waitTurnOrEnd(page);
      await page.waitForFunction(() => !document.querySelector('[data-action=undo]').disabled);
      assert.equal(await page.textContent('[data-action=undo]'), MESSAGES[lang]['undo.button']);
      assert.ok(await tilesOnBoard(page) >= 4, 'two tiles on the board');
      // (Not that the rack changed: the tile drawn may be one like the tile placed, in its slot.)
      assert.ok((await logRows(page)).length > log0.length);
      // A tile picked (a half-made decision) when Undo is pressed.
      await page.click('.rack-tile[data-index="0"]');
      await page.locator('[data-action=undo]').scrollIntoViewIfNeeded();
      await shot(page, `undo-before-${lang}-${size}`);
      await page.click('[data-action=undo]');
      // The game as it was before Ann's move: board, rack and log from the server (its
      // state after a take-back has the lower ply; its seq need not grow).
      await page.waitForFunction(() => !document.querySelector('.layer-tiles [data-half]'), null, { timeout: 15000 });
      await page.waitForFunction((n) => document.querySelectorAll('#log li').length === n, log0.length);
      assert.deepEqual(await rack(page), rack0, 'the rack of the start again');
      assert.deepEqual(await logRows(page), log0, 'the log of the start again');
      assert.equal(await page.locator(`#log .log-place[data-player="${me}"]`).count(), 0);
      assert.equal(await page.getAttribute('.rack-panel', 'data-selected'), '', 'no tile picked');
      assert.equal(await page.getAttribute('#preview', 'data-state'), 'none', 'no preview');
      assert.equal(await page.locator('.layer-overlay > *').count(), 0, 'nothing drawn over the board');
      assert.ok(await page.locator('.status-line.your-turn').count(), 'her turn');
      assert.ok(await page.locator('[data-action=undo]').isHidden(), 'nothing left to take back');
      assert.match(await page.textContent('.toast-host'), new RegExp(MESSAGES[lang]['undo.done']));
      await shot(page, `undo-after-${lang}-${size}`);
      // Play goes on from there.
      if (size === 'phone') await tapHinted(page); else await placeOne(page, { firstMove: true });
      await waitTurnOrEnd(page);
      assert.equal(await page.locator(`#log .log-place[data-player="${me}"]`).count(), 1);
      assertNoErrors(page);
    } finally {
      await browser.close();
      await srv.stop();
    }
  });
}

test('undo: never in a rated game, with a clock, or with another person', { timeout: 240000 }, async () => {
  const srv = await startServer(['--max-games-per-ip', '1000']);
  const browser = await launch();
  try {
    const page = await newPage(browser, WIDE_DESKTOP);
    // With a clock (casual, against the computer).
    await createGame(page, { variant: 'hex', players: 2, seats: ['human', 'ai:random'], name: 'Ann', clock: 'rapid' }, srv.base);
    await placeOne(page, { firstMove: true });
    await waitTurnOrEnd(page);
    assert.ok(await page.locator('[data-action=undo]').isHidden(), 'no take-back with a clock');
    // Rated.
    await signUpHere(page, srv.base, 'Ann');
    await createGame(page, { variant: 'hex', players: 2, seats: ['human', 'ai:random'], name: null, clock: 'daily', rated: true }, srv.base);
    await placeOne(page, { firstMove: true });
    await waitTurnOrEnd(page);
    assert.ok(await page.locator('[data-action=undo]').isHidden(), 'no take-back in a rated game');
    // With a person.
    const id = await createGame(page, { variant: 'hex', players: 2, seats: ['human', 'human'], name: null }, srv.base);
    const bo = await newPage(browser, PHONE);
    await bo.goto(`${srv.base}/#/`);
    await bo.fill('#player-name', 'Bo');
    await bo.locator(`#open-games .game-row[data-game="${id}"] [data-action=join]`).click();
    await bo.waitForSelector('.game:not(.loading) .score-card.you');
    await page.waitForSelector('.game[data-status=running]');
    const first = (await page.locator('.status-line.your-turn').count()) ? page : bo;
    await placeOne(first, { firstMove: true });
    assert.ok(await first.locator('[data-action=undo]').isHidden(), 'no take-back with a person');
    assertNoErrors(page);
    assertNoErrors(bo);
  } finally {
    await browser.close();
    await srv.stop();
  }
});
