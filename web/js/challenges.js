// challenges.js — challenging a player (docs/accounts.md, "Challenges and quick pairing"):
// the form on a profile or a friend's row (variant, clock, rated: POST /api/challenges),
// the lobby's list of received and sent challenges (accept; decline with a reason; take
// back) and, on the other pages but a game's, a small notice of a challenge received. One watcher
// asks GET /api/me/challenges every few seconds while someone is logged in; when a
// challenge of ours is accepted the game opens (on the lobby, a profile or the
// leaderboard; in the middle of a game the notice offers it instead). The accepter
// opens the game from the answer. Both seats are bound to the accounts: no token.
// A challenge to two or three at once (3 or 4 players, issue 49) makes its game when the
// last of them accepts: the others (and the challenger) see it accepted here and the game
// opens for them as for a challenger; until then the lists say who accepted.
import { h, clear } from './svg.js';
import { api } from './api.js';
import { session } from './account.js';
import { t, errorText, joinNames } from './messages.js';
import { termsPicker, termsText } from './terms.js';
import { ageText } from './lobby_lists.js';
import { isBot, botTag, noteBot } from './bot_mark.js';
import { offerForGame } from './notify.js';

const POLL_MS = 4000;
export const DECLINE_REASONS = ['generic', 'later', 'variant', 'timeControl', 'rated', 'casual', 'tooFast', 'tooSlow'];

const gameHash = (id) => `#/game/${encodeURIComponent(id)}`;
// Pages a person waits on for an answer: an accepted challenge opens its game from there.
const waitingPage = () => /^#\/?($|\?|player\/|leaderboard)/.test(location.hash || '#/');

// ---- the watcher ----------------------------------------------------------------
const listeners = new Set();
let last = { received: [], sent: [] };
let statuses = null; // id -> status as last seen (null before the first answer)
let timer = null;
let asking = false;
const openedHere = new Set(); // challenges whose game our own acceptance opened
// Challenges sent from this page: one accepted before any answer showed it open (a bot
// answers within a second) still opens its game.
const sentHere = new Set();

function publish() { for (const fn of listeners) fn(last); }

async function poll() {
  clearTimeout(timer);
  timer = null;
  if (!session.me) { last = { received: [], sent: [] }; statuses = null; publish(); return; }
  if (asking) return;
  asking = true;
  try {
    const res = await api.myChallenges();
    last = { received: res.received || [], sent: res.sent || [] };
    // The answer says which side is a bot (from_bot, to_bot): the BOT mark needs no list.
    for (const c of [...last.received, ...last.sent]) {
      if (c.from_bot) noteBot(c.from);
      if (c.to_bot) noteBot(c.to);
      for (const i of c.invited || []) if (i.bot) noteBot(i.name);
    }
    const before = statuses;
    statuses = new Map([...last.received, ...last.sent].map((c) => [c.id, c.status]));
    // One of ours accepted since we last looked: its game opens where we were waiting.
    const newlyAccepted = (c) => c.status === 'accepted' && c.game &&
      (before?.get(c.id) === 'open' || (sentHere.has(c.id) && !before?.has(c.id)));
    for (const c of last.sent) {
      if (newlyAccepted(c)) {
        if (waitingPage()) { location.hash = gameHash(c.game); } else notice.accepted = { ...c, side: 'sent' };
      }
    }
    if (before) {
      // A group challenge we accepted that another's acceptance, the last, started.
      for (const c of last.received) {
        if (c.players > 2 && c.status === 'accepted' && c.game && before.get(c.id) === 'open' && !openedHere.has(c.id)) {
          if (waitingPage()) { location.hash = gameHash(c.game); } else notice.accepted = { ...c, side: 'received' };
        }
      }
    }
  } catch (e) {
    if (e.status === 401) { last = { received: [], sent: [] }; statuses = null; }
  } finally {
    asking = false;
  }
  publish();
  if (session.me) timer = setTimeout(poll, POLL_MS);
}

export const challenges = {
  get now() { return last; },
  // fn(state) after every answer; returns the function that unsubscribes.
  onChange(fn) { listeners.add(fn); fn(last); return () => listeners.delete(fn); },
  // Asks at once (after sending, accepting or declining one).
  refresh() { return poll(); },
  start() {
    session.onChange(() => poll());
    session.ready().then(() => poll());
  },
};

