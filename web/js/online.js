// online.js — the online-play parts of a game page, beside the board: clocks that
// count down, the notice and Claim button when the person to move has gone, the
// Abort (while nobody has placed a second tile), Resign and Cancel buttons, the chat, rematch offers, and the turn alerts (tab
// title, icon, sound, notification). game.js owns the page and the connection and
// hands this the server's messages; everything here is decided by the server.
import { h, clear } from './svg.js';
import { api, tokens, created } from './api.js';
import { t, joinNames, errorText } from './messages.js';
import { VARIANTS, seatLabel } from './variants.js';
import { paintClocks } from './clock.js';
import { Chat } from './chat.js';
import { TurnAlert } from './attention.js';
import { AbsentBar, gameActions, leaveEnds, abortable } from './leave.js';
import * as dialogs from './dialogs.js';
import { isBot } from './bot_mark.js';
import { session } from './account.js';
import { reportDialog } from './moderation.js';

const CHAT_HOLD_MS = 2000; // previews wait this long for a chat's answer (errors carry no id)

export class Online {
  constructor(view) {
    this.v = view;
    this.arrivedAt = Date.now();
    this.chatSent = null;       // {text, at} of a chat message not yet seen coming back
    this.rematchAsked = false;
    this.chat = new Chat({
      send: (text) => this.sendChat(text),
      youSeat: () => this.v.you?.seat ?? null,
      botSeat: (seat) => { const s = this.v.game?.seats?.[seat]; return !!s && s.kind !== 'ai' && isBot(s); },
      // a signed-in reader reports another player's line (moderation.js)
      report: (m) => (session.me ? reportDialog({ player: m.from.name, game: this.v.id, chat: m.n, text: m.text })
        : dialogs.toast(this.v.toastHost, t('mod.login_to_report'), 'warn', 3500)),
    });
    this.alert = new TurnAlert();
    this.absent = new AbsentBar(() => this.claim());
    this.actions = h('div', { class: 'game-actions', hidden: true });
    this.rematchBox = h('div', { class: 'rematch-box', id: 'rematch-box', role: 'status', hidden: true });
    this.leftNote = h('div', { class: 'left-note', hidden: true });
    this.alertBox = this.alert.controls();
    this.alertBox.hidden = true;
    this.timer = setInterval(() => this.tick(), 250);
  }

  get game() { return this.v.game; }

  // This page's seat and whether it left, or null for a spectator.
  youInfo() {
    const y = this.v.you;
    if (!y || !this.game) return null;
    return { seat: y.seat, left: this.game.seats[y.seat]?.left || null };
  }

  destroy() {
    clearInterval(this.timer);
    this.chat.destroy();
    this.alert.destroy();
  }

  // ---- messages ---------------------------------------------------------------
  // Returns true when the message was one of ours.
  onMessage(m) {
    switch (m.type) {
      case 'chat':
        if (this.chatSent && m.text === this.chatSent.text && (m.from?.seat ?? null) === (this.v.you?.seat ?? null)) this.chatSent = null;
        this.chat.add(m);
        return true;
      case 'chat_history': this.chat.setHistory(m.messages || []); return true;
      case 'moderation': this.chat.onModeration(m); return true;
      case 'rematch': this.onRematch(m); return true;
      default: return false;
    }
  }

  // Errors of our messages. Errors carry no id: they are told apart by their code
  // and by what is waiting for an answer (previews wait while a chat is unanswered).
  onError(m) {
    const g = this.game;
    if (m.code === 'not_absent') {
      const s = g?.seats?.[g.to_move];
      dialogs.toast(this.v.toastHost, t('leave.not_absent', { name: seatLabel(s, g?.seats) }), 'warn', 4000);
      this.absent.reset();
      return true;
    }
    if (m.code === 'not_over') {
      this.rematchAsked = false;
      dialogs.toast(this.v.toastHost, t('rematch.not_over'), 'warn');
      return true;
    }
    if (m.code === 'chat_timeout') {
      this.chatSent = null;
      this.chat.onError(m.code, errorText(m), m.until);
      return true;
    }
    const chatWaiting = this.chatSent && Date.now() - this.chatSent.at < CHAT_HOLD_MS * 3;
    if (chatWaiting && (m.code === 'bad_message' || (m.code === 'rate_limited' && !this.v.inflight))) {
      this.chatSent = null;
      this.chat.onError(m.code, errorText(m));
      return true;
    }
    if (this.abortAsked && ['forbidden', 'not_your_turn', 'game_over'].includes(m.code)) {
      // Too late (a person placed a second tile meanwhile), or a decision being stored.
      this.abortAsked = false;
      dialogs.toast(this.v.toastHost, m.code === 'forbidden' ? t('abort.too_late') : errorText(m), 'warn', 4000);
      this.render();
      return true;
    }
    if (this.rematchAsked) {
      this.rematchAsked = false;
      dialogs.toast(this.v.toastHost, t('rematch.failed', { msg: errorText(m) }), 'error', 4000);
      return true;
    }
    this.absent.reset();
    return false;
  }

