// i18n.test.mjs — the whole client in German and Hungarian: the lobby, a running game
// of each variant (two computers of one level get two names), an illegal first move
// (the preview's reason and a real illegal_move from the server, both in the
// language), the end screen, the status line of a pending bonus move (one line on a
// desktop), and a phone (its tap instructions, a header that fits).
// Every page is checked for English: no text of the English message table that its
// translation does not also use may be visible (text, title, aria-label, placeholder).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  launch, newPage, createGame, BASE, DESKTOP, PHONE, shot, assertNoErrors, pickTile, hoverPreview, waitTurnOrEnd,
} from './lib.mjs';
import { MESSAGES } from '../../web/js/messages.js';

const TOUCH = { isMobile: true, hasTouch: true };
const SENT = '\u0001';

// The fixed parts of a message (around its parameters), for finding it in a page.
function fragments(v) {
  let text;
  if (typeof v === 'function') {
    const names = (/^\s*\(\s*\{([^}]*)\}\s*\)/.exec(String(v))?.[1] || '').split(',').map((x) => x.trim()).filter(Boolean);
    const args = Object.fromEntries(names.map((k) => [k, ['n', 'place', 'of', 's', 'd', 'h', 'm'].includes(k) ? 7 : SENT]));
    text = v(args).replace(/7/g, SENT);
  } else text = v.replace(/\{\w+\}/g, SENT);
  return text.split(SENT).map((f) => f.replace(/^[\s·—–:,.()…!?+▶▲⟳✕-]+|[\s·—–:,.()…!?+▶▲⟳✕-]+$/g, '')).filter((f) => f.length >= 4 && /\p{L}{3}/u.test(f));
}

// English fragments a page in `code` must not show: those its own messages never use.
function englishNeedles(code) {
  const own = Object.values(MESSAGES[code]).flatMap((v) => (typeof v === 'function' ? fragments(v) : [v])).join('\n');
  const out = new Map();
  for (const [k, v] of Object.entries(MESSAGES.en)) {
    for (const f of fragments(v)) if (!own.includes(f) && !out.has(f)) out.set(f, k);
  }
  return out;
}

// Everything a person reads or hears on the page now (visible text and the labels).
const pageText = (page) => page.evaluate(() => {
  const parts = [document.body.innerText, document.title];
  for (const el of document.querySelectorAll('[title], [aria-label], [placeholder], [alt]')) {
    if (el.closest('[hidden]') || el.closest('noscript')) continue;
    for (const a of ['title', 'aria-label', 'placeholder', 'alt']) if (el.getAttribute(a)) parts.push(el.getAttribute(a));
  }
  for (const el of document.querySelectorAll('svg title')) parts.push(el.textContent);
  return parts.join('\n');
});

const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// The English texts on the page that a page in `code` must not show.
async function englishOn(page, code) {
  const text = await pageText(page);
  const found = [];
  for (const [f, key] of englishNeedles(code)) {
    if (new RegExp(`(?<![\\p{L}\\p{N}])${esc(f)}(?![\\p{L}\\p{N}])`, 'u').test(text)) found.push(`"${f}" (${key})`);
  }
  return found;
}

async function assertNoEnglish(page, code, where) {
  assert.deepEqual(await englishOn(page, code), [], `${code} ${where}: English on the page`);
  assert.equal(await page.evaluate(() => document.documentElement.lang), code, `${where}: <html lang>`);
}

// The header keeps to the screen (the account links, the connection badge).
async function assertHeaderFits(page, where) {
  const r = await page.evaluate(() => {
    const hd = document.querySelector('header.top');
    const out = [...hd.querySelectorAll('a, button, span')].filter((e) => e.offsetParent && e.getBoundingClientRect().width)
      .map((e) => e.getBoundingClientRect()).filter((b) => b.right > window.innerWidth + 0.5 || b.left < -0.5);
    return { over: out.length, scroll: hd.scrollWidth - hd.clientWidth, page: document.documentElement.scrollWidth - window.innerWidth };
  });
  assert.deepEqual(r, { over: 0, scroll: 0, page: 0 }, `${where}: the header fits the screen`);
}

