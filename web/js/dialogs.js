// dialogs.js — the game's pop-ups: the AXIO! announcement, the swap offer, the
// choice of a ROTA wild corner's colour, the end screen with the ranking and how
// ties were broken (players who left marked) and, in a rated game, each seat's
// rating change; a guest is offered to sign up; a confirmation, and short notices.
// Each returns its element; game.js wires them.
import { h, clear } from './svg.js';
import { shapeIcon, colorLabel } from './colors.js';
import { tileSvg } from './rack.js';
import { reasonText } from './log.js';
import { t } from './messages.js';
import { changeText, changeClass } from './ratings.js';

export function toast(host, text, kind = 'info', ms = 2600) {
  const el = h('div', { class: `toast toast-${kind}`, role: 'status' }, [text]);
  host.appendChild(el);
  setTimeout(() => el.classList.add('fade'), ms - 400);
  setTimeout(() => el.remove(), ms);
  return el;
}

// AXIO! — big, short-lived, one at a time (queued by the caller).
export function axioBanner(host, { name, color, score, bonus }) {
  const el = h('div', { class: 'axio-banner', role: 'alert', 'data-color': color }, [
    h('div', { class: 'axio-word' }, ['AXIO!']),
    h('div', { class: 'axio-detail' }, [h('b', {}, [name]), ` reached ${score} in `, shapeIcon(color, 22), ` ${color}`]),
    bonus ? h('div', { class: 'axio-bonus' }, ['Bonus move!']) : null,
  ]);
  host.appendChild(el);
  return el;
}

