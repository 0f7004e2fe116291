// lobby_lists.test.mjs — the lobby's lists stay short and alive, on a server of the test's
// own with a short --absent-s (docs/online-play.md "Games nobody finishes",
// docs/protocol.md "The lobby's list"):
// - a guest leaves a game against the computer (closes its page): after the absence limit
//   the game ends (rules 6: the guest left as absent), leaves the running list and shows
//   among the finished games; the guest coming back finds it over. A guided first game,
//   its page open all along, never appears in the lobby's lists.
// - the lists come a page at a time ("Show more") and by variant, in en/de/hu;
// - on a phone, your own games and the New game form come before the public lists;
// - Cancel in My games asks first (as the game page's Cancel does): keeping it changes
//   nothing, confirming cancels.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, startServer, apiCall, shot, assertNoErrors, PHONE, DESKTOP } from './lib.mjs';
import { MESSAGES } from '../../web/js/messages.js';

const ABSENT_S = 3;
const HOUSEKEEPING_S = 5;

const rowIds = (page, list) => page.$$eval(`#${list} .game-row`, (rs) => rs.map((r) => r.dataset.game));

test('lobby: a guest leaves a game against the computer, it ends and leaves the running list; a guided game is never listed',
  { timeout: 120000 }, async () => {
    const srv = await startServer(['--absent-s', String(ABSENT_S)]);
    const browser = await launch();
    try {
      // The guest's game against the computer, from the lobby form.
      const guestCtx = await browser.newContext({ viewport: DESKTOP });
      const guest = await guestCtx.newPage();
      await guest.goto(`${srv.base}/#/`);
      await guest.fill('#player-name', 'Gus');
      await guest.click('#create-game');
      await guest.waitForURL(/#\/game\//);
      await guest.waitForSelector('.game:not(.loading) .board-svg');
      const id = guest.url().split('#/game/')[1];

      // A learner's guided game, its page open the whole time.
      const learner = await newPage(browser);
      await learner.goto(`${srv.base}/#/learn/square`);
      await learner.waitForSelector('.game.guided:not(.loading) .board-svg');
      const guided = learner.url().split('#/game/')[1];

      for (const viewport of [DESKTOP, PHONE]) {
        const lobby = await newPage(browser, viewport, viewport === PHONE ? { isMobile: true, hasTouch: true } : {});
        await lobby.goto(`${srv.base}/#/`);
        await lobby.locator(`#running-games .game-row[data-game="${id}"]`).waitFor({ timeout: 8000 });
        assert.ok(!(await rowIds(lobby, 'running-games')).includes(guided), 'the guided game is not listed');
        assert.ok(!(await rowIds(lobby, 'open-games')).includes(guided));
        await shot(lobby, `lobby-lists-running-${viewport === PHONE ? 'phone' : 'desktop'}`);
        if (viewport === PHONE) {
          // Phones: the form comes before the public lists.
          const y = (sel) => lobby.$eval(sel, (el) => el.getBoundingClientRect().top);
          assert.ok(await y('.create-card') < await y('#open-games'), 'the New game form before the open games');
          assert.ok(await y('.lobby-top') < await y('.create-card'), 'Learn to play and your games first');
        }
        await lobby.close();
      }

      // The guest closes the page; the game is left to the computer.
      await guest.close();
      const lobby = await newPage(browser);
      await lobby.goto(`${srv.base}/#/`);
      await lobby.locator(`#running-games .game-row[data-game="${id}"]`).waitFor({ state: 'detached', timeout: (ABSENT_S + HOUSEKEEPING_S + 8) * 1000 });
      await lobby.locator(`#finished-games .game-row[data-game="${id}"]`).waitFor({ timeout: 20000 });
      const g = (await apiCall(srv.base, 'GET', `/api/games/${id}`)).body;
      assert.equal(g.status, 'over');
      assert.equal(g.end.reason, 'left');
      assert.equal(g.seats[0].left, 'absent', 'the guest left as absent (rules 6)');
      assert.ok(!(await rowIds(lobby, 'finished-games')).includes(guided), 'a guided game is not listed when finished either');
      assert.ok(!(await rowIds(lobby, 'running-games')).includes(guided));
      await shot(lobby, 'lobby-lists-ended-desktop');

      // The guest comes back: the game is over, and says why.
      const back = await guestCtx.newPage();
      back.errors = [];
      back.on('pageerror', (e) => back.errors.push(e.message));
      await back.goto(`${srv.base}/#/game/${id}`);
      await back.waitForSelector('.end-dialog');
      assert.match(await back.textContent('.left-note'), /You left this game \(absent\)/);
      await shot(back, 'lobby-lists-guest-back');

      const listed = (await apiCall(srv.base, 'GET', '/api/games?limit=100')).body.games.map((x) => x.id);
      assert.ok(!listed.includes(guided) && !listed.includes(id));
      for (const p of [learner, lobby, back]) assertNoErrors(p);
    } finally {
      await browser.close();
      await srv.stop();
    }
  });

test('lobby: the lists page and filter by variant; phones show the form before them (en, de, hu)', { timeout: 90000 }, async () => {
  const srv = await startServer();
  const browser = await launch();
  try {
    const made = { square: [], hex: [], rota: [] };
    const variants = ['square', 'hex', 'rota'];
    for (let i = 0; i < 13; i++) {
      const v = variants[i % 3];
      made[v].push((await apiCall(srv.base, 'POST', '/api/games', { variant: v, players: 2, name: `W${i}`, seats: [{ kind: 'human' }, { kind: 'human' }] })).body.game);
    }
    for (const [lang, viewports] of [['en', [DESKTOP]], ['de', [PHONE]], ['hu', [DESKTOP, PHONE]]]) {
      const L = MESSAGES[lang];
      for (const viewport of viewports) {
        const page = await newPage(browser, viewport, viewport === PHONE ? { isMobile: true, hasTouch: true } : {});
        await page.goto(`${srv.base}/?lang=${lang}#/`);
        await page.waitForSelector('#open-games .game-row');
        assert.equal((await rowIds(page, 'open-games')).length, 10, 'a page of 10');
        const more = page.locator('[data-action=more-waiting]');
        assert.equal((await more.textContent()).trim(), L['lobby.more']);
        assert.equal(await page.locator('[data-action=more-running]').isVisible(), false, 'nothing more to run');
        await more.click();
        await page.waitForFunction(() => document.querySelectorAll('#open-games .game-row').length === 13);
        assert.equal(await more.isVisible(), false, 'the last page');
        assert.equal(new Set(await rowIds(page, 'open-games')).size, 13, 'each game once');
        // One variant: its games only; the others' lists say there are none of it.
        assert.equal((await page.textContent('.list-filter-row .field-label')).trim(), L['lobby.filter']);
        await page.click('label[for="list-variant-hex"]');
        await page.waitForFunction((n) => document.querySelectorAll('#open-games .game-row').length === n, made.hex.length);
        assert.deepEqual(new Set(await rowIds(page, 'open-games')), new Set(made.hex));
        assert.equal((await page.textContent('#running-games')).trim(), L['lobby.none_of']({ game: 'AXIO Hex' }));
        if (lang !== 'de') await shot(page, `lobby-lists-filter-${lang}-${viewport === PHONE ? 'phone' : 'desktop'}`);
        await page.click('label[for="list-variant-"]');
        await page.waitForFunction(() => document.querySelectorAll('#open-games .game-row').length === 10);
        if (viewport === PHONE) {
          const y = (sel) => page.$eval(sel, (el) => el.getBoundingClientRect().top);
          assert.ok(await y('.create-card') < await y('.games-card'), 'the form before the lists on a phone');
        }
        assertNoErrors(page);
        await page.context().close();
      }
    }
  } finally {
    await browser.close();
    await srv.stop();
  }
});

test('lobby: Cancel in My games asks first (desktop and phone, en/de/hu)', { timeout: 90000 }, async () => {
  const srv = await startServer();
  const browser = await launch();
  try {
    for (const [lang, viewport] of [['en', DESKTOP], ['de', PHONE], ['hu', DESKTOP]]) {
      const L = MESSAGES[lang];
      const made = (await apiCall(srv.base, 'POST', '/api/games', { variant: 'square', players: 2, name: 'Ann', seats: [{ kind: 'human' }, { kind: 'human' }] })).body;
      const page = await newPage(browser, viewport, viewport === PHONE ? { isMobile: true, hasTouch: true } : {});
      await page.goto(`${srv.base}/?lang=${lang}#/`);
      await page.evaluate(([i, tk]) => {
        localStorage.setItem(`axio.token.${i}`, JSON.stringify({ seat: 0, token: tk, at: Date.now() }));
        localStorage.setItem(`axio.created.${i}`, String(Date.now()));
      }, [made.game, made.token]);
      await page.reload();
      const row = page.locator(`#my-games .game-row[data-game="${made.game}"]`);
      await row.waitFor();
      if (viewport === PHONE) {
        // The page fits the phone (a wider one would be zoomed out): the form, the row, its invite.
        assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= PHONE.width, `${lang}: the lobby is wider than the phone`);
      }
      await row.locator('[data-action=cancel]').click();
      const dialog = page.locator('.confirm-dialog');
      await dialog.waitFor();
      assert.equal((await dialog.locator('h2').textContent()).trim(), L['gone.cancel_game']);
      assert.equal((await dialog.locator('p').textContent()).trim(), L['gone.cancel_confirm']);
      assert.ok(await dialog.isVisible());
      await shot(page, `lobby-cancel-asks-${lang}-${viewport === PHONE ? 'phone' : 'desktop'}`);
      // Keeping it: nothing happens.
      await dialog.locator('[data-action=cancel]').click();
      await dialog.waitFor({ state: 'detached' });
      assert.equal((await apiCall(srv.base, 'GET', `/api/games/${made.game}`)).body.status, 'waiting', 'keeping it changes nothing');
      // Esc keeps it too; then confirming cancels.
      await row.locator('[data-action=cancel]').click();
      await dialog.waitFor();
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      assert.equal((await apiCall(srv.base, 'GET', `/api/games/${made.game}`)).body.status, 'waiting');
      await row.locator('[data-action=cancel]').click();
      await dialog.locator('[data-action=confirm-cancel]').click();
      await row.waitFor({ state: 'detached', timeout: 8000 });
      const after = await apiCall(srv.base, 'GET', `/api/games/${made.game}`);
      assert.equal(after.body.status, 'cancelled', `the game after Cancel: ${after.status} ${JSON.stringify(after.body)}`);
      assertNoErrors(page);
      await page.context().close();
    }
  } finally {
    await browser.close();
    await srv.stop();
  }
});
