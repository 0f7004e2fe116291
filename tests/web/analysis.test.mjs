// analysis.test.mjs — the post-game analysis in the replay. Without a browser: the
// panel's pure helpers (which step holds a decision, the biggest mistakes, the value
// scale, the board marks). In the browser, in English, German and Hungarian: a game
// played to its end (moves from the server's `hint=1`), its replay, the analysis asked
// for and followed while the server works, the chart with a point per decision the
// server judged, the mistakes as the server's numbers rank them, and choosing one: the
// replay goes to that move and the board draws the move played and the better one.
// Also another seat, a spectator, a phone, and the server's errors (faked: 503 busy, 409
// damaged). The browser part runs its own server, judging with 300 playouts a decision.
// Mistakes are the server's (`mistake`: a loss clearly beyond the judge's uncertainty),
// each shown with its ±; computers are named by their level, never "greedy (AI)", and
// the note names no engine.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import {
  SHOTS, DESKTOP, PHONE, launch, newPage, shot, apiCall, assertNoErrors, startServer,
} from './lib.mjs';
import {
  decisionSteps, stepOf, biggestMistakes, valueScale, boardMarks, valueText, marginText, lossText,
} from '../../web/js/analysis_view.js';
import { MESSAGES } from '../../web/js/messages.js';

