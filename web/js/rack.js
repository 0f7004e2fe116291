// rack.js — the player's rack (ROTA: the hand) as a row of buttons, each a small
// SVG of the tile. The picked tile is drawn turned the way it will be placed.
// Emits select(index) and rotate(); knows nothing about the rules.
import { h, s, clear, svgRoot } from './svg.js';
import { drawSquareDomino } from './board_square.js';
import { drawHexDomino } from './board_hex.js';
import { drawRotaTile, rotateCorners } from './board_rota.js';
import { colorLabel } from './colors.js';
import { t, tv } from './messages.js';

// The angle (degrees, clockwise) at which a domino's second half lies, per orientation.
export const dominoAngle = (variant, rot) => (variant === 'hex' ? -60 * rot : 90 * rot);

// A standalone SVG picture of a tile; used by the rack, the log and dialogs.
export function tileSvg(variant, tile, rot = 0, size = 56) {
  if (variant === 'rota') {
    const svg = svgRoot('-33 -33 66 66', { width: size, height: size, class: 'tile-svg' });
    const g = s('g', { transform: 'translate(-30 -30)' }, svg);
    drawRotaTile(g, [0, 0], rotateCorners(tile, rot));
    return svg;
  }
  const svg = svgRoot('-44 -44 88 88', { width: size, height: size, class: 'tile-svg' });
  const turn = s('g', { class: 'tile-turn', style: `transform: rotate(${dominoAngle(variant, rot)}deg)` }, svg);
  if (variant === 'hex') {
    const g = s('g', { transform: `translate(${-Math.sqrt(3) * 11} 0)` }, turn);
    drawHexDomino(g, [0, 0], [1, 0], tile[0], tile[1]);
  } else {
    const g = s('g', { transform: 'translate(-52 -32)' }, turn);
    drawSquareDomino(g, [0, 0], [0, 1], tile[0], tile[1]);
  }
  return svg;
}

const tileName = (tile) => tile.map((c) => (c ? colorLabel(c) : t('rack.empty_corner'))).join(', ');

export class Rack {
  constructor(host, handlers) {
    this.host = host;
    this.handlers = handlers;
    this.list = h('div', { class: 'rack-tiles', role: 'listbox', 'aria-label': t('game.your_tiles') });
    this.turnBtn = h('button', { class: 'btn turn-btn', type: 'button', title: t('rack.turn_title'), onclick: () => handlers.rotate() }, [t('rack.turn')]);
    clear(host).append(this.list, this.turnBtn);
    host.addEventListener('contextmenu', (e) => { e.preventDefault(); handlers.rotate(); });
  }

  // {variant, tiles, selected, rot, active}
  render({ variant, tiles, selected, rot, active }) {
    clear(this.list);
    this.list.setAttribute('aria-label', tv('game.your_tiles', variant));
    this.turnBtn.title = tv('rack.turn_title', variant);
    tiles.forEach((tile, i) => {
      const sel = i === selected;
      const btn = h('button', {
        type: 'button', class: `rack-tile${sel ? ' selected' : ''}`, role: 'option',
        'aria-selected': sel ? 'true' : 'false', 'data-index': i, 'data-tile': tile.map((c) => c || 'none').join(','),
        title: tv('rack.tile', variant, { n: i + 1, tile: tileName(tile) }), 'aria-label': tv('rack.tile', variant, { n: i + 1, tile: tileName(tile) }),
        onclick: () => this.handlers.select(i),
      }, [tileSvg(variant, tile, sel ? rot : 0, variant === 'rota' ? 58 : 50)]);
      this.list.appendChild(btn);
    });
    if (!tiles.length) this.list.appendChild(h('div', { class: 'rack-empty' }, [tv('rack.none', variant)]));
    this.turnBtn.disabled = selected === null || selected === undefined;
    this.host.classList.toggle('inactive', !active);
  }
}