// ---- sending --------------------------------------------------------------------
// The players of a challenge: 2 (to `name`), or 3 or 4 with one or two more names
// (people or bots), and the mode where the variant has one (hex with 4: team).
function tablePicker(prefix, picker) {
  const players = h('select', { id: `${prefix}-players`, class: 'terms-select' },
    [2, 3, 4].map((n) => h('option', { value: String(n) }, [t('info.players', { n })])));
  const mode = h('select', { id: `${prefix}-mode`, class: 'terms-select' },
    ['standard', 'team'].map((m) => h('option', { value: m }, [t(`mode.${m}`)])));
  const modeField = h('label', { class: 'terms-field', for: `${prefix}-mode`, hidden: true }, [h('span', { class: 'field-label' }, [t('group.mode')]), mode]);
  const others = [0, 1].map((i) => h('input', {
    id: `${prefix}-also-${i}`, class: 'challenge-also', type: 'text', autocomplete: 'off', maxlength: '40',
    placeholder: t('group.also_placeholder'), 'aria-label': t('group.also', { n: i + 1 }),
  }));
  const otherFields = others.map((input, i) => h('label', { class: 'terms-field', for: input.id, hidden: true }, [h('span', { class: 'field-label' }, [t('group.also', { n: i + 1 })]), input]));
  const sync = () => {
    const n = Number(players.value);
    otherFields.forEach((f, i) => { f.hidden = i >= n - 2; others[i].required = i < n - 2; });
    const team = n === 4 && picker.value().variant === 'hex';
    modeField.hidden = !team;
    if (!team) mode.value = 'standard';
  };
  players.addEventListener('change', sync);
  const el = h('div', { class: 'terms challenge-table' }, [
    h('label', { class: 'terms-field', for: players.id }, [h('span', { class: 'field-label' }, [t('group.players')]), players]),
    modeField, ...otherFields,
  ]);
  return {
    el,
    sync,
    // The body's fields for a challenge to `name`: the two-player form, or to: [names].
    value(name) {
      const n = Number(players.value);
      if (n === 2) return { to: name };
      const out = { to: [name, ...others.slice(0, n - 2).map((x) => x.value.trim())], players: n };
      if (!modeField.hidden && mode.value !== 'standard') out.mode = mode.value;
      return out;
    },
  };
}

// The form that challenges `name`: the terms and "Send challenge". onSent(challenge).
export function challengeForm(name, { onSent, prefix = 'challenge' } = {}) {
  const picker = termsPicker(prefix);
  const table = tablePicker(prefix, picker);
  const msg = h('p', { class: 'form-msg', role: 'alert' });
  const btn = h('button', { class: 'btn primary', type: 'submit', 'data-action': 'send-challenge' }, [t('challenge.send')]);
  const form = h('form', { class: 'challenge-form', onsubmit: async (e) => {
    e.preventDefault();
    btn.disabled = true;
    msg.textContent = '';
    try {
      const res = await api.challenge({ ...table.value(name), ...picker.value() });
      if (res.challenge?.id) sentHere.add(res.challenge.id);
      poll();
      onSent?.(res.challenge);
    } catch (err) {
      msg.textContent = t('challenge.failed', { msg: errorText(err) });
    }
    btn.disabled = false;
  } }, [picker.el, table.el, h('div', { class: 'challenge-foot' }, [btn, msg])]);
  form.addEventListener('change', table.sync);
  return form;
}

// A dialog holding the form (a friend's Challenge button).
export function challengeDialog(name, { onClose } = {}) {
  const close = () => { back.remove(); document.removeEventListener('keydown', esc); onClose?.(); };
  const esc = (e) => { if (e.key === 'Escape') close(); };
  const status = h('div', { class: 'challenge-status-box' });
  const form = challengeForm(name, { prefix: 'dlg-challenge', onSent: (c) => { form.remove(); status.append(sentLine(c, () => {})); } });
  const back = h('div', { class: 'modal-back page-modal challenge-dialog-back' }, [
    h('div', { class: 'modal challenge-dialog', role: 'dialog', 'aria-modal': 'true', 'aria-label': t('challenge.title', { name }) }, [
      h('h2', {}, [t('challenge.title', { name }), isBot(name) ? ' ' : null, isBot(name) ? botTag() : null]),
      form, status,
      h('div', { class: 'dialog-buttons' }, [h('button', { class: 'btn', type: 'button', 'data-action': 'close', onclick: close }, [t('challenge.close')])]),
    ]),
  ]);
  document.body.append(back);
  document.addEventListener('keydown', esc);
  setTimeout(() => back.querySelector('select')?.focus(), 0);
  return { el: back, close };
}

// What became of a sent challenge, as a line (with Take back while it is open).
export function sentLine(c, onChange) {
  const cur = () => challenges.now.sent.find((x) => x.id === c.id) || c;
  const el = h('div', { class: 'challenge-line sent', 'data-challenge': c.id });
  const draw = () => {
    const x = cur();
    el.dataset.status = x.status;
    clear(el).append(h('span', { class: 'challenge-text' }, [statusText(x, 'sent')]));
    if (x.status === 'open') {
      el.append(h('button', { class: 'btn small', type: 'button', 'data-action': 'withdraw', onclick: async () => {
        try { await api.withdrawChallenge(x.id); } catch { /* settled meanwhile: the list says how */ }
        await poll();
        onChange?.();
      } }, [t('challenge.withdraw')]));
    } else if (x.status === 'accepted' && x.game) {
      el.append(h('a', { class: 'btn small primary', href: gameHash(x.game), 'data-action': 'open-game' }, [t('challenge.open_game')]));
    }
  };
  draw();
  const off = challenges.onChange(() => { if (!el.isConnected && el.dataset.drawn) { off(); return; } el.dataset.drawn = '1'; draw(); });
  return el;
}