test('analysis helpers: decisions to steps, mistakes, scale, marks', () => {
  const place = (player, cells) => ({ ev: 'place', player, tile: ['red', 'blue'], cells });
  const steps = [
    { index: 0, events: [{ ev: 'start' }, { ev: 'draw', player: 0 }] },
    { index: 1, events: [place(0, [[6, 6], [6, 7]]), { ev: 'axio', player: 0 }, { ev: 'swap', player: 0, accepted: false }] },
    { index: 2, events: [{ ev: 'leave', player: 1 }, place(0, [[5, 6], [5, 7]])] },
  ];
  const decs = decisionSteps(steps);
  assert.deepEqual(decs.map((d) => [d.step, d.ev.ev]), [[1, 'place'], [1, 'swap'], [2, 'leave'], [2, 'place']]);
  // mistake: as the server flags it (a loss clearly beyond the judge's uncertainty).
  const d = (ply, played, best, vp, vb, kind = 'place', se = 0.01) => ({ ply, kind, played, best, value_played: vp, value_best: vb, loss_se: se, mistake: vb - vp - 3 * se > 0.02 });
  const p0 = { ev: 'place', player: 0, tile: ['red', 'blue'], cells: [[6, 6], [6, 7]] };
  const p3 = { ev: 'place', player: 0, tile: ['red', 'blue'], cells: [[5, 6], [5, 7]] };
  const better = { ev: 'place', player: 0, tile: ['blue', 'red'], cells: [[7, 6], [7, 7]] };
  const sw = { ev: 'swap', player: 0, accepted: false };
  assert.equal(stepOf(d(0, p0, p0, 0.5, 0.5), decs, 0), 1);
  assert.equal(stepOf(d(1, sw, sw, 0.5, 0.5, 'swap'), decs, 0), 1);
  assert.equal(stepOf(d(3, p3, p3, 0.5, 0.5), decs, 0), 2);
  assert.equal(stepOf(d(3, p0, p0, 0.5, 0.5), decs, 0), null, 'other cells than the record: not placed');
  assert.equal(stepOf(d(0, p0, p0, 0.5, 0.5), decs, 1), null, 'another seat');
  assert.equal(stepOf(d(9, p0, p0, 0.5, 0.5), decs, 0), null, 'beyond the record');

  const result = {
    value: 'win_chance',
    decisions: [d(0, p0, better, 0.375, 0.5), d(1, sw, sw, 0.5, 0.5, 'swap'), d(3, p3, better, 0.30, 0.31),
      d(5, p3, better, 0.25, 0.5), d(7, p3, better, 0.5, 0.625), d(9, p3, better, 0.125, 0.25)],
  };
  assert.deepEqual(biggestMistakes(result).map((m) => m.i), [3, 0, 4], 'largest first, ties: earlier first');
  assert.deepEqual(biggestMistakes(result, 10).map((m) => m.i), [3, 0, 4, 5], 'a loss of 1 point is noise');
  // Only what the judge flags: a large loss within its uncertainty is no mistake.
  const noisy = { value: 'win_chance', decisions: [d(0, p0, better, 0.3, 0.4, 'place', 0.05), d(1, p0, better, 0.3, 0.34, 'place', 0.003)] };
  assert.deepEqual(biggestMistakes(noisy).map((m) => m.i), [1], 'a 10-point loss ± 10 is not flagged, a 4-point one ± 0.6 is');
  assert.equal(marginText(0.05, 'win_chance'), '15', 'three standard errors, as the judge counts');
  assert.equal(marginText(0.001, 'win_chance'), '1', 'at least the last digit shown');
  assert.equal(marginText(0, 'win_chance'), '0');
  assert.equal(lossText(noisy.decisions[1], 'win_chance'), '−4 ± 1 percentage points');
  assert.equal(lossText(noisy.decisions[0], 'win_chance'), '−10 ± 15 percentage points');
  assert.deepEqual(valueScale(result), { lo: 0, hi: 1, ticks: [0, 0.25, 0.5, 0.75, 1] });
  const solo = { value: 'solo_result', decisions: [d(0, p0, better, 6.2, 7.9), d(1, p3, better, 8.0, 8.05)] };
  assert.deepEqual(valueScale(solo), { lo: 0, hi: 10, ticks: [0, 2, 4, 6, 8, 10] });
  assert.deepEqual(biggestMistakes({ ...solo, decisions: solo.decisions.map((x, i) => ({ ...x, mistake: i === 0 })) }).map((m) => m.i), [0]);
  assert.equal(valueScale({ value: 'solo_result', decisions: [d(0, p0, p0, 121418, 130000)] }).hi, 150000);
  assert.equal(valueText(0.456, 'win_chance'), '46%');
  assert.equal(valueText(7.25, 'solo_result'), '7.3');
  assert.equal(valueText(121418.4, 'solo_result'), '121418');

  const m = boardMarks(result.decisions[0], { played: 'P', best: 'B' });
  assert.deepEqual(m, { played: { cells: p0.cells, tile: p0.tile }, best: { cells: better.cells, tile: better.tile }, labels: { played: 'P', best: 'B' } });
  assert.equal(boardMarks(d(0, p0, { ...p0 }, 0.5, 0.5)).best, null, 'best = played: nothing else to draw');
  assert.equal(boardMarks(result.decisions[1]), null, 'a swap draws nothing');
  const rota = { ev: 'place', player: 0, tile: ['red', null, 'blue', 'green'], cell: [2, 0], wild: null };
  assert.deepEqual(boardMarks(d(0, rota, { ...rota, cell: [3, 0] }, 0.1, 0.2)).best, { cell: [3, 0], tile: rota.tile });
});

const TEXTS = {
  en: { title: 'Analysis', first: 'First', mistakes: 'Biggest mistakes', best: 'better move' },
  de: { title: 'Analyse', first: 'Zum Anfang', mistakes: 'Größte Fehler', best: 'besserer Zug' },
  hu: { title: 'Elemzés', first: 'Az elejére', mistakes: 'A legnagyobb hibák', best: 'jobb lépés' },
};

