// rough_edges.test.mjs — the small things a newcomer trips on (issue 29, item 8), on a
// desktop and a touch phone, in English, German and Hungarian:
// - a spinner stays beside its words (the rematch's "Waiting for the other players…");
// - the header's "connection lost" can be read (contrast), also as the phone's dot;
// - the phone's score cards cut no name and no line below it (a ten-letter name, four
//   seats, a clock);
// - the end screen covers none of the final board (and no backdrop dims it);
// - a game that does not exist shows no "closed" badge and no "?";
// - the phone's hex board is whole (no cell cut at the edges) and its "?" covers no cell;
// - the phone's game header has Log in, Sign up and the language;
// - a spectator's end screen does not invite to sign up for a rating (a guest player's does).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, startServer, apiCall, shot, assertNoErrors, PHONE, DESKTOP, BASE } from './lib.mjs';
import { MESSAGES } from '../../web/js/messages.js';

const TOUCH = { isMobile: true, hasTouch: true };
const SIZES = [['desktop', DESKTOP, {}], ['phone', PHONE, TOUCH]];

// A page holding a seat (its token stored as the client stores it).
async function seated(browser, base, made, { viewport = DESKTOP, extra = {}, lang = 'en', path = null } = {}) {
  const page = await newPage(browser, viewport, extra);
  await page.goto(`${base}/?lang=${lang}#/`);
  await page.evaluate(([i, s, tk]) => localStorage.setItem(`axio.token.${i}`, JSON.stringify({ seat: s, token: tk, at: Date.now() })), [made.game, made.seat ?? 0, made.token]);
  await page.goto(`${base}/?lang=${lang}#/${path || `game/${made.game}`}`);
  await page.waitForSelector('.game:not(.loading) .board-svg');
  return page;
}

const create = async (base, body) => {
  const r = await apiCall(base, 'POST', '/api/games', body);
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return r.body;
};

const rect = (page, sel) => page.$eval(sel, (el) => { const r = el.getBoundingClientRect(); return { left: r.left, top: r.top, right: r.right, bottom: r.bottom }; });
const overlap = (a, b) => Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left)) * Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));

async function resign(page) {
  await page.click('[data-action=resign]');
  await page.click('.confirm-dialog [data-action=confirm-resign]');
  await page.waitForSelector('.end-dialog');
}

test('rough edges: a spinner stays beside its words (the rematch waits), en/de/hu', { timeout: 90000 }, async () => {
  const browser = await launch();
  try {
    for (const [lang, viewport, extra] of [['en', DESKTOP, {}], ['de', PHONE, TOUCH], ['hu', PHONE, TOUCH]]) {
      const made = await create(BASE, { variant: 'square', players: 2, name: 'Ann', seats: [{ kind: 'human' }, { kind: 'human' }] });
      await apiCall(BASE, 'POST', `/api/games/${made.game}/join`, { name: 'Bo' });
      const ann = await seated(browser, BASE, made, { viewport, extra, lang });
      await resign(ann);
      await ann.click('.end-dialog [data-action=rematch]');
      await ann.waitForURL((u) => !u.href.includes(made.game));
      await ann.waitForSelector('.status-line.waiting .spinner');
      const said = await ann.$eval('.status-line', (el) => [...el.childNodes].filter((n) => !n.classList?.contains('rules-help')).map((n) => n.textContent).join(''));
      assert.equal(said.trim(), MESSAGES[lang]['rematch.waiting'].trim());
      // Where the words are drawn (their text, whatever element holds them) and the spinner.
      const f = await ann.evaluate(() => {
        const line = document.querySelector('.status-line');
        const walk = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
        const rs = [];
        for (let n = walk.nextNode(); n; n = walk.nextNode()) {
          if (!n.textContent.trim() || n.parentElement.closest('.rules-help')) continue; // the phone's "?" sits at the line's end
          const r = document.createRange();
          r.selectNodeContents(n);
          rs.push(...r.getClientRects());
        }
        const sp = line.querySelector('.spinner').getBoundingClientRect();
        return { sp: { left: sp.left, right: sp.right, top: sp.top, bottom: sp.bottom }, left: Math.min(...rs.map((r) => r.left)), top: Math.min(...rs.map((r) => r.top)), bottom: Math.max(...rs.map((r) => r.bottom)) };
      });
      assert.ok(f.sp.right <= f.left + 1, `${lang}: the spinner is left of its words (${JSON.stringify(f)})`);
      assert.ok(f.sp.bottom > f.top && f.sp.top < f.bottom, `${lang}: beside the words, not on a line of its own (${JSON.stringify(f)})`);
      await shot(ann, `rough-rematch-spinner-${lang}-${viewport === PHONE ? 'phone' : 'desktop'}`);
      assertNoErrors(ann);
      await ann.context().close();
    }
  } finally {
    await browser.close();
  }
});

