// guide.test.mjs — the guided first game in the browser: for each game a whole guided
// game against the computer, completed by clicking (the guide's "Show me a good move"
// and the Hint button pick the moves, the test clicks them on the board), with every
// tip the deal brings shown, looked at (a screenshot each) and dismissed with its
// button: AXIO in English from the lobby, AXIO ROTA in German, AXIO Hex in Hungarian
// from the rules page. Then the first tip in all three languages on a phone, a tip
// shown with an AXIO! banner (never over it), and "Hide the tips" free to click at the
// start of every guided game on a desktop and a phone (no tip ever covers it), and the
// first tip of every game on a touch phone in all three languages: it speaks of tapping
// (no mouse, no R key), sits above the board it talks about and points at it. And the
// swap tip inside the swap dialog, covering none of it, on a desktop and a touch phone.
// And what a tip may never cover (issue 54): the guided AXIO played by the Hint, watched frame
// by frame — no floating tip while the swap dialog is open, none over the hinted tile (nor the
// hint's note or a banner), an unanswered tip gone with the next placement, the end tip in the
// end card (not over its heading or the final board), the hinted tile placed by the first tap
// on it — on a 1366×800 desktop (en) and touch phones (en, hu); and no "Bonus move!" once the
// game ended on the placement that reached AXIO!.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, waitTurnOrEnd, cellPoint, gameState, shot, assertNoErrors, apiGet, BASE, DESKTOP, PHONE } from './lib.mjs';
import { MESSAGES } from '../../web/js/messages.js';

// The tips shown so far on the page, and screenshots of each the first time.
async function handleTips(page, seen, shotPrefix) {
  for (let k = 0; k < 8; k++) {
    const bubble = page.locator('.guide-bubble');
    if (!(await bubble.count())) return;
    const step = await bubble.getAttribute('data-step');
    if (!seen.has(step)) {
      seen.set(step, await tipFacts(page));
      await page.mouse.move(2, 300);
      await page.waitForTimeout(350); // the tip has faded in
      await shot(page, `${shotPrefix}-${step}`);
    }
    await bubble.locator('[data-action=guide-ok]').click();
    await page.waitForFunction((s) => document.querySelector('.guide-bubble')?.dataset.step !== s, step);
  }
}

// What a tip shows: its text, its box, the drawing on the board, the marked panels.
const tipFacts = (page) => page.evaluate(() => {
  const b = document.querySelector('.guide-bubble');
  const r = b.getBoundingClientRect();
  const labels = [...document.querySelectorAll('.layer-guide .guide-label text')].map((x) => parseInt(x.textContent, 10));
  const pts = [...b.querySelectorAll('.guide-pts')].map((x) => parseInt(x.textContent, 10));
  return {
    title: b.querySelector('.guide-title').textContent, text: b.textContent,
    box: { left: r.left, top: r.top, right: r.right, bottom: r.bottom, w: innerWidth, h: innerHeight },
    arrow: getComputedStyle(document.querySelector('.guide-arrow')).display !== 'none',
    rings: document.querySelectorAll('.layer-guide .guide-ring').length,
    spots: document.querySelectorAll('.layer-guide .guide-spot').length,
    lines: document.querySelectorAll('.layer-guide .guide-line, .layer-guide .guide-circle').length,
    labels, pts, marked: document.querySelectorAll('.guide-target').length,
    inline: !!b.closest('.modal'),
  };
});

