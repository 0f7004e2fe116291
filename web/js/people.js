// people.js — other players (docs/accounts.md, "Friends, search"): the lobby's Players
// card with a search field (GET /api/players?q= as one types, 250 ms after the last key,
// each name linking to its profile) and, logged in, the players one follows with who is
// online (seen in the last 3 minutes) and a Challenge button; a profile's Follow button.
// A guest can search; following and challenging ask to log in.
import { h, clear } from './svg.js';
import { api } from './api.js';
import { session, profileHash, authHash } from './account.js';
import { t, errorText } from './messages.js';
import { playerName } from './variants.js';
import { challengeDialog } from './challenges.js';

const DEBOUNCE_MS = 250;

// A player's name as a link to the profile, with the online dot and the computer's tag.
export function playerLink(p) {
  return h('span', { class: 'player-link', 'data-player': p.name, 'data-online': p.online ? '1' : '0' }, [
    h('span', { class: `conn ${p.online ? 'on' : 'off'}`, title: p.online ? t('people.online') : t('people.offline') }),
    h('a', { href: profileHash(p.name) }, [playerName(p.name, p.computer)]),
    p.computer ? h('span', { class: 'computer-tag' }, [t('profile.computer')]) : null,
    h('span', { class: 'visually-hidden' }, [` (${p.online ? t('people.online') : t('people.offline')})`]),
  ]);
}

export class PeopleCard {
  constructor() {
    this.input = h('input', { id: 'player-search', class: 'text-input', type: 'search', autocomplete: 'off', spellcheck: 'false', maxlength: 24, placeholder: t('people.search_placeholder'), 'aria-describedby': 'player-search-msg' });
    this.results = h('div', { class: 'search-results', id: 'search-results', role: 'status', 'aria-live': 'polite' });
    this.input.addEventListener('input', () => { clearTimeout(this.debounce); this.debounce = setTimeout(() => this.search(), DEBOUNCE_MS); });
    this.input.addEventListener('keydown', (e) => {
      // Enter opens the first name found.
      if (e.key === 'Enter') { const a = this.results.querySelector('a'); if (a) location.hash = a.getAttribute('href'); e.preventDefault(); }
    });
    this.friends = h('div', { class: 'friends', id: 'friends' });
    this.el = h('section', { class: 'card people-card' }, [
      h('h2', {}, [t('people.title')]),
      h('label', { class: 'field-label', for: 'player-search' }, [t('people.search')]),
      this.input, h('p', { class: 'muted small-note', id: 'player-search-msg' }, [t('people.search_help')]),
      this.results,
      h('h3', { class: 'friends-title' }, [t('people.friends')]),
      this.friends,
    ]);
    this.ticks = 0;
    this.onSession();
  }

  destroy() { this.dead = true; clearTimeout(this.debounce); this.dialog?.close(); }

  onSession() {
    this.followsSig = null;
    this.refresh(true);
  }

  async search() {
    const q = this.input.value.trim();
    const gen = this.gen = (this.gen || 0) + 1;
    if (!q) { clear(this.results); delete this.results.dataset.q; return; }
    let found;
    try {
      found = (await api.searchPlayers(q)).players || [];
    } catch (e) {
      if (gen !== this.gen || this.dead) return;
      clear(this.results).append(h('p', { class: 'form-msg' }, [errorText(e)]));
      return;
    }
    if (gen !== this.gen || this.dead) return; // a later key's answer counts
    this.results.dataset.q = q;
    clear(this.results);
    if (!found.length) { this.results.append(h('p', { class: 'muted' }, [t('people.none_found', { q })])); return; }
    this.results.append(h('ul', { class: 'people-list' }, found.map((p) => h('li', {}, [playerLink(p)]))));
  }

  // The follows, asked every third lobby refresh (who is online changes by the minute).
  async refresh(now = false) {
    if (!now && this.ticks++ % 3) return;
    const me = session.me;
    if (!me) {
      this.followsSig = 'guest';
      clear(this.friends).append(h('p', { class: 'muted friends-guest' }, [
        t('people.guest'), ' ', h('a', { href: authHash('login', '#/') }, [t('account.login')]), ' · ',
        h('a', { href: authHash('signup', '#/') }, [t('account.signup')]),
      ]));
      return;
    }
    let follows;
    try {
      follows = (await api.follows()).follows || [];
    } catch {
      return; // the lobby says when the server is unreachable
    }
    if (this.dead) return;
    const sig = JSON.stringify(follows);
    if (sig === this.followsSig) return;
    this.followsSig = sig;
    clear(this.friends);
    if (!follows.length) { this.friends.append(h('p', { class: 'muted' }, [t('people.no_friends')])); return; }
    // Who is online first, then by name (as the server sorts them).
    const sorted = follows.slice().sort((a, b) => Number(b.online) - Number(a.online));
    this.friends.append(h('ul', { class: 'people-list friends-list' }, sorted.map((p) => h('li', { 'data-player': p.name }, [
      playerLink(p),
      p.computer ? null : h('button', { class: 'btn small', type: 'button', 'data-action': 'challenge', onclick: () => { this.dialog = challengeDialog(p.name); } }, [t('challenge.button')]),
    ]))));
  }
}

// A profile's Follow / Unfollow button (logged in, another player's page).
export function followButton(name) {
  const btn = h('button', { class: 'btn small', type: 'button', 'data-action': 'follow', disabled: true }, [t('people.follow')]);
  const msg = h('span', { class: 'form-msg follow-msg', role: 'alert' });
  let following = false;
  const draw = () => {
    btn.dataset.following = following ? '1' : '0';
    btn.textContent = following ? t('people.unfollow') : t('people.follow');
    btn.setAttribute('aria-pressed', following ? 'true' : 'false');
    btn.classList.toggle('primary', !following);
  };
  btn.addEventListener('click', async () => {
    btn.disabled = true;
    msg.textContent = '';
    try {
      if (following) await api.unfollow(name); else await api.follow(name);
      following = !following;
    } catch (e) {
      msg.textContent = errorText(e);
    }
    draw();
    btn.disabled = false;
  });
  api.follows().then((r) => {
    const key = name.toLowerCase();
    following = (r.follows || []).some((p) => p.name.toLowerCase() === key);
    draw();
    btn.disabled = false;
  }, (e) => { msg.textContent = errorText(e); });
  draw();
  return h('span', { class: 'follow-box' }, [btn, msg]);
}
