// reconnect.test.mjs — the connection drops and comes back: this test runs its own
// `axio serve`, stops it in the middle of a game (the page must say that the
// connection is lost and that it retries), starts it again on the same database
// (the page must reconnect by itself with its seat), and then plays a move with
// the keyboard only.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import net from 'node:net';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launch, newPage, createGame, findLegal, fieldCells, pickTile, clickAndWait, waitTurnOrEnd, shot, assertNoErrors } from './lib.mjs';

const freePort = () => new Promise((resolve) => {
  const s = net.createServer();
  s.listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => resolve(p)); });
});

async function startServer(port, db) {
  const proc = spawn(process.env.AXIO, ['serve', '--port', String(port), '--bind', '127.0.0.1', '--db', db, '--web', path.join(process.env.SRC, 'web'), '--quiet'], { stdio: 'ignore' });
  for (let i = 0; i < 100; i++) {
    try { if ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok) return proc; } catch { /* not yet */ }
    await new Promise((r) => setTimeout(r, 150));
  }
  proc.kill('SIGKILL');
  throw new Error('axio serve did not start');
}

const stop = (proc) => new Promise((resolve) => {
  if (proc.exitCode !== null || proc.signalCode !== null) { resolve(); return; }
  proc.once('exit', resolve);
  proc.kill('SIGTERM');
});

test('reconnect: the page shows the lost connection, retries, gets its seat back; keyboard play', { timeout: 180000 }, async () => {
  assert.ok(process.env.AXIO, 'AXIO is set');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'axio-web-rc-'));
  const port = await freePort();
  const db = path.join(dir, 'rc.db');
  let server = await startServer(port, db);
  const browser = await launch();
  try {
    const page = await newPage(browser);
    const base = `http://127.0.0.1:${port}`;
    await createGame(page, { variant: 'square', players: 2, seats: ['human', 'ai:random'], name: 'Kim' }, base);
    await waitTurnOrEnd(page);
    await pickTile(page, 0);
    const first = await findLegal(page, { near: await fieldCells(page) });
    await clickAndWait(page, first.preview.point);
    await waitTurnOrEnd(page);

    await stop(server);
    // The state and its words are read together: the first retry comes 0.5 s after the
    // loss, and a slow machine reading them one after the other saw "reconnecting…".
    const lost = await (await page.waitForFunction(() => {
      const el = document.getElementById('conn');
      return el.dataset.state === 'lost' ? el.textContent : null;
    }, null, { timeout: 15000, polling: 50 })).jsonValue();
    assert.match(lost, /retrying/);
    await shot(page, 'connection-lost-desktop');

    server = await startServer(port, db);
    await page.waitForSelector('#conn[data-state=open]', { timeout: 30000 });
    await page.waitForSelector(`.layer-tiles [data-half="${first.cell}"]`);
    assert.equal(await page.locator('.score-card.you').getAttribute('data-seat'), '0', 'the seat is back');
    await waitTurnOrEnd(page);

    // A move with the keyboard only: 1 picks, R turns, arrows move, Enter places.
    const rack = await page.locator('.rack-tile').count();
    assert.ok(rack > 0);
    await page.keyboard.press('1');
    await page.waitForSelector('.rack-tile[data-index="0"].selected');
    await page.keyboard.press('r');
    await page.waitForFunction(() => document.querySelector('.rack-panel').dataset.rot === '1');
    await page.focus('.board-svg');
    const seq = Number(await page.getAttribute('.game', 'data-seq'));
    let placed = false;
    const path1 = ['ArrowUp', 'ArrowUp', 'ArrowLeft', 'ArrowLeft', 'ArrowLeft', 'ArrowLeft'];
    for (let i = 0; i < 40 && !placed; i++) {
      await page.keyboard.press(i < path1.length ? path1[i] : (Math.floor((i - path1.length) / 8) % 2 ? 'ArrowLeft' : 'ArrowRight'));
      if ((i - path1.length) % 8 === 7) await page.keyboard.press('ArrowDown');
      const st = await page.waitForFunction(() => {
        const s = document.getElementById('preview').dataset.state;
        return s === 'legal' || s === 'illegal' ? s : null;
      }, null, { timeout: 10000 });
      if ((await st.jsonValue()) === 'legal') {
        await page.keyboard.press('Enter');
        placed = true;
      }
    }
    assert.ok(placed, 'found a legal cell with the keyboard');
    await page.waitForFunction((b) => Number(document.querySelector('.game').dataset.seq) > b, seq);
    await page.waitForFunction(() => document.querySelectorAll('#log .log-place').length >= 3);
    assertNoErrors(page);
  } finally {
    await browser.close();
    await stop(server);
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
