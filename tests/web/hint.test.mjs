// hint.test.mjs — the Hint button of a casual game: it asks the server's engine, the
// hinted tile appears on the board turned and placed with its preview (legal), and a
// click on it plays it. Three decisions in a row in AXIO (English), AXIO Hex (German) and
// AXIO ROTA (Hungarian), the button and its message in the page's language; a touch
// phone (its message says tap, not click) and its screenshot of a shown hint. A ROTA hint for a tile with an empty corner names that
// corner's colour: the colour dialog opens with it chosen (checked in every ROTA hint
// that has one, and surely in the guided ROTA game, whose hinted line has one).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, createGame, waitTurnOrEnd, answerSwap, cellPoint, cellInSight, gameState, assertNoErrors, shot, startServer, PHONE, BASE } from './lib.mjs';
import { MESSAGES } from '../../web/js/messages.js';

// The hints the server sends the page and the moves the page sends, as they pass.
function watchSocket(page, name) {
  const seen = { name, hints: [], sent: [] };
  page.on('websocket', (ws) => {
    ws.on('framereceived', ({ payload }) => {
      const m = JSON.parse(payload);
      if (m.type === 'hint') seen.hints.push(m.move);
    });
    ws.on('framesent', ({ payload }) => {
      const m = JSON.parse(payload);
      if (m.type === 'place') seen.sent.push(m);
    });
  });
  return seen;
}

// The colour dialog of a hinted ROTA placement: the hint's colour (or none, when the
// colour scores no more than none) is marked and focused; Enter places the hint as sent.
async function answerHintedWild(page, seen, seq) {
  const hint = seen.hints.at(-1);
  assert.ok(hint && 'wild' in hint, 'a ROTA hint names a colour or none');
  const offered = await page.$$eval('.wild-dialog [data-wild]', (bs) => bs.map((b) => b.dataset.wild));
  const want = hint.wild && offered.includes(hint.wild) ? hint.wild : 'none';
  const marked = await page.$$eval('.wild-dialog [data-hinted]', (bs) => bs.map((b) => b.dataset.wild));
  assert.deepEqual(marked, [want], `the hint's colour ${hint.wild} is the one chosen (offered ${offered})`);
  await page.waitForFunction(() => document.activeElement?.dataset.hinted === 'true');
  if (want !== 'none') {
    assert.equal(await page.getAttribute('#preview', 'data-wild'), want, "the preview counts the hint's colour");
  }
  if (!seen.shot) { seen.shot = true; await shot(page, `hint-wild-dialog-${seen.name}`); }
  const sent = seen.sent.length;
  await page.keyboard.press('Enter');
  await page.waitForFunction((b) => Number(document.querySelector('.game').dataset.seq) > b, seq, { timeout: 30000 });
  const move = seen.sent[sent];
  assert.deepEqual({ ...move, wild: move.wild ?? 'none' }, { ...hint, wild: want }, 'the hinted move is placed as hinted');
  return true;
}

