// play.mjs — plays one whole game in the browser against the computer, by
// clicking, and checks the board, the score panel and the end screen on the way.
// Used by the per-variant tests (square, hex, rota).
import assert from 'node:assert/strict';
import {
  createGame, waitTurnOrEnd, pickTile, rotateByRightClick, hoverPreview, findLegal, fieldCells,
  clickAndWait, answerSwap, shownScore, shotBoth, shot, apiGet, assertNoErrors, freeCells,
} from './lib.mjs';

const V = [[0, 0], [1, 0], [1, 1], [0, 1]]; // ROTA corner i sits at vertex cell + V[i]

// ROTA: the cells and rotations at which the hand tile's empty corner would meet a
// corner of the display (so that naming a colour can score).
async function wildSpots(page) {
  return page.evaluate((VV) => {
    const hand = document.querySelector('.rack-tile[data-index="0"]')?.dataset.tile.split(',') || [];
    const empty = hand.indexOf('none');
    if (empty < 0) return [];
    const colored = new Set();
    for (const t of document.querySelectorAll('.layer-tiles [data-tile]')) {
      const [x, y] = t.dataset.tile.split(',').map(Number);
      for (const c of t.querySelectorAll('[data-corner]')) {
        if (c.dataset.color === 'none') continue;
        const i = Number(c.dataset.corner);
        colored.add(`${x + VV[i][0]},${y + VV[i][1]}`);
      }
    }
    const out = [];
    for (const f of document.querySelectorAll('.layer-board .frontier[data-cell]')) {
      const [x, y] = f.dataset.cell.split(',').map(Number);
      for (let r = 0; r < 4; r++) {
        const i = (empty + r) % 4;
        if (colored.has(`${x + VV[i][0]},${y + VV[i][1]}`)) out.push({ cell: f.dataset.cell, rot: r });
      }
    }
    return out;
  }, V);
}

async function turnTo(page, rot) {
  for (let k = 0; k < 6; k++) {
    const now = Number(await page.getAttribute('.rack-panel', 'data-rot'));
    if (now === rot) return;
    await page.keyboard.press('r');
    await page.waitForFunction((n) => document.querySelector('.rack-panel').dataset.rot !== String(n), now);
  }
}

