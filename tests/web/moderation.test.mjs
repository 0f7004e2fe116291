// moderation.test.mjs — keeping order in the browser (issue 51, docs/moderation.md):
// - Ann (English, desktop) reports a line of Bo's chat with the flag on the line;
// - Mo, made a moderator with `axio admin grant` (Hungarian, desktop), finds the report
//   with the line on the moderation page, warns Bo and times his chat out, then
//   dismisses the report; the log lists both actions;
// - Bo (German, phone) is told at once: his chat input is closed with the end time; at
//   his next visit he sees the warning until he has read it, and still cannot chat;
// - Ann's profile of Bo has Block, and the lobby header shows Mo the moderation link.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launch, newPage, freePort, shot, assertNoErrors, signUpHere, openAsPlayer, WIDE_DESKTOP, TOUCH, PHONE } from './lib.mjs';
import { MESSAGES } from '../../web/js/messages.js';

const M = (lang, key, params = {}) => { const v = MESSAGES[lang][key]; return typeof v === 'function' ? v(params) : v.replace(/\{(\w+)\}/g, (m, k) => params[k] ?? m); };
const SRC = process.env.SRC || path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');

// `axio serve` on a database that outlives it: the role is given with the server stopped
// (SQLite's lock), then it starts again on the same port (the pages keep their cookies).
function serve(dir, port) {
  const log = fs.openSync(path.join(dir, 'server.log'), 'a');
  const proc = spawn(process.env.AXIO, ['serve', '--port', String(port), '--bind', '127.0.0.1', '--db', path.join(dir, 'mod.db'),
    '--web', path.join(SRC, 'web'), '--word-list', path.join(SRC, 'data', 'wordlist'), '--max-signups-per-ip', '1000',
    '--request-rate', '1000'], { stdio: ['ignore', log, log] });
  const base = `http://127.0.0.1:${port}`;
  const stop = () => new Promise((resolve) => {
    if (proc.exitCode !== null || proc.signalCode !== null) { resolve(); return; }
    proc.once('exit', () => resolve());
    proc.kill('SIGTERM');
  });
  const ready = (async () => {
    for (let i = 0; i < 200; i++) {
      try { if ((await fetch(`${base}/api/health`)).ok) return; } catch { /* not yet */ }
      await new Promise((r) => setTimeout(r, 150));
    }
    throw new Error(fs.readFileSync(path.join(dir, 'server.log'), 'utf8'));
  })();
  return { base, stop, ready };
}

const fetchIn = (page, method, p, body = null) => page.evaluate(async ([m, u, b]) => {
  const res = await fetch(u, { method: m, headers: b ? { 'Content-Type': 'application/json' } : {}, body: b ? JSON.stringify(b) : undefined });
  return { status: res.status, body: await res.json().catch(() => null) };
}, [method, p, body]);

async function say(page, text) {
  if (!(await page.locator('#chat.open').count())) await page.click('#chat [data-action=chat-toggle]');
  await page.fill('#chat .chat-input', text);
  await page.press('#chat .chat-input', 'Enter');
}