async function playByHints(page, decisions, shotName, lang = 'en', seen = null) {
  const L = MESSAGES[lang];
  // The toast's words: a touch screen taps (no mouse), and a game may name its pieces its own way.
  const touch = await page.evaluate(() => matchMedia('(hover: none)').matches);
  const variant = await page.evaluate(() => document.querySelector('.game').dataset.variant);
  const key = touch ? 'hint.shown_touch' : 'hint.shown';
  const shown = L[`${key}@${variant}`] ?? L[key];
  let wilds = 0;
  for (let i = 0; i < decisions; i++) {
    const st = await waitTurnOrEnd(page, 60000);
    if (st.status === 'over') return wilds;
    if (await answerSwap(page)) continue;
    assert.equal((await page.textContent('[data-action=hint]')).trim(), L['hint.button']);
    await page.click('[data-action=hint]');
    const key = await page.waitForFunction(() => {
      const el = document.getElementById('preview');
      return el && el.dataset.state === 'legal' ? el.dataset.key : null;
    }, null, { timeout: 30000 });
    const cell = await key.jsonValue();
    assert.ok(await page.locator('.rack-tile.selected').count(), 'the hinted tile is picked');
    const toast = await page.waitForSelector(`.toast:has-text("${shown.slice(0, 20)}")`);
    assert.equal((await toast.textContent()).trim(), shown, 'the hint is said in the words of the screen');
    if (touch) assert.doesNotMatch(shown, /click|klick|kattint|mouse|Maus|egér/i, 'a touch screen is not told to click');
    if (i === 0 && shotName) await shot(page, shotName);
    // ROTA: a tile with an empty corner asks for that corner's colour first: the hint's.
    const seq = (await gameState(page)).seq;
    const point = await cellPoint(page, cell);
    await page.mouse.click(point.x, point.y);
    const next = await page.waitForFunction((b) => (document.querySelector('.wild-dialog') ? 'wild'
      : Number(document.querySelector('.game').dataset.seq) > b ? 'moved' : null), seq, { timeout: 30000 });
    if ((await next.jsonValue()) === 'wild') {
      if (seen) wilds += await answerHintedWild(page, seen, seq);
      else {
        await page.click('.wild-dialog [data-wild]');
        await page.waitForFunction((b) => Number(document.querySelector('.game').dataset.seq) > b, seq, { timeout: 30000 });
      }
    }
  }
  return wilds;
}

test("hint: the engine's advice is shown on the board and placed with one click", { timeout: 240000 }, async () => {
  const browser = await launch();
  try {
    for (const [variant, lang] of [['square', 'en'], ['hex', 'de'], ['rota', 'hu']]) {
      const page = await newPage(browser);
      const seen = watchSocket(page, `${variant}-${lang}`);
      await page.goto(`${BASE}/?lang=${lang}#/`);
      await createGame(page, { variant, players: 2, seats: ['human', 'ai:random'], keepForm: true });
      await playByHints(page, 3, `hint-${variant}-${lang}-desktop`, lang, seen);
      assertNoErrors(page);
      await page.close();
    }
    const phone = await newPage(browser, PHONE, { isMobile: true, hasTouch: true });
    await phone.goto(`${BASE}/?lang=hu#/`);
    await createGame(phone, { variant: 'square', players: 2, seats: ['human', 'ai:random'], keepForm: true });
    await playByHints(phone, 1, 'hint-square-hu-phone', 'hu');
    await phone.close();
  } finally {
    await browser.close();
  }
});

// A ROTA hint for a tile with an empty corner, in the guided ROTA game: it is dealt from
// a fixed seed and its computer and its hints are reproducible, so the game played hint by
// hint is the same every time, and its hinted line comes to such a tile (casual games
// against a random computer came to one only sometimes); its colour dialog comes with the
// hint's colour chosen.
test('hint: a ROTA hint with an empty corner comes with its colour chosen', { timeout: 300000 }, async () => {
  const browser = await launch();
  try {
    const page = await newPage(browser);
    const seen = watchSocket(page, 'rota-en');
    await page.goto(`${BASE}/?lang=en#/`);
    await page.click('.lobby-learn a[data-variant=rota]');
    await page.waitForSelector('.game.guided:not(.loading) .board-svg');
    // The tips off: they would sit over the board (tests/web/guide plays with them).
    await page.click('[data-action=guide-toggle]');
    await page.waitForFunction(() => !document.querySelector('.guide-bubble'));
    let wilds = 0, decisions = 0;
    while (!wilds && (await gameState(page)).status !== 'over') {
      wilds += await playByHints(page, 1, null, 'en', seen);
      assert.ok(++decisions <= 40, 'a ROTA game has at most 40 decisions of one player');
    }
    assertNoErrors(page);
    assert.ok(wilds > 0, `a hint with an empty corner was placed through the colour dialog (${decisions} hints)`);
  } finally {
    await browser.close();
  }
});

