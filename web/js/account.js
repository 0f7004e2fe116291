// account.js — who is logged in: the answer of GET /api/me (null for a guest),
// asked once per page load and again after logging in or out, shared by every page;
// the links to the log-in and sign-up pages with the "next" page to come back to;
// and the header's account area ("Log in · Sign up" for a guest; the name, linking
// to the profile, and "Log out" for an account).
import { h, clear } from './svg.js';
import { api } from './api.js';
import { t } from './messages.js';

let me = null;          // {name, ratings} or null
let asked = null;       // the promise of the last GET /api/me
const listeners = new Set();

function notify() { for (const fn of listeners) fn(me); }

async function fetchMe() {
  try {
    me = await api.me();
    if (!me?.name) me = null; // a guest
  } catch (e) {
    if (e.status === 404) me = null; // a server without accounts
  }
  notify();
  return me;
}

export const session = {
  get me() { return me; },
  get name() { return me?.name || null; },
  // The account, or null for a guest; the server is asked once per page load.
  ready() { if (!asked) asked = fetchMe(); return asked; },
  refresh() { asked = fetchMe(); return asked; },
  // After logging in or signing up: known at once, the ratings follow.
  loggedIn(name) { me = { name, ratings: me?.name === name ? me.ratings : null }; notify(); return this.refresh(); },
  async logout() {
    try { await api.logout(); } catch (e) { if (e.code === 'network') throw e; }
    me = null;
    asked = Promise.resolve(null);
    notify();
  },
  // fn(me) after every change; returns the function that unsubscribes.
  onChange(fn) { listeners.add(fn); return () => listeners.delete(fn); },
};

// Where a profile lives: #/player/NAME (names may hold spaces and any script).
export const profileHash = (name) => `#/player/${encodeURIComponent(name)}`;

// The page to return to after logging in: only a page of this client (#/...), never
// the log-in or sign-up page itself.
export function safeNext(raw) {
  const next = typeof raw === 'string' ? raw : '';
  if (!/^#\/[^\s]*$/.test(next) || /^#\/(login|signup)(\b|$)/.test(next)) return '#/';
  return next;
}

// #/login?next=… or #/signup?next=… returning to `next` (default: this page).
export function authHash(kind, next = location.hash || '#/') {
  const here = /^#\/(login|signup)\b/.test(next) ? safeNext(new URLSearchParams(next.split('?')[1] || '').get('next')) : safeNext(next);
  return here === '#/' ? `#/${kind}` : `#/${kind}?next=${encodeURIComponent(here)}`;
}

// The header's account area, kept up to date with the session and the page.
export function mountAccountArea(el) {
  const render = () => {
    clear(el);
    if (me) {
      el.dataset.state = 'account';
      el.append(...[
        h('a', { href: profileHash(me.name), class: 'account-name', 'data-action': 'profile', title: t('account.profile_title') }, [me.name]),
        me.moderator ? h('a', { href: '#/mod', class: 'account-mod', 'data-action': 'moderation' }, [t('mod.nav')]) : null,
        h('button', { class: 'link-btn', type: 'button', 'data-action': 'logout', onclick: () => session.logout().catch(() => {}) }, [t('account.logout')]),
      ].filter(Boolean));
    } else {
      el.dataset.state = 'guest';
      el.append(
        h('a', { href: authHash('login'), 'data-action': 'login' }, [t('account.login')]),
        h('span', { class: 'sep', 'aria-hidden': 'true' }, ['·']),
        h('a', { href: authHash('signup'), 'data-action': 'signup' }, [t('account.signup')]),
      );
    }
  };
  session.onChange(render);
  window.addEventListener('hashchange', () => { if (!me && el.dataset.state) render(); });
  session.ready().then(render);
}
