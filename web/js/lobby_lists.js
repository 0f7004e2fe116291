// lobby_lists.js — the lists of the lobby: one row per game (variant, players,
// clock, rated or casual, status, age, who is connected, whose turn, each name
// with its rating) with its buttons; "My games" (the games this browser holds a seat
// token for, and a signed-in account's games on any device: GET /api/me/games) and the
// finished games with a link to their replay; a waiting game created here shows its
// invite link; a game nobody is connected to says it is paused (dormant: no longer in
// the public lists), one that expired or was aborted says so. lobby.js fetches the
// lists and passes the actions in.
import { h, clear } from './svg.js';
import { tokens, created } from './api.js';
import { VARIANTS, modeName, seatLabel, personName } from './variants.js';
import { clockName } from './clock.js';
import { t, joinNames } from './messages.js';
import { inviteBox } from './invite.js';
import { session, authHash } from './account.js';
import { withRating } from './ratings.js';
import { lang } from './lang.js';

// The seats of the signed-in account (GET /api/me/games) by game id: a seat follows the
// account to every device, with no seat token in this browser (the session takes it).
const accountSeats = new Map();
export function setAccountGames(games) {
  accountSeats.clear();
  for (const g of games || []) if (g && Number.isInteger(g.seat)) accountSeats.set(g.id, g.seat);
}

// This viewer's seat in a game: the token's, else the account's; null for none.
export function mySeatOf(id) {
  const tk = tokens.get(id);
  if (tk) return tk.seat;
  return accountSeats.has(id) ? accountSeats.get(id) : null;
}

// The page of a game of mine: an account's seat without a token names its seat (the
// session takes it; ?seat= picks it when the account holds several of a casual game).
export function gameHash(id) {
  const seat = tokens.get(id) ? null : accountSeats.get(id);
  return `#/game/${encodeURIComponent(id)}${Number.isInteger(seat) ? `?seat=${seat}` : ''}`;
}

// "just now", "3 min ago", "2 h ago", "yesterday" from unix seconds.
export function ageText(unixS, now = Date.now()) {
  if (!unixS) return '';
  const s = Math.max(0, Math.floor(now / 1000 - unixS));
  if (s < 60) return t('lobby.age.now');
  if (s < 3600) return t('lobby.age.min', { n: Math.floor(s / 60) });
  if (s < 86400) return t('lobby.age.hour', { n: Math.floor(s / 3600) });
  return t('lobby.age.day', { n: Math.floor(s / 86400) });
}

// A seat's name in a row: a computer's by its level (numbered among its game's), a person's as given.
const seatName = (s, i, seats) => (s?.kind === 'ai' ? seatLabel(s, seats) : personName(s, i));

function seatChip(s, i, toMove, seats) {
  const human = s.kind !== 'ai';
  const taken = s.taken ?? !!s.name;  // finished games list names only
  const conn = human && taken && s.connected !== undefined ? (s.connected ? 'on' : 'off') : null;
  return h('span', {
    class: `seat-chip ${s.kind}${taken || s.kind === 'ai' ? '' : ' free'}${i === toMove ? ' to-move' : ''}${s.left ? ' left' : ''}`,
    'data-seat': i, 'data-connected': conn === null ? '' : conn === 'on' ? '1' : '0',
  }, [
    conn ? h('span', { class: `conn ${conn}`, title: conn === 'on' ? t('lobby.connected') : t('lobby.not_connected') }) : null,
    s.kind === 'ai' ? h('span', { class: 'chip-tag' }, [t('ai.tag')]) : null,
    s.kind === 'ai' ? ` ${withRating(seatName(s, i, seats), s.rating)}` : (taken ? withRating(seatName(s, i, seats), s.rating) : t('lobby.free_seat')),
  ]);
}

// What the game is doing, for a row: "your turn", "Bo to move", "waiting for players".
function doing(g, mySeat) {
  if (g.status === 'waiting') return { text: t('lobby.waiting_players') };
  if (g.status === 'running') {
    const i = g.to_move;
    if (i === null || i === undefined) return { text: '' };
    if (i === mySeat) return { text: t('lobby.your_turn'), cls: 'your-turn' };
    return { text: t('lobby.to_move', { name: seatName(g.seats?.[i], i, g.seats) }) };
  }
  if (g.status === 'aborted') {
    const by = g.end?.by;
    if (Number.isInteger(by) && by === mySeat) return { text: t('lobby.aborted_by_you'), cls: 'gone' };
    return { text: Number.isInteger(by) ? t('lobby.aborted_by', { name: seatName(g.seats?.[by], by, g.seats) }) : t('lobby.aborted'), cls: 'gone' };
  }
  if (g.status === 'expired' || g.status === 'cancelled') return { text: t(`lobby.${g.status}`), cls: 'gone', title: g.status === 'expired' ? t('lobby.expired_title') : null };
  if (g.status === 'over') {
    const win = g.end?.ranking?.[0] || [];
    return { text: win.length ? t('lobby.won', { names: joinNames(win.map((i) => seatName(g.seats?.[i], i, g.seats))) }) : t('lobby.over') };
  }
  return { text: t(`lobby.${g.status}`) || g.status };
}

