// online_rematch.test.mjs — after a game: a rematch from the end screen (one asks,
// the other joins with one click, seats rotate); the turn alerts (title, icon, a
// notification only after the player switched it on, never asked on load); the
// lobby's "My games" with "your turn", and the finished games with a replay that
// opens for a spectator.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, createGame, joinFromLobby, placeOne, BASE, shotBoth, shot, assertNoErrors, PHONE } from './lib.mjs';

// A Notification that records what was shown, and a switch for document.hidden.
const FAKE_NOTIFICATIONS = () => {
  window.__notes = [];
  window.__asked = 0;
  class FakeNotification {
    constructor(title, opts) { window.__notes.push({ title, body: opts?.body }); }
    close() {}
    static requestPermission() { window.__asked++; FakeNotification.permission = 'granted'; return Promise.resolve('granted'); }
  }
  FakeNotification.permission = 'default';
  window.Notification = FakeNotification;
  Object.defineProperty(document, 'hidden', { configurable: true, get: () => window.__hidden === true });
};

test('rematch: from the end screen, the other joins with one click; lobby lists; replay for a spectator', { timeout: 240000 }, async () => {
  const browser = await launch();
  try {
    const ann = await newPage(browser);
    const old = await createGame(ann, { variant: 'hex', players: 2, seats: ['human', 'human'], name: 'Ann' });
    const bo = await newPage(browser);
    await bo.context().addInitScript(FAKE_NOTIFICATIONS);
    await joinFromLobby(bo, old, 'Bo');
    await ann.waitForFunction(() => document.querySelector('.game').dataset.status === 'running');

    // Bo turns on the sound and the notifications: permission is asked only now.
    assert.equal(await bo.evaluate(() => window.__asked), 0, 'no permission prompt on load');
    await bo.check('#alert-sound');
    await bo.check('#alert-notify');
    await bo.waitForFunction(() => document.getElementById('alert-notify').checked);
    assert.equal(await bo.evaluate(() => window.__asked), 1);
    assert.deepEqual(await bo.evaluate(() => [localStorage.getItem('axio.sound'), localStorage.getItem('axio.notify')]), ['1', '1']);
    await bo.evaluate(() => { window.__hidden = true; });
    await placeOne(ann, { firstMove: true });
    await bo.waitForFunction(() => document.title.startsWith('▶ Your turn'));
    const notes = await bo.evaluate(() => window.__notes);
    assert.equal(notes.length, 1, 'one notification when the turn came while the tab was hidden');
    assert.equal(notes[0].title, 'Your turn');
    await bo.evaluate(() => { window.__hidden = false; });

    // Bo resigns; the game is over.
    await bo.click('[data-action=resign]');
    await bo.click('.confirm-dialog [data-action=confirm-resign]');
    for (const p of [ann, bo]) await p.waitForSelector('.end-dialog [data-action=rematch]');
    assert.doesNotMatch(await bo.title(), /Your turn/, 'no turn once the game is over');

    // Ann asks for a rematch and lands on the new game, waiting for Bo.
    await ann.click('.end-dialog [data-action=rematch]');
    await ann.waitForURL((u) => /#\/game\//.test(u.hash) && !u.hash.includes(old));
    const fresh = ann.url().split('#/game/')[1];
    await ann.waitForSelector('.status-line.waiting');
    assert.match(await ann.textContent('.status-line'), /accept the rematch/);
    assert.equal(await ann.getAttribute('.score-card.you', 'data-seat'), '1', 'Ann moves on by one seat');

    // Bo sees the offer on the end screen and joins with one click.
    const offer = bo.locator('.end-dialog .end-rematch');
    await offer.locator('[data-action=join-rematch]').waitFor({ timeout: 10000 });
    assert.match(await offer.textContent(), /Ann wants a rematch/);
    assert.match(await bo.textContent('#rematch-box'), /Ann wants a rematch/);
    await shotBoth(bo, 'rematch-offer');
    await offer.locator('[data-action=join-rematch]').click();
    await bo.waitForURL(new RegExp(`#/game/${fresh}`));
    await bo.waitForSelector('.score-card.you[data-seat="0"]');
    for (const p of [ann, bo]) await p.waitForFunction(() => document.querySelector('.game').dataset.status === 'running');
    await bo.waitForFunction(() => document.title.startsWith('▶ Your turn'));
    await placeOne(bo, { firstMove: true });
    await ann.waitForFunction(() => document.title.startsWith('▶ Your turn'));

    // The lobby: "My games" says whose turn it is; the finished game has a Replay link.
    await bo.goto(`${BASE}/#/`);
    const mine = bo.locator(`#my-games .game-row[data-game="${fresh}"]`);
    await mine.waitFor({ timeout: 10000 });
    assert.match(await mine.textContent(), /Ann to move/);
    await ann.goto(`${BASE}/#/`);
    const annRow = ann.locator(`#my-games .game-row[data-game="${fresh}"]`);
    await annRow.waitFor({ timeout: 10000 });
    assert.ok(await annRow.evaluate((e) => e.classList.contains('your-turn')), '"your turn" is highlighted');
    assert.match(await annRow.textContent(), /your turn/);
    const fin = ann.locator(`#finished-games .game-row[data-game="${old}"]`);
    await fin.waitFor({ timeout: 15000 });
    assert.match(await fin.textContent(), /won by Ann/);
    await shotBoth(ann, 'lobby-online');

    // Someone else opens the replay of the finished game.
    const cy = await newPage(browser, PHONE);
    await cy.goto(`${BASE}/#/`);
    const cyRow = cy.locator(`#finished-games .game-row[data-game="${old}"]`);
    await cyRow.waitFor({ timeout: 15000 });
    await cyRow.locator('[data-action=replay]').click();
    await cy.waitForURL(new RegExp(`#/game/${old}$`));
    await cy.waitForSelector('.end-dialog');
    assert.equal(await cy.locator('.end-dialog [data-action=rematch]').count(), 0, 'no rematch for a spectator');
    assert.match(await cy.textContent('.end-dialog'), /left: resigned/);
    await cy.click('.end-dialog [data-action=replay]');
    await cy.waitForSelector('.replay-bar');
    await cy.click('.replay-bar [data-action=last]');
    await cy.waitForSelector('.layer-tiles [data-half]');
    await shot(cy, 'replay-spectator-phone');
    // #/game/ID/replay opens the replay at once.
    await cy.goto(`${BASE}/#/game/${old}/replay`);
    await cy.waitForSelector('.replay-bar');
    assert.equal(await cy.locator('.end-dialog').count(), 0, 'straight to the replay');
    for (const p of [ann, bo, cy]) assertNoErrors(p);
  } finally {
    await browser.close();
  }
});
