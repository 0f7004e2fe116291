// profile.js — a player's page (#/player/NAME), from GET /api/players/NAME: the
// rating in each variant (R, ±D, games), a chart of the rating over time per
// variant (rating_chart.js), the recent games with place, rating change and a link
// to the replay. Another player's profile: whether they are online, Follow, and a
// challenge to a game (variant, clock, rated: challenges.js; a guest is asked to log
// in). A bot's profile is marked BOT and says who runs it (`about`, as text). On one's own
// profile: change the password, the personal API tokens and making the account a bot
// (tokens.js), delete the account (a dialog asks the password). Computer levels have
// profiles too.
import { h, clear } from './svg.js';
import { api } from './api.js';
import { session, authHash } from './account.js';
import { followButton } from './people.js';
import { challengeForm, sentLine } from './challenges.js';
import { lockText } from './auth.js';
import { t, joinNames, errorText } from './messages.js';
import { VARIANTS, modeName, playerName } from './variants.js';
import { ratingText, deviationText, changeText, changeClass, placeText, isProvisional } from './ratings.js';
import { chartPoints, ratingChart } from './rating_chart.js';
import { ageText } from './lobby_lists.js';
import { lang } from './lang.js';
import { isBot, botTag } from './bot_mark.js';
import { tokensSection, becomeBotSection } from './tokens.js';
import { blockButton, reportButton } from './moderation.js';
import { notificationsSection } from './notify.js';

const MIN_PASSWORD = 8;

export class ProfilePage {
  constructor(root, name) {
    this.name = name;
    this.dead = false;
    this.el = h('div', { class: 'profile-page' }, [h('div', { class: 'card' }, [h('span', { class: 'spinner' }), ` ${t('profile.loading')}`])]);
    clear(root).append(this.el);
    document.title = `axio · ${name}`;
    this.onResize = () => { clearTimeout(this.resizeTimer); this.resizeTimer = setTimeout(() => this.drawCharts(), 150); };
    window.addEventListener('resize', this.onResize);
    this.load();
  }

  destroy() {
    this.dead = true;
    window.removeEventListener('resize', this.onResize);
    clearTimeout(this.resizeTimer);
    this.dialog?.remove();
  }

  // Logged in or out: the settings of one's own profile come or go.
  onSession() { if (this.data && !this.deleted) this.render(); }

  async load() {
    let data;
    try {
      [data] = await Promise.all([api.player(this.name), session.ready()]);
    } catch (e) {
      if (this.dead) return;
      clear(this.el).append(h('div', { class: 'card missing', 'data-state': e.status === 404 ? 'unknown' : 'error' }, [
        h('h2', {}, [e.status === 404 ? t('profile.unknown_title') : t('profile.error_title')]),
        h('p', {}, [e.status === 404 ? t('profile.unknown_text', { name: this.name }) : errorText(e)]),
        h('a', { href: '#/leaderboard/square', class: 'btn' }, [t('leaderboard.title')]), ' ',
        h('a', { href: '#/', class: 'btn primary' }, [t('gone.lobby')]),
      ]));
      return;
    }
    if (this.dead) return;
    this.data = data;
    // Online or not: the search by the start of a name says it (the profile does not).
    api.searchPlayers(data.name).then((r) => {
      const p = (r.players || []).find((x) => x.name === data.name);
      if (this.dead || !p || !this.onlineEl) return;
      this.online = p.online;
      this.drawOnline();
    }, () => {});
    document.title = `axio · ${playerName(data.name, data.computer)}`;
    this.render();
  }

  // After the account became a bot: the profile as the server now has it.
  async reload() {
    try { this.data = await api.player(this.name); } catch { return; }
    await session.refresh();
    if (!this.dead) this.render();
  }

  get own() { return !!session.name && !!this.data && session.name.toLowerCase() === this.data.name.toLowerCase(); }