// Watches, frame by frame, the moments a tip and an AXIO! banner are shown together:
// how many frames, and the largest area where the tip covers the banner (none allowed);
// and the largest area where a tip covers "Hide the tips", and under which tips (none allowed).
const watchBanners = (page) => page.evaluate(() => {
  const w = { frames: 0, worst: 0, steps: [], toggle: 0, toggleSteps: [] };
  window.axioTipWatch = w;
  const tick = () => {
    const b = document.querySelector('.guide-bubble'), a = document.querySelector('.axio-banner');
    const t = document.querySelector('[data-action=guide-toggle]');
    if (b && t) {
      const r = b.getBoundingClientRect(), q = t.getBoundingClientRect();
      const o = Math.max(0, Math.min(r.right, q.right) - Math.max(r.left, q.left)) * Math.max(0, Math.min(r.bottom, q.bottom) - Math.max(r.top, q.top));
      w.toggle = Math.max(w.toggle, o);
      if (o && !w.toggleSteps.includes(b.dataset.step)) w.toggleSteps.push(b.dataset.step);
    }
    if (b && a) {
      const r = b.getBoundingClientRect(), q = a.getBoundingClientRect();
      const o = Math.max(0, Math.min(r.right, q.right) - Math.max(r.left, q.left)) * Math.max(0, Math.min(r.bottom, q.bottom) - Math.max(r.top, q.top));
      w.frames++;
      w.worst = Math.max(w.worst, o);
      if (!w.steps.includes(b.dataset.step)) w.steps.push(b.dataset.step);
    }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
});

// Asks the computer for a move (the tip's button or the Hint button) and clicks it.
async function playHinted(page, viaTip) {
  const seq = (await gameState(page)).seq;
  if (viaTip) await page.click('.guide-bubble [data-action=guide-hint]');
  else await page.click('[data-action=hint]');
  const key = await page.waitForFunction(() => {
    const el = document.getElementById('preview');
    return el && el.dataset.state === 'legal' ? el.dataset.key : null;
  }, null, { timeout: 30000 });
  const cell = await key.jsonValue();
  // A wild corner of ROTA asks for its colour: the first offered.
  await page.mouse.click(...Object.values(await cellPoint(page, cell)));
  const next = await page.waitForFunction((b) => (document.querySelector('.wild-dialog') ? 'wild'
    : Number(document.querySelector('.game').dataset.seq) > b ? 'moved' : null), seq, { timeout: 15000 });
  if ((await next.jsonValue()) === 'wild') {
    await page.click('.wild-dialog [data-wild]');
    await page.waitForFunction((b) => Number(document.querySelector('.game').dataset.seq) > b, seq);
  }
}

async function playGuided(page, { variant, lang, from }) {
  const L = MESSAGES[lang];
  if (from === 'rules') {
    await page.goto(`${BASE}/?lang=${lang}#/rules/${variant}`);
    await page.click(`.learn-btn[data-variant=${variant}]`);
  } else {
    await page.goto(`${BASE}/?lang=${lang}#/`);
    await page.click(`.lobby-learn a[data-variant=${variant}]`);
  }
  await page.waitForURL(/#\/game\//);
  const id = page.url().split('#/game/')[1];
  await page.waitForSelector('.game.guided:not(.loading) .board-svg');
  const pub = (await apiGet(`/api/games/${id}`)).body;
  assert.equal(pub.guided, true);
  assert.deepEqual(pub.seats.map((s) => s.kind), ['human', 'ai']);
  assert.equal(await page.locator('.guide-tag b').textContent(), L['guide.badge']);

  await watchBanners(page);
  const seen = new Map();
  const prefix = `guide-${variant}-${lang}`;
  // The first tip stays open while the first tile is asked for and placed: it never blocks play.
  await page.waitForSelector('.guide-bubble[data-step=start]');
  seen.set('start', await tipFacts(page));
  await page.mouse.move(2, 300);
  await page.waitForTimeout(350);
  await shot(page, `${prefix}-start`);
  await waitTurnOrEnd(page);
  await playHinted(page, true);
  assert.equal(await page.locator('.guide-bubble[data-step=start]').count(), 0, 'the first tip goes once the tile is down');
  let moves = 1, swaps = 0;
  for (let guard = 0; guard < 200; guard++) {
    const st = await waitTurnOrEnd(page, 60000);
    await handleTips(page, seen, prefix);
    if (st.status === 'over') break;
    if (st.phase === 'swap') {
      await page.waitForSelector('.swap-dialog');
      // Keep the first time, swap later: both answers are clicked.
      await page.click(`.swap-dialog [data-action=${swaps++ ? 'swap' : 'keep'}]`);
      await page.waitForFunction((b) => Number(document.querySelector('.game').dataset.seq) > b, st.seq);
      continue;
    }
    await playHinted(page, false);
    moves++;
  }
  await page.waitForSelector('.end-dialog');
  if (!seen.has('end')) {
    await page.waitForSelector('.guide-bubble[data-step=end]');
    await handleTips(page, seen, prefix);
  }
  assertNoErrors(page);
  const banners = await page.evaluate(() => window.axioTipWatch);
  return { id, seen, moves, swaps, banners };
}

// What every game shows, and what its tips must point at.
// The game's end (GET /api/games/ID) tells whether AXIO! came near: a track of the learner at
// two thirds of the threshold (12 of 18, 8 of 12), or anyone's at the threshold. The guided
// game's hints are reproducible, so the game the test plays is the same every time, and in it
// AXIO! does come near; the check says so rather than trusting it.
function axioCameNear(pub) {
  const max = pub.variant === 'rota' ? 12 : 18;
  const tracks = (seat) => Object.values(pub.seats[seat].score || {});
  return Math.max(...tracks(0)) >= max - Math.floor(max / 3) || pub.seats.some((_, i) => Math.max(...tracks(i)) >= max);
}

function checkTips(seen, variant, lang, pub) {
  const L = MESSAGES[lang];
  const steps = [...seen.keys()];
  for (const step of ['start', 'lines', 'weakest', 'end']) assert.ok(seen.has(step), `${variant}: the tip "${step}" came (saw ${steps})`);
  if (variant !== 'rota') assert.ok(seen.has('swap'), `${variant}: the swap was offered and explained (saw ${steps})`);
  assert.ok(axioCameNear(pub), `${variant}: the guided game's line reaches AXIO! or near it`);
  assert.ok(seen.has('near') || seen.has('axio'), `${variant}: AXIO! came near or happened (saw ${steps})`);
  const start = seen.get('start');
  assert.equal(start.title, L[variant === 'rota' ? 'guide.start.title_rota' : 'guide.start.title']);
  assert.ok(start.text.includes(L[`guide.start.${variant}`]));
  if (variant === 'rota') assert.ok(start.spots > 0, 'the places for the tile are marked');
  else assert.equal(start.rings, variant === 'hex' ? 6 : 5, 'every start symbol is circled');
  const lines = seen.get('lines');
  assert.ok(lines.lines > 0, 'the lines that scored are drawn');
  assert.equal(lines.labels.reduce((a, b) => a + b, 0), lines.pts.reduce((a, b) => a + b, 0), 'the lines add up to the points');
  assert.ok(seen.get('weakest').marked > 0, 'the weakest colour is marked in the score panel');
  for (const [step, f] of seen) {
    assert.ok(f.box.left >= 0 && f.box.right <= f.box.w && f.box.top >= 0 && f.box.bottom <= f.box.h, `${step}: the tip is inside the window`);
    // A tip about a dialog sits in it (the swap offer): nothing to point across.
    if (step === 'swap') assert.ok(f.inline, 'the swap tip is inside the swap dialog');
    else if (step !== 'end') assert.ok(f.arrow, `${step}: an arrow points at the thing`);
  }
}

const GAMES = [
  { variant: 'square', lang: 'en', from: 'lobby' },
  { variant: 'rota', lang: 'de', from: 'lobby' },
  { variant: 'hex', lang: 'hu', from: 'rules' },
];

for (const g of GAMES) {
  test(`guide: a whole guided game of ${g.variant} in ${g.lang}, every tip seen`, { timeout: 240000 }, async () => {
    const browser = await launch();
    try {
      const page = await newPage(browser);
      const r = await playGuided(page, g);
      const pub = (await apiGet(`/api/games/${r.id}`)).body;
      assert.equal(pub.status, 'over');
      checkTips(r.seen, g.variant, g.lang, pub);
      assert.equal(r.banners.worst, 0, `no tip covered an AXIO! banner (${JSON.stringify(r.banners)})`);
      assert.equal(r.banners.toggle, 0, `no tip covered "Hide the tips" (${JSON.stringify(r.banners)})`);
      assert.ok(r.moves >= 8, `${r.moves} moves`);
    } finally {
      await browser.close();
    }
  });
}

// The guided games' lines reach AXIO! only near (no banner comes with a tip there), so here
// the page is told of an AXIO! that did not happen: the test stands between the page and the
// server and passes the page an `axio` event of the learner (and the state again, which
// brings the tip about it). The banner shows at the top of the board; the tip never covers
// it, whether the tip comes after the banner or the banner after the tip, and goes back to
// its own place once the banner is gone.
test('guide: a tip and an AXIO! banner shown together do not overlap', { timeout: 60000 }, async () => {
  const browser = await launch();
  try {
    const page = await newPage(browser);
    const proxy = { ws: null, state: null };
    await page.routeWebSocket(/\/ws\//, (ws) => {
      const server = ws.connectToServer();
      proxy.ws = ws;
      server.onMessage((m) => {
        if (JSON.parse(m).type === 'state') proxy.state = m;
        ws.send(m);
      });
    });
    await page.goto(`${BASE}/?lang=de#/learn/square`);
    await page.waitForSelector('.guide-bubble[data-step=start]');
    await watchBanners(page);
    await page.click('.guide-bubble [data-action=guide-ok]');
    await page.waitForFunction(() => !document.querySelector('.guide-bubble'));
    const axio = (color) => proxy.ws.send(JSON.stringify({ type: 'event', event: { ev: 'axio', player: 0, color, score: 18, bonus_move: true } }));
    const covered = () => page.evaluate(() => {
      const r = document.querySelector('.guide-bubble').getBoundingClientRect(), q = document.querySelector('.axio-banner').getBoundingClientRect();
      return Math.max(0, Math.min(r.right, q.right) - Math.max(r.left, q.left)) * Math.max(0, Math.min(r.bottom, q.bottom) - Math.max(r.top, q.top));
    });
    const place = () => page.evaluate(() => { const r = document.querySelector('.guide-bubble').getBoundingClientRect(); return [r.left, r.top]; });

    // The banner first, then the tip about it (the state after the event).
    axio('red');
    proxy.ws.send(proxy.state);
    await page.waitForSelector('.axio-banner');
    await page.waitForSelector('.guide-bubble[data-step=axio]');
    await page.waitForTimeout(400); // both have popped in
    assert.equal(await covered(), 0, 'the tip that came after the banner is beside or below it');
    await page.mouse.move(2, 300);
    await shot(page, 'guide-axio-banner-tip-after');
    await page.waitForFunction(() => !document.querySelector('.axio-banner'));
    await page.waitForTimeout(300);
    const own = await place();
    await shot(page, 'guide-axio-tip-alone');

    // The tip first, then another banner: the tip makes way, and comes back after.
    axio('blue');
    await page.waitForSelector('.axio-banner');
    await page.waitForTimeout(400);
    assert.equal(await covered(), 0, 'the tip makes way for a banner that comes after it');
    await shot(page, 'guide-axio-banner-tip-before');
    await page.waitForFunction(() => !document.querySelector('.axio-banner'));
    await page.waitForTimeout(300);
    assert.deepEqual(await place(), own, 'the tip is back in its own place once the banner is gone');

    const w = await page.evaluate(() => window.axioTipWatch);
    assert.ok(w.frames > 0, 'a tip and a banner were shown together');
    assert.equal(w.worst, 0, `in no frame did the tip cover the banner (${JSON.stringify(w)})`);
    assert.equal(w.toggle, 0, `in no frame did the tip cover "Hide the tips" (${JSON.stringify(w)})`);
    assertNoErrors(page);
  } finally {
    await browser.close();
  }
});

test('guide: the first tip in English, German and Hungarian on a phone', { timeout: 60000 }, async () => {
  const browser = await launch();
  try {
    for (const lang of ['en', 'de', 'hu']) {
      const page = await newPage(browser, PHONE);
      await page.goto(`${BASE}/?lang=${lang}#/learn/square`);
      await page.waitForSelector('.guide-bubble[data-step=start]');
      const f = await tipFacts(page);
      assert.equal(f.title, MESSAGES[lang]['guide.start.title']);
      assert.ok(f.text.includes(MESSAGES[lang]['guide.got_it']));
      assert.ok(f.box.left >= 0 && f.box.right <= PHONE.width && f.box.bottom <= PHONE.height, 'the tip fits the phone');
      assert.equal(f.rings, 5);
      await page.waitForTimeout(350);
      await shot(page, `guide-start-phone-${lang}`);
      // "Hide the tips" stops them; "Show the tips" brings the open one back.
      await page.click('[data-action=guide-toggle]');
      assert.equal(await page.locator('.guide-bubble').count(), 0);
      await page.click('[data-action=guide-toggle]');
      await page.waitForSelector('.guide-bubble[data-step=start]');
      assertNoErrors(page);
      await page.context().close();
    }
  } finally {
    await browser.close();
  }
});

// "Hide the tips" is never under a tip: at the start of every guided game, on a desktop
// and on a phone, the first tip is open, and the control beside "Guided game" can be
// clicked all the same (the element at its centre is the button, and Playwright's trial
// click finds it receiving the pointer); clicking it hides the tips.
const toggleFree = (page) => page.evaluate(() => {
  const t = document.querySelector('[data-action=guide-toggle]');
  const r = t.getBoundingClientRect();
  const at = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
  const b = document.querySelector('.guide-bubble')?.getBoundingClientRect();
  const o = b ? Math.max(0, Math.min(r.right, b.right) - Math.max(r.left, b.left)) * Math.max(0, Math.min(r.bottom, b.bottom) - Math.max(r.top, b.top)) : 0;
  return { hit: !!at && t.contains(at), inside: r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth, covered: o, text: t.textContent };
});

for (const [size, viewport] of [['desktop', DESKTOP], ['phone', PHONE]]) {
  test(`guide: "Hide the tips" is never under the first tip (${size}, every game)`, { timeout: 90000 }, async () => {
    const browser = await launch();
    try {
      for (const variant of ['square', 'rota', 'hex']) {
        for (const lang of ['en', 'de', 'hu']) {
          const L = MESSAGES[lang], what = `${variant} ${lang} ${size}`;
          const page = await newPage(browser, viewport);
          await page.goto(`${BASE}/?lang=${lang}#/learn/${variant}`);
          await page.waitForSelector('.guide-bubble[data-step=start]');
          await page.waitForTimeout(350); // the tip has faded in
          if (lang === 'en') await shot(page, `guide-toggle-${variant}-${size}`);
          const f = await tipFacts(page);
          assert.ok(f.box.left >= 0 && f.box.right <= f.box.w && f.box.top >= 0 && f.box.bottom <= f.box.h, `${what}: the tip is inside the window`);
          // On a desktop the tip is beside the board, on a phone above it: it points at the places.
          assert.ok(f.arrow, `${what}: the first tip points at the places for the tile`);
          const toggle = page.locator('[data-action=guide-toggle]');
          await toggle.waitFor({ state: 'visible' });
          const free = await toggleFree(page);
          assert.equal(free.text, L['guide.tips_off']);
          assert.ok(free.inside, `${what}: "${free.text}" is in the window`);
          assert.ok(free.hit, `${what}: the element at the centre of "${free.text}" is the button`);
          assert.equal(free.covered, 0, `${what}: the tip does not cover "${free.text}"`);
          await toggle.click({ trial: true, timeout: 2000 });
          await toggle.click({ timeout: 2000 });
          await page.waitForFunction(() => !document.querySelector('.guide-bubble'));
          assert.equal(await toggle.textContent(), L['guide.tips_on']);
          assert.equal(await page.evaluate(() => document.querySelectorAll('.layer-guide > *').length), 0, `${what}: the marks on the board go with the tip`);
          assertNoErrors(page);
          await page.context().close();
        }
      }
    } finally {
      await browser.close();
    }
  });
}

// On a touch screen there is no mouse, no R key and nothing to point at: the first tip of
// every game speaks of tapping (its own text in every language, as the panel's help does),
// and on a phone it leaves the places it talks about in sight, with an arrow to them.
// On a desktop the same tip still speaks of the mouse (ROTA) or of pointing (the others).
// Only the tip's own text is read (its buttons, e.g. "Mutass egy jó lépést", are not about input).
const TOUCH = { isMobile: true, hasTouch: true };
const INPUT_WORDS = [/mouse/i, /\bmaus/i, /egér/i, /(^|[\s(])R([\s/,).:]|$)/, /\bclick|\bklick|kattint/i, /point at|\bhover/i,
  /zeige auf/i, /mutass a táblára/i, /\bEnter\b/];
const inputWords = (text) => INPUT_WORDS.filter((re) => re.test(text)).map(String);
const tipText = (page) => page.evaluate(() => [...document.querySelectorAll('.guide-bubble > p')].map((p) => p.textContent).join(' '));
// The places the first tip is about: the circled start symbols, or ROTA's marked places.
const startTargets = (page) => page.evaluate(() => {
  const b = document.querySelector('.guide-bubble').getBoundingClientRect();
  const marks = [...document.querySelectorAll('.layer-guide .guide-ring, .layer-guide .guide-spot')].map((m) => m.getBoundingClientRect());
  const o = (q) => Math.max(0, Math.min(b.right, q.right) - Math.max(b.left, q.left)) * Math.max(0, Math.min(b.bottom, q.bottom) - Math.max(b.top, q.top));
  return { marks: marks.length, covered: marks.filter((q) => o(q) > 0).length };
});

test('guide: the first tip speaks of tapping on a phone, of the mouse on a desktop (every game, en/de/hu)', { timeout: 120000 }, async () => {
  const browser = await launch();
  try {
    for (const variant of ['square', 'rota', 'hex']) {
      for (const lang of ['en', 'de', 'hu']) {
        const L = MESSAGES[lang];
        for (const [size, viewport, extra] of [['phone', PHONE, TOUCH], ['desktop', DESKTOP, {}]]) {
          const what = `${variant} ${lang} ${size}`;
          const page = await newPage(browser, viewport, extra);
          await page.goto(`${BASE}/?lang=${lang}#/learn/${variant}`);
          await page.waitForSelector('.guide-bubble[data-step=start]');
          await page.waitForTimeout(350); // the tip has faded in
          if (size === 'phone') await shot(page, `guide-start-touch-${variant}-${lang}`);
          const text = await tipText(page);
          const f = await tipFacts(page);
          assert.ok(f.box.left >= 0 && f.box.right <= f.box.w && f.box.top >= 0 && f.box.bottom <= f.box.h, `${what}: the tip is inside the window`);
          if (size === 'phone') {
            assert.deepEqual(inputWords(text), [], `${what}: no mouse or keyboard in "${text}"`);
            assert.equal(text, L[`guide.start.${variant}_touch`], `${what}: the tip's own touch text`);
            const marks = await startTargets(page);
            assert.ok(marks.marks > 0, `${what}: the places are marked`);
            assert.equal(marks.covered, 0, `${what}: the tip covers none of the places it talks about`);
            assert.ok(f.arrow, `${what}: an arrow points at the places`);
          } else {
            assert.notDeepEqual(inputWords(text), [], `${what}: the desktop tip speaks of the mouse or of pointing: "${text}"`);
            assert.equal(text, L[`guide.start.${variant}`], `${what}: the desktop text`);
          }
          assertNoErrors(page);
          await page.context().close();
        }
      }
    }
  } finally {
    await browser.close();
  }
});

// The swap tip of a guided game sits inside the swap dialog, above its choice: it covers
// none of the dialog (title, text, tiles, buttons), on a desktop or a touch phone, and
// needs no arrow across it; "Got it" closes the tip, the dialog stays. The dialog's own
// Hint answers "what would the computer do?" by marking that button.
const coveredIn = (page, sels) => page.evaluate((list) => {
  const b = document.querySelector('.guide-bubble').getBoundingClientRect();
  return list.map((sel) => {
    const el = document.querySelector(sel);
    if (!el) return { sel, missing: true };
    const r = el.getBoundingClientRect();
    const o = Math.max(0, Math.min(r.right, b.right) - Math.max(r.left, b.left)) * Math.max(0, Math.min(r.bottom, b.bottom) - Math.max(r.top, b.top));
    const at = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
    return { sel, covered: o, hit: !!at && el.contains(at), inside: r.top >= 0 && r.bottom <= innerHeight };
  });
}, sels);

for (const [lang, size, viewport, extra] of [['en', 'desktop', DESKTOP, {}], ['hu', 'phone', PHONE, TOUCH]]) {
  test(`guide: the swap tip sits in the swap dialog and covers none of it (${lang}, ${size})`, { timeout: 150000 }, async () => {
    const browser = await launch();
    try {
      const L = MESSAGES[lang];
      const page = await newPage(browser, viewport, extra);
      await page.goto(`${BASE}/?lang=${lang}#/learn/square`);
      await page.waitForSelector('.game.guided:not(.loading) .board-svg');
      for (let guard = 0; guard < 40; guard++) {
        const st = await waitTurnOrEnd(page, 60000);
        assert.notEqual(st.status, 'over', 'the swap comes before the end');
        if (st.phase === 'swap') break;
        const open = await page.locator('.guide-bubble [data-action=guide-ok]').count();
        if (open) { await page.click('.guide-bubble [data-action=guide-ok]'); continue; }
        await playHinted(page, false);
      }
      await page.waitForSelector('.swap-dialog');
      await page.waitForSelector('.guide-bubble[data-step=swap]');
      await page.waitForTimeout(350); // faded in
      assert.equal(await page.textContent('.guide-bubble .guide-title'), L['guide.swap.title']);
      const parts = ['.swap-dialog h2', '.swap-dialog > p', '.swap-dialog .swap-rack', '.swap-dialog [data-action=swap]', '.swap-dialog [data-action=keep]', '.swap-dialog [data-action=swap-hint]'];
      for (const f of await coveredIn(page, parts)) {
        if (f.missing) continue; // said below
        assert.equal(f.covered, 0, `${lang} ${size}: the tip covers ${f.sel}`);
        assert.ok(f.hit, `${lang} ${size}: ${f.sel} can be seen and clicked`);
        assert.ok(f.inside, `${lang} ${size}: ${f.sel} is in the window`);
      }
      assert.equal(await page.evaluate(() => getComputedStyle(document.querySelector('.guide-arrow')).display), 'none', 'no arrow across the dialog');
      assert.ok(await page.locator('.swap-dialog .guide-bubble[data-step=swap]').count(), 'the tip is in the dialog');
      assert.ok(await page.locator('.swap-dialog [data-action=swap-hint]').count(), 'the dialog has its own Hint');
      assert.ok(await page.locator('.swap-dialog .swap-rack.guide-target').count(), 'the tiles it speaks of are marked');
      await shot(page, `guide-swap-tip-${lang}-${size}`);
      // The dialog's Hint marks the computer's answer; "Got it" closes the tip only.
      await page.click('.swap-dialog [data-action=swap-hint]');
      await page.waitForSelector('.swap-dialog [data-hinted] .hint-badge');
      await page.click('.guide-bubble [data-action=guide-ok]');
      await page.waitForFunction(() => !document.querySelector('.guide-bubble[data-step=swap]'));
      assert.equal(await page.locator('.swap-dialog').count(), 1, 'the dialog stays');
      await page.click('.swap-dialog [data-hinted]');
      await page.waitForFunction(() => !document.querySelector('.swap-dialog'));
      assertNoErrors(page);
    } finally {
      await browser.close();
    }
  });
}

// ---- what a tip may never cover (issue 54, item 3) --------------------------------------
// A desktop of 1366×800 (where it was found) and a touch phone.
const WIDE = { width: 1366, height: 800 };

// Watches the page frame by frame for what a tip must not do, and for a "Bonus move!" once
// the game is over: a floating tip shown while the swap (or colour) dialog is open; a tip
// over the tile the Hint or the pointer shows on the board (the ghost); the end tip over the
// end card's heading or the board; a tip left open across a placement of the learner (an
// unanswered tip must not stay for the rest of the game); "Bonus move!" shown after the end.
// Each finding once per kind and tip, with the state's seq.
const watchCovers = (page) => page.evaluate(() => {
  const w = { found: [], frames: 0 };
  window.axioCoverWatch = w;
  const R = (el) => { const r = el?.getBoundingClientRect(); return r && (r.width || r.height) ? r : null; };
  const ov = (a, b) => (a && b ? Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left)) * Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top)) : 0);
  const note = (kind, step, extra = '') => {
    if (w.found.some((f) => f.kind === kind && f.step === step)) return;
    w.found.push({ kind, step, seq: document.querySelector('.game')?.dataset.seq, extra });
  };
  let open = null; // the tip element open, and how many placements of mine the log held then
  const placed = () => document.querySelectorAll('#log .log-place[data-player="0"]').length;
  const tick = () => {
    w.frames++;
    const b = document.querySelector('.guide-bubble');
    const shown = b && getComputedStyle(b).display !== 'none' && !b.hidden ? b : null;
    const step = shown?.dataset.step;
    const floating = shown && !shown.closest('.modal');
    const br = shown ? R(shown) : null;
    if (floating && document.querySelector('.swap-dialog, .wild-dialog')) note('tip-with-dialog', step);
    const ghost = R(document.querySelector('.layer-overlay .ghost'));
    if (br && ghost && ov(br, ghost) > 0) note('tip-over-tile', step);
    if (step === 'end') {
      if (ov(br, R(document.querySelector('.end-dialog h2'))) > 0) note('end-tip-over-heading', step);
      if (ov(br, R(document.querySelector('.board-svg'))) > 0) note('end-tip-over-board', step);
    }
    if (b !== open?.el) open = b ? { el: b, placed: placed() } : null;
    else if (b && step !== 'end' && placed() > open.placed) note('tip-stayed', step, `${open.placed} → ${placed()}`);
    const over = document.querySelector('.game')?.dataset.status === 'over' || document.querySelector('#log .log-end');
    const bonus = document.querySelector('.axio-banner .axio-bonus');
    if (over && bonus && R(bonus)) note('bonus-after-end', 'banner');
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
});

