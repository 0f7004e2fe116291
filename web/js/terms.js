// terms.js — the terms of a game asked for by a challenge or a quick game (a seek): the
// variant, a clock preset and rated or casual (docs/accounts.md, "Challenges and quick
// pairing"). Rated needs a clock, as for a game made in the lobby: without one the box
// is off and says why. Also how such terms read in a line ("AXIO Hex · 10+5 · rated").
import { h } from './svg.js';
import { t } from './messages.js';
import { VARIANTS } from './variants.js';
import { CLOCK_PRESETS, clockName } from './clock.js';

const CLOCKS = ['none', 'blitz', 'rapid', 'daily'];

// prefix: the ids' start (two pickers may share a page); value: the terms to start from.
export function termsPicker(prefix, value = {}) {
  const variant = h('select', { id: `${prefix}-variant`, class: 'terms-select' },
    Object.entries(VARIANTS).map(([v, info]) => h('option', { value: v, selected: v === (value.variant || 'square') }, [info.name])));
  const clock = h('select', { id: `${prefix}-clock`, class: 'terms-select' },
    CLOCKS.map((k) => h('option', { value: k, selected: k === (value.clock || 'rapid') }, [t(`clock.${k}`)])));
  const rated = h('input', { id: `${prefix}-rated`, type: 'checkbox', checked: !!value.rated });
  const note = h('span', { class: 'muted terms-note', id: `${prefix}-rated-note` });
  const sync = () => {
    const none = clock.value === 'none';
    if (none) rated.checked = false;
    rated.disabled = none;
    note.textContent = none ? t('terms.needs_clock') : '';
  };
  clock.addEventListener('change', sync);
  sync();
  const el = h('div', { class: 'terms' }, [
    h('label', { class: 'terms-field', for: `${prefix}-variant` }, [h('span', { class: 'field-label' }, [t('lobby.game')]), variant]),
    h('label', { class: 'terms-field', for: `${prefix}-clock` }, [h('span', { class: 'field-label' }, [t('clock.label')]), clock]),
    h('label', { class: 'terms-rated', for: `${prefix}-rated` }, [rated, ` ${t('rated.rated')}`]),
    note,
  ]);
  return {
    el,
    // The body's fields: {variant, clock (omitted without one), rated}.
    value() {
      const out = { variant: variant.value, rated: rated.checked && clock.value !== 'none' };
      const c = CLOCK_PRESETS[clock.value];
      if (c) out.clock = c;
      return out;
    },
    set disabled(on) { for (const x of [variant, clock]) x.disabled = on; rated.disabled = on || clock.value === 'none'; },
  };
}

// "AXIO Hex · 10+5 · rated" for a challenge or a seek as the server gives it.
export function termsText(x) {
  return [VARIANTS[x.variant]?.name || x.variant, x.clock ? clockName(x.clock) : t('clock.none'), x.rated ? t('rating.rated') : t('rating.casual')].join(' · ');
}
