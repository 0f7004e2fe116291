// lang.test.mjs — the client's languages without a browser: every key of the English
// message table (web/js/messages.js) exists in German and Hungarian with the same
// kind of value and the same parameters, nothing is left over, t() speaks the chosen
// language and falls back to English, and the language is chosen by ?lang=, the
// stored choice and the browser's languages, in that order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MESSAGES, t, joinNames } from '../../web/js/messages.js';
import { chooseLang, setLangForTest } from '../../web/js/lang.js';

const EN = MESSAGES.en;

// {name} placeholders of a string.
const holes = (s) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
// The destructured parameters of a message function: ({ a, b }) => ...
function params(fn) {
  const m = /^\s*\(\s*\{([^}]*)\}\s*\)\s*=>/.exec(String(fn));
  return m ? m[1].split(',').map((x) => x.trim()).filter(Boolean).sort() : [];
}
// Calls a message function with a recognisable value per parameter and returns which
// of those values appear in its text, for several numbers (plurals).
function shown(fn, names) {
  const out = [];
  for (const n of [1, 2, 5, 21]) {
    const args = {};
    for (const k of names) args[k] = k === 'n' || k === 'place' || k === 'of' ? n : `«${k}»`;
    const text = fn(args);
    assert.equal(typeof text, 'string');
    out.push(names.filter((k) => text.includes(typeof args[k] === 'number' ? String(n) : args[k])).join(','));
  }
  return out;
}

for (const code of ['de', 'hu']) {
  test(`messages: ${code} has every English key with the same parameters`, () => {
    const T = MESSAGES[code];
    assert.ok(T, `no ${code} table`);
    const missing = Object.keys(EN).filter((k) => !(k in T));
    assert.deepEqual(missing, [], `${code} lacks keys`);
    // KEY@VARIANT: a game's own word for its pieces (German ROTA: Plättchen) for an English KEY.
    const base = (k) => k.replace(/@(square|rota|hex)$/, '');
    const extra = Object.keys(T).filter((k) => !(k in EN) && !(k !== base(k) && base(k) in EN));
    assert.deepEqual(extra, [], `${code} has keys English does not have`);
    for (const [k, v] of Object.entries(T)) {
      const en = EN[base(k)];
      assert.equal(typeof v, typeof en, `${code} ${k}: a ${typeof en} in English`);
      if (typeof en === 'string') {
        assert.deepEqual(holes(v), holes(en), `${code} ${k}: placeholders`);
        assert.ok(v.trim().length > 0, `${code} ${k} is empty`);
      } else {
        const p = params(en);
        const unknown = params(v).filter((x) => !p.includes(x));
        assert.deepEqual(unknown, [], `${code} ${k}: parameters English does not pass`);
        // What English shows of its parameters, the translation shows too (a count
        // may be left out where the language needs no plural, e.g. "wants").
        const enShown = shown(en, p), vShown = shown(v, p);
        enShown.forEach((s, i) => {
          for (const name of s.split(',').filter(Boolean)) {
            if (name === 'n' && code === 'hu' && !vShown[i].split(',').includes('n')) continue;
            assert.ok(vShown[i].split(',').includes(name), `${code} ${k}: does not show ${name}`);
          }
        });
      }
    }
  });
}

test('messages: t() speaks the chosen language, English for a missing key', () => {
  try {
    setLangForTest('de');
    assert.equal(t('leave.not_connected', { name: 'Bo' }), 'Bo ist nicht verbunden');
    assert.equal(joinNames(['Ann', 'Bo', 'Cy']), 'Ann, Bo und Cy');
    assert.equal(t('rating.ordinal', { n: 2 }), '2.');
    setLangForTest('hu');
    assert.equal(t('chat.send'), 'Küldés');
    assert.equal(joinNames(['Ann', 'Bo']), 'Ann és Bo');
    assert.equal(t('no.such.key'), 'no.such.key');
    // A key only English has (another language not caught up yet) is said in English.
    MESSAGES.en['test.only_en'] = 'only {x}';
    assert.equal(t('test.only_en', { x: 'English' }), 'only English');
    delete MESSAGES.en['test.only_en'];
    setLangForTest('xx');
    assert.equal(t('chat.send'), 'Send');
  } finally {
    setLangForTest('en');
  }
});

test('lang: ?lang= wins, then the stored choice, then the browser, else English', () => {
  assert.equal(chooseLang({ search: '?lang=hu', stored: 'de', browser: ['en-US'] }), 'hu');
  assert.equal(chooseLang({ search: '?x=1&lang=DE', stored: null, browser: [] }), 'de');
  assert.equal(chooseLang({ search: '?lang=fr', stored: 'de', browser: ['hu'] }), 'de', 'an unknown ?lang= is ignored');
  assert.equal(chooseLang({ search: '', stored: 'hu', browser: ['de-AT'] }), 'hu');
  assert.equal(chooseLang({ search: '', stored: 'zz', browser: ['de-AT', 'en'] }), 'de');
  assert.equal(chooseLang({ search: '', stored: null, browser: ['fr-FR', 'hu-HU'] }), 'hu');
  assert.equal(chooseLang({ search: '', stored: null, browser: ['fr-FR', 'es'] }), 'en');
  assert.equal(chooseLang(), 'en');
});