// Plays the game to its end. Returns facts for the caller's checks.
// clock, rated: passed to createGame (name null when logged in).
export async function playToEnd(page, { variant, players = 2, seats, name, shotName, wantWild = false, clock = null, rated = false }) {
  const id = await createGame(page, { variant, players, seats, name, clock, rated });
  const facts = { id, moves: 0, rotated: false, sawIllegal: false, wild: null, swaps: 0, seat: null };
  const my = await page.evaluate(() => Number(document.querySelector('.score-card.you')?.dataset.seat));
  facts.seat = my;
  let shotMid = false;
  for (let guard = 0; guard < 400; guard++) {
    const st = await waitTurnOrEnd(page, 120000);
    if (st.status === 'over') break;
    if (st.phase === 'swap') {
      await page.waitForSelector('.swap-dialog');
      if (shotName && !facts.swaps) await shot(page, `${shotName}-swap-desktop`);
      await answerSwap(page);
      facts.swaps++;
      continue;
    }
    const rackN = await page.locator('.rack-tile').count();
    assert.ok(rackN > 0, 'my turn with an empty rack');
    const idx = variant === 'rota' ? 0 : facts.moves % rackN;
    if (variant !== 'rota' || (await page.getAttribute('.rack-panel', 'data-selected')) !== '0') await pickTile(page, idx);
    const tile = (await page.getAttribute(`.rack-tile[data-index="${idx}"]`, 'data-tile')).split(',');

    if (!facts.rotated) {
      // Turn with the right mouse button: the picked tile turns in the rack.
      const rot = await rotateByRightClick(page);
      assert.equal(rot, variant === 'hex' ? 5 : 1, 'one clockwise turn');
      facts.rotated = true;
    }
    if (!facts.sawIllegal && variant !== 'rota') {
      // A field is never free: the preview says so and the ghost shows it.
      const f = (await fieldCells(page))[0];
      const free = await freeCells(page);
      const far = free.find((c) => c.split(',').map(Number).every((v, i) => Math.abs(v - Number(f.split(',')[i])) > 0)) || f;
      const pv = await hoverPreview(page, f).catch(() => null) || await hoverPreview(page, far);
      if (pv && pv.state === 'illegal') {
        assert.ok(await page.locator('.layer-overlay .ghost-illegal').count(), 'an illegal place is drawn as such');
        facts.sawIllegal = true;
      }
    }

    let found = null;
    let usedWild = false;
    if (variant === 'rota' && wantWild && !facts.wild) {
      const spots = await wildSpots(page);
      for (const sp of spots.slice(0, 6)) {
        await turnTo(page, sp.rot);
        const pv = await hoverPreview(page, sp.cell);
        if (pv && pv.state === 'legal') { found = { cell: sp.cell, preview: pv }; usedWild = true; break; }
      }
    }
    const near = facts.moves === 0 && variant !== 'rota' ? await fieldCells(page) : [];
    for (let turn = 0; !found && turn < 6; turn++) {
      found = await findLegal(page, { near });
      if (!found) await page.keyboard.press('r');
    }
    assert.ok(found, `no legal place found for ${tile}`);
    // The ghost and its badge show the server's preview.
    assert.ok(await page.locator('.layer-overlay .ghost-legal').count(), 'legal ghost drawn');
    assert.equal(await page.locator('.layer-overlay .badge text').textContent(), `+${found.preview.total}`);

    // Click; a tile with an empty corner may first ask for the colour to name.
    const seq = await page.getAttribute('.game', 'data-seq');
    await page.mouse.click(found.preview.point.x, found.preview.point.y);
    const next = await page.waitForFunction((b) => (document.querySelector('.wild-dialog') ? 'wild'
      : document.querySelector('.game').dataset.seq !== b ? 'moved' : null), seq, { timeout: 15000 });
    if ((await next.jsonValue()) === 'wild') {
      const opts = await page.$$eval('.wild-dialog [data-wild]', (bs) => bs.map((b) => b.dataset.wild));
      assert.ok(opts.includes('none'), 'the wild chooser offers none');
      // The number the hover showed is the best the chooser offers (the same previews).
      const totals = await page.$$eval('.wild-dialog [data-wild]', (bs) => bs.map((b) => Number(b.dataset.total)));
      assert.equal(Math.max(...totals), found.preview.total, 'the hover promised what the colour dialog offers');
      const pick = opts.find((o) => o !== 'none');
      assert.ok(pick, 'the wild chooser offers a scoring colour');
      if (variant === 'rota' && shotName && !facts.wild) await shotBoth(page, `${shotName}-wild`);
      await page.click(`.wild-dialog [data-wild="${pick}"]`);
      await page.waitForFunction((b) => document.querySelector('.game').dataset.seq !== b, seq);
      await page.waitForFunction((s) => document.querySelector(`#log .log-place[data-player="${s}"] .wild-note`), my);
      facts.wild = pick;
      usedWild = true;
    } else {
      usedWild = false;
    }

    // The tile is on the board where the preview was.
    if (variant === 'rota') {
      await page.waitForSelector(`.layer-tiles [data-tile="${found.cell}"]`);
    } else {
      const half = page.locator(`.layer-tiles [data-half="${found.cell}"]`);
      await half.waitFor();
      assert.equal(await half.getAttribute('data-color'), tile[0], 'first symbol on the hovered cell');
    }
    // The score panel shows the tracks the preview announced (unless a wild changed them).
    if (!usedWild && found.preview.score) {
      const shown = await shownScore(page, my);
      assert.deepEqual(shown, found.preview.score, 'score bars show the previewed tracks');
    }
    facts.moves++;
    if (!shotMid && facts.moves === (variant === 'rota' ? 4 : 6)) {
      shotMid = true;
      await page.mouse.move(5, 5);
      if (shotName) await shotBoth(page, `${shotName}-mid`);
    }
  }

  // The end screen: the ranking as the server has it, and the final tracks.
  await page.waitForSelector('.end-dialog');
  const pub = (await apiGet(`/api/games/${id}`)).body;
  assert.equal(pub.status, 'over');
  const rows = await page.$$eval('.ranking tr', (trs) => trs.map((t) => ({ seat: Number(t.dataset.seat), place: Number(t.dataset.place) })));
  assert.equal(rows.length, players, 'one ranking row per player');
  const expect = [];
  pub.end.ranking.forEach((grp, gi) => grp.forEach((s) => expect.push({ seat: s, place: gi + 1 })));
  assert.deepEqual(rows, expect, 'ranking as the server says');
  for (let s = 0; s < players; s++) assert.deepEqual(await shownScore(page, s), pub.end.scores[s], `final tracks of seat ${s}`);
  if (shotName) await shotBoth(page, `${shotName}-end`);

  // Step through the finished game from its record.
  await page.click('.end-dialog [data-action=replay]');
  await page.waitForSelector('.replay-bar');
  const liveHalves = variant === 'rota' ? pub.tiles.length : pub.cells.length;
  await page.click('.replay-bar [data-action=last]');
  const n = variant === 'rota' ? await page.locator('.layer-tiles [data-tile]').count() : await page.locator('.layer-tiles [data-half]').count();
  assert.equal(n, liveHalves, 'the last replay step shows the final board');
  await page.click('.replay-bar [data-action=first]');
  const n0 = variant === 'rota' ? await page.locator('.layer-tiles [data-tile]').count() : await page.locator('.layer-tiles [data-half]').count();
  assert.equal(n0, variant === 'rota' ? 4 : 0, 'the first replay step shows the start');
  for (let i = 0; i < 5; i++) await page.click('.replay-bar [data-action=forward]');
  assert.equal(await page.getAttribute('.replay-bar', 'data-step'), '5');
  if (shotName) await shot(page, `${shotName}-replay-desktop`);
  await page.click('.replay-bar [data-action=close-replay]');
  await page.waitForSelector('.replay-bar', { state: 'detached' });
  assertNoErrors(page);
  return facts;
}