// One game. act: {join(id), cancel(id)}; opts.finished: a finished-games row;
// opts.mine: a row of My games (a waiting game created here shows its invite link).
export function gameRow(g, act, { finished = false, mine: myList = false } = {}) {
  const mySeat = mySeatOf(g.id);
  const mine = mySeat !== null;
  const what = doing(g, mySeat);
  const facts = [t('lobby.players', { n: g.players }), modeName(g.mode)];
  if (g.clock) facts.push(clockName(g.clock));
  if (g.rated !== undefined) facts.push(g.rated ? t('rating.rated') : t('rating.casual'));
  if (g.rematch_of) facts.push(t('lobby.rematch'));
  const when = finished ? ageText(g.ended || g.created) : ageText(g.created);
  const invite = myList && tokens.get(g.id) && g.status === 'waiting' && created.has(g.id) && !g.rematch_of;
  const actions = [];
  if (finished) {
    actions.push(h('a', { class: 'btn small', href: `#/game/${g.id}`, 'data-action': 'replay' }, [t('lobby.replay')]));
  } else {
    const free = (g.seats || []).some((s) => s.kind === 'human' && !s.taken);
    if (mine && ['waiting', 'running', 'over', 'aborted'].includes(g.status)) {
      actions.push(h('button', { class: 'btn primary small', type: 'button', 'data-action': 'resume', onclick: () => { location.hash = gameHash(g.id); } }, [g.status === 'running' || g.status === 'waiting' ? t('lobby.resume') : t('lobby.open')]));
    } else if (!mine && g.status === 'waiting' && free && !g.rematch_of && g.rated && !session.me) {
      // Only accounts play rated games: log in first, then join.
      actions.push(h('a', { class: 'btn primary small', href: authHash('login', `#/join/${encodeURIComponent(g.id)}`), 'data-action': 'login-to-join', title: t('rated.join_needs_login') }, [t('rated.login_to_join')]));
    } else if (!mine && g.status === 'waiting' && free && !g.rematch_of) {
      actions.push(h('button', { class: 'btn primary small', type: 'button', 'data-action': 'join', onclick: () => act.join(g.id) }, [t('lobby.join')]));
    }
    // Cancelling asks for the creator's seat token (DELETE /api/games/ID): this browser's.
    if (tokens.get(g.id) && g.status === 'waiting' && created.has(g.id)) {
      actions.push(h('button', { class: 'btn small danger-subtle', type: 'button', 'data-action': 'cancel', onclick: () => act.cancel(g.id) }, [t('lobby.cancel')]));
    }
    // One's own game is resumed (above), not watched.
    if (!mine && (g.status === 'waiting' || g.status === 'running')) {
      actions.push(h('button', { class: 'btn small', type: 'button', 'data-action': 'watch', onclick: () => { location.hash = `#/watch/${g.id}`; } }, [t('lobby.watch')]));
    }
  }
  return h('div', { class: `game-row${what.cls ? ` ${what.cls}` : ''}${g.rated ? ' rated' : ''}`, 'data-game': g.id, 'data-status': g.status, 'data-rated': g.rated ? '1' : '0', 'data-dormant': g.dormant ? '1' : null, 'data-seat': mine ? String(mySeat) : null }, [
    h('div', { class: 'game-row-main' }, [
      h('div', { class: 'game-row-head' }, [
        h('b', {}, [VARIANTS[g.variant]?.name || g.variant]),
        h('span', { class: 'muted' }, [` ${facts.join(' · ')}`]),
        when ? h('span', { class: 'game-age muted', title: new Date((finished ? g.ended || g.created : g.created) * 1000).toLocaleString(lang()) }, [` · ${when}`]) : null,
      ]),
      what.text ? h('div', { class: `game-doing${what.cls ? ` ${what.cls}` : ''}`, title: what.title || null }, [what.text]) : null,
      // Nobody connected for a while: out of the public lists, here until it expires.
      g.status === 'running' && g.dormant ? h('div', { class: 'dormant-note', title: t('lobby.dormant_title') }, [t('lobby.dormant')]) : null,
      h('div', { class: 'seat-chips' }, (g.seats || []).map((s, i) => seatChip(s, i, g.status === 'running' ? g.to_move : -1, g.seats))),
    ]),
    h('div', { class: 'game-row-actions' }, actions),
    invite ? inviteBox(g.id) : null,
  ]);
}

// Fills a list. A row that would look the same as before stays the same element
// (not rebuilt every refresh), so a selected invite link or a "Copied" survives.
export function fillList(box, games, empty, act, opts) {
  if (!games.length) { clear(box).appendChild(h('p', { class: 'muted' }, [empty])); return; }
  const old = new Map([...box.querySelectorAll(':scope > .game-row')].map((el) => [el.dataset.game, el]));
  const rows = games.map((g) => {
    const row = gameRow(g, act, opts);
    const sig = row.outerHTML;
    const prev = old.get(g.id);
    if (prev && prev.dataset.sig === sig) return prev;
    row.dataset.sig = sig;
    return row;
  });
  // Moves only what changed: a kept row that is not moved keeps its focus.
  rows.forEach((row, i) => { if (box.children[i] !== row) box.insertBefore(row, box.children[i] || null); });
  while (box.children.length > rows.length) box.lastElementChild.remove();
}

// The ids of "My games", most recently joined first (at most 50).
export function myGameIds() {
  return tokens.all()
    .map((id) => ({ id, at: tokens.get(id)?.at || 0 }))
    .sort((a, b) => b.at - a.at)
    .slice(0, 50)
    .map((x) => x.id);
}

// "My games" in order: your turn first, then running, waiting, and a few finished ones.
export function sortMine(games) {
  const rank = (g) => {
    const seat = mySeatOf(g.id);
    if (g.status === 'running' && g.to_move === seat) return 0;
    if (g.status === 'running') return 1;
    if (g.status === 'waiting') return 2;
    return 3;
  };
  const sorted = games.slice().sort((a, b) => rank(a) - rank(b) || (b.created || 0) - (a.created || 0));
  const active = sorted.filter((g) => rank(g) < 3);
  return active.concat(sorted.filter((g) => rank(g) === 3).slice(0, 8));
}