// The hint's note ("The hint is on the board: click it…") lasts as long as the hint is
// shown: it goes when another tile is picked, when the hint is placed (it is not there
// on the next turn), and when a dialog opens (never over or under one). Desktop and a
// touch phone, in English, German and Hungarian.
test('hint: the note goes with the hint (another pick, the next turn, a dialog)', { timeout: 180000 }, async () => {
  const browser = await launch();
  try {
    for (const [lang, viewport, extra] of [['en', null, {}], ['de', PHONE, { isMobile: true, hasTouch: true }], ['hu', null, {}]]) {
      const L = MESSAGES[lang];
      const page = viewport ? await newPage(browser, viewport, extra) : await newPage(browser);
      await page.goto(`${BASE}/?lang=${lang}#/`);
      await createGame(page, { variant: 'square', players: 2, seats: ['human', 'ai:random'], keepForm: true });
      const touch = await page.evaluate(() => matchMedia('(hover: none)').matches);
      const text = L[touch ? 'hint.shown_touch' : 'hint.shown'];
      const note = page.locator('.toast', { hasText: text.slice(0, 24) });
      const ask = async () => {
        await waitTurnOrEnd(page, 60000);
        await page.click('[data-action=hint]');
        await note.waitFor({ timeout: 30000 });
        assert.equal((await note.textContent()).trim(), text);
        return page.evaluate(() => Number(document.querySelector('.rack-tile.selected').dataset.index));
      };
      // Another pick: the hint is no longer shown, nor its note.
      const hinted = await ask();
      await page.click(`.rack-tile[data-index="${hinted === 0 ? 1 : 0}"]`);
      await page.waitForTimeout(300);
      assert.equal(await note.count(), 0, 'no hint note once another tile is picked');
      // Placed: the next turn comes without it.
      await ask();
      const key = await page.getAttribute('#preview', 'data-key');
      const seq = (await gameState(page)).seq;
      const p = touch ? await cellInSight(page, key) : await cellPoint(page, key);
      if (touch) await page.touchscreen.tap(p.x, p.y); else await page.mouse.click(p.x, p.y);
      await page.waitForFunction((b) => Number(document.querySelector('.game').dataset.seq) > b, seq);
      await waitTurnOrEnd(page, 60000);
      assert.equal(await note.count(), 0, 'no hint note on the next turn');
      // A dialog: the note goes when it opens.
      await ask();
      await page.click('[data-action=resign]');
      await page.waitForSelector('.confirm-dialog');
      assert.equal(await note.count(), 0, 'no hint note with a dialog open');
      if (lang === 'de') await shot(page, 'hint-note-gone-dialog-de-phone');
      await page.click('.confirm-dialog [data-action=cancel]');
      assertNoErrors(page);
      await page.context().close();
    }
  } finally {
    await browser.close();
  }
});

