// online_leave.test.mjs — games that survive people leaving (rules 6): a friend
// closes the tab and the host claims the win (a server of its own with a short
// --absent-s); a 5-second clock runs out; a player resigns a 3-player game and the
// computer plays on for them. Also the tab title while it is one's turn.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  launch, newPage, createGame, joinFromLobby, placeOne, waitTurnOrEnd, startServer, shotBoth, shot,
  assertNoErrors, BASE, apiGet, PHONE,
} from './lib.mjs';

test('leave: the friend closes the tab, the host claims the win', { timeout: 180000 }, async () => {
  const srv = await startServer(['--absent-s', '4']);
  const browser = await launch();
  try {
    const ann = await newPage(browser);
    const id = await createGame(ann, { variant: 'square', players: 2, seats: ['human', 'human'], name: 'Ann' }, srv.base);
    const boCtx = await browser.newContext({ viewport: PHONE });
    const bo = await boCtx.newPage();
    bo.errors = [];
    bo.on('pageerror', (e) => bo.errors.push(e.message));
    await joinFromLobby(bo, id, 'Bo', srv.base);
    await ann.waitForFunction(() => document.querySelector('.game').dataset.status === 'running');

    // Whose turn it is shows in the tab's title and icon.
    await waitTurnOrEnd(ann);
    assert.match(await ann.title(), /^▶ Your turn · AXIO/);
    assert.match(await ann.getAttribute('link[rel~=icon]', 'href'), /^data:image\/svg\+xml/);
    assert.doesNotMatch(await bo.title(), /Your turn/);
    await placeOne(ann, { firstMove: true });
    await bo.waitForFunction(() => document.title.startsWith('▶ Your turn'));
    assert.doesNotMatch(await ann.title(), /Your turn/, 'the title is back once the turn has passed');
    assert.equal(await ann.getAttribute('link[rel~=icon]', 'href'), 'icons/icon.svg', 'the icon is back');

    // Bo closes the tab on his turn.
    await boCtx.close();
    const bar = ann.locator('#absent-bar');
    await bar.waitFor({ state: 'visible', timeout: 15000 });
    assert.match(await bar.textContent(), /Bo is not connected/);
    const btn = bar.locator('[data-action=claim]');
    assert.match(await btn.textContent(), /Claim the win/);
    if ((await bar.getAttribute('data-claimable')) === '0') {
      assert.ok(await btn.isDisabled(), 'no claim before the time is up');
      assert.match(await bar.textContent(), /you can claim in \d+ s/);
      await shotBoth(ann, 'absent-countdown');
      // A claim sent too early is refused (not_absent): the page says so and carries on.
      await ann.evaluate(() => { const b = document.querySelector('#absent-bar [data-action=claim]'); b.disabled = false; b.click(); });
      await ann.waitForSelector('.toast', { timeout: 5000 });
      assert.match(await ann.textContent('.toast-host'), /not absent/);
    }
    await ann.waitForSelector('#absent-bar[data-claimable="1"] [data-action=claim]:not([disabled])', { timeout: 15000 });
    await shotBoth(ann, 'absent-claim');
    await btn.click();

    // The game ends: Ann first, Bo last and marked absent.
    await ann.waitForSelector('.end-dialog');
    const rows = await ann.$$eval('.ranking tr', (trs) => trs.map((t) => ({ seat: t.dataset.seat, left: t.dataset.left, text: t.textContent })));
    assert.deepEqual(rows.map((r) => r.seat), ['0', '1']);
    assert.equal(rows[1].left, 'absent');
    assert.match(rows[1].text, /left: absent/);
    assert.match(await ann.textContent('.end-headline'), /You win/);
    // Who left and how, not "too few players stayed" (issue 54).
    assert.equal(await ann.textContent('.end-reason'), 'Bo was declared absent.');
    assert.match(await ann.textContent('#log'), /Bo was declared absent/);
    assert.equal(await ann.getAttribute('.score-card[data-seat="1"]', 'data-left'), 'absent');
    const pub = (await (await fetch(`${srv.base}/api/games/${id}`)).json());
    assert.deepEqual(pub.end.ranking, [[0], [1]]);
    await shotBoth(ann, 'absent-end');
    assertNoErrors(ann);
  } finally {
    await browser.close();
    await srv.stop();
  }
});

