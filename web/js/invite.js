// invite.js — invitations. The link a friend opens is made from the first address
// the server says it can be reached at (`urls` of GET /api/health: --public-url or
// its LAN addresses), else from this page's own address, so that it works from
// another computer. inviteBox() shows that link as selectable text with a Copy
// button; InvitePage is what the link opens (#/join/ID): it asks the name, joins
// and goes to the game, or says why it cannot (full: watch instead; over: the
// replay; cancelled, expired or unknown). The server validates names; its reason
// is shown next to the field. Logged in, the account's name is used (no field); a
// rated game asks a guest to log in or sign up first (and comes back here).
import { h, clear } from './svg.js';
import { api, tokens, prefs } from './api.js';
import { t, joinNames, errorText } from './messages.js';
import { VARIANTS, modeName } from './variants.js';
import { clockName } from './clock.js';
import { session, authHash } from './account.js';
import { withRating } from './ratings.js';
import { offerForGame } from './notify.js';

const NOTE_MS = 5000; // how long "Copied" stays

// The invite link of a game: urls[0] of the server when it is an http(s) address,
// else the address of this page (loc: location, given for tests).
export function inviteLink(id, urls, loc = globalThis.location) {
  const first = Array.isArray(urls) ? urls[0] : null;
  const ok = typeof first === 'string' && /^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/i.test(first);
  const base = ok ? first.replace(/\/*$/, '/') : `${loc.origin}${loc.pathname}`;
  return `${base}#/join/${encodeURIComponent(id)}`;
}

// What a link to this game can do: 'join' (a free human seat), 'full', 'over',
// 'expired', 'cancelled'. A rematch's seats are kept for the old game's players.
export function inviteState(g) {
  if (g.status === 'expired' || g.status === 'cancelled' || g.status === 'over') return g.status;
  const free = (g.seats || []).some((s) => s.kind === 'human' && !s.taken);
  return g.status === 'waiting' && free && !g.rematch_of ? 'join' : 'full';
}

// Copies text to the clipboard, or (no clipboard, no permission, not https) leaves
// it selected in the input for the person to copy. Returns true when copied.
async function copyText(input) {
  const text = input.value;
  let copied = false;
  if (navigator.clipboard && window.isSecureContext) {
    try {
      await navigator.clipboard.writeText(text);
      copied = true;
    } catch { /* no permission: select it below */ }
  }
  input.focus();
  input.setSelectionRange(0, text.length);
  if (!copied) {
    try { copied = document.execCommand('copy'); } catch { copied = false; }
  }
  return copied;
}

// The invite link of a game as read-only text with a Copy button and a hint.
export function inviteBox(id) {
  const inputId = `invite-url-${id}`;
  const input = h('input', { id: inputId, class: 'invite-url', type: 'text', readonly: true, spellcheck: 'false', autocomplete: 'off', placeholder: t('invite.making') });
  const btn = h('button', { class: 'btn small primary', type: 'button', 'data-action': 'copy-invite', disabled: true }, [t('invite.copy')]);
  const note = h('span', { class: 'invite-note', role: 'status', 'aria-live': 'polite' });
  const box = h('div', { class: 'invite-box', 'data-game': id }, [
    h('label', { class: 'invite-hint', for: inputId }, [t('invite.hint')]),
    h('div', { class: 'invite-row' }, [input, btn]),
    note,
  ]);
  let timer = null;
  input.addEventListener('focus', () => input.select());
  btn.addEventListener('click', async () => {
    const copied = await copyText(input);
    note.textContent = copied ? t('invite.copied') : t('invite.select_hint');
    box.dataset.copied = copied ? 'copied' : 'selected';
    clearTimeout(timer);
    timer = setTimeout(() => { note.textContent = ''; delete box.dataset.copied; }, NOTE_MS);
  });
  api.serverInfo().then((info) => {
    input.value = inviteLink(id, info?.urls);
    box.dataset.link = input.value;
    btn.disabled = false;
  });
  return box;
}

// The page of an invite link (#/join/ID) for a browser without a seat in the game.
export class InvitePage {
  constructor(root, id) {
    this.id = id;
    this.dead = false;
    this.el = h('div', { class: 'invite-page' });
    clear(root).append(this.el);
    document.title = `axio · ${t('invite.page_title')}`;
    this.show(h('div', { class: 'card invite-card', 'data-state': 'loading' }, [
      h('span', { class: 'spinner' }), ` ${t('invite.loading')}`,
    ]));
    this.load();
  }

  destroy() { this.dead = true; }

  show(card) { clear(this.el).append(card); }

