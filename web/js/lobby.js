// lobby.js — the lobby page: create a game (variant, players, mode, each seat a
// human or a computer with its level, a clock, rated or casual, your name — or,
// logged in, the account's), and see your games, the open and running games to
// join, resume or watch, and the finished ones to replay (rows: lobby_lists.js).
// The open and running games come a page at a time from the server (people first),
// all or one variant; "Show more" asks for the next page. Refreshes the lists every
// few seconds. Cancelling a game of yours asks first. On a phone your own games and
// the form come before the public lists. Links to the leaderboard. Logged in, My games
// also lists the account's games from every device (GET /api/me/games), merged with
// this browser's token games; above them a quick game (quick.js) and the challenges
// received and sent (challenges.js); the Players card searches players and lists the
// ones followed (people.js), then the site's bots with Challenge (bots.js). Below My games
// the upcoming and running events, with the link to the events page (events.js).
import { h, clear } from './svg.js';
import { api, tokens, prefs, created } from './api.js';
import { session, profileHash, authHash } from './account.js';
import { t, tv, errorText } from './messages.js';
import { rulesLabel } from './rules/labels.js';
import { CLOCK_PRESETS } from './clock.js';
import { fillList, myGameIds, sortMine, setAccountGames } from './lobby_lists.js';
import { QuickGame } from './quick.js';
import { ChallengeList } from './challenges.js';
import { PeopleCard } from './people.js';
import { BotsCard } from './bots.js';
import { EventsCard } from './events.js';
import { ensureShapeDefs, shapeIcon } from './colors.js';
import { VARIANTS, modeName, LEVELS, levelName } from './variants.js';
import { s, svgRoot } from './svg.js';
import { drawSquareDomino } from './board_square.js';
import { drawHexDomino } from './board_hex.js';
import { drawRotaTile } from './board_rota.js';
import { learnLinks } from './guide.js';
import * as dialogs from './dialogs.js';
import { offerForClock, offerForGame } from './notify.js';

const PAGE = 10; // games per page of a public list

// A small picture of each game for the variant picker.
function thumb(variant) {
  if (variant === 'rota') {
    const svg = svgRoot('-2 -2 124 124', { width: 44, height: 44, class: 'thumb', 'aria-hidden': 'true' });
    drawRotaTile(svg, [0, 0], ['red', 'green', 'blue', 'orange']);
    drawRotaTile(svg, [1, 0], ['purple', 'red', 'green', 'blue']);
    drawRotaTile(svg, [0, 1], ['orange', 'blue', 'purple', null]);
    drawRotaTile(svg, [1, 1], ['blue', 'orange', 'red', 'green']);
    return svg;
  }
  if (variant === 'hex') {
    const svg = svgRoot('-60 -44 100 100', { width: 44, height: 44, class: 'thumb', 'aria-hidden': 'true' });
    drawHexDomino(svg, [-1, 0], [0, 0], 'yellow', 'blue');
    drawHexDomino(svg, [0, 1], [-1, 1], 'purple', 'purple');
    return svg;
  }
  const svg = svgRoot('12 12 120 120', { width: 44, height: 44, class: 'thumb', 'aria-hidden': 'true' });
  s('rect', { x: 12, y: 12, width: 120, height: 120, fill: '#f4efe4' }, svg);
  drawSquareDomino(svg, [0, 0], [0, 1], 'red', 'green');
  drawSquareDomino(svg, [1, 2], [2, 2], 'blue', 'orange');
  drawSquareDomino(svg, [2, 0], [2, 1], 'purple', 'purple');
  return svg;
}

export class Lobby {
  constructor(root) {
    ensureShapeDefs();
    this.root = root;
    this.cfg = { variant: 'square', players: 2, mode: 'standard', seats: [{ kind: 'human' }, { kind: 'ai', level: 'greedy' }], clock: 'none', rated: false };
    this.ticks = 0;
    this.filter = '';                       // a variant, or '' for all
    this.pages = { waiting: 1, running: 1 }; // pages of each public list shown
    this.build();
    this.refresh();
    this.timer = setInterval(() => this.refresh(), 4000);
  }

