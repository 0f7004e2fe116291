// square.test.mjs — AXIO (square) in the browser: a whole game against the computer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage } from './lib.mjs';
import { playToEnd } from './play.mjs';

test('square: play a game against the computer by clicking, to the end screen', { timeout: 300000 }, async () => {
  const browser = await launch();
  try {
    const page = await newPage(browser);
    const f = await playToEnd(page, { variant: 'square', seats: ['human', 'ai:random'], name: 'Ann', shotName: 'square' });
    assert.ok(f.moves >= 5, `played ${f.moves} moves`);
    assert.ok(f.rotated, 'turned a tile');
    assert.ok(f.sawIllegal, 'saw an illegal place');
  } finally {
    await browser.close();
  }
});