test('moderation: a chat line reported, a moderator warns and times out, the player sees it', { timeout: 300000 }, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'axio-web-mod-'));
  const port = await freePort();
  let srv = serve(dir, port);
  await srv.ready;
  const browser = await launch();
  try {
    const ann = await newPage(browser, WIDE_DESKTOP);
    await signUpHere(ann, srv.base, 'Ann');
    const bo = await newPage(browser, PHONE, TOUCH);
    await signUpHere(bo, srv.base, 'Bo', { lang: 'de' });
    const mo = await newPage(browser, WIDE_DESKTOP);
    await signUpHere(mo, srv.base, 'Mo', { lang: 'hu' });
    await srv.stop();
    const granted = spawnSync(process.env.AXIO, ['admin', 'grant', 'Mo', 'moderator', '--db', path.join(dir, 'mod.db')], { encoding: 'utf8' });
    assert.equal(granted.status, 0, granted.stderr);
    srv = serve(dir, port);
    await srv.ready;

    // A game of Ann and Bo; Bo is rude.
    const made = await fetchIn(ann, 'POST', '/api/games', { variant: 'square', players: 2, seats: [{ kind: 'human' }, { kind: 'human' }] });
    assert.equal(made.status, 201);
    const joined = await fetchIn(bo, 'POST', `/api/games/${made.body.game}/join`, {});
    assert.equal(joined.status, 200);
    await openAsPlayer(ann, srv.base, made.body.game, 0, made.body.token, { created: true });
    await bo.goto(`${srv.base}/?lang=de#/`);
    await openAsPlayer(bo, srv.base, made.body.game, 1, joined.body.token);
    await say(bo, 'du spielst wie ein Stein');
    await ann.waitForFunction(() => [...document.querySelectorAll('#chat .chat-text')].some((e) => e.textContent === 'du spielst wie ein Stein'));
    if (!(await ann.locator('#chat.open').count())) await ann.click('#chat [data-action=chat-toggle]');

    // Ann reports the line with its flag.
    assert.equal(await ann.locator('#chat .chat-msg.mine [data-action=chat-report]').count(), 0, 'no flag on one\'s own lines');
    await ann.click('#chat .chat-msg:not(.mine) [data-action=chat-report]');
    await ann.waitForSelector('.report-dialog select.report-reason');
    assert.equal(await ann.inputValue('.report-dialog select.report-reason'), 'insults');
    await ann.fill('.report-dialog .report-text', 'rude <b>again</b>');
    await shot(ann, 'moderation-report-dialog-desktop');
    await ann.click('.report-dialog [data-action=report-send]');
    await ann.waitForFunction((want) => document.querySelector('.report-dialog h2')?.textContent === want, M('en', 'mod.report_sent'));
    await ann.click('.report-dialog [data-action=close]');

    // Mo handles it on the moderation page (Hungarian).
    await mo.goto(`${srv.base}/?lang=hu#/`);
    await mo.reload(); // the page was opened before the role was given
    await mo.waitForSelector('#account [data-action=moderation]');
    assert.equal(await mo.textContent('#account [data-action=moderation]'), M('hu', 'mod.nav'));
    await mo.click('#account [data-action=moderation]');
    const report = mo.locator('.mod-report[data-player="Bo"]');
    await report.waitFor();
    assert.ok((await report.locator('.mod-chat-line.reported').textContent()).includes('du spielst wie ein Stein'));
    assert.ok((await report.textContent()).includes('rude <b>again</b>'), 'the report text, as text');
    assert.equal(await report.locator('.mod-report-text b').count(), 0);
    assert.ok((await report.textContent()).includes(M('hu', 'mod.by', { name: 'Ann' })));
    await report.locator('.mod-why').fill('sértegetés a csevegésben');
    await report.locator('.mod-extra').fill('Bitte bleib freundlich.');
    await report.locator('[data-action=mod-warn]').click();
    await mo.waitForFunction((want) => document.querySelector('.mod-msg')?.textContent === want, M('hu', 'mod.done'));
    await report.locator('.mod-why').fill('sértegetés a csevegésben');
    await report.locator('.mod-extra').fill('30');
    await report.locator('[data-action=mod-timeout]').click();
    await mo.waitForSelector('.mod-log-line[data-action=timeout]');
    await shot(mo, 'moderation-page-desktop');

    // Bo is told at once: no more chat, until the end time.
    await bo.waitForSelector('#chat[data-timeout="1"]', { timeout: 10000 });
    assert.ok(await bo.locator('#chat .chat-input').isDisabled());
    const placeholder = await bo.getAttribute('#chat .chat-input', 'placeholder');
    assert.match(placeholder, /^Ein Moderator hat deinen Chat bis \d\d:\d\d gesperrt\.$/);
    await shot(bo, 'moderation-timeout-phone');

    // Mo dismisses the report; the log has both actions.
    await report.locator('.mod-why').fill('erledigt');
    await report.locator('[data-action=mod-dismiss]').click();
    await mo.waitForSelector('.mod-empty');
    const actions = await mo.$$eval('.mod-log-line', (els) => els.map((e) => e.dataset.action));
    assert.deepEqual(actions, ['close_report', 'timeout', 'warn']);
    // what each did, in Hungarian (the warning's text as typed)
    const details = await mo.$$eval('.mod-log-line', (els) => els.map((e) => e.querySelector('.mod-log-detail')?.textContent));
    assert.match(details[0], new RegExp(`^ \\(${M('hu', 'mod.log.report', { id: '\\d+' })}\\)$`));
    assert.equal(details[1], ` (${M('hu', 'mod.log.minutes', { n: 30 })})`);
    assert.equal(details[2], ' (Bitte bleib freundlich.)');
    assert.equal(await mo.locator('.mod-log-line[data-action=timeout] [data-action=mod-undo]').count(), 1);

    // Bo's next visit: the warning, until read; his chat still closed.
    await bo.reload();
    await bo.waitForSelector('.report-dialog .warning-text');
    assert.equal(await bo.textContent('.report-dialog h2'), M('de', 'mod.warning_title'));
    assert.equal(await bo.textContent('.report-dialog .warning-text'), 'Bitte bleib freundlich.');
    await shot(bo, 'moderation-warning-phone');
    await bo.click('.report-dialog [data-action=warning-read]');
    await bo.waitForSelector('#chat[data-timeout="1"]', { timeout: 10000 });
    assert.ok(await bo.locator('#chat .chat-input').isDisabled());
    await bo.reload();
    await bo.waitForSelector('#chat[data-timeout="1"]', { timeout: 10000 });
    assert.equal(await bo.locator('.report-dialog .warning-text').count(), 0, 'a read warning is not shown again');

    // Ann blocks Bo on his profile.
    await ann.goto(`${srv.base}/?lang=en#/player/Bo`);
    await ann.waitForSelector('.profile-head [data-action=block]:not([disabled])');
    await ann.click('[data-action=block]');
    await ann.waitForSelector('[data-action=block][data-blocked="1"]:not([disabled])');
    assert.equal(await ann.textContent('[data-action=block]'), M('en', 'mod.unblock'));
    for (const p of [ann, bo, mo]) assertNoErrors(p);
  } finally {
    await browser.close();
    await srv.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