  destroy() {
    clearInterval(this.timer);
    this.closeDialog?.();
    this.quick.destroy();
    this.challengeList.destroy();
    this.people.destroy();
    this.bots.destroy();
    this.events.destroy();
  }

  build() {
    this.nameInput = h('input', { id: 'player-name', type: 'text', maxlength: 24, autocomplete: 'nickname', placeholder: t('lobby.your_name'), value: prefs.name, 'aria-describedby': 'player-name-msg' });
    // A name the server refused is said here, under the field (marked and focused).
    this.nameMsg = h('p', { id: 'player-name-msg', class: 'form-msg field-msg', role: 'alert' });
    this.nameInput.addEventListener('input', () => { prefs.name = this.nameInput.value.trim(); this.nameError(''); });
    this.nameBox = h('div', { class: 'name-box' });
    this.ratedBox = h('div', { class: 'seg', role: 'radiogroup', 'aria-label': t('rated.label') });
    this.ratedNote = h('p', { class: 'muted small-note rated-note', id: 'rated-note' });
    this.variantBox = h('div', { class: 'variant-pick', role: 'radiogroup', 'aria-label': t('lobby.game') });
    this.playersBox = h('div', { class: 'seg', role: 'radiogroup', 'aria-label': t('lobby.players_label') });
    this.modeBox = h('div', { class: 'seg', role: 'radiogroup', 'aria-label': t('lobby.mode') });
    this.seatsBox = h('div', { class: 'seat-list' });
    this.clockBox = h('div', { class: 'seg clock-seg', role: 'radiogroup', 'aria-label': t('clock.label') });
    const num = (id, max, value) => h('input', { id, type: 'number', min: 0, max, step: 1, value, inputmode: 'numeric', class: 'num' });
    this.clockMin = num('clock-min', 180, 5);
    this.clockSec = num('clock-sec', 59, 0);
    this.clockInc = num('clock-inc', 600, 3);
    this.customBox = h('div', { class: 'clock-custom', hidden: true }, [
      h('label', { for: 'clock-min' }, [this.clockMin, ` ${t('clock.base_min')}`]),
      h('label', { for: 'clock-sec' }, [this.clockSec, ` ${t('clock.base_sec')}`]),
      h('label', { for: 'clock-inc' }, ['+ ', this.clockInc, ` ${t('clock.increment')}`]),
      h('p', { class: 'muted small-note' }, [t('clock.custom_help')]),
    ]);
    this.msg = h('p', { class: 'form-msg', role: 'alert' });
    this.createBtn = h('button', { class: 'btn primary big', type: 'submit', id: 'create-game' }, [t('lobby.create')]);
    // On a wide screen the button stays in sight at the window's foot while the form runs
    // below it (lobby CSS: sticky), and sits in its place at the form's end.
    const form = h('form', { class: 'card create-card', onsubmit: (e) => { e.preventDefault(); this.create(); } }, [
      h('h2', {}, [t('lobby.new_game')]),
      this.nameBox,
      h('div', { class: 'field-label' }, [t('lobby.game')]), this.variantBox,
      h('div', { class: 'row2' }, [
        h('div', {}, [h('div', { class: 'field-label' }, [t('lobby.players_label')]), this.playersBox]),
        h('div', {}, [h('div', { class: 'field-label' }, [t('lobby.mode')]), this.modeBox]),
      ]),
      h('div', { class: 'field-label' }, [t('lobby.seats')]), this.seatsBox,
      h('div', { class: 'field-label' }, [t('clock.label')]), this.clockBox, this.customBox,
      h('div', { class: 'field-label' }, [t('rated.label')]), this.ratedBox, this.ratedNote,
      h('div', { class: 'create-foot' }, [this.msg, this.createBtn]),
    ]);
    this.myList = h('div', { class: 'game-list', id: 'my-games' });
    this.openList = h('div', { class: 'game-list', id: 'open-games' });
    this.runList = h('div', { class: 'game-list', id: 'running-games' });
    this.overList = h('div', { class: 'game-list', id: 'finished-games' });
    this.listMsg = h('p', { class: 'muted list-msg', role: 'status' });
    this.myHead = h('h2', {}, [t('lobby.my_games')]);
    // The public lists come a page at a time, for one variant or all (docs/protocol.md).
    this.filterBox = h('div', { class: 'seg list-filter', role: 'radiogroup', 'aria-label': t('lobby.filter') });
    this.more = {};
    for (const status of ['waiting', 'running']) {
      this.more[status] = h('button', { class: 'btn small more-btn', type: 'button', hidden: true, 'data-action': `more-${status}`, onclick: () => { this.pages[status]++; this.refresh(); } }, [t('lobby.more')]);
    }
    this.quick = new QuickGame();
    this.challengeList = new ChallengeList();
    this.people = new PeopleCard();
    this.bots = new BotsCard();
    this.events = new EventsCard();
    this.people.el.append(this.bots.el);
    const top = h('section', { class: 'card lobby-top' }, [
      learnLinks(),
      h('p', { class: 'lobby-links' }, [
        h('span', { class: 'lobby-rules' }, [`${rulesLabel('lobby')}: `, ...Object.entries(VARIANTS).flatMap(([v, info], i) => [
          i ? ' · ' : '', h('a', { href: `#/rules/${v}`, 'data-action': 'rules', 'data-variant': v }, [info.name])])]),
        h('a', { href: '#/leaderboard/square', 'data-action': 'leaderboard' }, [t('lobby.leaderboard')])]),
      this.listMsg,
      this.quick.el,
      this.challengeList.el,
      this.myHead, this.myList,
      this.events.el,
    ]);
    // Phones stack: your own games, then the form, then the public lists (lobby CSS).
    const lists = h('section', { class: 'card games-card' }, [
      h('div', { class: 'list-filter-row' }, [h('span', { class: 'field-label' }, [t('lobby.filter')]), this.filterBox]),
      h('h2', {}, [t('lobby.open_games')]), this.openList, this.more.waiting,
      h('h2', {}, [t('lobby.running_games')]), this.runList, this.more.running,
      h('h2', {}, [t('lobby.finished')]), this.overList,
    ]);
    clear(this.root).appendChild(h('div', { class: 'lobby' }, [form, top, this.people.el, lists]));
    this.renderFilter();
    this.renderForm();
    session.ready().then(() => this.onSession());
  }

