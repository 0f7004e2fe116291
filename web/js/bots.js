// bots.js — bots on the site (docs/bot-api.md): accounts played by programs. The site's
// list of bots (its names noted for the BOT mark, bot_mark.js), and the lobby's Bots card (GET /api/bots:
// online ones first, each with its ratings, who runs it, and Challenge — the challenge
// form of challenges.js; a guest is told to log in).
import { h, clear } from './svg.js';
import { api } from './api.js';
import { session, profileHash, authHash } from './account.js';
import { t } from './messages.js';
import { VARIANTS } from './variants.js';
import { challengeDialog } from './challenges.js';
import { noteBot, botTag } from './bot_mark.js';

// Asks the site's list of bots (and remembers their names); [] when it cannot be read.
export async function loadBots() {
  const res = await api.bots();
  const bots = Array.isArray(res?.bots) ? res.bots : [];
  for (const b of bots) noteBot(b.name);
  return bots;
}

// A bot's ratings as a line: "AXIO 1540 · AXIO Hex 1498", or "not rated yet".
function ratingsLine(ratings) {
  const parts = Object.entries(VARIANTS).filter(([v]) => ratings?.[v]?.games)
    .map(([v, info]) => `${info.name} ${Math.round(ratings[v].rating)}`);
  return parts.length ? parts.join(' · ') : t('bot.unrated');
}

// The lobby's list of bots: asked at once and every third refresh of the lobby.
export class BotsCard {
  constructor() {
    this.list = h('div', { class: 'bots', id: 'bots' });
    this.msg = h('p', { class: 'form-msg bots-msg', role: 'alert' });
    this.el = h('div', { class: 'bots-box' }, [
      h('h3', { class: 'bots-title' }, [t('bot.list_title')]),
      h('p', { class: 'muted small-note' }, [t('bot.list_help')]),
      this.msg, this.list,
    ]);
    this.ticks = 0;
    this.refresh(true);
  }

  destroy() { this.dead = true; this.dialog?.close(); }

  onSession() { this.sig = null; this.refresh(true); }

  async refresh(now = false) {
    if (!now && this.ticks++ % 3) return;
    let bots;
    try {
      bots = await loadBots();
    } catch {
      return; // the lobby says when the server is unreachable
    }
    if (this.dead) return;
    const sig = JSON.stringify([bots, !!session.me]);
    if (sig === this.sig) return;
    this.sig = sig;
    clear(this.list);
    if (!bots.length) { this.list.append(h('p', { class: 'muted' }, [t('bot.none')])); return; }
    // Online first (the server lists the most recently seen first).
    const sorted = bots.slice().sort((a, b) => Number(!!b.online) - Number(!!a.online));
    this.list.append(h('ul', { class: 'people-list bots-list' }, sorted.map((b) => this.row(b))));
  }

  row(b) {
    const on = !!b.online;
    return h('li', { 'data-player': b.name, 'data-online': on ? '1' : '0' }, [
      h('div', { class: 'bot-main' }, [
        h('span', { class: 'player-link', 'data-player': b.name }, [
          h('span', { class: `conn ${on ? 'on' : 'off'}`, title: on ? t('people.online') : t('people.offline') }),
          h('a', { href: profileHash(b.name) }, [b.name]),
          botTag(),
          h('span', { class: 'visually-hidden' }, [` (${on ? t('people.online') : t('people.offline')})`]),
        ]),
        h('span', { class: 'muted bot-ratings' }, [ratingsLine(b.ratings)]),
        // Who runs it: plain text, never HTML.
        b.about ? h('span', { class: 'muted bot-about' }, [b.about]) : null,
      ]),
      // (Not oneself: a bot's own account logged in here.)
      session.name?.toLowerCase() === b.name.toLowerCase() ? null
        : h('button', { class: 'btn small', type: 'button', 'data-action': 'challenge', onclick: () => this.challenge(b.name) }, [t('challenge.button')]),
    ]);
  }

  challenge(name) {
    clear(this.msg);
    if (!session.me) {
      this.msg.append(t('bot.guest_challenge', { name }), ' ',
        h('a', { href: authHash('login', '#/'), 'data-action': 'login' }, [t('account.login')]), ' · ',
        h('a', { href: authHash('signup', '#/'), 'data-action': 'signup' }, [t('account.signup')]));
      return;
    }
    this.dialog = challengeDialog(name);
  }
}
