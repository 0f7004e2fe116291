// game.js — the controller of one game page: it keeps the server's latest state,
// turns mouse, touch and keys into picks, turns, previews and placements (seed
// 004's controls), and feeds the board, rack, score panel, log and dialogs; the
// online-play parts (clocks, leaving, aborting, chat, rematch, turn alerts) are online.js.
// A seat is this browser's by its token, or the account's by the session alone (no
// token: the socket offers none, ?seat= picks one of several). In a casual game against
// the computer without a clock, Undo takes back one's last decision: the server sends
// the game again (a state with a lower ply, then its history) and the page redraws it.
// It never decides what is legal or what scores: the server's `preview` does.
import { h, clear } from './svg.js';
import { api, tokens, GameSocket } from './api.js';
import { ensureShapeDefs, shapeIcon, colorName } from './colors.js';
import { SquareBoard } from './board_square.js';
import { HexBoard, HEX_DIRS } from './board_hex.js';
import { RotaBoard, rotateCorners } from './board_rota.js';
import { key, sameCell } from './board_common.js';
import { Rack } from './rack.js';
import { Scores } from './scores.js';
import { logLine, dropEndedBonus } from './log.js';
import { notePairs } from './position.js';
import { VARIANTS, modeName, seatLabel, levelName } from './variants.js';
import * as dialogs from './dialogs.js';
import { Replay } from './replay.js';
import { Online } from './online.js';
import { t, tn, tv, errorText } from './messages.js';
import { rulesLabel } from './rules/labels.js';
import { clockName } from './clock.js';
import { inviteBox } from './invite.js';
import { session, authHash } from './account.js';
import { Guide } from './guide.js';
import { isBot } from './bot_mark.js';

const SQ_DIRS = [[0, 1], [1, 0], [0, -1], [-1, 0]]; // right, down, left, up ([row, col])
const PREVIEW_GAP_MS = 130; // at most ~7 previews a second (the server limits messages per second)
// A decision refused for the message rate is sent again after RESEND_MS, at most RESENDS
// times (the server refills 10 messages a second by default).
const RESEND_MS = 400;
const RESENDS = 5;
const addCell = (a, d) => [a[0] + d[0], a[1] + d[1]];
// Why a placement is not allowed, from a preview or an error (the engine's reason).
const illegalText = (ans) => errorText({ code: 'illegal_move', reason: ans.reason, message: ans.error });

export class GameView {
  constructor(root, gameId, { spectate = false, onStatus = () => {}, replay = false, seat = null } = {}) {
    ensureShapeDefs();
    this.root = root;
    this.id = gameId;
    this.onStatus = onStatus;
    const saved = spectate ? null : tokens.get(gameId);
    this.token = saved?.token || null;
    this.game = null;
    this.you = null;
    this.seq = 0;
    this.gen = 0;                 // bumps with every state: previews are valid for one state
    this.sel = null;              // picked rack index
    this.rot = 0;                 // orientation of the picked tile
    this.hover = null;            // cell under the mouse (or keyboard cursor)
    this.kbd = false;             // the hover comes from the keyboard
    this.cache = new Map();       // preview answers of this generation, by request
    this.pending = [];            // sent requests awaiting an answer, in order
    this.wants = [];              // the hover's previews to ask next (ROTA's empty corner: one per colour)
    this.queue = [];              // previews that must all be asked (wild colours)
    this.inflight = false;
    this.placing = false;
    this.history = [];
    this.pairs = new Map();
    this.axioQueue = [];
    this.endShown = false;
    this.replay = null;
    this.dialog = null;
    this.lastRackSig = '';
    this.wantReplay = replay;     // #/game/ID/replay: open the replay once the game is known
    this.online = new Online(this);
    this.build();
    this.sock = new GameSocket(gameId, this.token, {
      message: (m) => this.onMessage(m),
      status: (st) => this.onSocketStatus(st),
    }, { seat: spectate ? null : seat });
    // A game that does not exist: say so instead of retrying for ever.
    api.getGame(gameId).then((g) => {
      if (g && (g.status === 'expired' || g.status === 'cancelled')) this.showGone(g.status);
    }, (e) => { if (e.status === 404) this.showMissing(); });
    this.keyHandler = (e) => this.onKey(e);
    document.addEventListener('keydown', this.keyHandler);
  }

  // Logged in (the session may be known only after the end card was made): no "Sign up
  // to get a rating" for an account.
  onSession(me) {
    if (me) this.dialog?.querySelector('.end-signup')?.remove();
  }

  // The dialog open over the game (the swap offer, a colour, a confirmation; the end card
  // docked beside the board): a guided game's floating tip makes way while one is open.
  get dialog() { return this.openDialog || null; }
  set dialog(d) {
    this.openDialog = d;
    this.guide?.refresh();
  }

  showMissing() {
    if (this.game || this.el.classList.contains('missing-game')) return;
    {
      const gameId = this.id;
      this.sock.close();
      this.gone = true;              // the socket's "closed" is not news
      this.onStatus(null);           // no connection to speak of: no "closed" badge
      this.rulesLink.hidden = true;  // nor rules of a game that is not there
      this.statusLine.textContent = '';
      clear(this.boardHost).append(h('div', { class: 'card missing' }, [
        h('h2', {}, [t('game.missing_title')]), h('p', {}, [t('game.missing_text', { id: gameId })]),
        h('a', { href: '#/', class: 'btn primary' }, [t('gone.lobby')]),
      ]));
      this.el.classList.remove('loading');
      this.el.classList.add('missing-game');
    }
  }

  // A waiting game that was cancelled or expired: say so instead of "waiting" for ever.
  showGone(status) {
    if (this.el.classList.contains('gone-game')) return;
    this.gone = true;
    this.sock.close();
    this.onStatus(null);
    this.rulesLink.hidden = true;
    tokens.drop(this.id);
    this.closeDialog();
    this.statusLine.textContent = '';
    clear(this.boardHost).append(h('div', { class: 'card missing gone', 'data-gone': status }, [
      h('h2', {}, [t(`gone.${status}_title`)]), h('p', {}, [t(`gone.${status}_text`)]),
      h('a', { href: '#/', class: 'btn primary', 'data-action': 'lobby' }, [t('gone.lobby')]),
    ]));
    this.el.classList.remove('loading');
    this.el.classList.add('missing-game', 'gone-game');
    this.el.dataset.status = status;
  }

  destroy() {
    this.gone = true;             // the socket's last "closed" is not for the next page
    this.online.destroy();
    this.guide?.destroy();
    this.sock.close();
    document.removeEventListener('keydown', this.keyHandler);
    clearInterval(this.retryTicker);
    this.axioShown?.timers.forEach(clearTimeout);
    this.resizeObs?.disconnect();
    this.logObs?.disconnect();
    this.replay?.destroy();
  }

