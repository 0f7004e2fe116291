// online_lobby.test.mjs — waiting games that end before they start, on a server of
// the test's own with a short --waiting-ttl-s: the creator cancels one from the
// lobby and one from its page (a spectator sees it too), and one expires after its
// creator closed the tab. Such games leave the lobby and their page says why.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, createGame, startServer, apiCall, shotBoth, assertNoErrors, PHONE } from './lib.mjs';

const TTL = 6;

test('lobby: cancelled and expired games leave the lobby and say so', { timeout: 180000 }, async () => {
  const srv = await startServer(['--waiting-ttl-s', String(TTL)]);
  const browser = await launch();
  const status = async (id) => (await apiCall(srv.base, 'GET', `/api/games/${id}`)).body?.status;
  try {
    const ann = await newPage(browser);
    const cy = await newPage(browser, PHONE);

    // 1. Cancel from the lobby: only the creator's browser shows the button. Ann's
    // game page stays open in another tab (so the game does not expire meanwhile).
    const g1 = await createGame(ann, { variant: 'square', players: 2, seats: ['human', 'human'], name: 'Ann' }, srv.base);
    const lobby = await ann.context().newPage();
    lobby.errors = [];
    lobby.on('pageerror', (e) => lobby.errors.push(e.message));
    await lobby.goto(`${srv.base}/#/`);
    const row = lobby.locator(`#my-games .game-row[data-game="${g1}"]`);
    await row.waitFor({ timeout: 5000 });
    assert.match(await row.textContent(), /just now/);
    await cy.goto(`${srv.base}/#/`);
    await cy.locator(`#open-games .game-row[data-game="${g1}"]`).waitFor({ timeout: 5000 });
    assert.equal(await cy.locator(`.game-row[data-game="${g1}"] [data-action=cancel]`).count(), 0, 'no Cancel for others');
    await shotBoth(lobby, 'lobby-cancel');
    await row.locator('[data-action=cancel]').click();
    await lobby.click('.confirm-dialog [data-action=confirm-cancel]');   // it asks first
    await lobby.waitForFunction((g) => !document.querySelector(`.game-row[data-game="${g}"]`), g1, { timeout: 8000 });
    await cy.locator(`#open-games .game-row[data-game="${g1}"]`).waitFor({ state: 'detached', timeout: 8000 });
    assert.equal(await status(g1), 'cancelled');
    await ann.waitForSelector('.gone[data-gone=cancelled]', { timeout: 10000 });   // the open game page follows
    await lobby.close();

    // 2. Cancel from the game page while someone watches: both pages say so.
    const g2 = await createGame(ann, { variant: 'hex', players: 2, seats: ['human', 'human'], name: 'Ann' }, srv.base);
    await cy.goto(`${srv.base}/#/watch/${g2}`);
    await cy.waitForSelector('.game:not(.loading) .board-svg');
    await ann.click('[data-action=cancel-game]');
    await ann.click('.confirm-dialog [data-action=confirm-cancel]');
    for (const p of [ann, cy]) {
      await p.waitForSelector('.gone[data-gone=cancelled]', { timeout: 10000 });
      assert.match(await p.textContent('.gone'), /This game was cancelled/);
    }
    assert.equal(await status(g2), 'cancelled');

    // 3. Expiry: the creator closes the tab; a spectator's page and the lobby follow.
    const annCtx2 = await browser.newContext();
    const ann2 = await annCtx2.newPage();
    const g3 = await createGame(ann2, { variant: 'rota', players: 2, seats: ['human', 'human'], name: 'Ann' }, srv.base);
    await cy.goto(`${srv.base}/#/watch/${g3}`);
    await cy.waitForSelector('.game:not(.loading) .board-svg');
    const bo = await newPage(browser);
    await bo.goto(`${srv.base}/#/`);
    await bo.locator(`#open-games .game-row[data-game="${g3}"]`).waitFor({ timeout: 5000 });
    await annCtx2.close();
    await bo.locator(`#open-games .game-row[data-game="${g3}"]`).waitFor({ state: 'detached', timeout: (TTL + 10) * 1000 });
    assert.equal(await status(g3), 'expired');
    try {
      await cy.waitForSelector('.gone[data-gone=expired]', { timeout: 5000 });
    } catch {
      await cy.reload();      // the server may not tell watchers; a reload must show it
      await cy.waitForSelector('.gone[data-gone=expired]', { timeout: 10000 });
    }
    assert.match(await cy.textContent('.gone'), /This game expired/);
    await shotBoth(cy, 'game-expired');

    // An invitation to the expired game leads to the same page.
    await bo.goto(`${srv.base}/#/join/${g3}`);
    await bo.waitForSelector('.gone[data-gone=expired]', { timeout: 10000 });
    for (const p of [ann, cy, bo, lobby]) assertNoErrors(p);
  } finally {
    await browser.close();
    await srv.stop();
  }
});
