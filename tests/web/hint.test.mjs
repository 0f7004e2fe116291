// hint.test.mjs — the Hint button of a casual game: it asks the server's engine, the
// hinted tile appears on the board turned and placed with its preview (legal), and a
// click on it plays it. Three decisions in a row in AXIO (English), AXIO Hex (German) and
// AXIO ROTA (Hungarian), the button and its message in the page's language; a phone
// screenshot of a shown hint.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, createGame, waitTurnOrEnd, answerSwap, cellPoint, gameState, assertNoErrors, shot, PHONE, BASE } from './lib.mjs';
import { MESSAGES } from '../../web/js/messages.js';

async function playByHints(page, decisions, shotName, lang = 'en') {
  const L = MESSAGES[lang];
  for (let i = 0; i < decisions; i++) {
    const st = await waitTurnOrEnd(page, 60000);
    if (st.status === 'over') return;
    if (await answerSwap(page)) continue;
    assert.equal((await page.textContent('[data-action=hint]')).trim(), L['hint.button']);
    await page.click('[data-action=hint]');
    const key = await page.waitForFunction(() => {
      const el = document.getElementById('preview');
      return el && el.dataset.state === 'legal' ? el.dataset.key : null;
    }, null, { timeout: 30000 });
    const cell = await key.jsonValue();
    assert.ok(await page.locator('.rack-tile.selected').count(), 'the hinted tile is picked');
    await page.waitForSelector(`.toast:has-text("${L['hint.shown'].slice(0, 20)}")`);
    if (i === 0 && shotName) await shot(page, shotName);
    // ROTA: a tile with an empty corner asks for that corner's colour first; the best offered.
    const seq = (await gameState(page)).seq;
    const point = await cellPoint(page, cell);
    await page.mouse.click(point.x, point.y);
    const next = await page.waitForFunction((b) => (document.querySelector('.wild-dialog') ? 'wild'
      : Number(document.querySelector('.game').dataset.seq) > b ? 'moved' : null), seq, { timeout: 30000 });
    if ((await next.jsonValue()) === 'wild') {
      await page.click('.wild-dialog [data-wild]');
      await page.waitForFunction((b) => Number(document.querySelector('.game').dataset.seq) > b, seq, { timeout: 30000 });
    }
  }
}

test("hint: the engine's advice is shown on the board and placed with one click", { timeout: 240000 }, async () => {
  const browser = await launch();
  try {
    for (const [variant, lang] of [['square', 'en'], ['hex', 'de'], ['rota', 'hu']]) {
      const page = await newPage(browser);
      await page.goto(`${BASE}/?lang=${lang}#/`);
      await createGame(page, { variant, players: 2, seats: ['human', 'ai:random'], keepForm: true });
      await playByHints(page, 3, `hint-${variant}-${lang}-desktop`, lang);
      assertNoErrors(page);
      await page.close();
    }
    const phone = await newPage(browser, PHONE);
    await phone.goto(`${BASE}/?lang=hu#/`);
    await createGame(phone, { variant: 'square', players: 2, seats: ['human', 'ai:random'], keepForm: true });
    await playByHints(phone, 1, 'hint-square-hu-phone', 'hu');
    await phone.close();
  } finally {
    await browser.close();
  }
});