// How a challenge stands, said from one side ('sent' or 'received').
// A bot's name is marked "Robo (BOT)" (from_bot / to_bot, noted by the watcher: bot_mark.js).
export function statusText(c, side) {
  const named = (name) => (isBot(name) ? t('bot.named', { name }) : name);
  if (c.players > 2) return groupText(c, side, named);
  const terms = termsText(c);
  if (side === 'received') {
    if (c.status === 'open') return t('challenge.from', { name: named(c.from), terms });
    return t(`challenge.received_${c.status}`, { name: named(c.from), terms });
  }
  if (c.status === 'declined') return t('challenge.declined', { name: named(c.to), terms, reason: t(`decline.says.${DECLINE_REASONS.includes(c.reason) ? c.reason : 'generic'}`) });
  if (c.status === 'open') return t('challenge.to', { name: named(c.to), terms });
  return t(`challenge.sent_${c.status}`, { name: named(c.to), terms });
}

// The same for a challenge to several (3 or 4 players): who was invited, who accepted.
function groupText(c, side, named) {
  const terms = [termsText(c), t('info.players', { n: c.players }), c.mode === 'team' ? t('mode.team') : null].filter(Boolean).join(' · ');
  const invited = c.invited || [];
  const me = session.me?.name;
  const names = (list) => joinNames(list.map((i) => (i.name === me ? t('group.you') : named(i.name))));
  const reason = t(`decline.says.${DECLINE_REASONS.includes(c.reason) ? c.reason : 'generic'}`);
  const progress = () => {
    const yes = invited.filter((i) => i.accepted), no = invited.filter((i) => !i.accepted);
    return [yes.length ? t('group.accepted_so_far', { names: names(yes) }) : null, no.length ? t('group.waiting_for', { names: names(no) }) : null].filter(Boolean).join('; ');
  };
  if (c.status === 'declined') {
    if (c.declined_by === me) return t('challenge.received_declined', { name: named(c.from), terms });
    return t('group.declined', { name: named(c.declined_by || c.to), terms, reason });
  }
  if (side === 'received') {
    const others = invited.filter((i) => i.name !== me);
    if (c.status === 'open') return `${t('group.from', { name: named(c.from), others: names(others), terms })} — ${progress()}`;
    return t(`challenge.received_${c.status}`, { name: named(c.from), terms });
  }
  if (c.status === 'open') return `${t('group.to', { names: names(invited), terms })} — ${progress()}`;
  return t(`group.sent_${c.status}`, { names: names(invited), terms });
}

// ---- receiving ------------------------------------------------------------------
async function accept(c, msg) {
  try {
    const res = await api.acceptChallenge(c.id);
    if (!res.game) { // a challenge to several: the game waits for the others
      if (msg) msg.textContent = t('group.wait_others');
      poll();
      return;
    }
    openedHere.add(c.id);
    offerForGame(res.game);
    location.hash = `${gameHash(res.game)}${Number.isInteger(res.seat) ? `?seat=${res.seat}` : ''}`;
  } catch (e) {
    if (msg) msg.textContent = e.status === 409 ? t('challenge.not_open') : errorText(e);
    poll();
  }
}

// Accept, and Decline with a reason chosen from the server's list.
function answerButtons(c, msg, idp) {
  const reason = h('select', { class: 'decline-reason', id: `${idp}-reason-${c.id}`, 'aria-label': t('decline.label') },
    DECLINE_REASONS.map((r) => h('option', { value: r }, [t(`decline.reason.${r}`)])));
  // (One who accepted a challenge to several waits for the others: no second Accept.)
  const mine = (c.invited || []).find((i) => i.name === session.me?.name);
  return [
    mine?.accepted ? null : h('button', { class: 'btn small primary', type: 'button', 'data-action': 'accept', onclick: () => accept(c, msg) }, [t('challenge.accept')]),
    reason,
    h('button', { class: 'btn small', type: 'button', 'data-action': 'decline', onclick: async () => {
      try { await api.declineChallenge(c.id, reason.value); } catch (e) { if (msg) msg.textContent = e.status === 409 ? t('challenge.not_open') : errorText(e); }
      poll();
    } }, [t('challenge.decline')]),
  ];
}

