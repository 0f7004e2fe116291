// invite.test.mjs — invitations, on a server of the test's own started with
// --public-url http://localhost:PORT: another name for it than the 127.0.0.1 the
// creator's page uses, so a link made from the server's `urls` (GET /api/health)
// differs from one made from the page's own address. The creator sees the link and
// copies it (game page: clipboard; lobby's My games on a phone without a clipboard:
// the text is selected and stays so across refreshes); a friend on a phone opens it,
// is asked the name (a refused name shows the server's reason, by its id), joins, and they play
// a move; a third opens it, reads "This game is full" and watches. Links to a
// finished and to an unknown game say so.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, createGame, startServer, apiCall, placeOne, gameState, shot, shotBoth, assertNoErrors, DESKTOP, PHONE } from './lib.mjs';
import { inviteLink, inviteState } from '../../web/js/invite.js';
import { MESSAGES } from '../../web/js/messages.js';

const TOUCH = { isMobile: true, hasTouch: true };

test('invite: the link comes from the server address; what a link can do', () => {
  const loc = { origin: 'http://127.0.0.1:8080', pathname: '/' };
  assert.equal(inviteLink('Ab_9', ['http://192.168.1.5:8080/', 'http://10.0.0.2:8080/'], loc), 'http://192.168.1.5:8080/#/join/Ab_9');
  assert.equal(inviteLink('Ab_9', ['https://axio.example.org'], loc), 'https://axio.example.org/#/join/Ab_9');
  assert.equal(inviteLink('Ab_9', ['https://example.org/axio/'], loc), 'https://example.org/axio/#/join/Ab_9');
  assert.equal(inviteLink('Ab_9', undefined, loc), 'http://127.0.0.1:8080/#/join/Ab_9', 'no urls: this page');
  assert.equal(inviteLink('Ab_9', [], loc), 'http://127.0.0.1:8080/#/join/Ab_9');
  assert.equal(inviteLink('Ab_9', ['javascript:alert(1)'], loc), 'http://127.0.0.1:8080/#/join/Ab_9', 'only http(s)');
  const seat = (kind, taken) => ({ kind, taken });
  assert.equal(inviteState({ status: 'waiting', seats: [seat('human', true), seat('human', false)] }), 'join');
  assert.equal(inviteState({ status: 'waiting', seats: [seat('human', true), seat('human', false)], rematch_of: 'x' }), 'full');
  assert.equal(inviteState({ status: 'running', seats: [seat('human', true), seat('ai', false)] }), 'full');
  assert.equal(inviteState({ status: 'over', seats: [] }), 'over');
  assert.equal(inviteState({ status: 'expired', seats: [] }), 'expired');
  assert.equal(inviteState({ status: 'cancelled', seats: [] }), 'cancelled');
});

// Nothing on the page is wider than the screen.
async function assertNoSideScroll(page, what) {
  const w = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  assert.ok(w[0] <= w[1], `${what}: the page is ${w[0]} px wide on a ${w[1]} px screen`);
}

