// events.js — arenas and Swiss tournaments on the site (docs/tournaments.md, "Events on
// the site (API)"): the events page (#/events: the form that creates one — name, format,
// variant, mode, seats a table, clock, rated, start, duration or rounds, entry conditions —
// and the upcoming, running and finished events), the lobby's Events card (the upcoming and
// running ones, a link to the page), how an event's settings read in a line, the server's
// refusals said in the reader's language (a bad setting at its field), and the watcher
// that opens a player's next event game by itself: the event page asks GET
// /api/events/{id} every 3 s, every other page GET /api/me/events every 10 s (the
// contract's cadence; the site has no push channel outside a game), and when `you.game`
// changes the game opens with the sound and title of a turn alert (attention.js). On a
// game's page it opens only over the previous game of that event (the one just ended), never
// over another game being played: a notice at the page's foot offers it there.
import { h, clear } from './svg.js';
import { api } from './api.js';
import { session, authHash } from './account.js';
import { t, errorText } from './messages.js';
import { lang } from './lang.js';
import { VARIANTS, modeName } from './variants.js';
import { CLOCK_PRESETS, clockName } from './clock.js';
import { announce } from './attention.js';

export const eventHash = (id) => `#/event/${encodeURIComponent(id)}`;
export const seatHash = (game, seat) => `#/game/${encodeURIComponent(game)}${Number.isInteger(seat) ? `?seat=${seat}` : ''}`;