  // ---- layout ---------------------------------------------------------------
  build() {
    this.boardHost = h('div', { class: 'board-host' });
    this.toastHost = h('div', { class: 'toast-host', 'aria-live': 'polite' });
    this.bannerHost = h('div', { class: 'banner-host' });
    this.replayHost = h('div', { class: 'replay-host' });
    this.analysisHost = h('div', { class: 'analysis-host' }); // the replay's analysis panel
    this.connNotice = h('div', { class: 'conn-notice', role: 'alert', hidden: true });
    // "?": the rules of this game's variant in a new tab (href set in makeBoard).
    this.rulesLink = h('a', { class: 'rules-help', id: 'rules-help', href: '#/rules/square', target: '_blank', rel: 'noopener', title: rulesLabel('game_help'), 'aria-label': rulesLabel('game_help') }, ['?']);
    this.boardWrap = h('div', { class: 'board-wrap' }, [this.boardHost, this.bannerHost, this.toastHost, this.connNotice, this.rulesLink]);
    this.scoresHost = h('div', { class: 'scores', id: 'scores' });
    this.statusLine = h('div', { class: 'status-line', id: 'status-line', role: 'status', 'aria-live': 'polite' });
    this.inviteHost = h('div', { class: 'invite-host', hidden: true });
    this.rackHost = h('div', { class: 'rack', id: 'rack' });
    this.previewEl = h('div', { class: 'preview-panel', id: 'preview', 'aria-live': 'polite' });
    this.watchNote = h('div', { class: 'watch-note', hidden: true }, [t('game.watching')]);
    this.logEl = h('ol', { class: 'log', id: 'log' });
    this.infoEl = h('div', { class: 'game-info' });
    this.resultsBtn = h('button', { class: 'btn', type: 'button', hidden: true, 'data-action': 'results', onclick: () => this.showEnd(true) }, [t('game.results')]);
    this.replayBtn = h('button', { class: 'btn', type: 'button', hidden: true, 'data-action': 'open-replay', onclick: () => this.openReplay() }, [t('game.step_through')]);
    this.rackPanel = h('section', { class: 'rack-panel', 'aria-label': t('game.your_tiles') }, [
      this.rackHost, h('div', { class: 'rack-foot' }, [this.previewEl, this.turnSlot = h('span', { class: 'turn-slot' }),
        this.hintBtn = h('button', { class: 'btn small hint-btn', type: 'button', hidden: true, 'data-action': 'hint', title: t('hint.title'), onclick: () => this.askHint() }, [t('hint.button')])]),
      // How to play: with a mouse, or (phones, tablets) by tapping; the CSS shows the one that fits.
      this.helpMouse = h('p', { class: 'hint hint-mouse' }, [t('game.help_mouse')]),
      this.helpTouch = h('p', { class: 'hint hint-touch' }, [t('game.help_touch')]),
    ]);
    // Undo sits with Abort and Resign (online.js puts it there), under the rack.
    this.undoBtn = h('button', { class: 'btn small undo-btn', type: 'button', hidden: true, 'data-action': 'undo', title: t('undo.title'), onclick: () => this.askUndo() }, [t('undo.button')]);
    const o = this.online;
    this.endHost = h('div', { class: 'end-host' }); // the end screen, docked
    const side = h('aside', { class: 'game-side' }, [
      this.endHost, this.scoresHost, this.statusLine, this.analysisHost, this.inviteHost, o.absent.el, o.rematchBox, this.rackPanel, o.leftNote, this.watchNote,
      h('div', { class: 'after-buttons' }, [this.resultsBtn, this.replayBtn]),
      o.actions, o.chat.el,
      h('section', { class: 'log-panel', 'aria-label': t('game.moves') }, [h('h3', {}, [t('game.moves')]), this.logEl]),
      this.infoEl, o.alertBox,
    ]);
    this.el = h('div', { class: 'game loading' }, [h('div', { class: 'game-main' }, [this.boardWrap, this.replayHost]), side]);
    clear(this.root).append(this.el, o.chat.fab);
    // The log's box changes with the window and the panel beside it: its rows fitted again
    // (its border box: the padding fitLog sets does not change it).
    this.logObs = new ResizeObserver(() => { if (!this.replay) this.fitLog(); });
    this.logObs.observe(this.logEl, { box: 'border-box' });
    this.rack = new Rack(this.rackHost, { select: (i) => this.select(i), rotate: () => this.rotate() });
    this.turnSlot.appendChild(this.rack.turnBtn);
    this.scores = new Scores(this.scoresHost);
    this.statusLine.textContent = t('game.connecting');
  }

  makeBoard(variant) {
    this.rulesLink.href = `#/rules/${variant}`;
    // ROTA names its pieces its own way in some languages.
    this.rackPanel.setAttribute('aria-label', tv('game.your_tiles', variant));
    this.helpMouse.textContent = tv('game.help_mouse', variant);
    this.helpTouch.textContent = tv('game.help_touch', variant);
    this.watchNote.textContent = tv('game.watching', variant);
    const B = { square: SquareBoard, hex: HexBoard, rota: RotaBoard }[variant];
    this.board = new B(this.boardHost);
    this.board.on({
      hover: (cell) => { this.kbd = false; this.hover = cell; this.touchPreview = null; this.updateOverlay(); },
      click: (cell, pointerType) => this.clickCell(cell, pointerType),
      rotate: () => this.rotate(),
    });
    this.board.svg.addEventListener('keydown', (e) => this.onBoardKey(e));
    this.board.svg.addEventListener('blur', () => { if (this.kbd) { this.kbd = false; this.hover = null; this.updateOverlay(); } });
    this.el.dataset.variant = variant;
    // Re-render when the screen changes between narrow and wide (the board crops on phones).
    this.resizeObs = new ResizeObserver(() => {
      const c = this.isCompact();
      if (c !== this.board.compact) {
        this.board.compact = c;
        if (this.replay) this.replay.go(this.replay.i); else this.renderBoard();
        this.updateOverlay();
        this.renderStatus(); // the "?" moves with it
      }
    });
    this.resizeObs.observe(this.boardHost);
  }

  isCompact() { return window.innerWidth <= 600; }

  // Phones: the ROTA display's box follows its shape, so the tiles get the whole width.
  fitWrap() {
    const a = this.board?.aspect;
    this.boardWrap.style.aspectRatio = a && this.board.compact ? String(Math.min(1.5, Math.max(0.75, a))) : '';
  }

  // ---- messages ---------------------------------------------------------------
  onMessage(m) {
    switch (m.type) {
      case 'state': this.onState(m); break;
      case 'viewers': this.onViewers(m); break;
      case 'history': this.onHistory(m.events || []); break;
      case 'event': this.onEvent(m.event); break;
      case 'preview': this.onPreview(m); break;
      case 'error': this.onError(m); break;
      case 'hint': this.onHint(m.move); break;
      default: this.online.onMessage(m);
    }
  }

  onSocketStatus(st) {
    if (this.gone) return;
    this.connState = st;
    if (st.state !== 'open') {
      for (const p of this.pending) p.resolve?.(null);
      for (const q of this.queue) q.resolve(null);
      for (const w of this.wants) w.resolve(null);
      this.pending = []; this.queue = []; this.wants = []; this.inflight = false; this.placing = false;
    }
    clearInterval(this.retryTicker);
    const show = () => {
      this.onStatus(st);
      this.renderConnNotice(st);
    };
    show();
    if (st.state === 'lost') this.retryTicker = setInterval(show, 500);
    this.el.classList.toggle('offline', st.state === 'lost');
    if (this.game) this.renderStatus();
  }

  // A notice over the board while the connection is down, with a countdown and "Retry now".
  renderConnNotice(st) {
    const n = this.connNotice;
    const down = st.state === 'lost' || (st.state === 'connecting' && st.attempt > 0);
    n.hidden = !down;
    if (!down) return;
    if (!this.connText) {
      this.connText = h('span');
      this.connRetry = h('button', { class: 'btn small', type: 'button', onclick: () => this.sock.retryNow() }, [t('conn.retry')]);
      clear(n).append(h('span', { class: 'spinner' }), this.connText, this.connRetry);
    }
    const secs = st.retryAt ? Math.max(0, Math.ceil((st.retryAt - Date.now()) / 1000)) : 0;
    this.connText.textContent = st.state === 'lost' ? t('conn.notice_lost', { s: secs }) : t('conn.notice_reconnecting');
    this.connRetry.hidden = st.state !== 'lost';
  }

