// lib.mjs — shared helpers of the browser tests: launching Debian's chromium
// through playwright-core, creating games from the lobby, and playing a turn the
// way a person does (pick a tile, turn it, hover to get the server's preview,
// click). The tests find legal places only through the preview shown on the page.
// startServer() runs a test's own `axio serve` with extra flags (small limits).
import { chromium } from 'playwright-core';
import { spawn } from 'node:child_process';
import net from 'node:net';
import os from 'node:os';
import fs from 'node:fs';
import path from 'node:path';
import assert from 'node:assert/strict';
import { after } from 'node:test';

export const BASE = process.env.AXIO_URL;
export const SHOTS = process.env.AXIO_SHOTS || path.join(process.env.SRC || '.', 'tests/web/screenshots');
export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

// Pages prefer reduced motion (web/css/axio.css), as a person can ask of the system: a
// pulsing badge or a spinner repaints at every frame, in software here (web/guide, one run
// each: 171 s with motion, 156 s without). AXIO_WEB_MOTION=1 runs the pages with their animations.
//
// One chromium serves all the tests of a file (each file runs in a process of its own):
// a launch costs about a second of CPU, and the tests launch over a hundred times. A
// test's launch() gives it a browser of its own contexts (cookies and storage apart),
// which its close() closes; the chromium goes at the end of the file, or is launched
// again if it crashed.
let shared = null;
after(async () => { if (shared) await shared.close().catch(() => {}); shared = null; });

export async function launch() {
  if (!BASE) throw new Error('AXIO_URL is not set (run tests/web/run.sh)');
  if (!shared || !shared.isConnected()) {
    shared = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
        '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  }
  const chrome = shared;
  const contexts = new Set();
  const motion = process.env.AXIO_WEB_MOTION ? {} : { reducedMotion: 'reduce' };
  return {
    async newContext(options = {}) {
      const context = await chrome.newContext({ ...motion, ...options });
      contexts.add(context);
      context.on('close', () => contexts.delete(context));
      return context;
    },
    async close() {
      await Promise.all([...contexts].map((c) => c.close().catch(() => {})));
    },
  };
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

// Screenshots at both sizes (the page is put back to its own size after).
export async function shotBoth(page, name) {
  const own = page.viewportSize() || DESKTOP;
  await page.setViewportSize(DESKTOP);
  await page.waitForTimeout(150);
  await shot(page, `${name}-desktop`);
  await page.setViewportSize(PHONE);
  await page.waitForTimeout(250);
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}-phone.png`), fullPage: true });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.setViewportSize(own);
  await page.waitForTimeout(150);
}

// Creates a game from the lobby form; seats: ['human', 'ai:greedy', ...].
// keepForm: the page is on the lobby already with fields (e.g. the clock) set.
// name: null when logged in (the form asks no name); clock: a preset ('rapid');
// rated: true for a rated game (needs an account and a clock).
export async function createGame(page, { variant, players, mode, seats, name = 'Tester', keepForm = false, clock = null, rated = false }, base = BASE) {
  if (!keepForm) await page.goto(`${base}/#/`);
  // The form is drawn again once the page knows who is signed in: a choice made before
  // that can be lost (a clean run's radio "did not change its state").
  await page.waitForSelector(`.name-box[data-state=${name === null ? 'account' : 'guest'}]`);
  if (name !== null) await page.fill('#player-name', name);
  await page.check(`input[name=variant][value=${variant}]`, { force: true });
  await page.check(`input[name=players][value="${players}"]`, { force: true });
  if (mode) await page.check(`input[name=mode][value=${mode}]`, { force: true });
  for (let i = 0; i < seats.length; i++) await page.selectOption(`#seat-${i}`, seats[i]);
  if (clock) await page.check(`input[name=clock][value=${clock}]`, { force: true });
  if (rated) await page.check('input[name=rated][value=rated]', { force: true });
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

// A cell's centre after scrolling it to the middle of the screen, for a tap: a cell just
// scrolled into view can lie under the sticky header (or the chat's button), and a tap
// there lands on them instead.
export async function cellInSight(page, cell) {
  await page.locator(`.board-svg [data-cell="${cell}"]`).first().evaluate((el) => el.scrollIntoView({ block: 'center', inline: 'center' }));
  return cellPoint(page, cell);
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

// Plays one legal move by clicking (the first move near a field). Returns the cell.
export async function placeOne(page, { firstMove = false } = {}) {
  await waitTurnOrEnd(page, 30000);
  await pickTile(page, 0);
  const found = await findLegal(page, { near: firstMove ? await fieldCells(page) : [] });
  assert.ok(found, 'a legal place');
  await clickAndWait(page, found.preview.point);
  return found.cell;
}

// Joins a waiting game from the lobby's list of open games.
export async function joinFromLobby(page, id, name, base = BASE) {
  await page.goto(`${base}/#/`);
  await page.fill('#player-name', name);
  const row = page.locator(`#open-games .game-row[data-game="${id}"]`);
  await row.waitFor({ timeout: 10000 });
  await row.locator('[data-action=join]').click();
  await page.waitForURL(new RegExp(`#/game/${id}`));
  await page.waitForSelector('.game:not(.loading) .score-card.you');
}

export function assertNoErrors(page) {
  assert.deepEqual(page.errors, [], `script errors on the page: ${page.errors.join('; ')}`);
}

export async function apiGet(p) {
  const res = await fetch(`${BASE}${p}`);
  const text = await res.text();
  try { return { status: res.status, body: JSON.parse(text), text }; } catch { return { status: res.status, body: null, text }; }
}

// ---- a server of the test's own ----------------------------------------------
export const freePort = () => new Promise((resolve) => {
  const srv = net.createServer();
  srv.listen(0, '127.0.0.1', () => { const p = srv.address().port; srv.close(() => resolve(p)); });
});

// Starts `axio serve` ($AXIO) on a free port with a temporary database and the given
// extra flags (e.g. ['--absent-s', '2'], or a function of the port giving them). Like
// run.sh's server, it allows more signups and API requests from 127.0.0.1 than a person
// gets (a flag given again overrides). Returns {base, port, stop()}; stop() ends the
// process and removes the database.
export async function startServer(flagsOrFn = []) {
  assert.ok(process.env.AXIO, 'AXIO is set');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'axio-web-own-'));
  const port = await freePort();
  const flags = typeof flagsOrFn === 'function' ? flagsOrFn(port) : flagsOrFn;
  const web = path.join(process.env.SRC || path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..'), 'web');
  const log = fs.openSync(path.join(dir, 'server.log'), 'w');
  const proc = spawn(process.env.AXIO, ['serve', '--port', String(port), '--bind', '127.0.0.1', '--db', path.join(dir, 'own.db'),
    '--web', web, '--max-signups-per-ip', '1000', '--request-rate', '1000', '--max-waiting-per-ip', '1000',
    '--max-strong-games-per-ip', '1000', '--max-hints-per-ip', '100000', '--max-analyses-per-ip', '1000', ...flags], { stdio: ['ignore', log, log] });
  const base = `http://127.0.0.1:${port}`;
  const stop = () => new Promise((resolve) => {
    const done = () => { fs.closeSync(log); fs.rmSync(dir, { recursive: true, force: true }); resolve(); };
    if (proc.exitCode !== null || proc.signalCode !== null) { done(); return; }
    proc.once('exit', done);
    proc.kill('SIGTERM');
    setTimeout(() => proc.kill('SIGKILL'), 5000).unref();
  });
  for (let i = 0; i < 100; i++) {
    try { if ((await fetch(`${base}/api/health`)).ok) return { base, port, stop, log: () => fs.readFileSync(path.join(dir, 'server.log'), 'utf8') }; } catch { /* not yet */ }
    if (proc.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 150));
  }
  const text = fs.readFileSync(path.join(dir, 'server.log'), 'utf8');
  await stop();
  throw new Error(`axio serve ${flags.join(' ')} did not start: ${text}`);
}

// A JSON request to a server: {status, body}.
export async function apiCall(base, method, p, body = null, token = null) {
  const headers = {};
  if (body) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(`${base}${p}`, { method, headers, body: body ? JSON.stringify(body) : undefined });
  const text = await res.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = text; }
  return { status: res.status, body: data };
}

