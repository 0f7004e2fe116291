// tokens.test.mjs — personal API tokens and making an account a bot, on one's own profile
// (issue 49, item 1; docs/bot-api.md "Bot accounts and tokens"), on a server of the test's own:
// - Tess makes a token (a label, two scopes): its secret is shown once with Copy and works
//   as `Authorization: Bearer`; the list says label, scopes, made, never used; after a use
//   and a reload the secret is nowhere on the page and the list says when it was used.
//   Revoke asks first; Keep keeps it; Revoke revokes it: a request with it then gets 401.
//   An empty label or no scope is said and nothing is made.
// - Making the account a bot: the page says it is for good and only without rated games;
//   it asks to tick the box first; then the profile is marked BOT and says who runs it.
//   An account with a rated game is refused with the server's reason, in words (German).
// - Another player's profile has no tokens and no bot section.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, startServer, shot, assertNoErrors, signUpHere, WIDE_DESKTOP, PHONE, TOUCH } from './lib.mjs';
import { MESSAGES } from '../../web/js/messages.js';

const M = (lang, key, params) => { const v = MESSAGES[lang][key]; return typeof v === 'function' ? v(params) : v; };

async function bearer(base, token, p = '/api/me/challenges') {
  return (await fetch(`${base}${p}`, { headers: { Authorization: `Bearer ${token}` } })).status;
}

