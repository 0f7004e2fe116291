// cluster.test.mjs — one site on two servers (docs/server.md, "Several servers"): this
// test runs its own site (tests/cluster/cluster.py: PostgreSQL, two `axio serve`, nginx
// with deploy/nginx-axio-cluster.conf), plays a move, SIGKILLs the instance that holds the
// game, and checks that the page reconnects by itself and that the next move goes
// through (the other instance takes the game over once the dead one's lease ran out).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { launch, newPage, createGame, findLegal, fieldCells, pickTile, clickAndWait, waitTurnOrEnd, shot, assertNoErrors } from './lib.mjs';

function startSite() {
  const proc = spawn(process.env.PYTHON3 || 'python3', [path.join(process.env.SRC, 'tests/cluster/cluster.py'), 'serve', '--instances', '2', '--web', path.join(process.env.SRC, 'web')], { stdio: ['pipe', 'pipe', 'inherit'], env: process.env });
  const lines = readline.createInterface({ input: proc.stdout });
  const waiting = [];
  lines.on('line', (line) => { const w = waiting.shift(); if (w) w(line); });
  const next = () => new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the cluster did not answer')), 120000);
    waiting.push((line) => { clearTimeout(timer); resolve(line); });
  });
  const say = async (cmd) => { const answer = next(); proc.stdin.write(cmd + '\n'); return answer; };
  return { proc, next, say };
}

test('cluster: the page\'s instance dies mid-game; the page reconnects by itself and the next move goes through', { timeout: 240000 }, async () => {
  const site = startSite();
  const url = (await site.next()).split(' ')[1].replace(/\/$/, '');
  const browser = await launch();
  try {
    const page = await newPage(browser);
    const id = await createGame(page, { variant: 'square', players: 2, seats: ['human', 'ai:random'], name: 'Kim' }, url);
    await waitTurnOrEnd(page);
    await pickTile(page, 0);
    const first = await findLegal(page, { near: await fieldCells(page) });
    await clickAndWait(page, first.preview.point);
    await waitTurnOrEnd(page);
    const moves = await page.locator('#log .log-place').count();

    const holder = (await site.say(`holder ${id}`)).split(' ')[2];
    assert.match(holder, /^[01]$/, 'an instance holds the game');
    assert.match(await site.say(`kill ${holder}`), /^ok kill/);
    await page.waitForSelector('#conn:not([data-state=open])', { timeout: 15000 });
    await shot(page, 'cluster-instance-lost');
    await page.waitForSelector('#conn[data-state=open]', { timeout: 60000 });
    await page.waitForSelector(`.layer-tiles [data-half="${first.cell}"]`);
    assert.equal(await page.locator('.score-card.you').getAttribute('data-seat'), '0', 'the seat is back');
    await waitTurnOrEnd(page);
    const other = (await site.say(`holder ${id}`)).split(' ')[2];
    assert.equal(other, String(1 - Number(holder)), `the other instance holds the game now (before: ${holder}, now: ${other})`);

    await pickTile(page, 0);
    const second = await findLegal(page, { near: [first.cell] });
    assert.ok(second, 'a legal placement');
    await page.mouse.click(second.preview.point.x, second.preview.point.y);
    await page.waitForFunction((n) => document.querySelectorAll('#log .log-place').length >= n + 2, moves, { timeout: 30000 });
    assertNoErrors(page);
  } finally {
    await browser.close();
    site.proc.stdin.write('quit\n');
    await new Promise((resolve) => { if (site.proc.exitCode !== null) resolve(); else site.proc.once('exit', resolve); });
  }
});
