// rota.test.mjs — AXIO ROTA in the browser: a whole game against the computer,
// naming the colour of a wild (empty) corner when the hand tile has one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage } from './lib.mjs';
import { playToEnd } from './play.mjs';

test('rota: play games against the computer by clicking, with a wild corner', { timeout: 420000 }, async () => {
  const browser = await launch();
  try {
    let wild = null;
    // A hand tile with an empty corner comes in most games; play another game if not.
    for (let game = 0; game < 4 && !wild; game++) {
      const page = await newPage(browser);
      const f = await playToEnd(page, { variant: 'rota', seats: ['human', 'ai:random'], name: 'Rota', shotName: game === 0 ? 'rota' : null, wantWild: true });
      assert.ok(f.moves >= 10, `played ${f.moves} moves`);
      assert.ok(f.rotated, 'turned a tile');
      wild = f.wild;
      await page.context().close();
    }
    assert.ok(wild, 'named the colour of a wild corner');
  } finally {
    await browser.close();
  }
});
