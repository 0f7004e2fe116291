// dialogs.js — the game's pop-ups: the AXIO! announcement, the swap offer, the
// choice of a ROTA wild corner's colour, the end screen with the ranking and how
// ties were broken (players who left marked; a game ended by leaving says who left and
// how: "Bo resigned") and, in a rated game, each seat's rating change; a guest is
// offered to sign up; an aborted game's card (who aborted it, no result, no rating
// changed); a confirmation, and short notices.
// Each returns its element; game.js wires them.
import { h, clear } from './svg.js';
import { shapeIcon, colorLabel, colorName } from './colors.js';
import { tileSvg } from './rack.js';
import { reasonText } from './log.js';
import { t, tn, joinNames } from './messages.js';
import { seatLabel } from './variants.js';
import { changeText, changeClass } from './ratings.js';

export function toast(host, text, kind = 'info', ms = 2600) {
  const el = h('div', { class: `toast toast-${kind}`, role: 'status' }, [text]);
  // The same words again replace the shown ones rather than piling up (hints asked in a row).
  for (const old of host.querySelectorAll('.toast')) if (old.textContent === el.textContent) old.remove();
  host.appendChild(el);
  setTimeout(() => el.classList.add('fade'), ms - 400);
  setTimeout(() => el.remove(), ms);
  return el;
}

// AXIO! — big, short-lived, one at a time (queued by the caller).
export function axioBanner(host, { name, color, score, bonus }) {
  const el = h('div', { class: 'axio-banner', role: 'alert', 'data-color': color }, [
    h('div', { class: 'axio-word' }, ['AXIO!']),
    h('div', { class: 'axio-detail' }, tn('axio.reached', { name: h('b', {}, [name]), score, color: [shapeIcon(color, 22), colorName(color)] })),
  ]);
  axioBonus(el, bonus);
  host.appendChild(el);
  return el;
}

// The banner's "Bonus move!", said once there is one to play (game.js).
export function axioBonus(el, on) {
  const had = el.querySelector('.axio-bonus');
  if (on && !had) el.append(h('div', { class: 'axio-bonus' }, [t('axio.bonus')]));
  else if (!on && had) had.remove();
}

// focus: the selector of the button focused first (the first button if none matches).
function modal(host, cls, label, children, focus = 'button') {
  const el = h('div', { class: `modal-back ${cls}-back` }, [
    h('div', { class: `modal ${cls}`, role: 'dialog', 'aria-modal': 'true', 'aria-label': label }, children),
  ]);
  host.appendChild(el);
  const first = el.querySelector(focus) || el.querySelector('button');
  // A docked card (the end screen) takes the focus without scrolling the board away.
  if (first) setTimeout(() => first.focus({ preventScroll: el.classList.contains('docked') }), 0);
  return el;
}

// A yes/no question (resigning, cancelling a game); the safe answer is focused first.
export function confirmDialog(host, { title, text, ok, cancel, onOk, onCancel, action = 'confirm' }) {
  const el = modal(host, 'confirm-dialog', title, [
    h('h2', {}, [title]),
    text ? h('p', {}, [text]) : null,
    h('div', { class: 'dialog-buttons' }, [
      h('button', { class: 'btn', type: 'button', 'data-action': 'cancel', onclick: onCancel }, [cancel]),
      h('button', { class: 'btn danger', type: 'button', 'data-action': action, onclick: onOk }, [ok]),
    ]),
  ]);
  return el;
}

// The swap offer (rules 2.2 step 5, 4.2): a clear choice between two buttons; in a
// casual game a Hint button asks the engine, whose answer markSwapHint marks.
export function swapDialog(host, { variant, rack, lowest, onChoose, onHint = null }) {
  const colors = lowest.flatMap((c, i) => [i ? ' ' : null, shapeIcon(c, 18), ` ${colorName(c)}`]);
  const el = modal(host, 'swap-dialog', t('swap.title'), [
    h('h2', {}, [t('swap.title')]),
    h('p', {}, tn(lowest.length > 1 ? 'swap.none_many' : 'swap.none_one', { colors })),
    h('div', { class: 'swap-rack' }, rack.map((tile) => tileSvg(variant, tile, 0, 44))),
    h('p', { class: 'muted' }, [t('swap.explain', { n: rack.length })]),
    h('div', { class: 'dialog-buttons' }, [
      h('button', { class: 'btn primary', type: 'button', 'data-action': 'swap', onclick: () => onChoose(true) }, [t('swap.yes')]),
      h('button', { class: 'btn', type: 'button', 'data-action': 'keep', onclick: () => onChoose(false) }, [t('swap.no')]),
      onHint ? h('button', { class: 'btn subtle swap-hint', type: 'button', 'data-action': 'swap-hint', title: t('hint.title'), onclick: onHint }, [t('hint.button')]) : null,
    ]),
  ]);
  return el;
}