// Plays the guided game of AXIO to its end (or to `until`: a predicate on the facts), by
// the Hint and a tap or click on the hinted tile — on a touch phone a tap on its second half:
// "tap it to place it". answer: 'late' closes the open tips after each move (so that a tip
// is open while the Hint is shown), 'never' leaves them all unanswered; swapTipFirst: "Got it"
// on the swap tip before the swap is answered (the next tip may then come). At every hint: what
// covers the hinted tile (the tip, the AXIO! banner, the hint's note) and whether the first
// tap placed it.
async function playCovered(page, { lang, touch, answer, prefix, stopAfterAxio = false, swapTipFirst = false }) {
  await page.goto(`${BASE}/?lang=${lang}#/learn/square`);
  await page.waitForSelector('.game.guided:not(.loading) .board-svg');
  await watchCovers(page);
  const hints = [];
  let shots = 0, swaps = 0, axioTurn = false;
  for (let guard = 0; guard < 200; guard++) {
    const st = await waitTurnOrEnd(page, 60000);
    if (st.status === 'over') break;
    if (st.phase === 'swap') {
      await page.waitForSelector('.swap-dialog');
      await page.waitForTimeout(300);
      if (swapTipFirst && (await page.locator('.swap-dialog .guide-bubble [data-action=guide-ok]').count())) {
        await page.click('.swap-dialog .guide-bubble [data-action=guide-ok]');
        await page.waitForTimeout(400);
      }
      if (swaps < 3) await shot(page, `${prefix}-swap${swaps}`);
      await page.click(`.swap-dialog [data-action=${swaps++ % 2 ? 'swap' : 'keep'}]`);
      await page.waitForFunction((b) => Number(document.querySelector('.game').dataset.seq) > b, st.seq);
      continue;
    }
    const banner = await page.locator('.axio-banner').count();
    await page.click('[data-action=hint]');
    await page.waitForFunction(() => document.getElementById('preview')?.dataset.state === 'legal' && document.querySelector('.toast[data-kind=hint]'), null, { timeout: 30000 });
    await page.waitForTimeout(250);
    const f = await page.evaluate(() => {
      const R = (el) => { const r = el?.getBoundingClientRect(); return r && r.width ? { left: r.left, top: r.top, right: r.right, bottom: r.bottom } : null; };
      const ov = (a, b) => (a && b ? Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left)) * Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top)) : 0);
      const ghost = R(document.querySelector('.layer-overlay .ghost'));
      const key = document.getElementById('preview').dataset.key;
      const a = R(document.querySelector(`.layer-board [data-cell="${key}"]`));
      // The tile's other half: its centre mirrors the first half's about the tile's centre.
      const cx = (ghost.left + ghost.right) / 2, cy = (ghost.top + ghost.bottom) / 2;
      const ax = (a.left + a.right) / 2, ay = (a.top + a.bottom) / 2;
      const tap = { x: 2 * cx - ax, y: 2 * cy - ay };
      const at = document.elementFromPoint(tap.x, tap.y);
      const bubble = document.querySelector('.guide-bubble');
      return {
        step: bubble?.dataset.step || null,
        tip: ov(ghost, R(bubble)), banner: ov(ghost, R(document.querySelector('.axio-banner'))),
        note: ov(ghost, R(document.querySelector('.toast[data-kind=hint]'))),
        onBoard: !!at && !!at.closest('.board-svg'), tap, first: { x: ax, y: ay },
        seq: Number(document.querySelector('.game').dataset.seq),
      };
    });
    const axio = !!banner || f.step === 'axio';
    if ((f.step || axio) && shots < 6) await shot(page, `${prefix}-hint${shots++}${axio ? '-axio' : ''}`);
    if (touch) await page.touchscreen.tap(f.tap.x, f.tap.y); else await page.mouse.click(f.first.x, f.first.y);
    const moved = await page.waitForFunction((b) => Number(document.querySelector('.game').dataset.seq) > b, f.seq, { timeout: 4000 }).then(() => true, () => false);
    hints.push({ ...f, axio, placedFirstTap: moved });
    let placed = moved;
    for (let k = 0; !placed && k < 3; k++) {
      // Placed by a click or taps on its first half, so that the game goes on (the failure is said after the game).
      if (touch) await page.touchscreen.tap(f.first.x, f.first.y); else await page.mouse.click(f.first.x, f.first.y);
      placed = await page.waitForFunction((b) => Number(document.querySelector('.game').dataset.seq) > b, f.seq, { timeout: 3000 }).then(() => true, () => false);
    }
    if (!placed) {
      await shot(page, `${prefix}-stuck`);
      assert.fail(`the hinted tile could not be placed at all (what covers it: ${JSON.stringify(f)}; ${JSON.stringify(await coverFindings(page))})`);
    }
    if (axio) axioTurn = true;
    if (answer === 'late') {
      for (let k = 0; k < 5; k++) {
        const ok = page.locator('.guide-bubble:not(.inline):not([data-step=end]) [data-action=guide-ok]');
        if (!(await ok.count())) break;
        await ok.first().click();
        await page.waitForTimeout(100);
      }
    }
    if (stopAfterAxio && axioTurn && !axio) break;
  }
  return { hints, axioTurn };
}