// The status line's words (the bonus move's tab on its edge aside): on how many lines they
// lie, whether they stay inside the line's box, and the tab's text and box.
const statusLayout = (page) => page.evaluate(() => {
  const el = document.querySelector('#status-line');
  const box = el.getBoundingClientRect();
  const rects = [];
  for (const n of el.childNodes) {
    if (n.nodeType === 1 && n.classList.contains('bonus-tag')) continue;
    const r = document.createRange();
    r.selectNodeContents(n);
    rects.push(...[...r.getClientRects()].filter((x) => x.width > 0));
  }
  const tops = rects.map((x) => x.top).sort((a, b) => a - b);
  const lines = tops.filter((y, i) => i === 0 || y - tops[i - 1] > 8).length;
  const inside = rects.every((x) => x.bottom <= box.bottom + 0.5 && x.right <= box.right + 0.5);
  const tag = el.querySelector('.bonus-tag');
  const t = tag?.getBoundingClientRect();
  const overTag = t ? rects.some((x) => x.left < t.right && x.right > t.left && x.top < t.bottom && x.bottom > t.top) : false;
  return { lines, inside, tag: tag ? tag.textContent : null, overTag };
});

// Resigns (a two-sided game ends) and waits for the end screen.
async function resign(page) {
  await page.click('[data-action=resign]');
  await page.click('[data-action=confirm-resign]');
  await page.waitForSelector('.end-dialog', { timeout: 15000 });
}