// WCAG relative luminance and contrast of two rgb() colours.
const lum = (c) => {
  const [r, g, b] = c.match(/\d+(\.\d+)?/g).slice(0, 3).map(Number).map((v) => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};
const contrast = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };

test('rough edges: "connection lost" can be read in the header (desktop text, phone dot)', { timeout: 60000 }, async () => {
  const srv = await startServer();
  const browser = await launch();
  let stopped = false;
  try {
    const made = await create(srv.base, { variant: 'square', players: 2, name: 'Ann', seats: [{ kind: 'human' }, { kind: 'ai', level: 'greedy' }] });
    const pages = [];
    for (const [size, viewport, extra] of SIZES) pages.push([size, await seated(browser, srv.base, made, { viewport, extra })]);
    await srv.stop();
    stopped = true;
    for (const [size, page] of pages) {
      // Read while it says "lost" (it retries every few seconds: "connecting" between).
      const c = await (await page.waitForFunction(() => {
        const el = document.getElementById('conn');
        if (el.dataset.state !== 'lost') return null;
        const s = getComputedStyle(el), dot = getComputedStyle(el, '::before');
        return { fg: s.color, bg: s.backgroundColor, dot: dot.color, fontSize: s.fontSize, header: getComputedStyle(document.querySelector('header.top')).backgroundColor };
      }, null, { timeout: 30000, polling: 50 })).jsonValue();
      if (size === 'desktop') {
        assert.ok(contrast(c.fg, c.bg) >= 4.5, `the words on the badge: ${JSON.stringify(c)} ${contrast(c.fg, c.bg)}`);
      } else {
        assert.equal(c.fontSize, '0px', 'a phone shows the dot');
        assert.ok(contrast(c.dot, c.bg) >= 3, `the dot on the badge: ${JSON.stringify(c)} ${contrast(c.dot, c.bg)}`);
      }
      assert.ok(contrast(c.bg, c.header) >= 3, `the badge on the header: ${JSON.stringify(c)}`);
      await page.waitForSelector('#conn[data-state=lost]', { timeout: 30000 });
      await page.screenshot({ path: `${process.env.AXIO_SHOTS || 'tests/web/screenshots'}/rough-conn-lost-${size}.png`, clip: { x: 0, y: 0, width: size === 'phone' ? 390 : 1280, height: 120 } });
    }
  } finally {
    await browser.close();
    if (!stopped) await srv.stop();
  }
});

test('rough edges: the phone\'s score cards cut no name and no line below it (en/de/hu)', { timeout: 90000 }, async () => {
  const browser = await launch();
  try {
    for (const lang of ['en', 'de', 'hu']) {
      const games = [
        await create(BASE, { variant: 'hex', players: 4, name: 'Maximilian', seats: [{ kind: 'human' }, { kind: 'ai', level: 'expert' }, { kind: 'ai', level: 'strong' }, { kind: 'ai', level: 'random' }] }),
      ];
      // A clock takes room beside the name too (German says the most).
      if (lang === 'de') games.push(await create(BASE, { variant: 'square', players: 2, name: 'Konstantin', seats: [{ kind: 'human' }, { kind: 'ai', level: 'greedy' }], clock: { kind: 'realtime', base_s: 600, increment_s: 5 } }));
      for (const made of games) {
        const page = await seated(browser, BASE, made, { viewport: PHONE, extra: TOUCH, lang });
        await page.waitForTimeout(300);
        const cut = await page.$$eval('.score-card .seat-name, .score-card .seat-kind', (els) => els
          .filter((el) => el.scrollWidth > el.clientWidth + 1 || el.getBoundingClientRect().right > el.closest('.score-card').getBoundingClientRect().right)
          .map((el) => el.textContent));
        assert.deepEqual(cut, [], `${lang}: cut on a phone`);
        const me = (await page.textContent('.score-card.you .seat-name')).trim();
        assert.ok(me.startsWith(made === games[0] ? 'Maximilian' : 'Konstantin'));
        if (made === games[0]) await shot(page, `rough-scorecards-${lang}-phone`);
        assertNoErrors(page);
        await page.context().close();
      }
    }
  } finally {
    await browser.close();
  }
});

