// bots.test.mjs — people meet bots (issue 49, item 4; docs/bot-api.md), on a server of the
// test's own: the bot is docs/bot-api.md's "A bot in 60 lines of Python", taken from the
// page as printed and run with `axio engine --player random`; its account and token are
// made through the HTTP API, as the doc's example session makes them.
// - A guest sees the bot in the lobby's Bots list, marked BOT, with who runs it (text,
//   never HTML); its Challenge asks the guest to log in.
// - Ann logs in, challenges the bot from that list (AXIO Hex, 10+5, rated); the bot
//   accepts and her page opens the game, the bot's seat marked BOT; the bot's chat line and
//   its moves in the log are marked BOT too; she plays it to the end by clicking.
// - Then the lobby's finished games mark the bot's seat; the bot is on the bots' leaderboard
//   (marked BOT), Ann on the people's; the bot's profile is marked BOT and says who runs it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import {
  launch, newPage, startServer, shot, assertNoErrors, signUpHere, WIDE_DESKTOP, PASSWORD,
  waitTurnOrEnd, pickTile, findLegal, fieldCells, clickAndWait, answerSwap,
} from './lib.mjs';
import { MESSAGES } from '../../web/js/messages.js';

const SRC = process.env.SRC || path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const ABOUT = 'Run by the tests; axio engine --player random <b>not bold</b>';

// A JSON request with a cookie or a bearer token: {status, body, cookie}.
async function call(base, method, p, body, { cookie = null, token = null } = {}) {
  const headers = {};
  if (body) headers['Content-Type'] = 'application/json';
  if (cookie) headers.Cookie = cookie;
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(`${base}${p}`, { method, headers, body: body ? JSON.stringify(body) : undefined });
  const text = await res.text();
  const set = res.headers.get('set-cookie');
  return { status: res.status, body: text ? JSON.parse(text) : null, cookie: set ? set.split(';')[0] : null };
}

// A bot account with a token of every scope, as docs/bot-api.md's example session makes it.
async function makeBot(base, name, about) {
  const signup = await call(base, 'POST', '/api/accounts', { name, password: PASSWORD });
  assert.equal(signup.status, 201, JSON.stringify(signup.body));
  const made = await call(base, 'POST', '/api/me/tokens', { label: 'the test bot', scopes: ['bot:play', 'challenge:write', 'game:read'] }, { cookie: signup.cookie });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  const up = await call(base, 'POST', '/api/bot/account/upgrade', { about }, { token: made.body.secret });
  assert.equal(up.status, 200, JSON.stringify(up.body));
  return made.body.secret;
}

