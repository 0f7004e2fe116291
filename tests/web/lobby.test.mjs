// lobby.test.mjs — two players and a spectator in three browser contexts: create a
// game for two humans, join it from the lobby, watch it, play a move each, reload
// (the seat comes back from localStorage), and check that the spectator never
// receives a hidden tile.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, createGame, BASE, placeOne, fieldCells, freeCells, waitTurnOrEnd, assertNoErrors, shot, shotBoth, PHONE } from './lib.mjs';

// On a touch screen: tap a tile, tap the Turn button, tap a cell (the preview
// shows), tap it again to place.
async function placeByTouch(page) {
  await waitTurnOrEnd(page, 30000);
  await page.tap('.rack-tile[data-index="0"]');
  await page.waitForSelector('.rack-tile[data-index="0"].selected');
  await page.tap('.turn-btn');
  await page.waitForFunction(() => document.querySelector('.rack-panel').dataset.rot !== '0');
  const fields = (await fieldCells(page)).map((c) => c.split(',').map(Number));
  const cells = (await freeCells(page)).sort((a, b) => {
    const d = (c) => Math.min(...fields.map((f) => Math.abs(f[0] - c[0]) + Math.abs(f[1] - c[1]) + Math.abs(f[0] + f[1] - c[0] - c[1])));
    return d(a.split(',').map(Number)) - d(b.split(',').map(Number));
  });
  for (const cell of cells) {
    // The board may be drawn anew between two reads (the rack's turn, a state
    // message): the cell is then looked up again.
    // In the middle of the screen: a cell at its top edge lies under the sticky header.
    let box = null;
    for (let i = 0; !box && i < 20; i++) {
      await page.locator(`.board-svg [data-cell="${cell}"]`).evaluate((el) => el.scrollIntoView({ block: 'center', inline: 'center' })).catch(() => {});
      box = await page.locator(`.board-svg [data-cell="${cell}"]`).boundingBox();
      if (!box) await page.waitForTimeout(50);
    }
    assert.ok(box, `cell ${cell} is on the board`);
    const x = box.x + box.width / 2, y = box.y + box.height / 2;
    await page.touchscreen.tap(x, y);
    const st = await page.waitForFunction((k) => {
      const el = document.getElementById('preview');
      return el.dataset.key === k && (el.dataset.state === 'legal' || el.dataset.state === 'illegal') ? el.dataset.state : null;
    }, cell, { timeout: 10000 });
    if ((await st.jsonValue()) !== 'legal') continue;
    assert.equal(await page.locator(`.layer-tiles [data-half="${cell}"]`).count(), 0, 'the first tap only previews');
    const seq = await page.getAttribute('.game', 'data-seq');
    await page.touchscreen.tap(x, y);
    await page.waitForFunction((b) => document.querySelector('.game').dataset.seq !== b, seq);
    return cell;
  }
  throw new Error('no legal cell by touch');
}

test('lobby: create, join, watch, reload; spectators see no hidden tiles', { timeout: 180000 }, async () => {
  const browser = await launch();
  try {
    const ann = await newPage(browser);
    const id = await createGame(ann, { variant: 'hex', players: 2, seats: ['human', 'human'], name: 'Ann' });
    await ann.waitForSelector('.status-line.waiting');

    // Bo finds the open game in the lobby and joins it.
    const bo = await newPage(browser, PHONE, { hasTouch: true, isMobile: true });
    await bo.goto(`${BASE}/#/`);
    await bo.fill('#player-name', 'Bo');
    const row = bo.locator(`#open-games .game-row[data-game="${id}"]`);
    await row.waitFor({ timeout: 10000 });
    await shot(bo, 'lobby-phone');
    await row.locator('[data-action=join]').click();
    await bo.waitForURL(new RegExp(`#/game/${id}`));
    await bo.waitForSelector('.score-card.you[data-seat="1"]');
    await ann.waitForFunction(() => document.querySelector('.game').dataset.status === 'running');

    // Cy watches from the list of running games, and records every frame received.
    const cy = await newPage(browser);
    const frames = [];
    cy.on('websocket', (ws) => ws.on('framereceived', (f) => frames.push(String(f.payload))));
    await cy.goto(`${BASE}/#/`);
    const run = cy.locator(`#running-games .game-row[data-game="${id}"]`);
    await run.waitFor({ timeout: 10000 });
    await shot(cy, 'lobby-desktop');
    await run.locator('[data-action=watch]').click();
    await cy.waitForSelector('.game:not(.loading) .board-svg');
    assert.equal(await cy.locator('.rack-tile').count(), 0, 'a spectator has no rack');
    assert.ok(await cy.locator('.watch-note').isVisible(), 'the page says it is watching');

    // A move by each; everyone sees both.
    const c1 = await placeOne(ann, { firstMove: true });
    for (const p of [bo, cy]) await p.waitForSelector(`.layer-tiles [data-half="${c1}"]`);
    await bo.reload();
    await bo.waitForSelector('.score-card.you[data-seat="1"]');  // the seat came back after the reload
    assert.equal(await bo.locator('.rack-tile').count(), 6, 'Bo has the rack back');
    const c2 = await placeByTouch(bo);
    for (const p of [ann, cy]) await p.waitForSelector(`.layer-tiles [data-half="${c2}"]`);
    await cy.waitForFunction(() => document.querySelectorAll('#log .log-place').length >= 2);
    await shot(cy, 'spectator-desktop');

    // Hidden information never reached the spectator.
    assert.ok(frames.length > 0);
    for (const f of frames) {
      const m = JSON.parse(f);
      if (m.type === 'state') assert.equal(m.you, null, 'no "you" for a spectator');
      const evs = m.type === 'history' ? m.events : m.type === 'event' ? [m.event] : [];
      for (const ev of evs) {
        if (ev.ev === 'draw') assert.ok(!Array.isArray(ev.tiles), `a spectator saw drawn tiles: ${f}`);
        if (ev.ev === 'swap') assert.ok(!Array.isArray(ev.drawn) && !Array.isArray(ev.returned), 'a spectator saw swapped tiles');
        if (ev.ev === 'start') assert.ok(!('seed' in ev) || ev.seed === null, 'the seed before the end');
      }
      assert.ok(!/"rack"\s*:\s*\[\s*\[/.test(f), 'a rack in a spectator message');
    }
    for (const p of [ann, bo, cy]) assertNoErrors(p);
  } finally {
    await browser.close();
  }
});

// A computer seat says what its level does; in ROTA, Expert as measured (docs/ai.md, Levels).
test('lobby: a computer seat is described by its level, Expert in ROTA as measured', { timeout: 60000 }, async () => {
  const browser = await launch();
  try {
    const page = await newPage(browser);
    await page.goto(`${BASE}/#/`);
    await page.waitForSelector('.name-box[data-state=guest]');
    const about = async (variant) => {
      await page.check(`input[name=variant][value=${variant}]`, { force: true });
      await page.check('input[name=players][value="2"]', { force: true });
      await page.selectOption('#seat-1', 'ai:expert');
      return page.textContent('.seat-row:has(#seat-1) .level-about');
    };
    assert.match(await about('hex'), /the strongest/);
    assert.match(await about('square'), /the strongest/);
    const rota = await about('rota');
    assert.match(rota, /about as well as Strong/);
    assert.doesNotMatch(rota, /the strongest/);
    await shotBoth(page, 'lobby-expert-rota');
    await page.selectOption('#seat-1', 'ai:strong');
    assert.match(await page.textContent('.seat-row:has(#seat-1) .level-about'), /^Strong looks ahead/);
    await assertNoErrors(page);
  } finally {
    await browser.close();
  }
});
