// lib.mjs — shared helpers of the browser tests: launching Debian's chromium
// through playwright-core, creating games from the lobby, and playing a turn the
// way a person does (pick a tile, turn it, hover to get the server's preview,
// click). The tests find legal places only through the preview shown on the page.
import { chromium } from 'playwright-core';
import fs from 'node:fs';
import path from 'node:path';
import assert from 'node:assert/strict';

export const BASE = process.env.AXIO_URL;
export const SHOTS = process.env.AXIO_SHOTS || path.join(process.env.SRC || '.', 'tests/web/screenshots');
export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

export async function launch() {
  if (!BASE) throw new Error('AXIO_URL is not set (run tests/web/run.sh)');
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

// A page that fails the test on any script error.
export async function newPage(browser, viewport = DESKTOP, extra = {}) {
  const context = await browser.newContext({ viewport, ...extra });
  const page = await context.newPage();
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error' && !/WebSocket|Failed to load resource/.test(m.text())) page.errors.push(m.text()); });
  return page;
}

export async function shot(page, name) {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
}

// Screenshots at both sizes (the page is put back to the desktop size after).
export async function shotBoth(page, name) {
  await page.waitForTimeout(150);
  await shot(page, `${name}-desktop`);
  await page.setViewportSize(PHONE);
  await page.waitForTimeout(250);
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}-phone.png`), fullPage: true });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.setViewportSize(DESKTOP);
  await page.waitForTimeout(150);
}

// Creates a game from the lobby form; seats: ['human', 'ai:greedy', ...].
export async function createGame(page, { variant, players, mode, seats, name = 'Tester' }, base = BASE) {
  await page.goto(`${base}/#/`);
  await page.fill('#player-name', name);
  await page.check(`input[name=variant][value=${variant}]`, { force: true });
  await page.check(`input[name=players][value="${players}"]`, { force: true });
  if (mode) await page.check(`input[name=mode][value=${mode}]`, { force: true });
  for (let i = 0; i < seats.length; i++) await page.selectOption(`#seat-${i}`, seats[i]);
  await page.click('#create-game');
  await page.waitForURL(/#\/game\//);
  await page.waitForSelector('.game:not(.loading) .board-svg');
  return page.url().split('#/game/')[1];
}

export const gameState = (page) => page.evaluate(() => {
  const g = document.querySelector('.game');
  return { status: g?.dataset.status, phase: g?.dataset.phase, toMove: Number(g?.dataset.toMove), seq: Number(g?.dataset.seq) };
});

// Waits until it is this page's turn (status line says so) or the game is over.
export async function waitTurnOrEnd(page, timeout = 60000) {
  await page.waitForFunction(() => {
    const g = document.querySelector('.game');
    if (!g) return false;
    if (g.dataset.status === 'over') return true;
    return !!document.querySelector('.status-line.your-turn') && !document.querySelector('.status-line .spinner');
  }, null, { timeout });
  return gameState(page);
}

// The score map shown for a seat in the score panel.
export const shownScore = (page, seat) => page.evaluate((s) => {
  const out = {};
  for (const b of document.querySelectorAll(`.score-card[data-seat="${s}"] .bar-col`)) out[b.dataset.color] = Number(b.dataset.value);
  return out;
}, seat);

// Centre of a board cell on the screen.
export async function cellPoint(page, cell) {
  const box = await page.locator(`.board-svg [data-cell="${cell}"]`).first().boundingBox();
  if (!box) return null;
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

// Hovers a cell and waits for the server's preview of it; returns its state.
export async function hoverPreview(page, cell) {
  const p = await cellPoint(page, cell);
  if (!p) return null;
  await page.mouse.move(p.x, p.y);
  const h = await page.waitForFunction((key) => {
    const el = document.getElementById('preview');
    if (!el || el.dataset.key !== key) return null;
    if (el.dataset.state === 'legal' || el.dataset.state === 'illegal') {
      return { state: el.dataset.state, total: Number(el.dataset.total || 0), score: el.dataset.score ? JSON.parse(el.dataset.score) : null, text: el.textContent };
    }
    return null;
  }, cell, { timeout: 10000 });
  return { ...(await h.jsonValue()), point: p };
}

// Cells of the board that hold nothing (square/hex), or the frontier (rota).
export const freeCells = (page) => page.evaluate(() => {
  const taken = new Set();
  for (const el of document.querySelectorAll('.layer-tiles [data-half], .layer-board [data-field], .layer-tiles [data-pyramid], .layer-board [data-dead]')) {
    taken.add(el.dataset.half || el.dataset.field || el.dataset.pyramid || el.dataset.dead);
  }
  return [...document.querySelectorAll('.layer-board [data-cell]')].map((e) => e.dataset.cell).filter((c) => !taken.has(c));
});

export const fieldCells = (page) => page.evaluate(() => [...document.querySelectorAll('.layer-board [data-field]')].map((e) => e.dataset.field));

export async function pickTile(page, i) {
  await page.click(`.rack-tile[data-index="${i}"]`);
  await page.waitForSelector(`.rack-tile[data-index="${i}"].selected`);
}

export async function rotateByRightClick(page) {
  const before = await page.getAttribute('.rack-panel', 'data-rot');
  await page.click('.rack-tile.selected', { button: 'right' });
  await page.waitForFunction((b) => document.querySelector('.rack-panel').dataset.rot !== b, before);
  return Number(await page.getAttribute('.rack-panel', 'data-rot'));
}

const dist = (a, b) => Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]);
const parse = (c) => c.split(',').map(Number);

// Tries cells in a good order until the preview says legal; returns {cell, preview} or null.
export async function findLegal(page, { near = [], limit = 400, avoid = new Set() } = {}) {
  let cells = (await freeCells(page)).filter((c) => !avoid.has(c));
  if (near.length) {
    const pts = near.map(parse);
    cells.sort((a, b) => Math.min(...pts.map((p) => dist(parse(a), p))) - Math.min(...pts.map((p) => dist(parse(b), p))));
  } else {
    cells = cells.sort(() => Math.random() - 0.5);
  }
  for (const cell of cells.slice(0, limit)) {
    const pv = await hoverPreview(page, cell);
    if (pv && pv.state === 'legal') return { cell, preview: pv };
  }
  return null;
}

// Clicks at a point and waits until the move went through (the state changed).
export async function clickAndWait(page, point) {
  const before = (await gameState(page)).seq;
  await page.mouse.click(point.x, point.y);
  await page.waitForFunction((b) => Number(document.querySelector('.game').dataset.seq) > b, before, { timeout: 15000 });
}

// Answers a swap offer if there is one (alternately keep and swap).
let swapToggle = false;
export async function answerSwap(page) {
  if (!(await page.locator('.swap-dialog').count())) return false;
  swapToggle = !swapToggle;
  const seq = await page.getAttribute('.game', 'data-seq');
  await page.click(`.swap-dialog [data-action=${swapToggle ? 'keep' : 'swap'}]`);
  await page.waitForFunction(() => !document.querySelector('.swap-dialog'));
  await page.waitForFunction((b) => document.querySelector('.game').dataset.seq !== b, seq);
  return true;
}

export function assertNoErrors(page) {
  assert.deepEqual(page.errors, [], `script errors on the page: ${page.errors.join('; ')}`);
}

export async function apiGet(p) {
  const res = await fetch(`${BASE}${p}`);
  const text = await res.text();
  try { return { status: res.status, body: JSON.parse(text), text }; } catch { return { status: res.status, body: null, text }; }
}
