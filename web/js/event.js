// event.js — one event's page (#/event/ID, docs/tournaments.md): its settings and state,
// Join / Withdraw, and for its organiser Start now and Cancel while it is upcoming (cancel
// asks first); the standings (place, player, points, the tie-breaks of a Swiss, games, and
// each player's results: round, place at the table and points, each linking to its game's
// record), the tables being played (click to watch; your own opens your seat), and your
// current game. Asks GET /api/events/{id} every 3 s while open (the server has no push
// for it) and, when the player's game changes, opens the new one by itself with the turn
// alert's sound and title (events.js sawYou). A finished event keeps its standings and
// the links to every record.
import { h, clear } from './svg.js';
import { api } from './api.js';
import { session, profileHash, authHash } from './account.js';
import { t, errorText } from './messages.js';
import { isBot, botTag, noteBot } from './bot_mark.js';
import * as dialogs from './dialogs.js';
import { settingsText, statusText, entryText, eventError, sawYou, timeText, seatHash } from './events.js';
import { alertPrefs } from './attention.js';

const POLL_MS = 3000;
const pts = (x) => (Number.isFinite(x) ? String(Math.round(x * 100) / 100) : '');

export class EventPage {
  constructor(root, id) {
    this.root = root;
    this.id = id;
    this.head = h('div', { class: 'event-head' });
    this.actions = h('div', { class: 'event-actions' });
    this.msg = h('p', { class: 'form-msg', role: 'alert', id: 'event-msg' });
    this.yours = h('div', { class: 'event-yours', id: 'event-yours', hidden: true });
    this.standings = h('div', { class: 'event-standings', id: 'event-standings' }, [h('span', { class: 'spinner' })]);
    this.tables = h('div', { class: 'event-tables', id: 'event-tables' });
    this.tablesBox = h('section', { class: 'card event-tables-card' }, [h('h2', {}, [t('event.tables')]), this.tables]);
    const sound = h('input', { type: 'checkbox', id: 'event-sound', checked: alertPrefs.sound });
    sound.addEventListener('change', () => { alertPrefs.sound = sound.checked; });
    this.el = h('div', { class: 'event-page', 'data-event': id }, [
      h('section', { class: 'card event-main' }, [
        this.head, this.actions, this.msg, this.yours,
        this.soundBox = h('label', { class: 'event-sound muted', for: 'event-sound', hidden: true }, [sound, ` ${t('event.sound')}`]),
      ]),
      h('section', { class: 'card event-standings-card' }, [h('h2', {}, [t('event.standings')]), this.standings]),
      this.tablesBox,
    ]);
    clear(root).append(this.el);
    this.refresh();
    this.timer = setInterval(() => this.refresh(), POLL_MS);
  }

  destroy() { this.dead = true; clearInterval(this.timer); this.dialog?.remove(); }

  onSession() { this.sig = null; this.refresh(); }

  async refresh() {
    if (this.busy) return;
    this.busy = true;
    let res;
    try {
      res = await api.getEvent(this.id);
      await session.ready();
    } catch (e) {
      this.busy = false;
      if (this.dead) return;
      if (e.status === 404) {
        clearInterval(this.timer);
        clear(this.el).append(h('section', { class: 'card event-gone' }, [h('h2', {}, [t('event.not_found')]), h('p', {}, [h('a', { href: '#/events' }, [t('event.all')])])]));
      } else {
        this.msg.textContent = t('event.load_failed', { msg: errorText(e) });
        this.msg.dataset.kind = 'net';
      }
      return;
    }
    this.busy = false;
    if (this.dead) return;
    if (this.msg.dataset.kind === 'net') { this.msg.textContent = ''; this.msg.dataset.kind = ''; }
    this.data = res;
    if (sawYou(res.event, res.you)) return; // the next game opens
    const sig = JSON.stringify([res, session.name]);
    if (sig === this.sig) return;
    this.sig = sig;
    this.render(res);
  }