  onState(m) {
    const first = !this.game;
    // A take-back: the game as it was before (its history follows).
    if (!first && typeof m.game?.ply === 'number' && m.game.ply < this.game.ply) this.tookBack();
    this.seq = m.seq;
    this.game = m.game;
    this.you = m.you || null;
    this.gen++;
    this.cache.clear();
    // Answers of earlier states are no longer needed; place/swap are answered by this state.
    while (this.pending.length && this.pending[0].kind !== 'preview') this.pending.shift();
    this.placing = false;
    if (this.game.status === 'expired' || this.game.status === 'cancelled') { this.showGone(this.game.status); return; }
    if (first) {
      this.makeBoard(this.game.variant);
      this.el.classList.remove('loading');
      if (this.game.status !== 'over') this.wantReplay = false;
    }
    if (this.token && !this.you) {
      // The token did not give us a seat: it is stale. Watch instead.
      tokens.drop(this.id);
      this.token = null;
    }
    const rack = this.you?.rack || [];
    const sig = JSON.stringify(rack) + '|' + this.game.to_move + '|' + this.game.phase;
    if (sig !== this.lastRackSig) {
      this.lastRackSig = sig;
      this.dropHintNote(); // the hint was for the turn that just ended
      this.sel = null;
      this.rot = 0;
      if (this.myTurn() && rack.length === 1) this.sel = 0; // a single tile (ROTA hand, solo): already picked
    }
    this.online.arrived();
    this.renderAll();
    this.settleAxioBonus(this.game.status !== 'over');
    if (this.canPlace()) this.dropOthersAxio();
    if (this.game.status === 'over') {
      if (this.dialog?.querySelector('.end-dialog') && this.game.rated) dialogs.fillRatingChanges(this.dialog, this.game.seats);
      if (this.wantReplay) { this.wantReplay = false; this.endShown = true; this.openReplay(); } else this.showEnd(false);
    } else if (this.game.status === 'aborted') this.showEnd(false);
    // A guided first game: the guide explains what just came up (guide.js).
    if (!this.guide && this.game.guided && this.you) this.guide = new Guide(this);
    this.guide?.onState();
  }

  // Who is connected changed: only the seats' presence and the spectator count.
  onViewers(m) {
    if (!this.game) return;
    this.seq = m.seq;
    this.game.spectators = m.spectators;
    // away_ms counts from the last state's arrival (online.js), as the clocks do.
    const since = Date.now() - this.online.arrivedAt;
    (m.seats || []).forEach((p, i) => {
      const s = this.game.seats[i];
      if (s) { s.connected = p.connected; s.away_ms = p.away_ms === null ? null : p.away_ms - since; }
    });
    this.renderAll();
  }

  onHistory(events) {
    this.history = events.slice();
    this.pairs = new Map();
    clear(this.logEl);
    for (const ev of events) this.addLog(ev, false);
    this.fitLog();
    if (this.game) {
      this.renderBoard();
      this.renderUndo();
      this.online.render(); // Abort goes with a person's second tile (the history tells)
      // The end card written before the history came says who left now.
      if (this.game.status === 'over' && this.dialog?.querySelector('.end-dialog') && this.game.end?.reason === 'left') dialogs.fillLeaves(this.dialog, this.leaves(), this.game.seats, this.you?.seat ?? -1);
    }
  }

  // Who left the game, in the order they left (the history's leave events; before it
  // comes, the seats that say they left).
  leaves() {
    const evs = this.history.filter((e) => e.ev === 'leave').map((e) => ({ seat: e.player, why: e.why }));
    if (evs.length) return evs;
    return (this.game?.seats || []).map((s, i) => ({ seat: i, why: s.left })).filter((x) => x.why);
  }

  // The state after a take-back: nothing of the later position stays — no pick, hint,
  // preview, decision being sent, dialog or AXIO! banner; the history that follows
  // redraws the log and the board.
  tookBack() {
    this.undoAsked = null;
    this.hintAsked = null;
    this.hinted = null;
    this.sel = null;
    this.rot = 0;
    this.hover = null;
    this.touchPreview = null;
    this.lastRackSig = '';
    for (const p of this.pending) p.resolve?.(null);
    for (const q of this.queue) q.resolve(null);
    for (const w of this.wants) w.resolve(null);
    this.pending = []; this.queue = []; this.wants = []; this.inflight = false; this.placing = false;
    this.axioQueue = [];
    if (this.axioShown) { this.axioShown.timers.forEach(clearTimeout); this.axioShown.el.remove(); this.axioShown = null; }
    this.closeDialog();
    dialogs.toast(this.toastHost, t('undo.done'), 'info', 2000);
  }

  onEvent(ev) {
    if (!ev) return;
    this.history.push(ev);
    this.addLog(ev);
    this.guide?.onEvent(ev);
    if (ev.ev === 'end') this.settleAxioBonus(false); // the last placement's AXIO! earns no move
    if (ev.ev === 'axio') {
      const seats = this.game?.seats || [];
      const name = seats[ev.player] ? seatLabel(seats[ev.player], seats) : t('common.player_n', { n: ev.player + 1 });
      this.queueAxio({ seat: ev.player, name: ev.player === this.you?.seat ? t('game.axio_you', { name }) : name, color: ev.color, score: ev.score, bonus: ev.bonus_move });
    }
  }

  // The seats' names as the page shows them (computers by level, numbered).
  seatNames() {
    const seats = this.game?.seats || [];
    return seats.map((s) => seatLabel(s, seats));
  }

  // Which seats a bot plays (their names carry the BOT mark in the log).
  seatBots() {
    return (this.game?.seats || []).map((s) => s.kind !== 'ai' && isBot(s));
  }

  addLog(ev, fit = true) {
    notePairs(this.pairs, ev);
    const names = this.seatNames();
    if (!names.length && ev.names) names.push(...ev.names);
    const li = logLine(ev, names, this.game?.variant || 'square', this.seatBots());
    if (!li) return;
    this.logEl.appendChild(li);
    if (ev.ev === 'end') dropEndedBonus(this.logEl);
    if (fit) this.fitLog();
  }

  // The log at its newest row, with no row cut under its heading: the list's foot is padded
  // so that, scrolled to the end, its top edge falls on a row's top (rows differ in height).
  fitLog() {
    const ol = this.logEl;
    ol.style.paddingBottom = '';
    const rows = ol.children;
    const max = ol.scrollHeight - ol.clientHeight;
    if (max > 0 && rows.length) {
      const base = rows[0].getBoundingClientRect().top; // not offsetTop: whole pixels would cut a sliver
      let top = null;
      for (const li of rows) { const y = li.getBoundingClientRect().top - base; if (y >= max - 0.01) { top = y; break; } }
      if (top !== null && top > max) ol.style.paddingBottom = `${top - max}px`;
    }
    ol.scrollTop = ol.scrollHeight;
  }

  onPreview(m) {
    const p = this.pending[0]?.kind === 'preview' ? this.pending.shift() : null;
    if (!p) return;
    this.settlePreview(p, m);
  }

  settlePreview(p, answer) {
    if (p.gen === this.gen) this.cache.set(p.key, answer);
    p.resolve?.(p.gen === this.gen ? answer : null);
    this.inflight = false;
    this.pumpPreview();
    this.updateOverlay();
  }