test('tokens: made on the profile, the secret shown once, used, revoked (401 after); the account made a bot', { timeout: 180000 }, async () => {
  const srv = await startServer(['--max-games-per-ip', '1000']);
  const browser = await launch();
  try {
    const page = await newPage(browser, WIDE_DESKTOP);
    await signUpHere(page, srv.base, 'Tess', { hash: '#/player/Tess' });
    await page.waitForSelector('#profile-tokens #token-list [data-state=none]');
    assert.equal(await page.locator('#profile-become-bot').count(), 1);
    assert.ok((await page.textContent('#profile-become-bot')).includes(M('en', 'become_bot.rules')), 'for good, only without rated games');

    // Nothing is made without a label or a scope.
    await page.click('[data-action=create-token]');
    assert.equal(await page.textContent('#token-msg'), M('en', 'tokens.label_empty'));
    await page.fill('#token-label', 'my engine');
    await page.uncheck('#token-scope-bot-play');
    await page.click('[data-action=create-token]');
    assert.equal(await page.textContent('#token-msg'), M('en', 'tokens.scopes_empty'));
    assert.equal((await (await fetch(`${srv.base}/api/health`)).status), 200);

    // A token with two scopes: the secret once, with Copy.
    await page.check('#token-scope-bot-play');
    await page.check('#token-scope-game-read');
    await page.click('[data-action=create-token]');
    await page.waitForSelector('#token-secret:not([hidden]) #token-secret-value');
    const secret = await page.inputValue('#token-secret-value');
    assert.match(secret, /^axio_[A-Za-z0-9_-]{32}$/);
    assert.ok((await page.textContent('#token-secret')).includes(M('en', 'tokens.secret_once')));
    assert.ok(await page.locator('#token-secret [data-action=copy-token]').count());
    const row = page.locator('#token-list tr', { hasText: 'my engine' });
    await row.waitFor();
    assert.equal(await row.locator('.token-scopes').textContent(), 'bot:play, game:read');
    assert.equal(await row.locator('.token-used').textContent(), M('en', 'tokens.never'));
    await shot(page, 'tokens-secret-desktop');

    // It works as a bearer token (game:read), and the list then says when it was used.
    assert.equal(await bearer(srv.base, secret), 200);
    await page.reload();
    await page.waitForSelector('#token-list tr[data-token]');
    assert.notEqual(await page.locator('#token-list tr[data-token] .token-used').textContent(), M('en', 'tokens.never'));
    assert.ok(!(await page.evaluate(() => document.documentElement.outerHTML)).includes(secret), 'the secret is shown only once');

    // Revoke asks first; Keep keeps it; then Revoke: a request with it is 401.
    await page.click('#token-list [data-action=revoke]');
    await page.waitForSelector('#token-list [data-action=confirm-revoke]');
    await shot(page, 'tokens-revoke-desktop');
    await page.click('#token-list [data-action=keep]');
    assert.equal(await bearer(srv.base, secret), 200, 'kept');
    await page.click('#token-list [data-action=revoke]');
    await page.click('#token-list [data-action=confirm-revoke]');
    await page.waitForSelector('#token-list [data-state=none]');
    assert.equal(await bearer(srv.base, secret), 401, 'a revoked token is refused');

    // The account becomes a bot: the box first, then BOT and who runs it.
    await page.fill('#bot-about', 'Run by Tess; axio engine --player strong');
    await page.click('[data-action=become-bot]');
    assert.equal(await page.textContent('#bot-msg'), M('en', 'become_bot.not_sure'));
    assert.equal((await (await fetch(`${srv.base}/api/players/Tess`)).json()).bot, false, 'nothing changed');
    await page.check('#bot-sure');
    await page.click('[data-action=become-bot]');
    await page.waitForSelector('.profile-head .profile-name .bot-tag');
    assert.equal(await page.textContent('.profile-head .bot-about'), 'Run by Tess; axio engine --player strong');
    assert.equal(await page.locator('#profile-become-bot').count(), 0, 'a bot is a bot for good');
    assert.equal(await page.locator('#profile-tokens').count(), 1, 'a bot keeps its tokens');
    const p = await (await fetch(`${srv.base}/api/players/Tess`)).json();
    assert.equal(p.bot, true);
    await shot(page, 'tokens-bot-profile-desktop');
    // Its lobby says it plays through the Bot API, not here.
    await page.goto(`${srv.base}/?lang=en#/`);
    await page.waitForSelector('.name-box .bot-account-note');

    // Another profile: no tokens, no bot section.
    await page.goto(`${srv.base}/?lang=en#/player/greedy`);
    await page.waitForSelector('.profile-head');
    assert.equal(await page.locator('#profile-tokens, #profile-become-bot').count(), 0);
    assertNoErrors(page);

    // An account that has played a rated game is refused, in the page's language.
    const bo = await newPage(browser, PHONE, TOUCH);
    await signUpHere(bo, srv.base, 'Bo', { lang: 'de' });
    const made = await bo.evaluate(async () => (await fetch('/api/games', {
      method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ variant: 'hex', players: 2, mode: 'standard', seats: [{ kind: 'human' }, { kind: 'ai', level: 'random' }], rated: true, clock: { kind: 'realtime', base_s: 600, increment_s: 5 } }),
    })).json());
    assert.ok(made.game, JSON.stringify(made));
    // Resigning ends it: a rated game played (its page, the account's seat).
    await bo.goto(`${srv.base}/?lang=de#/game/${made.game}`);
    await bo.waitForSelector('.game:not(.loading) .score-card.you');
    await bo.click('[data-action=resign]');
    await bo.click('[data-action=confirm-resign]');
    await bo.waitForSelector('.game[data-status=over]');
    const played = await (await fetch(`${srv.base}/api/players/Bo`)).json();
    assert.ok(played.games.some((g) => g.rated), 'a rated game on the profile');
    await bo.goto(`${srv.base}/?lang=de#/player/Bo`);
    await bo.waitForSelector('#profile-become-bot');
    await bo.fill('#bot-about', 'x');
    await bo.check('#bot-sure');
    await bo.click('[data-action=become-bot]');
    await bo.waitForFunction((want) => document.getElementById('bot-msg').textContent === want, M('de', 'error.has_rated_games'));
    assert.equal((await (await fetch(`${srv.base}/api/players/Bo`)).json()).bot, false);
    await shot(bo, 'tokens-bot-refused-phone');
    assertNoErrors(bo);
  } finally {
    await browser.close();
    await srv.stop();
  }
});