// docs/bot-api.md's Python bot, as printed there, running against the server.
function startPythonBot(base, token) {
  const doc = fs.readFileSync(path.join(SRC, 'docs', 'bot-api.md'), 'utf8');
  const code = doc.split('## A bot in 60 lines of Python')[1].split('```python\n')[1].split('```')[0];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'axio-web-bot-'));
  fs.writeFileSync(path.join(dir, 'bot.py'), code);
  fs.writeFileSync(path.join(dir, 'token'), `${token}\n`);
  const proc = spawn('python3', [path.join(dir, 'bot.py')], {
    env: { ...process.env, AXIO_URL: base, AXIO_TOKEN_FILE: path.join(dir, 'token'), AXIO_ENGINE: `${process.env.AXIO} engine --player random` },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout.on('data', (d) => { out += d; });
  proc.stderr.on('data', (d) => { out += d; });
  return {
    output: () => out,
    stop: () => new Promise((resolve) => {
      const done = () => { fs.rmSync(dir, { recursive: true, force: true }); resolve(); };
      if (proc.exitCode !== null || proc.signalCode !== null) { done(); return; }
      proc.once('exit', done);
      proc.kill('SIGKILL');
    }),
  };
}

// Plays the rest of the game by clicking: a swap answered, else a tile placed where the
// server's preview says it is legal (the first one next to a start field).
async function playOut(page) {
  let moves = 0;
  for (let guard = 0; guard < 200; guard++) {
    const st = await waitTurnOrEnd(page, 30000);
    if (st.status === 'over') return moves;
    if (st.phase === 'swap') { await page.waitForSelector('.swap-dialog'); await answerSwap(page); continue; }
    await pickTile(page, 0);
    let found = null;
    for (let turn = 0; !found && turn < 6; turn++) {
      found = await findLegal(page, { near: moves === 0 ? await fieldCells(page) : [], limit: 60 });
      if (!found) await page.keyboard.press('r');
    }
    assert.ok(found, 'a legal place for the tile');
    await clickAndWait(page, found.preview.point);
    moves++;
  }
  throw new Error('the game did not end');
}

test('bots: the lobby lists a bot marked BOT; a person challenges it, it accepts, the game is played to the end; leaderboards and profile', { timeout: 240000 }, async () => {
  const srv = await startServer(['--max-games-per-ip', '1000']);
  const token = await makeBot(srv.base, 'Robo', ABOUT);
  const bot = startPythonBot(srv.base, token);
  const browser = await launch();
  try {
    // The bot is online once its event stream is open.
    for (let i = 0; i < 100; i++) {
      const list = (await call(srv.base, 'GET', '/api/bots')).body.bots;
      if (list.some((b) => b.name === 'Robo' && b.online)) break;
      assert.ok(i < 99, `the bot did not come online: ${bot.output()}`);
      await new Promise((r) => setTimeout(r, 150));
    }

    // A guest: the list, BOT, who runs it as text; Challenge asks to log in.
    const guest = await newPage(browser, WIDE_DESKTOP);
    await guest.goto(`${srv.base}/?lang=en#/`);
    const gRow = guest.locator('#bots li[data-player="Robo"][data-online="1"]');
    await gRow.waitFor({ timeout: 15000 });
    assert.equal(await gRow.locator('.bot-tag').textContent(), 'BOT');
    assert.equal(await gRow.locator('.bot-about').textContent(), ABOUT, 'the about is text, never HTML');
    assert.equal(await gRow.locator('.bot-about b').count(), 0);
    await gRow.locator('[data-action=challenge]').click();
    await guest.waitForSelector('.bots-msg a[data-action=login]');
    assert.ok((await guest.textContent('.bots-msg')).includes(MESSAGES.en['bot.guest_challenge']({ name: 'Robo' })));
    assert.equal(await guest.locator('.challenge-dialog').count(), 0, 'no challenge form for a guest');
    assertNoErrors(guest);
    await guest.context().close();

    // Ann challenges it from the lobby's list.
    const ann = await newPage(browser, WIDE_DESKTOP);
    await signUpHere(ann, srv.base, 'Ann');
    const row = ann.locator('#bots li[data-player="Robo"]');
    await row.waitFor({ timeout: 15000 });
    assert.equal(await row.locator('.bot-tag').textContent(), 'BOT');
    await shot(ann, 'bots-lobby-desktop');
    await row.locator('[data-action=challenge]').click();
    await ann.waitForSelector('.challenge-dialog #dlg-challenge-variant');
    assert.equal(await ann.locator('.challenge-dialog h2 .bot-tag').count(), 1, 'the dialog names a bot with BOT');
    await ann.selectOption('#dlg-challenge-variant', 'hex');
    await ann.selectOption('#dlg-challenge-clock', 'rapid');
    await ann.check('#dlg-challenge-rated');
    await ann.click('.challenge-dialog [data-action=send-challenge]');
    // The bot accepts: Ann's page opens the game, her seat bound to her account.
    // the bot answers within a second or two; the page asks every 4 s (slower under the sanitizers)
    await ann.waitForURL(/#\/game\//, { timeout: 90000 }).catch(async (e) => {
      const mine = await ann.evaluate(async () => (await fetch('/api/me/challenges')).text());
      throw new Error(`${e.message}\nAnn's challenges: ${mine}\nthe bot printed:\n${bot.output()}`);
    });
    await ann.waitForSelector('.game:not(.loading) .score-card.you', { timeout: 30000 });
    const id = ann.url().split('#/game/')[1].split(/[?/]/)[0];
    const seats = (await call(srv.base, 'GET', `/api/games/${id}`)).body.seats;
    const botSeat = seats.findIndex((s) => s.name === 'Robo');
    assert.equal(seats[botSeat].bot, true);
    assert.equal(await ann.locator(`.score-card[data-seat="${botSeat}"] .bot-tag`).textContent(), 'BOT', 'the bot\'s seat is marked');
    assert.equal(await ann.locator('.score-card.you .bot-tag').count(), 0, 'a person is not');
    assert.match(await ann.textContent(`.score-card[data-seat="${botSeat}"] .seat-kind`), /\bbot\b/);
    // The bot says hello through the Bot API: its chat line is marked BOT, and so are its
    // moves in the log (Ann's are not).
    assert.equal((await call(srv.base, 'POST', `/api/bot/game/${id}/chat`, { text: 'good luck' }, { token })).status, 200);
    await ann.waitForSelector(`.chat-msg[data-seat="${botSeat}"] .chat-from .bot-tag`, { state: 'attached', timeout: 15000 });

    const moves = await playOut(ann);
    assert.ok(moves > 5, `Ann played the game (${moves} moves)`);
    assert.ok(await ann.locator(`#log .log-place[data-player="${botSeat}"] .bot-tag`).count() > 0, 'the bot\'s moves in the log are marked');
    assert.equal(await ann.locator(`#log .log-place[data-player="${1 - botSeat}"] .bot-tag`).count(), 0, 'Ann\'s are not');
    const over = (await call(srv.base, 'GET', `/api/games/${id}`)).body;
    assert.equal(over.status, 'over');
    assert.equal(over.rated, true);
    await ann.waitForSelector('.end-dialog');
    assert.equal(await ann.locator(`.end-dialog tr[data-seat="${botSeat}"] .bot-tag`).count(), 1, 'the end card marks the bot');
    await shot(ann, 'bots-game-end-desktop');

    // The lobby's finished games: the bot's seat marked BOT.
    await ann.goto(`${srv.base}/?lang=en#/`);
    await ann.waitForSelector(`#finished-games .game-row[data-game="${id}"] .seat-chip[data-seat="${botSeat}"] .bot-tag`, { timeout: 15000 });
    assert.equal(await ann.locator(`#finished-games .game-row[data-game="${id}"] .bot-tag`).count(), 1, 'only the bot');

    // The leaderboards: the bot on the bots', Ann on the people's.
    await ann.goto(`${srv.base}/?lang=en#/leaderboard/hex`);
    await ann.waitForSelector('.bots-board tr[data-name="Robo"] .bot-tag');
    await ann.waitForSelector('.people-board tr[data-name="Ann"]');
    assert.equal(await ann.locator('.people-board tr[data-name="Robo"]').count(), 0, 'no bot among the people');
    assert.equal(await ann.locator('.bots-board tr[data-name="Ann"]').count(), 0, 'no person among the bots');
    await shot(ann, 'bots-leaderboard-desktop');

    // The bot's profile: BOT, who runs it (text), a challenge form.
    await ann.click('.bots-board tr[data-name="Robo"] a');
    await ann.waitForSelector('.profile-head[data-player="Robo"] .profile-name .bot-tag');
    assert.equal(await ann.textContent('.profile-head .bot-about'), ABOUT);
    assert.equal(await ann.locator('.profile-head .bot-about b').count(), 0);
    await ann.waitForSelector('#profile-challenge');
    await shot(ann, 'bots-profile-desktop');
    assertNoErrors(ann);
  } finally {
    await browser.close();
    const out = bot.output();
    await bot.stop();
    await srv.stop();
    assert.ok(!out.includes('Traceback'), `the Python bot failed:\n${out}`);
  }
});

