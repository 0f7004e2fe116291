// log.js — the move log: one line per record event (placements with their points,
// pyramids, AXIO!s, swaps, players leaving, the end), built from events as the
// viewer may see them; the words come from the message files (tn fills in the
// names, tiles and points).
import { h } from './svg.js';
import { t, tn } from './messages.js';
import { shapeIcon } from './colors.js';
import { tileSvg } from './rack.js';
import { botTag } from './bot_mark.js';

const pointsList = (points) => {
  if (!points) return [];
  const out = [];
  for (const [c, v] of Object.entries(points)) {
    if (v > 0) out.push(h('span', { class: 'pts' }, [`+${v}`, shapeIcon(c, 12)]));
  }
  return out.length ? out : [h('span', { class: 'pts none' }, [t('log.no_points')])];
};

const count = (x) => (Array.isArray(x) ? x.length : typeof x === 'number' ? x : 0);

const REASONS = ['blocked', 'all-max', 'tiles-out', 'left'];
export const reasonText = (r) => (REASONS.includes(r) ? t(`end.reason.${r}`) : r);

// The game ended on the placement that reached AXIO!: its bonus move is never played, so
// the log's last AXIO! lines (after the last placement) promise none.
export function dropEndedBonus(ol) {
  for (let li = ol.lastElementChild; li && !li.classList.contains('log-place'); li = li.previousElementSibling) {
    li.querySelector('.axio-bonus-note')?.remove();
  }
}

// Returns an element for the event, or null for events not shown (draws). bots[p]: seat p
// is played by a bot (its name carries the BOT mark).
export function logLine(ev, names, variant, bots = []) {
  const who = (p) => h('b', {}, [names[p] ?? t('common.player_n', { n: p + 1 }), bots[p] ? ' ' : null, bots[p] ? botTag() : null]);
  switch (ev.ev) {
    case 'start':
      return h('li', { class: 'log-start' }, [t('log.start')]);
    case 'place':
      return h('li', { class: `log-place${ev.bonus ? ' bonus' : ''}`, 'data-player': ev.player }, [
        ...tn(ev.bonus ? 'log.bonus_place' : 'log.place', { who: who(ev.player), tile: tileSvg(variant, ev.tile, 0, 22), points: pointsList(ev.points) }),
        ev.wild ? h('span', { class: 'wild-note' }, tn('log.wild', { color: shapeIcon(ev.wild, 12) })) : null,
      ]);
    case 'pyramid':
      return h('li', { class: 'log-pyramid' }, tn(ev.moved_from ? 'log.pyramid_moved' : 'log.pyramid', { who: who(ev.player), points: pointsList(ev.points) }));
    case 'axio':
      return h('li', { class: 'log-axio' }, [
        ...tn('log.axio', { axio: h('strong', {}, ['AXIO!']), who: who(ev.player), score: ev.score, color: shapeIcon(ev.color, 13) }),
        ev.bonus_move ? h('span', { class: 'axio-bonus-note' }, [t('log.axio_bonus')]) : '',
      ]);
    case 'swap':
      return h('li', { class: 'log-swap' }, ev.accepted
        ? tn('log.swapped', { who: who(ev.player), returned: count(ev.returned), drawn: count(ev.drawn) })
        : tn('log.kept', { who: who(ev.player) }));
    case 'leave':
      return h('li', { class: 'log-leave', 'data-player': ev.player, 'data-why': ev.why }, [
        who(ev.player), ` ${t(`log.leave.${ev.why}`)}`,
      ]);
    case 'end':
      return h('li', { class: 'log-end' }, [h('strong', {}, [t('log.end', { reason: reasonText(ev.reason) })])]);
    default:
      return null;
  }
}