// Plays the game to its end from the page, over a WebSocket of its own: each turn
// sends the random legal decision the server offers with `hint=1`.
function playWithHints(page, id, token) {
  return page.evaluate(([gid, tok]) => new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://${location.host}/ws/${gid}?token=${encodeURIComponent(tok)}&hint=1`);
    let lastSeq = -1, sent = 0;
    const timer = setTimeout(() => { ws.close(); reject(new Error(`the game did not end (${sent} moves)`)); }, 120000);
    ws.onmessage = (e) => {
      const m = JSON.parse(e.data);
      if (m.type === 'error') { clearTimeout(timer); ws.close(); reject(new Error(`${m.code}: ${m.message}`)); return; }
      if (m.type !== 'state') return;
      if (m.game.status === 'over') { clearTimeout(timer); ws.close(); resolve(sent); return; }
      const hint = m.you?.hint;
      if (hint && m.game.to_move === m.you.seat && m.seq !== lastSeq) {
        lastSeq = m.seq;
        sent++;
        setTimeout(() => ws.send(JSON.stringify(hint)), 40); // well under the message limit
      }
    };
    ws.onerror = () => { clearTimeout(timer); reject(new Error('socket error')); };
  }), [id, token]);
}

async function finishedGame(page, base, lang, body) {
  await page.goto(`${base}/?lang=${lang}#/`);
  const made = await apiCall(base, 'POST', '/api/games', body);
  assert.equal(made.status, 201, JSON.stringify(made.body));
  const moves = await playWithHints(page, made.body.game, made.body.token);
  assert.ok(moves > 3, `a real game (${moves} moves)`);
  // Open it as its player: the end screen, then the replay.
  await page.evaluate(([i, s, tk]) => localStorage.setItem(`axio.token.${i}`, JSON.stringify({ seat: s, token: tk, at: Date.now() })),
    [made.body.game, made.body.seat, made.body.token]);
  await page.goto(`${base}/?lang=${lang}#/game/${made.body.game}`);
  await page.click('.end-dialog [data-action=replay]');
  await page.waitForSelector('.replay-bar');
  return { id: made.body.game, seat: made.body.seat };
}

// Asks for the analysis in the panel and waits for it; returns the states it went through.
async function analyse(page, seat) {
  await page.waitForSelector(`.analysis-panel[data-state=idle][data-seat="${seat}"]`);
  await page.evaluate(() => {
    const el = document.querySelector('.analysis-panel');
    window.analysisStates = [];
    new MutationObserver(() => {
      const st = el.dataset.state + (el.querySelector('.analysis-progress') ? `:${el.querySelector('.analysis-progress').dataset.total || ''}` : '');
      if (window.analysisStates.at(-1) !== st) window.analysisStates.push(st);
    }).observe(el, { attributes: true, subtree: true, childList: true });
  });
  await page.click('.analysis-panel [data-action=analyse]');
  await page.waitForSelector('.analysis-panel[data-state=done] .analysis-chart', { timeout: 60000 });
  return page.evaluate(() => window.analysisStates);
}

// The chart and the mistakes against the server's numbers.
async function checkChart(page, base, id, seat) {
  const { status, body } = await apiCall(base, 'GET', `/api/games/${id}/analysis?seat=${seat}`);
  assert.equal(status, 200, 'the analysis is kept: asked again, it is there');
  const n = body.decisions.length;
  assert.ok(n > 0);
  assert.equal(await page.locator('.analysis-chart .pt').count(), n, 'a point per judged decision');
  assert.equal(await page.getAttribute('.analysis-chart', 'data-points'), String(n));
  const loss = body.decisions.map((d) => Math.max(0, d.value_best - d.value_played));
  const shown = await page.$$eval('.mistakes .mistake', (bs) => bs.map((b) => Number(b.dataset.decision)));
  assert.ok(shown.length >= 1 && shown.length <= 3, `1 to 3 mistakes listed, not ${shown.length}`);
  for (let i = 1; i < shown.length; i++) assert.ok(loss[shown[i - 1]] >= loss[shown[i]], 'largest loss first');
  // Only the judge's mistakes, the largest of them.
  shown.forEach((i) => assert.ok(body.decisions[i].mistake, `decision ${i} is listed but not flagged`));
  const least = Math.min(...shown.map((i) => loss[i]));
  loss.forEach((l, i) => { if (!shown.includes(i) && body.decisions[i].mistake) assert.ok(l <= least, `flagged decision ${i} lost more than a listed one`); });
  if (shown.length < 3) body.decisions.forEach((d, i) => assert.ok(shown.includes(i) || !d.mistake, `flagged decision ${i} is not listed`));
  // Each listed loss with its uncertainty.
  const texts = await page.$$eval('.mistakes .mistake .loss', (ls) => ls.map((l) => l.textContent));
  texts.forEach((text) => assert.match(text, /−[\d.,]+ ± [\d.,]+/, `a loss with its ±: ${text}`));
  assert.equal(await page.locator('.analysis-chart .mistake-mark').count(), shown.length, 'each mistake marked on the chart');
  return { result: body, shown };
}

