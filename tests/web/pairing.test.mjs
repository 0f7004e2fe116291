// pairing.test.mjs — quick games and challenges (issue 54, item 7; docs/accounts.md
// "Challenges and quick pairing"), two accounts in two browsers on one server of the
// test's own:
// - Quick game: Ann (desktop, English) looks for an AXIO Hex 10+5 rated opponent: the
//   lobby shows the search with its seconds and Cancel; Bo (touch phone, German) looks
//   for the same: both pages open the one game, each in a seat of its own (no token),
//   rated. A search cancelled ends; a lone seeker gets the computer after 15 s. A guest
//   is asked to log in.
// - Challenges: Ann challenges Bo from his profile (variant, clock, rated): Bo's lobby
//   lists it with Accept and Decline; he declines with a reason, which Ann's page says;
//   Ann takes the next one back; the third Bo accepts from the notice on another page
//   (Hungarian): both pages open the game, seated.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, startServer, shot, assertNoErrors, signUpHere, WIDE_DESKTOP, TOUCH, PHONE } from './lib.mjs';
import { MESSAGES } from '../../web/js/messages.js';

const M = (lang, key, params) => { const v = MESSAGES[lang][key]; return typeof v === 'function' ? v(params) : v; };

async function seated(page, id = null) {
  await page.waitForURL(id ? new RegExp(`#/game/${id}`) : /#\/game\//, { timeout: 30000 });
  await page.waitForSelector('.game:not(.loading) .score-card.you', { timeout: 15000 });
  const gid = page.url().split('#/game/')[1].split(/[?/]/)[0];
  const seat = Number(await page.getAttribute('.score-card.you', 'data-seat'));
  assert.equal(await page.evaluate((g) => localStorage.getItem(`axio.token.${g}`), gid), null, 'seated by the session, no token');
  return { id: gid, seat };
}

async function chooseTerms(page, prefix, { variant, clock, rated }) {
  await page.selectOption(`#${prefix}-variant`, variant);
  await page.selectOption(`#${prefix}-clock`, clock);
  if (rated) await page.check(`#${prefix}-rated`); else await page.uncheck(`#${prefix}-rated`);
}

test('quick game: two seekers of one rating get one game; Cancel; a lone seeker plays the computer; guests log in first', { timeout: 300000 }, async () => {
  const srv = await startServer(['--max-games-per-ip', '1000']);
  const browser = await launch();
  try {
    const guest = await newPage(browser, PHONE, TOUCH);
    await guest.goto(`${srv.base}/?lang=hu#/`);
    await guest.waitForSelector('#quick-game[data-state=guest] a[data-action=login]');
    assert.ok((await guest.textContent('#quick-game')).includes(MESSAGES.hu['quick.guest']));

    const ann = await newPage(browser, WIDE_DESKTOP);
    const bo = await newPage(browser, PHONE, TOUCH);
    await signUpHere(ann, srv.base, 'Ann');
    await signUpHere(bo, srv.base, 'Bo', { lang: 'de' });
    await ann.waitForSelector('#quick-game[data-state=form]');
    // Rated needs a clock.
    await ann.selectOption('#quick-clock', 'none');
    assert.ok(await ann.isDisabled('#quick-rated'));
    await chooseTerms(ann, 'quick', { variant: 'hex', clock: 'rapid', rated: true });
    await shot(ann, 'quick-form-desktop');
    await ann.click('#quick-game [data-action=seek]');
    await ann.waitForSelector('#quick-game[data-state=waiting] [data-action=cancel-seek]');
    await ann.waitForFunction(() => /[1-9] s/.test(document.querySelector('.quick-wait-text').textContent));
    await shot(ann, 'quick-waiting-desktop');

    await bo.waitForSelector('#quick-game[data-state=form]');
    await chooseTerms(bo, 'quick', { variant: 'hex', clock: 'rapid', rated: true });
    await bo.locator('#quick-game').scrollIntoViewIfNeeded();
    await shot(bo, 'quick-form-phone');
    await bo.click('#quick-game [data-action=seek]');
    const b = await seated(bo);
    const a = await seated(ann, b.id);
    assert.notEqual(a.seat, b.seat, 'a seat each');
    const g = await (await fetch(`${srv.base}/api/games/${a.id}`)).json();
    assert.equal(g.variant, 'hex');
    assert.equal(g.rated, true);
    assert.deepEqual(g.seats.map((s) => s.name).sort(), ['Ann', 'Bo']);
    await shot(bo, 'quick-matched-phone');

    // A search taken back.
    await ann.goto(`${srv.base}/?lang=en#/`);
    await ann.waitForSelector('#quick-game[data-state=form]');
    await chooseTerms(ann, 'quick', { variant: 'rota', clock: 'none', rated: false });
    await ann.click('#quick-game [data-action=seek]');
    await ann.waitForSelector('#quick-game[data-state=waiting]');
    await ann.click('#quick-game [data-action=cancel-seek]');
    await ann.waitForSelector('#quick-game[data-state=form]');

    // Alone: the computer after 15 s.
    await ann.click('#quick-game [data-action=seek]');
    const c = await seated(ann);
    const cg = await (await fetch(`${srv.base}/api/games/${c.id}`)).json();
    assert.equal(cg.variant, 'rota');
    assert.equal(cg.seats[1 - c.seat].kind, 'ai', 'the computer plays her');
    assertNoErrors(ann);
    assertNoErrors(bo);
    assertNoErrors(guest);
  } finally {
    await browser.close();
    await srv.stop();
  }
});

test('challenges: from a profile; declined with a reason; taken back; accepted from the notice — the game opens for both', { timeout: 300000 }, async () => {
  const srv = await startServer(['--max-games-per-ip', '1000']);
  const browser = await launch();
  try {
    const ann = await newPage(browser, WIDE_DESKTOP);
    const bo = await newPage(browser, PHONE, TOUCH);
    await signUpHere(ann, srv.base, 'Ann');
    await signUpHere(bo, srv.base, 'Bo', { lang: 'de' });

    // Ann challenges Bo from his profile.
    await ann.goto(`${srv.base}/?lang=en#/player/Bo`);
    await ann.waitForSelector('#profile-challenge [data-action=send-challenge]');
    await chooseTerms(ann, 'challenge', { variant: 'rota', clock: 'blitz', rated: true });
    await ann.click('#profile-challenge [data-action=send-challenge]');
    await ann.waitForSelector('#profile-challenge .challenge-line.sent[data-status=open] [data-action=withdraw]');
    await shot(ann, 'challenge-sent-desktop');

    // Bo's lobby lists it; he declines: "later".
    await bo.goto(`${srv.base}/?lang=de#/`);
    const got = bo.locator('#challenges .challenge-line.received[data-status=open]');
    await got.waitFor({ timeout: 15000 });
    const terms = 'AXIO ROTA · 3+2 · gewertet';
    assert.equal(await got.locator('.challenge-text').evaluate((e) => e.firstChild.textContent), M('de', 'challenge.from', { name: 'Ann', terms }));
    await got.scrollIntoViewIfNeeded();
    await shot(bo, 'challenge-received-phone');
    await got.locator('.decline-reason').selectOption('later');
    await got.locator('[data-action=decline]').click();
    // Ann's profile page says so, with the reason in her words.
    await ann.waitForSelector('#profile-challenge .challenge-line.sent[data-status=declined]', { timeout: 15000 });
    assert.equal(await ann.textContent('#profile-challenge .challenge-line .challenge-text'),
      M('en', 'challenge.declined', { name: 'Bo', terms: 'AXIO ROTA · 3+2 · rated', reason: M('en', 'decline.says.later') }));
    await shot(ann, 'challenge-declined-desktop');

    // The next one Ann takes back: Bo's list says so.
    await ann.reload();
    await ann.waitForSelector('#profile-challenge [data-action=send-challenge]');
    await chooseTerms(ann, 'challenge', { variant: 'square', clock: 'none', rated: false });
    await ann.click('#profile-challenge [data-action=send-challenge]');
    await ann.click('#profile-challenge [data-action=withdraw]');
    await ann.waitForSelector('#profile-challenge .challenge-line.sent[data-status=cancelled]');
    await bo.waitForSelector('#challenges .challenge-line.received[data-status=cancelled]', { timeout: 15000 });

    // The third: Bo is on the leaderboard (Hungarian); the notice there accepts it.
    await bo.goto(`${srv.base}/?lang=hu#/leaderboard/hex`);
    await ann.reload();
    await ann.waitForSelector('#profile-challenge [data-action=send-challenge]');
    await chooseTerms(ann, 'challenge', { variant: 'hex', clock: 'rapid', rated: false });
    await ann.click('#profile-challenge [data-action=send-challenge]');
    const note = bo.locator('#challenge-notice .challenge-line.received[data-status=open]');
    await note.waitFor({ timeout: 15000 });
    assert.ok((await note.textContent()).includes(M('hu', 'challenge.from', { name: 'Ann', terms: 'AXIO Hex · 10+5 · barátságos' })));
    await shot(bo, 'challenge-notice-hu-phone');
    await note.locator('[data-action=accept]').click();
    const b = await seated(bo);
    const a = await seated(ann, b.id); // Ann's profile page opens the game by itself
    assert.notEqual(a.seat, b.seat);
    assert.equal(await bo.locator('#challenge-notice:not([hidden])').count(), 0, 'no notice over the game');
    await shot(ann, 'challenge-accepted-desktop');
    assertNoErrors(ann);
    assertNoErrors(bo);
  } finally {
    await browser.close();
    await srv.stop();
  }
});