// ---- how an event reads ---------------------------------------------------------
// "12 Dec, 18:00" in the reader's language and time zone.
export function timeText(ms) {
  if (!ms) return '';
  try {
    return new Intl.DateTimeFormat(lang(), { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(ms));
  } catch {
    return new Date(ms).toLocaleString();
  }
}

// "1 h 30 min", "3 days"
export function durationText(s) {
  if (!Number.isFinite(s) || s <= 0) return '';
  if (s % 86400 === 0) return t('clock.days', { n: s / 86400 });
  const hh = Math.floor(s / 3600), mm = Math.round((s % 3600) / 60);
  return [hh ? t('clock.hours', { n: hh }) : null, mm ? t('clock.minutes', { n: mm }) : null].filter(Boolean).join(' ');
}

// "Swiss · AXIO Hex · 3 a table · 3+2 · rated · 5 rounds"
export function settingsText(e) {
  const parts = [
    t(`event.format.${e.format === 'arena' ? 'arena' : 'swiss'}`),
    VARIANTS[e.variant]?.name || e.variant,
    e.mode === 'team' ? modeName('team') : null,
    t('event.seats_n', { n: e.seats }),
    e.clock ? clockName(e.clock) : null,
    e.rated ? t('rating.rated') : t('rating.casual'),
    e.format === 'arena' ? durationText(e.duration_s) : t('event.rounds_n', { n: e.rounds }),
  ];
  return parts.filter(Boolean).join(' · ');
}

// What an event is doing: "starts 12 Dec, 18:00", "round 2 of 5", "ends 18:30", "finished".
export function statusText(e) {
  if (e.status === 'upcoming') return t('event.starts_at', { time: timeText(e.starts) });
  if (e.status === 'running') {
    if (e.format === 'arena') return e.ends ? t('event.ends_at', { time: timeText(e.ends) }) : t('event.status.running');
    return e.round ? t('event.round_of', { n: e.round, m: e.rounds }) : t('event.status.running');
  }
  if (e.status === 'cancelled') return e.cancel_reason === 'too_few_players' ? t('event.cancelled_few') : t('event.status.cancelled');
  return t('event.status.finished');
}

// Entry conditions as a line ('' when anyone may join).
export function entryText(e) {
  const parts = [];
  if (e.min_rated_games > 0) parts.push(t('event.entry_min_games', { n: e.min_rated_games, game: VARIANTS[e.variant]?.name || e.variant }));
  parts.push(e.bots ? t('event.entry_bots') : t('event.entry_no_bots'));
  return parts.join(' · ');
}

// A server refusal in the reader's language. A bad setting (400 bad_message, whose
// English message names the key) says which field; field(key) gets that key.
const FIELD_KEYS = ['name', 'format', 'variant', 'mode', 'seats', 'clock', 'rated', 'starts', 'duration_s', 'rounds', 'days_per_round', 'min_rated_games', 'bots'];
export function badField(e) {
  if (e?.code !== 'bad_message') return null;
  const m = String(e.message || '');
  // The key named first ("format: duration_s is an arena's" is about the format).
  let best = null, at = Infinity;
  for (const k of FIELD_KEYS) {
    const i = m.search(new RegExp(`\\b${k}\\b`));
    if (i >= 0 && i < at) { best = k; at = i; }
  }
  return best;
}

export function eventError(e) {
  const key = badField(e);
  if (key) return t(`event.bad.${key}`);
  if (e?.code === 'not_open') return t('event.error.not_open');
  if (e?.status === 401) return t('event.error.login');
  return errorText(e);
}

// One event as a row of a list: its name (to its page), settings, what it is doing, players.
export function eventRow(e, { you = null } = {}) {
  return h('a', { class: `event-row ${e.status}`, href: eventHash(e.id), 'data-event': e.id, 'data-status': e.status }, [
    h('span', { class: 'event-row-head' }, [
      h('b', { class: 'event-name' }, [e.name]),
      you?.joined && !you.withdrawn ? h('span', { class: 'event-joined-tag' }, [t('event.joined_tag')]) : null,
      h('span', { class: `event-status ${e.status}` }, [statusText(e)]),
    ]),
    h('span', { class: 'event-row-sub muted' }, [settingsText(e), ' · ', t('event.players_n', { n: e.players ?? 0 })]),
  ]);
}

// ---- the next game opens by itself ------------------------------------------------
// Per event: the game the player sat at when last asked (null between games), and the
// last one they had, so that a page showing that game is the one the next replaces.
const seen = new Map(); // event id -> {game, last}

const route = () => location.hash.replace(/^#\/?/, '').split('?')[0].split('/');

// Called with each answer about an event the player may be in; opens the new game when
// `you.game` changed since the previous answer (not on the first: a page loaded in the
// middle of a game does not jump). Returns true when it opened one.
export function sawYou(event, you) {
  const id = event.id;
  const game = you?.joined && you.game ? you.game : null;
  const before = seen.get(id);
  seen.set(id, { game, last: game || before?.last || null });
  if (!before || !game || before.game === game) return false;
  const [page, arg] = route();
  const inGame = ['game', 'watch', 'learn'].includes(page);
  announce(t('event.next_title', { name: event.name }), t('event.next_body', { name: event.name }));
  // In a game: only over this event's previous game (just ended), never over another: there
  // a notice offers it.
  if (inGame && !(page === 'game' && before.last && arg === before.last)) {
    notice.item = { name: event.name, game, seat: you.seat };
    renderNotice();
    return false;
  }
  location.hash = seatHash(game, you.seat);
  return true;
}

// The notice of a next game that did not open by itself, at the foot of the page until it
// is opened or closed.
const notice = { el: null, item: null };
function renderNotice() {
  const el = notice.el;
  if (!el) return;
  const it = notice.item;
  // Only over a game: elsewhere the lobby's My games and the event's page offer it.
  if (it && (location.hash.includes(it.game) || !['game', 'watch', 'learn'].includes(route()[0]))) notice.item = null;
  if (!notice.item) { el.hidden = true; clear(el); return; }
  clear(el).append(h('div', { class: 'challenge-line', 'data-game': it.game }, [
    h('span', { class: 'challenge-text' }, [t('event.next_notice', { name: it.name })]),
    h('a', { class: 'btn small primary', href: seatHash(it.game, it.seat), 'data-action': 'open-event-game' }, [t('event.open_game')]),
    h('button', { class: 'btn small subtle', type: 'button', 'data-action': 'close', 'aria-label': t('challenge.close'), onclick: () => { notice.item = null; renderNotice(); } }, ['×']),
  ]));
  el.hidden = false;
}

export function mountEventNotice(host) {
  notice.el = h('div', { class: 'challenge-notice event-notice', id: 'event-notice', role: 'status', 'aria-live': 'polite', hidden: true });
  host.append(notice.el);
  window.addEventListener('hashchange', renderNotice);
}

// The watcher for the pages other than an event's: GET /api/me/events every 10 s while
// someone is logged in.
const WATCH_MS = 10000;
let watchTimer = null;
let watchBusy = false;
async function watchPoll() {
  clearTimeout(watchTimer);
  watchTimer = null;
  if (!session.me) { seen.clear(); return; }
  if (!watchBusy && route()[0] !== 'event') {
    watchBusy = true;
    try {
      const res = await api.myEvents();
      for (const e of res?.events || []) if (sawYou(e, e.you)) break;
    } catch { /* a server without events, or offline: asked again later */ }
    watchBusy = false;
  }
  if (session.me) watchTimer = setTimeout(watchPoll, WATCH_MS);
}

export const eventWatch = {
  start() {
    session.onChange(() => watchPoll());
    session.ready().then(() => watchPoll());
  },
};

// ---- the lobby's card ----------------------------------------------------------------
// The upcoming and running events (a few), and the link to the events page.
const CARD_ROWS = 5;
export class EventsCard {
  constructor() {
    this.list = h('div', { class: 'event-list', id: 'lobby-events' });
    this.el = h('section', { class: 'events-box' }, [
      h('h2', {}, [t('event.lobby_title')]),
      this.list,
      h('p', { class: 'events-links' }, [
        h('a', { href: '#/events', 'data-action': 'events' }, [t('event.all')]),
        ' · ',
        h('a', { href: '#/events?new=1', 'data-action': 'new-event' }, [t('event.create_link')]),
      ]),
    ]);
    this.ticks = 0;
    this.refresh(true);
  }

  destroy() { this.dead = true; }

  // Asked at once and every third refresh of the lobby.
  async refresh(now = false) {
    if (!now && this.ticks++ % 3) return;
    let res;
    try { res = await api.events(); } catch { return; } // the lobby says when the server is unreachable
    if (this.dead) return;
    const live = (res?.events || []).filter((e) => e.status === 'upcoming' || e.status === 'running');
    const sig = JSON.stringify(live.map((e) => [e.id, e.status, e.players, e.round, lang()]));
    if (sig === this.sig) return;
    this.sig = sig;
    clear(this.list);
    if (!live.length) { this.list.append(h('p', { class: 'muted' }, [t('event.none_live')])); return; }
    // Running first, then the soonest to start.
    live.sort((a, b) => (a.status === b.status ? a.starts - b.starts : a.status === 'running' ? -1 : 1));
    this.list.append(...live.slice(0, CARD_ROWS).map((e) => eventRow(e)));
    if (live.length > CARD_ROWS) this.list.append(h('p', { class: 'muted' }, [t('event.more_n', { n: live.length - CARD_ROWS })]));
  }
}

// ---- the events page ------------------------------------------------------------------
const CLOCKS = ['blitz', 'rapid', 'daily', 'custom'];
const pad = (n) => String(n).padStart(2, '0');
// A datetime-local value (the reader's time) for a moment.
const localValue = (ms) => {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
};

export class EventsPage {
  constructor(root, query = new URLSearchParams()) {
    this.root = root;
    this.cfg = { format: 'swiss', variant: 'square', mode: 'standard', seats: 2, clock: 'rapid', rated: false, bots: false };
    this.build(query.get('new') === '1');
    this.refresh();
    this.timer = setInterval(() => this.refresh(), 10000);
    document.title = `axio · ${t('event.page_title')}`;
  }

  destroy() { this.dead = true; clearInterval(this.timer); }

  onSession() { this.renderForm(); this.refresh(); }

  build(focusForm) {
    const num = (id, min, max, value) => h('input', { id, type: 'number', min, max, step: 1, value, inputmode: 'numeric', class: 'num' });
    this.nameInput = h('input', { id: 'event-name', type: 'text', maxlength: 60, class: 'text-input', placeholder: t('event.name_placeholder'), autocomplete: 'off' });
    this.formatBox = h('div', { class: 'seg', role: 'radiogroup', 'aria-label': t('event.format') });
    this.variantBox = h('div', { class: 'seg', role: 'radiogroup', 'aria-label': t('lobby.game') });
    this.seatsBox = h('div', { class: 'seg', role: 'radiogroup', 'aria-label': t('event.seats') });
    this.modeBox = h('div', { class: 'seg', role: 'radiogroup', 'aria-label': t('lobby.mode') });
    this.clockBox = h('div', { class: 'seg clock-seg', role: 'radiogroup', 'aria-label': t('clock.label') });
    this.clockMin = num('event-clock-min', 0, 180, 5);
    this.clockInc = num('event-clock-inc', 0, 600, 3);
    this.customBox = h('div', { class: 'clock-custom', hidden: true }, [
      h('label', { for: 'event-clock-min' }, [this.clockMin, ` ${t('clock.base_min')}`]),
      h('label', { for: 'event-clock-inc' }, ['+ ', this.clockInc, ` ${t('clock.increment')}`]),
    ]);
    this.rated = h('input', { id: 'event-rated', type: 'checkbox' });
    this.rated.addEventListener('change', () => { this.cfg.rated = this.rated.checked; });
    this.starts = h('input', { id: 'event-starts', type: 'datetime-local', class: 'text-input', value: localValue(Math.ceil((Date.now() + 15 * 60000) / 300000) * 300000) });
    this.duration = num('event-duration', 1, 129600, 60);
    this.rounds = num('event-rounds', 1, 20, 3);
    this.daysPerRound = num('event-days', 1, 14, 2);
    this.minGames = num('event-min-games', 0, 1000, 0);
    this.bots = h('input', { id: 'event-bots', type: 'checkbox' });
    this.durationRow = h('label', { class: 'event-field', for: 'event-duration', 'data-field': 'duration_s' }, [h('span', { class: 'field-label' }, [t('event.duration')]), h('span', {}, [this.duration, ` ${t('clock.base_min')}`])]);
    this.roundsRow = h('label', { class: 'event-field', for: 'event-rounds', 'data-field': 'rounds' }, [h('span', { class: 'field-label' }, [t('event.rounds')]), this.rounds]);
    this.daysRow = h('label', { class: 'event-field', for: 'event-days', 'data-field': 'days_per_round' }, [h('span', { class: 'field-label' }, [t('event.days_per_round')]), this.daysPerRound]);
    this.msg = h('p', { class: 'form-msg', role: 'alert', id: 'event-form-msg' });
    this.createBtn = h('button', { class: 'btn primary big', type: 'submit', id: 'create-event' }, [t('event.create')]);
    this.guestNote = h('p', { class: 'muted small-note event-guest-note' });
    this.form = h('form', { class: 'card event-form', id: 'event-form', novalidate: true, onsubmit: (e) => { e.preventDefault(); this.create(); } }, [
      h('h2', {}, [t('event.new_title')]),
      this.guestNote,
      h('label', { class: 'event-field', for: 'event-name', 'data-field': 'name' }, [h('span', { class: 'field-label' }, [t('event.name')]), this.nameInput]),
      h('div', { class: 'event-field', 'data-field': 'format' }, [h('span', { class: 'field-label' }, [t('event.format')]), this.formatBox]),
      h('p', { class: 'muted small-note event-format-help' }),
      h('div', { class: 'event-field', 'data-field': 'variant' }, [h('span', { class: 'field-label' }, [t('lobby.game')]), this.variantBox]),
      h('div', { class: 'row2' }, [
        h('div', { class: 'event-field', 'data-field': 'seats' }, [h('span', { class: 'field-label' }, [t('event.seats')]), this.seatsBox]),
        h('div', { class: 'event-field', 'data-field': 'mode' }, [h('span', { class: 'field-label' }, [t('lobby.mode')]), this.modeBox]),
      ]),
      h('div', { class: 'event-field', 'data-field': 'clock' }, [h('span', { class: 'field-label' }, [t('clock.label')]), this.clockBox, this.customBox]),
      h('label', { class: 'event-check', for: 'event-rated', 'data-field': 'rated' }, [this.rated, ` ${t('event.rated')}`]),
      h('label', { class: 'event-field', for: 'event-starts', 'data-field': 'starts' }, [h('span', { class: 'field-label' }, [t('event.starts')]), this.starts]),
      this.durationRow, this.roundsRow, this.daysRow,
      h('fieldset', { class: 'event-entry' }, [
        h('legend', { class: 'field-label' }, [t('event.entry')]),
        h('label', { class: 'event-field', for: 'event-min-games', 'data-field': 'min_rated_games' }, [h('span', {}, [t('event.min_games')]), this.minGames]),
        h('label', { class: 'event-check', for: 'event-bots', 'data-field': 'bots' }, [this.bots, ` ${t('event.bots')}`]),
      ]),
      h('div', { class: 'create-foot' }, [this.msg, this.createBtn]),
    ]);
    this.formatHelp = this.form.querySelector('.event-format-help');
    this.lists = {};
    for (const status of ['upcoming', 'running', 'finished']) this.lists[status] = h('div', { class: 'event-list', id: `events-${status}` });
    this.listMsg = h('p', { class: 'form-msg', role: 'status' });
    this.mine = h('div', { class: 'event-list', id: 'events-mine' });
    this.mineBox = h('div', { hidden: true }, [h('h2', {}, [t('event.mine')]), this.mine]);
    const lists = h('section', { class: 'card events-lists' }, [
      h('h1', { class: 'events-title' }, [t('event.page_title')]),
      h('p', { class: 'muted small-note' }, [t('event.page_help')]),
      this.listMsg,
      this.mineBox,
      h('h2', {}, [t('event.upcoming')]), this.lists.upcoming,
      h('h2', {}, [t('event.running')]), this.lists.running,
      h('h2', {}, [t('event.finished')]), this.lists.finished,
    ]);
    clear(this.root).append(h('div', { class: 'events-page' }, [lists, this.form]));
    this.renderForm();
    session.ready().then(() => { this.renderForm(); if (focusForm && !this.dead) this.form.scrollIntoView({ block: 'start' }); });
  }

  radio(box, name, options, value, onPick) {
    clear(box);
    for (const o of options) {
      const id = `${name}-${o.value}`;
      const input = h('input', { type: 'radio', name, id, value: o.value, checked: String(o.value) === String(value), disabled: o.disabled });
      input.addEventListener('change', () => onPick(o.value));
      box.append(h('label', { class: `opt${o.disabled ? ' disabled' : ''}`, for: id }, [input, h('span', {}, [o.label])]));
    }
  }

  renderForm() {
    const c = this.cfg;
    const me = session.me;
    this.guestNote.hidden = !!me;
    clear(this.guestNote);
    if (!me) this.guestNote.append(t('event.login_to_create'), ' ', h('a', { href: authHash('login', '#/events') }, [t('account.login')]), ' · ', h('a', { href: authHash('signup', '#/events') }, [t('account.signup')]));
    this.createBtn.disabled = !me;
    if (!(c.variant === 'hex' && c.seats === 4)) c.mode = 'standard';
    this.radio(this.formatBox, 'event-format', ['swiss', 'arena'].map((f) => ({ value: f, label: t(`event.format.${f}`) })), c.format, (f) => { c.format = f; this.renderForm(); });
    this.formatHelp.textContent = t(`event.format_help.${c.format}`);
    this.radio(this.variantBox, 'event-variant', Object.entries(VARIANTS).map(([v, info]) => ({ value: v, label: info.name })), c.variant, (v) => { c.variant = v; this.renderForm(); });
    this.radio(this.seatsBox, 'event-seats', [2, 3, 4].map((n) => ({ value: n, label: String(n) })), c.seats, (n) => { c.seats = Number(n); this.renderForm(); });
    this.radio(this.modeBox, 'event-mode', [
      { value: 'standard', label: modeName('standard') },
      { value: 'team', label: modeName('team'), disabled: !(c.variant === 'hex' && c.seats === 4) },
    ], c.mode, (m) => { c.mode = m; this.renderForm(); });
    this.radio(this.clockBox, 'event-clock', CLOCKS.map((k) => ({ value: k, label: t(`clock.${k}`) })), c.clock, (k) => { c.clock = k; this.renderForm(); });
    this.customBox.hidden = c.clock !== 'custom';
    this.durationRow.hidden = c.format !== 'arena';
    this.roundsRow.hidden = c.format !== 'swiss';
    this.daysRow.hidden = !(c.format === 'swiss' && c.clock === 'daily');
  }

  // The settings as the server takes them; a field the reader left empty or not a whole
  // number is sent as it is (the server names what is wrong).
  settings() {
    const c = this.cfg;
    const int = (el) => (el.value.trim() === '' ? null : Number(el.value));
    let clock = CLOCK_PRESETS[c.clock] || null;
    if (c.clock === 'custom') clock = { kind: 'realtime', base_s: (int(this.clockMin) ?? 0) * 60, increment_s: int(this.clockInc) ?? 0 };
    const starts = this.starts.value ? new Date(this.starts.value).getTime() : null;
    const body = {
      name: this.nameInput.value.trim(), format: c.format, variant: c.variant, mode: c.mode, seats: c.seats, clock,
      rated: this.rated.checked, starts: Number.isFinite(starts) ? starts : null,
      min_rated_games: int(this.minGames) ?? 0, bots: this.bots.checked,
    };
    if (c.format === 'arena') { const m = int(this.duration); body.duration_s = m === null ? null : m * 60; } else body.rounds = int(this.rounds);
    if (c.format === 'swiss' && c.clock === 'daily') body.days_per_round = int(this.daysPerRound);
    return body;
  }

  markField(key) {
    for (const el of this.form.querySelectorAll('[data-field].bad')) el.classList.remove('bad');
    for (const el of this.form.querySelectorAll('[aria-invalid]')) el.removeAttribute('aria-invalid');
    if (!key) return;
    const box = this.form.querySelector(`[data-field="${key}"]`);
    if (!box) return;
    box.classList.add('bad');
    const input = box.querySelector('input');
    input?.setAttribute('aria-invalid', 'true');
    input?.focus();
  }

  async create() {
    if (!session.me) return;
    this.markField(null);
    this.createBtn.disabled = true;
    this.msg.textContent = t('event.creating');
    try {
      const res = await api.createEvent(this.settings());
      location.hash = eventHash(res.event.id);
    } catch (e) {
      this.createBtn.disabled = false;
      this.msg.textContent = t('event.create_failed', { msg: eventError(e) });
      this.msg.dataset.code = e.code || '';
      this.markField(badField(e));
    }
  }

  async refresh() {
    let res, mine = null;
    try {
      [res, mine] = await Promise.all([api.events(), session.me ? api.myEvents().catch(() => null) : null]);
    } catch (e) {
      if (!this.dead) this.listMsg.textContent = t('event.load_failed', { msg: errorText(e) });
      return;
    }
    if (this.dead) return;
    this.listMsg.textContent = '';
    const you = new Map((mine?.events || []).map((e) => [e.id, e.you]));
    const all = res?.events || [];
    const fill = (box, events, empty) => {
      clear(box);
      if (!events.length) box.append(h('p', { class: 'muted' }, [t(empty)]));
      else box.append(...events.map((e) => eventRow(e, { you: you.get(e.id) })));
    };
    fill(this.lists.upcoming, all.filter((e) => e.status === 'upcoming'), 'event.none_upcoming');
    fill(this.lists.running, all.filter((e) => e.status === 'running'), 'event.none_running');
    fill(this.lists.finished, all.filter((e) => e.status === 'finished' || e.status === 'cancelled'), 'event.none_finished');
    const my = mine?.events || [];
    this.mineBox.hidden = !my.length;
    if (my.length) { clear(this.mine).append(...my.map((e) => eventRow(e, { you: e.you }))); }
  }
}