  render() {
    const d = this.data;
    const games = Array.isArray(d.games) ? d.games : [];
    this.chartBox = h('div', { class: 'charts' });
    // (Element.append would write a null out as the word "null".)
    clear(this.el).append(...[
      h('section', { class: 'card profile-head', 'data-player': d.name }, [
        h('h2', { class: 'profile-name' }, [
          h('span', { class: 'player-name' }, [playerName(d.name, d.computer)]),
          d.computer ? h('span', { class: 'computer-tag', title: t('profile.computer_title') }, [t('profile.computer')]) : null,
          !d.computer && isBot(d) ? botTag() : null,
          this.own ? h('span', { class: 'you-tag' }, [t('profile.you')]) : null,
          this.onlineEl = h('span', { class: 'online-tag', hidden: true }),
        ]),
        // Who runs a bot and which engine: the owner's words, as text (never HTML).
        isBot(d) ? h('p', { class: 'bot-about-line' }, [h('span', { class: 'field-label' }, [t('bot.about_label')]), ' ',
          h('span', { class: 'bot-about' }, [d.about || t('bot.about_none')])]) : null,
        this.own ? null : this.actions(d),
        this.ratingCards(d.ratings || {}),
        h('p', { class: 'muted rating-explain' }, [t('rating.explain'), ' ', h('a', { href: '#/leaderboard/square' }, [t('profile.to_leaderboard')])]),
      ]),
      this.own || d.computer ? null : this.challengeBox(d),
      h('section', { class: 'card profile-charts' }, [h('h3', {}, [t('profile.chart_title')]), this.chartBox]),
      h('section', { class: 'card profile-games' }, [h('h3', {}, [t('profile.games_title')]), this.gameList(games)]),
      this.own ? tokensSection() : null,
      this.own ? notificationsSection() : null,
      this.own && !isBot(d) ? becomeBotSection(d, () => this.reload()) : null,
      this.own ? this.settings() : null,
    ].filter(Boolean));
    this.drawCharts();
    this.drawOnline();
  }

  drawOnline() {
    const el = this.onlineEl;
    if (!el || this.online === undefined) return;
    el.hidden = false;
    el.dataset.online = this.online ? '1' : '0';
    clear(el).append(h('span', { class: `conn ${this.online ? 'on' : 'off'}`, 'aria-hidden': 'true' }), ` ${this.online ? t('people.online') : t('people.offline')}`);
  }

  // Follow (logged in), or how a guest gets to.
  actions(d) {
    if (!session.me) {
      return h('p', { class: 'muted profile-guest' }, [
        t(d.computer ? 'people.guest_follow' : 'people.guest_challenge', { name: playerName(d.name, d.computer) }), ' ',
        h('a', { href: authHash('login'), 'data-action': 'login' }, [t('account.login')]), ' · ',
        h('a', { href: authHash('signup'), 'data-action': 'signup' }, [t('account.signup')]),
      ]);
    }
    // Block and Report (docs/moderation.md): a person's profile only, never a computer's.
    return h('div', { class: 'profile-actions' }, [followButton(d.name),
      d.computer ? null : blockButton(d.name), d.computer ? null : reportButton(d.name)]);
  }

  // Challenge this player (logged in): the form, then what became of the challenge.
  challengeBox(d) {
    if (!session.me) return null;
    const status = h('div', { class: 'challenge-status-box' });
    const box = h('section', { class: 'card profile-challenge', id: 'profile-challenge' }, [
      h('h3', {}, [t('challenge.title', { name: d.name })]),
      challengeForm(d.name, { onSent: (c) => { clear(status).append(sentLine(c)); } }),
      status,
    ]);
    return box;
  }

