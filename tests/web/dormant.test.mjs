// dormant.test.mjs — games nobody finishes (issue 54, item 4; docs/online-play.md "Games
// nobody finishes"): a casual game of two people without a clock that both leave (their
// pages go to the lobby) is no longer in the public Running list after --absent-s, but
// stays in each player's My games, labelled as paused (dormant) with Resume; after
// --waiting-ttl-s with nobody back it is shown as expired. Ann on a desktop in English,
// Bo on a touch phone in Hungarian. Its own server: --absent-s 2 --waiting-ttl-s 12.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, startServer, shot, assertNoErrors, createGame, WIDE_DESKTOP, TOUCH, PHONE } from './lib.mjs';
import { MESSAGES } from '../../web/js/messages.js';

test('dormant: a people-only game everyone left leaves the public list, My games shows it paused, then expired (en/hu)', { timeout: 240000 }, async () => {
  const srv = await startServer(['--absent-s', '2', '--waiting-ttl-s', '12', '--max-games-per-ip', '1000']);
  const browser = await launch();
  try {
    const ann = await newPage(browser, WIDE_DESKTOP);
    const id = await createGame(ann, { variant: 'square', players: 2, seats: ['human', 'human'], name: 'Ann' }, srv.base);
    const bo = await newPage(browser, PHONE, TOUCH);
    await bo.goto(`${srv.base}/?lang=hu#/`);
    await bo.fill('#player-name', 'Bo');
    await bo.locator(`#open-games .game-row[data-game="${id}"] [data-action=join]`).click();
    await bo.waitForSelector('.game:not(.loading) .score-card.you');
    await ann.waitForSelector('.game[data-status=running]');
    // Both go: nobody is connected to the game any more.
    await ann.goto(`${srv.base}/?lang=en#/`);
    await bo.goto(`${srv.base}/?lang=hu#/`);

    for (const [page, lang] of [[ann, 'en'], [bo, 'hu']]) {
      const row = page.locator(`#my-games .game-row[data-game="${id}"]`);
      await page.waitForSelector(`#my-games .game-row[data-game="${id}"][data-dormant="1"]`, { timeout: 30000 });
      assert.equal(await row.getAttribute('data-status'), 'running');
      assert.equal(await row.locator('.dormant-note').textContent(), MESSAGES[lang]['lobby.dormant'], `${lang}: labelled as paused`);
      assert.equal(await row.locator('.dormant-note').getAttribute('title'), MESSAGES[lang]['lobby.dormant_title']);
      assert.equal(await row.locator('[data-action=resume]').count(), 1, `${lang}: it can be resumed`);
      // Gone from the public list (the server leaves dormant games out).
      await page.waitForFunction((g) => !document.querySelector(`#running-games .game-row[data-game="${g}"]`), id, { timeout: 10000 });
    }
    await shot(ann, 'dormant-my-games-desktop');
    await bo.locator('#my-games').scrollIntoViewIfNeeded();
    await shot(bo, 'dormant-my-games-hu-phone');

    // Nobody comes back: expired, and said so.
    for (const [page, lang] of [[ann, 'en'], [bo, 'hu']]) {
      const row = page.locator(`#my-games .game-row[data-game="${id}"]`);
      await page.waitForSelector(`#my-games .game-row[data-game="${id}"][data-status=expired]`, { timeout: 60000 });
      assert.equal(await row.locator('.game-doing').textContent(), MESSAGES[lang]['lobby.expired'], `${lang}: expired`);
      assert.equal(await row.locator('.dormant-note').count(), 0);
      assert.equal(await row.locator('[data-action=resume]').count(), 0, `${lang}: nothing to resume`);
    }
    await shot(ann, 'dormant-expired-desktop');
    await bo.locator('#my-games').scrollIntoViewIfNeeded();
    await shot(bo, 'dormant-expired-hu-phone');
    assertNoErrors(ann);
    assertNoErrors(bo);
  } finally {
    await browser.close();
    await srv.stop();
  }
});
