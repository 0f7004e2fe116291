// security.test.mjs — what a browser shows of the server's protections: the seat token
// travels in a header (the offered WebSocket subprotocols), never in a URL that proxies
// log; every page comes with the security headers, and the client runs under its
// Content-Security-Policy without a single violation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, launch, newPage, createGame } from './lib.mjs';

test('security: the seat token never appears in a URL; the page runs under its CSP', { timeout: 120000 }, async () => {
  const browser = await launch();
  try {
    const page = await newPage(browser);
    const sockets = [];
    page.on('websocket', (ws) => sockets.push(ws.url()));
    const violations = [];
    page.on('console', (m) => { if (/Content Security Policy/i.test(m.text())) violations.push(m.text()); });
    const first = await page.goto(`${BASE}/#/`);
    const h = first.headers();
    assert.match(h['content-security-policy'] || '', /frame-ancestors 'none'/);
    assert.equal(h['x-frame-options'], 'DENY');
    assert.equal(h['referrer-policy'], 'no-referrer');
    const id = await createGame(page, { variant: 'square', players: 2, seats: ['human', 'ai:greedy'], name: 'Ann' });
    const token = await page.evaluate((i) => JSON.parse(localStorage.getItem(`axio.token.${i}`)).token, id);
    assert.ok(token && token.length >= 32, 'the page holds a seat token');
    // the seat is ours: the rack shows our tiles
    await page.waitForSelector('.rack-panel:not([hidden]) .rack-tile');
    assert.ok(sockets.length >= 1, 'a WebSocket was opened');
    for (const url of sockets) {
      assert.ok(!url.includes(token), `the token is in ${url}`);
      assert.ok(!/token=/.test(url), `a token parameter in ${url}`);
    }
    // a reload takes the seat back the same way
    await page.reload();
    await page.waitForSelector('.game:not(.loading) .board-svg');
    await page.waitForSelector('.rack-panel:not([hidden]) .rack-tile');
    for (const url of sockets) assert.ok(!url.includes(token));
    assert.deepEqual(violations, []);
    assert.deepEqual(page.errors, []);
  } finally {
    await browser.close();
  }
});