  render({ event: e, standings = [], tables = [], you = null }) {
    document.title = `axio · ${e.name}`;
    const me = session.me;
    const organiser = me && me.name.toLowerCase() === String(e.organiser || '').toLowerCase();
    this.el.dataset.status = e.status;
    this.el.dataset.you = you?.joined ? (you.withdrawn ? 'withdrawn' : 'joined') : 'no';
    clear(this.head).append(
      h('p', { class: 'event-crumbs' }, [h('a', { href: '#/events', 'data-action': 'events' }, [t('event.all')])]),
      h('h1', { class: 'event-title' }, [e.name]),
      h('p', { class: `event-state ${e.status}`, id: 'event-state' }, [statusText(e)]),
      h('p', { class: 'event-settings' }, [settingsText(e)]),
      h('dl', { class: 'event-facts' }, [
        ...fact(t('event.organiser'), h('a', { href: profileHash(e.organiser) }, [e.organiser])),
        ...fact(t('event.starts'), timeText(e.starts)),
        ...(e.status === 'running' && e.round_deadline ? fact(t('event.round_deadline'), timeText(e.round_deadline)) : []),
        ...(e.ends ? fact(t('event.ends'), timeText(e.ends)) : []),
        ...(e.days_per_round ? fact(t('event.days_per_round'), String(e.days_per_round)) : []),
        ...fact(t('event.entry'), entryText(e)),
        ...fact(t('event.players'), String(e.players ?? standings.length)),
      ]),
    );
    // Join / Withdraw; the organiser's Start now and Cancel while upcoming.
    const live = e.status === 'upcoming' || e.status === 'running';
    clear(this.actions);
    const open = e.status === 'upcoming' || (e.status === 'running' && e.format === 'arena');
    if (!me && open) {
      this.actions.append(h('p', { class: 'muted' }, [t('event.login_to_join'), ' ', h('a', { href: authHash('login', `#/event/${e.id}`) }, [t('account.login')]), ' · ', h('a', { href: authHash('signup', `#/event/${e.id}`) }, [t('account.signup')])]));
    }
    if (me && open && !(you?.joined && !you.withdrawn)) this.actions.append(this.button('join', t('event.join'), 'primary', () => api.joinEvent(e.id)));
    if (me && you?.joined && !you.withdrawn && (e.status === 'upcoming' || e.status === 'running')) this.actions.append(this.button('withdraw', t('event.withdraw'), '', () => api.withdrawEvent(e.id)));
    if (organiser && e.status === 'upcoming') {
      this.actions.append(this.button('start', t('event.start_now'), '', () => api.startEvent(e.id)));
      this.actions.append(h('button', { class: 'btn danger-subtle', type: 'button', 'data-action': 'cancel-event', onclick: () => this.confirmCancel(e) }, [t('event.cancel')]));
    }
    if (you?.joined) {
      this.actions.append(h('span', { class: 'muted event-you-state', id: 'event-you-state' }, [
        you.withdrawn ? t('event.you_withdrawn') : t(live ? 'event.you_joined' : 'event.you_took_part'),
        you.misses ? ` · ${t('event.misses', { n: you.misses })}` : '',
      ]));
    }
    // Your game now.
    this.soundBox.hidden = !(live && you?.joined && !you.withdrawn);
    this.yours.hidden = !(you?.game);
    clear(this.yours);
    if (you?.game) {
      this.yours.append(h('span', {}, [t('event.your_game')]), ' ', h('a', { class: 'btn small primary', href: seatHash(you.game, you.seat), 'data-action': 'open-my-game' }, [t('event.open_game')]));
    }
    this.renderStandings(e, standings);
    this.tablesBox.hidden = e.status !== 'running' && !tables.length;
    this.renderTables(e, tables, you);
  }

  button(action, label, cls, call) {
    return h('button', { class: `btn ${cls}`, type: 'button', 'data-action': action, onclick: async (ev) => {
      ev.currentTarget.disabled = true;
      this.msg.textContent = '';
      try {
        await call();
      } catch (err) {
        this.msg.textContent = eventError(err);
        this.msg.dataset.code = err.code || '';
        this.msg.dataset.reason = err.reason || '';
      }
      this.sig = null;
      await this.refresh();
    } }, [label]);
  }

  confirmCancel(e) {
    const close = () => { this.dialog?.remove(); this.dialog = null; };
    close();
    this.dialog = dialogs.confirmDialog(document.body, {
      title: t('event.cancel_title'), text: t('event.cancel_text', { name: e.name }),
      ok: t('event.cancel'), cancel: t('event.keep'), action: 'confirm-cancel-event',
      onOk: async () => {
        close();
        try { await api.cancelEvent(e.id); } catch (err) { this.msg.textContent = eventError(err); }
        this.sig = null;
        this.refresh();
      },
      onCancel: close,
    });
    this.dialog.classList.add('page-modal');
  }