const coverFindings = (page) => page.evaluate(() => window.axioCoverWatch);

test('guide: no tip over the swap dialog or the hinted tile, the end tip in the end card (desktop 1366×800, en)', { timeout: 300000 }, async () => {
  const browser = await launch();
  try {
    const page = await newPage(browser, WIDE);
    const r = await playCovered(page, { lang: 'en', touch: false, answer: 'never', swapTipFirst: true, prefix: 'guide-cover-desktop-en' });
    await page.waitForSelector('.end-dialog');
    await page.waitForSelector('.guide-bubble[data-step=end]');
    await page.waitForTimeout(400);
    await shot(page, 'guide-cover-desktop-en-end');
    const w = await coverFindings(page);
    assert.ok(w.frames > 100, 'the page was watched');
    assert.deepEqual(w.found, [], `what a tip covered: ${JSON.stringify(w.found)}`);
    const covered = r.hints.filter((x) => x.tip || x.note);
    assert.deepEqual(covered, [], 'the hinted tile is never under a tip or the hint\'s note');
    assert.ok(r.hints.every((x) => x.placedFirstTap), 'every hinted tile was placed by the first click');
    // The end tip is in the end card, under the ranking it explains.
    assert.ok(await page.locator('.end-dialog .guide-bubble[data-step=end]').count(), 'the end tip is in the end card');
    assertNoErrors(page);
  } finally {
    await browser.close();
  }
});

