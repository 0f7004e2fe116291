// online_chat.test.mjs — the chat of a game between two players and a spectator:
// messages reach everyone, markup stays text, the unread badge while the panel is
// closed, the history after a reload, the server's errors (too many messages)
// shown, and the panel on a phone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, createGame, joinFromLobby, BASE, shotBoth, shot, assertNoErrors, PHONE } from './lib.mjs';

const EVIL = '<b>x</b><script>alert(1)</script><img src=x onerror="window.__pwned=1">';

async function openChat(page) {
  if (!(await page.locator('#chat.open').count())) await page.click('#chat [data-action=chat-toggle]');
  await page.waitForSelector('#chat.open .chat-input');
}

async function say(page, text) {
  await openChat(page);
  await page.fill('#chat .chat-input', text);
  await page.press('#chat .chat-input', 'Enter');
}

const texts = (page) => page.$$eval('#chat .chat-msg .chat-text', (els) => els.map((e) => e.textContent));

test('chat: two players and a spectator; text stays text; unread badge; history; errors', { timeout: 180000 }, async () => {
  const browser = await launch();
  try {
    const ann = await newPage(browser);
    const id = await createGame(ann, { variant: 'square', players: 2, seats: ['human', 'human'], name: 'Ann' });
    const bo = await newPage(browser, PHONE, { hasTouch: true, isMobile: true });
    await joinFromLobby(bo, id, 'Bo');
    const cy = await newPage(browser);
    await cy.goto(`${BASE}/#/watch/${id}`);
    await cy.waitForSelector('.game:not(.loading) .board-svg');
    for (const p of [ann, bo, cy]) p.on('dialog', (d) => { p.errors.push(`a dialog opened: ${d.message()}`); d.dismiss(); });

    // The panel starts closed; Ann writes markup, it arrives as text everywhere.
    assert.equal(await bo.locator('#chat.open').count(), 0, 'the chat starts closed');
    await say(ann, EVIL);
    await ann.waitForFunction((t) => [...document.querySelectorAll('#chat .chat-text')].some((e) => e.textContent === t), EVIL);
    await bo.waitForSelector('#chat .chat-badge:not([hidden])');
    assert.equal(await bo.textContent('#chat .chat-badge'), '1');
    assert.ok(await bo.locator('.chat-fab').isVisible(), 'the phone shows a chat button with the count');
    await shotBoth(bo, 'chat-unread');
    await bo.click('.chat-fab');
    await bo.waitForSelector('#chat.open');
    assert.ok(await bo.locator('#chat .chat-badge').isHidden(), 'opening clears the badge');
    for (const p of [ann, bo, cy]) {
      await p.waitForFunction(() => document.querySelectorAll('#chat .chat-msg').length >= 1);
      assert.deepEqual(await texts(p), [EVIL]);
      assert.equal(await p.locator('#chat .chat-list b:not(.chat-from), #chat .chat-list script, #chat .chat-list img').count(), 0, 'no markup made elements');
      assert.equal(await p.evaluate(() => window.__pwned), undefined);
    }
    assert.match(await cy.textContent('#chat .chat-msg .chat-from'), /^Ann$/);
    assert.match(await ann.textContent('#chat .chat-msg .chat-from'), /Ann \(you\)/);

    // Bo answers from the phone, Cy from the spectators' side.
    await say(bo, 'Hi Ann — good luck! 🎲');
    await say(cy, 'hello from the audience');
    for (const p of [ann, bo, cy]) {
      await p.waitForFunction(() => document.querySelectorAll('#chat .chat-msg').length >= 3);
      assert.deepEqual(await texts(p), [EVIL, 'Hi Ann — good luck! 🎲', 'hello from the audience']);
    }
    assert.match(await ann.textContent('#chat .chat-msg.spectator .chat-from'), /spectator/);
    await shotBoth(ann, 'chat-open');
    await shot(bo, 'chat-phone');

    // The input takes at most 500 characters.
    await openChat(ann);
    await ann.fill('#chat .chat-input', 'y'.repeat(600));
    assert.equal((await ann.inputValue('#chat .chat-input')).length, 500);
    await ann.fill('#chat .chat-input', '');

    // Too many messages at once: the server refuses some and the page says so.
    await openChat(cy);
    for (let i = 0; i < 7; i++) {
      await cy.fill('#chat .chat-input', `spam ${i}`);
      await cy.press('#chat .chat-input', 'Enter');
    }
    await cy.waitForSelector('#chat .chat-error:not([hidden])', { timeout: 10000 });
    assert.match(await cy.textContent('#chat .chat-error'), /Slow down/);
    await shot(cy, 'chat-rate-limited-desktop');

    // A reload brings the history back.
    await ann.reload();
    await ann.waitForSelector('.game:not(.loading) .board-svg');
    await openChat(ann);
    await ann.waitForFunction(() => document.querySelectorAll('#chat .chat-msg').length >= 3);
    const again = await texts(ann);
    assert.deepEqual(again.slice(0, 3), [EVIL, 'Hi Ann — good luck! 🎲', 'hello from the audience']);
    for (const p of [ann, bo, cy]) assertNoErrors(p);
  } finally {
    await browser.close();
  }
});
