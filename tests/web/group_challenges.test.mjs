// group_challenges.test.mjs — a challenge to two players at once for a game of three (issue
// 49; docs/accounts.md "Challenges and quick pairing"), people only, on a server of the
// test's own: Ann (desktop, English) challenges Bo and Cy from Bo's profile (Players 3 and a
// second name). Bo (phone, German) sees it in his lobby with who is asked; he accepts first:
// his page says the game waits for the others, his line says he accepted and Cy is awaited,
// no second Accept; Ann's line says the same. Cy (through the API) accepts last: the game
// opens on Ann's and on Bo's page, each seated by the session, three seats.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, startServer, shot, assertNoErrors, signUpHere, WIDE_DESKTOP, TOUCH, PHONE, PASSWORD } from './lib.mjs';
import { MESSAGES } from '../../web/js/messages.js';

const M = (lang, key, params) => { const v = MESSAGES[lang][key]; return typeof v === 'function' ? v(params) : v; };

async function call(base, method, p, body, cookie = null) {
  const headers = {};
  if (body) headers['Content-Type'] = 'application/json';
  if (cookie) headers.Cookie = cookie;
  const res = await fetch(`${base}${p}`, { method, headers, body: body ? JSON.stringify(body) : undefined });
  const text = await res.text();
  const set = res.headers.get('set-cookie');
  return { status: res.status, body: text ? JSON.parse(text) : null, cookie: set ? set.split(';')[0] : null };
}

async function seated(page) {
  await page.waitForURL(/#\/game\//, { timeout: 30000 });
  await page.waitForSelector('.game:not(.loading) .score-card.you', { timeout: 15000 });
  return page.url().split('#/game/')[1].split(/[?/]/)[0];
}

const lineText = (page, sel) => page.evaluate((s) => document.querySelector(s)?.textContent || '', sel);

test('group challenge: two invited, the first to accept waits, the last one\'s acceptance opens the game for all', { timeout: 240000 }, async () => {
  const srv = await startServer(['--max-games-per-ip', '1000']);
  const browser = await launch();
  try {
    const cy = await call(srv.base, 'POST', '/api/accounts', { name: 'Cy', password: PASSWORD });
    assert.equal(cy.status, 201);
    const ann = await newPage(browser, WIDE_DESKTOP);
    const bo = await newPage(browser, PHONE, TOUCH);
    await signUpHere(bo, srv.base, 'Bo', { lang: 'de' });
    await signUpHere(ann, srv.base, 'Ann', { hash: '#/player/Bo' });

    // Ann: Bo's profile, Players 3, Cy as the second name.
    await ann.waitForSelector('#challenge-players');
    await ann.selectOption('#challenge-players', '3');
    await ann.fill('#challenge-also-0', 'Cy');
    await ann.selectOption('#challenge-clock', 'rapid');
    await ann.click('[data-action=send-challenge]');
    const sentSel = '.challenge-line.sent';
    await ann.waitForSelector(sentSel);
    assert.ok((await lineText(ann, sentSel)).includes(M('en', 'group.waiting_for', { names: 'Bo and Cy' })));

    // Bo: his lobby lists it with who else is asked; he accepts first.
    const recvSel = '#challenges .challenge-line.received[data-status=open]';
    await bo.waitForSelector(`${recvSel} [data-action=accept]`, { timeout: 15000 });
    const terms = await lineText(bo, recvSel);
    assert.ok(terms.startsWith(M('de', 'group.from', { name: 'Ann', others: 'Cy', terms: '' }).replace(/: $/, '')), terms);
    await shot(bo, 'group-challenge-received-phone');
    await bo.click(`${recvSel} [data-action=accept]`);
    await bo.waitForFunction((want) => document.querySelector('.challenges-box .form-msg')?.textContent === want, M('de', 'group.wait_others'));
    const waiting = `${M('de', 'group.accepted_so_far', { names: M('de', 'group.you') })}; ${M('de', 'group.waiting_for', { names: 'Cy' })}`;
    await bo.waitForFunction(([s, want]) => document.querySelector(s)?.textContent.includes(want), [recvSel, waiting], { timeout: 15000 });
    assert.equal(await bo.locator(`${recvSel} [data-action=accept]`).count(), 0, 'no second Accept');
    assert.ok(bo.url().endsWith('#/'), 'still in the lobby');
    const annWaiting = `${M('en', 'group.accepted_so_far', { names: 'Bo' })}; ${M('en', 'group.waiting_for', { names: 'Cy' })}`;
    await ann.waitForFunction(([s, want]) => document.querySelector(s)?.textContent.includes(want), [sentSel, annWaiting], { timeout: 15000 });
    await shot(ann, 'group-challenge-sent-desktop');

    // Cy accepts last: the game is made and opens on both pages.
    const cid = (await call(srv.base, 'GET', '/api/me/challenges', null, cy.cookie)).body.received[0].id;
    const last = await call(srv.base, 'POST', `/api/challenges/${cid}/accept`, {}, cy.cookie);
    assert.equal(last.status, 200, JSON.stringify(last.body));
    assert.ok(last.body.game);
    const [a, b] = await Promise.all([seated(ann), seated(bo)]);
    assert.equal(a, last.body.game);
    assert.equal(b, last.body.game);
    const game = (await call(srv.base, 'GET', `/api/games/${a}`)).body;
    assert.equal(game.players, 3);
    assert.deepEqual(game.seats.map((s) => s.name).sort(), ['Ann', 'Bo', 'Cy']);
    assert.equal(await ann.locator('.score-card').count(), 3);
    await shot(bo, 'group-challenge-game-phone');
    assertNoErrors(ann);
    assertNoErrors(bo);
  } finally {
    await browser.close();
    await srv.stop();
  }
});