const cellKeys = (m) => (m.cells ? m.cells.map((c) => c.join(',')).join(';') : m.cell.join(','));

// Chooses the biggest mistake that is a placement: the replay goes there, the board
// shows the move played (it is on the board at that step) and the better one.
async function chooseMistake(page, result, shown, variant) {
  const rank = shown.findIndex((i) => result.decisions[i].played.ev === 'place');
  assert.ok(rank >= 0, 'a placement among the biggest mistakes');
  const d = result.decisions[shown[rank]];
  const btn = page.locator(`.mistakes .mistake[data-mistake="${rank}"]`);
  const step = await btn.getAttribute('data-step');
  await btn.click();
  assert.equal(await page.getAttribute('.replay-bar', 'data-step'), step, 'the replay went to the mistake');
  assert.equal(await btn.getAttribute('aria-pressed'), 'true');
  if (variant === 'rota') await page.waitForSelector(`.layer-tiles [data-tile="${d.played.cell.join(',')}"]`);
  else for (const c of d.played.cells) await page.waitForSelector(`.layer-tiles [data-half="${c.join(',')}"]`);
  assert.equal(await page.getAttribute('.layer-marks .mark-played', 'data-mark'), cellKeys(d.played), 'the move played, outlined');
  assert.equal(await page.getAttribute('.layer-marks .mark-best', 'data-mark'), cellKeys(d.best), 'the better move, drawn');
  assert.equal(await page.locator('.layer-marks .badge').count(), 2, 'both labelled');
  assert.equal(await page.locator('.analysis-detail .legend-mark').count(), 2, 'a legend of both');
  assert.ok(Number(await page.getAttribute('.analysis-chart', 'data-now')) >= shown[rank], 'the chart marks the step');
  assert.equal(await page.locator('.analysis-chart .pt.selected').count(), 1);
  // The better move can be hidden (it may cover the move played) and shown again.
  await page.click('.analysis-detail [data-action=toggle-best]');
  assert.equal(await page.getAttribute('.analysis-detail [data-action=toggle-best]', 'aria-pressed'), 'false');
  assert.equal(await page.locator('.layer-marks .mark-best').count(), 0, 'hidden');
  assert.equal(await page.locator('.layer-marks .mark-played').count(), 1, 'the move played stays marked');
  assert.equal(await page.getAttribute('.replay-bar', 'data-step'), step, 'on the same step');
  await page.click('.analysis-detail [data-action=toggle-best]');
  assert.equal(await page.getAttribute('.layer-marks .mark-best', 'data-mark'), cellKeys(d.best), 'shown again');
  return { rank, step: Number(step), d };
}