  // Previews wait while a chat message may still be answered with an error.
  holdPreviews() { return !!this.chatSent && Date.now() - this.chatSent.at < CHAT_HOLD_MS; }

  sendChat(text) {
    if (!this.v.sock.send({ type: 'chat', text })) return false;
    this.chatSent = { text, at: Date.now() };
    return true;
  }

  // ---- state ------------------------------------------------------------------
  // A state arrived (game.js renders it next and then calls render()).
  arrived() {
    this.arrivedAt = Date.now();
    this.absent.reset();
    if (this.game?.status !== 'running') this.abortAsked = false;
  }

  render() {
    const g = this.game;
    if (!g) return;
    const you = this.youInfo();
    const running = g.status === 'running';
    gameActions(this.actions, {
      canResign: !!you && !you.left && running && !this.v.replay,
      canAbort: !!you && !you.left && running && !this.v.replay && abortable(g, this.v.history),
      // Cancelling proves the creator's seat with its token: this browser's (not a seat
      // the account holds without one here).
      canCancel: !!you && !!this.v.token && g.status === 'waiting' && (g.creator === you.seat || (g.creator === undefined && created.has(this.v.id))),
      onResign: () => this.askResign(),
      onCancel: () => this.askCancel(),
      onAbort: () => this.askAbort(),
      undo: this.v.undoBtn,
    });
    this.leftNote.hidden = !you?.left;
    this.leftNote.textContent = you?.left ? t('leave.you_left', { why: t(`leave.why.${you.left}`) }) : '';
    this.alertBox.hidden = !you || !!you.left || !['running', 'waiting'].includes(g.status);
    this.renderRematch();
    const name = VARIANTS[g.variant]?.name || 'AXIO';
    this.alert.update(this.v.myTurn(), `${name} · axio`, name);
    this.tick();
  }

  // The row of Undo, Abort, Resign and Cancel shows when any of them does.
  actionsShown() { this.actions.hidden = ![...this.actions.children].some((b) => !b.hidden); }

  tick() {
    const g = this.game;
    if (!g) return;
    const now = Date.now();
    if (g.clock && !this.v.replay) paintClocks(this.v.scoresHost, g, this.arrivedAt, now);
    this.absent.update(g, this.arrivedAt, this.v.replay ? null : this.youInfo(), now);
    if (this.v.replay) this.absent.el.hidden = true;
  }

  // ---- leaving ----------------------------------------------------------------
  askResign() {
    const g = this.game;
    this.v.closeDialog();
    // While the game may still be aborted, the question says so (no rating lost that way).
    const early = abortable(g, this.v.history) ? ` ${t(g.rated ? 'abort.instead_rated' : 'abort.instead')}` : '';
    this.v.dialog = dialogs.confirmDialog(this.v.boardWrap, {
      title: t('leave.resign_title'),
      text: (leaveEnds(g) ? t('leave.resign_two') : t('leave.resign_more')) + early,
      ok: t('leave.resign_confirm'), cancel: t('leave.resign_cancel'), action: 'confirm-resign',
      onOk: () => {
        this.v.closeDialog();
        if (!this.v.sock.send({ type: 'resign' })) dialogs.toast(this.v.toastHost, t('chat.offline'), 'error');
      },
      onCancel: () => this.v.closeDialog(),
    });
  }