function modal(host, cls, label, children) {
  const el = h('div', { class: `modal-back ${cls}-back` }, [
    h('div', { class: `modal ${cls}`, role: 'dialog', 'aria-modal': 'true', 'aria-label': label }, children),
  ]);
  host.appendChild(el);
  const first = el.querySelector('button');
  if (first) setTimeout(() => first.focus(), 0);
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

// The swap offer (rules 2.2 step 5, 4.2): a clear choice between two buttons.
export function swapDialog(host, { variant, rack, lowest, onChoose }) {
  const el = modal(host, 'swap-dialog', 'Swap your tiles?', [
    h('h2', {}, ['Swap your tiles?']),
    h('p', {}, ['None of your tiles shows your weakest colour', lowest.length > 1 ? 's' : '', ' ',
      ...lowest.map((c) => shapeIcon(c, 18)), '.']),
    h('div', { class: 'swap-rack' }, rack.map((t) => tileSvg(variant, t, 0, 44))),
    h('p', { class: 'muted' }, [`Swap: put all ${rack.length} tiles back and draw new ones. Keep: keep them and refill.`]),
    h('div', { class: 'dialog-buttons' }, [
      h('button', { class: 'btn primary', type: 'button', 'data-action': 'swap', onclick: () => onChoose(true) }, ['Swap all tiles']),
      h('button', { class: 'btn', type: 'button', 'data-action': 'keep', onclick: () => onChoose(false) }, ['Keep my tiles']),
    ]),
  ]);
  return el;
}

// ROTA wild corner: the colours whose preview scores more than naming none, plus none.
export function wildChooser(host, { options, baseTotal, onChoose, onCancel }) {
  const el = modal(host, 'wild-dialog', 'Colour of the empty corner', [
    h('h2', {}, ['Empty corner: name a colour']),
    h('p', { class: 'muted' }, ['The empty corner scores as the colour you name (points of the whole placement shown).']),
    h('div', { class: 'wild-options' }, [
      ...options.map((o) => h('button', { class: 'btn wild-opt', type: 'button', 'data-wild': o.color, onclick: () => onChoose(o.color) }, [
        shapeIcon(o.color, 22), ` ${o.color} `, h('span', { class: 'muted', title: 'points of this placement in all' }, [`+${o.total}`]),
      ])),
      h('button', { class: 'btn wild-opt', type: 'button', 'data-wild': 'none', onclick: () => onChoose(null) }, [
        'none ', h('span', { class: 'muted', title: 'points of this placement in all' }, [`+${baseTotal}`]),
      ]),
    ]),
    h('div', { class: 'dialog-buttons' }, [h('button', { class: 'btn subtle', type: 'button', onclick: onCancel }, ['Cancel'])]),
  ]);
  return el;
}

const ORD = ['lowest', '2nd lowest', '3rd lowest', '4th lowest', '5th lowest', '6th lowest'];

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
    const tied = j === 0 ? '' : `tied on the ${ORD.slice(0, j).join(', ')} (${va.slice(0, j).join(', ')}), then `;
    lines.push(`${label.group(grp)} ahead of ${label.group(groups[g + 1])}: ${tied}${ORD[j]} colour ${va[j]} vs ${vb[j]}.`);
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

export function endScreen(host, { end, seats, colors, mode, variant, you, rated = false, signupHref = null, onReplay, onClose, onLobby, onRematch }) {
  const name = (i) => (seats[i]?.name || `Player ${i + 1}`) + (i === you ? ' (you)' : '');
  const left = (i) => !!seats[i]?.left;
  const label = {
    group: (grp) => {
      if (mode === 'team') return `Team ${grp[0] % 2 === 0 ? 'A' : 'B'} (${grp.map(name).join(' & ')})`;
      return grp.map(name).join(' and ');
    },
    sharedNote: (grp) => (mode === 'team' && grp.every((s) => s % 2 === grp[0] % 2) ? null
      : `${grp.map(name).join(' and ')} share the place: equal in every colour.`),
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
  let headline;
  if (end.result !== null && end.result !== undefined) headline = `Result: ${end.result}`;
  else if (winners.length === 1 || mode === 'team') headline = `${label.group(winners)} wins!`;
  else headline = `${winners.map(name).join(' and ')} share the win!`;
  if (winners.includes(you) && seats.length > 1) headline = mode === 'team' ? 'Your team wins!' : (winners.length > 1 ? 'You share the win!' : 'You win!');
  const breaks = tieBreaks(end, label, colors, left);
  if (seats.some((st) => st?.left) && seats.length > 1) breaks.push(t('end.leavers_rank'));
  const el = modal(host, 'end-dialog', 'Game over', [
    h('h2', {}, ['Game over']),
    h('p', { class: 'end-headline' }, [headline]),
    h('p', { class: 'muted end-reason' }, [`The game ended because ${reasonText(end.reason)}.`]),
    end.result !== null && end.result !== undefined
      ? h('p', { class: 'muted' }, [variant === 'hex'
        ? 'Solo result: your three lowest tracks written as one number (lowest first).'
        : 'Solo result: your lowest track.']) : null,
    rated ? h('p', { class: 'muted end-rated' }, [t('rating.end_rated')]) : null,
    h('table', { class: `ranking${rated ? ' rated' : ''}` }, [h('tbody', {}, rows)]),
    breaks.length ? h('div', { class: 'tie-breaks' }, [
      h('h3', {}, ['How the places were decided']),
      h('ul', {}, breaks.map((t) => h('li', {}, [t]))),
      h('p', { class: 'muted' }, ['Only the weakest colour counts; on a tie the next weakest decides, and so on.']),
    ]) : null,
    signupHref ? h('p', { class: 'end-signup' }, [
      h('a', { href: signupHref, 'data-action': 'signup' }, [t('rating.signup_cta')]), ` ${t('rating.signup_why')}`,
    ]) : null,
    h('div', { class: 'end-rematch' }),
    h('div', { class: 'dialog-buttons' }, [
      onRematch ? h('button', { class: 'btn primary', type: 'button', 'data-action': 'rematch', onclick: onRematch }, [t('rematch.button')]) : null,
      h('button', { class: `btn${onRematch ? '' : ' primary'}`, type: 'button', 'data-action': 'replay', onclick: onReplay }, ['Step through the game']),
      h('button', { class: 'btn', type: 'button', 'data-action': 'close', onclick: onClose }, ['Look at the board']),
      h('button', { class: 'btn subtle', type: 'button', 'data-action': 'lobby', onclick: onLobby }, ['Lobby']),
    ]),
  ]);
  if (rated) fillRatingChanges(el, seats);
  return el;
}

export { clear, colorLabel };
