// leave.js — leaving a game, as the page shows it: the notice that the person to
// move has no connection, with a countdown until the others may claim (declare
// them absent), and the Claim button; the Resign button, and Abort while the game has
// (almost) no play. The server decides everything (rules 6, docs/online-play.md
// "Aborting"); the page only counts from away_ms and absent_s and from the history.
import { h, clear } from './svg.js';
import { t } from './messages.js';
import { seatLabel } from './variants.js';
import { formatClock } from './clock.js';

// "45 s", "1:05", "2 h 05 m" until a claim is allowed.
function waitText(ms) {
  const s = Math.ceil(ms / 1000);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
  return formatClock(ms, 'daily');
}

// The seat to move when it is a person who is away, else -1.
export function awaySeat(game) {
  if (!game || game.status !== 'running') return -1;
  const i = game.to_move;
  const s = game.seats?.[i];
  if (!s || s.kind !== 'human' || s.left || s.played_by) return -1;
  return s.away_ms === null || s.away_ms === undefined ? -1 : i;
}

// Does a leave of one more seat end the game (two sides, or only two players stay)?
export function leaveEnds(game) {
  if (game.mode === 'team' || game.players <= 2) return true;
  return game.seats.filter((s) => !s.left).length <= 2;
}

export class AbsentBar {
  // onClaim(): send the claim
  constructor(onClaim) {
    this.onClaim = onClaim;
    this.text = h('span', { class: 'absent-text' });
    this.wait = h('span', { class: 'absent-wait muted' });
    this.btn = h('button', { class: 'btn small primary', type: 'button', 'data-action': 'claim', onclick: () => this.claim() });
    this.help = h('span', { class: 'absent-help muted' });
    this.el = h('div', { class: 'absent-bar', id: 'absent-bar', role: 'status', hidden: true }, [
      h('span', { class: 'conn off', 'aria-hidden': 'true' }), this.text, this.wait, this.btn, this.help,
    ]);
    this.sent = false;
  }

  claim() {
    if (this.btn.disabled) return;
    this.sent = true;
    this.btn.disabled = true;
    this.onClaim();
  }

  // After an answer (a new state, or not_absent): the button may be used again.
  reset() { this.sent = false; }

  // you: {seat, left} of this page's player, or null for a spectator.
  update(game, arrivedAt, you, now = Date.now()) {
    const i = awaySeat(game);
    if (i < 0 || (you && you.seat === i)) { this.el.hidden = true; this.el.dataset.seat = ''; return; }
    const seat = game.seats[i];
    const name = seatLabel(seat, game.seats);
    this.el.hidden = false;
    this.el.dataset.seat = String(i);
    const text = t('leave.not_connected', { name });
    if (this.text.textContent !== text) this.text.textContent = text;
    const canClaim = !!you && !you.left;
    this.btn.hidden = !canClaim;
    this.help.hidden = !canClaim;
    if (!canClaim) { this.wait.textContent = ''; return; }
    const away = seat.away_ms + (now - arrivedAt);
    const left = (game.absent_s ?? 120) * 1000 - away;
    const ready = left <= 0;
    this.el.dataset.claimable = ready ? '1' : '0';
    this.wait.textContent = `— ${ready ? t('leave.claim_now') : t('leave.claim_in', { time: waitText(left) })}`;
    const ends = leaveEnds(game);
    const label = ends ? t('leave.claim_win') : t('leave.claim_seat');
    if (this.btn.textContent !== label) this.btn.textContent = label;
    this.btn.disabled = !ready || this.sent;
    this.help.textContent = ends ? t('leave.claim_help_two') : t('leave.claim_help_more', { name });
  }
}

// Whether the game may still be aborted: it runs and no person has placed more than
// one tile (the history's placements, bonus moves included, as the server counts).
export function abortable(game, history) {
  if (!game || game.status !== 'running') return false;
  const placed = new Map();
  for (const ev of history || []) if (ev.ev === 'place') placed.set(ev.player, (placed.get(ev.player) || 0) + 1);
  return (game.seats || []).every((s, i) => s.kind !== 'human' || (placed.get(i) || 0) <= 1);
}

// Undo (game.js shows or hides it), Abort (while the game is abortable), the Resign
// button and, for the creator of a waiting game, Cancel game.
export function gameActions(host, { canResign, canCancel, canAbort = false, onResign, onCancel, onAbort, undo = null }) {
  clear(host);
  if (undo) host.appendChild(undo);
  if (canAbort) host.appendChild(h('button', { class: 'btn small', type: 'button', 'data-action': 'abort', title: t('abort.button_title'), onclick: onAbort }, [t('abort.button')]));
  if (canResign) host.appendChild(h('button', { class: 'btn small danger-subtle', type: 'button', 'data-action': 'resign', onclick: onResign }, [t('leave.resign')]));
  if (canCancel) host.appendChild(h('button', { class: 'btn small danger-subtle', type: 'button', 'data-action': 'cancel-game', onclick: onCancel }, [t('gone.cancel_game')]));
  host.hidden = !canResign && !canCancel && !canAbort && (!undo || undo.hidden);
}