  // Abort: the game ends for everyone without a result (and no rating changes).
  askAbort() {
    const g = this.game;
    this.v.closeDialog();
    this.v.dialog = dialogs.confirmDialog(this.v.boardWrap, {
      title: t('abort.ask_title'),
      text: t(g.rated ? 'abort.ask_rated' : 'abort.ask'),
      ok: t('abort.confirm'), cancel: t('leave.resign_cancel'), action: 'confirm-abort',
      onOk: () => {
        this.v.closeDialog();
        if (!this.v.sock.send({ type: 'abort' })) { dialogs.toast(this.v.toastHost, t('chat.offline'), 'error'); return; }
        this.abortAsked = true;
      },
      onCancel: () => this.v.closeDialog(),
    });
  }

  claim() {
    if (!this.v.sock.send({ type: 'claim' })) {
      dialogs.toast(this.v.toastHost, t('chat.offline'), 'error');
      this.absent.reset();
    }
  }

  askCancel() {
    this.v.closeDialog();
    this.v.dialog = dialogs.confirmDialog(this.v.boardWrap, {
      title: t('gone.cancel_game'), text: t('gone.cancel_confirm'),
      ok: t('gone.cancel_game'), cancel: t('leave.resign_cancel'), action: 'confirm-cancel',
      onOk: async () => {
        this.v.closeDialog();
        try {
          await api.cancelGame(this.v.id, this.v.token);
          this.v.showGone('cancelled');
        } catch (e) {
          dialogs.toast(this.v.toastHost, t('lobby.cancel_failed', { msg: errorText(e) }), 'error', 4000);
        }
      },
      onCancel: () => this.v.closeDialog(),
    });
  }

  // ---- rematch ----------------------------------------------------------------
  rematch() {
    const g = this.game;
    const mine = this.v.you?.seat;
    if (g?.rematch && (g.rematch_seats || []).includes(mine) && tokens.get(g.rematch)) {
      location.hash = `#/game/${g.rematch}`;
      return;
    }
    if (!this.v.sock.send({ type: 'rematch' })) { dialogs.toast(this.v.toastHost, t('chat.offline'), 'error'); return; }
    this.rematchAsked = true;
    dialogs.toast(this.v.toastHost, t('rematch.asking'), 'info', 2000);
  }

  onRematch(m) {
    this.rematchAsked = false;
    if (!m.game || m.token === undefined) return;
    tokens.set(m.game, m.seat, m.token);
    location.hash = `#/game/${m.game}`;
  }

  rematchNodes() {
    const g = this.game;
    if (!g || g.status !== 'over' || !g.rematch) return [];
    const mine = this.v.you ? this.v.you.seat : null;
    const seats = g.rematch_seats || [];
    const others = seats.filter((s) => s !== mine);
    const out = [];
    const humans = g.seats.filter((s) => s.kind === 'human').length;
    if (mine === null && seats.length && seats.length >= humans) {
      out.push(h('span', { class: 'rematch-text' }, [t('rematch.playing', { names: joinNames(seats.map((s) => seatLabel(g.seats[s], g.seats))) })]));
    } else if (others.length) {
      out.push(h('span', { class: 'rematch-text' }, [t('rematch.wants', { names: joinNames(others.map((s) => seatLabel(g.seats[s], g.seats))), n: others.length })]));
    }
    if (mine === null) {
      out.push(h('a', { class: 'btn small', href: `#/watch/${g.rematch}`, 'data-action': 'watch-rematch' }, [t('rematch.watch')]));
    } else if (seats.includes(mine)) {
      out.push(h('button', { class: 'btn small primary', type: 'button', 'data-action': 'go-rematch', onclick: () => this.rematch() }, [t('rematch.go')]));
    } else if (others.length) {
      out.push(h('button', { class: 'btn small primary', type: 'button', 'data-action': 'join-rematch', onclick: () => this.rematch() }, [t('rematch.join')]));
    }
    return out;
  }

  renderRematch() {
    const nodes = this.rematchNodes();
    clear(this.rematchBox).append(...nodes);
    this.rematchBox.hidden = !nodes.length;
    const slot = this.v.dialog?.querySelector('.end-rematch');
    if (slot) clear(slot).append(...this.rematchNodes());
  }
}