test('the replay shows the analysis: en square, de hex on a phone, hu rota solo', { timeout: 420000 }, async () => {
  // A server of its own, judging with 300 playouts a decision (the default 6000 is slow for a test).
  const srv = await startServer(['--judge-playouts', '300']);
  const browser = await launch();
  try {
    const cases = [
      { lang: 'en', size: DESKTOP, body: { variant: 'square', players: 2, name: 'Ann', seats: [{ kind: 'human' }, { kind: 'ai', level: 'random' }] } },
      { lang: 'de', size: PHONE, body: { variant: 'hex', players: 2, name: 'Jörg', seats: [{ kind: 'human' }, { kind: 'ai', level: 'random' }] } },
      { lang: 'hu', size: DESKTOP, body: { variant: 'rota', players: 1, mode: 'solo', name: 'Ádám', seats: [{ kind: 'human' }] } },
    ];
    for (const c of cases) {
      const T = TEXTS[c.lang];
      const page = await newPage(browser, c.size, c.size === PHONE ? { isMobile: true, hasTouch: true } : {});
      const { id, seat } = await finishedGame(page, srv.base, c.lang, c.body);
      // The replay's own texts are in the language too.
      assert.equal(await page.getAttribute('.replay-bar [data-action=first]', 'title'), T.first);
      assert.equal(await page.textContent('.analysis-panel h3'), T.title);
      assert.equal(await page.locator('.analysis-seat').count(), c.body.players > 1 ? 1 : 0, 'a seat selector when there are others');

      if (c.lang === 'en') await shot(page, 'analysis-en-idle-desktop');
      const states = await analyse(page, seat);
      assert.ok(states.some((s) => /^working:\d+$/.test(s)), `the progress was shown: ${states.join(' ')}`);
      assert.equal(await page.textContent('.analysis-mistakes h4'), T.mistakes);
      // The computer is named as everywhere on the site, and the note names no engine.
      const L = MESSAGES[c.lang];
      if (c.body.players > 1) {
        const options = await page.$$eval('.analysis-seat option', (os) => os.map((o) => o.textContent));
        assert.deepEqual(options, [L['analysis.you']({ name: c.body.name }), L['ai.name.random']]);
      }
      const note = await page.textContent('.analysis-note');
      assert.doesNotMatch(note, /strong|greedy|random|\(AI\)/, `the note names no engine: ${note}`);
      assert.equal(note, L[c.body.mode === 'solo' ? 'analysis.note_solo' : 'analysis.note']({ playouts: (300).toLocaleString(c.lang), n: c.body.mode === 'solo' ? (0.2).toLocaleString(c.lang, { maximumFractionDigits: 1 }) : 2 }));
      const { result, shown } = await checkChart(page, srv.base, id, seat);
      assert.equal(result.value, c.body.mode === 'solo' ? 'solo_result' : 'win_chance');
      if (c.lang !== 'en') assert.doesNotMatch(await page.textContent('.analysis-mistakes'), /\d\.\d/, 'decimals with a comma');
      const { step, d } = await chooseMistake(page, result, shown, c.body.variant);
      assert.match(await page.textContent('.analysis-detail'), new RegExp(T.best));
      await page.mouse.move(2, 2);
      if (c.size === PHONE) {
        await page.locator('.analysis-panel').scrollIntoViewIfNeeded();
        await shot(page, `analysis-${c.lang}-phone`);
        await page.screenshot({ path: path.join(SHOTS, `analysis-${c.lang}-phone-full.png`), fullPage: true });
      } else {
        await shot(page, `analysis-${c.lang}-desktop`);
      }

      if (c.lang === 'en') {
        // A redraw of the same step (the board crops on a phone) keeps the marks.
        await page.setViewportSize(PHONE);
        await page.waitForFunction(() => document.querySelector('.board-svg').getAttribute('viewBox').split(' ')[0] !== '0');
        assert.equal(await page.locator('.layer-marks .mark-best').count(), 1, 'the marks stay on a redraw');
        await page.locator('.analysis-panel').scrollIntoViewIfNeeded();
        await shot(page, 'analysis-en-phone');
        await page.setViewportSize(DESKTOP);
        await page.evaluate(() => window.scrollTo(0, 0));
      }
      // One step back: the marks go, the marker follows; the mistake's cells were still
      // empty there (it was made at the step chosen).
      await page.click('.replay-bar [data-action=back]');
      assert.equal(await page.getAttribute('.replay-bar', 'data-step'), String(step - 1));
      assert.equal(await page.locator('.layer-marks > *').count(), 0, 'no marks on another step');
      assert.equal(await page.locator('.mistake[aria-pressed=true]').count(), 0);
      const here = c.body.variant === 'rota' ? [`.layer-tiles [data-tile="${d.played.cell.join(',')}"]`]
        : d.played.cells.map((cell) => `.layer-tiles [data-half="${cell.join(',')}"]`);
      for (const sel of here) assert.equal(await page.locator(sel).count(), 0, `${sel} empty before the move`);
      await page.click('.replay-bar [data-action=first]');
      assert.equal(await page.getAttribute('.analysis-chart line.now-line', 'visibility'), 'hidden', 'before the first decision: no marker');
      // A click on the chart picks the decision there, mistake or not.
      const pt = await page.locator('.analysis-chart .pt[data-i="1"]').boundingBox();
      await page.mouse.click(pt.x + pt.width / 2, pt.y + pt.height / 2);
      await page.waitForSelector('.analysis-chart .pt.selected[data-i="1"]');
      assert.equal(await page.getAttribute('.analysis-detail', 'data-decision'), '1');
      assert.ok(Number(await page.getAttribute('.replay-bar', 'data-step')) > 0, 'the replay went to it');

      if (c.lang === 'en') {
        // The other seat (the computer's): asked at once, its own numbers.
        await page.selectOption('.analysis-seat', '1');
        await page.waitForSelector('.analysis-panel[data-state=done][data-seat="1"] .analysis-chart', { timeout: 60000 });
        const other = await checkChart(page, srv.base, id, 1);
        assert.ok(other.result.decisions.every((d) => d.played.player === 1));
        await shot(page, 'analysis-en-seat1-desktop');

        // The server's refusals, faked: busy (with "try again"), then damaged (without).
        await page.selectOption('.analysis-seat', '0');
        await page.waitForSelector('.analysis-panel[data-state=done][data-seat="0"]');
        await page.route('**/api/games/*/analysis*', (route) => route.fulfill({
          status: 503, contentType: 'application/json', body: JSON.stringify({ error: { code: 'busy', message: 'busy' } }),
        }));
        await page.selectOption('.analysis-seat', '1');
        await page.waitForSelector('.analysis-panel[data-state=error][data-error=busy]');
        assert.match(await page.textContent('.analysis-error'), /busy analysing other games/);
        await shot(page, 'analysis-en-busy-desktop');
        await page.unroute('**/api/games/*/analysis*');
        await page.click('[data-action=analysis-retry]');
        await page.waitForSelector('.analysis-panel[data-state=done][data-seat="1"]');
        await page.route('**/api/games/*/analysis*', (route) => route.fulfill({
          status: 409, contentType: 'application/json', body: JSON.stringify({ error: { code: 'damaged', message: 'damaged' } }),
        }));
        await page.selectOption('.analysis-seat', '0');
        await page.waitForSelector('.analysis-panel[data-state=error][data-error=damaged]');
        assert.match(await page.textContent('.analysis-error'), /damaged/);
        assert.equal(await page.locator('[data-action=analysis-retry]').count(), 0, 'nothing to try again');
        await page.unroute('**/api/games/*/analysis*');
      }

      // Closing the replay closes the panel.
      await page.click('.replay-bar [data-action=close-replay]');
      await page.waitForSelector('.analysis-panel', { state: 'detached' });
      assertNoErrors(page);
      await page.context().close();

      if (c.lang === 'de') {
        // A spectator: the first seat, nobody is "du"; the kept analysis comes at once.
        const spy = await newPage(browser, DESKTOP);
        await spy.goto(`${srv.base}/?lang=de#/game/${id}/replay`);
        await spy.waitForSelector('.analysis-panel[data-state=idle][data-seat="0"]');
        const options = await spy.$$eval('.analysis-seat option', (os) => os.map((o) => o.textContent));
        assert.equal(options.length, 2);
        assert.equal(options[0], 'Jörg', 'no "(du)" for a spectator');
        await spy.click('.analysis-panel [data-action=analyse]');
        await spy.waitForSelector('.analysis-panel[data-state=done] .analysis-chart');
        assert.equal(await spy.locator('.analysis-chart .pt').count(), result.decisions.length);
        assertNoErrors(spy);
        await spy.context().close();
      }
    }
  } finally {
    await browser.close();
    await srv.stop();
  }
});