// The lobby's list: received ones first (open ones with their buttons), then sent ones.
export class ChallengeList {
  constructor() {
    this.list = h('div', { class: 'challenge-list', id: 'challenges' });
    this.msg = h('p', { class: 'form-msg', role: 'alert' });
    this.el = h('section', { class: 'challenges-box', hidden: true }, [h('h2', {}, [t('challenge.list_title')]), this.msg, this.list]);
    this.off = challenges.onChange((s) => this.render(s));
  }

  destroy() { this.off(); }

  render({ received, sent }) {
    const rows = [];
    // (A name learnt later to be a bot's redraws the lines with its mark.)
    const said = (c) => (c.invited || []).map((i) => [i.accepted, isBot(i.name)]);
    const sig = JSON.stringify([received.map((c) => [c.id, c.status, isBot(c.from), said(c)]), sent.map((c) => [c.id, c.status, isBot(c.to), said(c)])]);
    if (sig === this.sig) { this.refreshAges(); return; }
    this.sig = sig;
    for (const c of received) {
      const row = h('div', { class: 'challenge-line received', 'data-challenge': c.id, 'data-status': c.status }, [
        h('span', { class: 'challenge-text' }, [statusText(c, 'received'), h('span', { class: 'muted challenge-age', 'data-created': c.created }, [` · ${ageText(c.created / 1000)}`])]),
      ]);
      if (c.status === 'open') row.append(h('span', { class: 'challenge-actions' }, answerButtons(c, this.msg, 'lobby')));
      else if (c.status === 'accepted' && c.game) row.append(h('a', { class: 'btn small', href: gameHash(c.game), 'data-action': 'open-game' }, [t('challenge.open_game')]));
      rows.push(row);
    }
    for (const c of sent) rows.push(sentLine(c, () => {}));
    clear(this.list).append(...rows);
    this.el.hidden = !rows.length;
  }

  refreshAges() {
    for (const el of this.list.querySelectorAll('.challenge-age[data-created]')) el.textContent = ` · ${ageText(Number(el.dataset.created) / 1000)}`;
  }
}

// ---- the notice on other pages ---------------------------------------------------
// A challenge received (the newest open one, and how many more), or one of ours
// accepted while we were in a game: a small box at the foot of the page.
const notice = {
  el: null,
  accepted: null,
  mount(host) {
    this.el = h('div', { class: 'challenge-notice', id: 'challenge-notice', role: 'status', 'aria-live': 'polite', hidden: true });
    host.append(this.el);
    challenges.onChange(() => this.render());
    window.addEventListener('hashchange', () => this.render());
  },
  render() {
    const el = this.el;
    if (!el) return;
    // (A challenge to several we accepted already waits for the others: not here.)
    const open = last.received.filter((c) => c.status === 'open' && !(c.invited || []).find((i) => i.name === session.me?.name)?.accepted);
    // Not over the lobby (it lists them) nor over a game (its rack and board come first).
    const page = location.hash.replace(/^#\/?/, '').split(/[/?]/)[0] || 'lobby';
    const elsewhere = ['lobby', 'game', 'watch', 'learn'].includes(page);
    const acc = this.accepted && !location.hash.includes(this.accepted.game) ? this.accepted : null;
    if (!session.me || elsewhere || (!open.length && !acc)) { el.hidden = true; clear(el); this.sig = ''; return; }
    const sig = JSON.stringify([open.map((c) => c.id), acc?.id]);
    if (sig === this.sig) return;
    this.sig = sig;
    clear(el);
    if (acc) {
      el.append(h('div', { class: 'challenge-line', 'data-challenge': acc.id, 'data-status': 'accepted' }, [
        h('span', { class: 'challenge-text' }, [acc.players > 2 ? statusText(acc, acc.side) : t('challenge.sent_accepted', { name: acc.to, terms: termsText(acc) })]),
        h('a', { class: 'btn small primary', href: gameHash(acc.game), 'data-action': 'open-game', onclick: () => { this.accepted = null; } }, [t('challenge.open_game')]),
        h('button', { class: 'btn small subtle', type: 'button', 'aria-label': t('challenge.close'), onclick: () => { this.accepted = null; this.render(); } }, ['×']),
      ]));
    }
    if (open.length) {
      const c = open[0];
      const msg = h('p', { class: 'form-msg', role: 'alert' });
      el.append(h('div', { class: 'challenge-line received', 'data-challenge': c.id, 'data-status': 'open' }, [
        h('span', { class: 'challenge-text' }, [statusText(c, 'received'), open.length > 1 ? h('a', { href: '#/', class: 'challenge-more' }, [` ${t('challenge.more', { n: open.length - 1 })}`]) : null]),
        h('span', { class: 'challenge-actions' }, answerButtons(c, msg, 'notice')),
        msg,
      ]));
    }
    el.hidden = false;
  },
};

export function mountChallengeNotice(host) { notice.mount(host); }