  renderFilter() {
    this.radio(this.filterBox, 'list-variant', [{ value: '', label: [t('lobby.filter_all')] },
      ...Object.entries(VARIANTS).map(([v, info]) => ({ value: v, label: [info.name] }))], this.filter, (v) => {
      this.filter = v;
      this.pages = { waiting: 1, running: 1 };
      this.renderFilter();
      this.refresh();
    });
  }

  // The pages of one public list asked for so far, in order, each game once; more: a next page exists.
  async publicList(status) {
    const out = [], seen = new Set();
    let cursor = null, more = false;
    for (let i = 0; i < this.pages[status]; i++) {
      const page = await api.listGames({ status, variant: this.filter || null, limit: PAGE, cursor });
      for (const g of page.games || []) if (!seen.has(g.id)) { seen.add(g.id); out.push(g); }
      cursor = page.next;
      more = !!cursor;
      if (!cursor) break;
    }
    return { games: out, more };
  }

  // Logged in: the account's name is used (no field); a guest types a name.
  onSession() {
    if (!this.nameBox) return;
    const me = session.me;
    clear(this.nameBox);
    this.nameBox.dataset.state = me ? 'account' : 'guest';
    if (me) {
      this.nameBox.append(h('p', { class: 'playing-as' }, [
        t('lobby.playing_as'), ' ', h('a', { href: profileHash(me.name), class: 'account-name' }, [me.name]),
      ]));
      // A bot plays through the Bot API only: the server refuses its games here.
      if (me.bot) this.nameBox.append(h('p', { class: 'form-msg bot-account-note', role: 'note' }, [t('bot.account_note')]));
    } else {
      this.nameBox.append(
        h('label', { class: 'field-label', for: 'player-name' }, [t('lobby.your_name')]), this.nameInput, this.nameMsg,
        h('p', { class: 'muted small-note guest-note' }, [
          h('a', { href: authHash('signup', '#/') }, [t('lobby.signup_for_rating')]), ' · ',
          h('a', { href: authHash('login', '#/') }, [t('account.login')]),
        ]),
      );
    }
    this.renderForm();
    this.quick.onSession();
    this.people.onSession();
    this.bots.onSession();
    this.refresh();
  }