test('guide: an unanswered tip goes with the next move, never over a dialog or the end card\'s heading (phone, en)', { timeout: 300000 }, async () => {
  const browser = await launch();
  try {
    const page = await newPage(browser, PHONE, TOUCH);
    const r = await playCovered(page, { lang: 'en', touch: true, answer: 'never', prefix: 'guide-cover-phone-en' });
    await page.waitForSelector('.end-dialog');
    await page.waitForSelector('.guide-bubble[data-step=end]');
    await page.waitForTimeout(400);
    await page.locator('.end-dialog').scrollIntoViewIfNeeded();
    await shot(page, 'guide-cover-phone-en-end');
    const w = await coverFindings(page);
    assert.deepEqual(w.found, [], `what a tip covered: ${JSON.stringify(w.found)}`);
    assert.deepEqual(r.hints.filter((x) => x.tip || x.note || !x.onBoard), [], 'the hinted tile is never under a tip or the hint\'s note');
    assert.ok(r.hints.every((x) => x.placedFirstTap), 'every hinted tile was placed by the first tap');
    assertNoErrors(page);
  } finally {
    await browser.close();
  }
});

test('guide: AXIO!, its tip and the hint leave the hinted tile in sight, the first tap places it (phone, hu)', { timeout: 300000 }, async () => {
  const browser = await launch();
  try {
    const page = await newPage(browser, PHONE, TOUCH);
    const r = await playCovered(page, { lang: 'hu', touch: true, answer: 'never', swapTipFirst: true, prefix: 'guide-cover-phone-hu', stopAfterAxio: true });
    assert.ok(r.axioTurn, 'the guided game reached AXIO! (a banner or its tip at a hint)');
    const at = r.hints.filter((x) => x.axio);
    assert.ok(at.length > 0, 'a hint was shown with AXIO! on the page');
    assert.deepEqual(r.hints.filter((x) => x.tip || x.banner || x.note || !x.onBoard), [], `the hinted tile under the tip, the banner or the note: ${JSON.stringify(r.hints.filter((x) => x.tip || x.banner || x.note || !x.onBoard))}`);
    assert.deepEqual(r.hints.filter((x) => !x.placedFirstTap), [], 'every hinted tile was placed by the first tap on it');
    const w = await coverFindings(page);
    assert.deepEqual(w.found, [], `what a tip covered: ${JSON.stringify(w.found)}`);
    assertNoErrors(page);
  } finally {
    await browser.close();
  }
});

