// small_things.test.mjs — what a newcomer still tripped on (issue 54, items 5 and 6), on a
// desktop of 1366×800 and a touch phone of 390×844, in English, German and Hungarian:
// - the "connection lost" notice over the board wraps on a phone: its words and "Retry now"
//   are whole, and the page does not scroll sideways;
// - the lobby's "Create game" is in sight without scrolling on a desktop;
// - a guest name the server refuses (an emoji) is said at the name field, which is marked
//   and focused (creating and joining a game);
// - the move log shows no row cut under its "Moves" heading;
// - the phone's end card shows each player's tracks on one line, and one "Step through the
//   game" (also on a desktop);
// - the rating chart's dates (and the games' times) are in the page's language, whatever the
//   browser's;
// - My games offers Resume, not "Watch", for one's own game;
// - #/learn/VARIANT of a game that does not exist says so (and deals nothing).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, startServer, apiCall, shot, assertNoErrors, waitTurnOrEnd, cellPoint, cellInSight, placeOne, PHONE, BASE } from './lib.mjs';
import { MESSAGES } from '../../web/js/messages.js';

const WIDE = { width: 1366, height: 800 };
const TOUCH = { isMobile: true, hasTouch: true };
const LANGS = ['en', 'de', 'hu'];

const create = async (base, body) => {
  const r = await apiCall(base, 'POST', '/api/games', body);
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return r.body;
};

// A page holding a seat (its token stored as the client stores it).
async function seated(browser, base, made, { viewport = WIDE, extra = {}, lang = 'en' } = {}) {
  const page = await newPage(browser, viewport, extra);
  await page.goto(`${base}/?lang=${lang}#/`);
  await page.evaluate(([i, s, tk]) => localStorage.setItem(`axio.token.${i}`, JSON.stringify({ seat: s, token: tk, at: Date.now() })), [made.game, made.seat ?? 0, made.token]);
  await page.goto(`${base}/?lang=${lang}#/game/${made.game}`);
  await page.waitForSelector('.game:not(.loading) .board-svg');
  return page;
}

async function resign(page) {
  await page.click('[data-action=resign]');
  await page.click('.confirm-dialog [data-action=confirm-resign]');
  await page.waitForSelector('.end-dialog');
}

const sideways = (page) => page.evaluate(() => document.documentElement.scrollWidth - innerWidth);

test('small things: the "connection lost" notice wraps on a phone, its words and "Retry now" whole (en/de/hu)', { timeout: 90000 }, async () => {
  const srv = await startServer();
  const browser = await launch();
  let stopped = false;
  try {
    const made = await create(srv.base, { variant: 'square', players: 2, name: 'Ann', seats: [{ kind: 'human' }, { kind: 'ai', level: 'greedy' }] });
    const pages = [];
    for (const lang of LANGS) pages.push([lang, 'phone', await seated(browser, srv.base, made, { viewport: PHONE, extra: TOUCH, lang })]);
    pages.push(['de', 'desktop', await seated(browser, srv.base, made, { lang: 'de' })]);
    await srv.stop();
    stopped = true;
    // Every page looked at first (a screenshot each), then what each shows.
    const seen = [];
    for (const [lang, size, page] of pages) {
      // Measured while "Retry now" shows: during each attempt to connect again it is hidden.
      const measure = async () => (await page.waitForFunction(() => {
        const n = document.querySelector('.conn-notice');
        const button = n?.querySelector('button');
        if (!n || n.hidden || !button || button.hidden) return null;
        const r = (el) => { const b = el.getBoundingClientRect(); return { left: b.left, right: b.right, top: b.top, bottom: b.bottom }; };
        const words = n.querySelector('span:not(.spinner)');
        const b = button.getBoundingClientRect();
        // "Retry now" can be pressed where it is (nothing over it).
        const at = document.elementFromPoint((b.left + b.right) / 2, (b.top + b.bottom) / 2);
        const hit = at?.closest('.conn-notice button') !== null;
        const over = hit ? '' : `${at?.tagName}.${at?.className?.baseVal ?? at?.className} in ${at?.parentElement?.className}`;
        return { notice: r(n), button: r(button), words: r(words), cut: words.scrollWidth > words.clientWidth + 1 || n.scrollWidth > n.clientWidth + 1, w: innerWidth, text: n.textContent, hit, over, scrollY, sideways: document.documentElement.scrollWidth - innerWidth };
      }, null, { timeout: 30000 })).jsonValue();
      await measure();
      await page.waitForTimeout(200);
      await shot(page, `small-conn-lost-${lang}-${size}`);
      seen.push([lang, size, page, await measure()]);
    }
    for (const [lang, size, , f] of seen) {
      const what = `${lang} ${size}`;
      assert.ok(f.notice.left >= 0 && f.notice.right <= f.w, `${what}: the notice is inside the screen (${JSON.stringify(f)})`);
      assert.ok(f.button.left >= 0 && f.button.right <= f.w, `${what}: "Retry now" is inside the screen (${JSON.stringify(f)})`);
      assert.ok(!f.cut, `${what}: the words are not cut (${f.text})`);
      assert.ok(f.text.includes(MESSAGES[lang]['conn.retry']), `${what}: "${MESSAGES[lang]['conn.retry']}"`);
      assert.ok(f.sideways <= 0 && (size !== 'phone' || f.w <= PHONE.width), `${what}: the page scrolls sideways (${f.sideways} px, ${f.w} px wide)`);
      assert.ok(f.hit, `${what}: "Retry now" is covered by ${f.over} (${JSON.stringify(f)})`);
    }
  } finally {
    await browser.close();
    if (!stopped) await srv.stop();
  }
});

