// abort.test.mjs — a game with (almost) no play is aborted, not resigned (issue 54, item 2;
// docs/online-play.md "Aborting"), and a game ended by a resignation says who resigned:
// - a rated game of two accounts, one tile each: both see Abort (beside Resign); Bo
//   aborts; both end cards say who aborted and that no rating changed, and the server's
//   ratings (GET /api/players) are what they were; the game is "aborted by Bo" in My
//   games. Ann on a desktop in English, Bo on a touch phone in German;
// - Abort goes once a person has placed a second tile (Resign stays);
// - a two-player game that Bo resigns: the end card says "Bo resigned." (and "You
//   resigned." to Bo), not "too few players stayed"; in Hungarian too, and again when the
//   page is opened later; a resignation asked while the game is abortable says aborting
//   is possible instead.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  launch, newPage, startServer, shot, assertNoErrors, createGame, placeOne, waitTurnOrEnd,
  signUpHere, ratingsOf, WIDE_DESKTOP, TOUCH, PHONE,
} from './lib.mjs';
import { MESSAGES } from '../../web/js/messages.js';

const M = (lang, key, params) => { const v = MESSAGES[lang][key]; return typeof v === 'function' ? v(params) : v; };

// Bo joins Ann's waiting game from the lobby's open games (logged in: no name asked).
async function joinFromList(page, base, id, lang) {
  await page.goto(`${base}/?lang=${lang}#/`);
  const row = page.locator(`#open-games .game-row[data-game="${id}"]`);
  await row.waitFor({ timeout: 15000 });
  await row.locator('[data-action=join]').click();
  await page.waitForURL(new RegExp(`#/game/${id}`));
  await page.waitForSelector('.game:not(.loading) .score-card.you');
}

// The one of the two pages whose turn it is places a tile.
async function oneTile(pages) {
  await pages[0].waitForFunction(() => document.querySelector('.game')?.dataset.status === 'running');
  for (;;) {
    for (const p of pages) {
      if (await p.locator('.status-line.your-turn').count()) { await placeOne(p, { firstMove: true }); return p; }
    }
    await pages[0].waitForTimeout(150);
  }
}

test('abort: a rated game aborted after one tile each changes no rating; both cards say who aborted', { timeout: 300000 }, async () => {
  const srv = await startServer(['--max-games-per-ip', '1000']);
  const browser = await launch();
  try {
    const ann = await newPage(browser, WIDE_DESKTOP);
    const bo = await newPage(browser, PHONE, TOUCH);
    await signUpHere(ann, srv.base, 'Ann');
    await signUpHere(bo, srv.base, 'Bo', { lang: 'de' });
    // A rated game of Ann and Bo, each places a tile: the second is no one's yet.
    const id = await createGame(ann, { variant: 'square', players: 2, seats: ['human', 'human'], name: null, clock: 'rapid', rated: true }, srv.base);
    await joinFromList(bo, srv.base, id, 'de');
    await ann.waitForSelector('.game[data-status=running]');
    await oneTile([ann, bo]);
    await oneTile([ann, bo]);
    for (const p of [ann, bo]) {
      await p.waitForSelector('.game-actions [data-action=abort]');
      assert.equal(await p.locator('.game-actions [data-action=resign]').count(), 1, 'Resign stays beside Abort');
    }
    assert.equal(await bo.textContent('.game-actions [data-action=abort]'), MESSAGES.de['abort.button']);
    await shot(ann, 'abort-buttons-desktop');
    await bo.locator('.game-actions').scrollIntoViewIfNeeded();
    await shot(bo, 'abort-buttons-phone');
    const before = { Ann: await ratingsOf(srv.base, 'Ann'), Bo: await ratingsOf(srv.base, 'Bo') };

    // Bo aborts (asked first).
    await bo.click('.game-actions [data-action=abort]');
    await bo.waitForSelector('.confirm-dialog [data-action=confirm-abort]');
    assert.match(await bo.textContent('.confirm-dialog'), new RegExp(M('de', 'abort.ask_rated').slice(0, 20)));
    await bo.click('.confirm-dialog [data-action=confirm-abort]');
    const boSeat = Number(await bo.getAttribute('.score-card.you', 'data-seat'));
    for (const [p, lang, mine] of [[ann, 'en', false], [bo, 'de', true]]) {
      await p.waitForSelector('.game[data-status=aborted]', { timeout: 15000 });
      await p.waitForSelector('.end-host .aborted .aborted-by');
      const by = await p.textContent('.aborted .aborted-by');
      assert.equal(by, mine ? M(lang, 'abort.by_you') : M(lang, 'abort.by', { name: 'Bo' }));
      assert.equal(await p.getAttribute('.aborted .aborted-by', 'data-by'), String(boSeat));
      assert.equal(await p.textContent('.aborted .aborted-note'), M(lang, 'abort.no_rating'));
      assert.ok((await p.textContent('.status-line')).includes(M(lang, 'status.aborted')), 'the status line says so');
      assert.equal(await p.locator('.game-actions [data-action=abort], .game-actions [data-action=resign]').count(), 0, 'nothing left to abort or resign');
      assert.equal(await p.locator('.rack-panel:not([hidden])').count(), 0, 'no rack');
      assert.equal(await p.locator('.aborted [data-action=replay]').count(), 0, 'no record to step through');
    }
    await shot(ann, 'abort-end-desktop');
    await bo.locator('.end-host').scrollIntoViewIfNeeded();
    await shot(bo, 'abort-end-phone');
    // No rating changed, as the server has them.
    assert.deepEqual({ Ann: await ratingsOf(srv.base, 'Ann'), Bo: await ratingsOf(srv.base, 'Bo') }, before, 'ratings unchanged');
    assert.equal(before.Ann.square.games, 0, 'no rated game counted');
    // The card goes with Close and comes back with Results.
    await ann.click('.aborted [data-action=close]');
    await ann.click('[data-action=results]');
    await ann.waitForSelector('.aborted .aborted-by');
    // My games says it was aborted, and by whom.
    await ann.goto(`${srv.base}/?lang=en#/`);
    const row = ann.locator(`#my-games .game-row[data-game="${id}"]`);
    await row.waitFor();
    assert.equal(await row.getAttribute('data-status'), 'aborted');
    assert.equal(await row.locator('.game-doing').textContent(), M('en', 'lobby.aborted_by', { name: 'Bo' }));
    assertNoErrors(ann);
    assertNoErrors(bo);
  } finally {
    await browser.close();
    await srv.stop();
  }
});

