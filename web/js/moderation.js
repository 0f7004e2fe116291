// moderation.js — keeping order in the browser (docs/moderation.md): the Block button
// of a profile (private: only the blocker sees it), the report dialog for a player, a
// game or a chat line (a reason and up to 2,000 characters), the warning a moderator
// left, shown at the next visit until it is read, and the moderation page (#/mod, for
// moderators only): the open reports with their game's chat lines and the player's
// recent history, the actions (warn, time out, shadow mute, rename, close, dismiss),
// and the log with Undo. Every text a person typed is put in as text, never as HTML.
import { h, clear } from './svg.js';
import { api } from './api.js';
import { session, profileHash } from './account.js';
import { t, tn, errorText } from './messages.js';
import { lang } from './lang.js';

export const REPORT_REASONS = ['cheating', 'insults', 'stalling', 'sandbagging', 'spam', 'offensive_name', 'other'];
const REPORT_MAX = 2000;

const when = (ms) => {
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleString(lang());
};

export const timeOfDay = (ms) => {
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? '' : `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
};

function modal(label, children) {
  const el = h('div', { class: 'modal-back report-dialog-back' }, [
    h('div', { class: 'modal report-dialog', role: 'dialog', 'aria-modal': 'true', 'aria-label': label }, children),
  ]);
  document.body.appendChild(el);
  setTimeout(() => el.querySelector('select, textarea, button')?.focus(), 0);
  return el;
}

// Report a player (and, when given, a game or one of its chat lines).
export function reportDialog({ player, game = null, chat = null, text = null }) {
  const reason = h('select', { class: 'report-reason', 'aria-label': t('mod.reason') },
    REPORT_REASONS.map((r) => h('option', { value: r, selected: (chat !== null && r === 'insults') || null }, [t(`mod.reason.${r}`)])));
  const body = h('textarea', { class: 'report-text', rows: 4, maxlength: REPORT_MAX, placeholder: t('mod.report_text') });
  const msg = h('p', { class: 'form-msg', role: 'alert' });
  const send = h('button', { class: 'btn primary', type: 'button', 'data-action': 'report-send' }, [t('mod.send')]);
  const el = modal(t('mod.report_title', { name: player }), [
    h('h2', {}, [t('mod.report_title', { name: player })]),
    text !== null ? h('blockquote', { class: 'report-quote' }, [text]) : null,
    h('label', { class: 'field' }, [h('span', { class: 'field-label' }, [t('mod.reason')]), reason]),
    h('label', { class: 'field' }, [h('span', { class: 'field-label' }, [t('mod.report_text')]), body]),
    msg,
    h('div', { class: 'dialog-buttons' }, [
      h('button', { class: 'btn', type: 'button', 'data-action': 'cancel', onclick: () => el.remove() }, [t('mod.cancel')]),
      send,
    ]),
  ]);
  send.addEventListener('click', async () => {
    if ([...body.value].length > REPORT_MAX) { msg.textContent = t('mod.report_long'); return; }
    send.disabled = true;
    const req = { player, reason: reason.value };
    if (body.value.trim()) req.text = body.value.trim();
    if (game) req.game = game;
    if (game && chat !== null) req.chat = chat;
    try {
      await api.report(req);
      clear(el.firstChild).append(h('h2', {}, [t('mod.report_sent')]),
        h('div', { class: 'dialog-buttons' }, [h('button', { class: 'btn primary', type: 'button', 'data-action': 'close', onclick: () => el.remove() }, [t('mod.close')])]));
      el.querySelector('button').focus();
    } catch (e) {
      msg.textContent = t('mod.report_failed', { msg: errorText(e) });
      send.disabled = false;
    }
  });
  return el;
}

// A profile's Block / Unblock (the list is the account's own: nobody else sees it).
export function blockButton(name) {
  const btn = h('button', { class: 'btn small', type: 'button', 'data-action': 'block', disabled: true }, [t('mod.block')]);
  const note = h('span', { class: 'muted block-note', hidden: true }, [t('mod.blocked_note')]);
  const msg = h('span', { class: 'form-msg', role: 'alert' });
  let blocked = false;
  const draw = () => {
    btn.dataset.blocked = blocked ? '1' : '0';
    btn.textContent = blocked ? t('mod.unblock') : t('mod.block');
    btn.setAttribute('aria-pressed', blocked ? 'true' : 'false');
    note.hidden = !blocked;
  };
  btn.addEventListener('click', async () => {
    btn.disabled = true;
    msg.textContent = '';
    try {
      if (blocked) await api.unblock(name); else await api.block(name);
      blocked = !blocked;
    } catch (e) { msg.textContent = errorText(e); }
    draw();
    btn.disabled = false;
  });
  api.blocks().then((r) => {
    const key = name.toLowerCase();
    blocked = (r.blocks || []).some((p) => p.name.toLowerCase() === key);
    draw();
    btn.disabled = false;
  }, () => {});
  return h('span', { class: 'block-box' }, [btn, msg, note]);
}

export function reportButton(name) {
  return h('button', { class: 'btn small', type: 'button', 'data-action': 'report', onclick: () => reportDialog({ player: name }) }, [t('mod.report')]);
}

// The warnings a moderator left, shown at the next visit until read.
export function mountWarnings() {
  let shown = false;
  const show = (me) => {
    const warnings = me?.warnings || [];
    if (shown || !warnings.length) return;
    shown = true;
    const el = modal(t('mod.warning_title'), [
      h('h2', {}, [t('mod.warning_title')]),
      ...warnings.map((w) => h('p', { class: 'warning-text', 'data-warning': String(w.id) }, [w.text])),
      h('div', { class: 'dialog-buttons' }, [h('button', {
        class: 'btn primary', type: 'button', 'data-action': 'warning-read',
        onclick: () => { api.warningsSeen().catch(() => {}); el.remove(); },
      }, [t('mod.warning_ok')])]),
    ]);
  };
  session.onChange(show);
  session.ready().then(show);
}

// #/mod: the moderators' page.
export class ModerationPage {
  constructor(root) {
    this.dead = false;
    this.el = h('div', { class: 'mod-page' }, [h('div', { class: 'card' }, [h('span', { class: 'spinner' })])]);
    clear(root).append(this.el);
    document.title = `axio · ${t('mod.page_title')}`;
    this.load();
  }

  destroy() { this.dead = true; }

  onSession() { this.load(); }

  async load() {
    const me = await session.ready();
    if (this.dead) return;
    if (!me?.moderator) {
      clear(this.el).append(h('div', { class: 'card', 'data-state': 'forbidden' }, [h('h2', {}, [t('mod.page_title')]), h('p', {}, [t('mod.only')])]));
      return;
    }
    let reports, log;
    try {
      [reports, log] = await Promise.all([api.modReports(), api.modLog()]);
    } catch (e) {
      if (!this.dead) clear(this.el).append(h('div', { class: 'card' }, [h('p', { role: 'alert' }, [errorText(e)])]));
      return;
    }
    if (this.dead) return;
    this.msg = h('p', { class: 'form-msg mod-msg', role: 'status' });
    clear(this.el).append(
      h('section', { class: 'card mod-queue' }, [
        h('h2', {}, [t('mod.queue')]), this.msg,
        reports.reports.length ? h('ol', { class: 'mod-reports' }, reports.reports.map((r) => this.report(r)))
          : h('p', { class: 'muted mod-empty' }, [t('mod.none')]),
      ]),
      h('section', { class: 'card mod-log' }, [
        h('h2', {}, [t('mod.log')]),
        log.log.length ? h('ol', { class: 'mod-log-list' }, log.log.map((e) => this.logLine(e))) : h('p', { class: 'muted' }, [t('mod.log_empty')]),
      ]),
    );
  }

  report(r) {
    const why = h('input', { type: 'text', class: 'mod-why', maxlength: 500, placeholder: t('mod.why'), 'aria-label': t('mod.why') });
    const extra = h('input', { type: 'text', class: 'mod-extra', maxlength: 500, placeholder: t('mod.extra'), 'aria-label': t('mod.extra') });
    // an action leaves the report open (several may follow); Dismiss closes it
    const act = (body) => this.run(() => api.modAct({ ...body, player: r.player, reason: why.value.trim() }), why);
    const lines = (r.chat || []).map((l) => h('li', { class: `mod-chat-line${l.n === r.chat_line ? ' reported' : ''}`, 'data-n': String(l.n) }, [
      h('span', { class: 'muted' }, [timeOfDay(l.at), ' ']), h('b', {}, [l.name]), ' ', h('span', {}, [l.text]),
    ]));
    const games = (r.history?.games || []).map((g) => h('li', {}, [h('a', { href: `#/game/${encodeURIComponent(g.id)}/replay` }, [g.id]), ` ${g.variant}${g.rated ? ` · ${t('mod.rated')}` : ''}${g.place ? ` · #${g.place}` : ''}`]));
    const actions = (r.history?.actions || []).map((a) => h('li', {}, [`${t(`mod.act.${a.action}`)} · ${when(a.at)}${a.undone ? ` ${t('mod.undone')}` : ''}`]));
    return h('li', { class: 'mod-report', 'data-report': String(r.id), 'data-player': r.player }, [
      h('h3', {}, [h('a', { href: profileHash(r.player) }, [r.player]), ' · ', t(`mod.reason.${r.reason}`)]),
      h('p', { class: 'muted' }, [r.automatic ? t('mod.automatic') : t('mod.by', { name: r.reporter }), ' · ', when(r.at)]),
      r.text ? h('blockquote', { class: 'mod-report-text' }, [r.text]) : null,
      r.game ? h('p', {}, [t('mod.game'), ' ', h('a', { href: `#/watch/${encodeURIComponent(r.game)}` }, [r.game])]) : null,
      lines.length ? h('ol', { class: 'mod-chat' }, lines) : null,
      h('details', { class: 'mod-history' }, [h('summary', {}, [t('mod.history')]), h('ul', {}, [...games, ...actions])]),
      h('div', { class: 'mod-actions' }, [
        why, extra,
        h('button', { class: 'btn small', type: 'button', 'data-action': 'mod-warn', onclick: () => act({ action: 'warn', text: extra.value.trim() || why.value.trim() }) }, [t('mod.act.warn')]),
        h('button', { class: 'btn small', type: 'button', 'data-action': 'mod-timeout', onclick: () => act({ action: 'timeout', minutes: Number(extra.value) > 0 ? Math.round(Number(extra.value)) : 10 }) }, [t('mod.act.timeout')]),
        r.game ? h('button', { class: 'btn small', type: 'button', 'data-action': 'mod-timeout-game', onclick: () => act({ action: 'timeout', game: r.game, minutes: Number(extra.value) > 0 ? Math.round(Number(extra.value)) : 10 }) }, [t('mod.act.timeout_game')]) : null,
        h('button', { class: 'btn small', type: 'button', 'data-action': 'mod-shadow-mute', onclick: () => act({ action: 'shadow_mute' }) }, [t('mod.act.shadow_mute')]),
        h('button', { class: 'btn small', type: 'button', 'data-action': 'mod-rename', onclick: () => act({ action: 'rename', name: extra.value.trim() }) }, [t('mod.act.rename')]),
        h('button', { class: 'btn small danger', type: 'button', 'data-action': 'mod-close', onclick: () => act({ action: 'close' }) }, [t('mod.act.close')]),
        h('button', { class: 'btn small', type: 'button', 'data-action': 'mod-dismiss', onclick: () => this.run(() => api.modCloseReport(r.id, why.value.trim()), why) }, [t('mod.act.close_report')]),
      ]),
      h('p', { class: 'muted mod-help' }, [t('mod.extra_help')]),
    ]);
  }

  logLine(e) {
    const id = e.action_id;
    const undo = id && e.action !== 'undo' && e.action !== 'close_report'
      ? h('button', { class: 'btn small', type: 'button', 'data-action': 'mod-undo', onclick: () => {
        const reason = prompt(t('mod.why'));
        if (reason && reason.trim()) this.run(() => api.modUndo(id, reason.trim()), null);
      } }, [t('mod.undo')]) : null;
    return h('li', { class: 'mod-log-line', 'data-action': e.action }, [
      h('span', { class: 'muted' }, [when(e.at), ' ']), h('b', {}, [e.moderator || t('mod.site')]), ' ',
      t(`mod.act.${e.action}`), ' ', e.player ? h('a', { href: profileHash(e.player) }, [e.player]) : null,
      this.logDetail(e), ' — ', h('q', {}, [e.reason]), ' ', undo,
    ]);
  }

  // What the line did, in the page's language: its fields (a warning's text as typed).
  logDetail(e) {
    const parts = [];
    if (e.action === 'undo') parts.push(...tn('mod.log.undid', { id: e.action_id, action: t(`mod.act.${e.undid}`) }));
    else if (e.action_id && !e.minutes && !e.name && !e.text) parts.push(t('mod.log.action', { id: e.action_id }));
    if (e.minutes) parts.push(t('mod.log.minutes', { n: e.minutes }));
    if (e.game) parts.push(' ', ...tn('mod.log.in_game', { game: h('a', { href: `#/watch/${encodeURIComponent(e.game)}` }, [e.game]) }));
    if (e.name) parts.push(...tn('mod.log.renamed', { name: h('b', {}, [e.name]) }));
    if (e.text) parts.push(h('q', { class: 'mod-log-text' }, [e.text]));
    if (e.report) parts.push(t('mod.log.report', { id: e.report }));
    if (e.detail) parts.push(e.detail); // a line of an earlier build: its text as it was
    return parts.length ? h('span', { class: 'muted mod-log-detail' }, [' (', ...parts, ')']) : null;
  }

  async run(fn, why) {
    if (why && !why.value.trim()) { this.msg.textContent = t('mod.need_why'); why.focus(); return; }
    try {
      await fn();
      await this.load();
      this.msg.textContent = t('mod.done');
    } catch (e) {
      this.msg.textContent = errorText(e);
    }
  }
}
