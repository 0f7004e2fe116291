// lang.js — which language the client speaks (English, German, Hungarian): `?lang=en|de|hu`
// in the page's address (before the hash) wins and is remembered in localStorage
// (`axio.lang`); else the remembered choice; else the first of the browser's languages
// (navigator.languages) that we speak; anything else is English. Sets <html lang> and
// offers the header's switcher (EN · DE · HU; on a phone the current one, opening the
// others), which reloads the page in the new language.
import { h } from './svg.js';

export const LANGS = ['en', 'de', 'hu'];
const KEY = 'axio.lang';
const known = (l) => (LANGS.includes(l) ? l : null);
const primary = (tag) => String(tag || '').toLowerCase().split(/[-_]/)[0];

// The language from the address, the store and the browser, in that order. Pure.
export function chooseLang({ search = '', stored = null, browser = [] } = {}) {
  const asked = known(primary(new URLSearchParams(search).get('lang')));
  if (asked) return asked;
  if (known(stored)) return stored;
  for (const tag of browser) {
    const l = known(primary(tag));
    if (l) return l;
  }
  return 'en';
}

function store() {
  try { return globalThis.localStorage || null; } catch { return null; }
}

function detect() {
  if (typeof document === 'undefined') return 'en'; // node (unit tests): English
  const st = store();
  const search = globalThis.location?.search || '';
  const nav = globalThis.navigator || {};
  const l = chooseLang({
    search, stored: st?.getItem(KEY), browser: nav.languages?.length ? nav.languages : [nav.language],
  });
  if (known(primary(new URLSearchParams(search).get('lang')))) {
    try { st?.setItem(KEY, l); } catch { /* private mode: not remembered */ }
  }
  document.documentElement.lang = l;
  return l;
}

let current = detect();

export const lang = () => current;

// For tests in node: speak another language without a page.
export function setLangForTest(l) { current = known(l) || 'en'; }

// Remembers l and reloads the page in it (a `?lang=` in the address is replaced,
// since it would win over the stored choice).
export function switchLang(l) {
  if (!known(l) || l === current) return;
  try { store()?.setItem(KEY, l); } catch { /* not remembered: the address says it */ }
  const params = new URLSearchParams(location.search);
  if (params.has('lang')) {
    params.set('lang', l);
    location.replace(`${location.pathname}?${params}${location.hash}`);
  } else if (!store()) {
    location.replace(`${location.pathname}?lang=${l}${location.hash}`);
  } else location.reload();
}

// The header's EN · DE · HU; label: the switcher's accessible name.
export function mountLangSwitch(host, label = 'Language') {
  const box = h('span', { class: 'lang-switch', role: 'group', 'aria-label': label });
  LANGS.forEach((l, i) => {
    if (i) box.append(h('span', { class: 'lang-sep', 'aria-hidden': 'true' }, ['·']));
    const cur = l === current;
    box.append(h('a', {
      href: `?lang=${l}${location.hash}`, class: `lang-opt${cur ? ' current' : ''}`, lang: l, hreflang: l,
      'data-lang': l, 'aria-current': cur ? 'true' : null,
      // On a phone only the current language shows: a tap on it opens the others.
      onclick: (e) => { e.preventDefault(); if (l === current) box.classList.toggle('open'); else switchLang(l); },
    }, [l.toUpperCase()]));
  });
  // Keep the plain links right (they carry the page's hash) for opening in a new tab.
  window.addEventListener('hashchange', () => {
    for (const a of box.querySelectorAll('a')) a.setAttribute('href', `?lang=${a.dataset.lang}${location.hash}`);
  });
  host.append(box);
  return box;
}
