// friends.test.mjs — players and friends (issue 54, item 7; docs/accounts.md "Friends,
// search"):
// - the lobby's player search asks GET /api/players?q= as one types (once per pause, not
//   per key), shows the names that begin so (any case), each linking to the profile;
//   Enter opens the first; nothing found is said so; a guest can search too;
// - Ann follows Bo on his profile (Follow → Unfollow); her lobby lists him, online,
//   with a Challenge button whose dialog sends a challenge Bo receives; Unfollow takes
//   him off the list;
// - a guest on a profile is asked to log in to follow or challenge;
// - a challenge accepted before Ann's page ever saw it open still opens its game there.
// Desktop in English, touch phone in Hungarian and German.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, startServer, shot, assertNoErrors, signUpHere, WIDE_DESKTOP, TOUCH, PHONE } from './lib.mjs';
import { MESSAGES } from '../../web/js/messages.js';

const M = (lang, key, params) => { const v = MESSAGES[lang][key]; return typeof v === 'function' ? v(params) : v; };
const found = (page) => page.$$eval('#search-results .player-link', (els) => els.map((e) => e.dataset.player));

test('friends: search as one types, follow and unfollow on a profile, the friends list with who is online and Challenge', { timeout: 300000 }, async () => {
  const srv = await startServer(['--max-games-per-ip', '1000']);
  const browser = await launch();
  try {
    const bo = await newPage(browser, PHONE, TOUCH);
    await signUpHere(bo, srv.base, 'Bo', { lang: 'de' });
    const annika = await newPage(browser, WIDE_DESKTOP);
    await signUpHere(annika, srv.base, 'Annika');
    await annika.context().close();
    const ann = await newPage(browser, WIDE_DESKTOP);
    await signUpHere(ann, srv.base, 'Ann');

    // The search: one request per pause in typing. A busy machine may itself pause between
    // the keys longer than the page waits (250 ms): such a pause may ask once more.
    let asked = 0;
    ann.on('request', (r) => { if (r.url().includes('/api/players?q=')) asked++; });
    await ann.evaluate(() => {
      window.typedAt = [];
      document.getElementById('player-search').addEventListener('input', () => window.typedAt.push(performance.now()));
    });
    await ann.locator('#player-search').pressSequentially('an', { delay: 40 });
    await ann.waitForFunction(() => document.querySelectorAll('#search-results .player-link').length === 2);
    assert.deepEqual(await found(ann), ['Ann', 'Annika']);
    const pauses = await ann.evaluate((ms) => window.typedAt.slice(1).filter((at, i) => at - window.typedAt[i] >= ms).length, 250);
    assert.ok(asked >= 1 && asked <= 1 + pauses, `asked ${asked} times for "an" with ${pauses} pauses: once per pause, not per key`);
    await ann.locator('#player-search').pressSequentially('NI', { delay: 40 });
    await ann.waitForFunction(() => document.getElementById('search-results').dataset.q === 'anNI');
    assert.deepEqual(await found(ann), ['Annika'], 'any case');
    await shot(ann, 'friends-search-desktop');
    await ann.locator('#player-search').press('Enter');
    await ann.waitForURL(/#\/player\/Annika$/);
    await ann.goBack();
    await ann.fill('#player-search', 'zz');
    await ann.waitForFunction((want) => document.getElementById('search-results').textContent === want, M('en', 'people.none_found', { q: 'zz' }));

    // Ann follows Bo on his profile.
    await ann.goto(`${srv.base}/?lang=en#/player/Bo`);
    await ann.waitForSelector('.profile-head [data-action=follow]:not([disabled])');
    assert.equal(await ann.textContent('[data-action=follow]'), M('en', 'people.follow'));
    await ann.waitForSelector('.profile-head .online-tag[data-online="1"]');
    await ann.click('[data-action=follow]');
    await ann.waitForSelector('[data-action=follow][data-following="1"]:not([disabled])');
    assert.equal(await ann.textContent('[data-action=follow]'), M('en', 'people.unfollow'));
    await shot(ann, 'friends-profile-desktop');
    // Her lobby: Bo, online, with Challenge.
    await ann.goto(`${srv.base}/?lang=en#/`);
    const friend = ann.locator('#friends li[data-player="Bo"]');
    await friend.waitFor({ timeout: 15000 });
    assert.equal(await friend.locator('.player-link').getAttribute('data-online'), '1', 'Bo is online');
    assert.equal(await friend.locator('a').getAttribute('href'), '#/player/Bo');
    await ann.locator('.people-card').scrollIntoViewIfNeeded();
    await shot(ann, 'friends-list-desktop');
    await friend.locator('[data-action=challenge]').click();
    await ann.waitForSelector('.challenge-dialog #dlg-challenge-variant');
    await ann.selectOption('#dlg-challenge-variant', 'hex');
    await ann.selectOption('#dlg-challenge-clock', 'none');
    await shot(ann, 'friends-challenge-dialog-desktop');
    await ann.click('.challenge-dialog [data-action=send-challenge]');
    await ann.waitForSelector('.challenge-dialog .challenge-line.sent[data-status=open]');
    await ann.click('.challenge-dialog [data-action=close]');
    await bo.goto(`${srv.base}/?lang=de#/`);
    await bo.waitForSelector('#challenges .challenge-line.received[data-status=open]', { timeout: 15000 });
    assert.ok((await bo.textContent('#challenges')).includes(M('de', 'challenge.from', { name: 'Ann', terms: 'AXIO Hex · Ohne Uhr · ungewertet' })));

    // Unfollow: gone from the list.
    await ann.goto(`${srv.base}/?lang=en#/player/Bo`);
    await ann.waitForSelector('[data-action=follow][data-following="1"]:not([disabled])');
    await ann.click('[data-action=follow]');
    await ann.waitForSelector('[data-action=follow][data-following="0"]:not([disabled])');
    await ann.goto(`${srv.base}/?lang=en#/`);
    await ann.waitForFunction((want) => document.getElementById('friends').textContent === want, M('en', 'people.no_friends'));

    // The phone (Hungarian): the same card, a guest's search, and a profile asking to log in.
    const guest = await newPage(browser, PHONE, TOUCH);
    await guest.goto(`${srv.base}/?lang=hu#/`);
    await guest.locator('#player-search').pressSequentially('b', { delay: 40 });
    await guest.waitForFunction(() => document.querySelectorAll('#search-results .player-link').length === 1);
    assert.deepEqual(await found(guest), ['Bo']);
    assert.ok((await guest.textContent('#friends')).includes(M('hu', 'people.guest')));
    await guest.locator('.people-card').scrollIntoViewIfNeeded();
    await shot(guest, 'friends-search-hu-phone');
    await guest.click('#search-results a');
    await guest.waitForURL(/#\/player\/Bo$/);
    await guest.waitForSelector('.profile-guest a[data-action=login]');
    assert.ok((await guest.textContent('.profile-guest')).includes(M('hu', 'people.guest_challenge', { name: 'Bo' })));
    assert.equal(await guest.locator('[data-action=follow], #profile-challenge').count(), 0);
    assert.ok(!/\bnull\b/.test(await guest.textContent('.profile-page')), 'no stray "null" on the page');
    await shot(guest, 'friends-profile-guest-hu-phone');
    assertNoErrors(ann);
    assertNoErrors(bo);
    assertNoErrors(guest);
  } finally {
    await browser.close();
    await srv.stop();
  }
});

// The page opens an accepted challenge's game when a poll sees it accepted after seeing it
// open. A bot answers within a second: the page may never see it open, and must still open
// the game of a challenge it sent (seen under load: the game never opened).
test('friends: a challenge accepted before the page saw it open still opens its game', { timeout: 120000 }, async () => {
  const srv = await startServer(['--max-games-per-ip', '1000']);
  const browser = await launch();
  try {
    const bo = await newPage(browser, WIDE_DESKTOP);
    await signUpHere(bo, srv.base, 'Bo');
    const ann = await newPage(browser, WIDE_DESKTOP);
    await signUpHere(ann, srv.base, 'Ann', { hash: '#/player/Bo' });
    await ann.waitForSelector('#profile-challenge [data-action=send-challenge]');
    // Until Bo has accepted, Ann's page is answered that she has sent no challenge.
    let hidden = true;
    await ann.route('**/api/me/challenges', (route) => (hidden
      ? route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ received: [], sent: [] }) })
      : route.continue()));
    const sent = ann.waitForResponse((r) => r.url().endsWith('/api/challenges') && r.request().method() === 'POST');
    await ann.click('#profile-challenge [data-action=send-challenge]');
    const { challenge } = await (await sent).json();
    const accepted = await bo.evaluate(async (id) => (await fetch(`/api/challenges/${id}/accept`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}',
    })).status, challenge.id);
    assert.equal(accepted, 200, 'Bo accepted');
    hidden = false;
    await ann.waitForURL(/#\/game\//, { timeout: 15000 });
    await ann.waitForSelector('.game:not(.loading) .score-card.you', { timeout: 30000 });
    assertNoErrors(ann);
    assertNoErrors(bo);
  } finally {
    await browser.close();
    await srv.stop();
  }
});