// The page keeps under the server's message allowance (10 a second, 20 at once, by
// default: decisions played by hint in quick succession once outran it). On a server that
// allows less, a placement refused for it ("rate_limited", read by no one) is sent again a
// moment later and goes through, with no error shown. Here the server allows 4 a second,
// and the connection's allowance is spent on pings just before the click.
test('hint: a placement refused for the message rate is sent again and goes through', { timeout: 120000 }, async () => {
  const server = await startServer(['--msg-rate', '4', '--judge-playouts', '300']);
  const browser = await launch();
  try {
    const page = await newPage(browser);
    // The page's game socket, to spend its allowance from the page itself.
    // Also the time of its last message either way, to start from a quiet socket.
    await page.addInitScript(() => {
      const send = WebSocket.prototype.send;
      window.lastTraffic = Date.now();
      WebSocket.prototype.send = function (data) {
        if (window.gameSocket !== this) this.addEventListener('message', () => { window.lastTraffic = Date.now(); });
        window.gameSocket = this;
        window.lastTraffic = Date.now();
        return send.call(this, data);
      };
    });
    const seen = watchSocket(page, 'square-en');
    const answers = [];
    page.on('websocket', (ws) => ws.on('framereceived', ({ payload }) => answers.push(JSON.parse(payload))));
    await page.goto(`${server.base}/?lang=en#/`);
    await createGame(page, { variant: 'square', players: 2, seats: ['human', 'ai:random'], keepForm: true }, server.base);
    await waitTurnOrEnd(page, 60000);
    await page.click('[data-action=hint]');
    const key = await page.waitForFunction(() => {
      const el = document.getElementById('preview');
      return el && el.dataset.state === 'legal' ? el.dataset.key : null;
    }, null, { timeout: 30000 });
    const point = await cellPoint(page, await key.jsonValue());
    await page.mouse.move(point.x, point.y);
    const seq = (await gameState(page)).seq;
    // Once the socket has been quiet for 2.2 s (nothing of the page's own still to be
    // answered, the allowance full again: 8), eight pings spend it and the click follows in
    // the same task of the page, so the placement reaches the server right behind them,
    // before a quarter of a second can refill it, however busy the machine. (More pings
    // than the allowance would be refused too, and the page takes a refusal for its own
    // oldest request.)
    const before = answers.length;
    await page.evaluate(({ x, y }) => new Promise((resolve, reject) => {
      const ws = window.gameSocket;
      const quietSince = Date.now();
      const spend = () => {
        if (Date.now() - window.lastTraffic < 2200) {
          if (Date.now() - quietSince > 20000) reject(new Error('the socket was never quiet'));
          else setTimeout(spend, 50);
          return;
        }
        for (let i = 0; i < 8; i++) ws.send('{"type":"ping"}');
        const svg = document.elementFromPoint(x, y).closest('svg');
        svg.dispatchEvent(new MouseEvent('click', { clientX: x, clientY: y, bubbles: true }));
        resolve();
      };
      spend();
    }), point);
    await page.waitForFunction((b) => Number(document.querySelector('.game').dataset.seq) > b, seq, { timeout: 10000 });
    const after = answers.slice(before);
    assert.equal(after.filter((m) => m.type === 'pong').length, 8, 'the pings were answered (the allowance was full)');
    const refused = after.filter((m) => m.code === 'rate_limited').length;
    assert.ok(refused >= 1, `the placement was refused (${refused} refusals)`);
    const places = seen.sent.filter((m) => m.type === 'place');
    assert.ok(places.length >= 2, `the placement was sent again (${places.length} times)`);
    assert.deepEqual(places.at(-1), places[0], 'the same placement');
    assert.deepEqual({ ...places[0], wild: places[0].wild ?? null }, { ...seen.hints[0], wild: seen.hints[0].wild ?? null }, 'the hinted placement');
    assert.equal(await page.locator('.toast-error').count(), 0, "the placement's refusal is not shown");
    assertNoErrors(page);
  } finally {
    await browser.close();
    await server.stop();
  }
});

// The page's game socket keeps under the server's default allowance however fast it is
// asked to send: 40 messages at once (each answered, here as an unknown type) go out
// paced, and none is refused for the rate.
test('hint: the game socket keeps under the message allowance', { timeout: 60000 }, async () => {
  const browser = await launch();
  try {
    const page = await newPage(browser);
    await page.goto(`${BASE}/?lang=en#/`);
    const id = await createGame(page, { variant: 'square', players: 2, seats: ['human', 'ai:random'], keepForm: true });
    const answers = await page.evaluate(async (gameId) => {
      const { GameSocket } = await import('/js/api.js');
      const got = [];
      return new Promise((resolve, reject) => {
        const sock = new GameSocket(gameId, null, {
          status: (st) => {
            if (st.state !== 'open' || sock.sent) return;
            sock.sent = true;
            for (let i = 0; i < 40; i++) sock.send({ type: 'paced' });
          },
          message: (m) => {
            if (m.type === 'error') got.push(m.code);
            if (got.length === 40) { sock.close(); resolve(got); }
          },
        });
        setTimeout(() => { sock.close(); reject(new Error(`only ${got.length} answers`)); }, 20000);
      });
    }, id);
    assert.deepEqual([...new Set(answers)], ['bad_message'], 'every message read, none refused for the rate');
    assertNoErrors(page);
  } finally {
    await browser.close();
  }
});