test('small things: "Create game" is in sight on a 1366×800 desktop without scrolling (guest, en/de/hu)', { timeout: 60000 }, async () => {
  const browser = await launch();
  try {
    for (const lang of LANGS) {
      const page = await newPage(browser, WIDE);
      await page.goto(`${BASE}/?lang=${lang}#/`);
      await page.waitForSelector('.name-box[data-state=guest]');
      await page.waitForTimeout(300);
      await shot(page, `small-lobby-create-${lang}`);
      const f = await page.evaluate(() => {
        const b = document.getElementById('create-game').getBoundingClientRect();
        const at = document.elementFromPoint((b.left + b.right) / 2, (b.top + b.bottom) / 2);
        return { top: b.top, bottom: b.bottom, h: innerHeight, hit: !!at && at.closest('#create-game') !== null, scrolled: scrollY };
      });
      assert.equal(f.scrolled, 0);
      assert.ok(f.top >= 0 && f.bottom <= f.h, `${lang}: "Create game" is in the window (${JSON.stringify(f)})`);
      assert.ok(f.hit, `${lang}: nothing covers "Create game"`);
      // Scrolled to the end of the form, the button covers none of its fields.
      await page.evaluate(() => document.querySelector('.create-card').scrollIntoView({ block: 'end' }));
      await page.waitForTimeout(100);
      if (lang === 'hu') await shot(page, `small-lobby-create-${lang}-end`);
      const end = await page.evaluate(() => {
        const b = document.getElementById('create-game').getBoundingClientRect();
        const n = document.getElementById('rated-note').getBoundingClientRect();
        return { covers: Math.max(0, Math.min(b.bottom, n.bottom) - Math.max(b.top, n.top)) > 0 && Math.min(b.right, n.right) > Math.max(b.left, n.left) };
      });
      assert.ok(!end.covers, `${lang}: at the end of the form the button is below the last field`);
      assertNoErrors(page);
      await page.context().close();
    }
  } finally {
    await browser.close();
  }
});