test('abort: gone once a person has placed a second tile, Resign stays', { timeout: 300000 }, async () => {
  const srv = await startServer(['--max-games-per-ip', '1000']);
  const browser = await launch();
  try {
    // Against the computer: Abort until the person's second tile, then only Resign.
    const solo = await newPage(browser, WIDE_DESKTOP);
    await createGame(solo, { variant: 'hex', players: 2, seats: ['human', 'ai:random'], name: 'Ann' }, srv.base);
    await solo.waitForSelector('.game-actions [data-action=abort]');
    await placeOne(solo, { firstMove: true });
    await waitTurnOrEnd(solo);
    assert.equal(await solo.locator('.game-actions [data-action=abort]').count(), 1, 'one tile: still abortable');
    await placeOne(solo);
    await solo.waitForFunction(() => !document.querySelector('.game-actions [data-action=abort]'));
    assert.equal(await solo.locator('.game-actions [data-action=resign]').count(), 1, 'Resign stays');
    assertNoErrors(solo);
  } finally {
    await browser.close();
    await srv.stop();
  }
});

test('abort: a two-player game Bo resigns says "Bo resigned." (hu) and "You resigned." (en), not "too few players stayed"', { timeout: 300000 }, async () => {
  const srv = await startServer(['--max-games-per-ip', '1000']);
  const browser = await launch();
  try {
    // Two guests; Bo resigns after the first tile (Resign, not Abort, as he chooses).
    const ann = await newPage(browser, WIDE_DESKTOP);
    const id = await createGame(ann, { variant: 'square', players: 2, seats: ['human', 'human'], name: 'Ann' }, srv.base);
    await ann.goto(`${srv.base}/?lang=hu#/game/${id}`);
    await ann.waitForSelector('.game:not(.loading) .score-card.you');
    const bo = await newPage(browser, PHONE, TOUCH);
    await bo.goto(`${srv.base}/?lang=en#/`);
    await bo.fill('#player-name', 'Bo');
    await bo.locator(`#open-games .game-row[data-game="${id}"] [data-action=join]`).click();
    await bo.waitForSelector('.game:not(.loading) .score-card.you');
    await ann.waitForSelector('.game[data-status=running]');
    await oneTile([ann, bo]);
    await bo.click('.game-actions [data-action=resign]');
    await bo.waitForSelector('.confirm-dialog [data-action=confirm-resign]');
    await bo.click('.confirm-dialog [data-action=confirm-resign]');
    await ann.waitForSelector('.end-dialog .end-reason', { timeout: 15000 });
    await bo.waitForSelector('.end-dialog .end-reason', { timeout: 15000 });
    assert.equal(await ann.textContent('.end-dialog .end-reason'), M('hu', 'end.left.resign', { name: 'Bo' }));
    assert.equal(await bo.textContent('.end-dialog .end-reason'), M('en', 'end.you_left.resign'));
    assert.ok(!(await ann.textContent('.end-dialog')).includes(M('hu', 'end.reason.left')), 'not "too few players stayed"');
    await shot(ann, 'abort-resigned-hu-desktop');
    await bo.locator('.end-host').scrollIntoViewIfNeeded();
    await shot(bo, 'abort-resigned-phone');
    // Opened again later (the state comes before the history): the same words.
    await ann.reload();
    await ann.waitForSelector('.end-dialog .end-reason');
    await ann.waitForFunction((want) => document.querySelector('.end-dialog .end-reason').textContent === want, M('hu', 'end.left.resign', { name: 'Bo' }));
    // Logged in now, the card opened at once with the page offers no sign-up (the state
    // may come before the page knows who is logged in).
    await signUpHere(ann, srv.base, 'Ann', { lang: 'hu', hash: `#/game/${id}` });
    await ann.waitForSelector('.end-dialog .end-reason');
    await ann.waitForTimeout(500);
    assert.equal(await ann.locator('.end-dialog .end-signup').count(), 0, 'no sign-up offer for an account');
    // While abortable, the question says aborting is possible instead.
    const cy = await newPage(browser, WIDE_DESKTOP);
    await createGame(cy, { variant: 'rota', players: 2, seats: ['human', 'ai:random'], name: 'Cy' }, srv.base);
    await cy.click('.game-actions [data-action=resign]');
    await cy.waitForSelector('.confirm-dialog [data-action=confirm-resign]');
    assert.ok((await cy.textContent('.confirm-dialog')).includes(M('en', 'abort.instead')), 'the question offers aborting');
    assertNoErrors(cy);
    assertNoErrors(ann);
    assertNoErrors(bo);
  } finally {
    await browser.close();
    await srv.stop();
  }
});