  onError(m) {
    if (this.online.onError(m)) return;
    if (this.undoAsked && ['bad_message', 'forbidden', 'not_your_turn'].includes(m.code) && this.pending[0]?.kind !== 'preview') {
      // The take-back was refused: said in words ("nothing to take back", "not now").
      this.undoAsked = null;
      dialogs.toast(this.toastHost, m.code === 'bad_message' ? t('undo.nothing') : m.code === 'not_your_turn' ? t('undo.wait') : errorText(m), 'warn', 3000);
      this.renderAll();
      return;
    }
    const p = this.pending.shift();
    if (p?.kind === 'preview') {
      this.inflight = false;
      if (m.code === 'rate_limited') {
        // Too many messages: ask the same again a little later.
        this.queue.unshift({ msg: p.msg, key: p.key, resolve: p.resolve || (() => {}) });
        this.lastPreviewAt = Date.now() + 400;
        this.pumpPreview();
        return;
      }
      if (m.code === 'not_your_turn') { p.resolve?.(null); return; } // a new state is on its way
      this.settlePreview(p, { legal: false, error: m.message, code: m.code, reason: m.reason || null });
      return;
    }
    if (m.code === 'rate_limited' && p?.msg && (p.tries || 0) < RESENDS) {
      // Refused unread (too many messages at once: decisions played by hint in quick
      // succession): the same decision again once the server's allowance has refilled.
      p.tries = (p.tries || 0) + 1;
      setTimeout(() => this.resend(p), RESEND_MS);
      return;
    }
    if ((m.code === 'rate_limited' || m.code === 'busy') && !p && this.hintAsked) {
      // The hint's request was the one refused: its button may be pressed again.
      this.hintAsked = null;
      this.renderHintButton();
    }
    this.placing = false;
    if (m.code === 'unauthorized' && this.token && !this.you) {
      // The seat token is not accepted (an old game, another server): watch instead.
      tokens.drop(this.id);
      this.token = null;
      this.sock.token = null;
      this.sock.ws?.close();
      dialogs.toast(this.toastHost, t('game.token_refused'), 'warn', 4000);
      return;
    }
    if (!this.game) {
      if (m.code === 'not_found') this.showMissing();
      return;
    }
    dialogs.toast(this.toastHost, errorText(m), m.code === 'illegal_move' ? 'warn' : 'error', m.code === 'illegal_move' ? 4500 : 3500);
    this.renderAll();
  }

  // ---- previews -----------------------------------------------------------------
  // Asks the server for the preview of a placement; one request in flight at a time.
  // force: asked whatever comes next (in order); else a hover's, which the next hover
  // replaces. Returns a promise of the answer (or null).
  askPreview(msg, { force = false } = {}) {
    if (!force) return this.askHover([msg])[0];
    const k = JSON.stringify(msg);
    if (this.cache.has(k)) return Promise.resolve(this.cache.get(k));
    return new Promise((resolve) => {
      this.queue.push({ msg, key: k, resolve });
      this.pumpPreview();
    });
  }

  // The previews of the place under the pointer (several for ROTA's empty corner), in
  // place of those of the place before; promises of their answers.
  askHover(msgs) {
    const keys = msgs.map((m) => JSON.stringify(m));
    const keep = this.wants.filter((w) => keys.includes(w.key));
    for (const w of this.wants) if (!keep.includes(w)) w.resolve(null);
    this.wants = keep;
    const out = msgs.map((msg, i) => {
      const k = keys[i];
      if (this.cache.has(k)) return Promise.resolve(this.cache.get(k));
      const old = keep.find((w) => w.key === k);
      if (old) return old.promise;
      const req = { msg, key: k };
      req.promise = new Promise((resolve) => { req.resolve = resolve; });
      this.wants.push(req);
      return req.promise;
    });
    this.pumpPreview();
    return out;
  }

  pumpPreview() {
    if (this.inflight || !this.sock.open) return;
    if (this.online.holdPreviews()) {
      if (!this.pumpTimer) this.pumpTimer = setTimeout(() => { this.pumpTimer = null; this.pumpPreview(); }, 150);
      return;
    }
    // The server allows a few messages per second per connection: pace the previews.
    const wait = this.lastPreviewAt + PREVIEW_GAP_MS - Date.now();
    if (wait > 0) {
      if (!this.pumpTimer) this.pumpTimer = setTimeout(() => { this.pumpTimer = null; this.pumpPreview(); }, wait);
      return;
    }
    const next = this.queue.length ? this.queue.shift() : this.wants.shift();
    if (!next) return;
    if (this.cache.has(next.key)) { next.resolve(this.cache.get(next.key)); this.pumpPreview(); return; }
    this.inflight = true;
    this.lastPreviewAt = Date.now();
    this.pending.push({ kind: 'preview', key: next.key, msg: next.msg, gen: this.gen, resolve: next.resolve });
    this.sock.send({ type: 'preview', ...next.msg });
  }

  // ---- turn logic (input only) -------------------------------------------------
  myTurn() {
    const g = this.game;
    return !!(g && this.you && g.status === 'running' && g.to_move === this.you.seat && !this.replay && !g.seats[this.you.seat]?.left);
  }

  canPlace() { return this.myTurn() && this.game.phase === 'place' && !this.placing; }

  select(i) {
    if (!this.you || i >= (this.you.rack || []).length) return;
    if (i !== this.sel) this.dropHintNote();
    if (this.sel === i) { this.rotate(); return; }
    this.sel = i;
    this.rot = 0;
    this.renderRack();
    this.updateOverlay();
    this.renderStatus(); // "pick a tile" becomes "place the tile"
  }

  rotate() {
    if (this.sel === null) return;
    const v = this.game.variant;
    this.rot = v === 'hex' ? (this.rot + 5) % 6 : (this.rot + 1) % 4;
    this.renderRack();
    this.updateOverlay();
  }

  tile() { return this.sel === null ? null : this.you?.rack?.[this.sel] || null; }

  // ---- take-backs: a casual game against the computer without a clock ------------
  // Undo is offered to the one person of such a game once it has a decision of theirs.
  canUndo() {
    const g = this.game, me = this.you?.seat;
    if (!g || !this.you || g.status !== 'running' || g.rated || g.clock || this.replay || g.seats[me]?.left) return false;
    if (!g.seats.every((s, i) => i === me || s.kind === 'ai')) return false;
    return this.history.some((e) => (e.ev === 'place' || e.ev === 'swap') && e.player === me);
  }

  renderUndo() {
    const can = this.canUndo();
    this.undoBtn.hidden = !can;
    // The computer deciding (or a decision being stored) is no moment for it.
    this.undoBtn.disabled = !can || !this.myTurn() || this.placing || !!this.undoAsked;
    this.online.actionsShown();
  }

  askUndo() {
    if (!this.canUndo() || this.undoAsked || !this.sock.send({ type: 'undo' })) return;
    this.undoAsked = this.gen;
    this.renderUndo();
  }

  // ---- hints: the engine's advice, searched by the server from my view --------
  renderHintButton() {
    const g = this.game;
    const can = this.myTurn() && !g.rated && (g.phase === 'place' || g.phase === 'swap');
    this.hintBtn.hidden = !can;
    // The swap dialog has its own (on a phone it covers the panel's).
    for (const b of [this.hintBtn, this.dialog?.querySelector('[data-action=swap-hint]')]) {
      if (!b) continue;
      b.disabled = !!this.hintAsked;
      b.textContent = this.hintAsked ? t('hint.searching') : t('hint.button');
    }
  }

  askHint() {
    if (this.hintAsked || !this.sock.send({ type: 'hint' })) return;
    this.hintAsked = this.gen;
    this.renderHintButton();
  }