// Opens a game page as a seated player: the token goes into localStorage first.
export async function openAsPlayer(page, base, id, seat, token, { created = false } = {}) {
  await page.goto(`${base}/#/`);
  await page.evaluate(([i, s, tk, c]) => {
    localStorage.setItem(`axio.token.${i}`, JSON.stringify({ seat: s, token: tk, at: Date.now() }));
    if (c) localStorage.setItem(`axio.created.${i}`, String(Date.now()));
  }, [id, seat, token, created]);
  await page.goto(`${base}/#/game/${id}`);
  await page.waitForSelector('.game:not(.loading) .board-svg, .gone-game');
}

// ---- accounts in a page ---------------------------------------------------------
export const WIDE_DESKTOP = { width: 1366, height: 800 };
export const TOUCH = { isMobile: true, hasTouch: true };
export const PASSWORD = 'correct horse 7';

// Signs up from the page (POST /api/accounts, as the sign-up page sends it): the session
// cookie lands in the page's browser context. Then opens `hash` in the language.
export async function signUpHere(page, base, name, { lang = 'en', hash = '#/' } = {}) {
  await page.goto(`${base}/?lang=${lang}#/`);
  const status = await page.evaluate(async ([n, pw]) => (await fetch('/api/accounts', {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ name: n, password: pw }),
  })).status, [name, PASSWORD]);
  assert.equal(status, 201, `signed up ${name}`);
  await page.goto(`${base}/?lang=${lang}${hash}`);
  await page.reload();
  await page.waitForSelector('#account[data-state=account]');
}

// Logs in through the log-in page, as a person does on another device.
export async function logInHere(page, base, name, { lang = 'en' } = {}) {
  await page.goto(`${base}/?lang=${lang}#/login`);
  await page.waitForSelector('#auth-name');
  await page.fill('#auth-name', name);
  await page.fill('#auth-password', PASSWORD);
  await page.click('button[data-action=login]');
  await page.waitForSelector('#account[data-state=account]');
}

// A player's ratings as the server has them (GET /api/players/NAME).
export async function ratingsOf(base, name) {
  const r = await fetch(`${base}/api/players/${encodeURIComponent(name)}`);
  assert.equal(r.status, 200, `the profile of ${name}`);
  return (await r.json()).ratings;
}
