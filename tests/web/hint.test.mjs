// hint.test.mjs — the Hint button of a casual game: it asks the server's engine, the
// hinted tile appears on the board turned and placed with its preview (legal), and a
// click on it plays it. Three decisions in a row in AXIO and in AXIO Hex; a phone
// screenshot of a shown hint.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, createGame, waitTurnOrEnd, answerSwap, cellPoint, clickAndWait, assertNoErrors, shot, PHONE } from './lib.mjs';

async function playByHints(page, decisions, shotName) {
  for (let i = 0; i < decisions; i++) {
    const st = await waitTurnOrEnd(page, 60000);
    if (st.status === 'over') return;
    if (await answerSwap(page)) continue;
    await page.click('[data-action=hint]');
    const key = await page.waitForFunction(() => {
      const el = document.getElementById('preview');
      return el && el.dataset.state === 'legal' ? el.dataset.key : null;
    }, null, { timeout: 30000 });
    const cell = await key.jsonValue();
    assert.ok(await page.locator('.rack-tile.selected').count(), 'the hinted tile is picked');
    if (i === 0 && shotName) await shot(page, shotName);
    await clickAndWait(page, await cellPoint(page, cell));
  }
}

test("hint: the engine's advice is shown on the board and placed with one click", { timeout: 240000 }, async () => {
  const browser = await launch();
  try {
    for (const variant of ['square', 'hex']) {
      const page = await newPage(browser);
      await createGame(page, { variant, players: 2, seats: ['human', 'ai:random'] });
      await playByHints(page, 3, `hint-${variant}-desktop`);
      assertNoErrors(page);
      await page.close();
    }
    const phone = await newPage(browser, PHONE);
    await createGame(phone, { variant: 'square', players: 2, seats: ['human', 'ai:random'] });
    await playByHints(phone, 1, 'hint-square-phone');
    await phone.close();
  } finally {
    await browser.close();
  }
});
