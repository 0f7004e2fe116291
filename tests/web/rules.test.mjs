// rules.test.mjs — the rules pages in the browser: #/rules/square|rota|hex in English,
// German and Hungarian render every section with its diagrams (SVG from the game's own
// renderers), <html lang> follows the language, the choice is remembered across
// reloads, ?lang= wins over it, the browser's language is used otherwise, the header's
// switcher changes it; the lobby links to the rules and a game's "?" opens its
// variant's rules. Screenshots of every page and language at desktop and phone size.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { BASE, SHOTS, DESKTOP, PHONE, launch, newPage, createGame } from './lib.mjs';
import { LAYOUT } from '../../web/js/rules_figs.js';
import EN from '../../web/js/rules/en.js';
import DE from '../../web/js/rules/de.js';
import HU from '../../web/js/rules/hu.js';

const TEXTS = { en: EN, de: DE, hu: HU };
const VARIANTS = ['square', 'rota', 'hex'];

const langOf = (page) => page.evaluate(() => document.documentElement.lang);
const waitRules = (page, variant) => page.waitForSelector(`.rules[data-variant=${variant}] .rules-sec:last-of-type .rules-fig svg, .rules[data-variant=${variant}] .rules-foot`);

async function fullShot(page, name) {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

test('rules pages: every variant in every language, with diagrams, at desktop and phone size', { timeout: 240000 }, async () => {
  const browser = await launch();
  try {
    for (const lang of ['en', 'de', 'hu']) {
      const page = await newPage(browser, DESKTOP);
      for (const variant of VARIANTS) {
        await page.setViewportSize(DESKTOP);
        await page.goto(`${BASE}/?lang=${lang}#/rules/${variant}`);
        await waitRules(page, variant);
        assert.equal(await langOf(page), lang, `${lang} ${variant}: <html lang>`);
        const T = TEXTS[lang][variant];
        assert.equal((await page.textContent('.rules h1')).trim(), T.title, `${lang} ${variant}: the title`);
        const got = await page.evaluate(() => [...document.querySelectorAll('.rules-sec')].map((s) => ({
          id: s.dataset.section, title: s.querySelector('h2').textContent,
          figs: s.querySelectorAll('.rules-fig').length, svgs: s.querySelectorAll('.rules-fig svg').length,
          captions: [...s.querySelectorAll('.rules-caption')].map((c) => c.textContent),
        })));
        assert.deepEqual(got.map((s) => s.id), LAYOUT[variant].map(([id]) => id), `${lang} ${variant}: the sections`);
        for (const [id, figs] of LAYOUT[variant]) {
          const s = got.find((x) => x.id === id);
          assert.equal(s.title, T.sections[id].title, `${lang} ${variant} ${id}: heading`);
          assert.equal(s.figs, figs.length, `${lang} ${variant} ${id}: diagrams`);
          if (id !== 'goal') assert.ok(s.svgs >= 1, `${lang} ${variant} ${id}: at least one SVG diagram`);
          assert.deepEqual(s.captions, figs.map((f) => T.figs[f]), `${lang} ${variant} ${id}: captions`);
        }
        // Boards are drawn by the renderers: tiles, symbols, scoring lines, ROTA circles.
        const drawn = await page.evaluate(() => ({
          boards: document.querySelectorAll('.rules-board').length,
          tiles: document.querySelectorAll('.rules-board .tile, .rules-board [data-tile]').length,
          lines: document.querySelectorAll('.rules-line').length,
          circles: document.querySelectorAll('.rules-circle').length,
          chips: document.querySelectorAll('.rules-points .rules-chip').length,
        }));
        assert.ok(drawn.boards >= 4 && drawn.tiles >= 10 && drawn.chips >= 3, `${lang} ${variant}: ${JSON.stringify(drawn)}`);
        assert.ok(variant === 'rota' ? drawn.circles >= 6 : drawn.lines >= 6, `${lang} ${variant}: scoring marks`);
        // The header speaks the language too.
        const nav = await page.textContent('.nav-rules');
        assert.equal(nav, { en: 'Rules', de: 'Regeln', hu: 'Szabályok' }[lang]);
        await fullShot(page, `rules-${variant}-${lang}-desktop`);
        await page.setViewportSize(PHONE);
        await page.waitForTimeout(200);
        const width = await page.evaluate(() => document.documentElement.scrollWidth);
        assert.ok(width <= PHONE.width, `${lang} ${variant}: no sideways scrolling on a phone (${width}px)`);
        await fullShot(page, `rules-${variant}-${lang}-phone`);
      }
      // A section link: #/rules/VARIANT/SECTION opens the page at that section.
      await page.setViewportSize(DESKTOP);
      await page.goto(`${BASE}/?lang=${lang}#/rules/square/pyramids`);
      await waitRules(page, 'square');
      await page.waitForFunction(() => Math.abs(document.getElementById('rules-pyramids').getBoundingClientRect().top) < 120);
      await page.click('.rules-toc a[data-section=end]');
      await page.waitForFunction(() => Math.abs(document.getElementById('rules-end').getBoundingClientRect().top) < 120);
      assert.match(page.url(), /#\/rules\/square\/end$/);
      assert.deepEqual(page.errors, [], `${lang}: no script errors`);
      await page.context().close();
    }
  } finally {
    await browser.close();
  }
});

test('language: remembered across reloads, ?lang= wins, the browser language otherwise, the switcher', { timeout: 60000 }, async () => {
  const browser = await launch();
  try {
    // The browser's language when nothing was chosen: Hungarian; an unknown one: English.
    let page = await newPage(browser, DESKTOP, { locale: 'hu-HU' });
    await page.goto(`${BASE}/#/rules/rota`);
    await waitRules(page, 'rota');
    assert.equal(await langOf(page), 'hu');
    assert.equal((await page.textContent('.rules h1')).trim(), HU.rota.title);
    await page.context().close();
    page = await newPage(browser, DESKTOP, { locale: 'fr-FR' });
    await page.goto(`${BASE}/#/`);
    await page.waitForSelector('#create-game');
    assert.equal(await langOf(page), 'en');
    await page.context().close();

    // ?lang=de is remembered: later pages and reloads without it stay German,
    // even for a Hungarian browser.
    page = await newPage(browser, DESKTOP, { locale: 'hu-HU' });
    await page.goto(`${BASE}/?lang=de#/rules/square`);
    await waitRules(page, 'square');
    assert.equal(await langOf(page), 'de');
    await page.goto(`${BASE}/#/rules/hex`);
    await waitRules(page, 'hex');
    assert.equal(await langOf(page), 'de');
    await page.reload();
    await waitRules(page, 'hex');
    assert.equal(await langOf(page), 'de');
    assert.equal((await page.textContent('.rules h1')).trim(), DE.hex.title);
    assert.equal(await page.textContent('.nav-lobby'), 'Lobby');
    assert.equal(await page.textContent('.nav-leaderboard'), 'Bestenliste');
    // ?lang= wins over the remembered choice (and is remembered in turn).
    await page.goto(`${BASE}/?lang=en#/rules/hex`);
    await waitRules(page, 'hex');
    assert.equal(await langOf(page), 'en');
    await page.goto(`${BASE}/#/rules/hex`);
    await waitRules(page, 'hex');
    assert.equal(await langOf(page), 'en');
    // The header's switcher: HU reloads the page in Hungarian and remembers it.
    assert.equal(await page.getAttribute('.lang-opt.current', 'data-lang'), 'en');
    await Promise.all([page.waitForEvent('load'), page.click('.lang-opt[data-lang=hu]')]);
    await waitRules(page, 'hex');
    assert.equal(await langOf(page), 'hu');
    assert.match(page.url(), /#\/rules\/hex$/, 'the switcher keeps the page');
    await page.goto(`${BASE}/#/`);
    await page.waitForSelector('#create-game');
    assert.equal(await langOf(page), 'hu');
    assert.equal(await page.textContent('.nav-rules'), 'Szabályok');
    // With ?lang= in the address the switcher replaces it (it would win otherwise).
    await page.goto(`${BASE}/?lang=hu#/rules/rota`);
    await waitRules(page, 'rota');
    await Promise.all([page.waitForEvent('load'), page.click('.lang-opt[data-lang=de]')]);
    await waitRules(page, 'rota');
    assert.equal(await langOf(page), 'de');
    assert.match(page.url(), /\?lang=de#\/rules\/rota$/);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  } finally {
    await browser.close();
  }
});

test('rules links: the lobby links each variant\'s rules; a game\'s "?" opens its variant\'s rules', { timeout: 120000 }, async () => {
  const browser = await launch();
  try {
    const page = await newPage(browser, DESKTOP);
    await page.goto(`${BASE}/?lang=de#/`);
    await page.waitForSelector('a[data-action=rules][data-variant=hex]');
    await page.click('a[data-action=rules][data-variant=hex]');
    await waitRules(page, 'hex');
    assert.equal((await page.textContent('.rules h1')).trim(), DE.hex.title);
    await page.click('.nav-rules');
    await waitRules(page, 'square');
    for (const [variant, players] of [['rota', 2], ['hex', 2], ['square', 2]]) {
      await createGame(page, { variant, players, seats: ['human', 'ai:random'], name: 'Regina' });
      const help = page.locator('#rules-help');
      assert.equal(await help.getAttribute('href'), `#/rules/${variant}`);
      assert.equal(await help.getAttribute('target'), '_blank');
      assert.equal(await help.getAttribute('title'), 'Regeln dieses Spiels (neuer Tab)');
      const [tab] = await Promise.all([page.context().waitForEvent('page'), help.click()]);
      await waitRules(tab, variant);
      assert.equal(await langOf(tab), 'de', 'the new tab speaks the same language');
      assert.equal((await tab.textContent('.rules h1')).trim(), DE[variant].title);
      if (variant === 'rota') {
        await page.setViewportSize(PHONE);
        await page.waitForTimeout(300);
        fs.mkdirSync(SHOTS, { recursive: true });
        await page.screenshot({ path: path.join(SHOTS, 'rules-help-game-phone.png') });
        const box = await help.boundingBox();
        assert.ok(box && box.width >= 24 && box.x + box.width <= PHONE.width, 'the "?" is on the phone screen');
        await page.setViewportSize(DESKTOP);
        await page.screenshot({ path: path.join(SHOTS, 'rules-help-game-desktop.png') });
      }
      await tab.close();
    }
    assert.deepEqual(page.errors, []);
  } finally {
    await browser.close();
  }
});
