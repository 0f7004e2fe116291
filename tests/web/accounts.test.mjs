// accounts.test.mjs — accounts and ratings in the browser, against the real server:
// sign up, log out, log in (a wrong password is said so; "next" brings you back),
// a rated game against the computer (random, 10+5) played to the end by clicking,
// each seat's rating change on the end screen, then the profile (the ratings, the
// chart, the game with its change, its replay) and the leaderboard as the server
// has them. Also: a taken name, a name the server refuses (<b>x</b>, shown as
// text), names in other scripts shown literally, changing the password, deleting
// the account, a guest offered to sign up at the end of a game, a guest sent to
// log in before joining a rated game. Screenshots of sign-up, profile and
// leaderboard at desktop and phone size. A server without accounts (GET /api/me is
// "no such endpoint") skips these tests and says so.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, BASE, shotBoth, assertNoErrors, apiGet, createGame, PHONE } from './lib.mjs';
import { playToEnd } from './play.mjs';

const SFX = String(Date.now() % 1000000);
const PW = 'correct horse 7';

// The page's own view of the session (the cookie is HttpOnly: ask the server).
// Who the server says is signed in: a name, or null for a guest (200 either way: no error in the console).
const meName = (page) => page.evaluate(() => fetch('/api/me', { cache: 'no-store' }).then((r) => r.json()).then((b) => b.name));

async function signup(page, name, password = PW) {
  await page.goto(`${BASE}/#/signup`);
  await page.waitForSelector('#auth-name');
  await page.fill('#auth-name', name);
  await page.fill('#auth-password', password);
  await page.click('button[data-action=signup]');
}

async function logout(page) {
  await page.click('#account [data-action=logout]');
  await page.waitForSelector('#account[data-state=guest]');
  assert.equal(await meName(page), null, 'logged out on the server too');
}

// Whether the server under test has accounts at all (a guest gets {name: null} from /api/me).
async function accountsServed(t) {
  const r = await apiGet('/api/me');
  if (r.status === 404 && r.body?.error?.message === 'no such endpoint') {
    t.skip('this axio serve has no accounts yet (GET /api/me: no such endpoint)');
    return false;
  }
  return true;
}

const fieldMsg = (page, id) => page.waitForFunction((i) => document.getElementById(i)?.textContent || null, id, { timeout: 10000 }).then((h) => h.jsonValue());