  // Shows the hinted decision as if I had picked it: the tile, turned, over its cells
  // (its preview label included); a click places it. A swap hint is said in words.
  onHint(move) {
    const asked = this.hintAsked;
    this.hintAsked = null;
    this.renderHintButton();
    if (asked !== this.gen || !this.myTurn() || !move) return;
    if (move.type === 'swap') {
      // Said in the swap dialog itself: the answer it advises, marked and focused.
      if (this.dialog?.classList.contains('swap-dialog-back')) dialogs.markSwapHint(this.dialog, move.accept);
      else dialogs.toast(this.toastHost, t(move.accept ? 'hint.swap_yes' : 'hint.swap_no'));
      return;
    }
    this.sel = move.rack_index;
    if (this.game.variant === 'rota') {
      this.rot = move.rotation;
      this.hover = move.cell;
    } else {
      const [a, b] = move.cells;
      const d = [b[0] - a[0], b[1] - a[1]];
      const dirs = this.game.variant === 'hex' ? HEX_DIRS : SQ_DIRS;
      this.rot = Math.max(0, dirs.findIndex((x) => x[0] === d[0] && x[1] === d[1]));
      this.hover = a;
    }
    this.kbd = false;
    this.hinted = { gen: this.gen, move };
    this.renderRack();
    this.updateOverlay();
    this.renderStatus();
    // A touch screen taps where a mouse clicks; German names ROTA's pieces its own way.
    // The note lasts as long as the hint is shown: it goes when the turn ends, with
    // another pick or a dialog (dropHintNote), never over the next turn.
    this.dropHintNote();
    this.hintNote = dialogs.toast(this.toastHost, tv(this.touchFirst() ? 'hint.shown_touch' : 'hint.shown', this.game.variant), 'info', 30000);
    this.hintNote.dataset.kind = 'hint';
    // The note never hides the tile it speaks of: over a tile at the board's foot it goes
    // to the top. An AXIO! banner still up has been seen: the hinted tile comes first.
    const tile = this.shownTile()?.getBoundingClientRect(), note = this.hintNote.getBoundingClientRect();
    if (tile && Math.min(tile.bottom, note.bottom) > Math.max(tile.top, note.top) && Math.min(tile.right, note.right) > Math.max(tile.left, note.left)) this.toastHost.classList.add('top');
    this.dropAxioBanners();
    this.guide?.position();
  }

  dropHintNote() {
    this.hintNote?.remove();
    this.hintNote = null;
    this.toastHost.classList.remove('top');
  }

  // The tile shown on the board to be placed by a click or a tap on it — the Hint's, or a
  // touch screen's first tap — as the overlay drawing it (guide.js keeps its tips off it).
  shownTile() {
    if (!this.board || this.placing || !this.hover) return null;
    const hm = this.hinted?.gen === this.gen ? this.hinted.move : null;
    const hinted = hm && sameCell(this.hover, hm.cell || hm.cells[0]);
    if (!hinted && !(this.touchPreview && sameCell(this.touchPreview, this.hover))) return null;
    const g = this.board.layerOverlay;
    return g.childElementCount ? g : null;
  }

  // ROTA: the colour the shown hint names for the empty corner (null: none) when `move`
  // is the hinted placement of this state; undefined for any other placement.
  hintedWild(move) {
    const hm = this.hinted?.gen === this.gen ? this.hinted.move : null;
    if (!hm || this.game.variant !== 'rota' || !move) return undefined;
    const same = hm.rack_index === move.rack_index && hm.rotation === move.rotation && sameCell(hm.cell, move.cell);
    return same ? hm.wild ?? null : undefined;
  }

  // The place/preview message for the picked tile at a cell (wild: ROTA's named colour).
  moveAt(cell, wild = null) {
    const t = this.tile();
    if (!t || !cell) return null;
    if (this.game.variant === 'rota') return { type: 'place', rack_index: this.sel, cell, rotation: this.rot, wild };
    const d = this.game.variant === 'hex' ? HEX_DIRS[this.rot] : SQ_DIRS[this.rot];
    return { type: 'place', rack_index: this.sel, cells: [cell, addCell(cell, d)] };
  }

  previewOf(move) {
    const { type, ...rest } = move;
    void type;
    return rest;
  }

  updateOverlay() {
    if (!this.board) return;
    const cursor = this.kbd ? this.hover : null;
    const move = this.canPlace() ? this.moveAt(this.hover) : null;
    if (!move) {
      this.board.overlay(null, cursor);
      this.renderPreviewPanel(null, null);
      this.shownMoved();
      return;
    }
    const req = this.previewOf(move);
    const ans = this.cache.get(JSON.stringify(req));
    // A ROTA tile with an empty corner: the colour named when placing counts, so the
    // number shown is the best the colour dialog will offer (the same previews).
    const wild = this.hasWild();
    const reqs = wild && (!ans || ans.legal) ? this.wildRequests(move) : [req];
    if (reqs.some((r) => !this.cache.has(JSON.stringify(r)))) this.askHover(reqs);
    const opts = wild && ans?.legal ? this.wildOptions(move) : null;
    const ready = ans && (!wild || !ans.legal || opts);
    const state = !ready ? 'pending' : ans.legal ? 'legal' : 'illegal';
    // The best the colour dialog offers, if it beats naming none (the first such colour);
    // on the hinted placement, the colour the hint names (it weighs the tracks, not the total).
    const hw = opts ? this.hintedWild(move) : undefined;
    const best = hw !== undefined ? opts.options.find((o) => o.color === hw) || null
      : opts?.options.reduce((b, o) => (o.total > (b ? b.total : this.gainOf(ans).total) ? o : b), null) || null;
    const shown = best ? best.answer : ans;
    const gain = ready && ans.legal ? this.gainOf(shown) : null;
    if (gain && best) gain.wild = best.color;
    const label = !ready ? '…' : ans.legal ? `+${gain.total}` : '✕';
    const t = this.tile();
    const ov = this.game.variant === 'rota'
      ? { cell: move.cell, corners: rotateCorners(t, this.rot), state, label }
      : { cells: move.cells, tile: t, state, label, pyramids: ans?.legal ? ans.pyramids || [] : [] };
    this.board.overlay(ov, cursor);
    this.renderPreviewPanel(ready ? shown : null, gain, move);
    this.shownMoved();
  }

  // Whether `cell` is under the tile shown (a domino's other half), where the server said it fits.
  onShownTile(cell) {
    const move = this.shownTile() && this.moveAt(this.hover);
    if (!move?.cells?.some((c) => sameCell(c, cell))) return false;
    return !!this.cache.get(JSON.stringify(this.previewOf(move)))?.legal;
  }

  // A tip keeps off the tile shown (or comes back when it goes): placed again when it changes.
  shownMoved() {
    const st = this.shownTile();
    if (st || this.shownWas) this.guide?.position();
    this.shownWas = st;
  }

  // Phones and tablets: no hover, so the page speaks of tapping.
  touchFirst() {
    return this.lastPointer === 'touch' || !!globalThis.matchMedia?.('(hover: none)').matches;
  }

  hasWild() { return this.game.variant === 'rota' && !!this.tile()?.includes(null); }

  // The previews of a ROTA placement with an empty corner: naming none, and each colour.
  wildRequests(move) {
    return [null, ...this.game.colors].map((c) => this.previewOf({ ...move, wild: c }));
  }