// The engine's answer to a swap offer, in its dialog: that button marked and focused.
export function markSwapHint(el, accept) {
  const btn = el.querySelector(`[data-action=${accept ? 'swap' : 'keep'}]`);
  if (!btn || btn.dataset.hinted) return;
  for (const b of el.querySelectorAll('[data-hinted]')) { b.removeAttribute('data-hinted'); b.querySelector('.hint-badge')?.remove(); }
  btn.dataset.hinted = 'true';
  btn.append(' ', h('span', { class: 'hint-badge' }, [t('hint.button')]));
  btn.focus();
}

// ROTA wild corner: the colours whose preview scores more than naming none, plus none.
// hinted: the colour of a hint being placed ('none' for none): marked and focused, so it
// is the choice already made (Enter or a click places it), another can still be picked.
export function wildChooser(host, { options, baseTotal, hinted, onChoose, onCancel }) {
  const mark = (c) => (c === hinted ? [' ', h('span', { class: 'hint-badge' }, [t('hint.button')])] : []);
  const attrs = (c, total) => ({
    class: `btn wild-opt${c === hinted ? ' primary hinted' : ''}`, type: 'button', 'data-wild': c, 'data-total': total,
    'data-hinted': c === hinted ? 'true' : null,
  });
  const el = modal(host, 'wild-dialog', t('wild.label'), [
    h('h2', {}, [t('wild.title')]),
    h('p', { class: 'muted' }, [t('wild.text')]),
    h('div', { class: 'wild-options' }, [
      ...options.map((o) => h('button', { ...attrs(o.color, o.total), onclick: () => onChoose(o.color) }, [
        shapeIcon(o.color, 22), ` ${colorName(o.color)} `, h('span', { class: 'muted', title: t('wild.points_title') }, [`+${o.total}`]), ...mark(o.color),
      ])),
      h('button', { ...attrs('none', baseTotal), onclick: () => onChoose(null) }, [
        `${t('wild.none')} `, h('span', { class: 'muted', title: t('wild.points_title') }, [`+${baseTotal}`]), ...mark('none'),
      ]),
    ]),
    h('div', { class: 'dialog-buttons' }, [h('button', { class: 'btn subtle', type: 'button', onclick: onCancel }, [t('wild.cancel')])]),
  ], hinted ? '[data-hinted]' : 'button');
  return el;
}

const ord = (j) => t(`end.ord.${j + 1}`); // 'lowest', '2nd lowest', ...

// Explains each step of the ranking from the final tracks: where two neighbouring
// places first differ when each player's tracks are read from the lowest up.
export function tieBreaks(end, label, colors, left = () => false) {
  const sorted = (seat) => colors.map((c) => end.scores[seat]?.[c] ?? 0).sort((a, b) => a - b);
  const lines = [];
  const groups = end.ranking || [];
  for (let g = 0; g < groups.length; g++) {
    const grp = groups[g];
    if (grp.length > 1 && label.sharedNote(grp)) lines.push(label.sharedNote(grp));
    if (g + 1 >= groups.length) continue;
    const a = grp[0], b = groups[g + 1][0];
    if (left(a) || left(b)) continue;  // leavers rank below the others whatever their tracks
    const va = sorted(a), vb = sorted(b);
    const j = va.findIndex((v, i) => v !== vb[i]);
    if (j < 0) continue;
    const tied = j === 0 ? '' : t('end.tied', { ords: [...Array(j).keys()].map(ord).join(', '), values: va.slice(0, j).join(', ') });
    lines.push(t('end.ahead', { a: label.group(grp), b: label.group(groups[g + 1]), tied, nth: ord(j), x: va[j], y: vb[j] }));
  }
  return lines;
}