test('accounts: sign up, log out, log in, a rated game to the end, the profile and the leaderboard', { timeout: 600000 }, async (t) => {
  if (!(await accountsServed(t))) return;
  const NAME = `Tess ${SFX}`;
  const browser = await launch();
  try {
    const page = await newPage(browser);
    await page.goto(`${BASE}/#/`);
    await page.waitForSelector('#account[data-state=guest]');
    assert.equal(await page.locator('#player-name').count(), 1, 'a guest types a name');

    // Sign up from the header; back on the lobby, logged in.
    await page.click('#account [data-action=signup]');
    await page.waitForURL(/#\/signup/);
    await page.waitForSelector('#auth-name');
    await page.mouse.move(5, 5);
    await shotBoth(page, 'accounts-signup');
    await page.fill('#auth-name', NAME);
    await page.fill('#auth-password', PW);
    await page.click('button[data-action=signup]');
    await page.waitForSelector('#account[data-state=account]');
    assert.equal(await page.textContent('#account .account-name'), NAME);
    assert.equal(new URL(page.url()).hash, '#/', 'back where the sign-up started');
    assert.notEqual(await meName(page), null);

    // Log out; a wrong password is said so; the right one returns to "next".
    await logout(page);
    await page.goto(`${BASE}/#/login?next=${encodeURIComponent('#/leaderboard/hex')}`);
    await page.waitForSelector('#auth-name');
    await page.fill('#auth-name', NAME);
    await page.fill('#auth-password', 'not the password');
    await page.click('button[data-action=login]');
    assert.match(await fieldMsg(page, 'auth-password-msg'), /Wrong name or password/);
    assert.match(page.url(), /#\/login/, 'still on the log-in page');
    await page.fill('#auth-password', PW);
    await page.click('button[data-action=login]');
    await page.waitForURL(/#\/leaderboard\/hex$/);
    await page.waitForSelector('#account[data-state=account]');

    // The lobby asks no name; Rated needs a clock and another player.
    await page.goto(`${BASE}/#/`);
    await page.waitForSelector('.name-box[data-state=account]');
    assert.equal(await page.locator('#player-name').count(), 0, 'no name field when logged in');
    assert.match(await page.textContent('.name-box'), new RegExp(`Playing as ${NAME}`));
    assert.ok(await page.isDisabled('input[name=rated][value=rated]'), 'rated needs a clock');
    assert.equal(await page.getAttribute('#rated-note', 'data-why'), 'clock');
    await page.check('input[name=clock][value=rapid]', { force: true });
    await page.check('input[name=players][value="1"]', { force: true });
    assert.ok(await page.isDisabled('input[name=rated][value=rated]'), 'solo is never rated');
    assert.equal(await page.getAttribute('#rated-note', 'data-why'), 'solo');
    await page.check('input[name=players][value="2"]', { force: true });
    assert.ok(!(await page.isDisabled('input[name=rated][value=rated]')), 'logged in, a clock, two players: rated is possible');

    // A rated game against the computer (random), 10+5, played to the end by clicking.
    const facts = await playToEnd(page, { variant: 'square', seats: ['human', 'ai:random'], name: null, clock: 'rapid', rated: true, shotName: 'accounts-rated' });
    const id = facts.id;
    const pub = (await apiGet(`/api/games/${id}`)).body;
    assert.equal(pub.rated, true, 'the server made it rated');
    assert.equal(pub.seats[facts.seat].name, NAME, 'the seat has the account\'s name');
    assert.equal(pub.seats[facts.seat].account, true);
    assert.match(await page.textContent('.game-info'), /rated/);
    // Seat cards: each seat's rating under its name.
    for (let s = 0; s < 2; s++) {
      const r = pub.seats[s].rating;
      assert.ok(typeof r === 'number', `seat ${s} has a rating in a rated game`);
      assert.equal(await page.getAttribute(`.score-card[data-seat="${s}"] .seat-rating`, 'data-rating'), String(Math.round(r)));
      assert.match(await page.textContent(`.score-card[data-seat="${s}"] .seat-rating`), new RegExp(`rating ${Math.round(r)}`));
    }
    // The end screen: each seat's change, as the server has it.
    await page.click('[data-action=results]');
    await page.waitForSelector('.end-dialog span.rating-change');
    const changes = await page.$$eval('.end-dialog span.rating-change', (tds) => tds.map((td) => ({ seat: Number(td.dataset.seat), change: td.dataset.change, text: td.textContent, cls: td.className })));
    assert.equal(changes.length, 2);
    for (const c of changes) {
      const want = pub.seats[c.seat].rating_change;
      assert.ok(Number.isInteger(want), `seat ${c.seat} has a rating change`);
      assert.equal(Number(c.change), want);
      assert.equal(c.text, want > 0 ? `+${want}` : want < 0 ? `\u2212${-want}` : '±0');
      assert.match(c.cls, want > 0 ? /up/ : want < 0 ? /down/ : /same/);
    }
    assert.equal(await page.locator('.end-dialog .end-signup').count(), 0, 'no sign-up offer for an account');
    await shotBoth(page, 'accounts-end');
    const myChange = pub.seats[facts.seat].rating_change;

    // The profile: from the header.
    await page.click('.end-dialog [data-action=close]');
    await page.click('#account .account-name');
    await page.waitForURL(new RegExp(`#/player/${encodeURIComponent(NAME)}$`));
    await page.waitForSelector('.profile-head');
    const prof = (await apiGet(`/api/players/${encodeURIComponent(NAME)}`)).body;
    assert.equal(prof.name, NAME);
    assert.equal(await page.textContent('.profile-head .player-name'), NAME);
    const sq = prof.ratings.square;
    assert.equal(sq.games, 1);
    assert.equal(await page.getAttribute('.rating-card[data-variant=square]', 'data-rating'), String(Math.round(sq.rating)));
    assert.match(await page.textContent('.rating-card[data-variant=square] .rating-big'), new RegExp(`^${Math.round(sq.rating)}\\??$`));
    const g = prof.games.find((x) => x.id === id);
    assert.ok(g, 'the game is in the profile');
    assert.equal(g.rating_change, myChange);
    assert.equal(await page.locator('figure.chart[data-variant=square] svg.rating-chart').count(), 1, 'a chart for the variant played');
    assert.equal(await page.locator('figure.chart[data-variant=square] .chart-dot').count(), 2, 'before and after the game');
    assert.equal(await page.getAttribute('figure.chart[data-variant=square] .chart-dot:last-of-type', 'data-rating'), String(Math.round(g.rating_after)));
    const row = page.locator(`.pgame[data-game="${id}"]`);
    assert.equal(await row.locator('.pgame-change').getAttribute('data-change'), String(myChange));
    assert.match(await row.textContent(), /rated/);
    assert.equal(await row.locator('.pgame-place').getAttribute('data-place'), String(g.place));
    assert.equal(await page.locator('.profile-settings').count(), 1, 'one\'s own profile has the settings');
    await shotBoth(page, 'accounts-profile');
    await row.locator('[data-action=replay]').click();
    await page.waitForURL(new RegExp(`#/game/${id}/replay$`));
    await page.waitForSelector('.replay-bar');

    // The computer's profile (named after its level): a player like any other.
    const opp = pub.seats[1 - facts.seat];
    assert.equal(opp.level, 'random');
    await page.goto(`${BASE}/#/player/${encodeURIComponent(opp.level)}`);
    await page.waitForSelector('.profile-head .computer-tag');
    assert.equal(await page.textContent('.profile-head .player-name'), 'Beginner', 'a level by its name in the language');
    assert.equal(await page.locator(`.pgame[data-game="${id}"]`).count(), 1, 'the game is on the computer\'s profile too');
    assert.equal(await page.locator('.profile-settings').count(), 0);

    // The leaderboard as the server has it: order, computers marked, provisional "?".
    await page.goto(`${BASE}/#/`);
    await page.click('.lobby-links [data-action=leaderboard]');
    await page.waitForURL(/#\/leaderboard\/square$/);
    const board = (await apiGet('/api/leaderboard?variant=square')).body;
    assert.ok(Array.isArray(board));
    if (board.length) await page.waitForSelector('.people-board table.leaderboard');
    else await page.waitForSelector('.people-board p');
    const shown = await page.$$eval('.people-board table.leaderboard tbody tr', (trs) => trs.map((tr) => ({
      name: tr.dataset.name, rating: tr.querySelector('td.rating').textContent, computer: !!tr.querySelector('.computer-tag'),
    })));
    assert.deepEqual(shown, board.map((r) => ({ name: r.name, rating: `${Math.round(r.rating)}${r.provisional ? '?' : ''}`, computer: !!r.computer })));
    assert.ok(await page.locator('.tab.active[data-variant=square]').count());
    await shotBoth(page, 'accounts-leaderboard');
    await page.click('.tab[data-variant=hex]');
    await page.waitForURL(/#\/leaderboard\/hex$/);
    await page.waitForSelector('.leaderboard-page[data-variant=hex] .people-board :is(table, p)');

    await logout(page);
    assertNoErrors(page);
  } finally {
    await browser.close();
  }
});

test('accounts: taken and refused names, names in other scripts, password change, deletion, guests', { timeout: 300000 }, async (t) => {
  if (!(await accountsServed(t))) return;
  const browser = await launch();
  try {
    const page = await newPage(browser, PHONE);

    // A taken name (the first test's, or one made here).
    const taken = `Tom ${SFX}`;
    await signup(page, taken);
    await page.waitForSelector('#account[data-state=account]');
    await logout(page);
    await signup(page, taken.toUpperCase());
    assert.match(await fieldMsg(page, 'auth-name-msg'), /taken/, 'names are unique regardless of case');

    // Markup in a name: refused by the server, and never turned into markup here.
    await page.fill('#auth-name', '<b>x</b>');
    await page.click('button[data-action=signup]');
    await page.waitForFunction(() => !/taken/.test(document.getElementById('auth-name-msg').textContent) && document.getElementById('auth-name-msg').textContent);
    assert.equal(await page.locator('#app b').count(), 0, 'no <b> element anywhere');
    assert.equal(await meName(page), null, 'not signed up');
    assert.equal((await apiGet(`/api/players/${encodeURIComponent('<b>x</b>')}`)).status, 404);

    // Names in other scripts work and are shown as typed.
    for (const name of [`Ádám ${SFX}`, `Ελένη ${SFX}`]) {
      await signup(page, name);
      await page.waitForSelector('#account[data-state=account]');
      assert.equal(await page.textContent('#account .account-name'), name);
      await page.click('#account .account-name');
      await page.waitForSelector('.profile-head');
      assert.equal(await page.textContent('.profile-head .player-name'), name);
      assert.ok(page.url().endsWith(`#/player/${encodeURIComponent(name)}`));
      if (name.startsWith('Á')) await logout(page);
    }

    // Ελένη changes her password (the old one no longer works) ...
    const greek = `Ελένη ${SFX}`;
    await page.fill('#pw-current', 'wrong password');
    await page.fill('#pw-new', 'a new password 9');
    await page.click('[data-action=change-password]');
    assert.match(await fieldMsg(page, 'pw-msg'), /Wrong password/);
    await page.fill('#pw-current', PW);
    await page.click('[data-action=change-password]');
    await page.waitForFunction(() => /changed/.test(document.getElementById('pw-msg').textContent));
    await logout(page);
    await page.goto(`${BASE}/#/login`);
    await page.fill('#auth-name', greek);
    await page.fill('#auth-password', PW);
    await page.click('button[data-action=login]');
    assert.match(await fieldMsg(page, 'auth-password-msg'), /Wrong/);
    await page.fill('#auth-password', 'a new password 9');
    await page.click('button[data-action=login]');
    await page.waitForSelector('#account[data-state=account]');

    // ... and deletes her account: a dialog asks the password.
    await page.click('#account .account-name');
    await page.click('[data-action=delete-account]');
    await page.waitForSelector('.delete-dialog');
    await page.fill('#delete-password', PW);
    await page.click('[data-action=confirm-delete]');
    await page.waitForFunction(() => /Wrong password/.test(document.querySelector('.delete-dialog')?.textContent || ''));
    await page.fill('#delete-password', 'a new password 9');
    await page.click('[data-action=confirm-delete]');
    await page.waitForSelector('[data-state=deleted]');
    await page.waitForSelector('#account[data-state=guest]');
    assert.equal((await apiGet(`/api/players/${encodeURIComponent(greek)}`)).status, 404, 'the account is gone');

    // A guest's game ends: the end screen offers an account, which returns to the game.
    const id = await createGame(page, { variant: 'hex', players: 2, seats: ['human', 'ai:random'], name: 'Guest' });
    await page.click('[data-action=resign]');
    await page.click('.confirm-dialog [data-action=confirm-resign]');
    await page.waitForSelector('.end-dialog .end-signup a');
    await page.click('.end-dialog .end-signup a');
    await page.waitForURL(/#\/signup\?next=/);
    assert.equal(new URL(page.url()).hash, `#/signup?next=${encodeURIComponent(`#/game/${id}`)}`);

    // A rated game with a free seat: a guest is sent to log in first, then joins with one click.
    const ann = await newPage(browser);
    await ann.goto(`${BASE}/#/login`);
    await ann.fill('#auth-name', taken);
    await ann.fill('#auth-password', PW);
    await ann.click('button[data-action=login]');
    await ann.waitForSelector('#account[data-state=account]');
    await ann.goto(`${BASE}/#/`);
    const rated = await createGame(ann, { variant: 'rota', players: 2, seats: ['human', 'human'], name: null, clock: 'blitz', rated: true });
    await page.goto(`${BASE}/#/`);
    const row = page.locator(`#open-games .game-row[data-game="${rated}"]`);
    await row.waitFor({ timeout: 15000 });
    assert.equal(await row.getAttribute('data-rated'), '1');
    assert.match(await row.textContent(), /rated/);
    assert.match(await row.textContent(), new RegExp(`${taken} \\(\\d+\\??\\)`), 'the creator\'s rating beside the name');
    await row.locator('[data-action=login-to-join]').click();
    await page.waitForURL(/#\/login\?next=/);
    await page.fill('#auth-name', `Ádám ${SFX}`);
    await page.fill('#auth-password', PW);
    await page.click('button[data-action=login]');
    await page.waitForURL(new RegExp(`#/(join|game)/${rated}`));
    await page.waitForSelector('.invite-form[data-account="1"] [data-action=join]');
    assert.equal(await page.locator('#invite-name').count(), 0, 'no name asked when logged in');
    await page.click('.invite-form [data-action=join]');
    await page.waitForURL(new RegExp(`#/game/${rated}$`));
    await page.waitForSelector('.game:not(.loading) .score-card.you');
    assert.match(await page.textContent('.score-card.you .seat-name'), new RegExp(`Ádám ${SFX}`));
    // Ádám resigns: the rated game is over, both see their change.
    await page.click('[data-action=resign]');
    await page.click('.confirm-dialog [data-action=confirm-resign]');
    for (const p of [page, ann]) {
      await p.waitForSelector('.end-dialog');
      await p.waitForFunction(() => [...document.querySelectorAll('.end-dialog span.rating-change')].filter((td) => td.dataset.change !== '').length === 2, null, { timeout: 10000 });
    }
    assertNoErrors(page);
    assertNoErrors(ann);
  } finally {
    await browser.close();
  }
});