test('invite: the link is shown, a friend on a phone joins by name, a third finds the game full', { timeout: 240000 }, async () => {
  const srv = await startServer((port) => ['--public-url', `http://localhost:${port}`]);
  const browser = await launch();
  try {
    const health = (await apiCall(srv.base, 'GET', '/api/health')).body;
    const urls = Array.isArray(health?.urls) ? health.urls : null;
    if (!urls) console.log('# GET /api/health has no "urls": invite links use the page\'s own address');
    const linkOf = (id) => (urls ? `${urls[0].replace(/\/*$/, '/')}#/join/${id}` : `${srv.base}/#/join/${id}`);

    // 1. Ann creates a game for two people: the link is on her page, and Copy copies it.
    const ann = await newPage(browser, DESKTOP, { permissions: ['clipboard-read', 'clipboard-write'] });
    const id = await createGame(ann, { variant: 'square', players: 2, seats: ['human', 'human'], name: 'Ann' }, srv.base);
    const box = ann.locator('.invite-host .invite-box[data-link]');
    await box.waitFor({ timeout: 5000 });
    assert.equal(await box.locator('.invite-hint').textContent(), 'Send this link to a friend');
    const link = await box.locator('.invite-url').inputValue();
    assert.equal(link, linkOf(id));
    if (urls) assert.match(link, /^http:\/\/localhost:\d+\/#\/join\//, 'the --public-url address, not the page\'s');
    assert.equal(await box.locator('.invite-url').getAttribute('readonly'), '', 'read-only text');
    await box.locator('[data-action=copy-invite]').click();
    await ann.waitForSelector('.invite-box[data-copied=copied]');
    assert.equal(await ann.evaluate(() => navigator.clipboard.readText()), link, 'Copy puts the shown link on the clipboard');
    assert.equal(await box.locator('.invite-note').textContent(), 'Copied.');
    await shotBoth(ann, 'invite-waiting');

    // 2. Ann's lobby on a phone without a clipboard: My games shows the same link;
    // Copy selects it, and the selection survives the lobby's refreshes.
    const mineCtx = await browser.newContext({ viewport: PHONE, ...TOUCH });
    await mineCtx.addInitScript(() => {
      Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined });
      Document.prototype.execCommand = () => false;
    });
    const mine = await mineCtx.newPage();
    mine.errors = [];
    mine.on('pageerror', (e) => mine.errors.push(e.message));
    await mine.goto(`${srv.base}/#/`);
    const held = await ann.evaluate((i) => [localStorage.getItem(`axio.token.${i}`), localStorage.getItem(`axio.created.${i}`)], id);
    await mine.evaluate(([i, tk, c]) => { localStorage.setItem(`axio.token.${i}`, tk); localStorage.setItem(`axio.created.${i}`, c); }, [id, ...held]);
    await mine.reload();
    const row = mine.locator(`#my-games .game-row[data-game="${id}"]`);
    const rowBox = row.locator('.invite-box[data-link]');
    await rowBox.waitFor({ timeout: 8000 });
    assert.equal(await rowBox.locator('.invite-url').inputValue(), link);
    assert.equal(await mine.locator(`#open-games .game-row[data-game="${id}"] .invite-box`).count(), 0, 'only in My games');
    await rowBox.locator('[data-action=copy-invite]').tap();
    await mine.waitForSelector('.invite-box[data-copied=selected]');
    assert.match(await rowBox.locator('.invite-note').textContent(), /selected/);
    const selected = () => mine.evaluate(() => {
      const el = document.activeElement;
      return el?.classList.contains('invite-url') ? el.value.slice(el.selectionStart, el.selectionEnd) : null;
    });
    assert.equal(await selected(), link, 'the whole link is selected');
    await assertNoSideScroll(mine, 'lobby');
    await shot(mine, 'invite-lobby-phone');
    await mine.waitForTimeout(4600);   // the lists refresh every 4 s
    assert.equal(await selected(), link, 'still selected after a refresh');
    assertNoErrors(mine);
    await mineCtx.close();

    // 3. Bo opens the link on a phone: first his name (empty the first time).
    const bo = await newPage(browser, PHONE, TOUCH);
    await bo.goto(link);
    await bo.waitForSelector('form.invite-form');
    assert.equal(await bo.inputValue('#invite-name'), '', 'no name remembered yet');
    assert.match(await bo.textContent('.invite-from'), /Ann invites you to play AXIO/);
    await assertNoSideScroll(bo, 'name form');
    await shot(bo, 'invite-name-phone');
    await bo.tap('[data-action=join]');
    assert.equal(await bo.textContent('#invite-name-msg'), 'Please type your name.');
    // A name the server refuses: its reason beside the field, the form and the text stay.
    const bad = 'Ł'.repeat(30);
    const refused = (await apiCall(srv.base, 'POST', `/api/games/${id}/join`, { name: bad })).body?.error;
    assert.equal(refused?.code, 'bad_message');
    await bo.fill('#invite-name', bad);
    await bo.tap('[data-action=join]');
    // ... said by its reason's id in the page's language (here English)
    assert.equal(refused?.reason, 'name_length');
    await bo.waitForFunction((m) => document.getElementById('invite-name-msg')?.textContent === m, MESSAGES.en[`reason.${refused.reason}`], { timeout: 5000 });
    assert.equal(await bo.inputValue('#invite-name'), bad);
    assert.equal(await bo.getAttribute('#invite-name', 'aria-invalid'), 'true');
    await assertNoSideScroll(bo, 'refused name');
    await shot(bo, 'invite-name-refused-phone');
    await bo.fill('#invite-name', 'Łucja');
    await bo.tap('[data-action=join]');
    await bo.waitForURL(new RegExp(`#/game/${id}$`));
    await bo.waitForSelector('.game:not(.loading) .score-card.you[data-seat="1"]');
    assert.equal(await bo.evaluate(() => localStorage.getItem('axio.name')), 'Łucja', 'the name is remembered');

    // Both see each other's names; the link is gone once the game runs; one move.
    await ann.waitForFunction(() => document.querySelector('.game')?.dataset.status === 'running');
    assert.match(await ann.textContent('.score-card[data-seat="1"] .seat-name'), /Łucja/);
    assert.match(await bo.textContent('.score-card[data-seat="0"] .seat-name'), /Ann/);
    assert.ok(await ann.locator('.invite-host').isHidden(), 'no invite link in a running game');
    const first = (await gameState(ann)).toMove === 0 ? ann : bo;
    const cell = await placeOne(first, { firstMove: true });
    for (const p of [ann, bo]) await p.waitForSelector(`.layer-tiles [data-half="${cell}"]`);
    await assertNoSideScroll(bo, 'game');
    await shot(bo, 'invite-joined-phone');

    // Opening the link again goes straight back to the seat.
    await bo.goto(link);
    await bo.waitForURL(new RegExp(`#/game/${id}$`));
    await bo.waitForSelector('.game:not(.loading) .score-card.you[data-seat="1"]');

    // 4. Cy opens the same link: the game is full; no silent spectating.
    const cy = await newPage(browser, PHONE, TOUCH);
    await cy.goto(link);
    const full = cy.locator('.invite-card[data-state=full]');
    await full.waitFor({ timeout: 5000 });
    assert.equal(await full.locator('h2').textContent(), 'This game is full');
    assert.ok(cy.url().includes(`#/join/${id}`), 'still on the invite page');
    assert.ok(await full.locator('[data-action=lobby]').isVisible());
    await assertNoSideScroll(cy, 'full');
    await shot(cy, 'invite-full-phone');
    await full.locator('[data-action=watch]').tap();
    await cy.waitForURL(new RegExp(`#/watch/${id}$`));
    await cy.waitForSelector(`.game:not(.loading) .layer-tiles [data-half="${cell}"]`);
    assert.equal(await cy.locator('.rack-tile').count(), 0, 'a spectator has no rack');
    assert.ok(await cy.locator('.watch-note').isVisible());
    await shot(cy, 'invite-watch-phone');

    // 5. A second game's link on Bo's phone: the name is filled in from last time.
    const g2 = (await apiCall(srv.base, 'POST', '/api/games', { variant: 'hex', players: 2, name: 'Ann', seats: [{ kind: 'human' }, { kind: 'human' }] })).body;
    await bo.goto(linkOf(g2.game));
    await bo.waitForSelector('form.invite-form');
    assert.equal(await bo.inputValue('#invite-name'), 'Łucja');

    // 6. Ann resigns: the link now says the game is over and offers the replay.
    await ann.click('[data-action=resign]');
    await ann.click('.confirm-dialog [data-action=confirm-resign]');
    await ann.waitForFunction(() => document.querySelector('.game')?.dataset.status === 'over');
    await cy.goto(link);
    const over = cy.locator('.invite-card[data-state=over]');
    await over.waitFor({ timeout: 5000 });
    assert.equal(await over.locator('h2').textContent(), 'This game is over');
    await over.locator('[data-action=replay]').tap();
    await cy.waitForSelector('.replay-bar');

    // 7. A link to a game this server does not have.
    await cy.goto(`${srv.base}/#/join/NoSuchGame42`);
    const unknown = cy.locator('.invite-card[data-state=unknown]');
    await unknown.waitFor({ timeout: 5000 });
    assert.equal(await unknown.locator('h2').textContent(), 'No such game');
    for (const p of [ann, bo, cy]) assertNoErrors(p);
  } finally {
    await browser.close();
    await srv.stop();
  }
});