  ratingCards(ratings) {
    return h('div', { class: 'rating-cards' }, Object.keys(VARIANTS).map((v) => {
      const r = ratings[v];
      const games = r?.games ?? 0;
      return h('div', { class: `rating-card${games ? '' : ' none'}`, 'data-variant': v, 'data-rating': r ? Math.round(r.rating) : '' }, [
        h('div', { class: 'rating-variant' }, [VARIANTS[v].name]),
        h('div', { class: 'rating-big', title: isProvisional(r) ? t('rating.provisional_title') : '' }, [r ? ratingText(r) : '—']),
        h('div', { class: 'muted rating-sub' }, [r ? `${deviationText(r)} · ${t('rating.games', { n: games })}` : t('rating.games', { n: 0 })]),
      ]);
    }));
  }

  drawCharts() {
    if (!this.chartBox || !this.data) return;
    const games = Array.isArray(this.data.games) ? this.data.games : [];
    clear(this.chartBox);
    const width = Math.min(820, this.chartBox.clientWidth || 600);
    let any = false;
    for (const v of Object.keys(VARIANTS)) {
      const pts = chartPoints(games, v);
      if (pts.length < 2) continue;
      any = true;
      this.chartBox.append(h('figure', { class: 'chart', 'data-variant': v }, [
        h('figcaption', {}, [VARIANTS[v].name]),
        ratingChart(pts, { width, label: t('chart.label', { game: VARIANTS[v].name, name: playerName(this.data.name, this.data.computer) }) }),
      ]));
    }
    if (!any) this.chartBox.append(h('p', { class: 'muted' }, [t('profile.no_rated')]));
  }

  gameList(games) {
    if (!games.length) return h('p', { class: 'muted' }, [t('profile.no_games')]);
    return h('div', { class: 'pgame-list' }, games.map((g) => {
      const n = Array.isArray(g.players) ? g.players.length : g.players;
      const facts = [t('lobby.players', { n }), modeName(g.mode), g.rated ? t('rating.rated') : t('rating.casual')];
      const who = Array.isArray(g.players) ? joinNames(g.players.map((p) => (typeof p === 'string' ? p : p?.name || ''))) : '';
      return h('div', { class: `pgame${g.rated ? ' rated' : ''}`, 'data-game': g.id, 'data-variant': g.variant }, [
        h('div', { class: 'pgame-main' }, [
          h('b', {}, [VARIANTS[g.variant]?.name || g.variant]),
          h('span', { class: 'muted' }, [` ${facts.join(' · ')}`]),
          g.ended ? h('span', { class: 'muted game-age', title: new Date(g.ended * 1000).toLocaleString(lang()) }, [` · ${ageText(g.ended)}`]) : null,
          who ? h('div', { class: 'muted pgame-who' }, [who]) : null,
        ]),
        h('div', { class: 'pgame-place', 'data-place': g.place ?? '' }, [placeText(g.place, n)]),
        h('div', { class: `pgame-change rating-change ${changeClass(g.rating_change)}`, 'data-change': g.rating_change ?? '' }, [
          g.rated ? changeText(g.rating_change) : '',
          g.rated && g.rating_after !== null && g.rating_after !== undefined ? h('small', { class: 'muted' }, [` → ${Math.round(g.rating_after)}`]) : null,
        ]),
        h('a', { class: 'btn small', href: `#/game/${encodeURIComponent(g.id)}/replay`, 'data-action': 'replay' }, [t('lobby.replay')]),
      ]);
    }));
  }