  radio(box, name, options, value, onPick) {
    clear(box);
    for (const o of options) {
      const id = `${name}-${o.value}`;
      const input = h('input', { type: 'radio', name, id, value: o.value, checked: String(o.value) === String(value), disabled: o.disabled });
      input.addEventListener('change', () => onPick(o.value));
      box.appendChild(h('label', { class: `opt${o.disabled ? ' disabled' : ''}`, for: id }, [input, o.icon || null, h('span', {}, o.label)]));
    }
  }

  renderForm() {
    const c = this.cfg;
    this.radio(this.variantBox, 'variant', Object.entries(VARIANTS).map(([v, info]) => ({
      value: v, label: [h('b', {}, [info.name]), h('small', {}, [info.blurb])], icon: thumb(v),
    })), c.variant, (v) => { c.variant = v; this.fixMode(); this.renderForm(); });
    this.radio(this.playersBox, 'players', [1, 2, 3, 4].map((n) => ({ value: n, label: [String(n)] })), c.players, (n) => {
      c.players = Number(n);
      while (c.seats.length < c.players) c.seats.push({ kind: 'ai', level: 'greedy' });
      c.seats.length = c.players;
      this.fixMode();
      this.renderForm();
    });
    const modes = [
      { value: 'standard', label: [modeName('standard')], disabled: c.players === 1 },
      { value: 'solo', label: [modeName('solo')], disabled: c.players !== 1 },
      { value: 'team', label: [modeName('team')], disabled: !(c.variant === 'hex' && c.players === 4) },
    ];
    this.radio(this.modeBox, 'mode', modes, c.mode, (m) => { c.mode = m; this.renderForm(); });
    this.radio(this.clockBox, 'clock', ['none', 'blitz', 'rapid', 'daily', 'custom'].map((k) => ({ value: k, label: [t(`clock.${k}`)] })), c.clock, (k) => {
      c.clock = k;
      this.renderForm();
    });
    this.customBox.hidden = c.clock !== 'custom';
    // Rated needs an account, a clock and other players (docs/protocol.md "Ratings").
    const why = !session.me ? 'login' : c.clock === 'none' ? 'clock' : c.mode === 'solo' ? 'solo' : null;
    if (why) c.rated = false;
    this.radio(this.ratedBox, 'rated', [
      { value: 'casual', label: [t('rated.casual')] },
      { value: 'rated', label: [t('rated.rated')], disabled: !!why },
    ], c.rated ? 'rated' : 'casual', (v) => { c.rated = v === 'rated'; this.renderForm(); });
    clear(this.ratedNote);
    this.ratedNote.dataset.why = why || '';
    if (why === 'login') {
      this.ratedNote.append(t('rated.why_login'), ' ', h('a', { href: authHash('login', '#/') }, [t('account.login')]), ' · ', h('a', { href: authHash('signup', '#/') }, [t('account.signup')]));
    } else if (why) {
      this.ratedNote.append(t(`rated.why_${why}`));
    } else {
      this.ratedNote.append(t(c.rated ? 'rated.note_rated' : 'rated.note_casual'));
    }
    clear(this.seatsBox);
    let firstHuman = c.seats.findIndex((s) => s.kind === 'human');
    c.seats.forEach((seat, i) => {
      const sel = h('select', { id: `seat-${i}`, 'aria-label': t('lobby.seat', { n: i + 1 }) }, [
        h('option', { value: 'human', selected: seat.kind === 'human' }, [t(i === firstHuman ? 'lobby.human_you' : 'lobby.human_invite')]),
        ...LEVELS.map((l) => h('option', { value: `ai:${l}`, selected: seat.kind === 'ai' && seat.level === l }, [t('lobby.computer_level', { level: levelName(l) })])),
      ]);
      sel.addEventListener('change', () => {
        const v = sel.value;
        c.seats[i] = v === 'human' ? { kind: 'human' } : { kind: 'ai', level: v.slice(3) };
        this.renderForm();
      });
      const team = c.mode === 'team' ? h('small', { class: 'muted' }, [t('lobby.team', { team: i % 2 === 0 ? 'A' : 'B' })]) : null;
      const about = seat.kind === 'ai' && LEVELS.includes(seat.level) ? h('small', { class: 'muted level-about' }, [tv(`ai.desc.${seat.level}`, c.variant)]) : null;
      this.seatsBox.appendChild(h('div', { class: 'seat-row' }, [h('label', { for: `seat-${i}` }, [t('lobby.seat', { n: i + 1 }), team]), sel, about]));
    });
    firstHuman = c.seats.findIndex((s) => s.kind === 'human');
    this.createBtn.disabled = firstHuman < 0;
    this.msg.textContent = firstHuman < 0 ? t('lobby.need_human') : '';
  }

