// log.js — the move log: one line per record event (placements with their points,
// pyramids, AXIO!s, swaps, players leaving, the end), built from events as the
// viewer may see them.
import { h } from './svg.js';
import { t } from './messages.js';
import { shapeIcon } from './colors.js';
import { tileSvg } from './rack.js';

const pointsList = (points) => {
  if (!points) return [];
  const out = [];
  for (const [c, v] of Object.entries(points)) {
    if (v > 0) out.push(h('span', { class: 'pts' }, [`+${v}`, shapeIcon(c, 12)]));
  }
  return out.length ? out : [h('span', { class: 'pts none' }, ['no points'])];
};

const count = (x) => (Array.isArray(x) ? x.length : typeof x === 'number' ? x : 0);

const REASONS = {
  blocked: 'the player to move could not place a tile',
  'all-max': 'a player reached the top in every colour',
  'tiles-out': 'all stacks were played',
  left: t('end.reason.left'),
};
export const reasonText = (r) => REASONS[r] || r;

// Returns an element for the event, or null for events not shown (draws).
export function logLine(ev, names, variant) {
  const who = (p) => h('b', {}, [names[p] ?? `Player ${p + 1}`]);
  switch (ev.ev) {
    case 'start':
      return h('li', { class: 'log-start' }, ['Game started.']);
    case 'place':
      return h('li', { class: `log-place${ev.bonus ? ' bonus' : ''}`, 'data-player': ev.player }, [
        who(ev.player), ev.bonus ? ' bonus move ' : ' placed ', tileSvg(variant, ev.tile, 0, 22), ' ',
        ...pointsList(ev.points),
        ev.wild ? h('span', { class: 'wild-note' }, [' wild ', shapeIcon(ev.wild, 12)]) : null,
      ]);
    case 'pyramid':
      return h('li', { class: 'log-pyramid' }, [
        '▲ pyramid', ev.moved_from ? ' (moved)' : '', ' for ', who(ev.player), ' ', ...pointsList(ev.points),
      ]);
    case 'axio':
      return h('li', { class: 'log-axio' }, [
        h('strong', {}, ['AXIO! ']), who(ev.player), ` reached ${ev.score} in `, shapeIcon(ev.color, 13),
        ev.bonus_move ? ' — bonus move' : '',
      ]);
    case 'swap':
      return h('li', { class: 'log-swap' }, ev.accepted
        ? [who(ev.player), ` swapped ${count(ev.returned)} tiles for ${count(ev.drawn)} new ones`]
        : [who(ev.player), ' kept the tiles']);
    case 'leave':
      return h('li', { class: 'log-leave', 'data-player': ev.player, 'data-why': ev.why }, [
        who(ev.player), ` ${t(`log.leave.${ev.why}`)}`,
      ]);
    case 'end':
      return h('li', { class: 'log-end' }, [h('strong', {}, ['Game over: ']), reasonText(ev.reason), '.']);
    default:
      return null;
  }
}
