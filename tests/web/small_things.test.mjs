// small_things.test.mjs — what a newcomer still tripped on (issue 54, items 5 and 6), on a
// desktop of 1366×800 and a touch phone of 390×844, in English, German and Hungarian:
// - the "connection lost" notice over the board wraps on a phone: its words and "Retry now"
//   are whole, and the page does not scroll sideways.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, startServer, apiCall, shot, PHONE } from './lib.mjs';
import { MESSAGES } from '../../web/js/messages.js';

const WIDE = { width: 1366, height: 800 };
const TOUCH = { isMobile: true, hasTouch: true };
const LANGS = ['en', 'de', 'hu'];

const create = async (base, body) => {
  const r = await apiCall(base, 'POST', '/api/games', body);
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return r.body;
};

// A page holding a seat (its token stored as the client stores it).
async function seated(browser, base, made, { viewport = WIDE, extra = {}, lang = 'en' } = {}) {
  const page = await newPage(browser, viewport, extra);
  await page.goto(`${base}/?lang=${lang}#/`);
  await page.evaluate(([i, s, tk]) => localStorage.setItem(`axio.token.${i}`, JSON.stringify({ seat: s, token: tk, at: Date.now() })), [made.game, made.seat ?? 0, made.token]);
  await page.goto(`${base}/?lang=${lang}#/game/${made.game}`);
  await page.waitForSelector('.game:not(.loading) .board-svg');
  return page;
}


test('small things: the "connection lost" notice wraps on a phone, its words and "Retry now" whole (en/de/hu)', { timeout: 90000 }, async () => {
  const srv = await startServer();
  const browser = await launch();
  let stopped = false;
  try {
    const made = await create(srv.base, { variant: 'square', players: 2, name: 'Ann', seats: [{ kind: 'human' }, { kind: 'ai', level: 'greedy' }] });
    const pages = [];
    for (const lang of LANGS) pages.push([lang, 'phone', await seated(browser, srv.base, made, { viewport: PHONE, extra: TOUCH, lang })]);
    pages.push(['de', 'desktop', await seated(browser, srv.base, made, { lang: 'de' })]);
    await srv.stop();
    stopped = true;
    // Every page looked at first (a screenshot each), then what each shows.
    const seen = [];
    for (const [lang, size, page] of pages) {
      await page.waitForSelector('.conn-notice:not([hidden]) button', { timeout: 30000 });
      await page.waitForTimeout(200);
      await shot(page, `small-conn-lost-${lang}-${size}`);
      seen.push([lang, size, page, await page.evaluate(() => {
        const n = document.querySelector('.conn-notice');
        const r = (el) => { const b = el.getBoundingClientRect(); return { left: b.left, right: b.right, top: b.top, bottom: b.bottom }; };
        const words = n.querySelector('span:not(.spinner)');
        const b = n.querySelector('button').getBoundingClientRect();
        // "Retry now" can be pressed where it is (nothing over it).
        const hit = document.elementFromPoint((b.left + b.right) / 2, (b.top + b.bottom) / 2)?.closest('.conn-notice button') !== null;
        return { notice: r(n), button: r(n.querySelector('button')), words: r(words), cut: words.scrollWidth > words.clientWidth + 1 || n.scrollWidth > n.clientWidth + 1, w: innerWidth, text: n.textContent, hit, sideways: document.documentElement.scrollWidth - innerWidth };
      })]);
    }
    for (const [lang, size, , f] of seen) {
      const what = `${lang} ${size}`;
      assert.ok(f.notice.left >= 0 && f.notice.right <= f.w, `${what}: the notice is inside the screen (${JSON.stringify(f)})`);
      assert.ok(f.button.left >= 0 && f.button.right <= f.w, `${what}: "Retry now" is inside the screen (${JSON.stringify(f)})`);
      assert.ok(!f.cut, `${what}: the words are not cut (${f.text})`);
      assert.ok(f.text.includes(MESSAGES[lang]['conn.retry']), `${what}: "${MESSAGES[lang]['conn.retry']}"`);
      assert.ok(f.sideways <= 0 && (size !== 'phone' || f.w <= PHONE.width), `${what}: the page scrolls sideways (${f.sideways} px, ${f.w} px wide)`);
      assert.ok(f.hit, `${what}: "Retry now" is not covered`);
    }
  } finally {
    await browser.close();
    if (!stopped) await srv.stop();
  }
});