// Each seat's rating change on the end screen of a rated game (+12 / −8), and the
// rating after it; the changes may come with a later state than the end.
export function fillRatingChanges(el, seats) {
  for (const td of el.querySelectorAll('.ranking .rating-change[data-seat]')) {
    const s = seats[Number(td.dataset.seat)] || {};
    const ch = s.rating_change;
    td.className = `rating-change ${changeClass(ch)}`;
    td.dataset.change = ch === null || ch === undefined ? '' : String(ch);
    td.textContent = changeText(ch);
    td.title = ch === null || ch === undefined ? '' : t('rating.after', { rating: s.rating === null || s.rating === undefined ? '' : Math.round(s.rating) });
  }
}

// A solo result as a player reads it: hex's three lowest tracks as "3 · 9 · 10" (the
// number L1*10000 + L2*100 + L3 of rules 1.2 says them run together: 30910).
export function soloResult(variant, result) {
  if (variant !== 'hex' || typeof result !== 'number') return String(result);
  return [Math.floor(result / 10000), Math.floor(result / 100) % 100, result % 100].join(' · ');
}

// Why a game ended by leaving: who left and how, in the order they left ("Bo resigned.",
// "You ran out of time."); leaves: [{seat, why}].
export function leaveText(leaves, seats, you) {
  return leaves.filter((l) => ['resign', 'timeout', 'absent'].includes(l.why)).map((l) => (l.seat === you
    ? t(`end.you_left.${l.why}`)
    : t(`end.left.${l.why}`, { name: seats[l.seat] ? seatLabel(seats[l.seat], seats) : t('common.player_n', { n: l.seat + 1 }) }))).join(' ');
}

// The end card's reason once the history says who left (it may come after the card).
export function fillLeaves(el, leaves, seats, you) {
  const p = el.querySelector('.end-reason');
  const text = leaveText(leaves, seats, you);
  if (p && text) { p.textContent = text; p.dataset.leaves = leaves.map((l) => `${l.seat}:${l.why}`).join(','); }
}