  // ---- one's own account ---------------------------------------------------------
  settings() {
    const cur = h('input', { id: 'pw-current', class: 'text-input', type: 'password', autocomplete: 'current-password' });
    const nw = h('input', { id: 'pw-new', class: 'text-input', type: 'password', autocomplete: 'new-password', minlength: MIN_PASSWORD });
    const msg = h('p', { class: 'form-msg', role: 'status', id: 'pw-msg' });
    const btn = h('button', { class: 'btn primary', type: 'submit', 'data-action': 'change-password' }, [t('profile.pw_button')]);
    const form = h('form', { class: 'pw-form', novalidate: true, onsubmit: async (e) => {
      e.preventDefault();
      msg.className = 'form-msg';
      if (!cur.value) { msg.textContent = t('auth.password_empty'); cur.focus(); return; }
      if ([...nw.value].length < MIN_PASSWORD) { msg.textContent = t('auth.password_short', { n: MIN_PASSWORD }); nw.focus(); return; }
      btn.disabled = true;
      try {
        await api.changePassword(cur.value, nw.value);
        cur.value = ''; nw.value = '';
        msg.className = 'form-msg ok';
        msg.textContent = t('profile.pw_changed');
      } catch (err) {
        msg.textContent = err.status === 401 ? t('auth.wrong_password') : err.status === 429 ? lockText(err) : errorText(err);
      }
      btn.disabled = false;
    } }, [
      h('h4', {}, [t('profile.pw_title')]),
      h('label', { class: 'field-label', for: 'pw-current' }, [t('profile.pw_current')]), cur,
      h('label', { class: 'field-label', for: 'pw-new' }, [t('profile.pw_new')]), nw,
      h('p', { class: 'muted small-note' }, [t('auth.password_help', { n: MIN_PASSWORD })]),
      msg, btn,
    ]);
    return h('section', { class: 'card profile-settings' }, [
      h('h3', {}, [t('profile.settings_title')]),
      form,
      h('div', { class: 'delete-box' }, [
        h('h4', {}, [t('profile.delete_title')]),
        h('p', { class: 'muted' }, [t('profile.delete_text')]),
        h('button', { class: 'btn danger-subtle', type: 'button', 'data-action': 'delete-account', onclick: () => this.askDelete() }, [t('profile.delete_button')]),
      ]),
    ]);
  }

  askDelete() {
    this.dialog?.remove();
    const pw = h('input', { id: 'delete-password', class: 'text-input', type: 'password', autocomplete: 'current-password' });
    const msg = h('p', { class: 'form-msg', role: 'alert' });
    const close = () => { this.dialog?.remove(); this.dialog = null; };
    const ok = h('button', { class: 'btn danger', type: 'submit', 'data-action': 'confirm-delete' }, [t('profile.delete_confirm')]);
    const form = h('form', { class: 'modal confirm-dialog delete-dialog', role: 'dialog', 'aria-modal': 'true', 'aria-label': t('profile.delete_title'), novalidate: true, onsubmit: async (e) => {
      e.preventDefault();
      if (!pw.value) { msg.textContent = t('auth.password_empty'); pw.focus(); return; }
      ok.disabled = true;
      try {
        await api.deleteAccount(pw.value);
      } catch (err) {
        ok.disabled = false;
        msg.textContent = err.status === 401 ? t('auth.wrong_password') : err.status === 429 ? lockText(err) : errorText(err);
        pw.select();
        return;
      }
      close();
      this.deleted = true;
      await session.refresh();
      clear(this.el).append(h('div', { class: 'card', 'data-state': 'deleted' }, [
        h('h2', {}, [t('profile.deleted_title')]), h('p', {}, [t('profile.deleted_text')]),
        h('a', { href: '#/', class: 'btn primary', 'data-action': 'lobby' }, [t('gone.lobby')]),
      ]));
    } }, [
      h('h2', {}, [t('profile.delete_title')]),
      h('p', {}, [t('profile.delete_ask', { name: this.data.name })]),
      h('label', { class: 'field-label', for: 'delete-password' }, [t('auth.password')]), pw, msg,
      h('div', { class: 'dialog-buttons' }, [
        h('button', { class: 'btn', type: 'button', 'data-action': 'cancel', onclick: close }, [t('profile.delete_keep')]),
        ok,
      ]),
    ]);
    this.dialog = h('div', { class: 'modal-back page-modal', onkeydown: (e) => { if (e.key === 'Escape') close(); } }, [form]);
    document.body.append(this.dialog);
    pw.focus();
  }
}
