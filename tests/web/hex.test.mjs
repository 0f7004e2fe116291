// hex.test.mjs — AXIO Hex in the browser: a whole game against the computer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage } from './lib.mjs';
import { playToEnd } from './play.mjs';

test('hex: play a game against the computer by clicking, to the end screen', { timeout: 360000 }, async () => {
  const browser = await launch();
  try {
    const page = await newPage(browser);
    const f = await playToEnd(page, { variant: 'hex', seats: ['human', 'ai:random'], name: 'Hexa', shotName: 'hex' });
    assert.ok(f.moves >= 5, `played ${f.moves} moves`);
    assert.ok(f.rotated, 'turned a tile');
    assert.ok(f.sawIllegal, 'saw an illegal place');
  } finally {
    await browser.close();
  }
});
