// leaderboard.js — the leaderboard of one variant (#/leaderboard/VARIANT) from
// GET /api/leaderboard: a tab per variant, then rank, name (to the profile),
// rating (with "?" while provisional), ±D and games; computer players marked; then the
// bots' own leaderboard (GET /api/leaderboard?bots=1: people and bots are rated apart,
// docs/bot-api.md), each marked BOT; a short explanation of what the numbers mean
// (docs/ratings.md).
import { h, clear } from './svg.js';
import { api } from './api.js';
import { session, profileHash } from './account.js';
import { t, errorText } from './messages.js';
import { VARIANTS, playerName } from './variants.js';
import { deviationText, isProvisional } from './ratings.js';
import { isBot, botTag } from './bot_mark.js';

export class LeaderboardPage {
  constructor(root, variant) {
    this.variant = VARIANTS[variant] ? variant : 'square';
    this.dead = false;
    this.list = h('div', { class: 'board-list people-board', role: 'status' }, [h('span', { class: 'spinner' }), ` ${t('leaderboard.loading')}`]);
    const tabs = h('nav', { class: 'tabs', 'aria-label': t('leaderboard.tabs') }, Object.entries(VARIANTS).map(([v, info]) => h('a', {
      href: `#/leaderboard/${v}`, class: `tab${v === this.variant ? ' active' : ''}`, 'data-variant': v,
      'aria-current': v === this.variant ? 'page' : null,
    }, [info.name])));
    clear(root).append(h('div', { class: 'leaderboard-page', 'data-variant': this.variant }, [
      h('section', { class: 'card' }, [
        h('h2', {}, [t('leaderboard.title')]),
        tabs,
        this.list,
        h('h3', { class: 'bots-board-title' }, [t('leaderboard.bots_title')]),
        h('p', { class: 'muted rating-explain' }, [t('leaderboard.bots_note')]),
        this.botList = h('div', { class: 'board-list bots-board', role: 'status' }, [h('span', { class: 'spinner' })]),
        h('p', { class: 'muted rating-explain' }, [t('rating.explain')]),
        h('p', { class: 'muted rating-explain' }, [t('leaderboard.provisional_note')]),
      ]),
    ]));
    document.title = `axio · ${t('leaderboard.title')} · ${VARIANTS[this.variant].name}`;
    this.load();
  }

  destroy() { this.dead = true; }

  onSession() {
    if (this.rows) this.show(this.list, this.rows, 'leaderboard.empty');
    if (this.botRows) this.show(this.botList, this.botRows, 'leaderboard.bots_empty');
  }

  load() {
    this.loadOne(this.list, {}, 'leaderboard.empty', (rows) => { this.rows = rows; });
    this.loadOne(this.botList, { bots: true }, 'leaderboard.bots_empty', (rows) => { this.botRows = rows; });
  }

  async loadOne(box, opts, empty, keep) {
    let rows;
    try {
      rows = await api.leaderboard(this.variant, opts);
      await session.ready();
    } catch (e) {
      if (this.dead) return;
      clear(box).append(h('p', { class: 'form-msg' }, [t('leaderboard.error', { msg: errorText(e) })]));
      return;
    }
    if (this.dead) return;
    rows = Array.isArray(rows) ? rows : rows?.players || [];
    keep(rows);
    this.show(box, rows, empty);
  }

  show(box, rows, empty) {
    if (!rows.length) { clear(box).append(h('p', { class: 'muted' }, [t(empty)])); return; }
    const me = session.name?.toLowerCase();
    const table = h('table', { class: 'leaderboard' }, [
      h('thead', {}, [h('tr', {}, [
        h('th', { class: 'rank', scope: 'col' }, ['#']),
        h('th', { class: 'who', scope: 'col' }, [t('leaderboard.player')]),
        h('th', { class: 'num', scope: 'col' }, [t('leaderboard.rating')]),
        h('th', { class: 'num dev', scope: 'col', title: t('leaderboard.deviation_title') }, ['±']),
        h('th', { class: 'num', scope: 'col' }, [t('leaderboard.games')]),
      ])]),
      h('tbody', {}, rows.map((r, i) => h('tr', {
        class: `${r.computer ? 'computer' : ''}${r.bot ? ' bot' : ''}${me && r.name.toLowerCase() === me ? ' you' : ''}`,
        'data-name': r.name, 'data-provisional': (r.provisional ?? isProvisional(r)) ? '1' : '0',
      }, [
        h('td', { class: 'rank' }, [String(i + 1)]),
        h('td', { class: 'who' }, [
          h('a', { href: profileHash(r.name) }, [playerName(r.name, r.computer)]),
          r.computer ? h('span', { class: 'computer-tag', title: t('profile.computer_title') }, [t('profile.computer')]) : null,
          !r.computer && isBot(r) ? botTag() : null,
        ]),
        h('td', { class: 'num rating', title: (r.provisional ?? isProvisional(r)) ? t('rating.provisional_title') : null }, [
          `${Math.round(r.rating)}${(r.provisional ?? isProvisional(r)) ? '?' : ''}`,
        ]),
        h('td', { class: 'num dev muted' }, [deviationText(r)]),
        h('td', { class: 'num' }, [String(r.games ?? '')]),
      ]))),
    ]);
    clear(box).append(table);
  }
}
