// rules.js — the rules pages #/rules/square, #/rules/rota, #/rules/hex (and
// #/rules/VARIANT/SECTION to open at a section): short sections of prose for players in
// the page's language (rules/en.js, rules/de.js, rules/hu.js; a text missing in a
// language is shown in English) with the diagrams of rules_figs.js, drawn by the game's
// own renderers. The precise rules are docs/rules.md; the server applies them.
import { h, clear } from './svg.js';
import { lang } from './lang.js';
import { VARIANTS } from './variants.js';
import { LAYOUT, figure } from './rules_figs.js';
import { shapeIcon } from './colors.js';
import { learnButton } from './guide.js';

export const RULE_VARIANTS = ['square', 'rota', 'hex'];

// "Text with **bold** and [[blue]]" as DOM nodes (our own prose, still no innerHTML).
function inline(text, icon) {
  const out = [];
  for (const part of String(text).split(/(\*\*[^*]+\*\*|\[\[\w+\]\])/)) {
    if (!part) continue;
    if (part.startsWith('**')) out.push(h('strong', {}, [part.slice(2, -2)]));
    else if (part.startsWith('[[')) out.push(icon(part.slice(2, -2)));
    else out.push(part);
  }
  return out;
}

// One item of a section's body: a paragraph, {list: [...]}, {steps: [...]}, {note: '...'}.
function block(item, icon) {
  if (typeof item === 'string') return h('p', {}, inline(item, icon));
  if (item.list) return h('ul', {}, item.list.map((x) => h('li', {}, inline(x, icon))));
  if (item.steps) return h('ol', { class: 'rules-steps' }, item.steps.map((x) => h('li', {}, inline(x, icon))));
  if (item.note) return h('p', { class: 'rules-note' }, inline(item.note, icon));
  return null;
}

export class RulesPage {
  constructor(root, variant, section = null) {
    this.root = root;
    this.variant = RULE_VARIANTS.includes(variant) ? variant : 'square';
    this.section = section;
    this.dead = false;
    clear(root).append(h('div', { class: 'rules loading', 'data-variant': this.variant }));
    this.load();
  }

  destroy() { this.dead = true; }

  async load() {
    const en = (await import('./rules/en.js')).default;
    const mine = lang() === 'en' ? en : (await import(`./rules/${lang()}.js`)).default;
    if (this.dead) return;
    this.render(en, mine);
  }

  render(en, mine) {
    const v = this.variant;
    const pick = (path) => path.reduce((o, k) => o?.[k], mine) ?? path.reduce((o, k) => o?.[k], en);
    const tx = (k) => pick([v, 'ui', k]) ?? pick(['ui', k]) ?? k; // a game may name things its own way
    const icon = (c) => h('span', { class: 'rules-icon', 'data-color': c }, [shapeIcon(c, 15)]);
    document.title = `${tx('rules')} · ${VARIANTS[v].name}`;

    const tabs = h('nav', { class: 'rules-tabs', 'aria-label': tx('games') }, RULE_VARIANTS.map((w) => h('a', {
      href: `#/rules/${w}`, class: `rules-tab${w === v ? ' current' : ''}`, 'data-variant': w, 'aria-current': w === v ? 'page' : null,
    }, [VARIANTS[w].name])));
    const toc = h('ol', { class: 'rules-toc-list' });
    const page = h('article', { class: 'rules', 'data-variant': v, lang: lang() }, [
      h('div', { class: 'rules-head' }, [
        tabs,
        h('h1', {}, [pick([v, 'title'])]),
        h('p', { class: 'rules-lead' }, inline(pick([v, 'lead']), icon)),
        learnButton(v),
        h('nav', { class: 'rules-toc', 'aria-label': tx('contents') }, [h('h2', {}, [tx('contents')]), toc]),
      ]),
    ]);
    for (const [id, figs] of LAYOUT[v]) {
      const title = pick([v, 'sections', id, 'title']);
      const body = pick([v, 'sections', id, 'body']) || [];
      const sec = h('section', { class: 'rules-sec', id: `rules-${id}`, 'data-section': id }, [
        h('h2', {}, [title]),
        ...body.map((b) => block(b, icon)),
      ]);
      if (figs.length) {
        sec.append(h('div', { class: `rules-figs n${figs.length}` }, figs.map((f) => figure(f, pick([v, 'figs', f]) || '', tx))));
      }
      page.append(sec);
      toc.append(h('li', {}, [h('a', {
        href: `#/rules/${v}/${id}`, 'data-section': id,
        onclick: (e) => { e.preventDefault(); this.goTo(id); },
      }, [title])]));
    }
    page.append(h('footer', { class: 'rules-foot' }, [
      h('a', { class: 'btn primary', href: '#/', 'data-action': 'play' }, [tx('play')]),
      h('span', { class: 'muted' }, [tx('source')]),
    ]));
    clear(this.root).append(page);
    if (this.section) this.goTo(this.section, false);
  }

  goTo(id, remember = true) {
    const el = document.getElementById(`rules-${id}`);
    if (!el) return;
    el.scrollIntoView({ block: 'start' });
    if (remember) history.replaceState(null, '', `#/rules/${this.variant}/${id}`);
  }
}