  async load() {
    let g;
    try {
      g = await api.getGame(this.id);
    } catch (e) {
      if (this.dead) return;
      if (e.status === 404) this.showEnd('unknown');
      else this.showUnreachable(errorText(e));
      return;
    }
    await session.ready();
    if (this.dead) return;
    // A seat of the account's already (taken on another device): straight to the game.
    if (session.me && (g.status === 'waiting' || g.status === 'running')) {
      const mine = await api.myGames().catch(() => null);
      if (this.dead) return;
      const entry = (mine?.games || []).find((x) => x.id === this.id);
      if (entry) { location.replace(`#/game/${encodeURIComponent(this.id)}?seat=${entry.seat}`); return; }
    }
    this.game = g;
    const state = inviteState(g);
    if (state === 'join') this.showForm(); else this.showEnd(state);
  }

  // "Ann invites you to AXIO" and the game's facts.
  describe() {
    const g = this.game;
    const hosts = (g.seats || []).filter((s) => s.kind === 'human' && s.taken && s.name).map((s) => withRating(s.name, s.rating));
    const game = VARIANTS[g.variant]?.name || g.variant;
    const facts = [t('invite.players', { n: g.players }), modeName(g.mode), clockName(g.clock)];
    const ais = (g.seats || []).filter((s) => s.kind === 'ai').length;
    if (ais) facts.push(t('invite.computers', { n: ais }));
    if (g.rated !== undefined) facts.push(g.rated ? t('rating.rated') : t('rating.casual'));
    return [
      h('p', { class: 'invite-from' }, [hosts.length ? t('invite.from', { names: joinNames(hosts), game }) : t('invite.to', { game })]),
      h('p', { class: 'muted invite-facts' }, [facts.join(' · ')]),
    ];
  }

  // Logged in or out in the header meanwhile: the form follows.
  onSession() { if (this.game && inviteState(this.game) === 'join' && !this.joining) this.showForm(); }

  showForm() {
    if (session.me) { this.showAccountJoin(); return; }
    if (this.game.rated) { this.showLoginFirst(); return; }
    this.nameInput = h('input', {
      id: 'invite-name', class: 'text-input', type: 'text', autocomplete: 'nickname', autocapitalize: 'words',
      enterkeyhint: 'go', spellcheck: 'false', 'aria-describedby': 'invite-name-msg invite-name-help',
    });
    this.nameInput.value = prefs.name;
    this.nameMsg = h('p', { id: 'invite-name-msg', class: 'form-msg field-msg', role: 'alert' });
    this.formMsg = h('p', { class: 'form-msg', role: 'alert' });
    this.joinBtn = h('button', { class: 'btn primary big', type: 'submit', 'data-action': 'join' }, [t('invite.join')]);
    this.nameInput.addEventListener('input', () => this.fieldError(''));
    const form = h('form', { class: 'card invite-card invite-form', 'data-state': 'join', novalidate: true, onsubmit: (e) => { e.preventDefault(); this.join(); } }, [
      h('h2', {}, [t('invite.join_title')]),
      ...this.describe(),
      h('label', { class: 'field-label', for: 'invite-name' }, [t('invite.name_label')]),
      this.nameInput,
      this.nameMsg,
      h('p', { id: 'invite-name-help', class: 'muted small-note' }, [t('invite.name_help')]),
      this.formMsg,
      this.joinBtn,
      h('div', { class: 'invite-alt' }, [
        h('a', { href: `#/watch/${encodeURIComponent(this.id)}`, class: 'btn subtle', 'data-action': 'watch' }, [t('invite.just_watch')]),
      ]),
    ]);
    this.show(form);
    this.nameInput.focus();
  }

  // Logged in: one button, the seat takes the account's name.
  showAccountJoin() {
    this.nameInput = null;
    this.nameMsg = null;
    this.formMsg = h('p', { class: 'form-msg', role: 'alert' });
    this.joinBtn = h('button', { class: 'btn primary big', type: 'submit', 'data-action': 'join' }, [t('invite.join_as', { name: session.name })]);
    this.show(h('form', { class: 'card invite-card invite-form', 'data-state': 'join', 'data-account': '1', novalidate: true, onsubmit: (e) => { e.preventDefault(); this.join(); } }, [
      h('h2', {}, [t('invite.join_title')]),
      ...this.describe(),
      this.formMsg,
      this.joinBtn,
      h('div', { class: 'invite-alt' }, [
        h('a', { href: `#/watch/${encodeURIComponent(this.id)}`, class: 'btn subtle', 'data-action': 'watch' }, [t('invite.just_watch')]),
      ]),
    ]));
    this.joinBtn.focus();
  }