test('small things: a refused guest name is said at the field, marked and focused (create and join, en/de/hu, desktop and phone)', { timeout: 90000 }, async () => {
  const browser = await launch();
  try {
    const waiting = await create(BASE, { variant: 'square', players: 2, name: 'Host', seats: [{ kind: 'human' }, { kind: 'human' }] });
    for (const [lang, size, viewport, extra] of [['en', 'desktop', WIDE, {}], ['de', 'phone', PHONE, TOUCH], ['hu', 'desktop', WIDE, {}]]) {
      const L = MESSAGES[lang], what = `${lang} ${size}`;
      const page = await newPage(browser, viewport, extra);
      const posts = [];
      page.on('request', (r) => { if (r.method() === 'POST' && /\/api\/games(\/[^/]+\/join)?$/.test(new URL(r.url()).pathname)) posts.push(r.url()); });
      await page.goto(`${BASE}/?lang=${lang}#/`);
      await page.waitForSelector('.name-box[data-state=guest]');
      for (const how of ['create', 'join']) {
        await page.fill('#player-name', 'Ann 😀');
        if (how === 'create') await page.click('#create-game');
        else await page.click(`#open-games .game-row[data-game="${waiting.game}"] [data-action=join]`);
        await page.waitForSelector('#player-name[aria-invalid=true]');
        await page.waitForTimeout(150);
        const f = await page.evaluate(() => {
          const input = document.getElementById('player-name');
          const msg = document.getElementById('player-name-msg');
          const a = input.getBoundingClientRect(), m = msg?.getBoundingClientRect();
          return { focused: document.activeElement === input, text: msg?.textContent || '', gap: m ? m.top - a.bottom : null, inView: m ? m.top >= 0 && m.bottom <= innerHeight : false, described: (input.getAttribute('aria-describedby') || '').includes('player-name-msg') };
        });
        if (how === 'create') await shot(page, `small-name-refused-${lang}-${size}`);
        assert.equal(f.text, L['reason.name_chars'], `${what} ${how}: the server's reason at the field`);
        assert.ok(f.focused, `${what} ${how}: the field is focused`);
        assert.ok(f.gap !== null && f.gap >= 0 && f.gap < 40, `${what} ${how}: the reason is just below the field (${f.gap} px)`);
        assert.ok(f.inView, `${what} ${how}: the reason is in sight`);
        assert.ok(f.described, `${what} ${how}: the field is described by its reason`);
        assert.ok(page.url().endsWith('#/'), `${what} ${how}: still in the lobby`);
        // Typing again clears the mark.
        await page.fill('#player-name', 'Ann');
        assert.equal(await page.getAttribute('#player-name', 'aria-invalid'), null, `${what} ${how}: the mark goes once the name is changed`);
        assert.equal((await page.textContent('#player-name-msg').catch(() => '')) || '', '', `${what} ${how}: and so does the reason`);
      }
      assert.equal(posts.length, 2, `${what}: both requests were refused by the server (${posts})`);
      const pub = (await apiCall(BASE, 'GET', `/api/games/${waiting.game}`)).body;
      assert.ok(pub.seats[1].taken !== true && pub.status === 'waiting', `${what}: nobody joined`);
      assertNoErrors(page);
      await page.context().close();
    }
  } finally {
    await browser.close();
  }
});

// The log's rows under the heading: the first row shown is whole (its top not above the
// list's top), at every turn of a game whose log scrolls, on a desktop and a phone.
const logCut = (page) => page.evaluate(() => {
  const ol = document.getElementById('log');
  const r = ol.getBoundingClientRect();
  const head = document.querySelector('.log-panel h3').getBoundingClientRect();
  const rows = [...ol.children].map((li) => li.getBoundingClientRect()).filter((b) => b.bottom > r.top + 1 && b.top < r.bottom - 1);
  const first = rows[0];
  const last = ol.lastElementChild?.getBoundingClientRect();
  return { scrolls: ol.scrollHeight > ol.clientHeight + 1, cut: first ? r.top - first.top : 0, headBelow: first ? head.bottom - first.top : 0, lastCut: last ? last.bottom - r.bottom : 0, n: ol.children.length };
});