// A challenge to several (issue 49): Ann challenges two accounts at once from the Bots
// list's dialog, to a game of three. Robo (a bot) and Bo (a person, answering through the
// API): the dialog's line says Robo accepted and Bo is awaited, then that Bo declined and
// why. Then Robo and Rita (two bots): both accept, the game opens on Ann's page when the
// last does, three seats (two marked BOT), and she plays it to the end.
test('bots: a person challenges two bots at once to a 3-player game from the page and plays it', { timeout: 300000 }, async () => {
  const srv = await startServer(['--max-games-per-ip', '1000']);
  const robo = startPythonBot(srv.base, await makeBot(srv.base, 'Robo', 'the first test bot'));
  const rita = startPythonBot(srv.base, await makeBot(srv.base, 'Rita', 'the second test bot'));
  const bo = await call(srv.base, 'POST', '/api/accounts', { name: 'Bo', password: PASSWORD });
  assert.equal(bo.status, 201);
  const browser = await launch();
  try {
    for (let i = 0; i < 100; i++) {
      const list = (await call(srv.base, 'GET', '/api/bots')).body.bots;
      if (['Robo', 'Rita'].every((n) => list.some((b) => b.name === n && b.online))) break;
      assert.ok(i < 99, `the bots did not come online: ${robo.output()} ${rita.output()}`);
      await new Promise((r) => setTimeout(r, 150));
    }
    const ann = await newPage(browser, WIDE_DESKTOP);
    await signUpHere(ann, srv.base, 'Ann');
    const row = ann.locator('#bots li[data-player="Robo"]');
    await row.waitFor({ timeout: 15000 });
    const en = MESSAGES.en;

    // Robo and Bo: Robo accepts, Bo declines; the dialog says so.
    await row.locator('[data-action=challenge]').click();
    await ann.waitForSelector('.challenge-dialog #dlg-challenge-players');
    assert.ok(await ann.locator('#dlg-challenge-also-0').isHidden(), 'two players: no second name');
    await ann.selectOption('#dlg-challenge-players', '3');
    assert.ok(await ann.locator('#dlg-challenge-also-0').isVisible());
    assert.ok(await ann.locator('#dlg-challenge-also-1').isHidden());
    assert.ok(await ann.locator('#dlg-challenge-mode').isHidden(), 'no mode but standard for 3');
    await ann.selectOption('#dlg-challenge-players', '4');
    await ann.selectOption('#dlg-challenge-variant', 'hex');
    assert.ok(await ann.locator('#dlg-challenge-mode').isVisible(), 'hex with 4 offers team');
    await ann.selectOption('#dlg-challenge-players', '3');
    assert.ok(await ann.locator('#dlg-challenge-mode').isHidden());
    await ann.selectOption('#dlg-challenge-variant', 'square');
    await ann.fill('#dlg-challenge-also-0', 'Bo');
    await ann.click('.challenge-dialog [data-action=send-challenge]');
    const line = ann.locator('.challenge-dialog .challenge-line.sent');
    await line.waitFor({ timeout: 15000 });
    const waiting = `${en['group.accepted_so_far']({ names: 'Robo (BOT)' })}; ${en['group.waiting_for']({ names: 'Bo' })}`;
    await ann.waitForFunction((want) => document.querySelector('.challenge-dialog .challenge-line.sent')?.textContent.includes(want), waiting, { timeout: 30000 });
    const boCookie = bo.cookie;
    const received = (await call(srv.base, 'GET', '/api/me/challenges', null, { cookie: boCookie })).body.received;
    assert.equal(received.length, 1);
    assert.deepEqual(received[0].invited.map((i) => [i.name, i.accepted]), [['Robo', true], ['Bo', false]]);
    assert.equal((await call(srv.base, 'POST', `/api/challenges/${received[0].id}/decline`, { reason: 'later' }, { cookie: boCookie })).status, 204);
    const said = en['group.declined']({ name: 'Bo', terms: '', reason: en['decline.says.later'] }).split('()')[0];
    await ann.waitForFunction(([want, id]) => document.querySelector(`.challenge-dialog .challenge-line[data-challenge="${id}"][data-status="declined"]`)?.textContent.startsWith(want), [said, received[0].id], { timeout: 30000 });
    assert.ok((await line.textContent()).includes(en['decline.says.later']));
    await shot(ann, 'bots-group-declined-desktop');
    await ann.click('.challenge-dialog [data-action=close]');

    // Robo and Rita: both accept, the game opens.
    await row.locator('[data-action=challenge]').click();
    await ann.waitForSelector('.challenge-dialog #dlg-challenge-players');
    await ann.selectOption('#dlg-challenge-players', '3');
    await ann.fill('#dlg-challenge-also-0', 'Rita');
    await ann.selectOption('#dlg-challenge-clock', 'rapid');
    await ann.click('.challenge-dialog [data-action=send-challenge]');
    await ann.waitForURL(/#\/game\//, { timeout: 90000 }).catch(async (e) => {
      const mine = await ann.evaluate(async () => (await fetch('/api/me/challenges')).text());
      throw new Error(`${e.message}\nAnn's challenges: ${mine}\nthe bot printed:\n${bot.output()}`);
    });
    await ann.waitForSelector('.game:not(.loading) .score-card.you', { timeout: 30000 });
    const id = ann.url().split('#/game/')[1].split(/[?/]/)[0];
    const game = (await call(srv.base, 'GET', `/api/games/${id}`)).body;
    assert.equal(game.players, 3);
    assert.deepEqual(game.seats.map((s) => s.name).sort(), ['Ann', 'Rita', 'Robo']);
    assert.equal(await ann.locator('.score-card .bot-tag').count(), 2, 'both bots marked');
    const moves = await playOut(ann);
    assert.ok(moves > 3, `Ann played the game (${moves} moves)`);
    assert.equal((await call(srv.base, 'GET', `/api/games/${id}`)).body.status, 'over');
    await ann.waitForSelector('.end-dialog');
    assert.equal(await ann.locator('.end-dialog .bot-tag').count(), 2);
    await shot(ann, 'bots-group-game-end-desktop');
    assertNoErrors(ann);
  } finally {
    await browser.close();
    const out = robo.output() + rita.output();
    await robo.stop();
    await rita.stop();
    await srv.stop();
    assert.ok(!out.includes('Traceback'), `a Python bot failed:\n${out}`);
  }
});