  renderStandings(e, standings) {
    if (!standings.length) {
      clear(this.standings).append(h('p', { class: 'muted' }, [t(e.status === 'upcoming' ? 'event.no_players_yet' : 'event.no_standings')]));
      return;
    }
    for (const s of standings) if (s.bot) noteBot(s.name);
    const swiss = e.format === 'swiss';
    const me = session.name?.toLowerCase();
    const table = h('table', { class: 'leaderboard event-table' }, [
      h('thead', {}, [h('tr', {}, [
        h('th', { class: 'rank', scope: 'col' }, ['#']),
        h('th', { class: 'who', scope: 'col' }, [t('event.player')]),
        h('th', { class: 'num', scope: 'col' }, [t('event.points')]),
        swiss ? h('th', { class: 'num tb', scope: 'col', title: t('event.tiebreak1_title') }, [t('event.tiebreak1')]) : null,
        swiss ? h('th', { class: 'num tb', scope: 'col', title: t('event.tiebreak2_title') }, [t('event.tiebreak2')]) : null,
        h('th', { class: 'num games', scope: 'col' }, [t('event.games')]),
      ])]),
      h('tbody', {}, standings.map((s) => h('tr', {
        class: `${s.withdrawn ? 'withdrawn' : ''}${me && s.name.toLowerCase() === me ? ' you' : ''}`,
        'data-name': s.name, 'data-points': String(s.points), 'data-place': String(s.place),
      }, [
        h('td', { class: 'rank' }, [String(s.place)]),
        h('td', { class: 'who' }, [
          h('a', { href: profileHash(s.name) }, [s.name]),
          s.bot || isBot(s.name) ? botTag() : null,
          s.rating ? h('span', { class: 'muted event-rating' }, [String(Math.round(s.rating))]) : null,
          s.withdrawn ? h('span', { class: 'muted event-withdrawn' }, [t('event.withdrawn')]) : null,
          this.results(e, s),
        ]),
        h('td', { class: 'num points' }, [pts(s.points)]),
        swiss ? h('td', { class: 'num tb' }, [pts(s.tiebreak1)]) : null,
        swiss ? h('td', { class: 'num tb' }, [pts(s.tiebreak2)]) : null,
        h('td', { class: 'num games' }, [String(s.games ?? 0)]),
      ]))),
    ]);
    clear(this.standings).append(table, swiss ? h('p', { class: 'muted small-note' }, [t('event.tiebreak_note')]) : h('p', { class: 'muted small-note' }, [t('event.arena_note')]));
  }

  // A player's results: one chip a table (round, place, points), linking to its record.
  results(e, s) {
    const list = s.results || [];
    if (!list.length) return null;
    // A Swiss result says its round; an arena's the player's game number (its `round` counts
    // the pairings of the whole event).
    const arena = e.format === 'arena';
    return h('div', { class: 'event-results' }, list.map((r, i) => {
      const names = (r.opponents || []).join(', ') || '–';
      const place = r.place ?? '–';
      const label = !r.game ? t('event.bye', { round: r.round, points: pts(r.points) })
        : arena ? t('event.result_arena', { n: i + 1, place, points: pts(r.points) })
          : t('event.result', { round: r.round, place, points: pts(r.points) });
      const title = !r.game ? t('event.bye_title')
        : arena ? t('event.result_title_arena', { n: i + 1, names }) : t('event.result_title', { round: r.round, names });
      const cls = `event-result${r.counted === false ? ' not-counted' : ''}${r.place === 1 ? ' first' : ''}`;
      return r.game
        ? h('a', { class: cls, href: `#/game/${encodeURIComponent(r.game)}/replay`, title, 'data-game': r.game, 'data-action': 'record' }, [label])
        : h('span', { class: `${cls} bye`, title }, [label]);
    }));
  }

  renderTables(e, tables, you) {
    clear(this.tables);
    if (!tables.length) { this.tables.append(h('p', { class: 'muted' }, [t('event.no_tables')])); return; }
    const swiss = e.format === 'swiss';
    for (const tb of tables) {
      const mine = you?.game === tb.game;
      this.tables.append(h('a', {
        class: `event-table-row${mine ? ' mine' : ''}`, href: mine ? seatHash(tb.game, you.seat) : `#/watch/${encodeURIComponent(tb.game)}`,
        'data-game': tb.game, 'data-action': mine ? 'open-my-game' : 'watch',
      }, [
        h('span', { class: 'event-table-no' }, [swiss ? t('event.table_round', { round: tb.round, table: tb.table }) : t('event.table_n', { table: tb.table })]),
        h('span', { class: 'event-table-players' }, [(tb.players || []).join(' · ')]),
        h('span', { class: 'event-table-go' }, [mine ? t('event.open_game') : t('event.watch')]),
      ]));
    }
  }
}

function fact(label, value) {
  return [h('dt', {}, [label]), h('dd', {}, [value])];
}