test('rough edges: the end screen covers none of the final board; a spectator is not asked to sign up', { timeout: 90000 }, async () => {
  const browser = await launch();
  try {
    for (const [lang, [size, viewport, extra]] of [['en', SIZES[0]], ['de', SIZES[1]], ['hu', SIZES[0]]]) {
      const L = MESSAGES[lang];
      const made = await create(BASE, { variant: 'hex', players: 2, name: 'Ann', seats: [{ kind: 'human' }, { kind: 'ai', level: 'greedy' }] });
      const spy = await newPage(browser, viewport, extra);
      await spy.goto(`${BASE}/?lang=${lang}#/watch/${made.game}`);
      await spy.waitForSelector('.game:not(.loading) .board-svg');
      const ann = await seated(browser, BASE, made, { viewport, extra, lang });
      await resign(ann);
      await spy.waitForSelector('.end-dialog');
      for (const [who, page] of [['player', ann], ['spectator', spy]]) {
        await page.waitForTimeout(300);
        const board = await rect(page, '.board-svg'), card = await rect(page, '.end-dialog');
        assert.equal(overlap(board, card), 0, `${lang} ${size} ${who}: the end screen is beside the board`);
        const back = await page.$eval('.end-dialog', (el) => getComputedStyle(el.parentElement).backgroundColor);
        assert.match(back, /rgba\(0, 0, 0, 0\)|transparent/, 'no backdrop dims the page');
        assert.equal(await page.getAttribute('.end-dialog', 'aria-modal'), 'false');
        // The board is there to look at: what is at its middle is the board.
        await page.$eval('.board-svg', (el) => el.scrollIntoView({ block: 'center' }));
        const hit = await page.evaluate(() => {
          const r = document.querySelector('.board-svg').getBoundingClientRect();
          return document.querySelector('.board-svg').contains(document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2));
        });
        assert.ok(hit, `${lang} ${size} ${who}: the board's middle can be seen`);
      }
      assert.equal(await ann.locator('.end-dialog [data-action=signup]').count(), 1, 'a guest who played may sign up');
      assert.equal((await ann.textContent('.end-dialog [data-action=signup]')).trim(), L['rating.signup_cta']);
      assert.equal(await spy.locator('.end-dialog .end-signup').count(), 0, 'a spectator had no rating to keep');
      await ann.evaluate(() => window.scrollTo(0, 0));
      await shot(ann, `rough-end-${lang}-${size}`);
      await shot(spy, `rough-end-spectator-${lang}-${size}`);
      // "Close" puts it away; Results brings it back.
      await ann.click('.end-dialog [data-action=close]');
      await ann.waitForSelector('.end-dialog', { state: 'detached' });
      await ann.click('[data-action=results]');
      await ann.waitForSelector('.end-dialog');
      for (const p of [ann, spy]) { assertNoErrors(p); await p.context().close(); }
    }
  } finally {
    await browser.close();
  }
});

test('rough edges: a missing game shows no "closed" badge and no "?"', { timeout: 60000 }, async () => {
  const browser = await launch();
  try {
    for (const [lang, [size, viewport, extra]] of [['en', SIZES[0]], ['hu', SIZES[1]]]) {
      const page = await newPage(browser, viewport, extra);
      await page.goto(`${BASE}/?lang=${lang}#/game/AAAAAAAAAAAA`);
      await page.waitForSelector('.missing-game .missing');
      await page.waitForTimeout(1500); // the socket has closed by now
      assert.equal(await page.isVisible('#conn'), false, `${size}: no connection badge`);
      assert.equal(await page.isVisible('#rules-help'), false, `${size}: no "?"`);
      assert.equal((await page.textContent('.missing h2')).trim(), MESSAGES[lang]['game.missing_title']);
      await shot(page, `rough-missing-${lang}-${size}`);
      assertNoErrors(page);
      await page.context().close();
    }
  } finally {
    await browser.close();
  }
});