  // From the cached previews: naming none (base) and the colours that score more than
  // none (what the colour dialog offers, with each one's total); null while any is missing.
  wildOptions(move) {
    const [base, ...answers] = this.wildRequests(move).map((r) => this.cache.get(JSON.stringify(r)));
    if (!base || answers.some((a) => !a)) return null;
    if (!base.legal) return { base, options: [] };
    const options = [];
    this.game.colors.forEach((c, i) => {
      const r = answers[i];
      if (r.legal && (r.points?.[c] ?? 0) > (base.points?.[c] ?? 0)) options.push({ color: c, total: this.gainOf(r).total, answer: r });
    });
    return { base, options };
  }

  // What a preview adds to my tracks, per colour (its score minus my current tracks).
  gainOf(ans) {
    const cur = this.game.seats[this.you.seat].score || {};
    const per = {};
    let total = 0;
    for (const c of this.game.colors) {
      const after = ans.score?.[c] ?? ((cur[c] ?? 0) + (ans.points?.[c] ?? 0));
      const d = after - (cur[c] ?? 0);
      per[c] = d;
      total += d;
    }
    return { per, total };
  }

  clickCell(cell, pointerType) {
    if (this.replay) return;
    if (!this.you) return;
    if (!this.myTurn()) { dialogs.toast(this.toastHost, t('game.not_your_turn'), 'info', 1600); return; }
    if (this.game.phase !== 'place' || this.placing) return;
    if (this.sel === null) {
      dialogs.toast(this.toastHost, tv('game.pick_first', this.game.variant), 'info', 1800);
      this.rackHost.classList.add('flash');
      setTimeout(() => this.rackHost.classList.remove('flash'), 700);
      return;
    }
    if (pointerType === 'touch') this.lastPointer = 'touch';
    if (pointerType === 'touch' && !sameCell(cell, this.hover) && this.onShownTile(cell)) {
      // A tap on the tile shown where it fits (the Hint's, or a first tap's), on either of its halves, places it.
      this.place(this.hover);
      return;
    }
    if (pointerType === 'touch' && !sameCell(cell, this.hover)) {
      // Touch has no hover: the first tap shows the preview, a second tap places.
      this.hover = cell;
      this.touchPreview = cell;
      this.updateOverlay();
      return;
    }
    this.hover = cell;
    this.place(cell);
  }

  async place(cell) {
    const move = this.moveAt(cell);
    if (!move) return;
    const req = this.previewOf(move);
    const ans = this.cache.get(JSON.stringify(req));
    if (ans && !ans.legal) {
      dialogs.toast(this.toastHost, illegalText(ans), 'warn', 3500);
      return;
    }
    const t = this.tile();
    if (this.game.variant === 'rota' && t.includes(null)) {
      await this.chooseWild(move);
      return;
    }
    this.send(move);
  }

  send(move) {
    if (!this.sock.send(move)) { dialogs.toast(this.toastHost, t('game.offline'), 'error'); return; }
    this.guide?.onSend(move);
    this.pending.push({ kind: move.type, msg: move, gen: this.gen });
    this.placing = true;
    this.board.overlay(null);
    this.renderPreviewPanel(null, null);
    this.renderStatus();
  }

  // A decision refused for the message rate, sent again while it is still the one
  // being placed (no new state, the connection not lost meanwhile).
  resend(p) {
    if (p.gen !== this.gen || !this.placing) return;
    if (!this.sock.send(p.msg)) {
      this.placing = false;
      dialogs.toast(this.toastHost, t('game.offline'), 'error');
      this.renderAll();
      return;
    }
    this.pending.push(p);
  }

  // ROTA: the empty corner scores as a named colour. Ask the server what each colour
  // would score, offer those that score more than naming none, plus none.
  async chooseWild(move) {
    const gen = this.gen;
    const base = await this.askPreview(this.previewOf({ ...move, wild: null }), { force: true });
    if (gen !== this.gen) return;
    if (!base || !base.legal) {
      dialogs.toast(this.toastHost, base ? illegalText(base) : t('game.offline'), 'warn', 3500);
      return;
    }
    for (const c of this.game.colors) {
      const r = await this.askPreview(this.previewOf({ ...move, wild: c }), { force: true });
      if (gen !== this.gen) return;
      if (!r) { dialogs.toast(this.toastHost, t('game.offline'), 'warn', 3500); return; }
    }
    const options = this.wildOptions(move)?.options || [];
    if (!options.length) { this.send({ ...move, wild: null }); return; }
    // The hinted placement: the hint's colour is chosen already (focused; Enter places it).
    const hw = this.hintedWild(move);
    const hinted = hw === undefined ? undefined : options.some((o) => o.color === hw) ? hw : 'none';
    this.closeDialog();
    this.dialog = dialogs.wildChooser(this.boardWrap, {
      options, baseTotal: this.gainOf(base).total, hinted,
      onChoose: (c) => { this.closeDialog(); if (gen === this.gen) this.send({ ...move, wild: c }); },
      onCancel: () => this.closeDialog(),
    });
  }

  closeDialog() {
    this.dropHintNote(); // called before every dialog opens: no note over (or under) a dialog
    if (this.dialog) { this.dialog.remove(); this.dialog = null; }
    this.renderAfterButtons();
    this.guide?.refresh(); // a tip about the dialog goes with it
  }

  // ---- keys -------------------------------------------------------------------
  onKey(e) {
    if (e.target && ['INPUT', 'SELECT', 'TEXTAREA'].includes(e.target.tagName)) return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (this.replay && this.replay.onKey(e)) return;
    if (e.key === 'Escape') {
      if (this.dialog && !this.dialog.classList.contains('swap-dialog-back')) { this.closeDialog(); return; }
      this.sel = null; this.renderRack(); this.updateOverlay(); return;
    }
    if (e.key === 'r' || e.key === 'R') { this.rotate(); e.preventDefault(); return; }
    if (/^[1-6]$/.test(e.key) && this.you) { this.select(Number(e.key) - 1); e.preventDefault(); }
  }