  // The server's reason for refusing the guest's name, at the field ('' clears it).
  nameError(text) {
    this.nameMsg.textContent = text;
    if (text) this.nameInput.setAttribute('aria-invalid', 'true');
    else this.nameInput.removeAttribute('aria-invalid');
  }

  // A refused name (400 with a name_… reason) goes to the field, which gets the focus.
  refusedName(e) {
    if (session.me || e.status !== 400 || !String(e.reason || '').startsWith('name_') || !this.nameInput.isConnected) return false;
    this.nameError(errorText(e));
    this.nameInput.focus();
    return true;
  }

  fixMode() {
    const c = this.cfg;
    if (c.players === 1) c.mode = 'solo';
    else if (c.mode === 'solo' || (c.mode === 'team' && !(c.variant === 'hex' && c.players === 4))) c.mode = 'standard';
  }

  // The clock of the form: null (none), a preset, or the custom realtime clock (false if invalid).
  clock() {
    const k = this.cfg.clock;
    if (k !== 'custom') return CLOCK_PRESETS[k] || null;
    const n = (el) => (el.value.trim() === '' ? 0 : Number(el.value));
    const base = n(this.clockMin) * 60 + n(this.clockSec);
    const inc = n(this.clockInc);
    if (![base, inc].every(Number.isInteger) || base < 1 || base > 10800 || inc < 0 || inc > 600) return false;
    return { kind: 'realtime', base_s: base, increment_s: inc };
  }

  async create() {
    const c = this.cfg;
    const me = session.me;
    const name = me ? me.name : this.nameInput.value.trim() || t('common.player');
    if (!me) prefs.name = name;
    const clock = this.clock();
    if (clock === false) { this.msg.textContent = t('clock.bad_custom'); return; }
    this.createBtn.disabled = true;
    this.msg.textContent = t('lobby.creating');
    try {
      const body = { variant: c.variant, players: c.players, mode: c.mode, name, seats: c.seats.map((s) => ({ ...s })), rated: !!(c.rated && me && clock) };
      if (clock) body.clock = clock;
      const res = await api.createGame(body);
      tokens.set(res.game, res.seat, res.token);
      created.mark(res.game);
      offerForClock(clock);
      location.hash = `#/game/${res.game}`;
    } catch (e) {
      this.createBtn.disabled = false;
      if (this.refusedName(e)) { this.msg.textContent = ''; return; }
      this.msg.textContent = t('lobby.create_failed', { msg: errorText(e) });
    }
  }

  async join(id) {
    const me = session.me;
    const name = me ? me.name : this.nameInput.value.trim() || prefs.name || t('common.player');
    if (!me) prefs.name = name;
    try {
      const res = await api.joinGame(id, name);
      tokens.set(id, res.seat, res.token);
      offerForGame(id);
      location.hash = `#/game/${id}`;
    } catch (e) {
      clear(this.listMsg);
      if (this.refusedName(e)) { this.refresh(); return; }
      if (e.status === 401) {
        // A rated game: only accounts may join.
        this.listMsg.append(t('rated.join_needs_login'), ' ', h('a', { href: authHash('login', `#/join/${encodeURIComponent(id)}`) }, [t('account.login')]),
          ' · ', h('a', { href: authHash('signup', `#/join/${encodeURIComponent(id)}`) }, [t('account.signup')]));
      } else if (e.code === 'already_seated') {
        this.listMsg.textContent = t('rated.already_seated');
      } else {
        this.listMsg.textContent = e.status === 409 ? t('lobby.no_seat') : t('invite.join_failed', { msg: errorText(e) });
      }
      this.refresh();
    }
  }