test('small things: no row of the move log is cut under its "Moves" heading (desktop and phone)', { timeout: 240000 }, async () => {
  const browser = await launch();
  try {
    for (const [size, viewport, extra] of [['desktop', WIDE, {}], ['phone', PHONE, TOUCH]]) {
      const page = await newPage(browser, viewport, extra);
      await page.goto(`${BASE}/?lang=en#/learn/square`);
      await page.waitForSelector('.game.guided:not(.loading) .board-svg');
      await page.click('[data-action=guide-toggle]'); // no tips: the game only
      const seen = [];
      let shotDone = false;
      for (let moves = 0; moves < 14; moves++) {
        const st = await waitTurnOrEnd(page, 60000);
        if (st.status === 'over') break;
        await page.waitForTimeout(200);
        const f = await logCut(page);
        seen.push(f);
        if (f.scrolls && !shotDone && st.phase !== 'swap') {
          shotDone = true;
          await page.locator('.log-panel').scrollIntoViewIfNeeded();
          await shot(page, `small-log-${size}`);
          await page.evaluate(() => window.scrollTo(0, 0));
        }
        if (st.phase === 'swap') {
          await page.click('.swap-dialog [data-action=keep]');
          await page.waitForFunction((b) => Number(document.querySelector('.game').dataset.seq) > b, st.seq);
          continue;
        }
        await page.click('[data-action=hint]');
        const key = await (await page.waitForFunction(() => { const el = document.getElementById('preview'); return el?.dataset.state === 'legal' ? el.dataset.key : null; }, null, { timeout: 30000 })).jsonValue();
        const p = size === 'phone' ? await cellInSight(page, key) : await cellPoint(page, key);
        if (size === 'phone') await page.touchscreen.tap(p.x, p.y); else await page.mouse.click(p.x, p.y);
        await page.waitForFunction((b) => Number(document.querySelector('.game').dataset.seq) > b, st.seq, { timeout: 15000 });
      }
      const scrolled = seen.filter((f) => f.scrolls);
      assert.ok(scrolled.length >= 2, `${size}: the log came to scroll (${JSON.stringify(seen)})`);
      for (const f of scrolled) {
        assert.ok(f.cut <= 1, `${size}: the first row shown is cut by ${f.cut} px under the heading (${JSON.stringify(f)})`);
        assert.ok(f.headBelow <= 1, `${size}: the heading reaches into the first row (${JSON.stringify(f)})`);
        assert.ok(f.lastCut <= 1, `${size}: the newest row is whole (${JSON.stringify(f)})`);
      }
      assertNoErrors(page);
      await page.context().close();
    }
  } finally {
    await browser.close();
  }
});

test('small things: the end card shows each player\'s tracks on one line on a phone, and one "Step through the game" (en/de/hu)', { timeout: 90000 }, async () => {
  const browser = await launch();
  try {
    for (const [lang, variant, name, size, viewport, extra] of [
      ['en', 'hex', 'Maximilian', 'phone', PHONE, TOUCH], ['de', 'hex', 'Konstantin', 'phone', PHONE, TOUCH],
      ['hu', 'square', 'Erzsébet', 'phone', PHONE, TOUCH], ['en', 'hex', 'Maximilian', 'desktop', WIDE, {}]]) {
      const L = MESSAGES[lang], what = `${lang} ${variant} ${size}`;
      const made = await create(BASE, { variant, players: 2, name, seats: [{ kind: 'human' }, { kind: 'ai', level: 'greedy' }] });
      const page = await seated(browser, BASE, made, { viewport, extra, lang });
      await resign(page);
      await page.waitForTimeout(300);
      await page.locator('.end-dialog').scrollIntoViewIfNeeded();
      await shot(page, `small-end-${variant}-${lang}-${size}`);
      const rows = await page.$$eval('.ranking tr', (trs) => trs.map((tr) => {
        const tops = [...tr.querySelectorAll('.trk')].map((x) => Math.round(x.getBoundingClientRect().top));
        return { lines: new Set(tops).size, n: tops.length };
      }));
      assert.equal(rows.length, 2);
      for (const r of rows) assert.equal(r.lines, 1, `${what}: a player's ${r.n} tracks on ${r.lines} lines`);
      const steps = () => page.$$eval('button', (bs, text) => bs.filter((b) => b.textContent.trim() === text && b.offsetParent !== null).length, L['game.step_through']);
      assert.equal(await steps(), 1, `${what}: one "${L['game.step_through']}" while the end card is shown`);
      // Closed, the card leaves its two ways back: Results and Step through the game.
      await page.click('.end-dialog [data-action=close]');
      await page.waitForSelector('.end-dialog', { state: 'detached' });
      assert.equal(await steps(), 1, `${what}: one "${L['game.step_through']}" with the card closed`);
      assert.ok(await page.isVisible('[data-action=results]'), `${what}: Results brings the card back`);
      await page.click('[data-action=results]');
      await page.waitForSelector('.end-dialog');
      assert.equal(await steps(), 1, `${what}: one again with the card back`);
      assertNoErrors(page);
      await page.context().close();
    }
  } finally {
    await browser.close();
  }
});

