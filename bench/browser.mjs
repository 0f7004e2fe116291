// browser.mjs — a person in Debian's chromium beside a load (bench/load.py --browser):
// plays games of square against the `random` computer by clicking, one after the other,
// until SIGTERM or AXIO_SECONDS, then prints one JSON line: how long each placement took
// from its click to the board showing it (the state's seq changing), p50/p99/max, and
// the page errors seen. Uses the browser tests' helpers (tests/web/lib.mjs).
//
//   AXIO_URL=http://127.0.0.1:8080 AXIO_SECONDS=60 node bench/browser.mjs
import { performance } from 'node:perf_hooks';
import {
  launch, newPage, createGame, waitTurnOrEnd, pickTile, findLegal, fieldCells, gameState, answerSwap,
} from '../tests/web/lib.mjs';

const seconds = Number(process.env.AXIO_SECONDS || 600);
let stopping = false;
process.on('SIGTERM', () => { stopping = true; });
setTimeout(() => { stopping = true; }, seconds * 1000);

const waits = [];
const errors = [];
let games = 0;

const pct = (v, p) => {
  if (!v.length) return null;
  const s = [...v].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.round((p / 100) * s.length + 0.5) - 1))];
};

const browser = await launch();
const page = await newPage(browser);
page.on('pageerror', (e) => errors.push(String(e)));
try {
  while (!stopping) {
    await createGame(page, { variant: 'square', players: 2, seats: ['human', 'ai:random'], name: 'Browser' });
    let first = true;
    for (let guard = 0; guard < 200 && !stopping; guard++) {
      const st = await waitTurnOrEnd(page, 60000);
      if (st.status === 'over') break;
      if (await answerSwap(page)) continue;
      await pickTile(page, 0);
      const found = await findLegal(page, { near: first ? await fieldCells(page) : [] });
      if (!found) break;
      first = false;
      const before = (await gameState(page)).seq;
      const t0 = performance.now();
      await page.mouse.click(found.preview.point.x, found.preview.point.y);
      await page.waitForFunction((b) => Number(document.querySelector('.game').dataset.seq) > b, before,
        { timeout: 30000, polling: 'raf' });
      waits.push(performance.now() - t0);
    }
    games++;
  }
} catch (e) {
  if (!stopping) errors.push(String(e)); // after SIGTERM the page closes under a wait: no error
} finally {
  await browser.close();
}
console.log(JSON.stringify({
  games, placements: waits.length, click_to_board_ms: { p50: pct(waits, 50), p99: pct(waits, 99), max: waits.length ? Math.max(...waits) : null }, errors,
}));
