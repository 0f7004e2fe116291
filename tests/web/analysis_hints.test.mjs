// analysis_hints.test.mjs — the hint and the analysis are one judge (src/ai/analysis.c):
// a player who follows the Hint on every decision — placements by clicking (tapping on a
// phone) the hinted tile, swap offers with the swap dialog's own Hint, ROTA's colour for
// an empty corner as the hint chose it — and then asks for the analysis of the game finds
// no flagged mistake: "No clear mistakes", and every decision's best is the one played.
// AXIO against Casual in English on a desktop (swap offers too), AXIO ROTA solo in German
// on a touch phone and in Hungarian on a desktop (colours of empty corners). Every variant,
// AXIO Hex too, is played on the hints in tests/server/test_analysis.py. A server of the
// test's own judges with few playouts, for speed (the hints with the same few: the same judge).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, startServer, waitTurnOrEnd, cellPoint, gameState, shot, assertNoErrors, PHONE, DESKTOP } from './lib.mjs';
import { MESSAGES } from '../../web/js/messages.js';

// The hints the page receives and the decisions it sends, as they pass.
function watchSocket(page) {
  const seen = { hints: [], sent: [] };
  page.on('websocket', (ws) => {
    ws.on('framereceived', ({ payload }) => {
      const m = JSON.parse(payload);
      if (m.type === 'hint') seen.hints.push(m.move);
    });
    ws.on('framesent', ({ payload }) => {
      const m = JSON.parse(payload);
      if (m.type === 'place' || m.type === 'swap') seen.sent.push(m);
    });
  });
  return seen;
}

async function followHint(page, seen, touch) {
  const st = await gameState(page);
  const asked = seen.hints.length;
  if (st.phase === 'swap') {
    await page.click('.swap-dialog [data-action=swap-hint]');
    const btn = await page.waitForSelector('.swap-dialog [data-hinted]', { timeout: 30000 });
    await btn.click();
  } else {
    await page.click('[data-action=hint]');
    const key = await page.waitForFunction(() => {
      const el = document.getElementById('preview');
      return el && el.dataset.state === 'legal' && document.querySelector('.rack-tile.selected') ? el.dataset.key : null;
    }, null, { timeout: 30000 });
    const cell = await key.jsonValue();
    // In the middle of the screen: a cell scrolled just into view can lie under the sticky
    // header, and a tap there opens the header's link (a clean run once landed on "sign in").
    await page.locator(`.board-svg [data-cell="${cell}"]`).first().evaluate((el) => el.scrollIntoView({ block: 'center', inline: 'center' }));
    const p = await cellPoint(page, cell);
    if (touch) await page.touchscreen.tap(p.x, p.y); else await page.mouse.click(p.x, p.y);
    const next = await page.waitForFunction((b) => (document.querySelector('.wild-dialog') ? 'wild'
      : Number(document.querySelector('.game').dataset.seq) > b ? 'moved' : null), st.seq, { timeout: 30000 }).catch(async (e) => {
      await shot(page, 'analysis-hints-stuck-click');
      throw new Error(`the hinted tile at ${cell} (${p.x},${p.y}) was not placed (${JSON.stringify(st)}, status "${await page.textContent('#status-line')}", preview "${await page.textContent('#preview')}", hint ${JSON.stringify(seen.hints.at(-1))}): ${e.message}`);
    });
    if ((await next.jsonValue()) === 'wild') {
      // The hint's colour is chosen already (marked and focused): Enter places it.
      await page.waitForFunction(() => document.activeElement?.dataset.hinted === 'true');
      await page.keyboard.press('Enter');
    }
  }
  await page.waitForFunction((b) => Number(document.querySelector('.game').dataset.seq) > b, st.seq, { timeout: 30000 }).catch(async (e) => {
    await shot(page, 'analysis-hints-stuck');
    throw new Error(`the hinted decision did not go through (${JSON.stringify(st)}, now ${JSON.stringify(await gameState(page))}, status "${await page.textContent('#status-line')}", hints ${JSON.stringify(seen.hints.slice(-2))}, sent ${JSON.stringify(seen.sent.slice(-2))}): ${e.message}`);
  });
  assert.equal(seen.hints.length, asked + 1, 'one hint asked and answered');
  const hint = seen.hints.at(-1), sent = seen.sent.at(-1);
  assert.deepEqual({ ...sent, wild: sent.wild ?? null }, { ...hint, wild: hint.wild ?? null }, 'the decision sent is the hint');
}

const CASES = [
  { lang: 'en', variant: 'square', viewport: DESKTOP, seats: ['human', 'ai:greedy'], players: 2 },
  { lang: 'de', variant: 'rota', viewport: PHONE, touch: true, seats: ['human'], players: 1 },
  { lang: 'hu', variant: 'rota', viewport: DESKTOP, seats: ['human'], players: 1 },
];

test('analysis: a game played by following every hint has no flagged mistake (en, de phone, hu)', { timeout: 420000 }, async () => {
  const srv = await startServer(['--judge-playouts', '300']);
  const browser = await launch();
  try {
    for (const c of CASES) {
      const L = MESSAGES[c.lang];
      const page = await newPage(browser, c.viewport, c.touch ? { isMobile: true, hasTouch: true } : {});
      const seen = watchSocket(page);
      await page.goto(`${srv.base}/?lang=${c.lang}#/`);
      await page.fill('#player-name', 'Hanna');
      await page.check(`input[name=variant][value=${c.variant}]`, { force: true });
      await page.check(`input[name=players][value="${c.players}"]`, { force: true });
      for (let i = 0; i < c.seats.length; i++) await page.selectOption(`#seat-${i}`, c.seats[i]);
      await page.click('#create-game');
      await page.waitForSelector('.game:not(.loading) .board-svg');
      const id = page.url().split('#/game/')[1];
      let decisions = 0;
      for (let guard = 0; guard < 120; guard++) {
        const st = await waitTurnOrEnd(page, 60000);
        if (st.status === 'over') break;
        await followHint(page, seen, c.touch);
        decisions++;
      }
      assert.ok(decisions >= 8, `a whole game (${decisions} decisions)`);
      assert.equal(seen.sent.length, decisions, 'every decision was a hint');

      await page.waitForSelector('.end-dialog');
      await page.click('.end-dialog [data-action=replay]');
      await page.waitForSelector('.analysis-panel[data-state=idle]');
      await page.click('.analysis-panel [data-action=analyse]');
      await page.waitForSelector('.analysis-panel[data-state=done] .analysis-chart', { timeout: 120000 });
      const res = await (await fetch(`${srv.base}/api/games/${id}/analysis?seat=0`)).json();
      assert.equal(res.decisions.length, decisions, 'each decision judged');
      for (const d of res.decisions) {
        assert.equal(d.mistake, false, `a hinted decision flagged: ${JSON.stringify(d)}`);
        assert.deepEqual(d.best, d.played, "the hint is the judge's best");
      }
      assert.equal(await page.locator('.mistakes .mistake').count(), 0, 'no mistake listed');
      const solo = c.players === 1;
      const n = solo ? (0.2).toLocaleString(c.lang, { maximumFractionDigits: 1 }) : 2;
      assert.equal((await page.textContent('.no-mistakes')).trim(), L[solo ? 'analysis.no_mistakes_solo' : 'analysis.no_mistakes_win']({ n }));
      await page.locator('.analysis-panel').scrollIntoViewIfNeeded();
      await shot(page, `analysis-hints-${c.variant}-${c.lang}${c.touch ? '-phone' : ''}`);
      assertNoErrors(page);
      await page.context().close();
    }
  } finally {
    await browser.close();
    await srv.stop();
  }
});
