// login_lock.test.mjs — too many failed logins: the log-in page says what is locked and
// until when, as the server has it (docs/accounts.md "Login throttling": 5 failures in 15
// minutes lock the address for every name, and the name from everywhere; the right
// password too). A server of the test's own that believes X-Forwarded-For from
// 127.0.0.1, so that each browser context is its own address:
// - en, desktop, 10.0.0.1: five wrong passwords for Newbie, then the right one: "no name
//   can log in from here until HH:MM (in 15 min)"; another name from here: the same;
// - de, phone, 10.0.0.2: Newbie with the right password: the name is locked "from
//   anywhere"; another account from this address logs in;
// - hu, desktop, 10.0.0.3: the same lock of an address in Hungarian.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, startServer, apiCall, shot, assertNoErrors, PHONE, DESKTOP } from './lib.mjs';
import { MESSAGES } from '../../web/js/messages.js';

const PW = 'correct horse 7';

async function pageAt(browser, ip, viewport, extra = {}) {
  const context = await browser.newContext({ viewport, extraHTTPHeaders: { 'X-Forwarded-For': ip }, ...extra });
  const page = await context.newPage();
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(e.message));
  return page;
}

async function tryLogin(page, base, lang, name, password) {
  await page.goto(`${base}/?lang=${lang}#/login`);
  await page.waitForSelector('#auth-name');
  await page.fill('#auth-name', name);
  await page.fill('#auth-password', password);
  const answer = page.waitForResponse((r) => r.url().endsWith('/api/login'));
  await page.click('button[data-action=login]');
  return (await answer).status();
}

// The message the page shows once it has read the answer (the answer can reach the test
// before the page has written it).
async function shownMessage(page) {
  await page.waitForFunction(() => document.getElementById('auth-msg')?.textContent.trim() !== '', null, { timeout: 10000 });
  return (await page.textContent('#auth-msg')).trim();
}

// The lock's text with the time it shows (HH:MM in the language's way).
function expected(L, key, text) {
  const time = /(\d{1,2}[:.]\d{2}(?:\s?[AP]M)?)/.exec(text)?.[1];
  assert.ok(time, `a time in "${text}"`);
  return L[key]({ time, min: 15 });
}

test('login lock: the page says what is locked and until when (en, de phone, hu)', { timeout: 120000 }, async () => {
  const srv = await startServer(['--trusted-proxy', '127.0.0.1']);
  const browser = await launch();
  try {
    for (const name of ['Newbie', 'Other']) {
      assert.equal((await apiCall(srv.base, 'POST', '/api/accounts', { name, password: PW })).status, 201);
    }
    // en: the address is locked for every name, the right password too.
    let L = MESSAGES.en;
    const en = await pageAt(browser, '10.0.0.1', DESKTOP);
    for (let i = 0; i < 5; i++) assert.equal(await tryLogin(en, srv.base, 'en', 'Newbie', `wrong ${i}`), 401);
    assert.equal(await tryLogin(en, srv.base, 'en', 'Newbie', PW), 429);
    let text = await shownMessage(en);
    assert.equal(text, expected(L, 'auth.locked_address', text));
    assert.doesNotMatch(text, /a minute/, 'not "wait a minute": the lock lasts 15');
    await shot(en, 'login-locked-address-en-desktop');
    assert.equal(await tryLogin(en, srv.base, 'en', 'Other', PW), 429);
    text = await shownMessage(en);
    assert.equal(text, expected(L, 'auth.locked_address', text), 'every name from this address');

    // de, phone, another address: Newbie itself is locked from everywhere; Other logs in.
    L = MESSAGES.de;
    const de = await pageAt(browser, '10.0.0.2', PHONE, { isMobile: true, hasTouch: true });
    assert.equal(await tryLogin(de, srv.base, 'de', 'Newbie', PW), 429);
    text = await shownMessage(de);
    assert.equal(text, expected(L, 'auth.locked_name', text));
    await shot(de, 'login-locked-name-de-phone');
    assert.equal(await tryLogin(de, srv.base, 'de', 'Other', PW), 200, 'another name from another address');

    // hu: an address locked by guesses at a name that does not exist.
    L = MESSAGES.hu;
    const hu = await pageAt(browser, '10.0.0.3', DESKTOP);
    for (let i = 0; i < 5; i++) assert.equal(await tryLogin(hu, srv.base, 'hu', 'Senki', `rossz ${i}`), 401);
    assert.equal(await tryLogin(hu, srv.base, 'hu', 'Other', PW), 429);
    text = await shownMessage(hu);
    assert.equal(text, expected(L, 'auth.locked_address', text));
    await shot(hu, 'login-locked-address-hu-desktop');
    for (const p of [en, de, hu]) assertNoErrors(p);
  } finally {
    await browser.close();
    await srv.stop();
  }
});