  // Cancelling is for good: asked first, as on the game's own page.
  cancel(id) {
    const esc = (e) => { if (e.key === 'Escape') close(); };
    const close = () => { this.dialog?.remove(); this.dialog = null; document.removeEventListener('keydown', esc); };
    this.closeDialog?.();
    this.closeDialog = close;
    this.dialog = dialogs.confirmDialog(document.body, {
      title: t('gone.cancel_game'), text: t('gone.cancel_confirm'),
      ok: t('gone.cancel_game'), cancel: t('leave.resign_cancel'), action: 'confirm-cancel',
      onOk: () => { close(); this.cancelNow(id); },
      onCancel: close,
    });
    this.dialog.classList.add('page-modal');
    document.addEventListener('keydown', esc);
  }

  async cancelNow(id) {
    try {
      await api.cancelGame(id, tokens.get(id)?.token);
      tokens.drop(id);
      created.drop(id);
      this.listMsg.textContent = '';
    } catch (e) {
      this.listMsg.textContent = t('lobby.cancel_failed', { msg: errorText(e) });
    }
    this.refresh();
  }

  async refresh() {
    const act = { join: (id) => this.join(id), cancel: (id) => this.cancel(id) };
    const finished = this.ticks++ % 3 === 0 || this.overFilter !== this.filter;
    const ids = myGameIds();
    const gen = this.gen = (this.gen || 0) + 1;
    let open, running;
    let mine = [];
    let over = null;
    let account = null;
    // Logged in: the account's games on every device (a seat without a token here).
    const accountGames = session.me ? api.myGames().catch((e) => (e.status === 401 ? null : Promise.reject(e))) : null;
    try {
      [open, running, mine, over, account] = await Promise.all([
        this.publicList('waiting'),
        this.publicList('running'),
        ids.length ? api.gamesById(ids) : [],
        finished ? api.finishedGames() : null,
        accountGames,
      ]);
      if (gen !== this.gen) return; // a newer refresh (another filter) answers instead
      if (this.listMsg.dataset.kind === 'net') { this.listMsg.textContent = ''; this.listMsg.dataset.kind = ''; }
    } catch (e) {
      this.listMsg.textContent = t('lobby.unreachable', { msg: errorText(e) });
      this.listMsg.dataset.kind = 'net';
      return;
    }
    const list = (x) => (Array.isArray(x) ? x : x?.games || []);
    const idSet = new Set(ids);
    // This browser's games and the account's, each once (the account's entry has its seat).
    const byId = new Map(list(mine).filter((g) => idSet.has(g.id)).map((g) => [g.id, g]));
    const acct = list(account);
    setAccountGames(acct);
    for (const g of acct) byId.set(g.id, { ...byId.get(g.id), ...g });
    mine = sortMine([...byId.values()]);
    this.myHead.hidden = this.myList.hidden = !ids.length && !acct.length;
    fillList(this.myList, mine, t('lobby.no_my_games'), act, { mine: true });
    this.people.refresh();
    this.bots.refresh();
    this.events.refresh();
    const none = (key) => (this.filter ? t('lobby.none_of', { game: VARIANTS[this.filter].name }) : t(key));
    fillList(this.openList, open.games, none('lobby.no_open'), act);
    fillList(this.runList, running.games, none('lobby.no_running'), act);
    this.more.waiting.hidden = !open.more;
    this.more.running.hidden = !running.more;
    if (over) {
      this.overFilter = this.filter;
      const shown = list(over).filter((g) => g.status === 'over' && (!this.filter || g.variant === this.filter));
      fillList(this.overList, shown, this.filter ? none('lobby.no_finished') : t('lobby.no_finished'), act, { finished: true });
    }
  }
}

export { shapeIcon };