test('small things: My games offers Resume, not Watch, for one\'s own game (en, desktop and phone)', { timeout: 60000 }, async () => {
  const browser = await launch();
  try {
    for (const [size, viewport, extra] of [['desktop', WIDE, {}], ['phone', PHONE, TOUCH]]) {
      const made = await create(BASE, { variant: 'square', players: 2, name: 'Ann', seats: [{ kind: 'human' }, { kind: 'human' }] });
      await apiCall(BASE, 'POST', `/api/games/${made.game}/join`, { name: 'Bo' });
      const page = await seated(browser, BASE, made, { viewport, extra });
      await page.goto(`${BASE}/#/`);
      const mine = page.locator(`#my-games .game-row[data-game="${made.game}"]`);
      await mine.waitFor();
      await page.waitForTimeout(200);
      await mine.scrollIntoViewIfNeeded();
      await shot(page, `small-my-games-${size}`);
      assert.equal(await mine.locator('[data-action=resume]').count(), 1, `${size}: Resume`);
      assert.equal(await mine.locator('[data-action=watch]').count(), 0, `${size}: no Watch for one's own game`);
      // In the public list too, one's own game is resumed, not watched; another one is watched.
      const pub = page.locator(`#running-games .game-row[data-game="${made.game}"]`);
      if (await pub.count()) assert.equal(await pub.locator('[data-action=watch]').count(), 0, `${size}: no Watch in the running list either`);
      const other = await create(BASE, { variant: 'square', players: 2, name: 'Cy', seats: [{ kind: 'human' }, { kind: 'human' }] });
      await apiCall(BASE, 'POST', `/api/games/${other.game}/join`, { name: 'Di' });
      const row = page.locator(`#running-games .game-row[data-game="${other.game}"]`);
      await row.waitFor({ timeout: 10000 });
      assert.equal(await row.locator('[data-action=watch]').count(), 1, `${size}: another's game is watched`);
      assertNoErrors(page);
      await page.context().close();
    }
  } finally {
    await browser.close();
  }
});