for (const code of ['de', 'hu']) {
  const T = MESSAGES[code];
  test(`i18n: the client in ${code}`, { timeout: 300000 }, async () => {
    const browser = await launch();
    try {
      // The lobby, on a desktop; first in English, where the check must find English.
      const page = await newPage(browser, DESKTOP);
      await page.goto(`${BASE}/?lang=en#/`);
      await page.waitForSelector('#open-games .muted, #open-games .game-row');
      const en = await englishOn(page, code);
      for (const k of ['lobby.new_game', 'lobby.create', 'lobby.open_games']) assert.ok(en.some((f) => f.endsWith(`(${k})`)), `the check finds ${k} in English`);
      await page.goto(`${BASE}/?lang=${code}#/`);
      await page.waitForSelector('#open-games .muted, #open-games .game-row');
      await page.waitForSelector('#finished-games .muted, #finished-games .game-row');
      await assertNoEnglish(page, code, 'lobby');
      await shot(page, `i18n-${code}-lobby`);
      // The other pages: logging in, signing up, the leaderboard, a link to no game.
      for (const hash of ['#/login', '#/signup', '#/leaderboard/hex', '#/join/nosuchgame00']) {
        await page.goto(`${BASE}/${hash}`);
        await page.waitForSelector('.auth-card, .leaderboard-page .muted, .leaderboard-page table, .invite-card[data-state=unknown]');
        await assertNoEnglish(page, code, hash);
      }
      await page.goto(`${BASE}/#/`);

      // AXIO: the first move must touch a start symbol: the preview says why not, in the language.
      await createGame(page, { variant: 'square', players: 2, seats: ['human', 'ai:greedy'], name: 'Tester', keepForm: true });
      await waitTurnOrEnd(page);
      await assertNoEnglish(page, code, 'square, pick a tile');
      // An AXIO! banner (as the game shows one for an event) in the language, at the board's top.
      await page.evaluate(async () => {
        const d = await import('./js/dialogs.js');
        d.axioBanner(document.querySelector('.banner-host'), { name: 'Ann', color: 'red', score: 18, bonus: true });
      });
      assert.equal(await page.textContent('.axio-banner .axio-bonus'), T['axio.bonus']);
      assert.ok((await page.textContent('.axio-banner .axio-detail')).includes(T['color.red']));
      await assertNoEnglish(page, code, 'an AXIO! banner');
      await page.waitForTimeout(400); // its pop-in animation
      await shot(page, `i18n-${code}-axio-banner`);
      await page.evaluate(() => document.querySelector('.axio-banner').remove());
      await pickTile(page, 0);
      assert.ok((await page.textContent('#status-line')).includes(T['status.place'].replace(/^[\s—–-]+/, '').trim()), 'the status asks to place the tile');
      const pv = await hoverPreview(page, '4,4');
      assert.equal(pv.state, 'illegal');
      assert.ok(pv.text.includes(T['reason.first_tile']), `the preview says why: ${pv.text}`);
      await page.mouse.click(pv.point.x, pv.point.y);
      await page.waitForFunction((m) => document.querySelector('.toast-host')?.textContent.includes(m), T['reason.first_tile']);
      await assertNoEnglish(page, code, 'square, an illegal first move');
      await shot(page, `i18n-${code}-square-illegal`);
      await resign(page);
      await assertNoEnglish(page, code, 'square, end screen');
      await shot(page, `i18n-${code}-square-end`);
      assertNoErrors(page);

      // The server's own illegal_move (sent as if from this page) is shown in the language.
      // (Later, for ROTA, the states passed on to the page say a bonus move is pending.)
      const sockets = [];
      let bonus = false;
      const p2 = await newPage(browser, DESKTOP);
      await p2.routeWebSocket(/\/ws\//, (ws) => {
        const server = ws.connectToServer();
        sockets.push(server);
        server.onMessage((m) => {
          const j = bonus ? JSON.parse(m) : null;
          if (j?.type === 'state' && j.game?.status === 'running') j.game.bonus = true;
          ws.send(j ? JSON.stringify(j) : m);
        });
      });
      await p2.goto(`${BASE}/?lang=${code}#/`);
      await createGame(p2, { variant: 'hex', players: 2, seats: ['human', 'ai:strong'], name: 'Tester', keepForm: true });
      await waitTurnOrEnd(p2);
      sockets.at(-1).send(JSON.stringify({ type: 'place', rack_index: 0, cells: [[0, 0], [1, 0]] }));
      await p2.waitForSelector('.toast-host .toast', { timeout: 10000 });
      assert.equal(await p2.textContent('.toast-host .toast'), T['reason.first_tile']);
      await assertNoEnglish(p2, code, 'hex, the server refused a move');
      await shot(p2, `i18n-${code}-hex-server-error`);
      assertNoErrors(p2);

      // ROTA with two computers of one level: each has its own name.
      await p2.goto(`${BASE}/#/`);
      await createGame(p2, { variant: 'rota', players: 3, seats: ['human', 'ai:greedy', 'ai:greedy'], name: 'Tester', keepForm: true });
      const names = await p2.$$eval('.score-card .seat-name', (els) => els.map((e) => e.textContent));
      assert.deepEqual(names.slice(1), [`${T['ai.name.greedy']} 1`, `${T['ai.name.greedy']} 2`], 'two computers, two names');
      await waitTurnOrEnd(p2);
      await assertNoEnglish(p2, code, 'rota');
      await shot(p2, `i18n-${code}-rota`);
      // A bonus move pending (the state says so; reaching one in play is up to the dice):
      // the longest status line of the language, "Your turn, bonus move, place the tile",
      // keeps to one line on a desktop, its tab on the line's edge.
      bonus = true;
      await p2.reload();
      await waitTurnOrEnd(p2);
      await p2.waitForSelector('#status-line .bonus-tag');
      assert.deepEqual(await statusLayout(p2), { lines: 1, inside: true, tag: T['status.bonus'], overTag: false }, 'the status line with a bonus move is one line');
      await shot(p2, `i18n-${code}-rota-bonus`);
      bonus = false;
      assertNoErrors(p2);
      await p2.context().close();

      // Hex on a phone: the tap instructions, a header that fits, the end screen.
      const phone = await newPage(browser, PHONE, TOUCH);
      await phone.goto(`${BASE}/?lang=${code}#/`);
      await assertHeaderFits(phone, 'lobby on a phone');
      await assertNoEnglish(phone, code, 'lobby on a phone');
      await shot(phone, `i18n-${code}-lobby-phone`);
      await createGame(phone, { variant: 'hex', players: 2, seats: ['human', 'ai:greedy'], name: 'Tester', keepForm: true });
      await waitTurnOrEnd(phone);
      await assertHeaderFits(phone, 'game on a phone');
      assert.ok(await phone.isVisible('.rack-panel .hint-touch'), 'a phone shows how to play by tapping');
      assert.ok(!(await phone.isVisible('.rack-panel .hint-mouse')), 'and not the mouse instructions');
      assert.equal(await phone.textContent('.rack-panel .hint-touch'), T['game.help_touch']);
      await assertNoEnglish(phone, code, 'hex on a phone');
      await shot(phone, `i18n-${code}-hex-phone`);
      await resign(phone);
      await assertNoEnglish(phone, code, 'hex end screen on a phone');
      await shot(phone, `i18n-${code}-hex-end-phone`);
      assertNoErrors(phone);
    } finally {
      await browser.close();
    }
  });
}

// The check itself finds English: the same pages in English show the table's texts.
test('i18n: the English check finds English', () => {
  const needles = englishNeedles('de');
  assert.ok(needles.has('Not your turn yet'), 'a whole sentence');
  assert.ok([...needles.keys()].some((f) => f.startsWith('There is no game')), 'the fixed part of a message with parameters');
  assert.ok(!needles.has('AXIO'), 'words both languages use are not English');
});