  // A rated game and a guest: an account first, then back to this page.
  showLoginFirst() {
    const here = `#/join/${encodeURIComponent(this.id)}`;
    this.show(h('div', { class: 'card invite-card', 'data-state': 'login' }, [
      h('h2', {}, [t('invite.join_title')]),
      ...this.describe(),
      h('p', {}, [t('invite.rated_login')]),
      h('div', { class: 'invite-actions' }, [
        h('a', { href: authHash('login', here), class: 'btn primary', 'data-action': 'login' }, [t('account.login')]),
        h('a', { href: authHash('signup', here), class: 'btn', 'data-action': 'signup' }, [t('account.signup')]),
        h('a', { href: `#/watch/${encodeURIComponent(this.id)}`, class: 'btn subtle', 'data-action': 'watch' }, [t('invite.just_watch')]),
      ]),
    ]));
  }

  fieldError(msg) {
    if (!this.nameMsg) return;
    this.nameMsg.textContent = msg;
    if (msg) this.nameInput.setAttribute('aria-invalid', 'true');
    else this.nameInput.removeAttribute('aria-invalid');
  }

  async join() {
    const name = this.nameInput ? this.nameInput.value.trim() : session.name;
    this.formMsg.textContent = '';
    if (!name) { this.fieldError(t('invite.name_empty')); this.nameInput?.focus(); return; }
    this.joinBtn.disabled = true;
    this.joining = true;
    let res;
    try {
      res = await api.joinGame(this.id, name);
    } catch (e) {
      this.joining = false;
      if (this.dead) return;
      this.joinBtn.disabled = false;
      if (e.status === 401) { this.showLoginFirst(); return; }
      if (e.code === 'already_seated') { this.formMsg.textContent = t('rated.already_seated'); return; }
      if (e.status === 400 && this.nameInput) { this.fieldError(errorText(e)); this.nameInput.focus(); return; }
      if (e.status === 400) { this.formMsg.textContent = t('invite.join_failed', { msg: errorText(e) }); return; }
      if (e.status === 404) { this.showEnd('unknown'); return; }
      if (e.status === 409) { this.showEnd(e.code === 'expired' || e.code === 'cancelled' ? e.code : 'full'); return; }
      this.formMsg.textContent = t('invite.join_failed', { msg: errorText(e) });
      return;
    }
    if (this.nameInput) prefs.name = name;
    offerForGame(this.id);
    tokens.set(this.id, res.seat, res.token);
    if (!this.dead) location.replace(`#/game/${this.id}`);
  }

  // Why the link cannot seat you, and what you can do instead.
  showEnd(state) {
    const id = encodeURIComponent(this.id);
    const lobby = h('a', { href: '#/', class: 'btn', 'data-action': 'lobby' }, [t('gone.lobby')]);
    let title, text, main = null, cls = 'card invite-card';
    if (state === 'full') {
      title = t('invite.full_title'); text = t('invite.full_text');
      main = h('a', { href: `#/watch/${id}`, class: 'btn primary', 'data-action': 'watch' }, [t('invite.watch')]);
    } else if (state === 'over') {
      title = t('invite.over_title'); text = t('invite.over_text');
      main = h('a', { href: `#/game/${id}/replay`, class: 'btn primary', 'data-action': 'replay' }, [t('invite.replay')]);
    } else if (state === 'expired' || state === 'cancelled') {
      title = t(`gone.${state}_title`); text = t(`gone.${state}_text`);
      cls += ' missing gone';
    } else {
      title = t('invite.unknown_title'); text = t('invite.unknown_text');
    }
    if (!main) lobby.classList.add('primary');
    this.show(h('div', { class: cls, 'data-state': state, 'data-gone': cls.includes('gone') ? state : null }, [
      h('h2', {}, [title]), h('p', {}, [text]),
      h('div', { class: 'invite-actions' }, [main, lobby]),
    ]));
  }

  showUnreachable(msg) {
    this.show(h('div', { class: 'card invite-card', 'data-state': 'unreachable' }, [
      h('h2', {}, [t('invite.unreachable_title')]), h('p', {}, [msg]),
      h('div', { class: 'invite-actions' }, [
        h('button', { class: 'btn primary', type: 'button', 'data-action': 'retry', onclick: () => this.load() }, [t('invite.retry')]),
        h('a', { href: '#/', class: 'btn', 'data-action': 'lobby' }, [t('gone.lobby')]),
      ]),
    ]));
  }
}