test('small things: #/learn/ of a game that does not exist says so and deals nothing (en/de/hu, desktop and phone)', { timeout: 60000 }, async () => {
  const browser = await launch();
  try {
    for (const [lang, size, viewport, extra] of [['en', 'desktop', WIDE, {}], ['de', 'phone', PHONE, TOUCH], ['hu', 'desktop', WIDE, {}], ['hu', 'phone', PHONE, TOUCH]]) {
      const L = MESSAGES[lang], what = `${lang} ${size}`;
      const page = await newPage(browser, viewport, extra);
      const posts = [];
      page.on('request', (r) => { if (r.method() === 'POST') posts.push(r.url()); });
      await page.goto(`${BASE}/?lang=${lang}#/learn/chess`);
      await page.waitForSelector('.learn-page .missing, .game', { timeout: 10000 });
      await page.waitForTimeout(800); // a game would have been dealt by now
      await shot(page, `small-learn-unknown-${lang}-${size}`);
      assert.deepEqual(posts, [], `${what}: nothing was dealt`);
      assert.ok(page.url().endsWith('#/learn/chess'), `${what}: the address stays (${page.url()})`);
      assert.equal(await page.locator('.game').count(), 0, `${what}: no game page`);
      assert.equal((await page.textContent('.learn-page .missing h2')).trim(), L['guide.unknown_title']);
      const text = await page.textContent('.learn-page .missing');
      assert.ok(text.includes('chess'), `${what}: names what was asked for`);
      // The three guided games, and the lobby, one click away.
      assert.deepEqual(await page.$$eval('.learn-page .missing a[data-action=learn]', (as) => as.map((a) => a.dataset.variant)), ['square', 'rota', 'hex']);
      assert.equal(await page.locator('.learn-page .missing a[href="#/"]').count(), 1);
      assert.ok(await sideways(page) <= 0, `${what}: fits the screen`);
      // And the links work: a real guided game.
      await page.click('.learn-page .missing a[data-variant=rota]');
      await page.waitForURL(/#\/game\//);
      await page.waitForSelector('.game.guided:not(.loading) .board-svg');
      assert.equal(await page.getAttribute('.game', 'data-variant'), 'rota');
      assertNoErrors(page);
      await page.context().close();
    }
  } finally {
    await browser.close();
  }
});

// The rating chart's dates and the games' times: a person whose browser speaks American
// English reads the German page. A rated game against the computer (a few moves, then
// resigned) gives the profile a chart.
test('small things: the rating chart\'s dates and the games\' times follow the page\'s language, not the browser\'s', { timeout: 180000 }, async () => {
  const browser = await launch();
  try {
    const ctx = await browser.newContext({ viewport: WIDE, locale: 'en-US' });
    const page = await ctx.newPage();
    page.errors = [];
    page.on('pageerror', (e) => page.errors.push(e.message));
    const name = `Chart${Date.now() % 100000}`;
    await page.goto(`${BASE}/?lang=en#/`);
    const made = await page.evaluate(async (n) => {
      const post = (p, b) => fetch(p, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(b) }).then((r) => r.json());
      await post('/api/accounts', { name: n, password: 'correct horse battery' });
      return post('/api/games', { variant: 'square', players: 2, seats: [{ kind: 'human' }, { kind: 'ai', level: 'random' }], clock: { kind: 'realtime', base_s: 600, increment_s: 5 }, rated: true });
    }, name);
    assert.ok(made.game, JSON.stringify(made));
    await page.evaluate(([i, s, tk]) => localStorage.setItem(`axio.token.${i}`, JSON.stringify({ seat: s, token: tk, at: Date.now() })), [made.game, made.seat, made.token]);
    await page.goto(`${BASE}/?lang=en#/game/${made.game}`);
    await page.waitForSelector('.game:not(.loading) .board-svg');
    for (let i = 0; i < 4; i++) await placeOne(page, { firstMove: i === 0 });
    await waitTurnOrEnd(page);
    await resign(page);
    for (const lang of ['de', 'hu', 'en']) {
      await page.goto(`${BASE}/?lang=${lang}#/player/${encodeURIComponent(name)}`);
      await page.waitForSelector('figure.chart[data-variant=square] .chart-dot:not(.start)', { timeout: 15000 });
      const pub = (await apiCall(BASE, 'GET', `/api/players/${encodeURIComponent(name)}`)).body;
      // The dates as this browser says them in the page's language, and in its own (en-US).
      const f = await page.evaluate(([l, ended]) => {
        const dot = document.querySelector('figure.chart[data-variant=square] .chart-dot:not(.start)');
        const at = new Date(ended * 1000), opts = { year: 'numeric', month: 'short', day: 'numeric' };
        return {
          tip: dot.querySelector('title').textContent, rowTitle: document.querySelector('.pgame .game-age')?.title || '',
          want: at.toLocaleDateString(l, opts), browserWay: at.toLocaleDateString('en-US', opts), wantTime: at.toLocaleString(l),
          pageLang: document.documentElement.lang,
        };
      }, [lang, pub.games[0].ended]);
      const { want, browserWay } = f;
      if (lang === 'de') await shot(page, 'small-chart-date-de');
      assert.equal(f.pageLang, lang);
      assert.ok(f.tip.includes(want), `${lang}: the chart's date "${f.tip}" is said as "${want}"`);
      if (lang !== 'en') assert.ok(!f.tip.includes(browserWay), `${lang}: not as the browser's "${browserWay}"`);
      assert.equal(f.rowTitle, f.wantTime, `${lang}: the game's time in the list`);
    }
    assert.deepEqual(page.errors, []);
    await ctx.close();
  } finally {
    await browser.close();
  }
});