// The last placement of a game can reach AXIO!: the engine's `axio` event grants a bonus
// move (bonus_move: true), then the game ends and no bonus move is played. The page hears
// what the server sends in that case — the events `axio` and `end`, then the state of the
// finished game — from a test standing between it and the server: no "Bonus move!" in the
// banner or the log then. Before that, the same `axio` event followed by a running state
// with the bonus move to play does announce it.
test('guide: "Bonus move!" only while there is one to play, not once the game is over (en)', { timeout: 60000 }, async () => {
  const browser = await launch();
  try {
    const L = MESSAGES.en;
    const page = await newPage(browser, WIDE);
    const proxy = { ws: null, state: null };
    await page.routeWebSocket(/\/ws\//, (ws) => {
      const server = ws.connectToServer();
      proxy.ws = ws;
      server.onMessage((m) => {
        if (JSON.parse(m).type === 'state') proxy.state = JSON.parse(m);
        ws.send(m);
      });
    });
    await page.goto(`${BASE}/?lang=en#/learn/square`);
    await page.waitForSelector('.guide-bubble[data-step=start]');
    await page.click('[data-action=guide-toggle]'); // no tips: only the banner and the log here
    await watchCovers(page);
    const send = (o) => proxy.ws.send(JSON.stringify(o));
    const seq = () => proxy.state.seq + 1;
    // AXIO! with a bonus move to play: announced.
    send({ type: 'event', seq: seq(), event: { ev: 'axio', player: 0, color: 'red', score: 18, bonus_move: true } });
    send({ ...proxy.state, game: { ...proxy.state.game, bonus: true } });
    await page.waitForSelector('.axio-banner');
    await page.waitForTimeout(300);
    assert.equal((await page.textContent('.axio-banner .axio-bonus')).trim(), L['axio.bonus'], 'a bonus move to play is announced');
    await page.waitForFunction(() => !document.querySelector('.axio-banner'));
    // AXIO! on the last placement: the game is over, no bonus move.
    const g = proxy.state.game;
    const scores = g.seats.map((s) => ({ ...(s.score || {}) }));
    scores[0] = Object.fromEntries(g.colors.map((c) => [c, 18]));
    send({ type: 'event', seq: seq(), event: { ev: 'axio', player: 0, color: 'blue', score: 18, bonus_move: true } });
    send({ type: 'event', seq: seq(), event: { ev: 'end', reason: 'all-max' } });
    send({ ...proxy.state, seq: seq(), game: { ...g, status: 'over', bonus: false, seats: g.seats.map((s, i) => ({ ...s, score: scores[i] })), end: { reason: 'all-max', ranking: [[0], [1]], scores } } });
    await page.waitForSelector('.axio-banner');
    await page.waitForSelector('.end-dialog');
    await page.waitForTimeout(300);
    await shot(page, 'guide-bonus-after-end');
    assert.equal(await page.locator('.axio-banner .axio-bonus').count(), 0, 'no "Bonus move!" once the game is over');
    const lastAxio = await page.locator('#log .log-axio').last().textContent();
    assert.ok(!lastAxio.includes(L['log.axio_bonus'].trim().replace(/^— /, '')), `the log promises no bonus move: "${lastAxio}"`);
    const w = await coverFindings(page);
    assert.deepEqual(w.found.filter((f) => f.kind === 'bonus-after-end'), [], 'in no frame was a bonus move announced after the end');
    assertNoErrors(page);
  } finally {
    await browser.close();
  }
});