  onBoardKey(e) {
    if (!this.board) return;
    if (e.key.startsWith('Arrow')) {
      e.preventDefault();
      this.kbd = true;
      this.hover = this.board.step(this.hover || this.defaultCursor(), e.key);
      this.updateOverlay();
    } else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      if (!this.hover) { this.kbd = true; this.hover = this.defaultCursor(); this.updateOverlay(); return; }
      this.clickCell(this.hover, 'keyboard');
    }
  }

  defaultCursor() {
    const g = this.game;
    if (g.variant === 'rota') return (g.frontier && g.frontier[0]) || [0, 0];
    if (g.variant === 'hex') return [0, 0];
    return [6, 6];
  }

  // ---- rendering ----------------------------------------------------------------
  boardView() {
    const g = this.game;
    if (g.variant === 'rota') return { tiles: g.tiles || [], frontier: g.status === 'over' ? [] : g.frontier || [], last: g.last };
    return { area: g.area, fields: g.fields || [], cells: g.cells || [], pyramids: g.pyramids || [], dead: g.dead || [], last: g.last, pairs: this.pairs };
  }

  renderAll() {
    if (!this.game) return;
    this.renderInfo();
    this.renderBoard();
    this.renderScores();
    this.renderRack();
    this.renderStatus();
    this.updateOverlay();
    this.renderSwap();
    this.renderInvite();
    this.renderAfterButtons();
    this.online.render();
  }

  // A finished game's Results and "Step through the game": not while the end card, which
  // has its own "Step through the game", is shown.
  renderAfterButtons() {
    const over = this.game?.status === 'over';
    const aborted = this.game?.status === 'aborted';
    const card = !!this.dialog?.querySelector('.end-dialog');
    this.resultsBtn.hidden = !(over || aborted) || card;
    this.replayBtn.hidden = !over || card; // an aborted game has no record
  }

  renderBoard() {
    if (!this.board || this.replay) return;
    this.board.compact = this.isCompact();
    this.board.render(this.boardView());
    this.fitWrap();
    this.el.dataset.status = this.game.status;
    this.el.dataset.phase = this.game.phase;
    this.el.dataset.toMove = this.game.to_move;
    this.el.dataset.seq = this.seq;
    this.guide?.refresh();
  }

  renderScores(seatsOverride = null) {
    const g = this.game;
    this.scores.render({
      variant: g.variant, mode: g.mode, colors: g.colors, seats: seatsOverride || g.seats,
      toMove: seatsOverride ? -1 : g.to_move, you: this.you?.seat ?? -1, status: seatsOverride ? 'replay' : g.status,
      clock: !seatsOverride && !!g.clock,
    });
  }

  renderRack() {
    if (!this.game) return;
    const watching = !this.you;
    this.rackPanel.hidden = watching || !['running', 'waiting'].includes(this.game.status) || !!this.game.seats[this.you.seat]?.left;
    this.watchNote.hidden = !watching;
    if (watching) return;
    this.rack.render({ variant: this.game.variant, tiles: this.you.rack || [], selected: this.sel, rot: this.rot, active: this.canPlace() });
    this.rackPanel.dataset.selected = this.sel === null ? '' : String(this.sel);
    this.rackPanel.dataset.rot = String(this.rot);
  }

  renderPreviewPanel(ans, gain, move) {
    const el = clear(this.previewEl);
    el.dataset.state = ans ? (ans.legal ? 'legal' : 'illegal') : move ? 'pending' : 'none';
    el.dataset.key = move ? key(move.cell || move.cells[0]) : '';
    if (!this.you || !this.game || this.game.status !== 'running') return;
    if (!this.canPlace()) return;
    const v = this.game.variant;
    if (this.sel === null) { el.append(tv('preview.pick', v)); return; }
    if (!move) { el.append(tv(this.touchFirst() ? 'preview.tap' : 'preview.point', v)); return; }
    if (!ans) { el.append(h('span', { class: 'spinner small' }), ` ${t('preview.asking')}`); return; }
    if (!ans.legal) { el.append(h('span', { class: 'illegal-mark' }, ['✕ ']), illegalText(ans)); return; }
    el.dataset.total = String(gain.total);
    el.dataset.score = JSON.stringify(ans.score || {});
    el.dataset.wild = gain.wild || '';
    const parts = [h('b', {}, [`+${gain.total}`]), t('preview.here')];
    let any = false;
    for (const c of this.game.colors) {
      const d = gain.per[c];
      const raw = ans.points?.[c] ?? 0;
      if (d <= 0 && raw <= 0) continue;
      any = true;
      parts.push(h('span', { class: 'pts', 'data-color': c }, [`+${d}`, shapeIcon(c, 14), raw > d ? h('small', { class: 'lost' }, [t('preview.lost', { n: raw - d })]) : null]));
      if ((ans.score?.[c] ?? 0) > (this.game.seats[this.you.seat].score?.[c] ?? 0) && this.isThreshold(ans.score[c])) {
        parts.push(h('span', { class: 'axio-hint' }, ['AXIO! ']));
      }
    }
    if (!any) parts.push(t('preview.no_points'));
    // The empty corner: the points shown are those of its best colour (the dialog asks).
    if (gain.wild) parts.push(h('span', { class: 'wild-hint' }, [t('preview.wild'), ' ', shapeIcon(gain.wild, 14)]));
    if (ans.pyramids?.length) parts.push(h('span', { class: 'pyr-note' }, [t('preview.pyramids', { n: ans.pyramids.length })]));
    if (this.touchPreview && sameCell(this.touchPreview, this.hover)) parts.push(h('span', { class: 'tap-again' }, [t('preview.tap_again')]));
    el.append(...parts);
  }

  isThreshold(v) {
    const g = this.game;
    if (g.variant === 'rota') return v === 12;
    if (g.mode === 'standard') return v === 18;
    return v === 18 || v === 36;
  }

  renderStatus() {
    const g = this.game;
    if (!g) return;
    this.renderHintButton();
    this.renderUndo();
    const box = clear(this.statusLine);
    box.className = 'status-line';
    // A phone's board takes the whole width: its "?" goes to the end of this line
    // rather than over a corner of the board (on a wide screen it sits beside the board).
    (this.isCompact() ? box : this.boardWrap).append(this.rulesLink);
    const el = { append: (...xs) => box.append(...xs.filter((x) => x !== null && x !== undefined && x !== false)), classList: box.classList };
    // A spinner and its words: the words wrap beside it, never onto a line of their own.
    const busy = (...words) => el.append(h('span', { class: 'spinner' }), h('span', { class: 'status-text' }, words.filter((x) => x !== null && x !== undefined && x !== false)));
    const seat = g.seats[g.to_move];
    const cs = this.connState?.state;
    if (this.replay) { el.append(t('status.replay')); return; }
    if (cs === 'lost' || cs === 'connecting') el.classList.add('stale');
    if (g.status === 'waiting') {
      const free = g.seats.filter((s) => s.kind === 'human' && !s.taken && !s.connected).length;
      el.classList.add('waiting');
      if (g.rematch_of) { busy(t('rematch.waiting')); return; }
      busy(t('invite.waiting', { n: free }));
      return;
    }
    if (g.status === 'over') { el.append(t('status.over')); return; }
    if (g.status === 'aborted') { el.append(t('status.aborted')); return; }
    const bonus = g.bonus ? h('span', { class: 'bonus-tag' }, [t('status.bonus')]) : null;
    const v = g.variant;
    if (this.myTurn()) {
      el.classList.add('your-turn');
      if (this.placing) busy(g.phase === 'swap' ? t('status.sending_choice') : t('status.placing'));
      else if (g.phase === 'swap') el.append(t('status.swap_choice'));
      else el.append(h('b', {}, [t('status.your_turn')]), ' ', bonus, tv(this.sel === null ? 'status.pick' : 'status.place', v));
      return;
    }
    const name = seatLabel(seat, g.seats);
    if (seat.played_by) {
      el.classList.add('thinking');
      busy(t('leave.thinking_for', { level: levelName(seat.played_by), name }));
      el.append(bonus);
    } else if (seat.kind === 'ai') {
      el.classList.add('thinking');
      busy(t('status.ai_thinking', { name }), g.ai_hurried ? h('span', { class: 'hurried-note', 'data-hurried': '1' }, [` ${t('ai.hurried')}`]) : null);
      el.append(bonus);
    } else {
      busy(t('status.waiting_for', { name }), seat.connected === false ? t('status.not_connected') : '', '…');
      el.append(bonus);
    }
  }

  renderInfo() {
    const g = this.game;
    const you = this.you ? t('info.you_seat', { n: this.you.seat + 1 }) : t('info.watching');
    const clock = g.clock ? ` · ${t('info.clock', { clock: clockName(g.clock) })}` : '';
    const rated = g.rated === undefined ? '' : ` · ${g.rated ? t('rating.rated') : t('rating.casual')}`;
    clear(this.infoEl).append(
      h('div', {}, [h('b', {}, [VARIANTS[g.variant].name]), ` · ${t('info.players', { n: g.players })} · ${modeName(g.mode)}${clock}${rated} · ${you}`]),
      // A table of an event: back to its page (standings, the next round).
      g.event ? h('div', {}, [h('a', { class: 'event-link', href: `#/event/${encodeURIComponent(g.event)}` }, [t('event.game_link')])]) : null,
      h('div', { class: 'legend', 'aria-label': t('game.legend') }, g.colors.map((c) => h('span', { class: 'legend-item' }, [shapeIcon(c, 14), colorName(c)]))),
      h('div', { class: 'muted seed', title: t('info.seed_title') }, [
        g.seed ? `${t('info.seed', { seed: g.seed })} · ` : '', g.seed_hash ? t('info.seed_hash', { hash: g.seed_hash.slice(0, 16) }) : '',
        typeof g.spectators === 'number' && g.spectators > 0 ? ` · ${t('info.spectators', { n: g.spectators })}` : '',
      ]),
    );
  }

  // While the game waits, its players see the invite link (made once: the same
  // element stays, so a selection in it survives new states).
  renderInvite() {
    const g = this.game;
    const show = g.status === 'waiting' && !!this.you && !g.rematch_of;
    if (show && !this.invite) this.inviteHost.append(this.invite = inviteBox(this.id));
    this.inviteHost.hidden = !show;
  }

  renderSwap() {
    const g = this.game;
    const offer = this.myTurn() && g.phase === 'swap';
    const open = this.dialog && this.dialog.classList.contains('swap-dialog-back');
    if (offer && !open) {
      this.closeDialog();
      const sc = g.seats[this.you.seat].score || {};
      const low = Math.min(...g.colors.map((c) => sc[c] ?? 0));
      this.dialog = dialogs.swapDialog(this.boardWrap, {
        variant: g.variant, rack: this.you.rack || [], lowest: g.colors.filter((c) => (sc[c] ?? 0) === low),
        onChoose: (accept) => { this.closeDialog(); this.send({ type: 'swap', accept }); },
        onHint: g.rated ? null : () => this.askHint(),
      });
      this.renderHintButton();
    } else if (!offer && open) this.closeDialog();
  }

  // AXIO! banners, one at a time and short (shorter while others wait); they never
  // hold up the player: when it is my turn to place, other players' banners go at once.
  // "Bonus move!" is said once the state after the event has it to play: the last
  // placement of a game can reach AXIO!, and then the game is over (the event still
  // grants the move).
  queueAxio(a) {
    this.axioQueue.push({ ...a, bonus: false, earned: a.bonus });
    if (!this.axioShown) this.nextAxio();
  }

  // The state after the events: their bonus moves are to be played (on), or not (the game is over).
  settleAxioBonus(on) {
    for (const a of this.axioQueue) a.bonus = on && a.earned;
    const cur = this.axioShown;
    if (cur) { cur.a.bonus = on && cur.a.earned; dialogs.axioBonus(cur.el, cur.a.bonus); }
    if (!on) for (const a of [...this.axioQueue, ...(cur ? [cur.a] : [])]) a.earned = false;
  }

  // All banners, shown and waiting, put away (the player has moved on: a hint is shown).
  dropAxioBanners() {
    this.axioQueue = [];
    const cur = this.axioShown;
    if (cur) { cur.timers.forEach(clearTimeout); cur.el.remove(); this.nextAxio(); }
  }

  // A guided game's tip makes way for the banner while it shows (guide.js).
  nextAxio() {
    this.axioShown = null;
    const a = this.axioQueue.shift();
    if (!a || this.gone) { this.guide?.position(); return; }
    const el = dialogs.axioBanner(this.bannerHost, a);
    const ms = this.axioQueue.length ? 1000 : 1600;
    this.axioShown = { a, el, timers: [setTimeout(() => el.classList.add('fade'), ms - 300), setTimeout(() => { el.remove(); this.nextAxio(); }, ms)] };
    this.guide?.position();
  }

  dropOthersAxio() {
    const mine = this.you?.seat;
    this.axioQueue = this.axioQueue.filter((a) => a.seat === mine);
    const cur = this.axioShown;
    if (cur && cur.a.seat !== mine) {
      cur.timers.forEach(clearTimeout);
      cur.el.remove();
      this.nextAxio();
    }
  }

  showEnd(force) {
    const g = this.game;
    const aborted = g.status === 'aborted';
    if ((!g.end && !aborted) || (this.endShown && !force) || this.replay) return;
    this.endShown = true;
    this.closeDialog();
    if (aborted) {
      // No result and no record: who aborted, that no rating changed, back to the lobby.
      this.dialog = dialogs.abortedScreen(this.endHost, {
        by: g.aborted_by, seats: g.seats, you: this.you?.seat ?? -1, rated: !!g.rated,
        onClose: () => this.closeDialog(),
        onLobby: () => { location.hash = '#/'; },
      });
      this.renderAfterButtons();
      return;
    }
    // The end screen is a card beside the board (on a phone above it), never over it:
    // the final position is what people want to look at.
    this.dialog = dialogs.endScreen(this.endHost, {
      end: g.end, seats: g.seats, colors: g.colors, mode: g.mode, variant: g.variant, you: this.you?.seat ?? -1, rated: !!g.rated,
      leaves: this.leaves(),
      // A guest who played is offered an account (a rating from the next game on); a
      // spectator had no rating to keep.
      signupHref: session.me || !this.you ? null : authHash('signup', `#/game/${encodeURIComponent(this.id)}`),
      onReplay: () => { this.closeDialog(); this.openReplay(); },
      onRematch: this.you ? () => this.online.rematch() : null,
      onClose: () => this.closeDialog(),
      onLobby: () => { location.hash = '#/'; },
    });
    this.renderAfterButtons();
    this.online.renderRematch();
  }

  // ---- replay -------------------------------------------------------------------
  async openReplay() {
    if (this.replay) return;
    let events;
    try {
      events = await api.getRecord(this.id);
    } catch (e) {
      dialogs.toast(this.toastHost, t('game.record_missing', { msg: errorText(e) }), 'error', 4000);
      return;
    }
    this.closeDialog();
    this.board.overlay(null);
    this.replay = new Replay(this.replayHost, events, {
      show: (step) => {
        this.board.compact = this.isCompact();
        this.board.render(step.view);
        this.fitWrap();
        this.renderScores(this.game.seats.map((s, i) => ({ ...s, score: step.scores[i] || {} })));
        this.highlightLog(step);
      },
      close: () => this.closeReplay(),
    }, { analysis: { host: this.analysisHost, game: this.id, seat: this.you?.seat ?? null, seats: this.game.seats } });
    this.el.classList.add('replaying');
    this.renderStatus();
    this.online.render();
  }

  // The log up to the step shown, its own lines highlighted.
  highlightLog(step) {
    const names = this.seatNames(), bots = this.seatBots();
    clear(this.logEl);
    this.logEl.style.paddingBottom = '';
    let current = null, ended = false;
    for (const st of this.replay ? this.replay.steps.slice(0, step.index + 1) : [step]) {
      for (const ev of st.events) {
        ended ||= ev.ev === 'end';
        const li = logLine(ev, names, this.game.variant, bots);
        if (!li) continue;
        if (st === step) { li.classList.add('current'); current = current || li; }
        this.logEl.appendChild(li);
      }
    }
    if (ended) dropEndedBonus(this.logEl);
    // The step's first row, with the row before it above it, whole under the heading.
    const top = current?.previousElementSibling || current;
    if (top) this.logEl.scrollTop = top.offsetTop - this.logEl.firstElementChild.offsetTop;
  }

  closeReplay() {
    this.replay?.destroy();
    this.replay = null;
    this.el.classList.remove('replaying');
    clear(this.logEl);
    for (const ev of this.history) this.addLog(ev, false);
    this.fitLog();
    this.renderAll();
  }
}