test('leave: a 5-second clock runs out', { timeout: 120000 }, async () => {
  const browser = await launch();
  try {
    const page = await newPage(browser);
    // A custom clock from the lobby form: 0 min 5 s + 0.
    await page.goto(`${BASE}/#/`);
    await page.check('input[name=clock][value=custom]', { force: true });
    await page.fill('#clock-min', '0');
    await page.fill('#clock-sec', '5');
    await page.fill('#clock-inc', '0');
    const id = await createGame(page, { variant: 'hex', players: 2, seats: ['human', 'ai:greedy'], name: 'Tia', keepForm: true });
    const clock = page.locator('.seat-clock[data-seat="0"]');
    await clock.waitFor();
    const t1 = await clock.textContent();
    await page.waitForTimeout(700);
    const t2 = await clock.textContent();
    assert.notEqual(t1, t2, `the clock runs (${t1} → ${t2})`);
    assert.ok(await clock.evaluate((e) => e.classList.contains('running') && e.classList.contains('critical')), 'little time is marked');
    assert.equal(await page.locator('.seat-clock[data-seat="1"]').count(), 0, 'the computer has no clock shown');
    assert.match(await page.textContent('.game-info'), /clock 0:05\+0/);
    await shotBoth(page, 'clock-running');

    // Nothing is played: time runs out, Tia leaves, the computer's side wins.
    await page.waitForSelector('.end-dialog', { timeout: 20000 });
    assert.equal(await page.getAttribute('.ranking tr[data-seat="0"]', 'data-left'), 'timeout');
    assert.equal(await page.getAttribute('.ranking tr[data-seat="0"]', 'data-place'), '2');
    assert.match(await page.textContent('.ranking tr[data-seat="0"]'), /ran out of time/);
    assert.match(await page.textContent('#log'), /Tia ran out of time/);
    assert.equal(await clock.textContent(), '0.0');
    const pub = (await apiGet(`/api/games/${id}`)).body;
    assert.equal(pub.end.reason, 'left');
    await shot(page, 'clock-timeout-desktop');
    assertNoErrors(page);
  } finally {
    await browser.close();
  }
});

test('leave: resign a 3-player game, the computer plays on for the leaver', { timeout: 240000 }, async () => {
  const browser = await launch();
  try {
    const ann = await newPage(browser);
    const id = await createGame(ann, { variant: 'square', players: 3, seats: ['human', 'human', 'ai:greedy'], name: 'Ann' });
    const bo = await newPage(browser);
    await joinFromLobby(bo, id, 'Bo');
    await ann.waitForFunction(() => document.querySelector('.game').dataset.status === 'running');
    await placeOne(ann, { firstMove: true });

    // Bo resigns: a confirmation first; "Keep playing" changes nothing.
    await bo.click('[data-action=resign]');
    await bo.waitForSelector('.confirm-dialog');
    assert.match(await bo.textContent('.confirm-dialog'), /computer plays your seat/);
    await shot(bo, 'resign-confirm-desktop');
    await bo.click('.confirm-dialog [data-action=cancel]');
    await bo.waitForSelector('.confirm-dialog', { state: 'detached' });
    await bo.click('[data-action=resign]');
    await bo.click('.confirm-dialog [data-action=confirm-resign]');

    // Everyone sees that Bo left and that the computer plays his seat; the game goes on.
    await ann.waitForSelector('.score-card[data-seat="1"][data-left="resign"]');
    assert.match(await ann.textContent('.score-card[data-seat="1"]'), /resigned/);
    assert.match(await ann.textContent('.score-card[data-seat="1"] .seat-kind'), /the computer \(casual\) plays for Bo/);
    await ann.waitForFunction(() => /Bo resigned/.test(document.getElementById('log').textContent));
    await bo.waitForSelector('.left-note:not([hidden])');
    assert.equal(await bo.locator('[data-action=resign]').count(), 0, 'no Resign button after leaving');
    assert.ok(await bo.locator('.rack-panel').isHidden(), 'no rack after leaving');
    const before = await ann.locator('#log .log-place[data-player="1"]').count();
    for (let i = 0; i < 2; i++) {
      const st = await waitTurnOrEnd(ann, 60000);
      if (st.status === 'over') break;
      await placeOne(ann);
    }
    await ann.waitForFunction((b) => document.querySelectorAll('#log .log-place[data-player="1"]').length > b, before, { timeout: 60000 });
    assert.equal(await ann.getAttribute('.game', 'data-status'), 'running', 'the game goes on');
    await shotBoth(ann, 'resign-3p');
    await shotBoth(bo, 'resign-3p-leaver');
    assertNoErrors(ann);
    assertNoErrors(bo);
  } finally {
    await browser.close();
  }
});

test('clock: the lobby presets reach the server; a daily clock shows days and hours', { timeout: 120000 }, async () => {
  const browser = await launch();
  try {
    const page = await newPage(browser);
    for (const [preset, want, shown] of [
      ['blitz', { kind: 'realtime', base_s: 180, increment_s: 2 }, /^[23]:\d\d$/],
      ['daily', { kind: 'daily', per_move_s: 86400 }, /^2[34]h \d\dm$|^1d 0h$/],
    ]) {
      await page.goto(`${BASE}/#/`);
      await page.check(`input[name=clock][value=${preset}]`, { force: true });
      const id = await createGame(page, { variant: 'square', players: 2, seats: ['human', 'ai:greedy'], name: 'Pia', keepForm: true });
      const pub = (await apiGet(`/api/games/${id}`)).body;
      assert.deepEqual(pub.clock, want, `the ${preset} clock as sent`);
      const clock = page.locator('.seat-clock[data-seat="0"]');
      await clock.waitFor();
      assert.match(await clock.textContent(), shown);
      assert.ok(await clock.evaluate((e) => e.classList.contains('running') && !e.classList.contains('low')), 'plenty of time is not marked');
      if (preset === 'daily') {
        assert.match(await page.textContent('.game-info'), /1 day per move/);
        await shotBoth(page, 'clock-daily');
      }
      await page.click('[data-action=resign]');
      await page.click('.confirm-dialog [data-action=confirm-resign]');
      await page.waitForSelector('.end-dialog');
    }
    assertNoErrors(page);
  } finally {
    await browser.close();
  }
});