test('rough edges: the phone\'s boards are whole, their "?" covers no cell; the header has Sign up and the language (en/de/hu)', { timeout: 90000 }, async () => {
  const browser = await launch();
  try {
    for (const [lang, variants] of [['en', ['hex', 'square']], ['de', ['hex', 'rota']], ['hu', ['hex']]]) {
      for (const variant of variants) {
        const made = await create(BASE, { variant, players: 2, name: 'Ann', seats: [{ kind: 'human' }, { kind: 'ai', level: 'greedy' }] });
        const page = await seated(browser, BASE, made, { viewport: PHONE, extra: TOUCH, lang });
        await page.waitForTimeout(300);
        const f = await page.evaluate(() => {
          const svg = document.querySelector('.board-svg').getBoundingClientRect();
          const q = document.getElementById('rules-help').getBoundingClientRect();
          const cut = [], covered = [];
          for (const el of document.querySelectorAll('.layer-board polygon, .layer-board rect.cell, .layer-board [data-cell]')) {
            const r = el.getBoundingClientRect();
            if (!r.width) continue;
            if (el.closest('.board-frame') || el.classList.contains('board-frame')) continue;
            const inside = r.left >= svg.left - 0.5 && r.right <= svg.right + 0.5 && r.top >= svg.top - 0.5 && r.bottom <= svg.bottom + 0.5;
            if (!inside && !el.classList.contains('off') && !el.classList.contains('off-hatch')) cut.push(el.dataset.cell || el.getAttribute('class'));
            if (el.dataset.cell && Math.min(r.right, q.right) > Math.max(r.left, q.left) && Math.min(r.bottom, q.bottom) > Math.max(r.top, q.top)) covered.push(el.dataset.cell);
          }
          return { cut, covered, hexCut: [...document.querySelectorAll('.layer-board polygon.cell')].filter((el) => { const r = el.getBoundingClientRect(); return r.left < svg.left - 0.5 || r.right > svg.right + 0.5 || r.top < svg.top - 0.5 || r.bottom > svg.bottom + 0.5; }).length };
        });
        assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= PHONE.width, `${lang} ${variant}: the page is wider than the phone`);
        assert.deepEqual(f.cut, [], `${lang} ${variant}: cells of the play area cut at the board's edge`);
        assert.deepEqual(f.covered, [], `${lang} ${variant}: the "?" covers a cell`);
        if (variant === 'hex') assert.equal(f.hexCut, 0, `${lang}: no hex cut at the edges`);
        // The header: Log in, Sign up, the language, side by side inside it.
        const head = await page.evaluate(() => {
          const vis = (sel) => { const el = document.querySelector(sel); if (!el) return null; const r = el.getBoundingClientRect(); const s = getComputedStyle(el); return s.display === 'none' || s.visibility === 'hidden' || !r.width ? null : { left: r.left, right: r.right, top: r.top, bottom: r.bottom }; };
          return { login: vis('#account [data-action=login]') || vis('#account a[href*="login"]'), signup: vis('#account [data-action=signup]') || vis('#account a[href*="signup"]'),
            lang: vis('.lang-switch'), conn: vis('#conn'), width: innerWidth, overflow: document.querySelector('header.top').scrollWidth > document.querySelector('header.top').clientWidth };
        });
        for (const k of ['login', 'signup', 'lang', 'conn']) assert.ok(head[k], `${lang}: the phone's game header shows ${k}`);
        assert.ok(!head.overflow && head.lang.right <= head.width, `${lang}: the header fits the phone`);
        assert.ok(head.login.right <= head.signup.left && head.signup.right <= head.lang.left, `${lang}: side by side`);
        if (variant === 'hex') await shot(page, `rough-hex-phone-${lang}`);
        assertNoErrors(page);
        await page.context().close();
      }
    }
  } finally {
    await browser.close();
  }
});
