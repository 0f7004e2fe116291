// auth.js — the sign-up (#/signup) and log-in (#/login) pages. Both take
// ?next=#/… (the page to return to afterwards). The server checks names and
// passwords and sets the session cookie; its reasons are shown beside the fields
// (a taken name, a name it refuses, a wrong password, too many attempts: what is
// locked and until when).
import { h, clear } from './svg.js';
import { api } from './api.js';
import { session, safeNext, authHash, profileHash } from './account.js';
import { t, errorText } from './messages.js';
import { lang } from './lang.js';

const MIN_PASSWORD = 8;

// Why a password check was refused (429): a login lock says what it locks — every name
// from this address, or this name from everywhere, after failed logins; logins from this
// address, or to this account, right or wrong — and until when (the server's
// retry_after_s, docs/accounts.md); else too many requests at once.
const LOCKS = {
  login_address: 'auth.locked_address', login_name: 'auth.locked_name',
  login_rate: 'auth.locked_rate', login_account: 'auth.locked_account',
};

export function lockText(e) {
  if (LOCKS[e.reason] && e.retryAfter > 0) {
    const until = new Date(Date.now() + e.retryAfter * 1000);
    const time = until.toLocaleTimeString(lang(), { hour: '2-digit', minute: '2-digit' });
    return t(LOCKS[e.reason], { time, min: Math.ceil(e.retryAfter / 60) });
  }
  return t('auth.rate_limited');
}

export class AuthPage {
  // kind: 'login' | 'signup'; query: the route's URLSearchParams.
  constructor(root, kind, query) {
    this.kind = kind;
    this.next = safeNext(query.get('next'));
    this.dead = false;
    this.el = h('div', { class: 'auth-page', 'data-kind': kind });
    clear(root).append(this.el);
    document.title = `axio · ${t(`auth.${kind}_title`)}`;
    session.ready().then(() => { if (!this.dead) this.render(); });
  }

  destroy() { this.dead = true; }

  // Logged in or out elsewhere (the header): show what fits now.
  onSession() { if (!this.busy && this.shown !== undefined && this.shown !== (session.name || '')) this.render(); }

  render() {
    this.shown = session.name || '';
    if (session.me) { this.renderLoggedIn(); return; }
    const signup = this.kind === 'signup';
    const field = (id, label, attrs, help) => {
      const input = h('input', { id, class: 'text-input', ...attrs, 'aria-describedby': `${id}-msg${help ? ` ${id}-help` : ''}` });
      const msg = h('p', { id: `${id}-msg`, class: 'form-msg field-msg', role: 'alert' });
      input.addEventListener('input', () => this.fieldError(input, msg, ''));
      return { input, msg, nodes: [h('label', { class: 'field-label', for: id }, [label]), input, msg, help ? h('p', { id: `${id}-help`, class: 'muted small-note' }, [help]) : null] };
    };
    this.name = field('auth-name', t('auth.name'), {
      type: 'text', name: 'username', autocomplete: 'username', autocapitalize: 'none', spellcheck: 'false', maxlength: 64, required: true,
    }, signup ? t('auth.name_help') : null);
    this.pass = field('auth-password', t('auth.password'), {
      type: 'password', name: 'password', autocomplete: signup ? 'new-password' : 'current-password', required: true, minlength: signup ? MIN_PASSWORD : null,
    }, signup ? t('auth.password_help', { n: MIN_PASSWORD }) : null);
    this.formMsg = h('p', { class: 'form-msg', role: 'alert', id: 'auth-msg' });
    this.submit = h('button', { class: 'btn primary big', type: 'submit', 'data-action': this.kind }, [t(`auth.${this.kind}_button`)]);
    const other = signup ? 'login' : 'signup';
    const form = h('form', { class: 'card auth-card', novalidate: true, onsubmit: (e) => { e.preventDefault(); this.send(); } }, [
      h('h2', {}, [t(`auth.${this.kind}_title`)]),
      h('p', { class: 'muted auth-intro' }, [t(`auth.${this.kind}_intro`)]),
      ...this.name.nodes, ...this.pass.nodes,
      this.formMsg, this.submit,
      h('p', { class: 'auth-switch' }, [
        t(`auth.${other}_question`), ' ',
        h('a', { href: authHash(other, this.next), 'data-action': `to-${other}` }, [t(`auth.${other}_link`)]),
      ]),
      h('p', { class: 'auth-guest muted' }, [h('a', { href: this.next, 'data-action': 'guest' }, [t('auth.as_guest')])]),
    ]);
    clear(this.el).append(form);
    this.name.input.focus();
  }

  renderLoggedIn() {
    clear(this.el).append(h('div', { class: 'card auth-card', 'data-state': 'logged-in' }, [
      h('h2', {}, [t(`auth.${this.kind}_title`)]),
      h('p', {}, [t('auth.already', { name: session.name })]),
      h('div', { class: 'invite-actions' }, [
        h('a', { href: this.next, class: 'btn primary', 'data-action': 'continue' }, [t('auth.continue')]),
        h('a', { href: profileHash(session.name), class: 'btn', 'data-action': 'profile' }, [t('auth.your_profile')]),
        h('button', { class: 'btn subtle', type: 'button', 'data-action': 'logout', onclick: () => session.logout().catch(() => {}) }, [t('account.logout')]),
      ]),
    ]));
  }

  fieldError(input, msgEl, msg) {
    msgEl.textContent = msg;
    if (msg) input.setAttribute('aria-invalid', 'true');
    else input.removeAttribute('aria-invalid');
  }

  async send() {
    const name = this.name.input.value.trim();
    const password = this.pass.input.value;
    this.formMsg.textContent = '';
    if (!name) { this.fieldError(this.name.input, this.name.msg, t('auth.name_empty')); this.name.input.focus(); return; }
    if (!password) { this.fieldError(this.pass.input, this.pass.msg, t('auth.password_empty')); this.pass.input.focus(); return; }
    if (this.kind === 'signup' && [...password].length < MIN_PASSWORD) {
      this.fieldError(this.pass.input, this.pass.msg, t('auth.password_short', { n: MIN_PASSWORD }));
      this.pass.input.focus();
      return;
    }
    this.submit.disabled = true;
    this.busy = true;
    let res;
    try {
      res = this.kind === 'signup' ? await api.signup(name, password) : await api.login(name, password);
    } catch (e) {
      this.busy = false;
      if (this.dead) return;
      this.submit.disabled = false;
      this.showError(e);
      return;
    }
    if (this.dead) return;
    await session.loggedIn(res?.name || name);
    this.busy = false;
    if (!this.dead) location.replace(this.next);
  }

  showError(e) {
    if (e.code === 'name_taken') {
      this.fieldError(this.name.input, this.name.msg, t('auth.name_taken'));
      this.name.input.focus();
    } else if (e.code === 'unauthorized' || e.status === 401) {
      this.fieldError(this.pass.input, this.pass.msg, t('auth.wrong'));
      this.pass.input.select();
    } else if (e.code === 'rate_limited' || e.status === 429) {
      this.formMsg.textContent = lockText(e);
    } else if (e.status === 400) {
      // The server's reason (its id) beside its field: a name it refuses, a password too short.
      const aboutPassword = e.reason ? /^password_/.test(e.reason) : /password/i.test(e.message);
      const f = aboutPassword ? this.pass : this.name;
      this.fieldError(f.input, f.msg, errorText(e));
      f.input.focus();
    } else {
      this.formMsg.textContent = t('auth.failed', { msg: errorText(e) });
    }
  }
}