export function endScreen(host, { end, seats, colors, mode, variant, you, rated = false, leaves = [], signupHref = null, onReplay, onClose, onLobby, onRematch }) {
  const plain = (i) => (seats[i] ? seatLabel(seats[i], seats) : t('common.player_n', { n: i + 1 }));
  const name = (i) => (i === you ? t('common.you', { name: plain(i) }) : plain(i));
  const left = (i) => !!seats[i]?.left;
  const label = {
    group: (grp) => {
      if (mode === 'team') return t('end.team', { team: grp[0] % 2 === 0 ? 'A' : 'B', names: grp.map(name).join(' & ') });
      return joinNames(grp.map(name));
    },
    sharedNote: (grp) => (mode === 'team' && grp.every((s) => s % 2 === grp[0] % 2) ? null
      : t('end.share_place', { names: joinNames(grp.map(name)) })),
  };
  const rows = [];
  (end.ranking || []).forEach((grp, gi) => {
    grp.forEach((seat, k) => {
      const sc = end.scores?.[seat] || {};
      const order = [...colors].sort((a, b) => (sc[a] ?? 0) - (sc[b] ?? 0));
      const why = seats[seat]?.left;
      rows.push(h('tr', { class: `${gi === 0 ? 'winner' : ''}${seat === you ? ' you' : ''}${why ? ' left' : ''}`, 'data-seat': seat, 'data-place': gi + 1, 'data-left': why || '' }, [
        h('td', { class: 'place' }, [k === 0 ? `${gi + 1}.` : '=']),
        h('td', { class: 'who' }, [name(seat), why ? h('span', { class: 'left-tag', 'data-why': why }, [t('end.left_mark', { why: t(`leave.why.${why}`) })]) : null,
          rated ? h('span', { class: 'rating-change', 'data-seat': seat }) : null]),
        h('td', { class: 'tracks' }, order.map((c) => h('span', { class: 'trk' }, [shapeIcon(c, 14), String(sc[c] ?? 0)]))),
      ]));
    });
  });
  const winners = (end.ranking?.[0] || []);
  const solo = end.result !== null && end.result !== undefined;
  let headline;
  if (solo) headline = t('end.result', { result: soloResult(variant, end.result) });
  else if (winners.length === 1 || mode === 'team') headline = t('end.wins', { who: label.group(winners) });
  else headline = t('end.share_win', { names: joinNames(winners.map(name)) });
  if (winners.includes(you) && seats.length > 1) headline = mode === 'team' ? t('end.team_wins') : (winners.length > 1 ? t('end.you_share') : t('end.you_win'));
  const breaks = tieBreaks(end, label, colors, left);
  if (seats.some((st) => st?.left) && seats.length > 1) breaks.push(t('end.leavers_rank'));
  const el = modal(host, 'end-dialog', t('end.title'), [
    h('h2', {}, [t('end.title')]),
    h('p', { class: 'end-headline', 'data-result': solo ? String(end.result) : null }, [headline]),
    // Ended by leaving: who left and how ("Bo resigned."), not "too few players stayed".
    h('p', { class: 'muted end-reason', 'data-reason': end.reason, 'data-leaves': end.reason === 'left' ? leaves.map((l) => `${l.seat}:${l.why}`).join(',') : null }, [
      (end.reason === 'left' && leaveText(leaves, seats, you)) || t('end.reason', { reason: reasonText(end.reason) })]),
    solo ? h('p', { class: 'muted' }, [t(variant === 'hex' ? 'end.solo_hex' : 'end.solo')]) : null,
    rated ? h('p', { class: 'muted end-rated' }, [t('rating.end_rated')]) : null,
    h('table', { class: `ranking${rated ? ' rated' : ''}` }, [h('tbody', {}, rows)]),
    breaks.length ? h('div', { class: 'tie-breaks' }, [
      h('h3', {}, [t('end.how')]),
      h('ul', {}, breaks.map((line) => h('li', {}, [line]))),
      h('p', { class: 'muted' }, [t('end.only_weakest')]),
    ]) : null,
    signupHref ? h('p', { class: 'end-signup' }, [
      h('a', { href: signupHref, 'data-action': 'signup' }, [t('rating.signup_cta')]), ` ${t('rating.signup_why')}`,
    ]) : null,
    h('div', { class: 'end-rematch' }),
    h('div', { class: 'dialog-buttons' }, [
      onRematch ? h('button', { class: 'btn primary', type: 'button', 'data-action': 'rematch', onclick: onRematch }, [t('rematch.button')]) : null,
      h('button', { class: `btn${onRematch ? '' : ' primary'}`, type: 'button', 'data-action': 'replay', onclick: onReplay }, [t('game.step_through')]),
      h('button', { class: 'btn', type: 'button', 'data-action': 'close', onclick: onClose }, [t('end.look')]),
      h('button', { class: 'btn subtle', type: 'button', 'data-action': 'lobby', onclick: onLobby }, [t('end.lobby')]),
    ]),
  ]);
  if (rated) fillRatingChanges(el, seats);
  // Docked beside the board, not over it: a card the page goes on around.
  el.classList.add('docked');
  el.querySelector('.modal').setAttribute('aria-modal', 'false');
  return el;
}

// An aborted game (docs/online-play.md, "Aborting"): no result, no record; who aborted
// it, and in a rated game that no rating changed. Docked like the end card.
export function abortedScreen(host, { by, seats, you, rated = false, onClose, onLobby }) {
  const who = Number.isInteger(by) && seats[by] ? seatLabel(seats[by], seats) : null;
  const el = modal(host, 'end-dialog', t('abort.title'), [
    h('h2', {}, [t('abort.title')]),
    h('p', { class: 'end-headline aborted-by', 'data-by': Number.isInteger(by) ? String(by) : '' }, [
      by === you ? t('abort.by_you') : who ? t('abort.by', { name: who }) : t('abort.by_nobody')]),
    h('p', { class: 'muted aborted-note' }, [t(rated ? 'abort.no_rating' : 'abort.no_result')]),
    h('div', { class: 'dialog-buttons' }, [
      h('button', { class: 'btn', type: 'button', 'data-action': 'close', onclick: onClose }, [t('end.look')]),
      h('button', { class: 'btn primary', type: 'button', 'data-action': 'lobby', onclick: onLobby }, [t('end.lobby')]),
    ]),
  ]);
  el.classList.add('docked', 'aborted');
  el.querySelector('.modal').setAttribute('aria-modal', 'false');
  return el;
}

export { clear, colorLabel };
